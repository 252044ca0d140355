//! Native ToriiDB (v0.5.x) store: replay `db_N/record.aof` exactly as
//! ToriiDB does, and persist changes by appending lines it can read.
//! The format and its traps: docs/agenvoy-format.md#toriidb.

pub mod aof;
mod append;
mod export;
mod fastline;
pub mod glob;
mod godecode;
mod index;
mod logfile;
#[cfg(test)]
mod reference;
mod repair;
mod replay;
mod report;
mod restore;
mod resume;
pub mod snapshot;
mod write;

use index::{Slot, Slots};
use logfile::LogFile;
use replay::Covered;
use resume::{Cache, SnapshotPolicy};

pub use resume::{LiveLine, LiveLines, SessionCounts};

pub use repair::TailRepair;
pub use report::ReplayReport;
pub use restore::{entry_of_line, restored_line_len};

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use md5::{Digest, Md5};

use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::files;
use crate::store::layout::{DataRoot, Last};

/// Agenvoy's databases.
pub const DB_SESSION_HIST: u8 = 1;
pub const DB_ERROR_MEMORY: u8 = 2;

/// Keys per batch of `Db::for_each_of` and `for_each_compacted_line`: a
/// batch's lines are read in file order and held until they are handed
/// out in key order.
const ENTRY_BATCH: usize = 4096;

/// Prefix of ToriiDB's internal keys (the embedding cache), hidden from
/// `Keys`, `Find` and searches.
pub const INTERNAL_PREFIX: &str = "__torii:";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub value: String,
    pub created_at: i64,
    pub updated_at: Option<i64>,
    /// Absolute Unix seconds.
    pub expire_at: Option<i64>,
    /// Base64 of little-endian f32s, exactly as stored.
    pub vector: Option<String>,
}

impl Entry {
    pub fn is_expired(&self, now: i64) -> bool {
        self.expire_at.is_some_and(|t| t <= now)
    }

    /// The entry as ToriiDB's compaction writes it: one SET line with
    /// `ts = created_at`, the value, the absolute expiry and the vector.
    pub fn compacted_line(&self, key: &str) -> Vec<u8> {
        aof::to_line(&aof::Line {
            ts: self.created_at,
            cmd: "SET".into(),
            key: key.into(),
            value: self.value.as_str().into(),
            expire_at: self.expire_at,
            vector: self.vector.as_deref().unwrap_or("").into(),
        })
    }

    pub fn vector_f32(&self) -> Option<Vec<f32>> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(self.vector.as_deref()?)
            .ok()?;
        Some(
            bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        )
    }
}

/// What `Db::scan_matching` found: the live, visible entries whose last
/// SET line passed the test, read back and decoded only when asked for
/// (a search wants a few of thousands), and the replay's report on the
/// log at `path`.
#[derive(Debug)]
pub struct Matching {
    pub path: PathBuf,
    pub report: ReplayReport,
    db: Db,
}

impl Matching {
    /// The keys found, in the order `live_where_raw` gives them: ours
    /// (decoded already) first, then file order.
    pub fn keys(&self, now: i64) -> Vec<&str> {
        let mut found: Vec<(&str, &Slot)> = self.db.live_keys(now).collect();
        found.sort_by_key(|(_, s)| s.at().map(|(offset, _)| offset));
        found.into_iter().map(|(k, _)| k).collect()
    }

    /// The entry of a key `keys` gave, decoded on first use; an error as
    /// `Db::entry`'s.
    pub fn entry(&self, key: &str) -> Result<Option<&Entry>> {
        self.db.entry(key)
    }
}

/// One replayed database: an index of key → where its value is in the log
/// and its metadata; values are read back and decoded when first asked for.
#[derive(Debug)]
pub struct Db {
    pub index: u8,
    /// Everything this database opens must resolve inside this root.
    root: DataRoot,
    dir: PathBuf,
    /// The log as it was opened for replay: values are read back from it
    /// by offset. Later changes to the file (ours or others') never move
    /// the bytes indexed.
    log: LogFile,
    entries: Slots,
    pub report: ReplayReport,
    /// See `resumed_at`.
    resumed_at: u64,
    /// While replaying only what follows a snapshot that is not loaded:
    /// what those lines do, kept apart (see `live_lines_resumed`).
    overlay: Option<replay::Overlay>,
}

