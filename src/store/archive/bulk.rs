//! Deleting a session's rows when they are most of the archive.
//!
//! Through the delete trigger FTS5 tokenizes every deleted row again to
//! write its delete marker: for a session of a million rows that is most of
//! a reset's time. When the session holds at least as many rows as the rest
//! of the archive, re-indexing what remains costs no more than that, so we
//! drop the trigger, delete, rebuild the index from the remaining rows and
//! put the trigger back with its own stored text — all inside the caller's
//! transaction: a crash or an error rolls back schema, rows and index
//! together, and readers never see the archive without its trigger.
//! Only Agenvoy's own schema takes this path; anything else is deleted row
//! by row through whatever triggers it has.

use rusqlite::{Connection, OptionalExtension};

/// Agenvoy's FTS table and triggers as SQLite stores them (`IF NOT EXISTS`
/// dropped), whitespace collapsed; `SCHEMA` in mod.rs creates them.
const FTS_TABLE: &str = "CREATE VIRTUAL TABLE messages_fts5 USING fts5(role, content, content=messages, content_rowid=id)";
const INSERT_TRIGGER: &str = "CREATE TRIGGER trigger_messages_after_insert AFTER INSERT ON messages BEGIN INSERT INTO messages_fts5(rowid, role, content) VALUES (new.id, new.role, new.content); END";
const DELETE_TRIGGER: &str = "CREATE TRIGGER trigger_messages_after_delete AFTER DELETE ON messages BEGIN INSERT INTO messages_fts5(messages_fts5, rowid, role, content) VALUES ('delete', old.id, old.role, old.content); END";

/// Delete the session's `messages` rows (inside the caller's transaction),
/// keeping the FTS index in step; returns the rows deleted.
pub(super) fn delete_session(conn: &Connection, session: &str) -> rusqlite::Result<u64> {
    if let Some(trigger) = rebuild_is_cheaper(conn, session)? {
        return delete_and_rebuild(conn, session, &trigger);
    }
    conn.execute("DELETE FROM messages WHERE session_id = ?1", [session])
        .map(|n| n as u64)
}

/// The delete trigger's stored text when the schema is Agenvoy's and the
/// session has at least as many rows as all other sessions together.
fn rebuild_is_cheaper(conn: &Connection, session: &str) -> rusqlite::Result<Option<String>> {
    let mine: i64 = conn.query_row(
        "SELECT COUNT(*) FROM messages WHERE session_id = ?1",
        [session],
        |r| r.get(0),
    )?;
    if mine == 0 {
        return Ok(None);
    }
    // Counting stops one past `mine`: the rest may be far larger.
    let others: i64 = conn.query_row(
        "SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE session_id <> ?1 LIMIT ?2)",
        rusqlite::params![session, mine + 1],
        |r| r.get(0),
    )?;
    if others > mine {
        return Ok(None);
    }
    agenvoy_delete_trigger(conn)
}

/// The stored text of Agenvoy's delete trigger, if the FTS table and the
/// triggers on `messages` are exactly Agenvoy's two and nothing else.
fn agenvoy_delete_trigger(conn: &Connection) -> rusqlite::Result<Option<String>> {
    let fts: Option<String> = conn
        .query_row(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts5'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    if fts.as_deref().map(normalized) != Some(FTS_TABLE.to_owned()) {
        return Ok(None);
    }
    let mut stmt = conn.prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'messages' COLLATE NOCASE",
    )?;
    let triggers = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut delete = None;
    for (name, sql) in triggers {
        match (name.as_str(), normalized(&sql)) {
            ("trigger_messages_after_insert", s) if s == INSERT_TRIGGER => {}
            ("trigger_messages_after_delete", s) if s == DELETE_TRIGGER => delete = Some(sql),
            _ => return Ok(None),
        }
    }
    Ok(delete)
}

