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
        let archive = Archive::configure(conn, path, phys)?;
        archive.check_schema()?;
        Ok(Some(archive))
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
        let archive = Archive::configure(conn, path, phys)?;
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
            phys,
        })
    }

    /// A file that is not a database, or lacks Agenvoy's tables, is bad data.
    fn check_schema(&self) -> Result<()> {
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
        Ok(())
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
        mut each: impl FnMut(ArchivedMessage) -> Result<()>,
    ) -> Result<()> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, session_id, send_at, role, content, sender FROM messages
                 WHERE session_id = ?1 ORDER BY send_at, id",
            )
            .map_err(|e| self.err(e))?;
        let mut rows = stmt.query([session]).map_err(|e| self.err(e))?;
        while let Some(r) = rows.next().map_err(|e| self.err(e))? {
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
            .map_err(|e| self.err(e))?;
            each(msg)?;
        }
        Ok(())
    }

    /// Delete the session's `messages` and `session_meta` rows in one
    /// transaction. The delete trigger keeps the FTS index in step.
    pub fn clear_session(&mut self, session: &str) -> Result<Cleared> {
        let path = self.path.clone();
        let err = |e| Error::sqlite(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(err)?;
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

    /// Insert a message unless an identical one (same session, send_at,
    /// role and content) is already archived. Returns whether it inserted.
    pub fn insert_if_missing(
        tx: &rusqlite::Transaction<'_>,
        session: &str,
        send_at: i64,
        role: &str,
        content: &str,
        sender: &str,
    ) -> rusqlite::Result<bool> {
        let exists = tx
            .prepare_cached(
                "SELECT 1 FROM messages WHERE session_id = ?1 AND send_at = ?2 AND role = ?3
                 AND content = ?4 LIMIT 1",
            )?
            .exists(params![session, send_at, role, content])?;
        if exists {
            return Ok(false);
        }
        Archive::insert(tx, session, send_at, role, content, sender)?;
        Ok(true)
    }

    fn insert(
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

    /// (role, content) of the session's archived rows that have no send_at.
    fn zero_rows(
        tx: &rusqlite::Transaction<'_>,
        session: &str,
    ) -> rusqlite::Result<std::collections::HashSet<(String, String)>> {
        let mut stmt =
            tx.prepare("SELECT role, content FROM messages WHERE session_id = ?1 AND send_at = 0")?;
        let rows = stmt.query_map([session], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect()
    }

    /// In one transaction: archive every record not yet archived (same
    /// session, send_at, role and text) and point `session_meta.start_at`
    /// at `start_at`. Returns how many rows were inserted.
    pub fn archive_records(
        &mut self,
        session: &str,
        records: &[crate::store::history::Record],
        start_at: Option<i64>,
    ) -> Result<u64> {
        let path = self.path.clone();
        let err = |e| Error::sqlite(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(err)?;
        // Records with a sendAt are checked by the (session_id, send_at)
        // index. Those without one all share send_at = 0, where an indexed
        // lookup would scan every such row per record (quadratic), so their
        // archived (role, content) pairs are read once into a set.
        let mut zero_rows: Option<std::collections::HashSet<(String, String)>> = None;
        let mut inserted = 0;
        for r in records {
            let text = r.text();
            if r.send_at == 0 {
                let rows = match &mut zero_rows {
                    Some(rows) => rows,
                    None => zero_rows.insert(Archive::zero_rows(&tx, session).map_err(err)?),
                };
                if rows.insert((r.role.clone(), text.to_string())) {
                    Archive::insert(&tx, session, 0, &r.role, &text, &r.sender).map_err(err)?;
                    inserted += 1;
                }
                continue;
            }
            if Archive::insert_if_missing(&tx, session, r.send_at, &r.role, &text, &r.sender)
                .map_err(err)?
            {
                inserted += 1;
            }
        }
        if let Some(t) = start_at {
            tx.execute(
                "INSERT INTO session_meta (session_id, start_at) VALUES (?1, ?2)
                 ON CONFLICT(session_id) DO UPDATE SET start_at = excluded.start_at",
                params![session, t],
            )
            .map_err(err)?;
        }
        crate::failpoint("archive-before-commit");
        tx.commit().map_err(err)?;
        Ok(inserted)
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

    /// Indices of `records` that have no identical row (session, send_at,
    /// role, text) in the archive. Read-only.
    pub fn missing(
        &self,
        session: &str,
        records: &[crate::store::history::Record],
    ) -> Result<Vec<usize>> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT 1 FROM messages WHERE session_id = ?1 AND send_at = ?2 AND role = ?3 AND content = ?4 LIMIT 1",
            )
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for (i, r) in records.iter().enumerate() {
            let exists = stmt
                .exists(params![session, r.send_at, r.role, r.text().as_ref()])
                .map_err(|e| self.err(e))?;
            if !exists {
                out.push(i);
            }
        }
        Ok(out)
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn seeded(dir: &Path) -> Archive {
        let root = DataRoot::at(dir).unwrap();
        let mut a = Archive::open_write(&root, &root.path().join("history.db")).unwrap();
        let tx = a.connection().transaction().unwrap();
        for (s, t) in [("a", 1), ("a", 2), ("ab", 3), ("b", 4)] {
            Archive::insert_if_missing(&tx, s, t, "user", &format!("hello {t}"), "").unwrap();
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
        let cleared = a.clear_session("a").unwrap();
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

    #[test]
    fn insert_if_missing_is_idempotent() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = seeded(dir.path());
        let tx = a.connection().transaction().unwrap();
        assert!(!Archive::insert_if_missing(&tx, "a", 1, "user", "hello 1", "").unwrap());
        assert!(Archive::insert_if_missing(&tx, "a", 1, "user", "different", "").unwrap());
        tx.commit().unwrap();
        assert_eq!(a.count_session("a").unwrap(), 3);
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
