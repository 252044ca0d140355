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

/// Files written in bulk (a restore's mirror files, a copied session
/// folder): each replaced by rename as `write_atomic` does, so a kill leaves
/// the old file or the new one, never a mix — but none fsynced on its own.
/// `finish` then makes all of them durable in one pass: `syncfs(2)` on each
/// file system written to (one journal commit, however many files), or
/// elsewhere than Linux an fsync of each file and each folder once.
/// Thousands of files fsynced one by one cost a journal commit each: an
/// undo putting back 250k mirror files took minutes, not seconds.
///
/// Until `finish` returns, a power cut may lose any of them (a kill does
/// not: what was renamed is in place): a caller writes in bulk only what
/// is rebuilt on a rerun, or a cache of data made durable first.
pub struct Bulk<'r> {
    root: &'r DataRoot,
    /// A folder the files go under, and where it resolved to: paths under
    /// it are resolved from there (a restore writes thousands of files
    /// four folders below its database's folder).
    base: Option<(std::path::PathBuf, std::path::PathBuf)>,
    /// One open file per file system written to (by device id).
    filesystems: Vec<(u64, fs::File)>,
    #[cfg(not(target_os = "linux"))]
    written: Vec<std::path::PathBuf>,
    #[cfg(not(target_os = "linux"))]
    dirs: std::collections::BTreeSet<std::path::PathBuf>,
}

