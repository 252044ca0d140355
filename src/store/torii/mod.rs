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

    /// Can we append to this log without breaking ToriiDB's view of it?
    /// Also refuses, before anything is written, a mirror folder that is a
    /// link out of the data root (deeper links are refused when reached).
    pub fn check_writable(&self, force: bool) -> Result<()> {
        self.check_mirror_folders()?;
        if self.report.unknown_format > 0 && !force {
            return Err(Error::data(
                self.aof_path(),
                format!(
                    "{} line(s) use a command or field type this tool does not know; refusing to \
                     write a log whose format may have changed",
                    self.report.unknown_format
                ),
            )
            .with_hint("check the ToriiDB version Agenvoy ships; --force writes anyway"));
        }
        Ok(())
    }

    /// Delete keys the way ToriiDB's `Del` persists it: one `DEL` line per
    /// key that exists (expired ones included), one fsync for the batch,
    /// then the keys' mirror files. Returns how many keys were deleted.
    pub fn delete(&mut self, keys: &[String], now: i64) -> Result<usize> {
        let present: Vec<&String> = keys
            .iter()
            .filter(|k| self.entries.contains_key(*k))
            .collect();
        if present.is_empty() {
            return Ok(0);
        }
        let mut buf = Vec::with_capacity(present.len() * 64);
        for key in &present {
            let line = aof::to_line(&aof::Line {
                ts: now,
                cmd: "DEL".into(),
                key: key.as_str().into(),
                ..Default::default()
            });
            if line.len() - 1 > aof::MAX_LINE {
                return Err(Error::data(
                    self.aof_path(),
                    format!("key {key:?} is too long for a ToriiDB log line"),
                ));
            }
            buf.extend_from_slice(&line);
        }
        // Mirror files live under db_N/xx/…; skip the unlink where even the
        // first-level folder is absent (a store written without mirrors).
        // Resolved before the append, so a mirror folder that leads out of
        // the root is refused before anything changes.
        let mut mirror_dirs = [false; 256];
        let db_dir = self.root.resolve(&self.dir, Last::Follow)?;
        if let Ok(rd) = fs::read_dir(&db_dir) {
            for e in rd.filter_map(|e| e.ok()) {
                let name = e.file_name();
                let name = name.to_string_lossy();
                if let (2, Ok(b)) = (name.len(), u8::from_str_radix(&name, 16)) {
                    mirror_dirs[b as usize] = true;
                }
            }
        }
        let mirrors: Vec<PathBuf> = keys
            .iter()
            .filter(|key| mirror_dirs[Md5::digest(key.as_bytes())[0] as usize])
            .map(|key| {
                let rel = self.mirror_path(key);
                let rel = rel
                    .strip_prefix(&self.dir)
                    .expect("mirrors are in the db folder");
                self.root.resolve_under(&db_dir, rel, Last::Entry)
            })
            .collect::<Result<_>>()?;
        self.prepare_for_append()?;
        self.append(&buf)?;
        for key in &present {
            self.entries.remove(key.as_str());
        }
        for p in mirrors {
            // already resolved inside the root, above
            match fs::remove_file(&p) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::write(&p, e)),
            }
        }
        Ok(present.len())
    }

    /// Persist a SET the way ToriiDB does: one fsynced line with the value,
    /// the absolute `expire_at` and the vector (base64), and the key's mirror
    /// file rewritten. An existing entry keeps its `created_at`. A line
    /// ToriiDB could not read back (over 65,535 bytes) is refused.
    pub fn set(
        &mut self,
        key: &str,
        value: &str,
        expire_at: Option<i64>,
        vector: Option<String>,
        now: i64,
    ) -> Result<()> {
        let line = aof::to_line(&aof::Line {
            ts: now,
            cmd: "SET".into(),
            key: key.into(),
            value: value.into(),
            expire_at,
            vector: vector.as_deref().unwrap_or("").into(),
        });
        if line.len() - 1 > aof::MAX_LINE {
            return Err(Error::data(
                self.aof_path(),
                format!(
                    "the new record for {key:?} would be a {}-byte line; ToriiDB cannot read lines over 65,535 bytes",
                    line.len() - 1
                ),
            )
            .with_hint("shorten the text; nothing was written"));
        }
        self.root.resolve(&self.mirror_path(key), Last::Entry)?;
        self.prepare_for_append()?;
        self.append(&line)?;
        let entry = match self.entries.get(key) {
            Some(old) => Entry {
                value: value.to_owned(),
                created_at: old.created_at(),
                updated_at: Some(now),
                expire_at,
                vector,
            },
            None => Entry {
                value: value.to_owned(),
                created_at: now,
                updated_at: None,
                expire_at,
                vector,
            },
        };
        self.entries
            .insert(key.to_owned(), Slot::in_memory(entry.clone()));
        self.write_mirror(key, &entry)
    }

    /// `EXPIRE key` lines (ToriiDB's `Expire`): set an absolute expiry on
    /// keys that exist, one fsync for the batch, mirrors updated.
    pub fn expire(&mut self, keys: &[String], expire_at: i64, now: i64) -> Result<usize> {
        let present: Vec<String> = keys
            .iter()
            .filter(|k| self.entries.contains_key(*k))
            .cloned()
            .collect();
        if present.is_empty() {
            return Ok(0);
        }
        let mut buf = Vec::new();
        for key in &present {
            buf.extend_from_slice(&aof::to_line(&aof::Line {
                ts: now,
                cmd: "EXPIRE".into(),
                key: key.as_str().into(),
                value: (expire_at - now).to_string().into(),
                expire_at: Some(expire_at),
                ..Default::default()
            }));
        }
        for key in &present {
            self.root.resolve(&self.mirror_path(key), Last::Entry)?;
        }
        self.prepare_for_append()?;
        self.append(&buf)?;
        for key in &present {
            let slot = self.entries.get_mut(key).expect("present");
            slot.set_expire(Some(expire_at));
            let e = slot.entry(&self.log).clone();
            self.write_mirror(key, &e)?;
        }
        Ok(present.len())
    }

    /// The mirror file as ToriiDB writes it (vector as a float array).
    fn write_mirror(&self, key: &str, e: &Entry) -> Result<()> {
        let mut m = serde_json::Map::new();
        m.insert("key".into(), key.into());
        m.insert("value".into(), e.value.clone().into());
        m.insert("type".into(), value_type(&e.value).into());
        m.insert("created_at".into(), e.created_at.into());
        if let Some(u) = e.updated_at {
            m.insert("updated_at".into(), u.into());
        }
        if let Some(x) = e.expire_at {
            m.insert("expire_at".into(), x.into());
        }
        if let Some(v) = e.vector_f32() {
            m.insert(
                "vector".into(),
                v.into_iter().map(f64::from).collect::<Vec<_>>().into(),
            );
        }
        let p = self.mirror_path(key);
        atomic::create_dir_all(&self.root, p.parent().expect("mirror paths have folders"))?;
        atomic::write_atomic(
            &self.root,
            &p,
            serde_json::Value::Object(m).to_string().as_bytes(),
        )
    }

    /// Append bytes of whole lines, framed so that no failure or kill
    /// leaves a line the next writer would glue onto (see `append.rs`).
    fn append(&mut self, lines: &[u8]) -> Result<()> {
        append::append(&self.root, &self.aof_path(), lines)?;
        self.report.torn_tail = false;
        self.report.unterminated_record = false;
        Ok(())
    }

    /// `db_N/h[0:2]/h[2:4]/h[4:6]/h.json`, h = md5 hex of the key.
    pub fn mirror_path(&self, key: &str) -> PathBuf {
        let h = hex(&Md5::digest(key.as_bytes()));
        self.dir
            .join(&h[0..2])
            .join(&h[2..4])
            .join(&h[4..6])
            .join(format!("{h}.json"))
    }

    /// The first-level mirror folders (`db_N/xx`) that are links must stay
    /// inside the root; one `read_dir` finds them.
    fn check_mirror_folders(&self) -> Result<()> {
        let db_dir = self.root.resolve(&self.dir, Last::Follow)?;
        let Some(entries) = files::read_dir_at(&db_dir, &self.dir)? else {
            return Ok(());
        };
        for e in entries.filter_map(|e| e.ok()) {
            if e.file_type().is_ok_and(|t| t.is_symlink()) {
                self.root
                    .resolve(&self.dir.join(e.file_name()), Last::Follow)?;
            }
        }
        Ok(())
    }
}

