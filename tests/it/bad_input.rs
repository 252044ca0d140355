//! Hostile and broken input: a clear one-line error naming the file, the
//! right exit code, and nothing modified.

use crate::common::*;

#[test]
fn corrupt_history_or_summary_is_65_naming_the_file_and_changes_nothing() {
    for (file, bytes) in [
        (
            "history.json",
            &b"[{\"role\":\"user\",\"content\":\"trunc"[..],
        ),
        ("history.json", b"\xff\xfe not utf8"),
        ("summary.json", b"{\"key_decisions\": ["),
    ] {
        let root = fixture_copy();
        let r = root.path();
        std::fs::write(r.join("sessions/tui-alice").join(file), bytes).unwrap();
        let before = snapshot(r);
        // --mode summary must merge the conversation first: it cannot
        let out = sessionctl(r)
            .args(["reset", "tui-alice", "--mode", "summary", "--yes"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(65), "{file}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(file), "error must name {file}: {err}");
        assert!(err
            .lines()
            .next()
            .unwrap()
            .starts_with("sessionctl: error:"));
        assert_eq!(before, snapshot(r), "{file}: nothing may change");
        // listing still shows every session, flags the broken one, exits 65
        let out = sessionctl(r)
            .args(["sessions", "list", "--json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(65));
        assert_eq!(results(&out).len(), 3);
        // with --json the problem is in the envelope's errors, not on stderr
        let v = json_of(&out);
        assert_eq!(v["ok"], false);
        assert_eq!(v["errors"][0]["session"], "tui-alice");
        assert!(v["errors"][0]["message"].as_str().unwrap().contains(file));
        let out = sessionctl(r).args(["show", "tui-alice"]).output().unwrap();
        assert_eq!(out.status.code(), Some(65));
    }
}

/// A corrupt history.json or summary.json is when users reach for
/// `reset --mode all` or `remove`: both work, and the broken file goes to
/// the trash unparsed, byte for byte.
#[test]
fn reset_all_and_remove_take_corrupt_sessions_to_the_trash() {
    for (file, bytes) in [
        (
            "history.json",
            &b"[{\"role\":\"user\",\"content\":\"trunc"[..],
        ),
        ("summary.json", b"{\"key_decisions\": ["),
        ("history.json", b"\xff\xfe not utf8"),
    ] {
        for args in [
            &["reset", "tui-alice", "--mode", "all", "--yes", "--json"][..],
            &["remove", "tui-alice", "--yes", "--json"],
        ] {
            let root = fixture_copy();
            let r = root.path();
            std::fs::write(r.join("sessions/tui-alice").join(file), bytes).unwrap();
            let out = sessionctl(r).args(args).output().unwrap();
            assert!(out.status.success(), "{args:?} {file}: {}", stderr(&out));
            assert_eq!(archive_count(r, "tui-alice"), 0);
            assert!(db1_keys(r).iter().all(|k| !k.starts_with("tui-alice:")));
            let trash = one(&out)["trash"].as_str().unwrap().to_owned();
            assert_eq!(
                std::fs::read(std::path::Path::new(&trash).join(file)).unwrap(),
                bytes
            );
        }
    }
}

/// An archive from an older Agenvoy (no `sender` column) is read and
/// cleared like any other, never half-way: checked before anything moves.
#[test]
fn an_archive_without_the_sender_column_is_handled_before_anything_moves() {
    let root = fixture_copy();
    let r = root.path();
    let db = sqlite(r);
    db.execute_batch(
        "DROP TRIGGER IF EXISTS trigger_messages_after_insert;
         DROP TRIGGER IF EXISTS trigger_messages_after_delete;
         ALTER TABLE messages DROP COLUMN sender;
         CREATE TRIGGER trigger_messages_after_insert AFTER INSERT ON messages BEGIN
           INSERT INTO messages_fts5(rowid, role, content) VALUES (new.id, new.role, new.content); END;
         CREATE TRIGGER trigger_messages_after_delete AFTER DELETE ON messages BEGIN
           INSERT INTO messages_fts5(messages_fts5, rowid, role, content) VALUES ('delete', old.id, old.role, old.content); END;",
    )
    .unwrap();
    drop(db);
    let out = sessionctl(r)
        .args(["remove", "tui-alice", "--yes", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let trash = std::path::PathBuf::from(one(&out)["trash"].as_str().unwrap());
    let rows = std::fs::read_to_string(trash.join(".sessionctl/archive.jsonl")).unwrap();
    assert_eq!(rows.lines().count(), 4, "{rows}");
    assert!(rows.contains("\"sender\":\"\""));
    assert_eq!(archive_count(r, "tui-alice"), 0);
    fts_integrity_ok(r);
    // a table without a column we need is refused before anything moves
    let root = fixture_copy();
    let r = root.path();
    sqlite(r)
        .execute_batch(
            "DROP TABLE session_meta; CREATE TABLE session_meta(session_id TEXT PRIMARY KEY);",
        )
        .unwrap();
    let before = snapshot(r);
    let out = sessionctl(r)
        .args(["remove", "tui-alice", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
    assert!(stderr(&out).contains("history.db"));
    assert_eq!(before, snapshot(r));
}

#[test]
fn unknown_session_is_66_and_bad_ids_are_64() {
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    let out = sessionctl(r).args(["show", "nobody"]).output().unwrap();
    assert_eq!(out.status.code(), Some(66));
    assert!(stderr(&out).contains("unknown session 'nobody'"));
    let out = sessionctl(r)
        .args(["reset", "nobody", "--mode", "all", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(66));
    for bad in ["../x", "a/b", "..", ".Trash", "a\\b", "/etc"] {
        for args in [
            vec!["show", bad],
            vec!["reset", bad, "--mode", "all", "--yes"],
            vec!["remove", bad, "--yes", "--purge"],
        ] {
            let out = sessionctl(r).args(&args).output().unwrap();
            assert_eq!(out.status.code(), Some(64), "{args:?}: {}", stderr(&out));
        }
    }
    assert_eq!(before, snapshot(r));
}

#[test]
fn missing_root_is_66() {
    let out = sessionctl(std::path::Path::new("/nonexistent/agenvoy"))
        .args(["sessions", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(66));
    assert!(
        stderr(&out).contains("--root"),
        "the hint says how to fix it"
    );
}

#[test]
fn archive_that_is_not_a_database_is_65() {
    let root = fixture_copy();
    let r = root.path();
    std::fs::write(r.join(".store/history.db"), vec![b'z'; 8192]).unwrap();
    let before = snapshot(r);
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
    assert!(stderr(&out).contains("history.db"));
    let out = sessionctl(r).args(["sessions", "list"]).output().unwrap();
    assert_eq!(out.status.code(), Some(65));
    assert_eq!(before, snapshot(r));
}

#[test]
fn archive_without_agenvoy_tables_is_65() {
    let root = fixture_copy();
    let r = root.path();
    sqlite(r).execute_batch("DROP TABLE session_meta").unwrap();
    let out = sessionctl(r)
        .args(["remove", "tui-alice", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65));
    assert!(stderr(&out).contains("session_meta"));
    assert!(r.join("sessions/tui-alice").exists());
}

#[test]
fn an_over_long_toriidb_line_is_reported_and_writes_leave_a_readable_log() {
    let root = fixture_copy();
    let r = root.path();
    let aof = r.join(".store/db_1/record.aof");
    let mut log = std::fs::read(&aof).unwrap();
    let big = format!(
        "{{\"ts\":1796220417,\"cmd\":\"SET\",\"key\":\"discord-9001:1764600010000000000\",\"value\":\"{}\"}}\n",
        "y".repeat(70_000)
    );
    log.extend_from_slice(big.as_bytes());
    std::fs::write(&aof, &log).unwrap();

    let out = sessionctl(r).args(["sessions", "list"]).output().unwrap();
    assert!(out.status.success());
    assert!(stderr(&out).contains("EMPTY"), "{}", stderr(&out));
    let out = sessionctl(r).args(["show", "tui-alice"]).output().unwrap();
    assert!(stderr(&out).contains("65,535"));

    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "summary", "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    logs_are_toriidb_readable(r);
    let keys = db1_keys(r);
    assert_eq!(keys.len(), 3, "{keys:?}");
    assert!(keys.contains(&"tui-alice-2:1764700000000000000".to_string()));
    // the entry ToriiDB could not hold is kept beside the log, with a backup
    let kept: Vec<_> = std::fs::read_dir(r.join(".store/db_1"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".oversize") || n.ends_with(".bak"))
        .collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
}

#[test]
fn a_torn_last_line_is_reported_and_does_not_eat_our_write() {
    let root = fixture_copy();
    let r = root.path();
    let aof = r.join(".store/db_1/record.aof");
    let mut log = std::fs::read(&aof).unwrap();
    log.extend_from_slice(b"{\"ts\":1796220417,\"cmd\":\"SET\",\"key\":\"tui-alice-2:1764700001000000000\",\"value\":\"to");
    std::fs::write(&aof, &log).unwrap();
    let out = sessionctl(r).args(["sessions", "list"]).output().unwrap();
    assert!(stderr(&out).contains("no newline"), "{}", stderr(&out));
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all", "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let keys = db1_keys(r);
    assert!(
        keys.iter().all(|k| !k.starts_with("tui-alice:")),
        "{keys:?}"
    );
    assert_eq!(keys.len(), 3);
}

#[test]
fn a_running_agenvoy_blocks_writes_with_75_unless_forced() {
    let root = fixture_copy();
    let r = root.path();
    // a live Agenvoy daemon working in this root
    let daemon = FakeProcess::spawn("agenvoy", r, r);
    daemon.write_runtime_uid(r);
    let before = snapshot(r);
    let out = sessionctl(r)
        .args([
            "reset",
            "tui-alice",
            "--mode",
            "all",
            "--yes",
            "--via",
            "files",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(75));
    assert!(stderr(&out).contains("Agenvoy is running"));
    assert!(stderr(&out).contains("--force"));
    assert_eq!(before, snapshot(r));
    // a dry run still works and warns
    let out = sessionctl(r)
        .args(["remove", "tui-alice", "--dry-run", "--via", "files"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(stderr(&out).contains("running"));
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all", "--yes", "--force"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_held_lock_is_75() {
    let root = fixture_copy();
    let r = root.path();
    std::fs::create_dir_all(r.join(".sessionctl/locks")).unwrap();
    let lock = std::fs::File::create(r.join(".sessionctl/locks/session-tui-alice.lock")).unwrap();
    lock.lock().unwrap();
    let before = snapshot(r);
    let out = sessionctl(r)
        .args(["remove", "tui-alice", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(75), "{}", stderr(&out));
    assert!(stderr(&out).contains("locked"));
    assert_eq!(before, snapshot(r));
    // other sessions are not blocked
    let out = sessionctl(r)
        .args(["remove", "discord-9001", "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success());
}

#[test]
fn a_read_only_root_is_73_and_unchanged() {
    let Some(fs) = Tmpfs::mount("16m") else {
        eprintln!("skipped: mounting a tmpfs needs root");
        return;
    };
    let r = fs.dir.path();
    copy_fixture(r);
    // our lock folder exists already, as after any earlier run
    std::fs::create_dir_all(r.join(".sessionctl/locks")).unwrap();
    fs.remount_read_only();
    let before = snapshot(r);
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(73), "{}", stderr(&out));
    let out = sessionctl(r)
        .args(["remove", "tui-alice", "--yes", "--purge"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(73), "{}", stderr(&out));
    assert_eq!(before, snapshot(r));
    // reading still works
    assert!(sessionctl(r)
        .args(["sessions", "list"])
        .output()
        .unwrap()
        .status
        .success());
}

#[test]
fn symlinks_out_of_the_root_are_never_followed_or_deleted() {
    let outside = tempfile::tempdir().unwrap();
    let sentinel = outside.path().join("sentinel.json");
    std::fs::write(&sentinel, b"[]").unwrap();
    std::fs::create_dir_all(outside.path().join("dir")).unwrap();
    std::fs::write(outside.path().join("dir/keep.json"), b"[]").unwrap();

    let root = fixture_copy();
    let r = root.path();
    // a session folder that is a link to outside, a history/ that is a link to outside
    std::os::unix::fs::symlink(outside.path(), r.join("sessions/evil")).unwrap();
    std::fs::remove_dir_all(r.join("sessions/tui-alice/history")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("dir"),
        r.join("sessions/tui-alice/history"),
    )
    .unwrap();

    let out = sessionctl(r)
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    assert!(stderr(&out).contains("symbolic link"));
    assert_eq!(results(&out).len(), 3);
    let out = sessionctl(r).args(["show", "evil"]).output().unwrap();
    assert_eq!(out.status.code(), Some(65));
    let out = sessionctl(r).args(["show", "tui-alice"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(65),
        "history/ leaves the root: refused"
    );
    assert!(stderr(&out).contains("outside the data root"));

    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all", "--yes", "--purge"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !r.join("sessions/tui-alice/history").exists(),
        "the link itself is removed"
    );
    let out = sessionctl(r)
        .args(["remove", "evil", "--yes", "--purge"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(r.join("sessions/evil")).is_err());

    assert_eq!(std::fs::read(&sentinel).unwrap(), b"[]");
    assert!(outside.path().join("dir/keep.json").exists());
}

#[test]
fn a_broken_pipe_is_a_clean_exit() {
    let root = fixture_copy();
    // enough rows to overflow the 64 KiB pipe buffer, so the write fails with EPIPE
    for i in 0..1500 {
        let dir = root.path().join(format!("sessions/bulk-{i:05}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("history.json"), b"[]").unwrap();
    }
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sessionctl"))
        .args(["--root"])
        .arg(root.path())
        .args(["sessions", "list"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away at once
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
