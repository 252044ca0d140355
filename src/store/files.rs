//! Opening files under the data root. Every open is resolved first (no
//! link out of the root, see `layout`), made with `O_NONBLOCK | O_NOFOLLOW`
//! so that a FIFO or a device can neither block us nor be swapped in for
//! the last component, and checked with `fstat`: only regular files are
//! used; anything else is bad data (exit 65) naming the path. SQLite opens
//! its files by path itself, so those are checked right before it does.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::store::root::{DataRoot, Last};

/// Cap for the small files we read whole: runtime.uid, config.json,
/// summary.meta.json, our limits cache. The largest real one (the limits
/// cache, a window table of a few thousand models) is a few hundred KiB.
pub const MAX_SMALL_FILE: u64 = 4 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Read,
    /// Read and append, created if missing (ToriiDB logs).
    Append,
    /// Read and write, created if missing, never truncated (lock files).
    Lock,
    /// Read and write, created or truncated (files we export).
    Create,
}

/// An open regular file, the physical path it was opened at and its
/// metadata (fstat) at that moment.
#[derive(Debug)]
pub struct Opened {
    pub file: File,
    pub path: PathBuf,
    pub meta: fs::Metadata,
}

/// Open a regular file under `root`. `None` when it does not exist (only
/// in `Mode::Read`; the other modes create it).
pub fn open(root: &DataRoot, path: &Path, mode: Mode) -> Result<Option<Opened>> {
    open_at(&root.resolve(path, Last::Follow)?, path, mode)
}

/// `open` for a path already resolved (`phys`); `shown` is the path named
/// in errors.
pub fn open_at(phys: &Path, shown: &Path, mode: Mode) -> Result<Option<Opened>> {
    open_with(phys, shown, mode, false)
}

/// `open_at` for a file of the user's outside any data root (the config
/// file, the `--log` file): the same rule — never blocking on a FIFO, only
/// a regular file used, anything else 65 naming it — but a link is
/// followed, as the user may keep such files as links (dotfiles).
pub fn open_outside(path: &Path, mode: Mode) -> Result<Option<Opened>> {
    open_with(path, path, mode, true)
}

/// Read a whole file of the user's outside any data root (see
/// `open_outside`), refusing one over `cap` bytes; `None` when missing.
pub fn read_outside(path: &Path, cap: u64) -> Result<Option<Vec<u8>>> {
    read_opened(open_outside(path, Mode::Read)?, path, cap)
}

/// A file of the user's outside any data root that we will write later
/// (the `--log` file): refused now (65) when it is there and is not a
/// regular file, before any work is done, so that nothing hangs on it.
pub fn refuse_odd_outside(path: &Path) -> Result<()> {
    match fs::metadata(path) {
        Ok(m) if !m.is_file() => Err(not_regular(path, &m.file_type())),
        _ => Ok(()),
    }
}

fn open_with(phys: &Path, shown: &Path, mode: Mode, follow: bool) -> Result<Option<Opened>> {
    let nofollow = if follow { 0 } else { libc::O_NOFOLLOW };
    let mut o = OpenOptions::new();
    // a run log the user keeps write-only is still appended to
    o.read(!(follow && mode == Mode::Append))
        .custom_flags(libc::O_NONBLOCK | nofollow | libc::O_CLOEXEC);
    match mode {
        Mode::Read => {}
        Mode::Append => {
            o.append(true).create(true);
        }
        Mode::Lock => {
            o.write(true).create(true).truncate(false);
        }
        Mode::Create => {
            o.write(true).create(true).truncate(true);
        }
    }
    let file = match o.open(phys) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound && mode == Mode::Read => return Ok(None),
        // O_NONBLOCK: a FIFO opened for writing with no reader, or a
        // device without its driver, fails at once instead of blocking
        Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
            return Err(Error::data(
                shown,
                "is a FIFO or a device, not a regular file; refusing to use it",
            ))
        }
        Err(e) if !follow && e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(Error::data(
                shown,
                "is a symbolic link (it appeared while we opened it); refusing to follow it",
            ))
        }
        Err(e) if mode == Mode::Read => return Err(Error::read(shown, e)),
        Err(e) => return Err(Error::write(shown, e)),
    };
    // O_NONBLOCK made the open itself return at once; on the regular file
    // we then keep, it has no effect.
    let meta = file.metadata().map_err(|e| Error::read(shown, e))?;
    if !meta.is_file() {
        return Err(not_regular(shown, &meta.file_type()));
    }
    Ok(Some(Opened {
        file,
        path: phys.to_path_buf(),
        meta,
    }))
}

fn not_regular(shown: &Path, t: &fs::FileType) -> Error {
    let what = if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    };
    Error::data(
        shown,
        format!("is {what}, not a regular file; refusing to use it"),
    )
    .with_hint("move it away; sessionctl only reads and writes regular files")
}

/// Read a whole regular file under `root`, refusing one over `cap` bytes.
/// `None` when it does not exist.
pub fn read(root: &DataRoot, path: &Path, cap: u64) -> Result<Option<Vec<u8>>> {
    read_at(&root.resolve(path, Last::Follow)?, path, cap)
}

pub fn read_at(phys: &Path, shown: &Path, cap: u64) -> Result<Option<Vec<u8>>> {
    read_opened(open_at(phys, shown, Mode::Read)?, shown, cap)
}

