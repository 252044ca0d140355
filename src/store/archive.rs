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
        match archive.check_schema() {
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
                archive.check_schema()?;
                archive.rolled_back = true;
            }
            other => other?,
        }
        Ok(Some(archive))
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
        if existed {
            archive.check_schema()?;
        } else {
            archive
                .conn
                .execute_batch(SCHEMA)
                .map_err(|e| Error::sqlite(path, e))?;
        }
        Ok(archive)
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
    fn check_schema(&mut self) -> Result<()> {
        let names: Vec<String> = (|| {
            let mut stmt = self
                .conn
                .prepare("SELECT name FROM sqlite_master WHERE type IN ('table','view')")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect::<rusqlite::Result<Vec<String>>>()
        })()
        .map_err(|e| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase) => {
                Error::data(&self.path, "is not an SQLite database")
                    .with_hint("restore it from a backup or move it away; nothing was changed")
            }
            _ => Error::sqlite(&self.path, e),
        })?;
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
        Ok(())
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

    /// Delete the session's `messages` and `session_meta` rows in one
    /// transaction; the delete trigger keeps the FTS index in step. With
    /// `backup`, the rows are first written (and fsynced) to
    /// `<backup>/archive.jsonl` and `<backup>/session_meta.json` *inside the
    /// same transaction*, so exactly the rows that were saved are deleted:
    /// a row another writer adds meanwhile waits for our commit and stays.
    pub fn clear_session(
        &mut self,
        root: &DataRoot,
        session: &str,
        backup: Option<&Path>,
    ) -> Result<Cleared> {
        let path = self.path.clone();
        let sender = self.sender_expr();
        let err = |e| Error::sqlite(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(err)?;
        if let Some(dir) = backup {
            export_rows(root, &tx, &path, sender, session, dir)?;
        }
        crate::failpoint("archive-after-export");
        let messages = tx
            .execute("DELETE FROM messages WHERE session_id = ?1", [session])
            .map_err(err)? as u64;
        let meta = tx
            .execute("DELETE FROM session_meta WHERE session_id = ?1", [session])
            .map_err(err)? as u64;
        crate::failpoint("archive-before-commit");
        tx.commit().map_err(err)?;
        Ok(Cleared { messages, meta })
    }

    /// Save the session's rows to `<dir>/archive.jsonl` and
    /// `<dir>/session_meta.json` (as `clear_session` does) without deleting
    /// them, from one read transaction: a consistent copy of a live
    /// session. `dir_root` confines the files written.
    pub fn export_session(
        &mut self,
        dir_root: &DataRoot,
        session: &str,
        dir: &Path,
    ) -> Result<u64> {
        let path = self.path.clone();
        let sender = self.sender_expr();
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Deferred)
            .map_err(|e| Error::sqlite(&path, e))?;
        let rows = export_rows(dir_root, &tx, &path, sender, session, dir)?;
        tx.commit().map_err(|e| Error::sqlite(&path, e))?;
        Ok(rows)
    }

    /// Put saved rows back in one transaction (the insert trigger indexes
    /// them for FTS). With `keep_ids` each row gets its old id back and a
    /// row whose id is already there is skipped: ids are never reused
    /// (AUTOINCREMENT), so that row is this one, put back by an earlier,
    /// interrupted restore. Without (`import` from another root) rows get
    /// new ids, and only when the session has no rows yet. `start_at`
    /// sets the session_meta row. Returns the rows inserted.
    pub fn restore_rows(
        &mut self,
        session: &str,
        rows: &[ArchivedMessage],
        start_at: Option<i64>,
        keep_ids: bool,
    ) -> Result<u64> {
        let path = self.path.clone();
        let has_sender = self.has_sender;
        let err = |e| Error::sqlite(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(err)?;
        let mut inserted = 0u64;
        let fresh = keep_ids
            || tx
                .query_row(
                    "SELECT COUNT(*) FROM messages WHERE session_id = ?1",
                    [session],
                    |r| r.get::<_, i64>(0),
                )
                .map_err(err)?
                == 0;
        for m in rows.iter().filter(|_| fresh) {
            let id = keep_ids.then_some(m.id);
            let n = if has_sender {
                tx.prepare_cached(
                    "INSERT OR IGNORE INTO messages (id, session_id, send_at, role, content, sender) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .and_then(|mut s| s.execute(params![id, session, m.send_at, m.role, m.content, m.sender]))
            } else {
                tx.prepare_cached(
                    "INSERT OR IGNORE INTO messages (id, session_id, send_at, role, content) VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .and_then(|mut s| s.execute(params![id, session, m.send_at, m.role, m.content]))
            }
            .map_err(err)?;
            inserted += n as u64;
        }
        if let Some(t) = start_at {
            set_start_at(&tx, session, t).map_err(err)?;
        }
        crate::failpoint("archive-restore-before-commit");
        tx.commit().map_err(err)?;
        Ok(inserted)
    }

    /// Reverse a compact's archiving in one transaction: delete the rows it
    /// inserted (by id; the delete trigger keeps FTS in step) and put
    /// session_meta.start_at back (`None`: the session had no row). Returns
    /// the rows deleted; a rerun deletes nothing more.
    pub fn unarchive(&mut self, session: &str, ids: &[i64], start_at: Option<i64>) -> Result<u64> {
        let path = self.path.clone();
        let err = |e| Error::sqlite(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(err)?;
        let mut deleted = 0u64;
        for id in ids {
            deleted += tx
                .prepare_cached("DELETE FROM messages WHERE id = ?1 AND session_id = ?2")
                .and_then(|mut s| s.execute(params![id, session]))
                .map_err(err)? as u64;
        }
        match start_at {
            Some(t) => tx.execute(
                "INSERT INTO session_meta (session_id, start_at) VALUES (?1, ?2)
                 ON CONFLICT(session_id) DO UPDATE SET start_at = excluded.start_at",
                params![session, t],
            ),
            None => tx.execute("DELETE FROM session_meta WHERE session_id = ?1", [session]),
        }
        .map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(deleted)
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
        tx.commit().map_err(err)?;
        Ok(missing.len() as u64)
    }

    /// Full-text search of message content (FTS5 MATCH, bm25 rank, best
    /// first). `sessions` empty means every session. A malformed query is a
    /// usage error, not an SQL error.
    pub fn search(&self, q: &ArchiveQuery<'_>) -> Result<Vec<ArchiveHit>> {
        let sessions = serde_json::to_string(&q.sessions).expect("strings serialise");
        let sql = "SELECT m.session_id, m.send_at, m.role, m.content,
                          snippet(messages_fts5, 1, ?5, ?6, '…', 16), bm25(messages_fts5)
                   FROM messages_fts5 JOIN messages m ON m.id = messages_fts5.rowid
                   WHERE messages_fts5 MATCH ?1
                     AND (?2 = '[]' OR m.session_id IN (SELECT value FROM json_each(?2)))
                     AND (?3 IS NULL OR m.role = ?3)
                     AND (?4 IS NULL OR m.send_at >= ?4)
                   ORDER BY bm25(messages_fts5), m.send_at DESC
                   LIMIT ?7";
        let run = || -> rusqlite::Result<Vec<ArchiveHit>> {
            let mut stmt = self.conn.prepare(sql)?;
            let rows = stmt.query_map(
                params![
                    q.fts,
                    sessions,
                    q.role,
                    q.since,
                    q.mark.0,
                    q.mark.1,
                    q.limit as i64
                ],
                |r| {
                    Ok(ArchiveHit {
                        session_id: r.get(0)?,
                        send_at: r.get(1)?,
                        role: r.get(2)?,
                        content: r.get(3)?,
                        snippet: r.get(4)?,
                        score: -r.get::<_, f64>(5)?,
                    })
                },
            )?;
            rows.collect()
        };
        run().map_err(|e| match &e {
            rusqlite::Error::SqliteFailure(_, Some(msg))
                if msg.contains("fts5") || msg.contains("syntax") =>
            {
                Error::usage(format!("invalid full-text query {:?}: {msg}", q.fts))
                    .with_hint("drop --fts to search for the text as a phrase")
            }
            _ => self.err(e),
        })
    }

    /// Indices of `records` that have no archive row of their own (the
    /// multiset rule of `archive_records`, nothing staying). Read-only.
    pub fn missing(&self, session: &str, records: &[Record]) -> Result<Vec<usize>> {
        uncovered(&self.conn, session, records, &[]).map_err(|e| self.err(e))
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
    // so keys borrowed from SQLite rows can be looked up in it.)
    let mut ids: HashMap<MsgKey<'_>, usize> = HashMap::with_capacity(leaving.len());
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

/// Write the session's rows to `<dir>/archive.jsonl` (one row a line) and
/// its `session_meta` row to `<dir>/session_meta.json`, both fsynced.
fn export_rows(
    root: &DataRoot,
    conn: &Connection,
    db_path: &Path,
    sender: &str,
    session: &str,
    dir: &Path,
) -> Result<u64> {
    use std::io::Write;
    let path = dir.join("archive.jsonl");
    let file = files::open(root, &path, files::Mode::Create)?
        .expect("Create mode creates the file")
        .file;
    let mut out = std::io::BufWriter::new(file);
    let mut rows = 0u64;
    Archive::rows_of(conn, db_path, sender, session, |m| {
        serde_json::to_writer(&mut out, &m).map_err(|e| Error::write(&path, e.into()))?;
        out.write_all(b"\n").map_err(|e| Error::write(&path, e))?;
        rows += 1;
        Ok(())
    })?;
    let file = out
        .into_inner()
        .map_err(|e| Error::write(&path, e.into_error()))?;
    file.sync_all().map_err(|e| Error::write(&path, e))?;
    let start_at: Option<i64> = conn
        .query_row(
            "SELECT start_at FROM session_meta WHERE session_id = ?1",
            [session],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| Error::sqlite(db_path, e))?;
    if let Some(start_at) = start_at {
        let meta = serde_json::json!({ "session_id": session, "start_at": start_at });
        atomic::write_atomic(
            root,
            &dir.join("session_meta.json"),
            meta.to_string().as_bytes(),
        )?;
    }
    Ok(rows)
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
pub(crate) mod tests {
    use super::*;

    pub fn seeded(dir: &Path) -> Archive {
        let root = DataRoot::at(dir).unwrap();
        let mut a = Archive::open_write(&root, &root.path().join("history.db")).unwrap();
        let tx = a.connection().transaction().unwrap();
        for (s, t) in [("a", 1), ("a", 2), ("ab", 3), ("b", 4)] {
            Archive::insert(&tx, s, t, "user", &format!("hello {t}"), "").unwrap();
        }
        tx.execute("INSERT INTO session_meta VALUES ('a', 1), ('b', 4)", [])
            .unwrap();
        tx.commit().unwrap();
        a
    }

    #[test]
    fn creates_schema_counts_and_clears_one_session() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = seeded(dir.path());
        let counts = a.counts_by_session().unwrap();
        assert_eq!(counts["a"].messages, 2);
        assert_eq!(counts["a"].oldest_send_at, Some(1));
        assert_eq!(counts["ab"].messages, 1);
        let root = DataRoot::at(dir.path()).unwrap();
        let cleared = a.clear_session(&root, "a", None).unwrap();
        assert_eq!(
            cleared,
            Cleared {
                messages: 2,
                meta: 1
            }
        );
        assert_eq!(a.count_session("ab").unwrap(), 1);
        assert_eq!(a.start_at("b").unwrap(), Some(4));
        a.fts_integrity_check().unwrap();
        let hits: i64 = a
            .connection()
            .query_row(
                "SELECT COUNT(*) FROM messages_fts5 WHERE messages_fts5 MATCH 'hello'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(hits, 2);
    }

    fn rec(role: &str, text: &str, t: i64) -> Record {
        serde_json::from_value(serde_json::json!({"role": role, "content": text, "sendAt": t}))
            .unwrap()
    }

    #[test]
    fn archiving_counts_identical_messages_as_a_multiset() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = seeded(dir.path());
        // two identical records without a time, one identical timed pair
        let leaving = [
            rec("user", "again", 0),
            rec("user", "again", 0),
            rec("user", "hello 1", 1),
            rec("user", "hello 1", 1),
        ];
        assert_eq!(a.missing("a", &leaving).unwrap(), vec![0, 1, 3]);
        assert_eq!(a.archive_records("a", &leaving, &[], None).unwrap(), 3);
        assert_eq!(a.count_session("a").unwrap(), 5);
        // a rerun inserts nothing
        assert_eq!(a.archive_records("a", &leaving, &[], None).unwrap(), 0);
        // a staying copy claims a row first: one more is needed for the leaving one
        let staying = [rec("user", "again", 0), rec("user", "again", 0)];
        assert_eq!(
            a.archive_records("a", &leaving[..1], &staying, None)
                .unwrap(),
            1
        );
    }

    #[test]
    fn not_a_database_or_missing_tables_is_bad_data() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        let p = root.path().join("history.db");
        std::fs::write(&p, vec![b'x'; 4096]).unwrap();
        assert_eq!(Archive::open_read(&root, &p).unwrap_err().exit_code(), 65);
        assert_eq!(Archive::open_write(&root, &p).unwrap_err().exit_code(), 65);
        std::fs::remove_file(&p).unwrap();
        Connection::open(&p)
            .unwrap()
            .execute_batch("CREATE TABLE other(x)")
            .unwrap();
        let err = Archive::open_read(&root, &p).unwrap_err();
        assert_eq!(err.exit_code(), 65);
        assert!(err.to_string().contains("messages"), "{err}");
    }

    #[test]
    fn missing_archive_is_not_created_by_readers() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        let p = root.path().join("history.db");
        assert!(Archive::open_read(&root, &p).unwrap().is_none());
        assert!(!p.exists());
    }
}
