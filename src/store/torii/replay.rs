//! Replay (docs/agenvoy-format.md#toriidb-replay): the log is streamed through a buffer of a few
//! chunks, each chunk's lines parsed in parallel for the index (everything
//! but the values), then applied in file order. Memory stays the index
//! plus that buffer, whatever the log's size.

use super::logfile::LogFile;
use super::{aof, godecode, index, Db};
use crate::error::Result;

/// A test on a SET line's raw bytes: replay with one indexes only the
/// keys whose last SET passes it (see `Db::scan_matching`).
pub(super) type Keep<'a> = dyn Fn(&[u8]) -> bool + Sync + 'a;

/// How far a replay got over whole lines: the state it built is the
/// state of the log's first `end` bytes, which hold `lines` lines. Empty
/// lines at the end are left out (re-read next time, they cost nothing),
/// so a region another writer has reserved with newlines and fills in
/// place afterwards is never counted as read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Covered {
    pub end: u64,
    pub lines: u64,
}

/// What follows the whole lines: the log's unterminated last line, if any,
/// and where it starts.
pub(super) struct Tail {
    offset: u64,
    /// Its line number (1-based).
    lineno: u64,
    bytes: Vec<u8>,
}

impl Db {
    /// Replay the whole of `log`, parsing chunks of about `chunk_bytes`;
    /// with `keep`, a SET line that fails it drops its key instead.
    #[cfg(test)]
    pub(super) fn replay(
        &mut self,
        log: &LogFile,
        chunk_bytes: usize,
        keep: Option<&Keep<'_>>,
    ) -> Result<()> {
        let (_, tail) = self.replay_lines(log, Covered::default(), chunk_bytes, keep)?;
        self.replay_tail(tail, keep);
        Ok(())
    }

    /// Replay the whole lines of `log` from `from` (the end of whole lines
    /// already applied to this index, and how many lines they were) to
    /// the end. Returns how far the whole lines go, and the unterminated
    /// rest (`replay_tail` applies it): the state between the two is what
    /// a snapshot of the index may hold.
    pub(super) fn replay_lines(
        &mut self,
        log: &LogFile,
        from: Covered,
        chunk_bytes: usize,
        keep: Option<&Keep<'_>>,
    ) -> Result<(Covered, Option<Tail>)> {
        use rayon::prelude::*;
        // Parsing is most of the work and lines are independent: parse a
        // few chunks of whole lines in parallel, then apply them in order.
        let group = 2 * rayon::current_num_threads().max(1);
        let mut want = group.saturating_mul(chunk_bytes.max(1)).min(MAX_BUFFER);
        let mut win = Window {
            base: from.end,
            ..Window::default()
        };
        // Room for the whole buffer (or log) at once: growing it step by
        // step would copy it and fault in every step's fresh pages.
        let size = log.len()?;
        let left = usize::try_from(size.saturating_sub(from.end)).unwrap_or(usize::MAX);
        win.buf.reserve_exact(want.min(left.saturating_add(1)));
        let mut lineno = from.lines;
        let mut covered = from;
        let mut sized = false;
        // One parse buffer per chunk, kept from one fill to the next: the
        // memory is faulted in once, not once per fill.
        let mut pool: Vec<Vec<Parsed>> = Vec::new();
        loop {
            let eof = win.fill(log, want)?;
            let (buf, base) = (&win.buf[..win.filled], win.base);
            // Whole lines only; the unterminated rest is the caller's.
            let whole = match memchr::memrchr(b'\n', buf) {
                Some(i) => i + 1,
                None if !eof => {
                    // one line longer than the buffer: read more of it
                    want = want.saturating_mul(2);
                    continue;
                }
                None => 0,
            };
            let chunks = line_chunks(&buf[..whole], chunk_bytes.max(1));
            if pool.len() < chunks.len() {
                pool.resize_with(chunks.len(), Vec::new);
            }
            let parsed = &mut pool[..chunks.len()];
            let bytes = buf;
            parsed
                .par_iter_mut()
                .zip(chunks.par_iter())
                .for_each(|(out, &(start, end))| parse_chunk(bytes, base, start, end, keep, out));
            // A filtered replay keeps few keys: sizing its index for all
            // of them would only fault in a table it never fills. One
            // resumed from a snapshot was sized when that was loaded.
            if !sized && keep.is_none() && whole > 0 && from.end == 0 {
                self.reserve_for(size.saturating_sub(from.end), parsed, whole)?;
                sized = true;
            }
            for p in parsed.iter_mut().flat_map(|c| c.drain(..)) {
                lineno += 1;
                if p.content {
                    // the line and its '\n'
                    covered = Covered {
                        end: p.at.0 + p.len as u64 + 1,
                        lines: lineno,
                    };
                }
                self.take(p, buf, lineno);
            }
            if eof {
                let end = base + buf.len() as u64;
                self.report.bytes = end;
                let tail = (whole < buf.len()).then(|| Tail {
                    offset: base + whole as u64,
                    lineno: lineno + 1,
                    bytes: buf[whole..].to_vec(),
                });
                return Ok((covered, tail));
            }
            win.consume(whole);
        }
    }

