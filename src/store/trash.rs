//! `sessions/.Trash/<id>_<YYYYMMDD_HHMMSS.mmm>`: Agenvoy's own trash layout.
//! Reset and remove put what they take away here (files, plus the archive
//! rows and ToriiDB entries as JSON Lines) so a mistake can be undone.
//!
//! A session id too long to fit in an entry name (with the stamp, within
//! NAME_MAX) is shortened with a hash (`layout::name_part`); every entry we
//! make records the full id in `<entry>/.sessionctl/session-id` (for a
//! session folder that was a symlink, moved as the link it is, in
//! `<entry>.stores/.sessionctl/session-id`).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::files::{self, Mode};
use crate::store::layout::{name_part, DataRoot, Last};
use crate::store::torii::Db;

/// Room for the id in an entry name: NAME_MAX minus `_` + the stamp (20),
/// a `-N` for same-millisecond entries and a `.stores` suffix.
const MAX_ID: usize = 200;

/// Where the full session id of an entry is recorded, relative to it.
pub const SESSION_ID_FILE: &str = ".sessionctl/session-id";

/// A fresh, unique trash folder name for a session (not created). The
/// trash folder must resolve inside the root.
pub fn new_path(root: &DataRoot, id: &str) -> Result<PathBuf> {
    let trash = root.trash_dir();
    let phys = root.resolve(&trash, Last::Follow)?;
    let stamp = chrono::Local::now().format("%Y%m%d_%H%M%S%.3f").to_string();
    let name = format!("{}_{stamp}", name_part(id, MAX_ID));
    let mut candidate = name.clone();
    let mut n = 2;
    while std::fs::symlink_metadata(phys.join(&candidate)).is_ok() {
        candidate = format!("{name}-{n}");
        n += 1;
    }
    Ok(trash.join(candidate))
}

/// Create an entry folder and record the session id in it.
pub fn create(root: &DataRoot, dir: &Path, id: &str) -> Result<()> {
    atomic::create_dir_all(root, dir)?;
    if let Some(parent) = dir.parent() {
        atomic::fsync_dir(root, parent)?;
    }
    record_id(root, dir, id)
}

/// Write the full session id into `<entry>/.sessionctl/session-id`.
pub fn record_id(root: &DataRoot, entry: &Path, id: &str) -> Result<()> {
    let path = entry.join(SESSION_ID_FILE);
    atomic::create_dir_all(root, path.parent().expect("has a folder"))?;
    atomic::write_atomic(root, &path, id.as_bytes())
}

/// Write ToriiDB entries to `<dir>/torii-db<N>.jsonl` as ToriiDB log lines
/// (so they can be appended back to `record.aof` verbatim).
pub fn export_torii(root: &DataRoot, db: &Db, keys: &[String], dir: &Path) -> Result<()> {
    let path = dir.join(format!("torii-db{}.jsonl", db.index));
    let mut out = BufWriter::new(create_file(root, &path)?);
    for key in keys {
        if let Some(e) = db.get(key) {
            out.write_all(&e.compacted_line(key))
                .map_err(|e| Error::write(&path, e))?;
        }
    }
    finish(out, &path)
}

fn create_file(root: &DataRoot, path: &Path) -> Result<std::fs::File> {
    let opened = files::open(root, path, Mode::Create)?.expect("Create mode creates the file");
    Ok(opened.file)
}

fn finish(out: BufWriter<std::fs::File>, path: &Path) -> Result<()> {
    let file = out
        .into_inner()
        .map_err(|e| Error::write(path, e.into_error()))?;
    file.sync_all().map_err(|e| Error::write(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_255_byte_id_gets_an_entry_that_records_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        let long = "y".repeat(255);
        let t = new_path(&root, &long).unwrap();
        assert!(t.file_name().unwrap().len() + ".stores-99".len() <= 255);
        create(&root, &t, &long).unwrap();
        assert_eq!(
            std::fs::read_to_string(t.join(SESSION_ID_FILE)).unwrap(),
            long
        );
        assert_ne!(
            new_path(&root, &long).unwrap(),
            t,
            "a second entry gets its own name"
        );
    }
}
