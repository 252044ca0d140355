//! `<root>/.sessionctl/tokens.json`: exact token counts of each session's
//! history.json, so `sessions list` runs a BPE only over histories that
//! changed since it last counted them. Our own file; Agenvoy never reads it.
//!
//! An entry is used only when history.json still has the same size,
//! modification and change times and inode, and was counted with the same
//! counter under the same counting rules. No lock: two writers at once
//! lose at most some entries, which are counted again next time.

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::store::atomic;
use crate::store::layout::DataRoot;

/// Bump when what a record costs changes (prefix line, overhead, counters).
pub const COUNT_RULES: u32 = 1;

/// What identifies one version of history.json.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    pub len: u64,
    pub mtime_ns: i128,
    pub ctime_ns: i128,
    pub ino: u64,
}

impl Fingerprint {
    pub fn of(meta: &std::fs::Metadata) -> Fingerprint {
        let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
        Fingerprint {
            len: meta.len(),
            mtime_ns: ns(meta.mtime(), meta.mtime_nsec()),
            ctime_ns: ns(meta.ctime(), meta.ctime_nsec()),
            ino: meta.ino(),
        }
    }

    /// A file changed within the last seconds may change again within the
    /// same timestamp tick on coarse filesystems: not worth remembering.
    pub fn is_settled(&self, now_ns: i128) -> bool {
        now_ns + settle_shift_for_tests() - self.mtime_ns.max(self.ctime_ns) > 2_000_000_000
    }
}

/// With the `testing` feature (tests build it; releases do not):
/// `SESSIONCTL_ROWS_SETTLED=1` treats every file as settled (as if the clock
/// were a minute ahead), so tests need not wait for the files they just
/// wrote to age (a ctime cannot be set back).
fn settle_shift_for_tests() -> i128 {
    #[cfg(feature = "testing")]
    if std::env::var_os("SESSIONCTL_ROWS_SETTLED").is_some_and(|v| v == "1") {
        return 60_000_000_000;
    }
    0
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub fingerprint: Fingerprint,
    pub counter: String,
    pub tokens: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenCache {
    pub rules: u32,
    pub sessions: BTreeMap<String, Entry>,
}

impl TokenCache {
    pub fn get(&self, id: &str, fingerprint: &Fingerprint, counter: &str) -> Option<usize> {
        self.sessions
            .get(id)
            .filter(|e| e.fingerprint == *fingerprint && e.counter == counter)
            .map(|e| e.tokens)
    }
}

pub fn path(root: &DataRoot) -> PathBuf {
    root.tool_dir().join("tokens.json")
}

/// The cache, or an empty one when it is missing, damaged or from other
/// counting rules: it only ever saves work.
pub fn load(root: &DataRoot) -> TokenCache {
    crate::store::files::read(root, &path(root), crate::store::layout::MAX_JSON_FILE)
        .ok()
        .flatten()
        .and_then(|b| serde_json::from_slice::<TokenCache>(&b).ok())
        .filter(|c| c.rules == COUNT_RULES)
        .unwrap_or_default()
}

pub fn save(root: &DataRoot, cache: &TokenCache) -> crate::Result<()> {
    atomic::create_dir_all(root, &root.tool_dir())?;
    let bytes = serde_json::to_vec(cache).expect("the cache serialises");
    atomic::write_atomic(root, &path(root), &bytes)
}