    /// Apply the log's unterminated last line (`replay_lines` gave it),
    /// as ToriiDB does: Go's line scanner returns it too.
    pub(super) fn replay_tail(&mut self, tail: Option<Tail>, keep: Option<&Keep<'_>>) {
        let Some(tail) = tail else { return };
        let mut parsed = Vec::new();
        parse_chunk(
            &tail.bytes,
            tail.offset,
            0,
            tail.bytes.len(),
            keep,
            &mut parsed,
        );
        let Some(p) = parsed.pop() else { return };
        // as `repair::is_record`: any complete JSON value
        let complete = p
            .result
            .as_ref()
            .is_some_and(|r| !matches!(r, Err(aof::Skip::Malformed)));
        self.report.torn_tail = !complete;
        self.report.unterminated_record = complete;
        self.take(p, &tail.bytes, tail.lineno);
    }

    /// A rough size from the first chunks: growing a big map rehashes
    /// every key many times.
    fn reserve_for(&mut self, size: u64, parsed: &[Vec<Parsed>], seen: usize) -> Result<()> {
        let lines: usize = parsed.iter().map(Vec::len).sum();
        let key_bytes: usize = parsed
            .iter()
            .flatten()
            .filter_map(|p| p.result.as_ref()?.as_ref().ok())
            .map(|m| m.key.len())
            .sum();
        let scale = |n: usize| {
            let guess = (n as u128 * u128::from(size) / seen as u128) as usize;
            // A quarter more: capacity never used costs address space, not
            // memory, while falling short doubles (and copies) the whole
            // index at the very end.
            guess + guess / 4
        };
        self.entries
            .reserve(scale(lines).min(64 << 20), scale(key_bytes).min(1 << 31));
        Ok(())
    }

    /// Count one parsed line (of `buf`) in the report and apply its record.
    fn take(&mut self, p: Parsed, buf: &[u8], lineno: u64) {
        if p.oversize {
            self.report.oversize.push((lineno, p.len));
        }
        let Some(result) = p.result else { return };
        self.report.lines += 1;
        match result {
            Ok(m) if !p.kept => {
                // the key's value is now one the caller does not want
                self.entries.remove_hashed(m.key.text(buf), p.hash);
            }
            Ok(m) => {
                let applied = match self.overlay.as_mut() {
                    Some(o) => o.apply(&m, m.key.text(buf), p.at, p.vector),
                    None => self.apply(&m, (m.key.text(buf), p.hash), p.at, p.vector),
                };
                if !applied {
                    self.report.unknown_format += 1;
                }
            }
            Err(aof::Skip::Malformed) => self.report.malformed += 1,
            Err(aof::Skip::WrongType) => self.report.unknown_format += 1,
        }
    }

    /// Apply one record as ToriiDB does, found at `at` (offset, length) in
    /// the log. Returns false for a command ToriiDB would ignore.
    fn apply(&mut self, m: &Meta, key: (&str, u64), at: (u64, u32), vector: VectorCheck) -> bool {
        let expire_at = m.expire_at;
        match m.cmd {
            Cmd::Set => {
                let VectorCheck::Ok(has_vector) = vector else {
                    // ToriiDB skips the whole record on a bad vector.
                    return true;
                };
                self.entries
                    .set_from_log(key, at, m.ts, expire_at, has_vector);
            }
            Cmd::Del => {
                self.entries.remove_hashed(key.0, key.1);
            }
            Cmd::Expire => {
                if let Some(e) = self.entries.get_mut(key.0) {
                    e.set_expire(expire_at);
                }
            }
            Cmd::Persist => {
                if let Some(e) = self.entries.get_mut(key.0) {
                    e.set_expire(None);
                }
            }
            Cmd::Other => return false,
        }
        true
    }
}

