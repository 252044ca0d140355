//! Native ToriiDB (v0.5.x) store: replay `db_N/record.aof` exactly as
//! ToriiDB does, and persist changes by appending lines it can read.
//! See spec/toriidb.md; section numbers below refer to it.

pub mod aof;
mod append;
mod fastline;
pub mod glob;
mod godecode;
mod index;
#[cfg(test)]
mod reference;
mod repair;
mod restore;
mod write;

use index::{Slot, Slots};

use repair::is_record;
pub use repair::TailRepair;
pub use restore::entry_of_line;

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

/// What replay saw besides the entries: the problems a user must hear about.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ReplayReport {
    pub bytes: u64,
    pub lines: u64,
    /// Lines that are not JSON (torn writes); ToriiDB skips them too.
    pub malformed: u64,
    /// JSON lines with field types ToriiDB would reject, or an unknown
    /// command: a possible format change, so we refuse to write.
    pub unknown_format: u64,
    /// Line numbers (1-based) and lengths of lines over 65,535 bytes.
    /// ToriiDB cannot read such a log at all: it loads the DB as empty.
    pub oversize: Vec<(u64, usize)>,
    /// The file ends in an unterminated line that is not a complete record
    /// (a write was cut short or is under way). ToriiDB skips it, and the
    /// next line it appends is glued onto it and lost too.
    pub torn_tail: bool,
    /// The file ends in a complete record without its '\n'. ToriiDB reads
    /// it (Go's line scanner returns an unterminated last line), but its
    /// next append would be glued onto it and both lines lost.
    pub unterminated_record: bool,
}

impl ReplayReport {
    pub fn warnings(&self, path: &Path) -> Vec<String> {
        let mut w = Vec::new();
        for (line, len) in &self.oversize {
            w.push(format!(
                "{}: line {line} is {len} bytes, over ToriiDB's 65,535-byte limit: ToriiDB loads this \
                 database as EMPTY and deletes its log when Agenvoy exits; back the file up",
                path.display()
            ));
        }
        if self.torn_tail {
            w.push(format!(
                "{}: the last line has no newline and is cut short (a torn or unfinished write); \
                 the next record Agenvoy appends would be glued to it (`sessionctl check \
                 --repair` sets it aside)",
                path.display()
            ));
        }
        if self.unterminated_record {
            w.push(format!(
                "{}: the last record has no newline; the next record Agenvoy appends would be \
                 glued to it (`sessionctl check --repair` adds the newline)",
                path.display()
            ));
        }
        if self.malformed > 0 {
            w.push(format!(
                "{}: {} malformed line(s) skipped",
                path.display(),
                self.malformed
            ));
        }
        if self.unknown_format > 0 {
            w.push(format!(
                "{}: {} line(s) with an unknown command or field type (newer ToriiDB format?)",
                path.display(),
                self.unknown_format
            ));
        }
        w
    }
}

/// One replayed database: an index of key → where its value is in the log
/// and its metadata; values are decoded when first asked for.
#[derive(Debug)]
pub struct Db {
    pub index: u8,
    /// Everything this database opens must resolve inside this root.
    root: DataRoot,
    dir: PathBuf,
    /// The log as it was read: values are decoded from it lazily. Later
    /// changes to the file (ours or others') never move these bytes.
    log: Vec<u8>,
    entries: Slots,
    pub report: ReplayReport,
}

impl Db {
    /// Replay `<store>/db_<index>/record.aof`. A missing file is an empty DB.
    /// Unlike ToriiDB we have no line-length limit; over-long lines are
    /// loaded and reported (see `ReplayReport::oversize`). Nothing it opens
    /// may leave `store_dir`; `load_store` confines it to the data root.
    pub fn load(store_dir: &Path, index: u8) -> Result<Db> {
        let root = DataRoot::at(store_dir)?;
        let store = root.path().to_path_buf();
        Db::load_in(root, &store, index)
    }