/// Debug builds: `SESSIONCTL_TORII_LOAD_DELAY_MS=<ms>` makes every load
/// take that much longer after reading the log, as loading a big store
/// does, so race tests can make a writer hold a copy that goes stale.
fn slow_load_for_tests() {
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
mod tests {
    use super::*;
    use proptest::strategy::Strategy;

    fn fixture_store() -> PathBuf {
        crate::fixture_root().join(".store")
    }

    fn db_from(lines: &[u8]) -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("db_1")).unwrap();
        fs::write(dir.path().join("db_1/record.aof"), lines).unwrap();
        let db = Db::load(dir.path(), 1).unwrap();
        (dir, db)
    }

    #[test]
    fn replays_the_fixture_as_toriidb_wrote_it() {
        let store = fixture_store();
        let now = 1_796_220_500;
        let db1 = Db::load(&store, 1).unwrap();
        assert_eq!(db1.report.malformed + db1.report.unknown_format, 0);
        assert!(!db1.report.torn_tail);
        assert_eq!(
            db1.session_keys("tui-alice", now),
            [
                "tui-alice:1764547200000000000",
                "tui-alice:1764547205000000000",
                "tui-alice:1764547300000000000",
                "tui-alice:1764547310000000000"
            ]
        );
        let counts = db1.counts_by_session(now);
        assert_eq!(counts["tui-alice-2"], 1);
        assert_eq!(counts["discord-9001"], 2);
        let v = db1.get("tui-alice:1764547200000000000").unwrap();
        assert_eq!(v.vector_f32().unwrap(), vec![0.6, 0.8, 0.0, 0.0]);
        assert_eq!(v.created_at, 1764547200);
        // mirror files are md5(key) as ToriiDB names them
        assert!(db1.mirror_path("tui-alice:1764547310000000000").exists());

        let db2 = Db::load(&store, 2).unwrap();
        let keys = db2.keys("*", now);
        assert_eq!(keys.len(), 2);
        assert_eq!(db2.get(&keys[0]).unwrap().expire_at, Some(4102444800));
    }

    #[test]
    fn replay_applies_commands_in_order() {
        // the probe log of toriidb.md §1.2
        let (_d, db) = db_from(
            br#"{"ts":1796220044,"cmd":"SET","key":"cli-abc:1700000000000000001","value":"{\"role\":\"user\"}"}
{"ts":1796220044,"cmd":"SET","key":"cli-abc:1700000000000000002","value":"hello world"}
{"ts":1796220044,"cmd":"SET","key":"cli-abc/x:1","value":"slash"}
{"ts":1796220044,"cmd":"SET","key":"other:1","value":"42"}
{"ts":1796220044,"cmd":"DEL","key":"cli-abc:1700000000000000001"}
{"ts":1796220044,"cmd":"EXPIRE","key":"cli-abc:1700000000000000002","value":"3600","expire_at":1796223644}
{"ts":1796220044,"cmd":"EXPIREAT","key":"other:1","value":"1796227244","expire_at":1796227244}
{"ts":1796220044,"cmd":"PERSIST","key":"other:1"}
{"ts":1796220050,"cmd":"SET","key":"other:1","value":"43.5"}
"#,
        );
        let now = 1796220100;
        assert_eq!(
            db.keys("*", now),
            ["cli-abc:1700000000000000002", "other:1"]
        );
        assert_eq!(
            db.get("cli-abc:1700000000000000002").unwrap().expire_at,
            Some(1796223644)
        );
        let other = db.get("other:1").unwrap();
        assert_eq!((other.value.as_str(), other.expire_at), ("43.5", None));
        assert_eq!(
            (other.created_at, other.updated_at),
            (1796220044, Some(1796220050))
        );
        // expiry is expire_at <= now
        assert!(db.keys("cli-abc:*", 1796223644).is_empty());
        assert_eq!(db.keys("cli-abc:*", 1796223643).len(), 1);
    }

    #[test]
    fn bad_vectors_skip_the_whole_set() {
        let (_d, db) = db_from(
            b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"a\",\"value\":\"1\"}\n\
              {\"ts\":2,\"cmd\":\"SET\",\"key\":\"a\",\"value\":\"2\",\"vector\":\"AAA=\"}\n\
              {\"ts\":3,\"cmd\":\"SET\",\"key\":\"b\",\"value\":\"3\",\"vector\":\"!!\"}\n",
        );
        assert_eq!(db.get("a").unwrap().value, "1");
        assert!(db.get("b").is_none());
    }

    #[test]
    fn torn_tail_is_isolated_by_the_next_append() {
        let (dir, mut db) = db_from(
            b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"a\"}\n\
              {\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:2\",\"value\":\"b\"}\n\
              {\"ts\":1,\"cmd\":\"SET\",\"key\":\"m:4\",\"value\":\"to",
        );
        assert!(db.report.torn_tail);
        assert_eq!(db.report.malformed, 1);
        assert_eq!(db.delete(&["s:1".to_string()], 10).unwrap(), 1);
        let again = Db::load(dir.path(), 1).unwrap();
        assert!(!again.report.torn_tail);
        assert_eq!(
            again.keys("*", 10),
            ["s:2"],
            "our DEL must survive the torn line"
        );
    }

    #[test]
    fn a_complete_last_line_without_newline_is_applied_and_kept() {
        // Go's bufio.Scanner returns the unterminated last line: ToriiDB applies it
        let (dir, mut db) = db_from(
            b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"a\"}\n\
              {\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:2\",\"value\":\"b\"}",
        );
        assert_eq!(db.keys("*", 5), ["s:1", "s:2"]);
        assert!(!db.report.torn_tail, "a complete record is not a torn tail");
        assert!(db.report.unterminated_record);
        assert_eq!(db.report.malformed, 0);
        assert_eq!(db.end_last_line().unwrap(), TailRepair::Terminated);
        let path = dir.path().join("db_1/record.aof");
        assert!(fs::read(&path).unwrap().ends_with(b"\"b\"}\n"));
        assert_eq!(
            Db::load(dir.path(), 1).unwrap().keys("*", 5),
            ["s:1", "s:2"]
        );
        assert_eq!(db.end_last_line().unwrap(), TailRepair::None);
    }

    #[test]
    fn a_cut_off_last_line_is_set_aside() {
        let (dir, mut db) = db_from(
            b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"a\"}\n{\"ts\":1,\"cmd\":\"SE",
        );
        assert!(db.report.torn_tail && !db.report.unterminated_record);
        assert_eq!(db.end_last_line().unwrap(), TailRepair::Cut);
        let log = fs::read(dir.path().join("db_1/record.aof")).unwrap();
        assert!(log.ends_with(b"\"a\"}\n"));
        let torn = fs::read_dir(dir.path().join("db_1"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.to_string_lossy().ends_with(".torn"))
            .unwrap();
        assert_eq!(fs::read(torn).unwrap(), b"{\"ts\":1,\"cmd\":\"SE");
    }

    #[test]
    fn expire_at_zero_is_an_expiry_that_survives_every_rewrite() {
        let (dir, mut db) = db_from(
            b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"a\",\"value\":\"1\",\"expire_at\":0}\n\
              {\"ts\":1,\"cmd\":\"SET\",\"key\":\"b\",\"value\":\"1\",\"expire_at\":9}\n\
              {\"ts\":1,\"cmd\":\"EXPIREAT\",\"key\":\"b\",\"value\":\"0\",\"expire_at\":0}\n\
              {\"ts\":1,\"cmd\":\"SET\",\"key\":\"c\",\"value\":\"1\",\"expire_at\":9}\n\
              {\"ts\":1,\"cmd\":\"EXPIRE\",\"key\":\"c\",\"value\":\"5\"}\n",
        );
        // ToriiDB: a present 0 is expired at the epoch...
        assert_eq!(db.get("a").unwrap().expire_at, Some(0));
        assert_eq!(db.get("b").unwrap().expire_at, Some(0));
        // ...and an EXPIRE without expire_at sets it to nil: persistent
        assert_eq!(db.get("c").unwrap().expire_at, None);
        assert_eq!(db.keys("*", 5), ["c"]);
        assert!(db
            .get("a")
            .unwrap()
            .compacted_line("a")
            .ends_with(b",\"expire_at\":0}\n"));
        db.rewrite_readable().unwrap();
        let again = Db::load(dir.path(), 1).unwrap();
        assert_eq!(again.get("a").unwrap().expire_at, Some(0));
        assert_eq!(again.keys("*", 5), ["c"]);
    }

    #[test]
    fn vectors_decode_as_go_and_are_stored_canonically() {
        let (_d, db) = db_from(
            b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"pad\",\"value\":\"v\",\"vector\":\"AAAAAB==\"}\n\
              {\"ts\":1,\"cmd\":\"SET\",\"key\":\"crlf\",\"value\":\"v\",\"vector\":\"AACA\\r\\nPw==\"}\n\
              {\"ts\":1,\"cmd\":\"SET\",\"key\":\"nl\",\"value\":\"v\",\"vector\":\"\\n\"}\n",
        );
        // Go's StdEncoding ignores non-zero padding bits: [0,0,0,0] = 0.0
        assert_eq!(db.get("pad").unwrap().vector.as_deref(), Some("AAAAAA=="));
        // ...and skips '\r' and '\n': 00 00 80 3F = 1.0
        let crlf = db.get("crlf").unwrap();
        assert_eq!(crlf.vector.as_deref(), Some("AACAPw=="));
        assert_eq!(crlf.vector_f32().unwrap(), vec![1.0]);
        // a vector decoding to no bytes is no vector, the SET still applies
        assert_eq!(db.get("nl").unwrap().vector, None);
    }

    #[test]
    fn delete_counts_like_toriidb_and_removes_mirrors() {
        let (dir, mut db) = db_from(
            b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"a\",\"value\":\"1\"}\n\
              {\"ts\":1,\"cmd\":\"SET\",\"key\":\"e\",\"value\":\"1\",\"expire_at\":5}\n",
        );
        let mirror = db.mirror_path("a");
        fs::create_dir_all(mirror.parent().unwrap()).unwrap();
        fs::write(&mirror, b"{}").unwrap();
        // expired-but-present counts; missing does not (Del(a, missing, e) = 2)
        let n = db
            .delete(&["a".into(), "missing".into(), "e".into()], 10)
            .unwrap();
        assert_eq!(n, 2);
        assert!(!mirror.exists());
        let text = fs::read_to_string(dir.path().join("db_1/record.aof")).unwrap();
        assert!(text.ends_with("{\"ts\":10,\"cmd\":\"DEL\",\"key\":\"a\"}\n{\"ts\":10,\"cmd\":\"DEL\",\"key\":\"e\"}\n"));
        assert!(Db::load(dir.path(), 1).unwrap().all().next().is_none());
    }

    #[test]
    fn oversize_lines_are_reported_and_writes_leave_a_readable_log() {
        let big = "x".repeat(70_000);
        let mut log = Vec::new();
        log.extend_from_slice(b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"a\"}\n");
        log.extend_from_slice(
            format!("{{\"ts\":1,\"cmd\":\"SET\",\"key\":\"big:1\",\"value\":\"{big}\"}}\n")
                .as_bytes(),
        );
        log.extend_from_slice(b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:2\",\"value\":\"b\"}\n");
        let (dir, mut db) = db_from(&log);
        assert_eq!(db.report.oversize.len(), 1);
        assert_eq!(db.report.oversize[0].0, 2);
        assert_eq!(db.keys("*", 5).len(), 3, "we load what ToriiDB cannot");
        db.delete(&["s:1".into()], 5).unwrap();
        let after = fs::read(dir.path().join("db_1/record.aof")).unwrap();
        assert!(after
            .split(|b| *b == b'\n')
            .all(|l| l.len() <= aof::MAX_LINE));
        let reloaded = Db::load(dir.path(), 1).unwrap();
        assert!(reloaded.report.oversize.is_empty());
        assert_eq!(reloaded.keys("*", 5), ["s:2"]);
        // the over-long entry and the original log are kept beside it
        let names: Vec<String> = fs::read_dir(dir.path().join("db_1"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().any(|n| n.ends_with(".bak")), "{names:?}");
        let kept = names.iter().find(|n| n.ends_with(".oversize")).unwrap();
        assert!(fs::read_to_string(dir.path().join("db_1").join(kept))
            .unwrap()
            .contains(&big));
    }

    #[test]
    fn unknown_format_blocks_writes_unless_forced() {
        let (_d, db) = db_from(b"{\"ts\":1,\"cmd\":\"HSET\",\"key\":\"a\"}\n{\"ts\":\"x\"}\n");
        assert_eq!(db.report.unknown_format, 2);
        assert_eq!(db.check_writable(false).unwrap_err().exit_code(), 65);
        db.check_writable(true).unwrap();
    }

    type State = std::collections::BTreeMap<String, Entry>;

    fn state(db: &Db) -> State {
        db.all().map(|(k, e)| (k.clone(), e.clone())).collect()
    }

    fn replayed(log: &[u8], chunk: usize) -> Db {
        let mut db = Db {
            index: 1,
            root: DataRoot::at(Path::new("/nonexistent")).unwrap(),
            dir: PathBuf::new(),
            log: Vec::new(),
            entries: Slots::default(),
            report: ReplayReport::default(),
        };
        db.replay_in_chunks(log.to_vec(), chunk);
        db
    }

    /// A random log line of the kinds the index must get right.
    fn any_line() -> impl Strategy<Value = Vec<u8>> {
        let key = (0u8..12).prop_map(|k| format!("s:{k}"));
        let expire = proptest::option::of(proptest::prop_oneof![Just(0i64), 1i64..20]);
        proptest::prop_oneof![
            4 => (key.clone(), "[a-z\\\\\"\u{e9}\u{2028}]{0,20}", expire.clone(), 0u8..4)
                .prop_map(|(k, v, x, vec)| {
                    let mut l = serde_json::json!({"ts": 7, "cmd": "SET", "key": k, "value": v});
                    if let Some(x) = x { l["expire_at"] = x.into(); }
                    // none, a good vector, a bad one (skips the SET), a Go-only one
                    let vector = ["", "AACAPw==", "AAA=", "AAAAAB=="][vec as usize];
                    if !vector.is_empty() { l["vector"] = vector.into(); }
                    l.to_string().into_bytes()
                }),
            1 => key.clone().prop_map(|k| format!("{{\"ts\":8,\"cmd\":\"DEL\",\"key\":\"{k}\"}}").into_bytes()),
            1 => (key.clone(), expire).prop_map(|(k, x)| match x {
                Some(x) => format!("{{\"ts\":9,\"cmd\":\"EXPIREAT\",\"key\":\"{k}\",\"expire_at\":{x}}}"),
                None => format!("{{\"ts\":9,\"cmd\":\"EXPIRE\",\"key\":\"{k}\"}}"),
            }.into_bytes()),
            1 => key.clone().prop_map(|k| format!("{{\"ts\":9,\"cmd\":\"PERSIST\",\"key\":\"{k}\"}}").into_bytes()),
            // invalid UTF-8 in a value, decoded the Go way
            1 => key.clone().prop_map(|k| [format!("{{\"ts\":3,\"cmd\":\"SET\",\"key\":\"{k}\",\"value\":\"a").as_bytes(), b"\xff\xe2\x82", b"\"}"].concat()),
            // duplicate fields: the last wins, null leaves the value alone
            1 => key.clone().prop_map(|k| format!("{{\"cmd\":\"SET\",\"key\":\"{k}\",\"value\":\"first\",\"VALUE\":null,\"ts\":4}}").into_bytes()),
            // over 64 KiB: loaded by us, reported
            1 => key.clone().prop_map(|k| format!("{{\"ts\":5,\"cmd\":\"SET\",\"key\":\"{k}\",\"value\":\"{}\"}}", "x".repeat(70_000)).into_bytes()),
            1 => "[^\\n]{0,30}".prop_map(String::into_bytes),
            1 => Just(b"{\"ts\":1,\"cmd\":\"SET\",\"value\":42,\"key\":\"s:1\"}".to_vec()),
            1 => Just(Vec::new()),
        ]
    }

    use proptest::strategy::Just;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// The indexed reader replays to exactly the state the old
        /// decode-everything replay did: values, times, TTLs, vectors.
        #[test]
        fn index_replays_as_the_reference(
            lines in proptest::collection::vec(any_line(), 0..40),
            torn in proptest::option::of(0usize..30),
            crlf in proptest::bool::ANY,
            chunk in 1usize..300,
        ) {
            let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
            let mut log = lines.join(eol);
            log.extend_from_slice(eol);
            if let Some(cut) = torn {
                // a torn last line: a prefix of a record, no newline
                log.extend_from_slice(&br#"{"ts":1,"cmd":"SET","key":"s:3","value":"torn"}"#[..cut]);
            }
            let want: State = reference::replay(&log).into_iter().collect();
            let db = replayed(&log, chunk);
            proptest::prop_assert_eq!(state(&db), want);
        }
    }

    proptest::proptest! {
        /// Parsing in parallel chunks must not change what replay sees.
        #[test]
        fn chunked_replay_equals_one_pass(
            lines in proptest::collection::vec(
                proptest::prop_oneof![
                    (0u8..20, "[a-z]{0,30}").prop_map(|(k, v)| format!("{{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:{k}\",\"value\":\"{v}\"}}")),
                    (0u8..20).prop_map(|k| format!("{{\"ts\":2,\"cmd\":\"DEL\",\"key\":\"s:{k}\"}}")),
                    "[^\\n]{0,40}",
                    proptest::strategy::Just(String::new()),
                ],
                0..60,
            ),
            torn in proptest::bool::ANY,
            chunk in 1usize..200,
        ) {
            use proptest::prop_assert_eq;
            let mut log = lines.join("\n");
            if !torn {
                log.push('\n');
            }
            let fresh = || Db { index: 1, root: DataRoot::at(Path::new("/nonexistent")).unwrap(), dir: PathBuf::new(), log: Vec::new(), entries: Slots::default(), report: ReplayReport::default() };
            let (mut one, mut many) = (fresh(), fresh());
            one.replay_in_chunks(log.as_bytes().to_vec(), usize::MAX / 2);
            many.replay_in_chunks(log.as_bytes().to_vec(), chunk);
            prop_assert_eq!(state(&one), state(&many));
            prop_assert_eq!(&one.report, &many.report);
        }
    }

    #[test]
    fn session_keys_never_take_a_prefix_sibling() {
        let (_d, db) = db_from(
            b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"a:1\",\"value\":\"x\"}\n\
              {\"ts\":1,\"cmd\":\"SET\",\"key\":\"a-2:1\",\"value\":\"x\"}\n\
              {\"ts\":1,\"cmd\":\"SET\",\"key\":\"a:b:1\",\"value\":\"x\"}\n\
              {\"ts\":1,\"cmd\":\"SET\",\"key\":\"a:x/y\",\"value\":\"x\"}\n\
              {\"ts\":1,\"cmd\":\"SET\",\"key\":\"__torii:embed:a\",\"value\":\"x\"}\n",
        );
        assert_eq!(db.session_keys("a", 5), ["a:1"]);
        assert_eq!(db.session_keys("a:b", 5), ["a:b:1"]);
        // Agenvoy's glob would also take a:b:1; ours is the stricter subset
        let glob: Vec<String> = db.keys("a:*", 5);
        assert!(db.session_keys("a", 5).iter().all(|k| glob.contains(k)));
    }
}
