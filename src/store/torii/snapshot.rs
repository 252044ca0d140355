//! The replayed index of a log, kept in `<root>/.sessionctl/torii-db<N>.idx`
//! so that the next run replays only what was appended since.
//!
//! A ToriiDB log only grows until ToriiDB rewrites it (by rename, at
//! Agenvoy's exit), so the index of its first `end` bytes stays the index
//! of those bytes for as long as the same file is at least that long and
//! those bytes are unchanged. A snapshot records the file (device, inode
//! and, where the file system keeps one, birth time: a file renamed into
//! place is another file even when it gets a reused inode number) and a
//! SHA-256 of samples of the covered bytes: all of them up to 4 MiB, else
//! the first and last 64 KiB and 4 KiB at every MiB between. Anything else
//! (another file, a shorter one, other bytes, another format version, a
//! damaged snapshot) is a full replay, after which the snapshot is
//! replaced. Only a change made in place, inside the covered bytes, that
//! keeps the file as long and misses every sample goes unnoticed; neither
//! ToriiDB nor sessionctl ever changes a log that way (deleting the
//! snapshot forces a full replay).
//!
//! Layout (little-endian), version 1:
//!
//! ```text
//! header  "SCTLTIDX" version:u32 db:u32
//!         dev:u64 ino:u64 born_s:i64 born_ns:u32 has_born:u32
//!         end:u64 lines:u64 digest:[u8;32]
//!         records:u64 malformed:u64 unknown_format:u64
//!         oversize:u64 entries:u64 key_bytes:u64   crc32 of the above:u32
//! body    oversize × (line, length)                      as varints
//!         entries × flags:u8 shared rest key[shared..] Δoffset len
//!                   Δcreated_at [updated_at] [expire_at]
//!                   varints; signed ones (Δ and times) zigzag; `shared`
//!                   bytes of the key, Δoffset and Δcreated_at are
//!                   against the entry before (0 and "" for the first)
//! trailer crc32 of the body:u32
//! ```
//!
//! Entries are in the index's order, so a loaded index iterates as the
//! replayed one did. The body is read through a 1 MiB buffer, so loading
//! costs the index it builds (as a replay does) and nothing more. Values
//! are not in it: they stay in the log and are read back by offset.

use std::fs::{File, Metadata};
use std::io::{self, Write};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::index::{Stored, STORED_FLAGS};
use super::logfile::LogFile;
use super::replay::Covered;
use super::report::ReplayReport;
use super::Db;
use crate::error::Result;
use crate::store::layout::DataRoot;
use crate::store::{atomic, files};

const MAGIC: &[u8; 8] = b"SCTLTIDX";

/// Bump when the layout or what replay puts in the index changes.
pub const VERSION: u32 = 1;

const HEADER_LEN: usize = 8 + 4 + 4 + 8 + 8 + 8 + 4 + 4 + 8 + 8 + 32 + 6 * 8 + 4;
const TRAILER_LEN: u64 = 4;

/// Covered logs up to this size are hashed whole.
const HASH_WHOLE: u64 = 4 << 20;
const HASH_EDGE: u64 = 64 << 10;
const HASH_STRIDE: u64 = 1 << 20;
const HASH_SAMPLE: u64 = 4 << 10;

/// How much of the body one read brings in.
const READ_CHUNK: usize = 1 << 20;

/// Where db `index`'s snapshot lives.
pub fn path(root: &DataRoot, index: u8) -> PathBuf {
    root.tool_dir().join(format!("torii-db{index}.idx"))
}

/// Which file a log is (not what it holds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LogId {
    dev: u64,
    ino: u64,
    /// Birth time, where the file system records one.
    born: Option<(i64, u32)>,
}

impl LogId {
    pub fn of(meta: &Metadata) -> LogId {
        let born = meta
            .created()
            .ok()
            .map(|t| match t.duration_since(std::time::UNIX_EPOCH) {
                Ok(d) => (d.as_secs() as i64, d.subsec_nanos()),
                Err(e) => (
                    -(e.duration().as_secs() as i64),
                    e.duration().subsec_nanos(),
                ),
            });
        LogId {
            dev: meta.dev(),
            ino: meta.ino(),
            born,
        }
    }
}

