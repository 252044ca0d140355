//! Crash-safe file replacement: temp file in the same folder, fsync, rename,
//! fsync the folder. A reader (or a crash) sees the old file or the new one,
//! never a mix. Every function takes the data root and resolves its paths
//! inside it first (see `layout`): nothing outside the root is created,
//! replaced, moved or removed.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

use crate::error::{Error, Result};
use crate::store::root::{DataRoot, Last};

/// Temp files of `write_atomic` are named `.<name>.<random>.tmp`; `check`
/// recognises leftovers of a kill by this shape.
pub const TEMP_SUFFIX: &str = ".tmp";

pub fn write_atomic(root: &DataRoot, path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(root, path, |w| w.write_all(bytes))
}

/// `write_atomic` of content produced piece by piece: `fill` writes it
/// through a buffer into the temp file, so a big file is never held in
/// memory whole.
pub fn write_atomic_with(
    root: &DataRoot,
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    stage_with(root, path, fill)?.commit()
}

/// A replacement written into its temp file beside `path`, not yet made
/// durable nor put in place: `commit` does both (the part that waits for
/// the disk, which a caller may leave to another thread). Dropped without
/// a commit, the temp file is removed and `path` is left as it was.
pub struct Staged {
    tmp: tempfile::NamedTempFile,
    phys: std::path::PathBuf,
    shown: std::path::PathBuf,
}

/// The first half of `write_atomic_with`: the temp file, filled.
pub fn stage_with(
    root: &DataRoot,
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<Staged> {
    // The file itself is replaced, not written through: a link there is
    // replaced too, and its target left alone.
    let phys = root.resolve(path, Last::Entry)?;
    let dir = parent(&phys);
    let name = phys
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)
        .map_err(|e| Error::write(path, e))?;
    // Keep the mode the file had (tempfile creates 0600).
    let mode = fs::symlink_metadata(&phys)
        .ok()
        .filter(|m| m.is_file())
        .map_or(0o644, |m| m.permissions().mode());
    let result = (|| -> io::Result<()> {
        tmp.as_file()
            .set_permissions(fs::Permissions::from_mode(mode))?;
        let mut w = io::BufWriter::with_capacity(256 << 10, tmp.as_file());
        fill(&mut w)?;
        w.flush()
    })();
    result.map_err(|e| Error::write(path, e))?;
    Ok(Staged {
        tmp,
        phys,
        shown: path.to_path_buf(),
    })
}

impl Staged {
    /// fsync the temp file, rename it over the path, fsync the folder.
    pub fn commit(self) -> Result<()> {
        let Staged { tmp, phys, shown } = self;
        tmp.as_file()
            .sync_all()
            .map_err(|e| Error::write(&shown, e))?;
        crate::failpoint("atomic-before-rename");
        crate::durable_step();
        tmp.persist(&phys)
            .map_err(|e| Error::write(&shown, e.error))?;
        sync_dir(parent(&phys))
    }
}

/// fsync a folder under the root, so that renames and creations in it
/// survive a power cut.
pub fn fsync_dir(root: &DataRoot, dir: &Path) -> Result<()> {
    sync_dir(&root.resolve(dir, Last::Follow)?)
}

/// fsync a folder already resolved.
fn sync_dir(dir: &Path) -> Result<()> {
    crate::durable_step();
    let f = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
        .open(dir)
        .map_err(|e| Error::write(dir, e))?;
    f.sync_all().map_err(|e| Error::write(dir, e))
}

/// Remove a file, folder or symlink without ever following a link: a link is
/// removed as a link and its target stays untouched. Returns whether
/// anything was there.
pub fn remove_path(root: &DataRoot, path: &Path) -> Result<bool> {
    let phys = root.resolve(path, Last::Entry)?;
    let meta = match fs::symlink_metadata(&phys) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(Error::write(path, e)),
    };
    let removed = if meta.is_dir() {
        // remove_dir_all does not follow symlinks found inside the tree.
        fs::remove_dir_all(&phys)
    } else {
        fs::remove_file(&phys)
    };
    match removed {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(Error::write(path, e)),
    }
    sync_dir(parent(&phys))?;
    Ok(true)
}

/// Move `from` to `to` (same file system) by rename, which moves a symlink
/// as a link. Both folders are fsynced so the move survives a power cut.
pub fn move_path(root: &DataRoot, from: &Path, to: &Path) -> Result<()> {
    let (src, dst) = (
        root.resolve(from, Last::Entry)?,
        root.resolve(to, Last::Entry)?,
    );
    crate::durable_step();
    fs::rename(&src, &dst).map_err(|e| Error::write(to, e))?;
    sync_dir(parent(&dst))?;
    sync_dir(parent(&src))
}

pub fn create_dir_all(root: &DataRoot, dir: &Path) -> Result<()> {
    let phys = root.resolve(dir, Last::Follow)?;
    fs::create_dir_all(&phys).map_err(|e| Error::write(dir, e))
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

    fn root() -> (tempfile::TempDir, DataRoot) {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        (dir, root)
    }

    #[test]
    fn replaces_content_and_keeps_mode() {
        let (dir, root) = root();
        let p = root.path().join("f.json");
        fs::write(&p, b"old").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&root, &p, b"new").unwrap();
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
        let (_dir, root) = root();
        let link = root.path().join("history");
        std::os::unix::fs::symlink(outside.path(), &link).unwrap();
        assert!(remove_path(&root, &link).unwrap());
        assert!(!link.exists());
        assert_eq!(fs::read(&sentinel).unwrap(), b"keep");
        assert!(!remove_path(&root, &link).unwrap());
    }

    #[test]
    fn nothing_is_written_moved_or_created_through_a_link_out() {
        let outside = tempfile::tempdir().unwrap();
        let (_dir, root) = root();
        let link = root.path().join("out");
        std::os::unix::fs::symlink(outside.path(), &link).unwrap();
        fs::write(root.path().join("f"), b"x").unwrap();
        let refused = [
            write_atomic(&root, &link.join("f"), b"x"),
            create_dir_all(&root, &link.join("d")),
            move_path(&root, &root.path().join("f"), &link.join("f")),
            remove_path(&root, &link.join("f")).map(|_| ()),
            fsync_dir(&root, &link),
        ];
        for r in refused {
            assert_eq!(r.unwrap_err().exit_code(), crate::error::exit::DATA);
        }
        assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
        // replacing the link itself is fine: its target is not touched
        write_atomic(&root, &link, b"now a file").unwrap();
        assert_eq!(fs::read(&link).unwrap(), b"now a file");
    }
}
