//! The replayed state as an index: per key, where its last SET line is in
//! the log and the metadata replay tracks, with the value read back from
//! the log and decoded only when someone asks for it. A million-key log
//! then costs ~100 bytes a key, not its bytes nor every value as a
//! `String`.

use std::hash::BuildHasher;

use once_cell::race::OnceBox;

use super::{aof, godecode, Entry};
use crate::error::Result;

/// Key → slot. The entries sit in one `Vec` in the order keys first
/// appeared, and the hash table holds only their positions (4 bytes a
/// bucket, not the ~80 of a `HashMap<String, Slot>`): replay fills the
/// `Vec` front to back and probes a table that fits in cache far better,
/// and the memory it faults in is about half. A deleted key's entry stays
/// in the `Vec`, marked, until the database is dropped.
///
/// The keys' text sits in one arena, `text`, each entry naming its key by
/// a range of it: no allocation per key, and a million keys cost their
/// bytes, not a `String` header plus an allocator block each. Replay is
/// bound by the fresh memory it touches (each new page is zeroed by the
/// kernel), so every byte a key saves is time saved.
///
/// FxHash: keys come from the user's own log, and replay hashes each one
/// at least once per line; SipHash's DoS resistance buys nothing here.
#[derive(Debug, Default)]
pub(super) struct Slots {
    table: hashbrown::HashTable<u32>,
    entries: Vec<(KeyAt, Slot)>,
    text: String,
}

/// Where an entry's key is in `Slots::text`.
#[derive(Debug, Clone, Copy)]
struct KeyAt {
    start: usize,
    len: u32,
}

impl KeyAt {
    fn of(self, text: &str) -> &str {
        &text[self.start..self.start + self.len as usize]
    }
}

/// The hash the index files `key` under: replay computes it for each line
/// while parsing in parallel, so the one thread that applies the lines in
/// order neither hashes nor, for a key it does not hold, reads the key.
pub(super) fn hash(key: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(key)
}

impl Slots {
    /// Room for `additional` more keys of `key_bytes` bytes in all.
    pub fn reserve(&mut self, additional: usize, key_bytes: usize) {
        let (entries, text) = (&self.entries, &self.text);
        self.table
            .reserve(additional, |&i| hash(entries[i as usize].0.of(text)));
        self.entries.reserve(additional);
        self.text.reserve(key_bytes);
    }

    /// The key of the entry at `i`.
    fn key(&self, i: usize) -> &str {
        self.entries[i].0.of(&self.text)
    }

    /// Where the key is among the entries; stays its place until removed.
    pub fn position(&self, key: &str) -> Option<usize> {
        self.table
            .find(hash(key), |&i| self.key(i as usize) == key)
            .map(|&i| i as usize)
    }

    pub fn get(&self, key: &str) -> Option<&Slot> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Slot> {
        self.position(key).map(|i| &mut self.entries[i].1)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Remove `key`, whose `hash` is known.
    pub fn remove_hashed(&mut self, key: &str, hash: u64) {
        let found = self.table.find(hash, |&i| self.key(i as usize) == key);
        if let Some(&at) = found {
            self.remove_at(at as usize);
        }
    }

    /// The key at `position`.
    pub fn key_at(&self, at: usize) -> &str {
        self.key(at)
    }

    /// The slot at `position`.
    pub fn slot_at(&self, at: usize) -> &Slot {
        &self.entries[at].1
    }

    /// `remove` of the key at `position`, without a copy of the key.
    pub fn remove_at(&mut self, at: usize) {
        let found = self
            .table
            .find_entry(hash(self.key(at)), |&i| i as usize == at);
        if let Ok(found) = found {
            found.remove();
            self.entries[at].1.flags |= DELETED;
        }
    }

    /// Put `slot` at `key`, replacing what is there.
    pub fn insert(&mut self, key: &str, slot: Slot) {
        match self.get_mut(key) {
            Some(s) => *s = slot,
            None => self.push(key, slot),
        }
    }

    /// Replay's SET: a new slot, or the existing one updated in place
    /// (keeping its creation time). One hash, no key copy for an update.
    pub fn set_from_log(
        &mut self,
        (key, key_hash): (&str, u64),
        at: (u64, u32),
        ts: i64,
        expire_at: Option<i64>,
        vector: bool,
    ) {
        let next = u32::try_from(self.entries.len()).expect("under 4 billion keys");
        let (entries, text) = (&self.entries, &self.text);
        match self.table.entry(
            key_hash,
            |&i| entries[i as usize].0.of(text) == key,
            |&i| hash(entries[i as usize].0.of(text)),
        ) {
            hashbrown::hash_table::Entry::Occupied(o) => {
                let i = *o.get() as usize;
                self.entries[i].1.set_from_log(at, ts, expire_at, vector);
            }
            hashbrown::hash_table::Entry::Vacant(v) => {
                v.insert(next);
                let slot = Slot::from_log(at, ts, expire_at, vector);
                let key = Self::store(&mut self.text, key);
                self.entries.push((key, slot));
            }
        }
    }

    fn push(&mut self, key: &str, slot: Slot) {
        let i = u32::try_from(self.entries.len()).expect("under 4 billion keys");
        let (entries, text) = (&self.entries, &self.text);
        self.table
            .insert_unique(hash(key), i, |&j| hash(entries[j as usize].0.of(text)));
        let key = Self::store(&mut self.text, key);
        self.entries.push((key, slot));
    }

    /// Copy `key` to the end of the arena.
    fn store(text: &mut String, key: &str) -> KeyAt {
        let at = KeyAt {
            start: text.len(),
            len: u32::try_from(key.len())
                .expect("a key under 4 GiB (lines over 64 MiB are not parsed)"),
        };
        text.push_str(key);
        at
    }

    /// The present keys and their slots, in the order keys first appeared.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Slot)> {
        self.iter_at().map(|(_, k, s)| (k, s))
    }

