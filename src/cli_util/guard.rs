//! The write preamble of commands that are not batch operations (undo,
//! trash restore, import): Agenvoy must not run, and the store and
//! session locks are taken before anything is read for rewriting.

use anyhow::Result;

use crate::cli::{ChangeArgs, WriteArgs};
use crate::cli_util::Context;
use crate::cli_util::Done;
use crate::engine::batch::Stores;
use crate::engine::undo;
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

/// Take session `id` away to the Trash as `remove` does: what `undo` and
/// `trash restore` do with a session a snapshot replaces.
pub fn to_trash(stores: &mut Stores<'_>, id: &str) -> crate::Result<()> {
    use crate::engine::batch::{Operation, Target};
    let t = Target {
        id: id.to_owned(),
        dir: stores.root.session_entry(id)?,
    };
    let remove = crate::engine::reset::Remove { purge: false };
    let found = remove.plan(&t, &*stores)?;
    remove.apply(&t, found, stores).map(drop)
}

/// The write flags as `begin` takes them, from those of a command that keeps
/// no trash copy.
pub fn write_args(c: &ChangeArgs) -> WriteArgs {
    WriteArgs {
        dry_run: c.dry_run,
        yes: c.yes,
        purge: false,
        force: c.force,
    }
}

/// Render restore reports and sum them up.
pub fn finish(
    ctx: &Context,
    command: &str,
    dry_run: bool,
    reports: &[undo::RestoreReport],
    ids: &[String],
) -> Result<Done> {
    if ctx.out.json {
        ctx.out.envelope(command, dry_run, reports, &[])?;
    } else {
        let verb = if dry_run { "would restore" } else { "restored" };
        for r in reports {
            ctx.out.line(&format!(
                "{verb} {} from {}: {} file(s), {} archive row(s), {} ToriiDB key(s)",
                r.session,
                ctx.root.relative(&r.from),
                r.files.len(),
                r.archive_rows,
                r.torii_keys
            ))?;
        }
    }
    Ok(Done {
        code: 0,
        sessions: ids.len(),
        changed: if dry_run { Vec::new() } else { ids.to_vec() },
        failed: Vec::new(),
    })
}
