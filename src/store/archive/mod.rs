//! The SQLite archive `.store/history.db`: every user and assistant message
//! Agenvoy ever saw (`messages` + external-content FTS5 `messages_fts5`),
//! and `session_meta.start_at`, where history.json now begins.
//!
//! Agenvoy may have the file open: we use a busy timeout, keep each
//! operation in one short transaction, and never touch `file_history`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};

use crate::error::{Error, Result};
use crate::store::history::Record;
use crate::store::{atomic, files, layout::DataRoot};

/// Agenvoy's schema, created only when a writing command finds no archive.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
  send_at INTEGER NOT NULL DEFAULT 0, role TEXT NOT NULL, content TEXT NOT NULL, sender TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS idx_messages_session_send_at ON messages(session_id, send_at);
CREATE TABLE IF NOT EXISTS session_meta (session_id TEXT PRIMARY KEY, start_at INTEGER NOT NULL DEFAULT 0);
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts5 USING fts5(role, content, content=messages, content_rowid=id);
CREATE TRIGGER IF NOT EXISTS trigger_messages_after_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts5(rowid, role, content) VALUES (new.id, new.role, new.content); END;
CREATE TRIGGER IF NOT EXISTS trigger_messages_after_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts5(messages_fts5, rowid, role, content) VALUES ('delete', old.id, old.role, old.content); END;
";

const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ArchivedMessage {
    pub id: i64,
    pub session_id: String,
    pub send_at: i64,
    pub role: String,
    pub content: String,
    pub sender: String,
}

pub struct Archive {
    conn: Connection,
    path: PathBuf,
    /// Older Agenvoy archives have no `sender` column; we read it as '' and
    /// write without it rather than refuse them.
    has_sender: bool,
    /// Opening rolled back a transaction a killed writer left behind (a hot
    /// journal), so the reader saw the last committed state.
    pub rolled_back: bool,
    /// `path` resolved inside the data root: what SQLite is given.
    phys: PathBuf,
}

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive").field("path", &self.path).finish()
    }
}

/// One full-text search over the archive.
#[derive(Debug, Clone)]
pub struct ArchiveQuery<'a> {
    /// FTS5 query syntax (callers quote user text as a phrase).
    pub fts: &'a str,
    pub sessions: &'a [String],
    pub role: Option<&'a str>,
    /// Only messages with send_at at or after this (ns).
    pub since: Option<i64>,
    pub limit: usize,
    /// Snippet highlight markers (before, after).
    pub mark: (&'a str, &'a str),
}

