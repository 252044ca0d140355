//! What `trash restore` consumes, kept so its undo can put it back: a copy
//! of the trash entry (with its `.stores` folder, for a moved symlink)
//! under `<root>/.sessionctl/ops/<op>/<session>.entry/<entry name>`. Undo
//! moves the copy back into the Trash under its old name, so the undo of
//! the operation that made the entry still finds it.

use std::path::{Path, PathBuf};

use crate::error::Result;
use crate::store::atomic;
use crate::store::layout::{DataRoot, Last};
use crate::store::oplog::{self, Journal};

pub const ENTRY: &str = "entry";
/// Written last in the copy's folder: the copy is complete.
const COMPLETE: &str = ".complete";

/// Copy `entry` (a path in the Trash) before it is restored, once per
/// operation, and record it.
pub fn keep(journal: &Journal, root: &DataRoot, entry: &Path, id: &str) -> Result<()> {
    let Some(op) = journal.begin()? else {
        return Ok(());
    };
    let dir = oplog::preimage_dir(root, &op, id, ENTRY);
    let name = entry.file_name().expect("an entry name");
    let copy = dir.join(name);
    if std::fs::symlink_metadata(root.resolve(&dir.join(COMPLETE), Last::Entry)?).is_err() {
        atomic::remove_path(root, &dir)?;
        atomic::create_dir_all(root, &dir)?;
        let phys = root.resolve(entry, Last::Entry)?;
        crate::engine::transfer::copy_all(&phys, root, &copy)?;
        let stores = stores_of(entry);
        let stores_phys = root.resolve(&stores, Last::Entry)?;
        if std::fs::symlink_metadata(&stores_phys).is_ok() {
            crate::engine::transfer::copy_all(&stores_phys, root, &stores_of(&copy))?;
        }
        crate::store::bundle::write_file(root, &dir.join(COMPLETE), b"")?;
    }
    if journal.has(ENTRY, &root.relative(&copy))? {
        return Ok(());
    }
    journal.record(id, ENTRY, Some(&copy))
}

fn stores_of(entry: &Path) -> PathBuf {
    PathBuf::from(format!("{}.stores", entry.display()))
}

/// Move the kept copy back into the Trash under its old name (or a fresh
/// one, should that be taken). Returns where it went.
pub fn put_back(root: &DataRoot, copy: &Path, id: &str) -> Result<PathBuf> {
    let name = copy.file_name().expect("an entry name");
    crate::store::trash::dir(root)?;
    let mut dest = root.trash_dir().join(name);
    if std::fs::symlink_metadata(root.resolve(&dest, Last::Entry)?).is_ok() {
        dest = crate::store::trash::new_path(root, id)?;
    }
    atomic::create_dir_all(root, &root.trash_dir())?;
    let stores = stores_of(copy);
    if std::fs::symlink_metadata(root.resolve(&stores, Last::Entry)?).is_ok() {
        atomic::move_path(root, &stores, &stores_of(&dest))?;
    }
    atomic::move_path(root, copy, &dest)?;
    Ok(dest)
}
