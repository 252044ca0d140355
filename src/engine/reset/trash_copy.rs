//! Before Agenvoy's daemon deletes (a reset or remove carried out through
//! it), what it will delete is kept in the Trash as the files
//! backend keeps it — by copying: the daemon owns the stores while it
//! runs, so they are only read here.

use std::path::Path;

use crate::engine::batch::ReadStores;
use crate::error::{Error, Result};
use crate::store::archive::Archive;
use crate::store::layout::{DataRoot, Last, MAX_JSON_FILE};
use crate::store::{atomic, files, trash};

/// Copy a file, folder or link of the root to `to` (a new path in a trash
/// entry). Links are copied as links, never followed; FIFOs and devices
/// are skipped (reading one could block).
pub fn copy_path(root: &DataRoot, from: &Path, to: &Path) -> Result<()> {
    let phys = root.resolve(from, Last::Entry)?;
    let Some(meta) = files::inspect_at(&phys, from)? else {
        return Ok(());
    };
    let ft = meta.file_type();
    if ft.is_symlink() {
        let target = std::fs::read_link(&phys).map_err(|e| Error::read(from, e))?;
        std::os::unix::fs::symlink(target, to).map_err(|e| Error::write(to, e))?;
    } else if ft.is_dir() {
        atomic::create_dir_all(root, to)?;
        let entries = files::read_dir_at(&phys, from)?.into_iter().flatten();
        for entry in entries {
            let name = entry.map_err(|e| Error::read(from, e))?.file_name();
            copy_path(root, &from.join(&name), &to.join(&name))?;
        }
        atomic::fsync_dir(root, to)?;
    } else if ft.is_file() {
        let bytes = files::read_at(&phys, from, MAX_JSON_FILE)?.unwrap_or_default();
        atomic::write_atomic(root, to, &bytes)?;
    }
    Ok(())
}

/// Export the session's archive rows and db1 entries into `dir`, as the
/// files backend does before deleting them (`archive.jsonl`,
/// `session_meta.json`, `torii-db1.jsonl`).
pub fn export_stores(stores: &ReadStores<'_>, id: &str, dir: &Path) -> Result<()> {
    let root = stores.root;
    if let Some(mut a) = Archive::open_read(root, &root.archive_path())? {
        a.export_session(root, id, dir)?;
    }
    if let Some(db1) = stores.db1 {
        let keys = db1.session_keys(id, stores.now);
        if !keys.is_empty() {
            trash::export_torii(root, db1, &keys, dir)?;
        }
    }
    Ok(())
}
