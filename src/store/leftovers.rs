//! Files a kill or a removed session leaves behind, found for `check` and
//! removed by `check --repair`, one finding kind per class:
//!
//! | kind | what |
//! |---|---|
//! | `leftover-temp-file` | `.NAME.XXXXXX.tmp` of an interrupted atomic write, in a session folder, its `history/` or `pending/` |
//! | `leftover-aof-temp` | `record.aof.tmp` (ToriiDB's interrupted rewrite) or our `.NAME.XXXXXX.tmp` in `.store/db_1`, `db_2` |
//! | `leftover-mirror-temp` | `*.tmp` in ToriiDB's mirror folders `db_N/xx/yy/zz/` |
//! | `leftover-sqlite-journal` | a cold `history.db-journal`: empty or with a zeroed header, which SQLite itself ignores, and no other process holds a lock on the archive |
//! | `stale-lock-file` | `.sessionctl/locks/session-*.lock` of a session that no longer exists |
//! | `leftover-import-unpack` | `.sessionctl/tmp/import-<pid>-*/`, a tar an import killed midway unpacked (its process is gone) |
//! | `leftover-import-staging` | `sessions/.<id>.import/`, the files an interrupted import staged (no import is running); or a link at that name, which import refuses and `--repair` deletes (the link, never what it points to) |
//!
//! A hot journal (a transaction to roll back) is never listed or deleted:
//! SQLite rolls it back when the archive is next opened for writing. Only
//! regular files are leftovers; folders and links never are, but for the
//! two folders of an import (and a link in place of its staging folder,
//! deleted as a link). Removal
//! happens under the store lock (store files) or the session's lock
//! (session files), rechecks the file first, and never follows a link.

