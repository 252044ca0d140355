//! Putting entries back: what undo, `trash restore` and `import` append.
//!
//! An entry is re-appended as the SET line ToriiDB's own compaction writes
//! (`ts = created_at`, value, absolute `expire_at`, vector), so a replay
//! gives it back its creation time, TTL and vector. Entries already there
//! with the same value, TTL and vector are skipped: a restore that was
//! interrupted and is run again appends nothing twice.

use super::write::mirror_bytes;
use super::{aof, Db, Entry, Slot};
use crate::error::{Error, Result};
use crate::store::atomic;

/// The longest line `key` holding `e` takes in the log: the SET line a
/// restore appends, or the one ToriiDB writes for it when Agenvoy's exit
/// rewrites the log with Go's escaping (`aof::rewritten_len`), which can be
/// up to six times longer. Over `aof::MAX_LINE`, ToriiDB cannot load it:
/// a bundle's entry is checked with this before anything is written.
pub fn restored_line_len(key: &str, e: &Entry) -> usize {
    (e.compacted_line(key).len() - 1).max(super::write::rewritten_len(key, e))
}

impl Db {
    /// Append `entries` as compacted SET lines (one fsync for the batch)
    /// and mirror them (in a store that keeps mirror files); returns how
    /// many were written.
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
        let mirror_base = self.mirror_base()?;
        let mut buf = Vec::new();
        let mut after = Vec::with_capacity(todo.len());
        for (key, e) in &todo {
            let line = e.compacted_line(key);
            if line.len() - 1 > aof::MAX_LINE {
                return Err(Error::data(
                    self.aof_path(),
                    format!(
                        "the saved entry {key:?} is a {}-byte line; ToriiDB cannot read lines over 65,535 bytes",
                        line.len() - 1
                    ),
                )
                .with_hint("nothing was written"));
            }
            let entry = match self.entries.get(key) {
                // replay of a SET over a live key keeps its created_at
                Some(cur) => Entry {
                    created_at: cur.created_at(),
                    updated_at: Some(e.created_at),
                    ..e.clone()
                },
                None => e.clone(),
            };
            self.refuse_outgrowing(key, &entry)?;
            if let Some(base) = &mirror_base {
                self.check_mirror_path(base, key)?;
            }
            buf.extend_from_slice(&line);
            after.push(entry);
        }
        // The log first, fsynced: it is what ToriiDB reads. The mirror
        // files are a write-only cache of it that ToriiDB never reads back
        // (a missing or stale one changes nothing), so they are written in
        // bulk and made durable in one pass, not one fsync each.
        self.prepare_for_append()?;
        self.append(&buf)?;
        let mirrored = match mirror_base {
            Some(_) => (|| {
                let mut mirrors = atomic::Bulk::under(&self.root, &self.dir)?;
                for ((key, _), entry) in todo.iter().zip(&after) {
                    mirrors.write(&self.mirror_path(key), &mirror_bytes(key, entry))?;
                }
                mirrors.finish()
            })(),
            None => Ok(()),
        };
        // the log holds them now, whatever became of their mirrors
        for ((key, _), entry) in todo.iter().zip(after) {
            self.entries.insert(key, Slot::in_memory(entry));
        }
        mirrored?;
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

#[cfg(test)]
mod tests {
    use super::super::{aof, Db, Entry};
    use std::fs;

