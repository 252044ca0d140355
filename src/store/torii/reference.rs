//! The replay as it was before the index (every value decoded into a map,
//! one line after the other): the reference the indexed reader is tested
//! against.

use std::collections::HashMap;

use super::{aof, godecode, Entry};

pub fn replay(bytes: &[u8]) -> HashMap<String, Entry> {
    let mut entries: HashMap<String, Entry> = HashMap::new();
    for raw in bytes.split(|b| *b == b'\n') {
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        if line.is_empty() {
            continue;
        }
        let Ok(l) = aof::parse(line) else { continue };
        match &*l.cmd {
            "SET" => {
                let Ok(vector) = godecode::stored_vector(&l.vector) else {
                    continue;
                };
                let old = entries.get(&*l.key);
                let e = Entry {
                    value: l.value.into_owned(),
                    created_at: old.map_or(l.ts, |o| o.created_at),
                    updated_at: old.map(|_| l.ts),
                    expire_at: l.expire_at,
                    vector,
                };
                entries.insert(l.key.into_owned(), e);
            }
            "DEL" => {
                entries.remove(&*l.key);
            }
            "EXPIRE" | "EXPIREAT" => {
                if let Some(e) = entries.get_mut(&*l.key) {
                    e.expire_at = l.expire_at;
                }
            }
            "PERSIST" => {
                if let Some(e) = entries.get_mut(&*l.key) {
                    e.expire_at = None;
                }
            }
            _ => {}
        }
    }
    entries
}