/// What the lines replayed after a snapshot did to the keys they touched,
/// relative to the snapshot's entries (which are not loaded): what a full
/// replay would have, without holding the index.
#[derive(Debug, Default)]
pub(super) struct Overlay {
    touched: rustc_hash::FxHashMap<Box<str>, Touch>,
}

/// What became of a key the lines after a snapshot touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Touch {
    /// Its last SET is at `at` (offset, length), with this expiry.
    Set {
        at: (u64, u32),
        expire_at: Option<i64>,
    },
    Deleted,
    /// Only its expiry changed: the snapshot's entry, if there is one,
    /// has this one now.
    Expire(Option<i64>),
}

impl Overlay {
    /// `Db::apply` of one record, relative to the snapshot.
    fn apply(&mut self, m: &Meta, key: &str, at: (u64, u32), vector: VectorCheck) -> bool {
        let expire = match m.cmd {
            Cmd::Set => {
                if let VectorCheck::Ok(_) = vector {
                    let set = Touch::Set {
                        at,
                        expire_at: m.expire_at,
                    };
                    self.touched.insert(key.into(), set);
                }
                return true;
            }
            Cmd::Del => {
                self.touched.insert(key.into(), Touch::Deleted);
                return true;
            }
            Cmd::Expire => m.expire_at,
            Cmd::Persist => None,
            Cmd::Other => return false,
        };
        match self.touched.get_mut(key) {
            Some(Touch::Set { expire_at, .. }) => *expire_at = expire,
            Some(Touch::Deleted) => {}
            Some(Touch::Expire(e)) => *e = expire,
            None => {
                self.touched.insert(key.into(), Touch::Expire(expire));
            }
        }
        true
    }

    pub fn get(&self, key: &str) -> Option<Touch> {
        self.touched.get(key).copied()
    }

    /// The keys the lines set last, with where and their expiry.
    pub fn set(&self) -> impl Iterator<Item = (&str, (u64, u32), Option<i64>)> {
        self.touched.iter().filter_map(|(k, t)| match *t {
            Touch::Set { at, expire_at } => Some((&**k, at, expire_at)),
            _ => None,
        })
    }
}

/// How much of the log replay holds at a time (unless one line is longer).
const MAX_BUFFER: usize = 32 << 20;

/// The log's bytes from `base` on: `buf[..filled]`. The rest of `buf` is
/// room kept from one fill to the next, initialised once: a refill reads
/// over it instead of zeroing it again (a memset of the whole log).
#[derive(Default)]
struct Window {
    buf: Vec<u8>,
    filled: usize,
    base: u64,
}