use std::collections::HashSet;
use std::fs;
use std::io::Read;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use crate::error::Result;
use crate::store::files::{self, Mode};
use crate::store::layout::{DataRoot, Last, SessionDir};
use crate::store::torii::{DB_ERROR_MEMORY, DB_SESSION_HIST};
use crate::store::{atomic, lock};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    TempFile,
    AofTemp,
    MirrorTemp,
    SqliteJournal,
    StaleLock,
    ImportUnpack,
    ImportStaging,
    /// A link where an import stages its files: no import makes one, and
    /// every import of that session refuses it.
    ImportStagingLink,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::TempFile => "leftover-temp-file",
            Kind::AofTemp => "leftover-aof-temp",
            Kind::MirrorTemp => "leftover-mirror-temp",
            Kind::SqliteJournal => "leftover-sqlite-journal",
            Kind::StaleLock => "stale-lock-file",
            Kind::ImportUnpack => "leftover-import-unpack",
            Kind::ImportStaging | Kind::ImportStagingLink => "leftover-import-staging",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Kind::TempFile | Kind::AofTemp | Kind::MirrorTemp => {
                "temp file of an interrupted write"
            }
            Kind::SqliteJournal => "cold SQLite journal (nothing to roll back)",
            Kind::StaleLock => "lock file of a session that no longer exists",
            Kind::ImportUnpack => "bundles a killed import unpacked from a tar",
            Kind::ImportStaging => {
                "files an interrupted import staged (rerun it with the same bundle to complete \
                 it; --repair deletes this copy, the bundle itself stays as it is)"
            }
            Kind::ImportStagingLink => {
                "a link where an import stages its files, which import refuses (--repair deletes \
                 the link itself, never what it points to)"
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct Leftover {
    pub kind: Kind,
    pub path: PathBuf,
    /// The session whose folder holds it (its lock is taken to remove it).
    pub session: Option<String>,
}

impl Leftover {
    pub fn detail(&self, root: &DataRoot) -> String {
        let shown = self.path.strip_prefix(root.path()).unwrap_or(&self.path);
        format!("{}: {}", shown.display(), self.kind.what())
    }
}

/// `.NAME.XXXXXX.tmp`, the shape of `atomic::write_atomic`'s temp files.
fn is_atomic_temp(name: &str) -> bool {
    name.len() > ".x.tmp".len() && name.starts_with('.') && name.ends_with(atomic::TEMP_SUFFIX)
}

/// Regular files (links and folders excluded) of a folder, by name.
fn regular_files(entries: Option<fs::ReadDir>) -> Vec<(String, PathBuf)> {
    entries
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect()
}

/// Temp files in a session folder, its `history/` and `pending/`.
pub fn in_session(dir: &SessionDir) -> Result<Vec<Leftover>> {
    let mut out = Vec::new();
    for folder in [dir.path.clone(), dir.tasks_dir(), dir.pending_dir()] {
        for (name, _) in regular_files(dir.read_dir(&folder)?) {
            if is_atomic_temp(&name) {
                out.push(Leftover {
                    kind: Kind::TempFile,
                    path: folder.join(name),
                    session: Some(dir.id.clone()),
                });
            }
        }
    }
    Ok(out)
}

/// Temp files of the ToriiDB logs we use and their mirrors, and a cold
/// archive journal.
pub fn in_store(root: &DataRoot) -> Result<Vec<Leftover>> {
    let mut out = Vec::new();
    let store = root.store_dir();
    for index in [DB_SESSION_HIST, DB_ERROR_MEMORY] {
        let db = store.join(format!("db_{index}"));
        let Some(entries) = files::read_dir(root, &db)? else {
            continue;
        };
        for e in entries.filter_map(|e| e.ok()) {
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(t) = e.file_type() else { continue };
            if t.is_file() && (name == "record.aof.tmp" || is_atomic_temp(&name)) {
                out.push(leftover(Kind::AofTemp, db.join(&name)));
            } else if t.is_dir() && is_mirror_folder(&name) {
                mirror_temps(&db.join(&name), 1, &e.path(), &mut out);
            }
        }
    }
    let journal = store.join("history.db-journal");
    if is_cold_journal(root, &journal)? {
        out.push(leftover(Kind::SqliteJournal, journal));
    }
    out.extend(import_unpacks(root)?);
    out.extend(import_stagings(root)?);
    Ok(out)
}

/// The end of the name of the folder an import stages a session in.
const STAGING_SUFFIX: &str = ".import";

/// Where `import` stages session `id`'s files before renaming the folder
/// into place: hidden (a leading dot is never a session), and the id
/// shortened as in every name made of it (`.<id>.import` would outgrow
/// NAME_MAX for an id over 247 bytes).
pub fn import_staging(root: &DataRoot, id: &str) -> PathBuf {
    let name = crate::store::layout::name_part(id, 200);
    root.sessions_dir().join(format!(".{name}{STAGING_SUFFIX}"))
}

/// What `import` makes of an entry at its staging path, by its type (not
/// followed): a folder it can continue or `check --repair` deletes, a link
/// `check --repair` deletes (as a link), or something else (None).
pub fn staging_kind(t: fs::FileType) -> Option<Kind> {
    if t.is_dir() {
        Some(Kind::ImportStaging)
    } else if t.is_symlink() {
        Some(Kind::ImportStagingLink)
    } else {
        None
    }
}

/// The staging folders of imports (and links in their place), when no
/// import is running: under the store lock (which an import holds while it
/// writes) none is in use.
pub fn import_stagings(root: &DataRoot) -> Result<Vec<Leftover>> {
    let dir = root.sessions_dir();
    let Some(entries) = files::read_dir(root, &dir)? else {
        return Ok(Vec::new());
    };
    let found: Vec<Leftover> = entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.len() > 1 + STAGING_SUFFIX.len()
                && name.starts_with('.')
                && name.ends_with(STAGING_SUFFIX)
        })
        .filter_map(|e| {
            let kind = staging_kind(e.file_type().ok()?)?;
            Some(leftover(kind, dir.join(e.file_name())))
        })
        .collect();
    if found.is_empty() {
        return Ok(found);
    }
    let log = crate::store::oplog::read(root)?;
    for o in log.ops.iter().filter(|o| o.command == "import" && !o.done) {
        if crate::store::oplog::is_running(root, &o.id)? {
            return Ok(Vec::new());
        }
    }
    Ok(found)
}

