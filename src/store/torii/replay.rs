//! Replay (toriidb.md §1.4): the log is streamed through a buffer of a few
//! chunks, each chunk's lines parsed in parallel for the index (everything
//! but the values), then applied in file order. Memory stays the index
//! plus that buffer, whatever the log's size.

use super::logfile::LogFile;
use super::repair::is_record;
use super::{aof, godecode, Db, Slot};
use crate::error::Result;

/// A test on a SET line's raw bytes: replay with one indexes only the
/// keys whose last SET passes it (see `Db::scan_matching`).
pub(super) type Keep<'a> = dyn Fn(&[u8]) -> bool + Sync + 'a;

impl Db {
    /// Replay the whole of `log`, parsing chunks of about `chunk_bytes`;
    /// with `keep`, a SET line that fails it drops its key instead.
    pub(super) fn replay(
        &mut self,
        log: &LogFile,
        chunk_bytes: usize,
        keep: Option<&Keep<'_>>,
    ) -> Result<()> {
        use rayon::prelude::*;
        // Parsing is most of the work and lines are independent: parse a
        // few chunks of whole lines in parallel, then apply them in order.
        let group = 2 * rayon::current_num_threads().max(1);
        let mut want = group.saturating_mul(chunk_bytes.max(1)).min(MAX_BUFFER);
        let mut buf: Vec<u8> = Vec::new();
        let mut base = 0u64; // where buf[0] is in the log
        let mut lineno = 0u64;
        let mut sized = false;
        loop {
            let eof = fill(log, &mut buf, base, want)?;
            // Whole lines only; at the end, the unterminated rest too.
            let whole = match memchr::memrchr(b'\n', &buf) {
                Some(i) => i + 1,
                None if !eof => {
                    // one line longer than the buffer: read more of it
                    want = want.saturating_mul(2);
                    continue;
                }
                None => 0,
            };
            let mut chunks = line_chunks(&buf[..whole], chunk_bytes.max(1));
            let tail = eof && whole < buf.len();
            if tail {
                chunks.push((whole, buf.len()));
            }
            let bytes = &buf;
            let parsed: Vec<Vec<Parsed<'_>>> = chunks
                .par_iter()
                .map(|&(start, end)| parse_chunk(bytes, base, start, end, keep))
                .collect();
            if !sized {
                sized = true;
                self.reserve_for(log, &parsed, whole.max(1))?;
            }
            if tail {
                let last = parsed.last().and_then(|c| c.last());
                let complete = last.is_some_and(|p| p.result.as_ref().is_some_and(is_record));
                self.report.torn_tail = !complete;
                self.report.unterminated_record = complete;
            }
            for p in parsed.into_iter().flatten() {
                lineno += 1;
                self.take(p, lineno);
            }
            if eof {
                self.report.bytes = base + buf.len() as u64;
                return Ok(());
            }
            buf.drain(..whole);
            base += whole as u64;
        }
    }

    /// A rough size from the first chunks: growing a big map rehashes
    /// every key many times.
    fn reserve_for(
        &mut self,
        log: &LogFile,
        parsed: &[Vec<Parsed<'_>>],
        seen: usize,
    ) -> Result<()> {
        let size = log.len()?;
        let lines: usize = parsed.iter().map(Vec::len).sum();
        let guess = (lines as u128 * u128::from(size) / seen as u128) as usize;
        self.entries.reserve(guess.min(64 << 20));
        Ok(())
    }

    /// Count one parsed line in the report and apply its record.
    fn take(&mut self, p: Parsed<'_>, lineno: u64) {
        if p.oversize {
            self.report.oversize.push((lineno, p.len));
        }
        let Some(result) = p.result else { return };
        self.report.lines += 1;
        match result {
            Ok(l) if !p.kept => {
                // the key's value is now one the caller does not want
                self.entries.remove(&*l.key);
            }
            Ok(l) => {
                if !self.apply(l, p.at, p.vector) {
                    self.report.unknown_format += 1;
                }
            }
            Err(aof::Skip::Malformed) => self.report.malformed += 1,
            Err(aof::Skip::WrongType) => self.report.unknown_format += 1,
        }
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
}

/// How much of the log replay holds at a time (unless one line is longer).
const MAX_BUFFER: usize = 32 << 20;

/// Read from `base + buf.len()` until `buf` holds `want` bytes or the log
/// ends (returns true then). The buffer grows at most twofold a read, so
/// a small log never costs a big buffer.
fn fill(log: &LogFile, buf: &mut Vec<u8>, base: u64, want: usize) -> Result<bool> {
    while buf.len() < want {
        let have = buf.len();
        buf.resize(have + (want - have).min(have.max(64 << 10)), 0);
        let n = log.read_upto(&mut buf[have..], base + have as u64)?;
        buf.truncate(have + n);
        if n == 0 {
            return Ok(true);
        }
    }
    Ok(false)
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
    /// False for a SET line the replay's `keep` test rejected.
    kept: bool,
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
fn parse_chunk<'a>(
    bytes: &'a [u8],
    base: u64,
    start: usize,
    end: usize,
    keep: Option<&Keep<'_>>,
) -> Vec<Parsed<'a>> {
    let region = &bytes[start..end];
    // the lines of the region: each '\n' ends one, and the region's end
    // the last (empty when the region ends in '\n')
    let ends = memchr::memchr_iter(b'\n', region).chain(std::iter::once(region.len()));
    let mut from = 0;
    ends.map(|to| {
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
        Parsed {
            kept,
            len: raw.len(),
            at: (base + offset as u64, line.len() as u32),
            oversize,
            result,
            vector,
        }
    })
    .collect()
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