fn delete_and_rebuild(conn: &Connection, session: &str, trigger: &str) -> rusqlite::Result<u64> {
    conn.execute_batch("DROP TRIGGER trigger_messages_after_delete")?;
    let n = conn.execute("DELETE FROM messages WHERE session_id = ?1", [session])?;
    crate::failpoint("archive-bulk-before-rebuild");
    conn.execute(
        "INSERT INTO messages_fts5(messages_fts5) VALUES ('rebuild')",
        [],
    )?;
    conn.execute_batch(trigger)?;
    Ok(n as u64)
}

/// `sql` with runs of whitespace made one space and `IF NOT EXISTS`
/// dropped, as SQLite stores a CREATE statement.
fn normalized(sql: &str) -> String {
    sql.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" IF NOT EXISTS ", " ")
}

#[cfg(test)]
mod tests {
    use super::super::tests::seeded;
    use super::super::Archive;
    use super::*;
    use crate::store::layout::DataRoot;

    fn schema_of(a: &mut Archive) -> Vec<(String, String)> {
        let mut stmt = a
            .connection()
            .prepare("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
            .unwrap();
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)));
        rows.unwrap().map(Result::unwrap).collect()
    }

    /// FTS5 index pages besides its averages (1) and structure (10) records.
    fn fts_pages(a: &mut Archive) -> i64 {
        a.connection()
            .query_row(
                "SELECT COUNT(*) FROM messages_fts5_data WHERE id NOT IN (1, 10)",
                [],
                |r| r.get(0),
            )
            .unwrap()
    }

    fn hits(a: &mut Archive, word: &str) -> Vec<i64> {
        let mut stmt = a
            .connection()
            .prepare("SELECT rowid FROM messages_fts5 WHERE messages_fts5 MATCH ?1 ORDER BY rowid")
            .unwrap();
        let rows = stmt.query_map([word], |r| r.get(0));
        rows.unwrap().map(Result::unwrap).collect()
    }

    #[test]
    fn a_session_holding_most_rows_is_deleted_by_rebuilding_the_index() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = seeded(dir.path()); // a: 2 rows, ab: 1, b: 1
        let root = DataRoot::at(dir.path()).unwrap();
        a.clear_session(&root, "ab", None).unwrap(); // 1 of 4 rows: row by row
        let schema = schema_of(&mut a);
        let cleared = a.clear_session(&root, "a", None).unwrap();
        assert_eq!(cleared.messages, 2);
        // the index was rebuilt from the one row left: no delete markers
        // kept beside the old segments, as the trigger would leave them
        assert_eq!(fts_pages(&mut a), 1);
        assert_eq!(hits(&mut a, "hello"), vec![4]);
        a.fts_integrity_check().unwrap();
        assert_eq!(schema_of(&mut a), schema, "triggers put back as they were");
        // the trigger still deletes from the index
        a.clear_session(&root, "b", None).unwrap();
        assert!(hits(&mut a, "hello").is_empty());
        a.fts_integrity_check().unwrap();
    }

    #[test]
    fn an_unknown_trigger_on_messages_keeps_the_row_by_row_delete() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = seeded(dir.path());
        a.connection()
            .execute_batch(
                "CREATE TABLE gone(id INTEGER);
                 CREATE TRIGGER audit AFTER DELETE ON messages BEGIN INSERT INTO gone VALUES (old.id); END;",
            )
            .unwrap();
        let root = DataRoot::at(dir.path()).unwrap();
        a.clear_session(&root, "a", None).unwrap();
        let audited: i64 = a
            .connection()
            .query_row("SELECT COUNT(*) FROM gone", [], |r| r.get(0))
            .unwrap();
        assert_eq!(audited, 2, "every trigger fired for every row");
        assert_eq!(hits(&mut a, "hello"), vec![3, 4]);
        a.fts_integrity_check().unwrap();
    }

    #[test]
    fn the_recognised_statements_are_the_ones_we_create() {
        let schema = normalized(super::super::SCHEMA);
        for stmt in [FTS_TABLE, INSERT_TRIGGER, DELETE_TRIGGER] {
            assert!(schema.contains(stmt), "{stmt} is not in SCHEMA");
        }
    }
}