    /// Replay db `index` of the data root's `.store/`.
    pub fn load_store(root: &DataRoot, index: u8) -> Result<Db> {
        Db::load_in(root.clone(), &root.store_dir(), index)
    }

    fn load_in(root: DataRoot, store_dir: &Path, index: u8) -> Result<Db> {
        let dir = store_dir.join(format!("db_{index}"));
        let path = dir.join("record.aof");
        // The log is the data itself: no size cap beyond what it is.
        let bytes = files::read(&root, &path, u64::MAX)?.unwrap_or_default();
        slow_load_for_tests();
        let mut db = Db {
            index,
            root,
            dir,
            log: Vec::new(),
            entries: Slots::default(),
            report: ReplayReport::default(),
        };
        db.replay(bytes);
        Ok(db)
    }

    pub fn aof_path(&self) -> PathBuf {
        self.dir.join("record.aof")
    }

    /// Bytes of the log this database was replayed from.
    pub fn log_len(&self) -> u64 {
        self.log.len() as u64
    }

    fn replay(&mut self, bytes: Vec<u8>) {
        self.replay_in_chunks(bytes, 4 << 20);
    }

    fn replay_in_chunks(&mut self, bytes: Vec<u8>, chunk_bytes: usize) {
        use rayon::prelude::*;
        self.report.bytes = bytes.len() as u64;
        let unterminated = !bytes.is_empty() && !bytes.ends_with(b"\n");
        // Parsing is most of the work and lines are independent: parse
        // chunks of whole lines in parallel, then apply them in file order.
        // A few chunks at a time, so the parsed lines never all exist at
        // once: memory stays the log plus the index.
        let chunks = line_chunks(&bytes, chunk_bytes);
        let group = 2 * rayon::current_num_threads().max(1);
        let mut lineno = 0u64;
        let mut tail_complete = false;
        for (g, chunks) in chunks.chunks(group).enumerate() {
            let parsed: Vec<Vec<Parsed<'_>>> = chunks
                .par_iter()
                .map(|&(start, end)| parse_chunk(&bytes, start, end))
                .collect();
            if g == 0 {
                // a rough size from the first chunks: growing a big map
                // rehashes every key many times
                let seen: usize = chunks.iter().map(|(a, b)| b - a).sum();
                let lines: usize = parsed.iter().map(Vec::len).sum();
                let guess = (lines as u128 * bytes.len() as u128 / seen.max(1) as u128) as usize;
                self.entries.reserve(guess.min(64 << 20));
            }
            if let Some(last) = parsed.last().and_then(|c| c.last()) {
                tail_complete = last.result.as_ref().is_some_and(is_record);
            }
            for p in parsed.into_iter().flatten() {
                lineno += 1;
                if p.oversize {
                    self.report.oversize.push((lineno, p.len));
                }
                let Some(result) = p.result else { continue };
                self.report.lines += 1;
                match result {
                    Ok(l) => {
                        if !self.apply(l, p.at, p.vector) {
                            self.report.unknown_format += 1;
                        }
                    }
                    Err(aof::Skip::Malformed) => self.report.malformed += 1,
                    Err(aof::Skip::WrongType) => self.report.unknown_format += 1,
                }
            }
        }
        self.report.torn_tail = unterminated && !tail_complete;
        self.report.unterminated_record = unterminated && tail_complete;
        self.log = bytes;
    }

