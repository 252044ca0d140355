//! Crash-safe file replacement: temp file in the same folder, fsync, rename,
//! fsync the folder. A reader (or a crash) sees the old file or the new one,
//! never a mix.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::error::{Error, Result};

pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = parent(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| Error::write(path, e))?;
    // Keep the mode the file had (tempfile creates 0600).
    let mode = fs::metadata(path)
        .map(|m| m.permissions().mode())
        .unwrap_or(0o644);
    let result = (|| -> io::Result<()> {
        tmp.as_file()
            .set_permissions(fs::Permissions::from_mode(mode))?;
        tmp.write_all(bytes)?;
        tmp.as_file().sync_all()
    })();
    result.map_err(|e| Error::write(path, e))?;
    crate::failpoint("atomic-before-rename");
    tmp.persist(path).map_err(|e| Error::write(path, e.error))?;
    fsync_dir(dir)
}

pub fn fsync_dir(dir: &Path) -> Result<()> {
    let f = fs::File::open(dir).map_err(|e| Error::write(dir, e))?;
    f.sync_all().map_err(|e| Error::write(dir, e))
}

/// Remove a file, folder or symlink without ever following a link: a link is
/// removed as a link and its target stays untouched. Returns whether
/// anything was there.
pub fn remove_path(path: &Path) -> Result<bool> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(Error::write(path, e)),
    };
    let removed = if meta.is_dir() {
        // remove_dir_all does not follow symlinks found inside the tree.
        fs::remove_dir_all(path)
    } else {
        fs::remove_file(path)
    };
    match removed {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(Error::write(path, e)),
    }
    fsync_dir(parent(path))?;
    Ok(true)
}

/// Move `from` to `to` (same file system) by rename, which moves a symlink
/// as a link. Both folders are fsynced so the move survives a power cut.
pub fn move_path(from: &Path, to: &Path) -> Result<()> {
    fs::rename(from, to).map_err(|e| Error::write(to, e))?;
    fsync_dir(parent(to))?;
    fsync_dir(parent(from))
}

pub fn create_dir_all(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).map_err(|e| Error::write(dir, e))
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_and_keeps_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f.json");
        fs::write(&p, b"old").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"new");
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o640
        );
        // no temp file left behind
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn removing_a_symlink_leaves_its_target() {
        let outside = tempfile::tempdir().unwrap();
        let sentinel = outside.path().join("sentinel");
        fs::write(&sentinel, b"keep").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("history");
        std::os::unix::fs::symlink(outside.path(), &link).unwrap();
        assert!(remove_path(&link).unwrap());
        assert!(!link.exists());
        assert_eq!(fs::read(&sentinel).unwrap(), b"keep");
        assert!(!remove_path(&link).unwrap());
    }
}
