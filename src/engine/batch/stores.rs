//! The shared stores a batch reads and writes: the snapshot planning reads
//! before any lock, and the stores loaded (or taken over from the
//! snapshot, when the log is unchanged) after the locks.

use super::StoreView;
use crate::error::Result;
use crate::store::archive::{Archive, SessionCount};
use crate::store::layout::DataRoot;
use crate::store::oplog::Journal;
use crate::store::torii::{self, Db};

/// The shared stores as they were before any lock: db1's keys by session
/// and the archive's row counts. Only read.
#[derive(Default)]
pub(super) struct Snapshot {
    db1: Option<Replayed>,
    rows: std::collections::HashMap<String, SessionCount>,
}

/// db1 replayed before the locks, with the keys the batch asks for.
pub(super) struct Replayed {
    db: Db,
    now: i64,
    keys: SessionKeys,
    /// The log as it was before the replay read it; `None` when it changed
    /// while being read (then it is never reused).
    stamp: Option<LogStamp>,
}

/// Up to this many targets, their keys are found by one scan each rather
/// than by indexing every session's keys.
const FEW_TARGETS: usize = 16;

impl Snapshot {
    pub(super) fn into_db1(self) -> Option<Replayed> {
        self.db1
    }

    pub(super) fn load(root: &DataRoot, now: i64, targets: &[&str]) -> Result<Snapshot> {
        let path = root
            .store_dir()
            .join(format!("db_{}", torii::DB_SESSION_HIST))
            .join("record.aof");
        let before = LogStamp::at(&path);
        let db = Db::load_incremental(root, torii::DB_SESSION_HIST)?;
        let stamp = before.filter(|b| b.len == db.log_len());
        let keys = SessionKeys::of(&db, now, targets);
        let rows = match Archive::open_read(root, &root.archive_path())? {
            Some(a) => a.counts_by_session()?,
            None => Default::default(),
        };
        Ok(Snapshot {
            db1: Some(Replayed {
                db,
                now,
                keys,
                stamp,
            }),
            rows,
        })
    }
}

/// Identity of a log file: a log appended to, rewritten or replaced since
/// has another one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LogStamp {
    len: u64,
    ino: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl LogStamp {
    fn at(path: &std::path::Path) -> Option<LogStamp> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::symlink_metadata(path).ok()?;
        Some(LogStamp {
            len: m.len(),
            ino: m.ino(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        })
    }

    fn of(db: &Db) -> Option<LogStamp> {
        LogStamp::at(&db.aof_path())
    }
}

/// db1's live keys by session: every session's, or only the targets'
/// (then another session's are looked up in db1 when asked for).
#[derive(Default)]
pub(super) struct SessionKeys {
    by_session: std::collections::HashMap<String, Vec<String>>,
    complete: bool,
}

impl SessionKeys {
    fn of(db: &Db, now: i64, targets: &[&str]) -> SessionKeys {
        if targets.len() > FEW_TARGETS {
            return SessionKeys {
                by_session: db.keys_by_session(now),
                complete: true,
            };
        }
        // A few targets' keys are found in db1 when asked for, not held
        // from the plan on: a session's keys as `String`s are half the
        // size of the index again, and planning needs only
        // their count.
        SessionKeys::default()
    }

    fn get(&self, db: &Db, now: i64, session: &str) -> Vec<String> {
        match self.by_session.get(session) {
            Some(keys) => keys.clone(),
            None if self.complete => Vec::new(),
            None => db.session_keys(session, now),
        }
    }

    fn count(&self, db: &Db, now: i64, session: &str) -> usize {
        match self.by_session.get(session) {
            Some(keys) => keys.len(),
            None if self.complete => 0,
            None => db.session_key_count(session, now),
        }
    }

    /// The keys' positions in db1's index, taken out: the session is left
    /// with none.
    fn take(&mut self, db: &Db, now: i64, session: &str) -> Vec<usize> {
        match self.by_session.insert(session.to_owned(), Vec::new()) {
            Some(keys) => keys.iter().filter_map(|k| db.position(k)).collect(),
            None if self.complete => Vec::new(),
            None => db.session_positions(session, now),
        }
    }
}

impl StoreView for Snapshot {
    fn session_keys(&self, session: &str) -> Vec<String> {
        match &self.db1 {
            Some(r) => r.keys.get(&r.db, r.now, session),
            None => Vec::new(),
        }
    }
    fn session_key_count(&self, session: &str) -> usize {
        self.db1
            .as_ref()
            .map_or(0, |r| r.keys.count(&r.db, r.now, session))
    }
    fn archive_rows(&self, session: &str) -> Result<u64> {
        Ok(self.rows.get(session).map_or(0, |c| c.messages))
    }
}

/// The shared stores a batch writes, each loaded on first use — after the
/// locks, so what is rewritten is never a stale copy.
pub struct Stores<'r> {
    pub root: &'r DataRoot,
    /// The operation the writes belong to: whatever keeps a previous state
    /// records it here.
    pub journal: &'r Journal,
    pub now: i64,
    force: bool,
    db1: Option<Db>,
    db1_keys: SessionKeys,
    archive: Option<Option<Archive>>,
}