impl Window {
    /// Read until `filled` reaches `want` or the log ends (returns true
    /// then). The room grows at most twofold a read, so a small log never
    /// costs a big buffer.
    fn fill(&mut self, log: &LogFile, want: usize) -> Result<bool> {
        while self.filled < want {
            let have = self.filled;
            let room = have + (want - have).min(have.max(64 << 10));
            if self.buf.len() < room {
                self.buf.resize(room, 0);
            }
            let n = log.read_upto(&mut self.buf[have..room], self.base + have as u64)?;
            self.filled += n;
            if n == 0 {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Drop the first `n` bytes: the rest moves to the front.
    fn consume(&mut self, n: usize) {
        self.buf.copy_within(n..self.filled, 0);
        self.filled -= n;
        self.base += n as u64;
    }
}

/// Lines longer than this are reported (as over ToriiDB's limit) but not
/// decoded.
const MAX_PARSED_LINE: usize = 64 << 20;

/// One line as parsed in parallel: its length, and its record (None for an
/// empty line).
struct Parsed {
    len: usize,
    /// Not an empty line (nor a lone '\r').
    content: bool,
    /// Where the line (without its '\r') is in the log.
    at: (u64, u32),
    oversize: bool,
    result: Option<Result<Meta, aof::Skip>>,
    vector: VectorCheck,
    /// False for a SET line the replay's `keep` test rejected.
    kept: bool,
    /// The index's hash of the record's key (0 without a record).
    hash: u64,
}

/// What replay applies of a record: no value, and no borrowed text (the
/// key is a range of the buffer), so parse buffers outlive a fill.
struct Meta {
    ts: i64,
    cmd: Cmd,
    key: Key,
    expire_at: Option<i64>,
}

#[derive(Clone, Copy)]
enum Cmd {
    Set,
    Del,
    /// EXPIRE and EXPIREAT: both carry the absolute `expire_at`.
    Expire,
    Persist,
    /// A command ToriiDB ignores.
    Other,
}

/// A record's key: where it is in the buffer (text read verbatim), or the
/// text itself when decoding changed it (escapes, invalid UTF-8).
enum Key {
    At(usize, usize),
    Owned(Box<str>),
}

impl Key {
    fn text<'a>(&'a self, buf: &'a [u8]) -> &'a str {
        match self {
            Key::At(start, len) => {
                let bytes = &buf[*start..start + len];
                debug_assert!(std::str::from_utf8(bytes).is_ok());
                // SAFETY: `Meta::of` makes a `Key::At` only of a `&str`
                // the parser borrowed from these very bytes of `buf` (which
                // stay unchanged until the parse buffer is applied), so
                // they are valid UTF-8; checking again cost ~4 % of replay.
                unsafe { std::str::from_utf8_unchecked(bytes) }
            }
            Key::Owned(k) => k,
        }
    }

    fn len(&self) -> usize {
        match self {
            Key::At(_, len) => *len,
            Key::Owned(k) => k.len(),
        }
    }
}

impl Meta {
    /// `l`, parsed from a line of `buf`.
    fn of(l: aof::Line<'_>, buf: &[u8]) -> Meta {
        let key = match l.key {
            // text borrowed from the line is in `buf`; an absent key is a
            // static "" that is not
            std::borrow::Cow::Borrowed(k) => {
                let start = (k.as_ptr() as usize).wrapping_sub(buf.as_ptr() as usize);
                match buf.get(start..start.wrapping_add(k.len())) {
                    Some(_) => Key::At(start, k.len()),
                    None => Key::Owned(k.into()),
                }
            }
            std::borrow::Cow::Owned(k) => Key::Owned(k.into_boxed_str()),
        };
        let cmd = match &*l.cmd {
            "SET" => Cmd::Set,
            "DEL" => Cmd::Del,
            "EXPIRE" | "EXPIREAT" => Cmd::Expire,
            "PERSIST" => Cmd::Persist,
            _ => Cmd::Other,
        };
        Meta {
            ts: l.ts,
            cmd,
            key,
            expire_at: l.expire_at,
        }
    }
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
fn parse_chunk(
    bytes: &[u8],
    base: u64,
    start: usize,
    end: usize,
    keep: Option<&Keep<'_>>,
    out: &mut Vec<Parsed>,
) {
    let region = &bytes[start..end];
    // the lines of the region: each '\n' ends one, and the region's end
    // the last (empty when the region ends in '\n')
    // The buffer keeps its room from one fill to the next: only the
    // first fill counts the lines to size it (growing it step by step
    // would fault in twice the memory), later ones skip that pass.
    out.clear();
    if out.capacity() == 0 {
        out.reserve(memchr::memchr_iter(b'\n', region).count() + 1);
    }
    let ends = memchr::memchr_iter(b'\n', region).chain(std::iter::once(region.len()));
    let mut from = 0;
    out.extend(ends.map(|to| {
        let raw = &region[from..to];
        let offset = start + from;
        from = to + 1;
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
        // Only a SET ToriiDB applies can be dropped by `keep`.
        let kept = match (&result, vector, keep) {
            (Some(Ok(l)), VectorCheck::Ok(_), Some(keep)) if l.cmd == "SET" => keep(line),
            _ => true,
        };
        let result = result.map(|r| r.map(|l| Meta::of(l, bytes)));
        let hash = match &result {
            Some(Ok(m)) => index::hash(m.key.text(bytes)),
            _ => 0,
        };
        Parsed {
            kept,
            content: !line.is_empty(),
            len: raw.len(),
            at: (base + offset as u64, line.len() as u32),
            oversize,
            result,
            vector,
            hash,
        }
    }));
}

/// Split `bytes` (whole lines: empty, or ending in '\n') into ranges of
/// about `target` bytes, each ending at a '\n' it leaves out, so that
/// splitting a range at '\n' yields exactly its lines.
fn line_chunks(bytes: &[u8], target: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let guess = (start + target).min(bytes.len() - 1);
        let end = guess + memchr::memchr(b'\n', &bytes[guess..]).expect("whole lines");
        out.push((start, end));
        start = end + 1;
    }
    out
}
