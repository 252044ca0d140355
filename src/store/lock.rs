//! Advisory locks (flock) so two sessionctl runs never interleave writes.
//! A held lock is reported as `Busy` (exit 75) so cron can simply retry.
//!
//! Lock files live in `<root>/.sessionctl/locks/` rather than in the
//! session folders, so they survive a session's removal and never show up
//! in Agenvoy's data. They are never deleted: deleting a flock file while
//! another process waits on it is a classic race.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::store::layout::DataRoot;

#[derive(Debug)]
pub struct Lock {
    _file: File,
    pub path: PathBuf,
}

/// The per-session lock.
pub fn session(root: &DataRoot, id: &str) -> Result<Lock> {
    acquire(
        &root.tool_dir().join("locks"),
        &format!("session-{id}.lock"),
        &format!("session '{id}'"),
    )
}

/// The store lock: held while we write the ToriiDB logs or the archive,
/// which all sessions share.
pub fn store(root: &DataRoot) -> Result<Lock> {
    acquire(
        &root.tool_dir().join("locks"),
        "store.lock",
        "the shared store",
    )
}

/// Held while the limits cache is read, changed and written back.
pub fn limits(root: &DataRoot) -> Result<Lock> {
    acquire(
        &root.tool_dir().join("locks"),
        "limits.lock",
        "the limits cache",
    )
}

fn acquire(dir: &Path, name: &str, what: &str) -> Result<Lock> {
    std::fs::create_dir_all(dir).map_err(|e| Error::write(dir, e))?;
    let path = dir.join(name);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| Error::write(&path, e))?;
    match file.try_lock() {
        Ok(()) => Ok(Lock { _file: file, path }),
        Err(std::fs::TryLockError::WouldBlock) => Err(Error::busy(format!(
            "{what} is locked by another sessionctl run ({})",
            path.display()
        ))
        .with_hint("retry when it has finished; exit code 75 means 'try again later'")),
        Err(std::fs::TryLockError::Error(e)) => Err(Error::write(&path, e)),
    }
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
}