#[derive(Debug, Clone)]
pub struct ArchiveHit {
    pub session_id: String,
    pub send_at: i64,
    pub role: String,
    pub content: String,
    pub snippet: String,
    /// Higher is better (negated bm25).
    pub score: f64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SessionCount {
    pub messages: u64,
    pub oldest_send_at: Option<i64>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Cleared {
    pub messages: u64,
    pub meta: u64,
}

mod bulk;
mod saved_rows;
mod search;

impl Archive {
    /// Open for reading. `None` when there is no archive yet.
    pub fn open_read(root: &DataRoot, path: &Path) -> Result<Option<Archive>> {
        let (phys, exists) = files::sqlite_path(root, path)?;
        if !exists {
            return Ok(None);
        }
        let conn = Connection::open_with_flags(
            &phys,
            OpenFlags::SQLITE_OPEN_READ_ONLY
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
                | OpenFlags::SQLITE_OPEN_NOFOLLOW,
        )
        .map_err(|e| Error::sqlite(path, e))?;
        let mut archive = Archive::configure(conn, path, phys.clone())?;
        let schema = match archive.check_schema() {
            Err(Error::Sqlite { source, .. }) if is_hot_journal(&source) => {
                // A writer was killed mid-transaction. A read-only handle
                // cannot roll the journal back, and reading around it could
                // see half-written pages: let SQLite roll it back, which is
                // what the next writer (or Agenvoy) would do anyway.
                let conn = Connection::open_with_flags(
                    &phys,
                    OpenFlags::SQLITE_OPEN_READ_WRITE
                        | OpenFlags::SQLITE_OPEN_NO_MUTEX
                        | OpenFlags::SQLITE_OPEN_NOFOLLOW,
                )
                .map_err(|e| Error::sqlite(path, e))?;
                archive = Archive::configure(conn, path, phys)?;
                let schema = archive.check_schema()?;
                archive.rolled_back = true;
                schema
            }
            other => other?,
        };
        // a file a kill left before any table was committed holds nothing
        Ok((schema == Schema::Agenvoy).then_some(archive))
    }

    /// Whether a killed writer left a hot journal beside the archive: the
    /// journal exists, is not empty and no live connection holds the lock
    /// that would make it a journal in use. Read-only; never rolls back.
    pub fn has_hot_journal(root: &DataRoot, path: &Path) -> Result<bool> {
        let (phys, exists) = files::sqlite_path(root, path)?;
        let journal = PathBuf::from(format!("{}-journal", phys.display()));
        match std::fs::symlink_metadata(&journal) {
            Ok(m) if exists && m.is_file() && m.len() > 0 => {}
            _ => return Ok(false),
        }
        let conn = Connection::open_with_flags(
            &phys,
            OpenFlags::SQLITE_OPEN_READ_ONLY
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
                | OpenFlags::SQLITE_OPEN_NOFOLLOW,
        )
        .map_err(|e| Error::sqlite(path, e))?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| Error::sqlite(path, e))?;
        match conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        }) {
            Err(e) if is_hot_journal(&e) => Ok(true),
            _ => Ok(false),
        }
    }

    /// Open for writing, creating the file and Agenvoy's schema if missing.
    pub fn open_write(root: &DataRoot, path: &Path) -> Result<Archive> {
        if let Some(dir) = path.parent() {
            atomic::create_dir_all(root, dir)?;
        }
        let (phys, existed) = files::sqlite_path(root, path)?;
        let conn = Connection::open_with_flags(
            &phys,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_URI
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
                | OpenFlags::SQLITE_OPEN_NOFOLLOW,
        )
        .map_err(|e| Error::sqlite(path, e))?;
        let mut archive = Archive::configure(conn, path, phys)?;
        // Our writes are rare and precious: sync fully on commit.
        archive
            .conn
            .pragma_update(None, "synchronous", "FULL")
            .map_err(|e| Error::sqlite(path, e))?;
        if !existed || archive.check_schema()? == Schema::None {
            archive.create_schema()?;
        }
        Ok(archive)
    }

    /// Agenvoy's schema, in one transaction: a kill before its commit
    /// leaves a file with no table (SQLite rolls the journal back), which
    /// every command takes as no archive, never a half-made schema that
    /// would be bad data (65) to every rerun.
    fn create_schema(&mut self) -> Result<()> {
        let path = self.path.clone();
        let err = |e| Error::sqlite(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(err)?;
        // looked at again under the write lock: Agenvoy may have made its
        // archive since, and what is in the file is not ours to add to
        let tables: i64 = tx
            .query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(err)?;
        if tables == 0 {
            tx.execute_batch(SCHEMA).map_err(err)?;
            crate::durable_step();
            tx.commit().map_err(err)?;
        } else {
            drop(tx);
        }
        match self.check_schema()? {
            Schema::Agenvoy => Ok(()),
            Schema::None => Err(Error::data(
                &self.path,
                "has no tables after its schema was created",
            )),
        }
    }

    fn configure(conn: Connection, path: &Path, phys: PathBuf) -> Result<Archive> {
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| Error::sqlite(path, e))?;
        Ok(Archive {
            conn,
            path: path.to_path_buf(),
            has_sender: true,
            rolled_back: false,
            phys,
        })
    }

    /// A file that is not a database, or lacks Agenvoy's tables or the
    /// columns we read, is bad data; found before anything changes anywhere.
    /// A database with no table, view, index or trigger at all holds
    /// nothing (`Schema::None`): a 0-byte file is one to SQLite, and that is
    /// what is left of an archive whose creation was killed before its
    /// first commit (SQLite creates the file when it opens it).
    fn check_schema(&mut self) -> Result<Schema> {
        let names: Vec<(String, String)> = (|| {
            let mut stmt = self.conn.prepare("SELECT type, name FROM sqlite_master")?;
            let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get(1)?)))?;
            rows.collect::<rusqlite::Result<Vec<(String, String)>>>()
        })()
        .map_err(|e| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase) => {
                Error::data(&self.path, "is not an SQLite database")
                    .with_hint("restore it from a backup or move it away; nothing was changed")
            }
            _ => Error::sqlite(&self.path, e),
        })?;
        if names.is_empty() {
            return Ok(Schema::None);
        }
        let names: Vec<String> = names
            .into_iter()
            .filter(|(kind, _)| kind == "table" || kind == "view")
            .map(|(_, name)| name)
            .collect();
        for table in ["messages", "session_meta", "messages_fts5"] {
            if !names.iter().any(|n| n == table) {
                return Err(Error::data(
                    &self.path,
                    format!("has no table `{table}`; not an Agenvoy archive"),
                ));
            }
        }
        let columns = |table: &str| -> rusqlite::Result<Vec<String>> {
            let mut stmt = self
                .conn
                .prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect()
        };
        let messages = columns("messages").map_err(|e| self.err(e))?;
        let meta = columns("session_meta").map_err(|e| self.err(e))?;
        for (table, have, need) in [
            (
                "messages",
                &messages,
                &["id", "session_id", "send_at", "role", "content"][..],
            ),
            ("session_meta", &meta, &["session_id", "start_at"][..]),
        ] {
            if let Some(col) = need.iter().find(|c| !have.iter().any(|h| h == *c)) {
                return Err(Error::data(
                    &self.path,
                    format!("table `{table}` has no column `{col}`; not an archive schema this tool knows"),
                )
                .with_hint("nothing was changed; check which Agenvoy version wrote it"));
            }
        }
        self.has_sender = messages.iter().any(|c| c == "sender");
        Ok(Schema::Agenvoy)
    }

    /// The `sender` column, or '' on an archive that predates it.
    fn sender_expr(&self) -> &'static str {
        if self.has_sender {
            "sender"
        } else {
            "''"
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn err(&self, e: rusqlite::Error) -> Error {
        Error::sqlite(&self.path, e)
    }

    /// Message count and oldest send_at of every session, in one scan of
    /// the (session_id, send_at) index.
    pub fn counts_by_session(&self) -> Result<HashMap<String, SessionCount>> {
        let mut stmt = self
            .conn
            .prepare("SELECT session_id, COUNT(*), MIN(NULLIF(send_at, 0)) FROM messages GROUP BY session_id")
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    SessionCount {
                        messages: r.get::<_, i64>(1)? as u64,
                        oldest_send_at: r.get(2)?,
                    },
                ))
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.err(e))
    }

    pub fn count_session(&self, session: &str) -> Result<u64> {
        self.conn
            .query_row(
                "SELECT COUNT(*) FROM messages WHERE session_id = ?1",
                [session],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n as u64)
            .map_err(|e| self.err(e))
    }

    /// (oldest, newest) send_at of the session's archived messages.
    pub fn span(&self, session: &str) -> Result<Option<(i64, i64)>> {
        self.conn
            .query_row(
                "SELECT MIN(NULLIF(send_at, 0)), MAX(NULLIF(send_at, 0)) FROM messages WHERE session_id = ?1",
                [session],
                |r| Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, Option<i64>>(1)?)),
            )
            .map(|(a, b)| a.zip(b))
            .map_err(|e| self.err(e))
    }

    pub fn start_at(&self, session: &str) -> Result<Option<i64>> {
        self.conn
            .query_row(
                "SELECT start_at FROM session_meta WHERE session_id = ?1",
                [session],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Stream the session's messages, oldest first, into `each`.
    pub fn for_each_message(
        &self,
        session: &str,
        each: impl FnMut(ArchivedMessage) -> Result<()>,
    ) -> Result<()> {
        Self::rows_of(&self.conn, &self.path, self.sender_expr(), session, each)
    }

    fn rows_of(
        conn: &Connection,
        path: &Path,
        sender: &str,
        session: &str,
        mut each: impl FnMut(ArchivedMessage) -> Result<()>,
    ) -> Result<()> {
        let err = |e| Error::sqlite(path, e);
        let mut stmt = conn
            .prepare(&format!(
                "SELECT id, session_id, send_at, role, content, {sender} FROM messages
                 WHERE session_id = ?1 ORDER BY send_at, id"
            ))
            .map_err(err)?;
        let mut rows = stmt.query([session]).map_err(err)?;
        while let Some(r) = rows.next().map_err(err)? {
            let msg = (|| {
                Ok::<_, rusqlite::Error>(ArchivedMessage {
                    id: r.get(0)?,
                    session_id: r.get(1)?,
                    send_at: r.get(2)?,
                    role: r.get(3)?,
                    content: r.get(4)?,
                    sender: r.get(5)?,
                })
            })()
            .map_err(err)?;
            each(msg)?;
        }
        Ok(())
    }

    /// Insert one message row (the FTS trigger indexes it).
    pub fn insert(
        tx: &rusqlite::Transaction<'_>,
        session: &str,
        send_at: i64,
        role: &str,
        content: &str,
        sender: &str,
    ) -> rusqlite::Result<()> {
        tx.prepare_cached(
            "INSERT INTO messages (session_id, send_at, role, content, sender) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![session, send_at, role, content, sender])?;
        Ok(())
    }

    fn insert_row(
        has_sender: bool,
        tx: &rusqlite::Transaction<'_>,
        session: &str,
        r: &Record,
        text: &str,
    ) -> rusqlite::Result<()> {
        if has_sender {
            Archive::insert(tx, session, r.send_at, &r.role, text, &r.sender)
        } else {
            tx.prepare_cached(
                "INSERT INTO messages (session_id, send_at, role, content) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![session, r.send_at, r.role, text])?;
            Ok(())
        }
    }

    /// In one transaction: make sure every record of `leaving` has an
    /// archive row of its own, and point `session_meta.start_at` at
    /// `start_at`. Returns how many rows were inserted.
    ///
    /// Messages are compared as a multiset of (send_at, role, text): two
    /// identical records (Agenvoy writes such duplicates, and records without
    /// a sendAt often repeat) need two rows. Rows are counted as belonging to
    /// the `staying` records first, so a record is only taken as archived
    /// when a row is left over for it.
    pub fn archive_records(
        &mut self,
        session: &str,
        leaving: &[Record],
        staying: &[Record],
        start_at: Option<i64>,
    ) -> Result<u64> {
        let path = self.path.clone();
        let has_sender = self.has_sender;
        let err = |e| Error::sqlite(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(err)?;
        let missing = uncovered(&tx, session, leaving, staying).map_err(err)?;
        for &i in &missing {
            let r = &leaving[i];
            Archive::insert_row(has_sender, &tx, session, r, &r.text()).map_err(err)?;
        }
        if let Some(t) = start_at {
            set_start_at(&tx, session, t).map_err(err)?;
        }
        crate::failpoint("archive-before-commit");
        crate::durable_step();
        tx.commit().map_err(err)?;
        Ok(missing.len() as u64)
    }

    /// Indices of `records` that have no archive row of their own (the
    /// multiset rule of `archive_records`, nothing staying). Read-only.
    pub fn missing(&self, session: &str, records: &[Record]) -> Result<Vec<usize>> {
        let keys: Vec<RecordKey> = records.iter().map(RecordKey::of).collect();
        self.missing_keys(session, &keys)
    }

    /// `missing` of records known by their keys: a million-record history
    /// checked without holding its text.
    pub fn missing_keys(&self, session: &str, keys: &[RecordKey]) -> Result<Vec<usize>> {
        uncovered_keys(&self.conn, session, keys).map_err(|e| self.err(e))
    }

    /// Rebuild the external-content FTS index from `messages`.
    pub fn rebuild_fts(&mut self) -> Result<()> {
        self.conn
            .execute(
                "INSERT INTO messages_fts5(messages_fts5) VALUES('rebuild')",
                [],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    /// FTS5's own consistency check of the external-content index. FTS5
    /// takes it as an INSERT, so it runs on a read-write connection of its
    /// own (it changes nothing; the file is never created here).
    pub fn fts_integrity_check(&self) -> Result<()> {
        let conn = Connection::open_with_flags(
            &self.phys,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
                | OpenFlags::SQLITE_OPEN_NOFOLLOW,
        )
        .map_err(|e| self.err(e))?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| self.err(e))?;
        conn.execute(
            "INSERT INTO messages_fts5(messages_fts5, rank) VALUES('integrity-check', 1)",
            [],
        )
        .map(|_| ())
        .map_err(|e| self.err(e))
    }

    pub fn connection(&mut self) -> &mut Connection {
        &mut self.conn
    }
}

/// The identity of a message in the archive.
type MsgKey<'a> = (i64, &'a str, &'a str);

/// A message's identity, compact: its sendAt and a 128-bit digest of its
/// role and text (SHA-256, cut). Two different messages share one only by
/// a SHA-256 collision; a history's million records cost 24 bytes each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RecordKey {
    send_at: i64,
    digest: [u8; 16],
}

impl RecordKey {
    pub fn of(r: &Record) -> RecordKey {
        RecordKey::new(r.send_at, &r.role, &r.text())
    }

    pub fn new(send_at: i64, role: &str, text: &str) -> RecordKey {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        // the role's length first: ("ab", "c") and ("a", "bc") differ
        h.update((role.len() as u64).to_le_bytes());
        h.update(role.as_bytes());
        h.update(text.as_bytes());
        let mut digest = [0u8; 16];
        digest.copy_from_slice(&h.finalize()[..16]);
        RecordKey { send_at, digest }
    }
}

/// `uncovered` with nothing staying, on keys: the same multiset rule.
fn uncovered_keys(
    conn: &Connection,
    session: &str,
    keys: &[RecordKey],
) -> rusqlite::Result<Vec<usize>> {
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    // Each distinct key gets an id; `rows[id]` counts its archive rows.
    let mut ids: HashMap<RecordKey, u32, rustc_hash::FxBuildHasher> =
        HashMap::with_capacity_and_hasher(keys.len(), rustc_hash::FxBuildHasher);
    let record_ids: Vec<u32> = keys
        .iter()
        .map(|k| {
            let next = ids.len() as u32;
            *ids.entry(*k).or_insert(next)
        })
        .collect();
    let mut rows = vec![0u32; ids.len()];
    let timed = keys.iter().map(|k| k.send_at).filter(|t| *t != 0);
    let (lo, hi) = timed.fold((None, None), |(lo, hi): (Option<i64>, Option<i64>), t| {
        (
            Some(lo.map_or(t, |l| l.min(t))),
            Some(hi.map_or(t, |h| h.max(t))),
        )
    });
    let mut count_rows = |sql: &str, args: &[&dyn rusqlite::ToSql]| -> rusqlite::Result<()> {
        let mut stmt = conn.prepare(sql)?;
        let mut q = stmt.query(args)?;
        while let Some(r) = q.next()? {
            let key = RecordKey::new(r.get(0)?, r.get_ref(1)?.as_str()?, r.get_ref(2)?.as_str()?);
            if let Some(&id) = ids.get(&key) {
                rows[id as usize] = rows[id as usize].saturating_add(1);
            }
        }
        Ok(())
    };
    if let (Some(lo), Some(hi)) = (lo, hi) {
        count_rows(
            "SELECT send_at, role, content FROM messages
             WHERE session_id = ?1 AND send_at BETWEEN ?2 AND ?3",
            &[&session, &lo, &hi],
        )?;
    }
    if keys.iter().any(|k| k.send_at == 0) {
        count_rows(
            "SELECT send_at, role, content FROM messages WHERE session_id = ?1 AND send_at = 0",
            &[&session],
        )?;
    }
    let mut out = Vec::new();
    for (i, &id) in record_ids.iter().enumerate() {
        if rows[id as usize] > 0 {
            rows[id as usize] -= 1;
        } else {
            out.push(i);
        }
    }
    Ok(out)
}

/// Indices of `leaving` records that no archive row covers, when rows are
/// matched to `staying` records first. Linear: one range scan of the
/// session's rows with a sendAt (on the (session_id, send_at) index) and one
/// scan of its rows without one, whatever the number of records.
fn uncovered(
    conn: &Connection,
    session: &str,
    leaving: &[Record],
    staying: &[Record],
) -> rusqlite::Result<Vec<usize>> {
    if leaving.is_empty() {
        return Ok(Vec::new());
    }
    let leaving_texts: Vec<_> = leaving.iter().map(Record::text).collect();
    // Each distinct message gets an id; `rows[id]` counts its archive rows
    // not yet claimed. (Lookups go through the id map, which is only read,
    // so keys borrowed from SQLite rows can be looked up in it.) FxHash:
    // every key holds a whole message, and they come from the user's own
    // history, not from an adversary.
    let mut ids: HashMap<MsgKey<'_>, usize, rustc_hash::FxBuildHasher> =
        HashMap::with_capacity_and_hasher(leaving.len(), rustc_hash::FxBuildHasher);
    let record_ids: Vec<usize> = (0..leaving.len())
        .map(|i| {
            let next = ids.len();
            *ids.entry((
                leaving[i].send_at,
                leaving[i].role.as_str(),
                leaving_texts[i].as_ref(),
            ))
            .or_insert(next)
        })
        .collect();
    let ids = ids;
    let mut rows = vec![0i64; ids.len()];
    let timed: Vec<i64> = leaving
        .iter()
        .map(|r| r.send_at)
        .filter(|t| *t != 0)
        .collect();
    let mut count_rows = |sql: &str, args: &[&dyn rusqlite::ToSql]| -> rusqlite::Result<()> {
        let mut stmt = conn.prepare(sql)?;
        let mut q = stmt.query(args)?;
        while let Some(r) = q.next()? {
            let t = r.get::<_, i64>(0)?;
            let role = r.get_ref(1)?.as_str()?;
            let content = r.get_ref(2)?.as_str()?;
            if let Some(&id) = ids.get(&(t, role, content)) {
                rows[id] += 1;
            }
        }
        Ok(())
    };
    if let (Some(lo), Some(hi)) = (timed.iter().min(), timed.iter().max()) {
        count_rows(
            "SELECT send_at, role, content FROM messages
             WHERE session_id = ?1 AND send_at BETWEEN ?2 AND ?3",
            &[&session, lo, hi],
        )?;
    }
    if timed.len() < leaving.len() {
        count_rows(
            "SELECT send_at, role, content FROM messages WHERE session_id = ?1 AND send_at = 0",
            &[&session],
        )?;
    }
    // Staying records claim their rows first.
    for r in staying {
        let text = r.text();
        if let Some(&id) = ids.get(&(r.send_at, r.role.as_str(), text.as_ref())) {
            rows[id] -= 1;
        }
    }
    let mut out = Vec::new();
    for (i, &id) in record_ids.iter().enumerate() {
        if rows[id] > 0 {
            rows[id] -= 1;
        } else {
            out.push(i);
        }
    }
    Ok(out)
}

/// What an archive file holds, once it is known not to be bad data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Schema {
    /// Agenvoy's tables and the columns we read.
    Agenvoy,
    /// Nothing at all: no table, index, view or trigger.
    None,
}

/// SQLite's answer when a read-only connection meets a hot journal.
fn is_hot_journal(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _)
        if f.extended_code == rusqlite::ffi::SQLITE_READONLY_ROLLBACK)
}

/// session_meta.start_at of `session`, created or moved.
fn set_start_at(tx: &rusqlite::Transaction<'_>, session: &str, t: i64) -> rusqlite::Result<usize> {
    tx.execute(
        "INSERT INTO session_meta (session_id, start_at) VALUES (?1, ?2)
         ON CONFLICT(session_id) DO UPDATE SET start_at = excluded.start_at",
        params![session, t],
    )
}

#[cfg(test)]
pub(crate) mod tests;
