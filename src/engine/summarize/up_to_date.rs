//! `<root>/.sessionctl/summarized.json`: the sessions a `summarize` run
//! found up to date, with the versions (row_cache `Stamp`: size, mtime,
//! ctime, inode) of the files that finding was read from. A cron run over
//! an up-to-date root then stats each session instead of parsing its
//! history and opening the archive for it.
//!
//! Trusted only while every stamp is equal: a touched, rewritten, new or
//! removed history.json, summary.json, summary.meta.json or config.json
//! misses. The archive is not stamped per session: every writer of a
//! session's archive rows (Agenvoy, compact, reset, remove, undo, import)
//! also writes or removes its history.json. Only settled files are
//! remembered (see `Fingerprint::is_settled`). A missing, damaged or
//! other-version file is an empty one: it only saves work.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::row_cache::Stamp;
use crate::store::atomic;
use crate::store::layout::{DataRoot, SessionDir};

const VERSION: u32 = 1;

/// A session found with nothing to merge, and its cursor then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub stamp: Stamp,
    pub cursor: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpToDate {
    pub version: u32,
    pub sessions: BTreeMap<String, Entry>,
}

impl UpToDate {
    /// The cursor of `dir` if it was found up to date with exactly its
    /// files as they are now.
    pub fn cursor_if_unchanged(&self, dir: &SessionDir) -> Option<Option<String>> {
        let entry = self.sessions.get(&dir.id)?;
        (Stamp::of(dir)? == entry.stamp).then(|| entry.cursor.clone())
    }
}

pub fn path(root: &DataRoot) -> std::path::PathBuf {
    root.tool_dir().join("summarized.json")
}

pub fn load(root: &DataRoot) -> UpToDate {
    crate::store::files::read(root, &path(root), crate::store::layout::MAX_JSON_FILE)
        .ok()
        .flatten()
        .and_then(|b| serde_json::from_slice::<UpToDate>(&b).ok())
        .filter(|c| c.version == VERSION)
        .unwrap_or_default()
}

pub fn save(root: &DataRoot, cache: &UpToDate) -> crate::Result<()> {
    atomic::create_dir_all(root, &root.tool_dir())?;
    let bytes = serde_json::to_vec(&UpToDate {
        version: VERSION,
        sessions: cache.sessions.clone(),
    })
    .expect("the cache serialises");
    atomic::write_atomic(root, &path(root), &bytes)
}

/// Nanoseconds since the epoch, for `Stamp::is_settled`.
pub fn now_ns() -> i128 {
    crate::timefmt::file_clock_ns()
}
