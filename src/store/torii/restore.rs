//! Putting entries back: what undo, `trash restore` and `import` append.
//!
//! An entry is re-appended as the SET line ToriiDB's own compaction writes
//! (`ts = created_at`, value, absolute `expire_at`, vector), so a replay
//! gives it back its creation time, TTL and vector. Entries already there
//! with the same value, TTL and vector are skipped: a restore that was
//! interrupted and is run again appends nothing twice.

use super::{aof, Db, Entry, Slot};
use crate::error::{Error, Result};
use crate::store::layout::Last;

impl Db {
    /// Append `entries` as compacted SET lines (one fsync for the batch)
    /// and mirror them; returns how many were written.
    pub fn restore_entries(&mut self, entries: &[(String, Entry)]) -> Result<usize> {
        let mut todo: Vec<&(String, Entry)> = Vec::new();
        for pair @ (k, e) in entries {
            let same = self.entry(k)?.is_some_and(|cur| {
                cur.value == e.value && cur.expire_at == e.expire_at && cur.vector == e.vector
            });
            if !same {
                todo.push(pair);
            }
        }
        if todo.is_empty() {
            return Ok(0);
        }
        let mut buf = Vec::new();
        for (key, e) in &todo {
            let line = e.compacted_line(key);
            if line.len() - 1 > aof::MAX_LINE {
                return Err(Error::data(
                    self.aof_path(),
                    format!("the saved entry {key:?} is too long for a ToriiDB log line"),
                ));
            }
            self.root.resolve(&self.mirror_path(key), Last::Entry)?;
            buf.extend_from_slice(&line);
        }
        self.prepare_for_append()?;
        self.append(&buf)?;
        for (key, e) in &todo {
            let entry = match self.entries.get(key) {
                // replay of a SET over a live key keeps its created_at
                Some(cur) => Entry {
                    created_at: cur.created_at(),
                    updated_at: Some(e.created_at),
                    ..e.clone()
                },
                None => e.clone(),
            };
            self.entries.insert(key, Slot::in_memory(entry.clone()));
            self.write_mirror(key, &entry)?;
        }
        Ok(todo.len())
    }
}

/// An entry as a saved log line describes it (`None` for anything but a
/// SET line ToriiDB would accept).
pub fn entry_of_line(line: &[u8]) -> Option<(String, Entry)> {
    let l = aof::parse(line).ok()?;
    if l.cmd != "SET" {
        return None;
    }
    let vector = super::godecode::stored_vector(&l.vector).ok()?;
    Some((
        l.key.into_owned(),
        Entry {
            value: l.value.into_owned(),
            created_at: l.ts,
            updated_at: None,
            expire_at: l.expire_at,
            vector,
        },
    ))
}