impl<'r> Bulk<'r> {
    pub fn new(root: &'r DataRoot) -> Bulk<'r> {
        Bulk {
            root,
            base: None,
            filesystems: Vec::new(),
            #[cfg(not(target_os = "linux"))]
            written: Vec::new(),
            #[cfg(not(target_os = "linux"))]
            dirs: std::collections::BTreeSet::new(),
        }
    }

    /// A `Bulk` for files under `base` (resolved once, here).
    pub fn under(root: &'r DataRoot, base: &Path) -> Result<Bulk<'r>> {
        let phys = root.resolve(base, Last::Follow)?;
        let mut bulk = Bulk::new(root);
        bulk.base = Some((base.to_path_buf(), phys));
        Ok(bulk)
    }

    /// Where the folder of a file goes, resolved inside the root.
    fn resolve_folder(&self, folder: &Path) -> Result<std::path::PathBuf> {
        match &self.base {
            Some((base, phys)) if folder.starts_with(base) => self.root.resolve_under(
                phys,
                folder.strip_prefix(base).expect("under the base"),
                Last::Follow,
            ),
            _ => self.root.resolve(folder, Last::Follow),
        }
    }

    /// `write_atomic` of `bytes`, durable at `finish`. The folder is
    /// created if missing.
    pub fn write(&mut self, path: &Path, bytes: &[u8]) -> Result<()> {
        self.put(path, |f| f.write_all(bytes))
    }

    /// Copy the regular file `from` (a physical path, anywhere) to `path`,
    /// streamed (bounded memory whatever its size), durable at `finish`.
    /// Returns the bytes copied.
    pub fn copy(&mut self, from: &Path, path: &Path) -> Result<u64> {
        let src = crate::store::files::open_at(from, from, crate::store::files::Mode::Read)?
            .ok_or_else(|| Error::read(from, io::Error::from(io::ErrorKind::NotFound)))?;
        let len = src.meta.len();
        self.put(path, |f| copy_data(&src.file, len, f))?;
        Ok(len)
    }

    fn put(
        &mut self,
        path: &Path,
        fill: impl FnOnce(&mut fs::File) -> io::Result<()>,
    ) -> Result<()> {
        let (folder, name) = match (path.parent(), path.file_name()) {
            (Some(f), Some(n)) if !f.as_os_str().is_empty() => (f, n),
            _ => {
                return Err(Error::write(
                    path,
                    io::Error::from(io::ErrorKind::InvalidInput),
                ))
            }
        };
        // The folder resolved (no link out of the root); the file itself is
        // replaced, never followed, as in `write_atomic`.
        let dir = self.resolve_folder(folder)?;
        let phys = dir.join(name);
        let temp = || {
            tempfile::Builder::new()
                .prefix(&format!(".{}.", name.to_string_lossy()))
                .suffix(TEMP_SUFFIX)
                .tempfile_in(&dir)
        };
        let mut tmp = match temp() {
            Ok(t) => t,
            // the folder is created only when missing: a store's mirror
            // folders mostly exist already
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(&dir).map_err(|e| Error::write(folder, e))?;
                temp().map_err(|e| Error::write(path, e))?
            }
            Err(e) => return Err(Error::write(path, e)),
        };
        let mode = fs::symlink_metadata(&phys)
            .ok()
            .filter(|m| m.is_file())
            .map_or(0o644, |m| m.permissions().mode());
        let dev = (|| -> io::Result<u64> {
            tmp.as_file()
                .set_permissions(fs::Permissions::from_mode(mode))?;
            fill(tmp.as_file_mut())?;
            Ok(std::os::unix::fs::MetadataExt::dev(
                &tmp.as_file().metadata()?,
            ))
        })()
        .map_err(|e| Error::write(path, e))?;
        if !self.filesystems.iter().any(|(d, _)| *d == dev) {
            let f = tmp
                .as_file()
                .try_clone()
                .map_err(|e| Error::write(path, e))?;
            self.filesystems.push((dev, f));
        }
        crate::failpoint("atomic-before-rename");
        tmp.persist(&phys)
            .map_err(|e| Error::write(path, e.error))?;
        #[cfg(not(target_os = "linux"))]
        {
            // the folder, and those above it that may have been created
            for d in dir
                .ancestors()
                .take_while(|d| d.starts_with(self.root.path()))
            {
                if !self.dirs.insert(d.to_path_buf()) {
                    break;
                }
            }
            self.written.push(phys);
        }
        Ok(())
    }

    /// Make every file written (and the folders they are in) durable.
    pub fn finish(self) -> Result<()> {
        #[cfg(target_os = "linux")]
        for (_, f) in &self.filesystems {
            use std::os::fd::AsRawFd;
            // SAFETY: a plain syscall on a file descriptor we hold open.
            if unsafe { libc::syncfs(f.as_raw_fd()) } != 0 {
                return Err(Error::write(self.root.path(), io::Error::last_os_error()));
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            for p in &self.written {
                fs::File::open(p)
                    .and_then(|f| f.sync_all())
                    .map_err(|e| Error::write(p, e))?;
            }
            for d in &self.dirs {
                sync_dir(d)?;
            }
        }
        Ok(())
    }
}

/// Copy the first `len` bytes of `src` into the empty file `dst`: the
/// kernel copies (copy_file_range), and on Linux only the parts that hold
/// data, so a sparse file stays sparse (a hole reads as zeros either way).
fn copy_data(src: &fs::File, len: u64, dst: &mut fs::File) -> io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let fd = src.as_raw_fd();
        let seek = |at: u64, whence| {
            // SAFETY: lseek on a descriptor we hold open.
            let r = unsafe { libc::lseek(fd, at as libc::off_t, whence) };
            if r < 0 {
                Err(io::Error::last_os_error())
            } else {
                Ok(r as u64)
            }
        };
        let mut at = 0;
        let mut holes_known = true;
        while at < len {
            let data = match seek(at, libc::SEEK_DATA) {
                Ok(d) => d.min(len),
                // nothing but a hole to the end
                Err(e) if e.raw_os_error() == Some(libc::ENXIO) => break,
                // a file system that cannot tell: copy it all
                Err(e) if e.raw_os_error() == Some(libc::EINVAL) && at == 0 => {
                    holes_known = false;
                    break;
                }
                Err(e) => return Err(e),
            };
            let hole = seek(data, libc::SEEK_HOLE)?.min(len);
            let mut src_at = src;
            src_at.seek(SeekFrom::Start(data))?;
            dst.seek(SeekFrom::Start(data))?;
            io::copy(&mut src.take(hole - data), dst)?;
            at = hole;
        }
        if holes_known {
            return dst.set_len(len);
        }
    }
    io::copy(&mut src.take(len), dst)?;
    dst.set_len(len)
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

