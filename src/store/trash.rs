//! `sessions/.Trash/<id>_<YYYYMMDD_HHMMSS.mmm>`: Agenvoy's own trash layout.
//! Reset and remove put what they take away here (files, plus the archive
//! rows and ToriiDB entries as JSON Lines) so a mistake can be undone.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::layout::DataRoot;
use crate::store::torii::Db;

/// A fresh, unique trash folder name for a session (not created).
pub fn new_path(root: &DataRoot, id: &str) -> PathBuf {
    let stamp = chrono::Local::now().format("%Y%m%d_%H%M%S%.3f").to_string();
    let base = root.trash_dir().join(format!("{id}_{stamp}"));
    let mut candidate = base.clone();
    let mut n = 2;
    while fs::symlink_metadata(&candidate).is_ok() {
        candidate = PathBuf::from(format!("{}-{n}", base.display()));
        n += 1;
    }
    candidate
}

pub fn create(dir: &Path) -> Result<()> {
    atomic::create_dir_all(dir)?;
    if let Some(parent) = dir.parent() {
        atomic::fsync_dir(parent)?;
    }
    Ok(())
}

/// Write ToriiDB entries to `<dir>/torii-db<N>.jsonl` as ToriiDB log lines
/// (so they can be appended back to `record.aof` verbatim).
pub fn export_torii(db: &Db, keys: &[String], dir: &Path) -> Result<()> {
    let path = dir.join(format!("torii-db{}.jsonl", db.index));
    let file = fs::File::create(&path).map_err(|e| Error::write(&path, e))?;
    let mut out = BufWriter::new(file);
    for key in keys {
        if let Some(e) = db.get(key) {
            out.write_all(&e.compacted_line(key))
                .map_err(|e| Error::write(&path, e))?;
        }
    }
    finish(out, &path)
}

fn finish(out: BufWriter<fs::File>, path: &Path) -> Result<()> {
    let file = out
        .into_inner()
        .map_err(|e| Error::write(path, e.into_error()))?;
    file.sync_all().map_err(|e| Error::write(path, e))
}