/// What a snapshot says besides its entries.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Header {
    db: u32,
    log: LogId,
    covered: Covered,
    digest: [u8; 32],
    records: u64,
    malformed: u64,
    unknown_format: u64,
    oversize: u64,
    entries: u64,
    key_bytes: u64,
}

impl Header {
    fn encode(&self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        let mut w = &mut out[..];
        let (born_s, born_ns, has_born) = match self.log.born {
            Some((s, ns)) => (s, ns, 1u32),
            None => (0, 0, 0),
        };
        let put = |w: &mut &mut [u8], b: &[u8]| w.write_all(b).expect("fits the header");
        put(&mut w, MAGIC);
        put(&mut w, &VERSION.to_le_bytes());
        put(&mut w, &self.db.to_le_bytes());
        put(&mut w, &self.log.dev.to_le_bytes());
        put(&mut w, &self.log.ino.to_le_bytes());
        put(&mut w, &born_s.to_le_bytes());
        put(&mut w, &born_ns.to_le_bytes());
        put(&mut w, &has_born.to_le_bytes());
        put(&mut w, &self.covered.end.to_le_bytes());
        put(&mut w, &self.covered.lines.to_le_bytes());
        put(&mut w, &self.digest);
        for n in [
            self.records,
            self.malformed,
            self.unknown_format,
            self.oversize,
            self.entries,
            self.key_bytes,
        ] {
            put(&mut w, &n.to_le_bytes());
        }
        let crc = crc32fast::hash(&out[..HEADER_LEN - 4]);
        out[HEADER_LEN - 4..].copy_from_slice(&crc.to_le_bytes());
        out
    }

    /// The header in `b`, if it is one of this version, undamaged.
    fn decode(b: &[u8; HEADER_LEN]) -> Option<Header> {
        let crc = u32::from_le_bytes(b[HEADER_LEN - 4..].try_into().ok()?);
        if &b[..8] != MAGIC || crc32fast::hash(&b[..HEADER_LEN - 4]) != crc {
            return None;
        }
        let mut at = 8;
        let mut take = |n: usize| {
            let s = &b[at..at + n];
            at += n;
            s
        };
        let u32_ = |s: &[u8]| u32::from_le_bytes(s.try_into().expect("4 bytes"));
        let u64_ = |s: &[u8]| u64::from_le_bytes(s.try_into().expect("8 bytes"));
        if u32_(take(4)) != VERSION {
            return None;
        }
        let db = u32_(take(4));
        let dev = u64_(take(8));
        let ino = u64_(take(8));
        let born_s = u64_(take(8)) as i64;
        let born_ns = u32_(take(4));
        let has_born = u32_(take(4)) == 1;
        let end = u64_(take(8));
        let lines = u64_(take(8));
        let digest: [u8; 32] = take(32).try_into().ok()?;
        let mut n = [0u64; 6];
        for v in &mut n {
            *v = u64_(take(8));
        }
        Some(Header {
            db,
            log: LogId {
                dev,
                ino,
                born: has_born.then_some((born_s, born_ns)),
            },
            covered: Covered { end, lines },
            digest,
            records: n[0],
            malformed: n[1],
            unknown_format: n[2],
            oversize: n[3],
            entries: n[4],
            key_bytes: n[5],
        })
    }
}

/// The byte ranges of the log's first `end` bytes the digest is taken of.
fn samples(end: u64) -> Vec<(u64, u64)> {
    if end <= HASH_WHOLE {
        return vec![(0, end)];
    }
    let mut out = vec![(0, HASH_EDGE)];
    let last = end - HASH_EDGE;
    let mut at = HASH_STRIDE;
    while at + HASH_SAMPLE <= last {
        out.push((at, HASH_SAMPLE));
        at += HASH_STRIDE;
    }
    out.push((last, HASH_EDGE));
    out
}