/// Where `import` unpacks a tar: `<root>/.sessionctl/tmp/`.
pub fn unpack_dir(root: &DataRoot) -> PathBuf {
    root.tool_dir().join("tmp")
}

/// Folders under `unpack_dir` whose import is gone: named
/// `import-<pid>-<random>` by a process that no longer runs.
pub fn import_unpacks(root: &DataRoot) -> Result<Vec<Leftover>> {
    let dir = unpack_dir(root);
    let Some(entries) = files::read_dir(root, &dir)? else {
        return Ok(Vec::new());
    };
    Ok(entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_prefix("import-")
                .and_then(|r| r.split('-').next())
                .and_then(|p| p.parse::<i32>().ok())
                .is_some_and(|pid| !process_exists(pid))
        })
        .map(|e| leftover(Kind::ImportUnpack, dir.join(e.file_name())))
        .collect())
}

fn process_exists(pid: i32) -> bool {
    // SAFETY: kill with signal 0 sends nothing; it only checks the pid.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    alive || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

fn leftover(kind: Kind, path: PathBuf) -> Leftover {
    Leftover {
        kind,
        path,
        session: None,
    }
}

fn is_mirror_folder(name: &str) -> bool {
    name.len() == 2 && name.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `*.tmp` files three folders below `db_N` (`xx/yy/zz/`); `phys` is the
/// folder's resolved path (links are not followed: d_type says "link").
fn mirror_temps(shown: &Path, depth: usize, phys: &Path, out: &mut Vec<Leftover>) {
    let Ok(entries) = fs::read_dir(phys) else {
        return;
    };
    for e in entries.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        let Ok(t) = e.file_type() else { continue };
        if depth < 3 && t.is_dir() && is_mirror_folder(&name) {
            mirror_temps(&shown.join(&name), depth + 1, &e.path(), out);
        } else if depth == 3 && t.is_file() && name.ends_with(atomic::TEMP_SUFFIX) {
            out.push(leftover(Kind::MirrorTemp, shown.join(&name)));
        }
    }
}

/// The lock files of sessions that are not in `live`.
pub fn stale_locks(root: &DataRoot, live: &HashSet<&str>) -> Result<Vec<Leftover>> {
    let dir = lock::locks_dir(root);
    let keep: HashSet<String> = live.iter().map(|id| lock::session_file_name(id)).collect();
    Ok(regular_files(files::read_dir(root, &dir)?)
        .into_iter()
        .filter(|(name, _)| name.starts_with("session-") && name.ends_with(".lock"))
        .filter(|(name, _)| !keep.contains(name))
        .map(|(name, _)| leftover(Kind::StaleLock, dir.join(name)))
        .collect())
}

/// A journal SQLite would not roll back (empty, or its first byte zero,
/// SQLite's own test), of an archive no other process has locked (a writer
/// mid-transaction may not have written its header yet).
fn is_cold_journal(root: &DataRoot, journal: &Path) -> Result<bool> {
    let Some(j) = files::open(root, journal, Mode::Read)? else {
        return Ok(false);
    };
    let mut first = [0u8; 1];
    let n = (&j.file).read(&mut first).unwrap_or(1);
    if n == 1 && first[0] != 0 {
        return Ok(false);
    }
    let db = root.archive_path();
    match files::open(root, &db, Mode::Read)? {
        Some(d) => Ok(!locked_by_another_process(&d.file)),
        None => Ok(true),
    }
}

/// SQLite's locks are POSIX record locks on bytes from 2^30 (pending,
/// reserved, then the shared range): is any of them held elsewhere?
fn locked_by_another_process(db: &fs::File) -> bool {
    const PENDING_BYTE: i64 = 0x4000_0000;
    let mut fl: libc::flock = unsafe { std::mem::zeroed() };
    fl.l_type = libc::F_WRLCK as libc::c_short;
    fl.l_whence = libc::SEEK_SET as libc::c_short;
    fl.l_start = PENDING_BYTE;
    fl.l_len = 512;
    let rc = unsafe { libc::fcntl(db.as_raw_fd(), libc::F_GETLK, &mut fl) };
    // If we cannot tell, assume it is in use.
    rc != 0 || fl.l_type != libc::F_UNLCK as libc::c_short
}

/// Remove one leftover, rechecking it first. The caller holds the store
/// lock, and the session's lock for a session file. Returns whether it is
/// gone (false: someone holds that lock file, or it is no longer a leftover).
pub fn remove(root: &DataRoot, l: &Leftover) -> Result<bool> {
    match l.kind {
        Kind::StaleLock => lock::remove_if_free(root, &l.path),
        Kind::SqliteJournal if !is_cold_journal(root, &l.path)? => Ok(false),
        Kind::ImportUnpack | Kind::ImportStaging => atomic::remove_path(root, &l.path),
        Kind::ImportStagingLink => {
            // the link itself: resolved without following its last step
            let phys = root.resolve(&l.path, Last::Entry)?;
            if !fs::symlink_metadata(&phys).is_ok_and(|m| m.file_type().is_symlink()) {
                return Ok(false);
            }
            atomic::remove_path(root, &l.path)
        }
        _ => {
            let phys = root.resolve(&l.path, Last::Entry)?;
            if !fs::symlink_metadata(&phys).is_ok_and(|m| m.is_file()) {
                return Ok(false);
            }
            atomic::remove_path(root, &l.path)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names() {
        assert!(is_atomic_temp(".history.json.Ab12Cd.tmp"));
        assert!(!is_atomic_temp("notes.tmp"));
        assert!(!is_atomic_temp(".tmp"));
        assert!(!is_atomic_temp(".history"));
    }

    #[test]
    fn a_hot_journal_is_never_a_leftover() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        std::fs::create_dir_all(root.store_dir()).unwrap();
        let journal = root.store_dir().join("history.db-journal");
        // SQLite's journal magic: a transaction to roll back
        std::fs::write(&journal, [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]).unwrap();
        assert!(in_store(&root).unwrap().is_empty());
        let l = leftover(Kind::SqliteJournal, journal.clone());
        assert!(!remove(&root, &l).unwrap());
        assert!(journal.exists());
        // a zeroed header is cold
        std::fs::write(&journal, [0u8; 28]).unwrap();
        assert_eq!(in_store(&root).unwrap().len(), 1);
        assert!(remove(&root, &l).unwrap());
        assert!(!journal.exists());
    }

    #[test]
    fn a_journal_of_an_archive_another_process_locks_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        std::fs::create_dir_all(root.store_dir()).unwrap();
        let journal = root.store_dir().join("history.db-journal");
        std::fs::write(&journal, b"").unwrap();
        std::fs::write(root.archive_path(), b"").unwrap();
        let db = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(root.archive_path())
            .unwrap();
        assert!(!locked_by_another_process(&db), "no one holds it yet");
        // A child process takes SQLite's reserved lock, as a writer in the
        // middle of a transaction does (only async-signal-safe calls).
        let mut ready = [0 as libc::c_int; 2];
        assert_eq!(unsafe { libc::pipe(ready.as_mut_ptr()) }, 0);
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            unsafe {
                let mut fl: libc::flock = std::mem::zeroed();
                fl.l_type = libc::F_WRLCK as libc::c_short;
                fl.l_whence = libc::SEEK_SET as libc::c_short;
                fl.l_start = 0x4000_0001;
                fl.l_len = 1;
                libc::fcntl(db.as_raw_fd(), libc::F_SETLK, &fl);
                libc::write(ready[1], b"x".as_ptr().cast(), 1);
                loop {
                    libc::pause();
                }
            }
        }
        let mut b = [0u8; 1];
        assert_eq!(unsafe { libc::read(ready[0], b.as_mut_ptr().cast(), 1) }, 1);
        assert!(locked_by_another_process(&db));
        assert!(in_store(&root).unwrap().is_empty(), "a journal in use");
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
            libc::close(ready[0]);
            libc::close(ready[1]);
        }
        assert_eq!(in_store(&root).unwrap().len(), 1);
    }
}