impl Db {
    /// Replay `<store>/db_<index>/record.aof`. A missing file is an empty DB.
    /// Unlike ToriiDB we have no line-length limit; over-long lines are
    /// loaded and reported (see `ReplayReport::oversize`). Nothing it opens
    /// may leave `store_dir`; `load_store` confines it to the data root.
    pub fn load(store_dir: &Path, index: u8) -> Result<Db> {
        let root = DataRoot::at(store_dir)?;
        let store = root.path().to_path_buf();
        Db::load_full(root, &store, index, None)
    }

    /// Replay db `index` of the data root's `.store/`.
    pub fn load_store(root: &DataRoot, index: u8) -> Result<Db> {
        Db::load_full(root.clone(), &root.store_dir(), index, None)
    }

    /// `load_store`, resuming from the snapshot of an earlier replay when it
    /// still matches the log (see `snapshot`): only the bytes appended
    /// since are replayed. The snapshot is written or brought up to date
    /// when that is worth it and allowed (put in place on another thread:
    /// call `snapshot::wait_for_writes` before the process ends); failing
    /// to is not an error. The index is the one `load_store` builds.
    pub fn load_incremental(root: &DataRoot, index: u8) -> Result<Db> {
        let policy = SnapshotPolicy::standard();
        Db::load_with(root.clone(), &root.store_dir(), index, None, Some(policy))
    }

    /// The entries `load_store` then `live_where_raw(now, keep)` give
    /// (see `Matching`), found in one streaming pass that indexes only the keys whose last SET line
    /// passes `keep`: for a search that wants a few entries of a big log.
    /// The report is the whole replay's.
    pub fn scan_matching(
        root: &DataRoot,
        index: u8,
        keep: &(dyn Fn(&[u8]) -> bool + Sync),
    ) -> Result<Matching> {
        let mut db = Db::load_full(root.clone(), &root.store_dir(), index, Some(keep))?;
        Ok(Matching {
            path: db.aof_path(),
            report: std::mem::take(&mut db.report),
            db,
        })
    }

    fn load_full(
        root: DataRoot,
        store_dir: &Path,
        index: u8,
        keep: Option<&replay::Keep<'_>>,
    ) -> Result<Db> {
        Db::load_with(root, store_dir, index, keep, None)
    }

    /// Replay db `index`; with a `policy`, resuming from its snapshot and
    /// keeping it up to date.
    fn load_with(
        root: DataRoot,
        store_dir: &Path,
        index: u8,
        keep: Option<&replay::Keep<'_>>,
        policy: Option<SnapshotPolicy>,
    ) -> Result<Db> {
        let dir = store_dir.join(format!("db_{index}"));
        let path = dir.join("record.aof");
        // The log is the data itself: no size cap beyond what it is.
        let opened = files::open(&root, &path, files::Mode::Read)?;
        let meta = opened.as_ref().map(|o| o.meta.clone());
        let log = LogFile::new(opened.map(|o| o.file), &path);
        let mut db = Db {
            index,
            root,
            dir,
            log: LogFile::default(),
            entries: Slots::default(),
            report: ReplayReport::default(),
            resumed_at: 0,
            overlay: None,
        };
        let cache = match (policy, meta) {
            (Some(policy), Some(before)) if keep.is_none() => Some(Cache {
                policy,
                id: snapshot::LogId::of(&before),
                before,
            }),
            _ => None,
        };
        let from = match &cache {
            Some(c) => c.resume(&mut db, &log),
            None => Covered::default(),
        };
        db.resumed_at = from.end;
        // Chunks of 1 MiB: the buffer (a few chunks) and the parse
        // buffers stay small enough to be faulted in once and to stay in
        // cache, and there are still enough chunks for every thread.
        let (covered, tail) = db.replay_lines(&log, from, 1 << 20, keep)?;
        if let Some(c) = &cache {
            // The index holds exactly the whole lines now: the tail is not
            // applied yet.
            c.keep(&db, &log, &path, from, covered);
        }
        db.replay_tail(tail, keep);
        db.log = log;
        slow_load_for_tests(from.end);
        Ok(db)
    }