    /// Apply one record (§1.4 step 3) found at `at` (offset, length) in
    /// the log. Returns false for a command ToriiDB would ignore.
    fn apply(&mut self, l: aof::Line<'_>, at: (u64, u32), vector: VectorCheck) -> bool {
        let expire_at = l.expire_at;
        match &*l.cmd {
            "SET" => {
                let VectorCheck::Ok(has_vector) = vector else {
                    // ToriiDB skips the whole record on a bad vector.
                    return true;
                };
                // One hash per SET: the entry API finds or makes the slot.
                match self.entries.entry(l.key.into_owned()) {
                    std::collections::hash_map::Entry::Occupied(mut o) => {
                        o.get_mut().set_from_log(at, l.ts, expire_at, has_vector);
                    }
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(Slot::from_log(at, l.ts, expire_at, has_vector));
                    }
                }
            }
            "DEL" => {
                self.entries.remove(&*l.key);
            }
            "EXPIRE" | "EXPIREAT" => {
                if let Some(e) = self.entries.get_mut(&*l.key) {
                    e.set_expire(expire_at);
                }
            }
            "PERSIST" => {
                if let Some(e) = self.entries.get_mut(&*l.key) {
                    e.set_expire(None);
                }
            }
            _ => return false,
        }
        true
    }

    /// The entry of `key`, its value decoded on first use.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.get(key).map(|s| s.entry(&self.log))
    }

    /// Whether `key` exists (expired or not), without decoding it.
    pub fn contains(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    /// Every entry, internal and expired ones included. Their values are
    /// decoded first, in parallel: a caller wanting them all should not
    /// wait for one thread to parse every line a second time.
    pub fn all(&self) -> impl Iterator<Item = (&String, &Entry)> {
        use rayon::prelude::*;
        self.entries.par_iter().for_each(|(_, s)| {
            s.entry(&self.log);
        });
        self.entries.iter().map(|(k, s)| (k, s.entry(&self.log)))
    }

    /// How many keys the database holds (internal and expired included).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Live, visible entries: what `Keys("*")` would consider.
    pub fn live(&self, now: i64) -> impl Iterator<Item = (&String, &Entry)> {
        self.live_keys(now).map(|(k, s)| (k, s.entry(&self.log)))
    }

    /// Live, visible entries whose log line passes `raw` (a test on the
    /// line's bytes, cheap to fail): only those are decoded. An entry we
    /// wrote ourselves has no line in the log read, so it is always kept.
    pub fn live_where_raw<'a>(
        &'a self,
        now: i64,
        raw: impl Fn(&[u8]) -> bool + 'a,
    ) -> impl Iterator<Item = (&'a String, &'a Entry)> + 'a {
        self.live_keys(now)
            .filter(move |(_, s)| s.line(&self.log).is_none_or(&raw))
            .map(|(k, s)| (k, s.entry(&self.log)))
    }

    /// Live, visible entries that have a vector; no other is decoded.
    pub fn live_with_vector(&self, now: i64) -> impl Iterator<Item = (&String, &Entry)> {
        self.live_keys(now)
            .filter(|(_, s)| s.has_vector())
            .map(|(k, s)| (k, s.entry(&self.log)))
    }

    /// Whether the live entry `key` has a vector, without decoding it.
    pub fn has_vector(&self, key: &str) -> bool {
        self.entries.get(key).is_some_and(|s| s.has_vector())
    }

    fn live_keys(&self, now: i64) -> impl Iterator<Item = (&String, &Slot)> {
        self.entries
            .iter()
            .filter(move |(k, e)| !k.starts_with(INTERNAL_PREFIX) && !e.is_expired(now))
    }

    /// `Keys(pattern)`: Go `path.Match`, internal and expired keys hidden,
    /// sorted byte-wise; a malformed pattern matches nothing.
    pub fn keys(&self, pattern: &str, now: i64) -> Vec<String> {
        let mut keys: Vec<String> = self
            .live_keys(now)
            .filter(|(k, _)| glob::path_match(pattern, k) == Ok(true))
            .map(|(k, _)| k.clone())
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
            .map(|(k, _)| k.clone())
            .collect();
        keys.sort_unstable();
        keys
    }

    /// Every live db1 key grouped by session id, each list sorted: one pass
    /// over the store for a whole batch of sessions.
    pub fn keys_by_session(&self, now: i64) -> HashMap<String, Vec<String>> {
        let mut by: HashMap<String, Vec<String>> = HashMap::new();
        for (k, _) in self.live_keys(now) {
            if let Some(s) = session_of_key(k) {
                by.entry(s.to_owned()).or_default().push(k.clone());
            }
        }
        for keys in by.values_mut() {
            keys.sort_unstable();
        }
        by
    }

    /// Length of the vectors the store holds (ToriiDB's embedding
    /// dimension), from the first visible entry that has one.
    pub fn vector_dim(&self) -> Option<usize> {
        self.entries
            .iter()
            .filter(|(k, s)| !k.starts_with(INTERNAL_PREFIX) && s.has_vector())
            .find_map(|(_, s)| s.entry(&self.log).vector_f32().map(|v| v.len()))
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

/// Debug builds: `SESSIONCTL_TORII_LOAD_DELAY_MS=<ms>` makes every load
/// take that much longer after reading the log, as loading a big store
/// does, so race tests can make a writer hold a copy that goes stale.
fn slow_load_for_tests() {
    // Tests count replays (a batch must not replay a log twice), and may
    // change the log while a replay is held up.
    #[cfg(debug_assertions)]
    if let Some(path) = std::env::var_os("SESSIONCTL_TORII_LOAD_COUNT") {
        use std::io::Write;
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = f.write_all(b"load\n");
        }
    }
    #[cfg(debug_assertions)]
    if let Some(ms) = std::env::var("SESSIONCTL_TORII_LOAD_DELAY_MS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// ToriiDB's type detection (§2): 0 json, 1 string, 2 int, 3 float, 4 bool, 5 date.
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

/// Lines longer than this are reported (as over ToriiDB's limit) but not
/// decoded.
const MAX_PARSED_LINE: usize = 64 << 20;

/// One line as parsed in parallel: its length, and its record (None for an
/// empty line).
struct Parsed<'a> {
    len: usize,
    /// Where the line (without its '\r') is in the log.
    at: (u64, u32),
    oversize: bool,
    result: Option<Result<aof::Line<'a>, aof::Skip>>,
    vector: VectorCheck,
}

/// A SET's vector as replay must know it: whether ToriiDB accepts it (a
/// bad one skips the record) and whether there is one.
#[derive(Clone, Copy)]
enum VectorCheck {
    Ok(bool),
    Bad,
}

/// Parse the lines of `bytes[start..end]` for the index: everything but
/// the values, which stay in the log until asked for.
fn parse_chunk(bytes: &[u8], start: usize, end: usize) -> Vec<Parsed<'_>> {
    let mut at = start;
    bytes[start..end]
        .split(|b| *b == b'\n')
        .map(|raw| {
            let offset = at;
            at += raw.len() + 1;
            // bufio.ScanLines drops one trailing '\r'.
            let line = raw.strip_suffix(b"\r").unwrap_or(raw);
            let oversize = raw.len() > aof::MAX_LINE;
            // A line this long is no record anyone wrote on purpose:
            // report it, do not build strings out of it.
            let result = if line.is_empty() || raw.len() > MAX_PARSED_LINE {
                None
            } else {
                Some(aof::parse_meta(line))
            };
            let vector = match &result {
                Some(Ok(l)) if l.cmd == "SET" => match godecode::vector_present(&l.vector) {
                    Ok(present) => VectorCheck::Ok(present),
                    Err(()) => VectorCheck::Bad,
                },
                _ => VectorCheck::Ok(false),
            };
            Parsed {
                len: raw.len(),
                at: (offset as u64, line.len() as u32),
                oversize,
                result,
                vector,
            }
        })
        .collect()
}

/// Split `bytes` into ranges of about `target` bytes that end right after a
/// '\n' (the last one at the end of the data).
fn line_chunks(bytes: &[u8], target: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let guess = (start + target).min(bytes.len());
        let end = match bytes[guess..].iter().position(|b| *b == b'\n') {
            Some(i) if guess < bytes.len() => guess + i + 1,
            _ => bytes.len(),
        };
        // ranges end after their '\n'; drop it so split() yields no empty tail
        let stop = if end < bytes.len() { end - 1 } else { end };
        out.push((start, stop));
        start = end;
    }
    if out.is_empty() {
        out.push((0, 0));
    }
    out
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
    chrono::Utc::now().timestamp()
}

#[cfg(test)]
mod tests;