/// The digest of the log's first `end` bytes (see `samples`); `None` if
/// the log is shorter.
fn digest(log: &LogFile, end: u64) -> Result<Option<[u8; 32]>> {
    let mut h = Sha256::new();
    h.update(end.to_le_bytes());
    let mut buf = Vec::new();
    for (start, len) in samples(end) {
        buf.resize(len as usize, 0);
        if log.read_upto(&mut buf, start)? < buf.len() {
            return Ok(None);
        }
        h.update(&buf);
    }
    Ok(Some(h.finalize().into()))
}

/// A snapshot that matches the log as it is now, not loaded yet.
pub(super) struct Snapshot {
    file: File,
    header: Header,
    body_len: u64,
}

impl Snapshot {
    /// The snapshot of db `index` at `path` if it is one for `log` (the
    /// file `id`, `size` bytes long now): same file, at least as long,
    /// the covered bytes' digest the same. Anything unreadable or other
    /// is `None`: the caller replays the whole log.
    pub fn open(
        root: &DataRoot,
        path: &Path,
        index: u8,
        log: &LogFile,
        id: LogId,
        size: u64,
    ) -> Option<Snapshot> {
        let opened = files::open(root, path, files::Mode::Read).ok()??;
        let file_len = opened.meta.len();
        let mut head = [0u8; HEADER_LEN];
        opened.file.read_exact_at(&mut head, 0).ok()?;
        let header = Header::decode(&head)?;
        let body_len = file_len.checked_sub(HEADER_LEN as u64 + TRAILER_LEN)?;
        let covered = header.covered;
        // Every entry and oversize line stands for a line of the log: the
        // counts bound what loading may reserve.
        let plausible = header.db == u32::from(index)
            && header.log == id
            && covered.end <= size
            && covered.lines <= covered.end
            && header.records <= covered.lines
            && header.entries <= header.records
            // a SET line takes at least `{"cmd":"SET"}` and its '\n'
            && header.entries <= covered.end / 14
            && header.oversize <= header.records
            && header.key_bytes <= covered.end
            // an entry takes at least 6 bytes of the body
            && header.entries.checked_mul(6).is_some_and(|n| n <= body_len);
        if !plausible || digest(log, covered.end).ok()?? != header.digest {
            return None;
        }
        Some(Snapshot {
            file: opened.file,
            header,
            body_len,
        })
    }

    /// How far the snapshot covers the log.
    pub fn covered(&self) -> Covered {
        self.header.covered
    }

    /// The report of a replay of the covered lines, but for the over-long
    /// lines (`entries` gives those).
    pub fn report(&self) -> ReplayReport {
        let h = &self.header;
        ReplayReport {
            bytes: h.covered.end,
            lines: h.records,
            malformed: h.malformed,
            unknown_format: h.unknown_format,
            ..ReplayReport::default()
        }
    }

    /// Load the snapshot into `db` (empty): its entries and the report of
    /// the covered lines. The index gets room for as many more keys as the
    /// `tail` bytes after the covered ones may hold, at the covered ones'
    /// rate: growing it for the tail would rehash and copy all of it.
    /// Returns how far it covers the log; `None` when the body turns out
    /// damaged, and `db` is then left empty again.
    pub fn load_into(self, db: &mut Db, tail: u64) -> Option<Covered> {
        let entries = &mut db.entries;
        let h = &self.header;
        // each tail line adds a key at most; a quarter more, as replay
        // sizes its index
        let end = h.covered.end.max(1);
        let more = |n: u64| (u128::from(n) * u128::from(tail) * 5 / 4 / u128::from(end)) as u64;
        let room = |n: u64| usize::try_from(n.saturating_add(16)).unwrap_or(usize::MAX);
        entries.reserve(
            room(h.entries.saturating_add(more(h.records))),
            room(h.key_bytes.saturating_add(more(h.key_bytes))),
        );
        let mut oversize = Vec::new();
        if self
            .entries(&mut oversize, |key, s| entries.push_stored(key, s))
            .is_none()
        {
            db.entries = Default::default();
            return None;
        }
        db.report = self.report();
        db.report.oversize = oversize;
        Some(h.covered)
    }

