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
    serde_json::from_value(serde_json::json!({"role": role, "content": text, "sendAt": t})).unwrap()
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