    /// `iter`, with each key's position.
    pub fn iter_at(&self) -> impl Iterator<Item = (usize, &str, &Slot)> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, (_, s))| s.flags & DELETED == 0)
            .map(|(i, (k, s))| (i, k.of(&self.text), s))
    }

    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// The present entries in order, as a snapshot stores them; `None`
    /// if one of them is ours (written in this process), which no
    /// snapshot of the log may hold.
    pub fn stored(&self) -> Option<impl Iterator<Item = (&str, Stored)>> {
        if self.iter().any(|(_, s)| s.flags & IN_MEMORY != 0) {
            return None;
        }
        Some(self.iter().map(|(k, s)| {
            let stored = Stored {
                offset: s.offset,
                len: s.len,
                flags: s.flags & STORED_FLAGS,
                created_at: s.created_at,
                updated_at: s.updated_at,
                expire_at: s.expire_at,
            };
            (k, stored)
        }))
    }

    /// The bytes of the present keys' text.
    pub fn key_bytes(&self) -> usize {
        self.entries
            .iter()
            .filter(|(_, s)| s.flags & DELETED == 0)
            .map(|(k, _)| k.len as usize)
            .sum()
    }

    /// Add an entry read from a snapshot, after those read before it.
    /// False (nothing added) if the key is there already: a snapshot
    /// holds each key once, so it is damaged.
    pub fn push_stored(&mut self, key: &str, s: Stored) -> bool {
        let next = u32::try_from(self.entries.len()).expect("under 4 billion keys");
        let (entries, text) = (&self.entries, &self.text);
        match self.table.entry(
            hash(key),
            |&i| entries[i as usize].0.of(text) == key,
            |&i| hash(entries[i as usize].0.of(text)),
        ) {
            hashbrown::hash_table::Entry::Occupied(_) => false,
            hashbrown::hash_table::Entry::Vacant(v) => {
                v.insert(next);
                let key = Self::store(&mut self.text, key);
                let slot = Slot {
                    offset: s.offset,
                    len: s.len,
                    flags: s.flags & STORED_FLAGS,
                    created_at: s.created_at,
                    updated_at: s.updated_at,
                    expire_at: s.expire_at,
                    decoded: OnceBox::new(),
                };
                self.entries.push((key, slot));
                true
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

impl std::ops::Index<&str> for Slots {
    type Output = Slot;
    fn index(&self, key: &str) -> &Slot {
        self.get(key).expect("a present key")
    }
}

const HAS_VECTOR: u8 = 1;
const HAS_UPDATED: u8 = 2;
const HAS_EXPIRE: u8 = 4;
/// The value is ours (written in this process), held in `decoded`; there
/// is no line for it in the log we read.
const IN_MEMORY: u8 = 8;
/// The key was deleted: the slot is no longer in the table.
const DELETED: u8 = 16;

/// What a snapshot keeps of a slot: where its line is and the metadata
/// replay tracks (`updated_at` and `expire_at` mean something only with
/// their flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stored {
    pub offset: u64,
    pub len: u32,
    pub flags: u8,
    pub created_at: i64,
    pub updated_at: i64,
    pub expire_at: i64,
}

impl Stored {
    pub fn has_updated(&self) -> bool {
        self.flags & HAS_UPDATED != 0
    }

    pub fn has_expire(&self) -> bool {
        self.flags & HAS_EXPIRE != 0
    }
}

/// The flags a snapshot keeps: the rest describe this process's state.
pub(super) const STORED_FLAGS: u8 = HAS_VECTOR | HAS_UPDATED | HAS_EXPIRE;

#[derive(Debug)]
pub(super) struct Slot {
    offset: u64,
    len: u32,
    flags: u8,
    created_at: i64,
    updated_at: i64,
    expire_at: i64,
    /// The decoded entry, once asked for: 8 bytes (a pointer) where a
    /// `OnceLock<Box<_>>` takes 16, in every slot of the index.
    decoded: OnceBox<Entry>,
}

impl Slot {
    pub fn from_log(at: (u64, u32), ts: i64, expire_at: Option<i64>, has_vector: bool) -> Slot {
        // Built in one piece (not through `set_expire`, which must also
        // update a decoded entry): replay makes one per key.
        let flags = if has_vector { HAS_VECTOR } else { 0 }
            | if expire_at.is_some() { HAS_EXPIRE } else { 0 };
        Slot {
            offset: at.0,
            len: at.1,
            flags,
            created_at: ts,
            updated_at: 0,
            expire_at: expire_at.unwrap_or(0),
            decoded: OnceBox::new(),
        }
    }

    /// A later SET of the same key: new value, TTL and vector; the
    /// creation time stays.
    pub fn set_from_log(&mut self, at: (u64, u32), ts: i64, expire_at: Option<i64>, vector: bool) {
        let created_at = self.created_at;
        *self = Slot::from_log(at, created_at, expire_at, vector);
        self.updated_at = ts;
        self.flags |= HAS_UPDATED;
    }

    pub fn in_memory(e: Entry) -> Slot {
        let mut s = Slot {
            offset: 0,
            len: 0,
            flags: IN_MEMORY,
            created_at: e.created_at,
            updated_at: e.updated_at.unwrap_or(0),
            expire_at: 0,
            decoded: OnceBox::new(),
        };
        s.set_flag(HAS_UPDATED, e.updated_at.is_some());
        s.set_flag(HAS_VECTOR, e.vector.is_some());
        s.set_expire(e.expire_at);
        s.decoded = OnceBox::with_value(Box::new(e));
        s
    }

    pub fn set_expire(&mut self, expire_at: Option<i64>) {
        self.expire_at = expire_at.unwrap_or(0);
        self.set_flag(HAS_EXPIRE, expire_at.is_some());
        // A `OnceBox` is set once: a decoded entry (only ours, or one
        // read back before an `EXPIRE` we write) is replaced by its copy.
        if let Some(e) = self.decoded.get() {
            let mut e = e.clone();
            e.expire_at = expire_at;
            self.decoded = OnceBox::with_value(Box::new(e));
        }
    }

    fn set_flag(&mut self, flag: u8, on: bool) {
        if on {
            self.flags |= flag;
        } else {
            self.flags &= !flag;
        }
    }

    pub fn created_at(&self) -> i64 {
        self.created_at
    }

    pub fn has_vector(&self) -> bool {
        self.flags & HAS_VECTOR != 0
    }

    pub fn expire_at(&self) -> Option<i64> {
        (self.flags & HAS_EXPIRE != 0).then_some(self.expire_at)
    }

    pub fn is_expired(&self, now: i64) -> bool {
        self.flags & HAS_EXPIRE != 0 && self.expire_at <= now
    }

    /// Where this entry's line is in the log: (offset, length) without
    /// its '\r' and '\n'. None for our own writes, which are in memory.
    pub fn at(&self) -> Option<(u64, u32)> {
        (self.flags & IN_MEMORY == 0).then_some((self.offset, self.len))
    }

    /// The entry if it is decoded already (always, for our own writes).
    pub fn decoded(&self) -> Option<&Entry> {
        self.decoded.get()
    }

    /// The entry, decoded from its line (`read` fetches it from the log)
    /// the first time and kept.
    pub fn entry(&self, read: impl FnOnce(u64, u32) -> Result<Vec<u8>>) -> Result<&Entry> {
        if let Some(e) = self.decoded() {
            return Ok(e);
        }
        let (offset, len) = self.at().expect("in-memory entries are decoded");
        let e = self.decode(&read(offset, len)?);
        Ok(self.decoded.get_or_init(|| Box::new(e)))
    }

    /// The entry decoded from `line` (its log line) and kept, or the one
    /// kept already.
    pub fn entry_from(&self, line: &[u8]) -> &Entry {
        self.decoded.get_or_init(|| Box::new(self.decode(line)))
    }

    /// The entry decoded from `line`, not kept: for a caller that visits
    /// every entry once and must not hold them all.
    pub fn decode(&self, line: &[u8]) -> Entry {
        if let Some(e) = self.decoded() {
            return e.clone();
        }
        // The line parsed at replay (as metadata); the full parse of the
        // same bytes, by the same rules, cannot fail.
        let l = aof::parse(line).unwrap_or_default();
        let vector = if self.has_vector() {
            godecode::stored_vector(&l.vector).ok().flatten()
        } else {
            None
        };
        Entry {
            value: l.value.into_owned(),
            created_at: self.created_at,
            updated_at: (self.flags & HAS_UPDATED != 0).then_some(self.updated_at),
            expire_at: self.expire_at(),
            vector,
        }
    }
}
