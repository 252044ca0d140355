//! reset and remove against docs/agenvoy-format.md#manual-actions, on a copy of the fixture.

use crate::common::*;

const ALICE_KEYS: [&str; 4] = [
    "tui-alice:1764547200000000000",
    "tui-alice:1764547205000000000",
    "tui-alice:1764547300000000000",
    "tui-alice:1764547310000000000",
];

#[test]
fn reset_summary_clears_the_conversation_and_keeps_the_summary() {
    let root = fixture_copy();
    let r = root.path();
    let session = r.join("sessions/tui-alice");
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "summary", "--yes", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(v["action"], "reset");
    assert_eq!(v["mode"], "summary");
    assert_eq!(v["session"], "tui-alice");
    assert_eq!(v["removed_torii_keys"], 4);
    assert_eq!(v["removed_archive_rows"], 4);
    assert_eq!(
        v["removed_files"],
        serde_json::json!(["history.json", "history", "pending", "action.log"])
    );

    // files: the conversation is gone, everything else stays
    for gone in ["history.json", "history", "pending", "action.log"] {
        assert!(!session.join(gone).exists(), "{gone} should be gone");
    }
    for kept in [
        "summary.json",
        "summary.meta.json",
        "usage.log",
        "config.json",
    ] {
        assert!(session.join(kept).exists(), "{kept} should stay");
    }
    // SQLite: only this session's rows; FTS stays consistent; file_history untouched
    assert_eq!(archive_count(r, "tui-alice"), 0);
    assert_eq!(meta_count(r, "tui-alice"), 0);
    assert_eq!(archive_count(r, "tui-alice-2"), 1);
    assert_eq!(archive_count(r, "discord-9001"), 2);
    assert_eq!(meta_count(r, "tui-alice-2"), 1);
    fts_integrity_ok(r);
    let file_history: i64 = sqlite(r)
        .query_row("SELECT COUNT(*) FROM file_history", [], |x| x.get(0))
        .unwrap();
    assert_eq!(file_history, 1);
    // ToriiDB: tui-alice:* gone, the prefix sibling survives, db2 untouched
    let keys = db1_keys(r);
    assert!(ALICE_KEYS.iter().all(|k| !keys.contains(&k.to_string())));
    assert!(keys.contains(&"tui-alice-2:1764700000000000000".to_string()));
    assert_eq!(keys.len(), 3);
    assert_eq!(
        std::fs::read(r.join(".store/db_2/record.aof")).unwrap(),
        std::fs::read(fixture_root().join(".store/db_2/record.aof")).unwrap()
    );
    logs_are_toriidb_readable(r);

    // everything taken away is recoverable from the trash
    let trash = std::path::PathBuf::from(v["trash"].as_str().unwrap());
    assert!(trash.starts_with(r.canonicalize().unwrap().join("sessions/.Trash")));
    assert_eq!(
        std::fs::read(trash.join("history.json")).unwrap(),
        std::fs::read(fixture_root().join("sessions/tui-alice/history.json")).unwrap()
    );
    assert!(trash.join("history/5e1f.json").exists());
    let archived = std::fs::read_to_string(trash.join("archive.jsonl")).unwrap();
    assert_eq!(archived.lines().count(), 4);
    assert!(archived.contains("How do I rotate the nginx logs every night?"));
    let torii = std::fs::read_to_string(trash.join("torii-db1.jsonl")).unwrap();
    assert_eq!(torii.lines().count(), 4);
    assert!(
        torii.contains("mpkZP83MTD8AAAAAAAAAAA=="),
        "the vector is kept in the backup"
    );

    // a second reset finds nothing left and succeeds
    let again = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "summary", "--yes", "--json"])
        .output()
        .unwrap();
    assert!(again.status.success());
    let v = one(&again);
    assert_eq!(
        (
            v["removed_torii_keys"].as_u64(),
            v["removed_archive_rows"].as_u64()
        ),
        (Some(0), Some(0))
    );
}