    #[test]
    fn bulk_writes_replace_by_rename_keep_modes_and_stay_inside_the_root() {
        let outside = tempfile::tempdir().unwrap();
        let (dir, root) = root();
        let base = root.path().join("db_1");
        let old = base.join("aa/bb/f.json");
        fs::create_dir_all(old.parent().unwrap()).unwrap();
        fs::write(&old, b"old").unwrap();
        fs::set_permissions(&old, fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::symlink(outside.path(), base.join("out")).unwrap();
        let mut bulk = Bulk::under(&root, &base).unwrap();
        bulk.write(&old, b"new").unwrap();
        bulk.write(&base.join("cc/dd/ee/g.json"), b"g").unwrap();
        let err = bulk.write(&base.join("out/h.json"), b"h").unwrap_err();
        assert_eq!(err.exit_code(), crate::error::exit::DATA);
        bulk.write(&root.path().join("top.json"), b"t").unwrap();
        bulk.finish().unwrap();
        assert_eq!(fs::read(&old).unwrap(), b"new");
        assert_eq!(
            fs::metadata(&old).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert_eq!(fs::read(base.join("cc/dd/ee/g.json")).unwrap(), b"g");
        assert_eq!(fs::read(root.path().join("top.json")).unwrap(), b"t");
        assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
        // no temp file left anywhere
        let mut stack = vec![dir.path().to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in fs::read_dir(&d).unwrap().map(|e| e.unwrap()) {
                let name = e.file_name().to_string_lossy().into_owned();
                assert!(!name.ends_with(TEMP_SUFFIX), "{name}");
                if e.file_type().unwrap().is_dir() {
                    stack.push(e.path());
                }
            }
        }
    }

    #[test]
    fn bulk_copies_stream_every_byte_and_keep_holes() {
        use std::io::{Seek, SeekFrom};
        let (dir, root) = root();
        let src = dir.path().join("src.bin");
        let mut f = fs::File::create(&src).unwrap();
        f.write_all(b"start").unwrap();
        // data, a 64 MiB hole, data, and a hole at the end
        f.seek(SeekFrom::Start(64 << 20)).unwrap();
        f.write_all(&[7u8; 100_000]).unwrap();
        f.set_len((128 << 20) + 3).unwrap();
        drop(f);
        let dense = dir.path().join("dense.bin");
        let bytes: Vec<u8> = (0..300_000u32).map(|i| (i % 253) as u8).collect();
        fs::write(&dense, &bytes).unwrap();
        let empty = dir.path().join("empty.bin");
        fs::write(&empty, b"").unwrap();
        let mut bulk = Bulk::new(&root);
        let to = |n: &str| root.path().join("copy").join(n);
        assert_eq!(bulk.copy(&src, &to("src.bin")).unwrap(), (128 << 20) + 3);
        assert_eq!(bulk.copy(&dense, &to("dense.bin")).unwrap(), 300_000);
        assert_eq!(bulk.copy(&empty, &to("empty.bin")).unwrap(), 0);
        bulk.finish().unwrap();
        assert_eq!(fs::read(to("dense.bin")).unwrap(), bytes);
        assert!(fs::read(to("empty.bin")).unwrap().is_empty());
        let copy = fs::read(to("src.bin")).unwrap();
        assert_eq!(copy, fs::read(&src).unwrap());
        // on Linux the holes stay holes: far fewer blocks than bytes
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::MetadataExt;
            let blocks = fs::metadata(to("src.bin")).unwrap().blocks() * 512;
            assert!(blocks < 16 << 20, "{blocks} bytes allocated");
        }
        // a FIFO is never opened
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        assert!(Bulk::new(&root).copy(&fifo, &to("fifo")).is_err());
    }
}
