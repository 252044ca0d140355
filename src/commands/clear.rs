//! What `reset` and `remove` share: the report table; and the write
//! preamble of commands not yet on the batch runner.

use anyhow::Result;

use crate::cli::WriteArgs;
use crate::commands::Context;
use crate::engine::reset::ClearReport;
use crate::store::{lock, runtime};
use crate::table::{Col, Field, Grid};

/// Held for the whole write: the store lock, then each session's lock.
pub struct WriteGuard {
    _store: Option<lock::Lock>,
    _sessions: Vec<(String, lock::Lock)>,
}

/// Before writing: Agenvoy must not run, and no other sessionctl may hold
/// the store or these sessions. A dry run takes no locks and only warns.
pub fn begin(ctx: &Context, ids: &[&str], w: &WriteArgs) -> Result<WriteGuard> {
    if w.dry_run {
        if let Some(w) = runtime::dry_run_warning(&ctx.root) {
            ctx.out.warn(&w);
        }
        return Ok(WriteGuard {
            _store: None,
            _sessions: Vec::new(),
        });
    }
    runtime::ensure_not_running(&ctx.root, w.force)?;
    let store = lock::store(&ctx.root)?;
    let mut sorted: Vec<&str> = ids.to_vec();
    sorted.sort_unstable();
    let mut sessions = Vec::with_capacity(sorted.len());
    for id in sorted {
        sessions.push((id.to_owned(), lock::session(&ctx.root, id)?));
    }
    Ok(WriteGuard {
        _store: Some(store),
        _sessions: sessions,
    })
}

pub fn render(ctx: &Context, reports: &[ClearReport]) -> Result<()> {
    let dry = reports.first().is_some_and(|r| r.dry_run);
    if reports.is_empty() {
        return Ok(());
    }
    let mut cols = vec![
        Col::id("SESSION"),
        Col::id("ACTION").optional(2),
        Col::num("TORII KEYS"),
        Col::num("ARCHIVE ROWS"),
        Col::text("FILES").optional(1),
    ];
    if !dry {
        cols.push(Col::id("MOVED TO"));
    }
    let mut t = Grid::new(cols);
    for r in reports {
        let action = match r.mode {
            Some(m) => format!(
                "{} --mode {}",
                r.action,
                serde_json::to_value(m)?.as_str().unwrap_or("")
            ),
            None => r.action.to_owned(),
        };
        let files = if r.removed_files == ["."] {
            "whole folder".into()
        } else if r.removed_files.is_empty() {
            "-".into()
        } else {
            r.removed_files.join(", ")
        };
        let mut row: Vec<Field> = vec![
            (&r.session).into(),
            action.into(),
            r.removed_torii_keys.to_string().into(),
            r.removed_archive_rows.to_string().into(),
            files.into(),
        ];
        if !dry {
            row.push(
                match &r.trash {
                    Some(p) => ctx.root.relative(p),
                    None if !r.changed => String::new(),
                    None => "(purged)".into(),
                }
                .into(),
            );
        }
        t.row(row);
    }
    if dry {
        ctx.out
            .line("dry run: nothing was changed; this is what would be cleared")?;
    }
    ctx.out.grid(&t)?;
    Ok(())
}
