//! What the restoring commands (undo, trash restore) share: how a session
//! a snapshot replaces goes to the Trash, the write flags of a command that
//! keeps no trash copy, and how restores are rendered.

use anyhow::Result;

use crate::cli::{ChangeArgs, WriteArgs};
use crate::cli_util::Context;
use crate::cli_util::Done;
use crate::engine::batch::Stores;
use crate::engine::undo;

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