    fn db_from(lines: &[u8]) -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("db_2")).unwrap();
        fs::write(dir.path().join("db_2/record.aof"), lines).unwrap();
        let db = Db::load(dir.path(), 2).unwrap();
        (dir, db)
    }

    fn entry(value: String) -> Entry {
        Entry {
            value,
            created_at: 1_796_220_044,
            updated_at: None,
            expire_at: Some(4_102_444_800),
            vector: None,
        }
    }

    /// 11,000 `<` are an 11 KB line as we write it and a 66 KB one once
    /// Go escapes each as `\u003c`.
    fn outgrowing_value() -> String {
        format!("{{\"action\":\"{}\"}}", "<".repeat(11_000))
    }

    #[test]
    fn writes_that_would_outgrow_the_limit_after_a_rewrite_are_refused_before_anything_is_written()
    {
        let (dir, mut db) =
            db_from(b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"t:1\",\"value\":\"v\"}\n");
        let log = dir.path().join("db_2/record.aof");
        let before = fs::read(&log).unwrap();
        let value = outgrowing_value();
        assert!(
            aof::to_line(&aof::Line {
                value: value.as_str().into(),
                ..Default::default()
            })
            .len()
                < 12_000
        );

        let err = db
            .set("t:1", &value, Some(4_102_444_800), None, 1_796_220_100)
            .unwrap_err();
        assert_eq!(err.exit_code(), crate::error::exit::DATA);
        let text = err.to_string();
        assert!(
            text.contains("\"t:1\"") && text.contains("66") && text.contains("65,535"),
            "{text}"
        );
        let err = db
            .restore_entries(&[("t:2".into(), entry(value.clone()))])
            .unwrap_err();
        assert_eq!(err.exit_code(), crate::error::exit::DATA);
        assert!(err.to_string().contains("\"t:2\""), "{err}");
        assert_eq!(fs::read(&log).unwrap(), before, "nothing written");
        assert!(!db.mirror_path("t:2").exists());

        // just under: written (10,900 `<` → 65,4xx bytes after the rewrite)
        let fits = format!("{{\"action\":\"{}\"}}", "<".repeat(10_900));
        db.set("t:1", &fits, Some(4_102_444_800), None, 1_796_220_100)
            .unwrap();
        assert!(db.outgrowing_rewrite(1_796_220_100).unwrap().is_empty());
    }

    #[test]
    fn a_ttl_that_lengthens_a_line_past_the_limit_is_refused() {
        // 10,910 `<` and no TTL: 65,5xx after the rewrite, a TTL adds 23
        let value = format!("{{\"a\":\"{}\"}}", "<".repeat(10_910));
        let line = aof::to_line(&aof::Line {
            ts: 1_796_220_044,
            cmd: "SET".into(),
            key: "t:1".into(),
            value: value.as_str().into(),
            ..Default::default()
        });
        let (_dir, mut db) = db_from(&line);
        let len = super::super::write::rewritten_len("t:1", db.get("t:1").unwrap());
        assert!(len <= aof::MAX_LINE && len + 23 > aof::MAX_LINE, "{len}");
        let err = db
            .expire(&["t:1".into()], 4_102_444_800, 1_796_220_100)
            .unwrap_err();
        assert_eq!(err.exit_code(), crate::error::exit::DATA);
    }

    #[test]
    fn entries_that_would_outgrow_are_found_and_set_aside_by_the_readable_rewrite() {
        let big = outgrowing_value();
        let mut log = Vec::new();
        for (key, value, expire_at) in [
            ("a:1", "plain".to_owned(), None),
            ("b:1", big.clone(), None),
            // expired: the rewrite drops it, nothing to report
            ("c:1", big.clone(), Some(5)),
            ("d:1", "x".repeat(60_000), None),
        ] {
            log.extend(aof::to_line(&aof::Line {
                ts: 1,
                cmd: "SET".into(),
                key: key.into(),
                value: value.as_str().into(),
                expire_at,
                ..Default::default()
            }));
        }
        let (dir, mut db) = db_from(&log);
        assert!(db.report.oversize.is_empty(), "every line reads fine today");
        let found = db.outgrowing_rewrite(100).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "b:1");
        assert_eq!(
            found[0].1,
            super::super::write::rewritten_len("b:1", db.get("b:1").unwrap())
        );
        assert!(found[0].1 > aof::MAX_LINE);

        db.rewrite_readable().unwrap();
        let again = Db::load(dir.path(), 2).unwrap();
        assert!(again.outgrowing_rewrite(100).unwrap().is_empty());
        assert!(again.contains("a:1") && again.contains("d:1") && !again.contains("b:1"));
        let kept = fs::read_dir(dir.path().join("db_2"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.to_string_lossy().ends_with(".oversize"))
            .unwrap();
        assert!(fs::read_to_string(kept).unwrap().contains("\"b:1\""));
    }

    #[test]
    fn restores_write_mirror_files_only_into_stores_that_keep_them() {
        let entries: Vec<(String, Entry)> = (0..300)
            .map(|i| (format!("s:{i}"), entry(format!("{{\"n\":{i}}}"))))
            .collect();
        // no mirror folder: a store written without them stays so
        let (dir, mut db) = db_from(b"");
        assert_eq!(db.restore_entries(&entries).unwrap(), 300);
        let names: Vec<_> = fs::read_dir(dir.path().join("db_2")).unwrap().collect();
        assert_eq!(names.len(), 1, "only the log");
        // one mirror folder: every key gets its mirror, as ToriiDB writes it
        let (dir, mut db) = db_from(b"");
        fs::create_dir_all(dir.path().join("db_2/00")).unwrap();
        assert_eq!(db.restore_entries(&entries).unwrap(), 300);
        for (key, e) in &entries {
            let m: serde_json::Value =
                serde_json::from_slice(&fs::read(db.mirror_path(key)).unwrap()).unwrap();
            assert_eq!(m["key"], key.as_str());
            assert_eq!(m["value"], e.value.as_str());
            assert_eq!(m["type"], 0);
            assert_eq!(m["expire_at"], 4_102_444_800i64);
        }
        // and the log replays to the same entries
        let again = Db::load(dir.path(), 2).unwrap();
        assert_eq!(again.len(), 300);
        assert_eq!(again.get("s:7").unwrap().value, "{\"n\":7}");
    }
}
