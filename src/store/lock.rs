//! Advisory locks (flock) so two sessionctl runs never interleave writes.
//! A held lock is reported as `Busy` (exit 75) so cron can simply retry.
//!
//! Lock files live in `<root>/.sessionctl/locks/` rather than in the
//! session folders, so they survive a session's removal and never show up
//! in Agenvoy's data. They are never deleted: deleting a flock file while
//! another process waits on it is a classic race.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::files::{self, Mode};
use crate::store::layout::{name_part, DataRoot};

#[derive(Debug)]
pub struct Lock {
    _file: File,
    pub path: PathBuf,
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

fn acquire(root: &DataRoot, name: &str, what: &str) -> Result<Lock> {
    let dir = locks_dir(root);
    atomic::create_dir_all(root, &dir)?;
    let path = dir.join(name);
    let opened = files::open(root, &path, Mode::Lock)?.expect("Lock mode creates the file");
    match opened.file.try_lock() {
        Ok(()) => Ok(Lock {
            _file: opened.file,
            path,
        }),
        Err(std::fs::TryLockError::WouldBlock) => Err(busy(what, &path)),
        Err(std::fs::TryLockError::Error(e)) => Err(Error::write(&path, e)),
    }
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
        let _l = session(&root, &long).unwrap();
        assert!(session(&root, &long).is_err());
    }
}
