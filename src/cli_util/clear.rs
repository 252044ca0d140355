//! What `reset` and `remove` share: the report table; and the write
//! preamble of commands not yet on the batch runner.

use anyhow::Result;
use comfy_table::Cell;

use crate::cli::WriteArgs;
use crate::commands::Context;
use crate::engine::reset::ClearReport;
use crate::output::num;
use crate::store::{lock, runtime};

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
    let mut t = ctx.out.new_table(&[
        "SESSION",
        "ACTION",
        "TORII KEYS",
        "ARCHIVE ROWS",
        "FILES",
        if dry { "" } else { "MOVED TO" },
    ]);
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
        t.add_row(vec![
            Cell::new(&r.session),
            Cell::new(action),
            num(r.removed_torii_keys),
            num(r.removed_archive_rows),
            Cell::new(files),
            Cell::new(match &r.trash {
                Some(p) => ctx.root.relative(p),
                None if dry || !r.changed => String::new(),
                None => "(purged)".into(),
            }),
        ]);
    }
    if dry {
        ctx.out
            .line("dry run: nothing was changed; this is what would be cleared")?;
    }
    ctx.out.table(&t)?;
    Ok(())
}
