//! What `reset` and `remove` share: the write preamble (Agenvoy check,
//! locks, stores) and the report table.

use anyhow::Result;
use comfy_table::Cell;

use crate::cli::WriteArgs;
use crate::commands::{load_db1, sessions::torii_now, Context};
use crate::engine::reset::{ClearReport, Tiers};
use crate::output::num;
use crate::store::archive::Archive;
use crate::store::{lock, runtime};

/// Held for the whole write: the store lock, then each session's lock.
pub struct WriteGuard {
    _store: Option<lock::Lock>,
    sessions: Vec<(String, lock::Lock)>,
}

impl WriteGuard {
    /// The session is gone: delete its lock file while still holding it
    /// (see `lock`), so removed sessions leave no lock files behind.
    pub fn forget(&mut self, id: &str) -> crate::Result<()> {
        match self.sessions.iter().position(|(s, _)| s == id) {
            Some(i) => self.sessions.swap_remove(i).1.unlink(),
            None => Ok(()),
        }
    }
}

/// Before writing: Agenvoy must not run, and no other sessionctl may hold
/// the store or these sessions. A dry run takes no locks and only warns.
pub fn begin(ctx: &Context, ids: &[&str], w: &WriteArgs) -> Result<WriteGuard> {
    if w.dry_run {
        match runtime::find_running(&ctx.root) {
            Ok(running) if running.is_empty() => {}
            Ok(_) => ctx.out.warn(
                "Agenvoy is running: the real run would refuse to write until it stops (or --force)",
            ),
            Err(e) => ctx.out.warn(&format!(
                "the real run would refuse to write: cannot tell whether Agenvoy runs ({e})"
            )),
        }
        return Ok(WriteGuard {
            _store: None,
            sessions: Vec::new(),
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
        sessions,
    })
}

/// Load the stores a clear works on. The archive is opened only if it
/// exists: clearing never needs to create one.
pub fn open_tiers<'a>(ctx: &'a Context, w: &WriteArgs) -> Result<Tiers<'a>> {
    let db1 = load_db1(ctx)?;
    if !w.dry_run {
        db1.check_writable(w.force)?;
    }
    let path = ctx.root.archive_path();
    let (_, exists) = crate::store::files::sqlite_path(&ctx.root, &path)?;
    let archive = if !exists {
        None
    } else if w.dry_run {
        Archive::open_read(&ctx.root, &path)?
    } else {
        Some(Archive::open_write(&ctx.root, &path)?)
    };
    Ok(Tiers::new(&ctx.root, archive, db1, torii_now()))
}

pub fn render(ctx: &Context, reports: &[ClearReport]) -> Result<()> {
    if ctx.out.json {
        match reports {
            [one] => ctx.out.json(one)?,
            many => ctx.out.json(many)?,
        }
        return Ok(());
    }
    let dry = reports.first().is_some_and(|r| r.dry_run);
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
        let files = if r.action == "remove" {
            if r.files.is_empty() {
                "(folder already gone)".into()
            } else {
                "whole folder".into()
            }
        } else if r.files.is_empty() {
            "-".into()
        } else {
            r.files.join(", ")
        };
        t.add_row(vec![
            Cell::new(&r.session),
            Cell::new(action),
            num(r.removed),
            num(r.archive_rows),
            Cell::new(files),
            Cell::new(match &r.trash {
                Some(p) => p.display().to_string(),
                None if dry => String::new(),
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
