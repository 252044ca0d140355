//! Keeping a log readable by ToriiDB: the rewrite without over-long lines
//! and the repair of an unterminated last line.

use super::write::rewritten_len;
use super::{aof, Db};
use crate::error::Result;
use crate::store::{atomic, files};

impl Db {
    /// Before appending: a log ToriiDB cannot read (a line over 64 KiB) is
    /// rewritten without the over-long entries, which are saved beside it,
    /// with a backup of the original. Anything else we leave to ToriiDB.
    pub(super) fn prepare_for_append(&mut self) -> Result<()> {
        if self.report.oversize.is_empty() {
            return Ok(());
        }
        self.rewrite_readable()
    }

    /// End the log's last line if it has no '\n', from the file as it is
    /// now. A complete record is kept and gets its newline (ToriiDB reads
    /// it, so cutting it would lose data); a line that is not a record is
    /// cut off and kept in `record.aof.<stamp>.torn`, every complete line
    /// staying byte for byte.
    pub fn end_last_line(&mut self) -> Result<TailRepair> {
        let path = self.aof_path();
        // The log is the data itself: no size cap beyond what it is.
        let Some(bytes) = files::read(&self.root, &path, u64::MAX)? else {
            return Ok(TailRepair::None);
        };
        if bytes.is_empty() || bytes.ends_with(b"\n") {
            return Ok(TailRepair::None);
        }
        let keep = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let tail = &bytes[keep..];
        let repair = if is_record(&aof::parse(tail.strip_suffix(b"\r").unwrap_or(tail))) {
            self.append(b"")?;
            TailRepair::Terminated
        } else {
            let stamp = crate::timefmt::now().format("%Y%m%d_%H%M%S%.3f");
            let torn = self.dir.join(format!("record.aof.{stamp}.torn"));
            atomic::write_atomic(&self.root, &torn, tail)?;
            atomic::write_atomic(&self.root, &path, &bytes[..keep])?;
            TailRepair::Cut
        };
        self.report.torn_tail = false;
        self.report.unterminated_record = false;
        Ok(repair)
    }

    /// Rewrite the log from the replayed state (ToriiDB's compacted form),
    /// leaving out entries whose line would be too long for ToriiDB; those
    /// go to `record.aof.<stamp>.oversize`, the old log to `.bak`.
    pub fn rewrite_readable(&mut self) -> Result<()> {
        let path = self.aof_path();
        let stamp = crate::timefmt::now().format("%Y%m%d_%H%M%S%.3f");
        let backup = self.dir.join(format!("record.aof.{stamp}.bak"));
        let old = files::read(&self.root, &path, u64::MAX)?.unwrap_or_default();
        atomic::write_atomic(&self.root, &backup, &old)?;

        let mut log = Vec::new();
        let mut oversize = Vec::new();
        let mut lines: Vec<(String, Vec<u8>, bool)> = Vec::with_capacity(self.entries.len());
        self.for_each_entry(|key, e| {
            // too long now, or once Agenvoy's exit rewrites it the Go way
            let line = e.compacted_line(key);
            let fits = line.len() - 1 <= aof::MAX_LINE && rewritten_len(key, e) <= aof::MAX_LINE;
            lines.push((key.to_owned(), line, fits));
        })?;
        lines.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (_, line, fits) in lines {
            if !fits {
                oversize.extend_from_slice(&line);
            } else {
                log.extend_from_slice(&line);
            }
        }
        let kept = self.dir.join(format!("record.aof.{stamp}.oversize"));
        atomic::write_atomic(&self.root, &kept, &oversize)?;
        atomic::write_atomic(&self.root, &path, &log)?;
        self.report.oversize.clear();
        self.report.torn_tail = false;
        self.report.unterminated_record = false;
        Ok(())
    }
}

impl Db {
    /// Entries whose line would be over ToriiDB's limit once Agenvoy's exit
    /// rewrites the log with Go's escaping (`aof::rewritten_len`), though
    /// the log reads fine today: the start after that rewrite would load
    /// the database as empty. Keys and measured lengths, in key order.
    /// Expired entries are left out, as the rewrite drops them. Only lines
    /// long enough to get there are read back: Go writes at most 6 bytes
    /// for each byte of the line as it is.
    pub fn outgrowing_rewrite(&self, now: i64) -> Result<Vec<(String, usize)>> {
        // the fields a rewrite may add or widen: `ts`, `cmd`, `expire_at`
        const SLACK: usize = 128;
        let could = |len: u32| (len as usize).saturating_mul(6) + SLACK > aof::MAX_LINE;
        let slots: Vec<_> = self
            .entries
            .iter()
            // a line over the limit already is reported as such
            .filter(|(_, s)| {
                !s.is_expired(now)
                    && s.at()
                        .is_none_or(|(_, len)| could(len) && len as usize <= aof::MAX_LINE)
            })
            .collect();
        let mut out = Vec::new();
        self.each_line(&slots, |_, key, s, line| {
            let len = match s.decoded() {
                Some(e) => rewritten_len(key, e),
                None => rewritten_len(key, &s.decode(line)),
            };
            if len > aof::MAX_LINE {
                out.push((key.to_owned(), len));
            }
            Ok(())
        })?;
        out.sort_unstable();
        Ok(out)
    }
}

/// What `end_last_line` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TailRepair {
    /// The log already ended in '\n' (or is empty).
    None,
    /// A complete last record got its newline.
    Terminated,
    /// A torn last line was cut off (and kept beside the log).
    Cut,
}

/// A complete JSON value: a record ToriiDB applies, or one of a format it
/// skips. A torn write (a cut-off line) is never one, since no proper
/// prefix of a JSON object is JSON.
pub(super) fn is_record(parsed: &Result<aof::Line<'_>, aof::Skip>) -> bool {
    !matches!(parsed, Err(aof::Skip::Malformed))
}