#[test]
fn reset_all_deletes_the_summary_too() {
    let root = fixture_copy();
    let r = root.path();
    let out = sessionctl(r)
        .args([
            "reset",
            "tui-alice",
            "--mode",
            "all",
            "--yes",
            "--purge",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(v["mode"], "all");
    assert!(v["trash"].is_null(), "--purge keeps no copy");
    let s = r.join("sessions/tui-alice");
    assert!(!s.join("summary.json").exists() && !s.join("summary.meta.json").exists());
    assert!(s.join("usage.log").exists() && s.join("config.json").exists());
    assert!(!r.join("sessions/.Trash").exists());
}

#[test]
fn reset_of_another_session_keeps_the_vector_line_replayable() {
    let root = fixture_copy();
    let r = root.path();
    assert!(sessionctl(r)
        .args(["reset", "discord-9001", "--mode", "all", "--yes"])
        .output()
        .unwrap()
        .status
        .success());
    let db1 = db(r, 1);
    let e = db1
        .get("tui-alice:1764547200000000000")
        .expect("vector entry survives");
    assert_eq!(e.vector_f32().unwrap(), vec![0.6, 0.8, 0.0, 0.0]);
    assert_eq!(db1.session_keys("discord-9001", 0).len(), 0);
    assert_eq!(db1.report.malformed + db1.report.unknown_format, 0);
}

#[test]
fn several_sessions_give_a_json_list() {
    let root = fixture_copy();
    let out = sessionctl(root.path())
        .args([
            "reset",
            "tui-alice",
            "discord-9001",
            "--mode",
            "summary",
            "--yes",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let list = results(&out);
    assert_eq!(list.len(), 2);
    assert_eq!(list[1]["session"], "discord-9001");
    assert_eq!(list[1]["removed_torii_keys"], 2);
}

#[test]
fn dry_run_reports_the_same_and_changes_nothing() {
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all", "--dry-run", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v = one(&out);
    assert_eq!(v["dry_run"], true);
    assert_eq!(v["removed_torii_keys"], 4);
    assert_eq!(v["removed_archive_rows"], 4);
    assert_eq!(v["removed_files"].as_array().unwrap().len(), 6);
    let out = sessionctl(r)
        .args(["remove", "tui-alice", "--dry-run"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("dry run"));
    assert_eq!(before, snapshot(r));
}

#[test]
fn destructive_commands_need_yes_without_a_terminal() {
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--yes"));
    let out = sessionctl(r)
        .args(["remove", "tui-alice"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    // --mode has no silent default
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    // no target at all
    let out = sessionctl(r)
        .args(["reset", "--mode", "all", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert_eq!(before, snapshot(r));
}

#[test]
fn remove_moves_the_folder_to_the_trash_and_clears_the_stores() {
    let root = fixture_copy();
    let r = root.path();
    let out = sessionctl(r)
        .args(["remove", "tui-alice", "--yes", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(v["action"], "remove");
    assert_eq!(v["removed_torii_keys"], 4);
    assert_eq!(v["removed_archive_rows"], 4);
    assert!(!r.join("sessions/tui-alice").exists());
    let trash = std::path::PathBuf::from(v["trash"].as_str().unwrap());
    let name = trash.file_name().unwrap().to_str().unwrap();
    // Agenvoy's stamp layout: <id>_YYYYMMDD_HHMMSS.mmm
    assert!(
        name.starts_with("tui-alice_") && name.len() == "tui-alice_".len() + 19,
        "{name}"
    );
    assert!(trash.join("summary.json").exists() && trash.join("config.json").exists());
    assert!(trash.join(".sessionctl/archive.jsonl").exists());
    assert_eq!(archive_count(r, "tui-alice"), 0);
    assert_eq!(archive_count(r, "tui-alice-2"), 1);
    assert_eq!(db1_keys(r).len(), 3);
    fts_integrity_ok(r);
    // the trash is not a session
    let list = sessionctl(r)
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    assert_eq!(results(&list).len(), 2);
    // removing it again: nothing anywhere any more
    let again = sessionctl(r)
        .args(["remove", "tui-alice", "--yes"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(66));
}

#[test]
fn remove_purge_deletes_and_finishes_an_interrupted_remove() {
    let root = fixture_copy();
    let r = root.path();
    // an earlier remove died after deleting the folder: rows and keys remain
    std::fs::remove_dir_all(r.join("sessions/discord-9001")).unwrap();
    let out = sessionctl(r)
        .args(["remove", "discord-9001", "--purge", "--yes", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(v["removed_torii_keys"], 2);
    assert_eq!(v["removed_archive_rows"], 2);
    assert_eq!(v["removed_files"], serde_json::json!([]));
    assert_eq!(archive_count(r, "discord-9001"), 0);
    assert!(!r.join("sessions/.Trash").exists());

    let out = sessionctl(r)
        .args(["remove", "tui-alice-2", "--purge", "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!r.join("sessions/tui-alice-2").exists());
    assert_eq!(db1_keys(r).len(), 4, "only tui-alice's keys remain");
}

#[test]
fn remove_all_with_filters() {
    let root = fixture_copy();
    let r = root.path();
    let out = sessionctl(r)
        .args(["remove", "--all", "--match", "tui-*", "--yes", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(results(&out).len(), 2);
    assert!(r.join("sessions/discord-9001").exists());
    assert_eq!(
        db1_keys(r),
        [
            "discord-9001:1764600000000000000",
            "discord-9001:1764600009000000000"
        ]
    );
}

#[test]
fn reset_of_a_session_without_a_folder_says_what_its_stores_still_hold() {
    let root = fixture_copy();
    let r = root.path();
    // the folder gone, its rows and keys left (as an interrupted import
    // or remove leaves them)
    std::fs::remove_dir_all(r.join("sessions/tui-alice")).unwrap();
    assert_eq!(archive_count(r, "tui-alice"), 4);
    let before = snapshot(r);
    for extra in [&["--dry-run"][..], &["--yes"][..], &["--yes", "--json"][..]] {
        let out = sessionctl(r)
            .args(["reset", "tui-alice", "--mode", "all"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(66), "{extra:?}");
        let said = if extra.contains(&"--json") {
            let e = &json_of(&out)["errors"][0];
            format!("{} {}", e["message"], e["hint"])
        } else {
            String::from_utf8_lossy(&out.stderr).into_owned()
        };
        assert!(!said.contains("no archive rows"), "{extra:?}: {said}");
        assert!(!said.contains("no ToriiDB keys"), "{extra:?}: {said}");
        assert!(said.contains("4 archive rows"), "{extra:?}: {said}");
        assert!(said.contains("4 ToriiDB keys"), "{extra:?}: {said}");
        assert!(said.contains("remove tui-alice"), "{extra:?}: {said}");
        assert_eq!(snapshot(r), before, "{extra:?}: nothing changes");
    }
    // remove finds the same and takes them away
    let out = sessionctl(r)
        .args(["remove", "tui-alice", "--yes", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(one(&out)["removed_archive_rows"], 4);
    assert_eq!(one(&out)["removed_torii_keys"], 4);
    // and a session no tier has is unknown, as before
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(66));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no folder, no archive rows"));
}