    /// Where the replay of the log began: 0, or the end of the bytes the
    /// snapshot it resumed from covered.
    pub fn resumed_at(&self) -> u64 {
        self.resumed_at
    }

    pub fn aof_path(&self) -> PathBuf {
        self.dir.join("record.aof")
    }

    /// Bytes of the log this database was replayed from.
    pub fn log_len(&self) -> u64 {
        self.report.bytes
    }

    /// The entry of `key`, its value read back and decoded on first use.
    /// An error only if the log was cut short in place since replay (or
    /// an I/O error): a data error naming the log.
    pub fn entry(&self, key: &str) -> Result<Option<&Entry>> {
        self.entries.get(key).map(|s| self.entry_of(s)).transpose()
    }

    /// `entry` for tests and tools: panics where `entry` returns an error
    /// (the log truncated in place under us). Library code uses `entry`.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entry(key)
            .unwrap_or_else(|e| panic!("reading {key:?} back: {e}"))
    }

    fn entry_of<'a>(&'a self, s: &'a Slot) -> Result<&'a Entry> {
        s.entry(|offset, len| self.log.read_line(offset, len))
    }

    /// How many entries hold their decoded value: tests check that a
    /// reader decodes only what it needs.
    #[cfg(test)]
    pub(crate) fn decoded_count(&self) -> usize {
        self.entries
            .iter()
            .filter(|(_, s)| s.decoded().is_some())
            .count()
    }

    /// Whether `key` exists (expired or not), without decoding it.
    pub fn contains(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    /// Whether `key` exists and has not expired, without decoding it.
    pub fn is_live(&self, key: &str, now: i64) -> bool {
        self.entries.get(key).is_some_and(|s| !s.is_expired(now))
    }

    /// `try_all` for tests and tools: panics where `try_all` returns an
    /// error (the log truncated in place under us).
    pub fn all(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.try_all()
            .unwrap_or_else(|e| panic!("reading the entries back: {e}"))
    }

    /// Every entry, internal and expired ones included, decoded (and
    /// kept). The log is read once, in order. A caller that only passes
    /// over the entries should use `for_each_entry`, which keeps none.
    pub fn try_all(&self) -> Result<impl Iterator<Item = (&str, &Entry)>> {
        let slots: Vec<(&str, &Slot)> = self.entries.iter().collect();
        self.cache_lines(&slots)?;
        Ok(slots
            .into_iter()
            .map(|(k, s)| (k, s.decoded().expect("cache_lines decoded every entry"))))
    }

    /// Decode (and keep) the entries of `slots`, reading the log once in
    /// file order.
    fn cache_lines(&self, slots: &[(&str, &Slot)]) -> Result<()> {
        self.each_line(slots, |_, _, s, line| {
            s.entry_from(line);
            Ok(())
        })
    }

    /// Hand each of `slots` to `f` with its position in `slots` and its
    /// log line (empty for our own writes, which are decoded already), in
    /// file order, the log read sequentially through a fixed buffer.
    fn each_line<'a>(
        &self,
        slots: &[(&'a str, &'a Slot)],
        mut f: impl FnMut(usize, &'a str, &'a Slot, &[u8]) -> Result<()>,
    ) -> Result<()> {
        let mut on_disk = Vec::with_capacity(slots.len());
        let mut spans = Vec::with_capacity(slots.len());
        for (i, &(k, s)) in slots.iter().enumerate() {
            match s.at() {
                Some(at) if s.decoded().is_none() => {
                    on_disk.push(i);
                    spans.push(at);
                }
                _ => f(i, k, s, b"")?,
            }
        }
        self.log.for_each_line(&spans, |j, line| {
            let i = on_disk[j];
            let (k, s) = slots[i];
            f(i, k, s, line)
        })
    }

    /// The keys of `batch` that exist, with their slots, in batch order:
    /// what `each_line` reads for a batch of `ENTRY_BATCH` keys.
    fn present<'k, K: AsRef<str>>(&'k self, batch: &'k [K]) -> Vec<(&'k str, &'k Slot)> {
        batch
            .iter()
            .filter_map(|k| {
                let k = k.as_ref();
                Some((k, self.entries.get(k)?))
            })
            .collect()
    }

    /// Every entry (internal and expired ones included) in turn, decoded
    /// but not kept: memory stays the index, whatever the values' size.
    pub fn for_each_entry(&self, mut f: impl FnMut(&str, &Entry)) -> Result<()> {
        let slots: Vec<(&str, &Slot)> = self.entries.iter().collect();
        self.each_line(&slots, |_, k, s, line| {
            match s.decoded() {
                Some(e) => f(k, e),
                None => f(k, &s.decode(line)),
            }
            Ok(())
        })
    }

    /// The entries of `keys` that exist, in the order given, decoded but
    /// not kept. The log is read a batch of keys at a time, each batch in
    /// file order: a session's thousands of keys cost a few reads, not a
    /// `pread` each, and memory stays one batch of values.
    pub fn for_each_of<K: AsRef<str>>(
        &self,
        keys: &[K],
        mut f: impl FnMut(&str, &Entry) -> Result<()>,
    ) -> Result<()> {
        for batch in keys.chunks(ENTRY_BATCH) {
            let slots = self.present(batch);
            let mut decoded: Vec<Option<Entry>> = vec![None; slots.len()];
            self.each_line(&slots, |i, _, s, line| {
                decoded[i] = Some(s.decode(line));
                Ok(())
            })?;
            for ((key, _), e) in slots.iter().zip(&decoded) {
                if let Some(e) = e {
                    f(key, e)?;
                }
            }
        }
        Ok(())
    }

    /// How many keys the database holds (internal and expired included).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Live, visible entries: what `Keys("*")` would consider.
    pub fn live(&self, now: i64) -> Result<Vec<(&str, &Entry)>> {
        self.live_where(now, |_| true)
    }

    /// Live, visible entries whose slot passes `keep`, decoded (and kept).
    fn live_where(&self, now: i64, keep: impl Fn(&Slot) -> bool) -> Result<Vec<(&str, &Entry)>> {
        let slots: Vec<(&str, &Slot)> = self.live_keys(now).filter(|(_, s)| keep(s)).collect();
        self.cache_lines(&slots)?;
        Ok(slots
            .into_iter()
            .map(|(k, s)| (k, s.decoded().expect("cache_lines decoded every entry")))
            .collect())
    }

    /// Live, visible entries whose log line passes `raw` (a test on the
    /// line's bytes, cheap to fail): only those are decoded. An entry we
    /// wrote ourselves has no line in the log read, so it is always kept.
    /// The reference `scan_matching` and `live_keys_where_raw` are tested
    /// against; searches decode only what they show.
    #[cfg(test)]
    pub fn live_where_raw(
        &self,
        now: i64,
        raw: impl Fn(&[u8]) -> bool,
    ) -> Result<Vec<(&str, &Entry)>> {
        let slots: Vec<(&str, &Slot)> = self.live_keys(now).collect();
        let mut out = Vec::new();
        self.each_line(&slots, |_, k, s, line| {
            match s.decoded() {
                Some(e) => out.push((k, e)),
                None if raw(line) => out.push((k, s.entry_from(line))),
                None => {}
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// The keys of the entries `live_where_raw` gives, in its order, none
    /// of them decoded: for a caller that reads only a few of them.
    pub fn live_keys_where_raw(&self, now: i64, raw: impl Fn(&[u8]) -> bool) -> Result<Vec<&str>> {
        let slots: Vec<(&str, &Slot)> = self.live_keys(now).collect();
        let mut out = Vec::new();
        self.each_line(&slots, |_, k, s, line| {
            if s.decoded().is_some() || raw(line) {
                out.push(k);
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// Live, visible keys with their position in the index and where
    /// their line starts in the log: `None` for an entry decoded already
    /// (ours, or one read back before), which `live_keys_where_raw` gives
    /// first, the others following in file order.
    pub fn live_lines(&self, now: i64) -> impl Iterator<Item = (usize, &str, Option<u64>)> {
        self.live_at(now).map(|(i, k, s)| {
            let at = match s.decoded() {
                Some(_) => None,
                None => s.at().map(|(offset, _)| offset),
            };
            (i, k, at)
        })
    }

    /// Hand `visit` the entries at `positions` (from `live_lines`), in the
    /// order given, that `live_keys_where_raw` would give: those whose log
    /// line passes `raw`, or decoded already. Each is decoded (and kept)
    /// only when its turn comes, until `visit` returns false. The lines
    /// are read a batch of positions at a time, each batch in file order
    /// (batches double from a small first one): a visit that stops after
    /// a few entries reads a few lines, one that goes through them all
    /// reads the log about once.
    pub fn visit_where_raw(
        &self,
        mut positions: impl Iterator<Item = usize>,
        raw: impl Fn(&[u8]) -> bool,
        mut visit: impl FnMut(&str, &Entry) -> Result<bool>,
    ) -> Result<()> {
        let mut batch = 64;
        loop {
            let slots: Vec<(&str, &Slot)> = positions
                .by_ref()
                .take(batch)
                .map(|i| (self.entries.key_at(i), self.entries.slot_at(i)))
                .collect();
            if slots.is_empty() {
                return Ok(());
            }
            // what passed: decoded already (no line needed) or its line
            let mut passed: Vec<Option<Vec<u8>>> = vec![None; slots.len()];
            self.each_line(&slots, |i, _, s, line| {
                if s.decoded().is_some() || raw(line) {
                    passed[i] = Some(line.to_vec());
                }
                Ok(())
            })?;
            for ((key, s), line) in slots.iter().zip(&passed) {
                let Some(line) = line else { continue };
                if !visit(key, s.entry_from(line))? {
                    return Ok(());
                }
            }
            batch = (batch * 2).min(ENTRY_BATCH * 4);
        }
    }

    /// Live, visible entries that have a vector; no other is decoded.
    pub fn live_with_vector(&self, now: i64) -> Result<Vec<(&str, &Entry)>> {
        self.live_where(now, Slot::has_vector)
    }

    /// Whether the live entry `key` has a vector, without decoding it.
    pub fn has_vector(&self, key: &str) -> bool {
        self.entries.get(key).is_some_and(|s| s.has_vector())
    }

    fn live_keys(&self, now: i64) -> impl Iterator<Item = (&str, &Slot)> {
        self.live_at(now).map(|(_, k, s)| (k, s))
    }

    /// `live_keys`, with each key's position in the index.
    fn live_at(&self, now: i64) -> impl Iterator<Item = (usize, &str, &Slot)> {
        self.entries
            .iter_at()
            .filter(move |(_, k, e)| !k.starts_with(INTERNAL_PREFIX) && !e.is_expired(now))
    }

    /// `Keys(pattern)`: Go `path.Match`, internal and expired keys hidden,
    /// sorted byte-wise; a malformed pattern matches nothing.
    pub fn keys(&self, pattern: &str, now: i64) -> Vec<String> {
        let mut keys: Vec<String> = self
            .live_keys(now)
            .filter(|(k, _)| glob::path_match(pattern, k) == Ok(true))
            .map(|(k, _)| k.to_owned())
            .collect();
        keys.sort_unstable();
        keys
    }

    /// The db1 keys of one session: `<id>:<rest>` where rest holds no '/'
    /// (Agenvoy's `Keys(id + ":*")`) and, stricter than Agenvoy, no ':' —
    /// so removing session `a` can never take the keys of a session `a:b`.
    pub fn session_keys(&self, session: &str, now: i64) -> Vec<String> {
        let mut keys: Vec<String> = self
            .live_keys(now)
            .filter(|(k, _)| session_of_key(k) == Some(session))
            .map(|(k, _)| k.to_owned())
            .collect();
        keys.sort_unstable();
        keys
    }

    /// `session_keys` as positions in the index (see `key_at`), in the
    /// same order: a session's million keys cost 8 bytes each, not a
    /// copy of their text.
    pub fn session_positions(&self, session: &str, now: i64) -> Vec<usize> {
        let mut at: Vec<usize> = self
            .live_at(now)
            .filter(|(_, k, _)| session_of_key(k) == Some(session))
            .map(|(i, _, _)| i)
            .collect();
        at.sort_unstable_by(|&a, &b| self.entries.key_at(a).cmp(self.entries.key_at(b)));
        at
    }

    /// Where `key` is in the index, while it is present.
    pub fn position(&self, key: &str) -> Option<usize> {
        self.entries.position(key)
    }

    /// The key at a position `session_positions` or `position` gave.
    pub fn key_at(&self, at: usize) -> &str {
        self.entries.key_at(at)
    }

    /// How many keys `session_keys` gives, without copying them.
    pub fn session_key_count(&self, session: &str, now: i64) -> usize {
        self.live_keys(now)
            .filter(|(k, _)| session_of_key(k) == Some(session))
            .count()
    }

    /// Every live db1 key grouped by session id, each list sorted: one pass
    /// over the store for a whole batch of sessions.
    pub fn keys_by_session(&self, now: i64) -> HashMap<String, Vec<String>> {
        let mut by: HashMap<String, Vec<String>> = HashMap::new();
        for (k, _) in self.live_keys(now) {
            if let Some(s) = session_of_key(k) {
                by.entry(s.to_owned()).or_default().push(k.to_owned());
            }
        }
        for keys in by.values_mut() {
            keys.sort_unstable();
        }
        by
    }

    /// Length of the vectors the store holds (ToriiDB's embedding
    /// dimension), from the first visible entry that has one.
    pub fn vector_dim(&self) -> Result<Option<usize>> {
        for (_, s) in self
            .entries
            .iter()
            .filter(|(k, s)| !k.starts_with(INTERNAL_PREFIX) && s.has_vector())
        {
            if let Some(v) = self.entry_of(s)?.vector_f32() {
                return Ok(Some(v.len()));
            }
        }
        Ok(None)
    }

    /// Live key counts per session id, for listings.
    pub fn counts_by_session(&self, now: i64) -> HashMap<&str, u64> {
        let mut counts = HashMap::new();
        for (k, _) in self.live_keys(now) {
            if let Some(s) = session_of_key(k) {
                *counts.entry(s).or_insert(0) += 1;
            }
        }
        counts
    }

    /// The soonest time a live session key expires: until then (exclusive)
    /// `counts_by_session` stays what it is now. `None`: no key expires.
    pub fn counts_valid_until(&self, now: i64) -> Option<i64> {
        self.live_keys(now)
            .filter(|(k, _)| session_of_key(k).is_some())
            .filter_map(|(_, s)| s.expire_at())
            .min()
    }
}

/// With the `testing` feature (tests build it; releases do not): `SESSIONCTL_TORII_LOAD_DELAY_MS=<ms>` makes every load
/// take that much longer after reading the log, as loading a big store
/// does, so race tests can make a writer hold a copy that goes stale.
fn slow_load_for_tests(resumed_at: u64) {
    // Tests count replays (a batch must not replay a log twice), and may
    // change the log while a replay is held up.
    #[cfg(feature = "testing")]
    if let Some(path) = std::env::var_os("SESSIONCTL_TORII_LOAD_COUNT") {
        use std::io::Write;
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let line = match resumed_at {
                0 => "load\n".to_owned(),
                n => format!("load resumed at {n}\n"),
            };
            let _ = f.write_all(line.as_bytes());
        }
    }
    #[cfg(not(feature = "testing"))]
    let _ = resumed_at;
    #[cfg(feature = "testing")]
    if let Some(ms) = std::env::var("SESSIONCTL_TORII_LOAD_DELAY_MS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// ToriiDB's type detection: 0 json, 1 string, 2 int, 3 float, 4 bool, 5 date.
fn value_type(v: &str) -> u8 {
    let t = v.trim();
    let bracketed =
        (t.starts_with('{') && t.ends_with('}')) || (t.starts_with('[') && t.ends_with(']'));
    if bracketed && serde_json::from_str::<serde_json::Value>(t).is_ok() {
        0
    } else if v.parse::<i64>().is_ok() {
        2
    } else if v.parse::<f64>().is_ok() {
        3
    } else if v == "true" || v == "false" {
        4
    } else if chrono::DateTime::parse_from_rfc3339(v).is_ok()
        || chrono::NaiveDate::parse_from_str(v, "%Y-%m-%d").is_ok()
    {
        5
    } else {
        1
    }
}

/// The session id of a db1 key `<id>:<nanos>`, if it has that shape.
pub fn session_of_key(key: &str) -> Option<&str> {
    let (session, rest) = key.rsplit_once(':')?;
    (!rest.contains('/') && !session.is_empty()).then_some(session)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn now_unix() -> i64 {
    crate::timefmt::now_unix()
}

#[cfg(test)]
mod tests;
