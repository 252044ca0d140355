//! `reset` and `remove` carried out by Agenvoy's daemon: what it
//! will delete is first kept in the Trash, as the files backend keeps it,
//! then one request asks the daemon to delete it.

use std::path::{Path, PathBuf};

use super::trash_copy;
use crate::daemon::{Daemon, Done};
use crate::engine::batch::{ReadStores, Target};
use crate::engine::reset::{ClearReport, ResetMode};
use crate::error::{Error, Result};
use crate::store::{atomic, trash};

/// `POST /v1/session/:id/memory {"action":"reset","mode":…}`, after the
/// files (`names`, relative to the session folder), rows and keys were
/// copied into a trash entry.
pub fn reset(
    mode: ResetMode,
    t: &Target,
    names: &[String],
    daemon: &Daemon,
    stores: &ReadStores<'_>,
    report: &mut ClearReport,
) -> Result<()> {
    let dir = t
        .dir
        .as_ref()
        .ok_or_else(|| Error::no_input(format!("unknown session '{}'", t.id)))?;
    let root = stores.root;
    let entry = trash::new_path(root, &t.id)?;
    trash::create(root, &entry, &t.id)?;
    for name in names {
        trash_copy::copy_path(root, &dir.path.join(name), &entry.join(name))?;
    }
    trash_copy::export_stores(stores, &t.id, &entry)?;
    let mode = match mode {
        ResetMode::Summary => "summary",
        ResetMode::All => "all",
    };
    let removed = daemon.memory(&t.id, "reset", Some(mode))?;
    // Sealed (and recorded for undo) once Agenvoy has done it: a refused
    // request leaves an unsealed copy and no operation to undo.
    trash::seal(stores.journal, root, &entry, &t.id, "reset", ".", None)?;
    finish(report, entry);
    if let Done::Count(n) = removed {
        report.removed_torii_keys = n as usize;
    }
    Ok(())
}

/// `DELETE /v1/session {"session_id":…}`, after the folder was copied into
/// a trash entry with the rows and keys beside it (the files backend's
/// layout: `<entry>/.sessionctl/`, or `<entry>.stores/` for a link).
pub fn remove(
    t: &Target,
    folder: Option<&Path>,
    daemon: &Daemon,
    stores: &ReadStores<'_>,
    report: &mut ClearReport,
) -> Result<()> {
    let root = stores.root;
    let entry = trash::new_path(root, &t.id)?;
    let stores_backup = match folder {
        Some(f) => {
            atomic::create_dir_all(root, &root.trash_dir())?;
            trash_copy::copy_path(root, f, &entry)?;
            super::stores_backup_of(root, &entry, &t.id)?
        }
        None => entry.clone(),
    };
    trash::create(root, &stores_backup, &t.id)?;
    trash_copy::export_stores(stores, &t.id, &stores_backup)?;
    daemon.delete_session(&t.id)?;
    super::seal_removed(stores.journal, root, &entry, &stores_backup, &t.id)?;
    finish(report, entry);
    Ok(())
}

fn finish(report: &mut ClearReport, entry: PathBuf) {
    report.dry_run = false;
    report.changed = true;
    report.via = Some("daemon");
    report.trash = Some(entry);
}
