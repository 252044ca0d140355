//! What writers do to a store: check it may be written, then append
//! DEL / SET / EXPIRE lines exactly as ToriiDB does, one fsync per batch,
//! and keep each key's mirror file in step.

use super::*;

/// The length of the line ToriiDB's rewrite writes for `key` holding `e`.
pub(super) fn rewritten_len(key: &str, e: &Entry) -> usize {
    aof::rewritten_len(
        e.created_at,
        key,
        &e.value,
        e.expire_at,
        e.vector.as_deref().unwrap_or(""),
    )
}

impl Db {
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
        let found = self.find_to_delete(keys);
        self.delete_found(found, now)
    }

    /// `delete` of the keys at index positions (from `session_positions`,
    /// each present): no copy of the keys' text at all.
    pub fn delete_at(&mut self, present: Vec<usize>, now: i64) -> Result<usize> {
        let (mirrors, db_dir) = self.mirrors_of(present.iter().map(|&at| self.entries.key_at(at)));
        let found = ToDelete {
            present,
            mirrors,
            db_dir,
        };
        self.delete_found(found, now)
    }

    /// Where the keys are in the index, and their mirror files. Nothing is
    /// refused yet: with no key present, nothing is written or refused.
    fn find_to_delete(&self, keys: &[String]) -> ToDelete {
        let (mirrors, db_dir) = self.mirrors_of(keys.iter().map(String::as_str));
        let mut present = Vec::with_capacity(keys.len());
        present.extend(keys.iter().filter_map(|k| self.entries.position(k)));
        ToDelete {
            present,
            mirrors,
            db_dir,
        }
    }

    /// The db folder (resolved), and which first-level mirror folders
    /// (`db_N/xx`, by their byte) it holds.
    fn mirror_folders(&self) -> (Result<PathBuf>, [bool; 256]) {
        let db_dir = self.root.resolve(&self.dir, Last::Follow);
        let mut mirror_dirs = [false; 256];
        if let Ok(rd) = db_dir.as_ref().map(fs::read_dir) {
            for e in rd.into_iter().flatten().filter_map(|e| e.ok()) {
                let name = e.file_name();
                let name = name.to_string_lossy();
                if let (2, Ok(b)) = (name.len(), u8::from_str_radix(&name, 16)) {
                    mirror_dirs[b as usize] = true;
                }
            }
        }
        (db_dir, mirror_dirs)
    }

    /// Whether this database keeps mirror files (it has a mirror folder):
    /// ToriiDB writes one per key, so a store that has none was written
    /// without them and is kept so — writers put back no mirror into it,
    /// as `delete` takes none out of it. Ok(None) then; else the db
    /// folder, resolved.
    pub(super) fn mirror_base(&self) -> Result<Option<PathBuf>> {
        let (db_dir, folders) = self.mirror_folders();
        if folders.contains(&true) {
            db_dir.map(Some)
        } else {
            Ok(None)
        }
    }

    /// The mirror files of `keys` that may exist, and the db folder.
    fn mirrors_of<'k>(
        &self,
        keys: impl Iterator<Item = &'k str>,
    ) -> (Vec<PathBuf>, Result<PathBuf>) {
        // Mirror files live under db_N/xx/…; skip the unlink where even the
        // first-level folder is absent (a store written without mirrors).
        let (db_dir, mirror_dirs) = self.mirror_folders();
        // No mirror folder at all (the usual store): no key's hash to take.
        let any_mirrors = mirror_dirs.contains(&true);
        let mirrors = keys
            .filter(|k| any_mirrors && mirror_dirs[Md5::digest(k.as_bytes())[0] as usize])
            .map(|k| self.mirror_path(k))
            .collect();
        (mirrors, db_dir)
    }

    fn delete_found(&mut self, found: ToDelete, now: i64) -> Result<usize> {
        let ToDelete {
            present,
            mirrors,
            db_dir,
        } = found;
        if present.is_empty() {
            return Ok(0);
        }
        let buf = self.del_lines(&present, now)?;
        // Resolved before the append, so a mirror folder that leads out of
        // the root is refused before anything changes.
        let db_dir = db_dir?;
        let mirrors: Vec<PathBuf> = mirrors
            .iter()
            .map(|path| {
                let rel = path
                    .strip_prefix(&self.dir)
                    .expect("mirrors are in the db folder");
                self.root.resolve_under(&db_dir, rel, Last::Entry)
            })
            .collect::<Result<_>>()?;
        self.prepare_for_append()?;
        self.append(&buf)?;
        for &at in &present {
            self.entries.remove_at(at);
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

    /// The DEL lines of the keys at `present`, in one buffer sized up
    /// front: growing it by doubling would copy (and for a moment hold
    /// twice) what is written.
    fn del_lines(&self, present: &[usize], now: i64) -> Result<Vec<u8>> {
        // `{"ts":<i64>,"cmd":"DEL","key":"<key>"}\n`; a key needing
        // escapes makes its line longer
        const FIXED: usize = r#"{"ts":-9223372036854775808,"cmd":"DEL","key":""}"#.len() + 1;
        let room = present
            .iter()
            .map(|&at| self.entries.key_at(at).len() + FIXED)
            .sum();
        let mut buf = Vec::with_capacity(room);
        for &at in present {
            let key = self.entries.key_at(at);
            let start = buf.len();
            aof::push_line(
                &aof::Line {
                    ts: now,
                    cmd: "DEL".into(),
                    key: key.into(),
                    ..Default::default()
                },
                &mut buf,
            );
            if buf.len() - start - 1 > aof::MAX_LINE {
                return Err(Error::data(
                    self.aof_path(),
                    format!("key {key:?} is too long for a ToriiDB log line"),
                ));
            }
        }
        Ok(buf)
    }

    /// Persist a SET the way ToriiDB does: one fsynced line with the value,
    /// the absolute `expire_at` and the vector (base64), and the key's mirror
    /// file rewritten (in a store that keeps them, see `mirror_base`). An existing entry keeps its `created_at`. A line
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
        self.refuse_outgrowing(key, &entry)?;
        let mirror_base = self.mirror_base()?;
        if let Some(base) = &mirror_base {
            self.check_mirror_path(base, key)?;
        }
        self.prepare_for_append()?;
        self.append(&line)?;
        self.entries.insert(key, Slot::in_memory(entry.clone()));
        match mirror_base {
            Some(_) => self.write_mirror(key, &entry),
            None => Ok(()),
        }
    }

    /// `EXPIRE key` lines (ToriiDB's `Expire`): set an absolute expiry on
    /// keys that exist, one fsync for the batch, mirrors updated.
    pub fn expire(&mut self, keys: &[String], expire_at: i64, now: i64) -> Result<usize> {
        let present: Vec<String> = keys
            .iter()
            .filter(|k| self.entries.contains_key(k))
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
        let mirror_base = self.mirror_base()?;
        for key in &present {
            // a TTL lengthens the line ToriiDB's rewrite writes for the key
            let mut e = self.entry_of(&self.entries[key.as_str()])?.clone();
            e.expire_at = Some(expire_at);
            self.refuse_outgrowing(key, &e)?;
            if let Some(base) = &mirror_base {
                self.check_mirror_path(base, key)?;
            }
        }
        self.prepare_for_append()?;
        self.append(&buf)?;
        for key in &present {
            self.entries
                .get_mut(key)
                .expect("present")
                .set_expire(Some(expire_at));
        }
        if mirror_base.is_some() {
            // a cache of the log, which is durable already: written in bulk
            // and made durable in one pass
            let mut mirrors = atomic::Bulk::under(&self.root, &self.dir)?;
            for key in &present {
                let e = self.entry_of(&self.entries[key])?;
                mirrors.write(&self.mirror_path(key), &mirror_bytes(key, e))?;
            }
            mirrors.finish()?;
        }
        Ok(present.len())
    }

    /// Refuse (65, nothing written) an entry whose line would outgrow
    /// ToriiDB's limit when Agenvoy's exit rewrites the log with Go's
    /// escaping (see `aof::rewritten_len`): the start after that would load
    /// the database as empty. `e` is the entry as replay would hold it.
    pub(super) fn refuse_outgrowing(&self, key: &str, e: &Entry) -> Result<()> {
        // Go writes at most 6 bytes for each byte of a string: most lines
        // are far too short to get there, and need no exact measure
        let text = key.len() + e.value.len() + e.vector.as_ref().map_or(0, String::len);
        if text * 6 + 128 <= aof::MAX_LINE {
            return Ok(());
        }
        let len = rewritten_len(key, e);
        if len <= aof::MAX_LINE {
            return Ok(());
        }
        Err(Error::data(
            self.aof_path(),
            format!(
                "the record for {key:?} would become a {len}-byte line when ToriiDB rewrites the \
                 log (on Agenvoy's exit, Go escapes <, >, &, U+2028/U+2029 and control \
                 characters as 6 bytes each); ToriiDB cannot read lines over 65,535 bytes and \
                 would then load this database as empty"
            ),
        )
        .with_hint("shorten the text (fewer <, > and & count most); nothing was written"))
    }

    /// The mirror file as ToriiDB writes it, fsynced on its own (one key).
    pub(super) fn write_mirror(&self, key: &str, e: &Entry) -> Result<()> {
        let p = self.mirror_path(key);
        atomic::create_dir_all(&self.root, p.parent().expect("mirror paths have folders"))?;
        atomic::write_atomic(&self.root, &p, &mirror_bytes(key, e))
    }
}