    /// Hand `entry` each entry of the snapshot in order, until it returns
    /// false (a key seen twice: damage), and add the over-long lines of the
    /// covered bytes to `oversize`. `None` when the body is damaged; what
    /// was handed out must then be dropped.
    pub fn entries(
        &self,
        oversize: &mut Vec<(u64, usize)>,
        mut entry: impl FnMut(&str, Stored) -> bool,
    ) -> Option<()> {
        let h = &self.header;
        let mut r = Body {
            file: &self.file,
            at: HEADER_LEN as u64,
            end: HEADER_LEN as u64 + self.body_len,
            buf: Vec::with_capacity(READ_CHUNK.min(self.body_len as usize)),
            pos: 0,
            crc: crc32fast::Hasher::new(),
        };
        for _ in 0..h.oversize {
            r.need(20);
            let mut c = r.cursor();
            let (line, len) = (c.varint()?, c.varint()?);
            r.pos += c.at;
            if line == 0 || line > h.covered.lines || len > h.covered.end {
                return None;
            }
            oversize.push((line, usize::try_from(len).ok()?));
        }
        let mut keys_left = usize::try_from(h.key_bytes).ok()?;
        // what each entry is written against (see `stage`)
        let mut key: Vec<u8> = Vec::new();
        let (mut offset, mut created_at) = (0u64, 0i64);
        for _ in 0..h.entries {
            r.need(21);
            let mut c = r.cursor();
            let flags = c.byte()?;
            let shared = usize::try_from(c.varint()?).ok()?;
            let rest = usize::try_from(c.varint()?).ok()?;
            if flags & !STORED_FLAGS != 0 || shared > key.len() {
                return None;
            }
            let key_len = shared.checked_add(rest)?;
            keys_left = keys_left.checked_sub(key_len)?;
            let head = c.at;
            r.need(head + rest + 5 * 10);
            let mut c = r.cursor();
            c.at = head;
            key.truncate(shared);
            key.extend_from_slice(c.bytes(rest)?);
            let text = std::str::from_utf8(&key).ok()?;
            // as written: differences that wrap
            offset = offset.wrapping_add(c.time()? as u64);
            let len = u32::try_from(c.varint()?).ok()?;
            created_at = created_at.wrapping_add(c.time()?);
            let mut stored = Stored {
                offset,
                len,
                flags,
                created_at,
                updated_at: 0,
                expire_at: 0,
            };
            if stored.has_updated() {
                stored.updated_at = c.time()?;
            }
            if stored.has_expire() {
                stored.expire_at = c.time()?;
            }
            // the line and its '\n' are in the covered bytes
            if offset.checked_add(u64::from(len))? >= h.covered.end {
                return None;
            }
            let used = c.at;
            if !entry(text, stored) {
                return None;
            }
            r.pos += used;
        }
        if keys_left != 0 {
            return None;
        }
        // the body ends exactly here, and its checksum follows
        r.need(1);
        if r.pos != r.buf.len() || r.at != r.end {
            return None;
        }
        let mut trailer = [0u8; TRAILER_LEN as usize];
        self.file.read_exact_at(&mut trailer, r.end).ok()?;
        (r.crc.finalize() == u32::from_le_bytes(trailer)).then_some(())
    }
}

/// The body, read a chunk at a time; every byte read is checksummed.
struct Body<'f> {
    file: &'f File,
    /// Where the next read starts, and where the body ends.
    at: u64,
    end: u64,
    buf: Vec<u8>,
    pos: usize,
    crc: crc32fast::Hasher,
}