/// `read_at` for a reader that streams the file: opened, and refused as
/// `read_at` refuses it when over `cap`; reads stop at the cap.
pub fn open_capped(phys: &Path, shown: &Path, cap: u64) -> Result<Option<io::Take<File>>> {
    let Some(Opened { file, meta, .. }) = open_at(phys, shown, Mode::Read)? else {
        return Ok(None);
    };
    if meta.len() > cap {
        return Err(too_big(shown, meta.len(), cap));
    }
    Ok(Some(file.take(cap)))
}

fn too_big(shown: &Path, len: u64, cap: u64) -> Error {
    Error::data(
        shown,
        format!(
            "is {len} bytes, over the {} MiB this tool loads from such a file; refusing to load it",
            cap >> 20
        ),
    )
}

fn read_opened(opened: Option<Opened>, shown: &Path, cap: u64) -> Result<Option<Vec<u8>>> {
    let Some(Opened { file, meta, .. }) = opened else {
        return Ok(None);
    };
    let len = meta.len();
    let too_big = |len: u64| too_big(shown, len, cap);
    if len > cap {
        return Err(too_big(len));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // The file may grow while we read it: never past the cap.
    (&file)
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::read(shown, e))?;
    if bytes.len() as u64 > cap {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(Some(bytes))
}

/// Metadata (lstat) of a path already resolved; `None` when missing.
pub fn inspect_at(phys: &Path, shown: &Path) -> Result<Option<fs::Metadata>> {
    match fs::symlink_metadata(phys) {
        Ok(m) => Ok(Some(m)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::read(shown, e)),
    }
}

/// Metadata of a path under `root` (links inside the root followed).
pub fn inspect(root: &DataRoot, path: &Path) -> Result<Option<fs::Metadata>> {
    inspect_at(&root.resolve(path, Last::Follow)?, path)
}

/// The entries of a folder under `root`; `None` when it does not exist.
pub fn read_dir(root: &DataRoot, path: &Path) -> Result<Option<fs::ReadDir>> {
    read_dir_at(&root.resolve(path, Last::Follow)?, path)
}

pub fn read_dir_at(phys: &Path, shown: &Path) -> Result<Option<fs::ReadDir>> {
    match fs::read_dir(phys) {
        Ok(rd) => Ok(Some(rd)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::read(shown, e)),
    }
}

/// Before SQLite opens `path` (which it does by path, itself): resolve it,
/// and make sure it and the files SQLite keeps beside it (`-journal`,
/// `-wal`, `-shm`) are regular files or absent. Returns the physical path
/// to hand to SQLite and whether the database exists.
pub fn sqlite_path(root: &DataRoot, path: &Path) -> Result<(PathBuf, bool)> {
    let phys = root.resolve(path, Last::Follow)?;
    let exists = check_regular(&phys, path)?;
    let dir = phys.parent().expect("a file has a folder");
    let name = phys
        .file_name()
        .expect("a file has a name")
        .to_string_lossy();
    for suffix in ["-journal", "-wal", "-shm"] {
        let side = dir.join(format!("{name}{suffix}"));
        let side_phys = root.resolve(&side, Last::Follow)?;
        check_regular(&side_phys, &side)?;
    }
    Ok((phys, exists))
}

/// Whether a resolved path is a regular file (false when missing); an error
/// for anything else.
fn check_regular(phys: &Path, shown: &Path) -> Result<bool> {
    match inspect_at(phys, shown)? {
        None => Ok(false),
        Some(m) if m.is_file() => Ok(true),
        Some(m) => Err(not_regular(shown, &m.file_type())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mkfifo(path: &Path) {
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    }

    #[test]
    fn fifos_devices_and_folders_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        let fifo = root.path().join("fifo");
        mkfifo(&fifo);
        for mode in [Mode::Read, Mode::Append, Mode::Lock, Mode::Create] {
            let err = open(&root, &fifo, mode).unwrap_err();
            assert_eq!(err.exit_code(), crate::error::exit::DATA);
            assert!(err.to_string().contains("FIFO"), "{err}");
        }
        let err = read(&root, root.path(), MAX_SMALL_FILE).unwrap_err();
        assert!(err.to_string().contains("directory"), "{err}");
        // /dev/zero, by a link: outside the root
        std::os::unix::fs::symlink("/dev/zero", root.path().join("zero")).unwrap();
        assert!(read(&root, &root.path().join("zero"), MAX_SMALL_FILE).is_err());
        assert!(sqlite_path(&root, &fifo).is_err());
        std::fs::write(root.path().join("db"), b"").unwrap();
        mkfifo(&root.path().join("db-journal"));
        assert!(sqlite_path(&root, &root.path().join("db")).is_err());
    }

    #[test]
    fn reads_stop_at_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        let p = root.path().join("f");
        std::fs::write(&p, vec![b'x'; 100]).unwrap();
        assert_eq!(read(&root, &p, 100).unwrap().unwrap().len(), 100);
        let err = read(&root, &p, 99).unwrap_err();
        assert_eq!(err.exit_code(), crate::error::exit::DATA);
        assert_eq!(read(&root, &root.path().join("none"), 9).unwrap(), None);
    }
}