/// A mirror file's bytes as ToriiDB writes them (vector as a float array).
pub(super) fn mirror_bytes(key: &str, e: &Entry) -> Vec<u8> {
    // borrowed, in ToriiDB's field order: a restore writes thousands
    #[derive(serde::Serialize)]
    struct Mirror<'a> {
        key: &'a str,
        value: &'a str,
        #[serde(rename = "type")]
        kind: u8,
        created_at: i64,
        #[serde(skip_serializing_if = "Option::is_none")]
        updated_at: Option<i64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        expire_at: Option<i64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        vector: Option<Vec<f64>>,
    }
    serde_json::to_vec(&Mirror {
        key,
        value: &e.value,
        kind: value_type(&e.value),
        created_at: e.created_at,
        updated_at: e.updated_at,
        expire_at: e.expire_at,
        vector: e
            .vector_f32()
            .map(|v| v.into_iter().map(f64::from).collect()),
    })
    .expect("a mirror serialises")
}

impl Db {
    /// Append bytes of whole lines, framed so that no failure or kill
    /// leaves a line the next writer would glue onto (see `append.rs`).
    pub(super) fn append(&mut self, lines: &[u8]) -> Result<()> {
        append::append(&self.root, &self.aof_path(), lines)?;
        self.report.torn_tail = false;
        self.report.unterminated_record = false;
        Ok(())
    }

    /// Refuse (before anything is written) a mirror path of `key` that
    /// leads out of the root; `base` is the db folder, resolved.
    pub(super) fn check_mirror_path(&self, base: &Path, key: &str) -> Result<()> {
        let rel = self.mirror_path(key);
        let rel = rel
            .strip_prefix(&self.dir)
            .expect("mirrors are in the db folder");
        self.root.resolve_under(base, rel, Last::Entry).map(drop)
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
    pub(super) fn check_mirror_folders(&self) -> Result<()> {
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

/// What `delete` found before it writes anything.
struct ToDelete {
    /// Index positions of the keys present.
    present: Vec<usize>,
    /// Mirror files to unlink, not yet resolved.
    mirrors: Vec<PathBuf>,
    db_dir: Result<PathBuf>,
}