impl Body<'_> {
    /// Have `n` bytes from `pos` in the buffer, or all the body has left.
    /// A read error leaves fewer, which decoding then finds short.
    fn need(&mut self, n: usize) {
        if self.buf.len() - self.pos >= n {
            return;
        }
        self.buf.drain(..self.pos);
        self.pos = 0;
        let want = n.max(READ_CHUNK) - self.buf.len();
        let want = want.min(usize::try_from(self.end - self.at).unwrap_or(usize::MAX));
        let have = self.buf.len();
        self.buf.resize(have + want, 0);
        let mut got = 0;
        while got < want {
            match self.file.read_at(&mut self.buf[have + got..], self.at) {
                Ok(0) => break,
                Ok(k) => {
                    got += k;
                    self.at += k as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        self.buf.truncate(have + got);
        self.crc.update(&self.buf[have..]);
    }

    fn cursor(&self) -> Cursor<'_> {
        Cursor {
            s: &self.buf[self.pos..],
            at: 0,
        }
    }
}

struct Cursor<'a> {
    s: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.s.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        let b = self.s.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(b)
    }

    /// LEB128, at most 10 bytes, no bits past 64.
    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for i in 0..10 {
            let b = self.byte()?;
            let bits = u64::from(b & 0x7f);
            if i == 9 && b > 1 {
                return None;
            }
            v |= bits << (7 * i);
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    fn time(&mut self) -> Option<i64> {
        let z = self.varint()?;
        Some((z >> 1) as i64 ^ -((z & 1) as i64))
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_time(out: &mut Vec<u8>, t: i64) {
    put_varint(out, ((t << 1) ^ (t >> 63)) as u64);
}

/// A writer that checksums what goes through it.
struct Checksummed<'w> {
    w: &'w mut dyn Write,
    crc: crc32fast::Hasher,
}

impl Write for Checksummed<'_> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        let n = self.w.write(b)?;
        self.crc.update(&b[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

/// The snapshot of `db` as replayed from the first `covered.end` bytes of
/// `log` (the file `id`), written into a temp file beside db `db.index`'s
/// snapshot: committing it replaces that crash-safely (a reader sees the
/// old snapshot or the new one). `None`, writing nothing, when the index
/// holds entries of ours (not in the log).
pub(super) fn stage(
    root: &DataRoot,
    db: &Db,
    log: &LogFile,
    id: LogId,
    covered: Covered,
) -> Result<Option<atomic::Staged>> {
    let Some(entries) = db.entries.stored() else {
        return Ok(None);
    };
    let Some(digest) = digest(log, covered.end)? else {
        return Ok(None);
    };
    let r = &db.report;
    let header = Header {
        db: u32::from(db.index),
        log: id,
        covered,
        digest,
        records: r.lines,
        malformed: r.malformed,
        unknown_format: r.unknown_format,
        oversize: r.oversize.len() as u64,
        entries: db.entries.len() as u64,
        key_bytes: db.entries.key_bytes() as u64,
    };
    let half = db.entries.len() / 2;
    let path = path(root, db.index);
    atomic::create_dir_all(root, &root.tool_dir())?;
    let staged = atomic::stage_with(root, &path, |w| {
        w.write_all(&header.encode())?;
        let mut body = Checksummed {
            w,
            crc: crc32fast::Hasher::new(),
        };
        let mut rec = Vec::with_capacity(72 << 10);
        for &(line, len) in &r.oversize {
            rec.clear();
            put_varint(&mut rec, line);
            put_varint(&mut rec, len as u64);
            body.write_all(&rec)?;
        }
        // Each key is written as the bytes it shares with the one before
        // and the rest, its line's offset and its creation time as the
        // difference from the entry before: consecutive keys are mostly a
        // session's, written one after the other, so an entry takes about
        // 15 bytes instead of 40.
        let (mut prev_key, mut prev_offset, mut prev_created) = ("", 0u64, 0i64);
        rec.clear();
        for (i, (key, s)) in entries.enumerate() {
            if i == half {
                crate::failpoint("torii-snapshot-half-written");
            }
            let shared = prev_key
                .bytes()
                .zip(key.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            rec.push(s.flags);
            put_varint(&mut rec, shared as u64);
            put_varint(&mut rec, (key.len() - shared) as u64);
            rec.extend_from_slice(&key.as_bytes()[shared..]);
            put_time(&mut rec, s.offset.wrapping_sub(prev_offset) as i64);
            put_varint(&mut rec, u64::from(s.len));
            put_time(&mut rec, s.created_at.wrapping_sub(prev_created));
            if s.has_updated() {
                put_time(&mut rec, s.updated_at);
            }
            if s.has_expire() {
                put_time(&mut rec, s.expire_at);
            }
            (prev_key, prev_offset, prev_created) = (key, s.offset, s.created_at);
            // checksummed and written a block at a time, not per entry
            if rec.len() >= 64 << 10 {
                body.write_all(&rec)?;
                rec.clear();
            }
        }
        body.write_all(&rec)?;
        let Checksummed { w, crc } = body;
        w.write_all(&crc.finalize().to_le_bytes())
    })?;
    Ok(Some(staged))
}

/// Snapshot commits left to other threads; `wait_for_writes` joins them.
static COMMITTING: std::sync::Mutex<Vec<std::thread::JoinHandle<()>>> =
    std::sync::Mutex::new(Vec::new());

/// Commit `staged` on another thread: the wait for the disk (two fsyncs)
/// overlaps the rest of the command instead of adding to it. A failure is
/// dropped: the next run replays instead.
pub(super) fn commit_later(staged: atomic::Staged) {
    let (tx, rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("torii-snapshot".into())
        .spawn(move || {
            if let Ok(staged) = rx.recv() {
                let _ = atomic::Staged::commit(staged);
            }
        });
    match spawned {
        Ok(handle) => {
            let _ = tx.send(staged);
            COMMITTING
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(handle);
        }
        // no thread to be had: commit here
        Err(_) => {
            let _ = staged.commit();
        }
    }
}

/// Wait until the snapshots being committed are in place (or failed): a
/// process that ended in the middle of a commit would leave its temp file
/// behind. Commands call this before they end.
pub fn wait_for_writes() {
    let pending = std::mem::take(&mut *COMMITTING.lock().unwrap_or_else(|e| e.into_inner()));
    for handle in pending {
        let _ = handle.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_cover_the_edges_and_every_mib() {
        assert_eq!(samples(0), [(0, 0)]);
        assert_eq!(samples(HASH_WHOLE), [(0, HASH_WHOLE)]);
        let end = 10 * HASH_STRIDE + 5;
        let s = samples(end);
        assert_eq!(s[0], (0, HASH_EDGE));
        assert_eq!(*s.last().unwrap(), (end - HASH_EDGE, HASH_EDGE));
        assert_eq!(s.len(), 2 + 9, "{s:?}");
        assert!(s.iter().all(|&(a, l)| a + l <= end));
    }

    #[test]
    fn varints_and_times_round_trip() {
        for v in [0u64, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            let mut c = Cursor { s: &out, at: 0 };
            assert_eq!(c.varint(), Some(v));
            assert_eq!(c.at, out.len());
        }
        for t in [0i64, -1, 1, i64::MIN, i64::MAX, 1_796_220_044] {
            let mut out = Vec::new();
            put_time(&mut out, t);
            assert_eq!(Cursor { s: &out, at: 0 }.time(), Some(t));
        }
        // an eleventh byte, or bits past 64, are damage
        assert_eq!(
            Cursor {
                s: &[0xff; 11],
                at: 0
            }
            .varint(),
            None
        );
        let mut over = vec![0xff; 9];
        over.push(0x02);
        assert_eq!(Cursor { s: &over, at: 0 }.varint(), None);
    }

    #[test]
    fn the_header_round_trips_and_rejects_damage() {
        let h = Header {
            db: 1,
            log: LogId {
                dev: 7,
                ino: 9,
                born: Some((-3, 5)),
            },
            covered: Covered { end: 100, lines: 4 },
            digest: [3; 32],
            records: 4,
            malformed: 1,
            unknown_format: 0,
            oversize: 0,
            entries: 2,
            key_bytes: 6,
        };
        let b = h.encode();
        assert_eq!(Header::decode(&b), Some(h));
        for i in 0..HEADER_LEN {
            let mut d = b;
            d[i] ^= 0x10;
            assert_eq!(Header::decode(&d), None, "byte {i}");
        }
    }
}
