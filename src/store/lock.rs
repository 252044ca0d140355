//! Advisory locks (flock) so two sessionctl runs never interleave writes.
//! A held lock is reported as `Busy` (exit 75) so cron can simply retry.
//!
//! Lock files live in `<root>/.sessionctl/locks/` rather than in the
//! session folders, so they never show up in Agenvoy's data.
//!
//! Deleting a flock file is safe only with a protocol, which every
//! acquisition follows: after the lock is taken, the path must still name
//! the inode we locked (fstat of our descriptor against stat of the path);
//! if it does not, someone unlinked the file while we waited to lock it, so
//! our lock guards nothing: drop it and start again. A file is unlinked only
//! by a holder of its lock (`Lock::unlink`): `remove` for the sessions it
//! removed, `check --repair` for sessions that no longer exist.

use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::files::{self, Mode};
use crate::store::layout::{name_part, DataRoot};

#[derive(Debug)]
pub struct Lock {
    _file: File,
    /// The lock file, as named to the user.
    pub path: PathBuf,
    /// Where it was opened (resolved inside the root).
    phys: PathBuf,
}

impl Lock {
    /// Delete the lock file while holding it, then release it. Anyone who
    /// opened the old file will find on locking it that the path no longer
    /// names it, and retry on a new one.
    pub fn unlink(self) -> Result<()> {
        match std::fs::remove_file(&self.phys) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(Error::write(&self.path, e)),
        }
        // `self._file` is closed (and the lock released) on return.
    }
}

pub fn locks_dir(root: &DataRoot) -> PathBuf {
    root.tool_dir().join("locks")
}

/// `session-<id>.lock`; a long id is shortened with a hash (NAME_MAX).
pub fn session_file_name(id: &str) -> String {
    const MAX_ID: usize = 255 - "session-".len() - ".lock".len();
    format!("session-{}.lock", name_part(id, MAX_ID))
}

/// The per-session lock.
pub fn session(root: &DataRoot, id: &str) -> Result<Lock> {
    acquire(root, &session_file_name(id), &format!("session '{id}'"))
}

/// The store lock: held while we write the ToriiDB logs or the archive,
/// which all sessions share.
pub fn store(root: &DataRoot) -> Result<Lock> {
    acquire(root, "store.lock", "the shared store")
}

/// Held while the limits cache is read, changed and written back.
pub fn limits(root: &DataRoot) -> Result<Lock> {
    acquire(root, "limits.lock", "the limits cache")
}

/// `op-<id>.lock`: held by the process running operation `id`.
pub fn operation_file_name(id: &str) -> String {
    format!("op-{}.lock", name_part(id, 200))
}

/// Held for as long as operation `id` runs (see `oplog::Journal`).
pub fn operation(root: &DataRoot, id: &str) -> Result<Lock> {
    acquire(root, &operation_file_name(id), &format!("operation {id}"))
}

/// Whether someone holds the lock file `name` now. A missing file is not
/// held; nothing is created.
pub fn is_held(root: &DataRoot, name: &str) -> Result<bool> {
    let path = locks_dir(root).join(name);
    let Some(opened) = files::open(root, &path, Mode::Read)? else {
        return Ok(false);
    };
    match opened.file.try_lock_shared() {
        Ok(()) => Ok(false),
        Err(std::fs::TryLockError::WouldBlock) => Ok(true),
        Err(std::fs::TryLockError::Error(e)) => Err(Error::read(&path, e)),
    }
}

/// Take the lock of the file at `path` if nobody holds it, and delete the
/// file. Returns false (and leaves the file) when someone holds it.
pub fn remove_if_free(root: &DataRoot, path: &Path) -> Result<bool> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match acquire(root, &name, &name) {
        Ok(lock) => lock.unlink().map(|()| true),
        Err(Error::Busy { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// How often an acquisition may find its file unlinked under it before we
/// give up (each time, another run removed the file we had opened).
const RETRIES: usize = 100;

fn acquire(root: &DataRoot, name: &str, what: &str) -> Result<Lock> {
    let dir = locks_dir(root);
    atomic::create_dir_all(root, &dir)?;
    let path = dir.join(name);
    for _ in 0..RETRIES {
        let opened = files::open(root, &path, Mode::Lock)?.expect("Lock mode creates the file");
        match opened.file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Err(busy(what, &path)),
            Err(std::fs::TryLockError::Error(e)) => return Err(Error::write(&path, e)),
        }
        if names_our_file(&opened.meta, &opened.path) {
            return Ok(Lock {
                _file: opened.file,
                path,
                phys: opened.path,
            });
        }
    }
    Err(busy(what, &path))
}

/// Does `path` still name the file we hold open (`ours`: its fstat)?
fn names_our_file(ours: &std::fs::Metadata, path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .is_ok_and(|now| ours.dev() == now.dev() && ours.ino() == now.ino())
}

fn busy(what: &str, path: &Path) -> Error {
    Error::busy(format!(
        "{what} is locked by another sessionctl run ({})",
        path.display()
    ))
    .with_hint("retry when it has finished; exit code 75 means 'try again later'")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn second_holder_is_busy_until_release() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        let first = session(&root, "a").unwrap();
        let err = session(&root, "a").unwrap_err();
        assert_eq!(err.exit_code(), crate::error::exit::TEMP_FAIL);
        // other sessions are independent
        let _b = session(&root, "b").unwrap();
        drop(first);
        session(&root, "a").unwrap();
    }

    #[test]
    fn a_255_byte_id_has_a_lock_file_name_that_fits() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        let long = "x".repeat(255);
        assert!(session_file_name(&long).len() <= 255);
        assert_ne!(
            session_file_name(&long),
            session_file_name(&"x".repeat(254))
        );
        let l = session(&root, &long).unwrap();
        assert!(session(&root, &long).is_err());
        l.unlink().unwrap();
        assert_eq!(std::fs::read_dir(locks_dir(&root)).unwrap().count(), 0);
    }

    /// Threads lock, sometimes unlink while holding, and release, as fast
    /// as they can: never may two of them hold the lock at once (which
    /// happens without the inode check: one locks the unlinked file, the
    /// other a new one at the same path).
    #[test]
    fn unlinking_a_held_lock_never_lets_two_hold_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = Arc::new(DataRoot::open(dir.path()).unwrap());
        let holders = Arc::new(AtomicUsize::new(0));
        let acquired = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let (root, holders, acquired) = (root.clone(), holders.clone(), acquired.clone());
                std::thread::spawn(move || {
                    let deadline =
                        std::time::Instant::now() + std::time::Duration::from_millis(700);
                    let mut n = 0u32;
                    while std::time::Instant::now() < deadline {
                        let Ok(lock) = session(&root, "s") else {
                            continue;
                        };
                        assert_eq!(holders.fetch_add(1, Ordering::SeqCst), 0, "two holders");
                        acquired.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_micros(100));
                        holders.fetch_sub(1, Ordering::SeqCst);
                        n += 1;
                        if (n + t).is_multiple_of(2) {
                            lock.unlink().unwrap();
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert!(acquired.load(Ordering::SeqCst) > 100);
    }
}