impl<'r> Stores<'r> {
    pub fn new(root: &'r DataRoot, journal: &'r Journal, now: i64, force: bool) -> Self {
        Stores {
            root,
            journal,
            now,
            force,
            db1: None,
            db1_keys: Default::default(),
            archive: None,
        }
    }

    /// Write although a log has lines of an unknown format (`--force`).
    pub fn force(&self) -> bool {
        self.force
    }

    /// db1, replayed once per batch; refuses a log of unknown format.
    pub fn db1(&mut self) -> Result<&mut Db> {
        if self.db1.is_none() {
            // After the locks: the index is the one a full replay of the
            // log as it is now builds, resumed from a snapshot or not.
            let db = Db::load_incremental(self.root, torii::DB_SESSION_HIST)?;
            db.check_writable(self.force)?;
            // Indexed once so a batch is not O(sessions × keys).
            self.db1_keys = SessionKeys {
                by_session: db.keys_by_session(self.now),
                complete: true,
            };
            self.db1 = Some(db);
        }
        Ok(self.db1.as_mut().expect("just loaded"))
    }

    /// Take over db1 as the plans read it (the caller checked, under the
    /// locks, that its log is unchanged since) instead of replaying it.
    /// Take over the plan's replay when the log is still the one it read.
    pub(super) fn adopt_if_current(&mut self, r: Replayed) -> Result<()> {
        if r.stamp.is_some() && r.stamp == LogStamp::of(&r.db) {
            self.adopt(r.db, r.keys)?;
        }
        Ok(())
    }

    fn adopt(&mut self, db: Db, keys: SessionKeys) -> Result<()> {
        db.check_writable(self.force)?;
        self.db1 = Some(db);
        self.db1_keys = keys;
        Ok(())
    }

    /// db1 and the archive (created if missing) at once, for an operation
    /// that writes both in one step (compact).
    pub fn db1_and_archive(&mut self) -> Result<(&mut Db, &mut Archive)> {
        self.db1()?;
        self.archive(true)?;
        match (
            self.db1.as_mut(),
            self.archive.as_mut().and_then(Option::as_mut),
        ) {
            (Some(db), Some(a)) => Ok((db, a)),
            _ => unreachable!("both were just loaded"),
        }
    }

    /// Forget a session's keys after they were deleted.
    pub fn forget_keys(&mut self, session: &str) {
        self.db1_keys
            .by_session
            .insert(session.to_owned(), Vec::new());
    }

    /// A session's live keys, as positions in db1's index (`Db::key_at`)
    /// rather than copies (a session may have a million); the session then
    /// has none until `reindex_keys`.
    pub fn take_keys(&mut self, session: &str) -> Result<Vec<usize>> {
        self.db1()?;
        let db = self.db1.as_ref().expect("just loaded");
        Ok(self.db1_keys.take(db, self.now, session))
    }

    /// After `take_keys`, when deleting them failed: the session's keys
    /// as db1 has them now.
    pub fn reindex_keys(&mut self, session: &str) {
        if let Some(db) = &self.db1 {
            let keys = db.session_keys(session, self.now);
            self.db1_keys.by_session.insert(session.to_owned(), keys);
        }
    }

    /// The archive for writing; `None` when there is none and `create` is
    /// false (clearing never needs to create one).
    pub fn archive(&mut self, create: bool) -> Result<Option<&mut Archive>> {
        let path = self.root.archive_path();
        let missing = matches!(self.archive, None | Some(None));
        if missing && (create || path.exists()) {
            self.archive = Some(Some(Archive::open_write(self.root, &path)?));
        } else if self.archive.is_none() {
            self.archive = Some(None);
        }
        Ok(self.archive.as_mut().and_then(Option::as_mut))
    }
}

impl StoreView for Stores<'_> {
    /// Keys from the index `db1()` built: callers load db1 first (the
    /// runner does, before any re-plan, for operations that plan with it).
    fn session_keys(&self, session: &str) -> Vec<String> {
        match &self.db1 {
            Some(db) => self.db1_keys.get(db, self.now, session),
            None => {
                debug_assert!(false, "db1() must be loaded first");
                Vec::new()
            }
        }
    }
    fn session_key_count(&self, session: &str) -> usize {
        match &self.db1 {
            Some(db) => self.db1_keys.count(db, self.now, session),
            None => {
                debug_assert!(false, "db1() must be loaded first");
                0
            }
        }
    }
    fn archive_rows(&self, session: &str) -> Result<u64> {
        match &self.archive {
            Some(Some(a)) => a.count_session(session),
            _ => match Archive::open_read(self.root, &self.root.archive_path())? {
                Some(a) => a.count_session(session),
                None => Ok(0),
            },
        }
    }
}
