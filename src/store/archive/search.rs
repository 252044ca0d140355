//! Full-text search of the archive (FTS5, ranked by bm25).

use super::*;

impl Archive {
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
}
