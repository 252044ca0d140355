//! What a replay tells the user about the log beside its entries.

use std::path::Path;

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
