//! `<root>/.sessionctl/rows.json`: what `sessions list` read from each
//! session's history.json, summary.json and config.json, so a repeat run
//! over unchanged sessions only stats them. Our own file; Agenvoy never
//! reads it.
//!
//! A session's facts are used only while every one of those three files
//! has the same fingerprint (size, modification and change times, inode;
//! absent stays absent): a touched file, a rewrite that keeps the size or
//! the mtime, a new or removed file all miss. Facts are remembered only
//! for files that settled (not changed in the last seconds, see
//! `Fingerprint::is_settled`) and that read without a problem. A missing,
//! damaged or other-version cache is an empty one: it only saves work.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::store::atomic;
use crate::store::layout::{DataRoot, SessionDir};
use crate::store::token_cache::Fingerprint;

/// Bump when `Facts` or what goes into them changes.
pub const VERSION: u32 = 2;

/// The versions of a session's files the facts were read from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    pub history: Option<Fingerprint>,
    pub summary: Option<Fingerprint>,
    pub config: Option<Fingerprint>,
    /// summary.meta.json: the summary's age is its cursor's.
    #[serde(default)]
    pub meta: Option<Fingerprint>,
}

impl Stamp {
    /// Stat the four files; `None` when one cannot be looked at (the row
    /// is then read the slow way, which reports why).
    pub fn of(dir: &SessionDir) -> Option<Stamp> {
        let fp = |p: std::path::PathBuf| {
            let meta = dir.inspect(&p).ok()?;
            Some(meta.as_ref().map(Fingerprint::of))
        };
        Some(Stamp {
            history: fp(dir.history_json())?,
            summary: fp(dir.summary_json())?,
            config: fp(dir.config_json())?,
            meta: fp(dir.summary_meta())?,
        })
    }

    pub fn is_settled(&self, now_ns: i128) -> bool {
        [self.history, self.summary, self.config, self.meta]
            .iter()
            .flatten()
            .all(|f| f.is_settled(now_ns))
    }
}

/// What a session row takes from the files of `stamp`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Facts {
    pub stamp: Stamp,
    pub model: Option<String>,
    pub records: usize,
    pub bytes: u64,
    /// (counter name, tokens) when the row counted them.
    pub tokens: Option<(String, usize)>,
    /// Newest record time, else history.json's mtime.
    pub last_at: Option<DateTime<Utc>>,
    /// Oldest record time, else history.json's mtime.
    pub first_at: Option<DateTime<Utc>>,
    pub has_summary: bool,
    pub summary_at: Option<DateTime<Utc>>,
    /// The rest of what config.json says that the window depends on.
    #[serde(default)]
    pub num_ctx: Option<(u64, String)>,
    #[serde(default)]
    pub loopback_url: bool,
}

impl Facts {
    /// Worth remembering: every file settled.
    pub fn settled(self, now_ns: i128) -> Option<Facts> {
        self.stamp.is_settled(now_ns).then_some(self)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowCache {
    pub version: u32,
    pub sessions: BTreeMap<String, Facts>,
    /// The per-session counts of db1 and the archive, while neither changed.
    #[serde(default)]
    pub tiers: Option<TierCounts>,
}

/// The versions of the two shared stores: db1's log, the archive and its WAL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TierStamp {
    pub db1: Option<Fingerprint>,
    pub archive: Option<Fingerprint>,
    pub wal: Option<Fingerprint>,
}

impl TierStamp {
    pub fn of(root: &DataRoot) -> Option<TierStamp> {
        let fp = |p: std::path::PathBuf| {
            let meta = crate::store::files::inspect(root, &p).ok()?;
            Some(meta.as_ref().map(Fingerprint::of))
        };
        let archive = root.archive_path();
        let mut wal = archive.clone().into_os_string();
        wal.push("-wal");
        Some(TierStamp {
            db1: fp(root.store_dir().join("db_1/record.aof"))?,
            archive: fp(archive)?,
            wal: fp(wal.into())?,
        })
    }

    pub fn is_settled(&self, now_ns: i128) -> bool {
        [self.db1, self.archive, self.wal]
            .iter()
            .flatten()
            .all(|f| f.is_settled(now_ns))
    }
}

/// What `sessions list` takes from db1 and the archive for every row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TierCounts {
    pub stamp: TierStamp,
    /// Counts are exact until then (exclusive; Unix seconds): a key expires.
    pub torii_until: Option<i64>,
    /// What replaying db1 warned about, said again on each use.
    pub torii_warnings: Vec<String>,
    pub torii: BTreeMap<String, u64>,
    /// (messages, oldest send_at) per session.
    pub archive: BTreeMap<String, (u64, Option<i64>)>,
}

impl TierCounts {
    pub fn usable(&self, stamp: &TierStamp, now: i64) -> bool {
        self.torii_usable(stamp, now) && self.archive_usable(stamp)
    }

    /// The db1 counts hold: the log is unchanged and no key has expired.
    pub fn torii_usable(&self, stamp: &TierStamp, now: i64) -> bool {
        self.stamp.db1 == stamp.db1 && self.torii_until.is_none_or(|t| now < t)
    }

    /// The archive counts hold: the archive and its WAL are unchanged
    /// (Agenvoy appending to db1 leaves them so).
    pub fn archive_usable(&self, stamp: &TierStamp) -> bool {
        self.stamp.archive == stamp.archive && self.stamp.wal == stamp.wal
    }
}

impl RowCache {
    /// The facts of `id` if they were read from exactly these files.
    pub fn get(&self, id: &str, stamp: &Stamp) -> Option<&Facts> {
        self.sessions.get(id).filter(|f| f.stamp == *stamp)
    }

    /// Take in the fresh facts of this run and drop sessions not in `ids`
    /// (sorted). Returns whether anything changed, i.e. whether to save.
    pub fn update(&mut self, fresh: Vec<(String, Facts)>, ids: &[String]) -> bool {
        let before = self.sessions.len();
        self.sessions.retain(|id, _| ids.binary_search(id).is_ok());
        let mut changed = self.sessions.len() != before;
        for (id, facts) in fresh {
            if self.sessions.get(&id) != Some(&facts) {
                self.sessions.insert(id, facts);
                changed = true;
            }
        }
        self.version = VERSION;
        changed
    }
}

pub fn path(root: &DataRoot) -> std::path::PathBuf {
    root.tool_dir().join("rows.json")
}

/// The cache, or an empty one when it is missing, damaged or of another
/// version.
pub fn load(root: &DataRoot) -> RowCache {
    crate::store::files::read(root, &path(root), crate::store::layout::MAX_JSON_FILE)
        .ok()
        .flatten()
        .and_then(|b| serde_json::from_slice::<RowCache>(&b).ok())
        .filter(|c| c.version == VERSION)
        .unwrap_or_default()
}

pub fn save(root: &DataRoot, cache: &RowCache) -> crate::Result<()> {
    atomic::create_dir_all(root, &root.tool_dir())?;
    let bytes = serde_json::to_vec(cache).expect("the cache serialises");
    atomic::write_atomic(root, &path(root), &bytes)
}
