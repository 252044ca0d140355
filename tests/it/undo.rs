//! Every write can be undone: the operation log, `undo`, and the Trash as
//! bundles.

use crate::common::*;
use crate::undo_support::state;

use std::path::{Path, PathBuf};

fn ok(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn run(r: &Path, args: &[&str]) -> std::process::Output {
    let out = sessionctl(r).args(args).output().unwrap();
    ok(&out);
    out
}

fn trash_entries(r: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(r.join("sessions/.Trash"))
        .map(|rd| {
            rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn undo_puts_back_every_tier_after_reset_and_remove() {
    let root = fixture_copy();
    let r = root.path();
    let before = state(r);
    run(r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    run(r, &["remove", "discord-9001", "--yes"]);
    assert_ne!(state(r), before);

    // the latest first: the remove
    let out = run(r, &["undo", "--dry-run", "--json"]);
    let v = one(&out);
    assert_eq!(v["session"], "discord-9001");
    assert_eq!(v["dry_run"], true);
    run(r, &["undo", "--yes"]);
    run(r, &["undo", "--yes"]);
    assert_eq!(state(r), before, "every tier is as it was");
    assert!(trash_entries(r).is_empty(), "the bundles were used up");
    fts_integrity_ok(r);
    logs_are_toriidb_readable(r);

    // the log says what happened, newest first; nothing is left to undo
    let log = results(&run(r, &["log", "--json"]));
    let cmds: Vec<&str> = log.iter().map(|o| o["command"].as_str().unwrap()).collect();
    assert_eq!(cmds, ["undo", "undo", "remove", "reset"]);
    assert!(log.iter().all(|o| o["done"] == true));
    assert_eq!(log[3]["undone_by"], log[0]["id"]);
    let out = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
    assert_eq!(out.status.code(), Some(64));
}

#[test]
fn reset_and_remove_entries_are_bundles_with_checksums() {
    let root = fixture_copy();
    let r = root.path();
    let out = run(
        r,
        &["reset", "tui-alice", "--mode", "summary", "--yes", "--json"],
    );
    let entry = PathBuf::from(one(&out)["trash"].as_str().unwrap());
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(entry.join(".sessionctl/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(m["format"], "sessionctl-bundle");
    assert_eq!(m["version"], 1);
    assert_eq!(m["session"], "tui-alice");
    assert_eq!(m["kind"], "reset");
    assert_eq!(m["counts"]["archive_rows"], 4);
    assert_eq!(m["counts"]["torii_db1_keys"], 4);
    let listed: Vec<&str> = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert!(listed.contains(&"history.json") && listed.contains(&"torii-db1.jsonl"));
    let log = results(&run(r, &["log", "--json"]));
    assert_eq!(m["op"], log[0]["id"], "the manifest names its operation");
    let list = results(&run(r, &["trash", "list", "--json"]));
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["session"], "tui-alice");
    assert_eq!(list[0]["kind"], "reset");
    assert_eq!(list[0]["op"], log[0]["id"]);
    assert_eq!(list[0]["restorable"], true);
}

#[test]
fn undo_refuses_when_a_later_operation_changed_the_session() {
    let root = fixture_copy();
    let r = root.path();
    let before = state(r);
    run(r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    run(r, &["remove", "tui-alice", "--yes"]);
    let log = results(&run(r, &["log", "--json"]));
    let (remove, reset) = (
        log[0]["id"].as_str().unwrap(),
        log[1]["id"].as_str().unwrap(),
    );
    let out = sessionctl(r)
        .args(["undo", reset, "--yes", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let msg = json_of(&out)["errors"][0]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(msg.contains(remove), "names the conflicting op: {msg}");
    // in order it works
    run(r, &["undo", remove, "--yes"]);
    run(r, &["undo", reset, "--yes"]);
    assert_eq!(state(r), before);
}

#[test]
fn trash_restore_refuses_an_existing_session_and_restores_under_a_new_id() {
    let root = fixture_copy();
    let r = root.path();
    run(r, &["remove", "discord-9001", "--yes"]);
    let entry = trash_entries(r).pop().unwrap();
    std::fs::create_dir(r.join("sessions/discord-9001")).unwrap();
    let before = snapshot(r);
    let out = sessionctl(r)
        .args(["trash", "restore", &entry, "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64), "the session exists again");
    assert_eq!(snapshot(r), before, "nothing changed");

    run(
        r,
        &["trash", "restore", &entry, "--as", "discord-9002", "--yes"],
    );
    assert!(r.join("sessions/discord-9002/history.json").exists());
    assert!(!r.join("sessions/discord-9002/.sessionctl").exists());
    assert_eq!(archive_count(r, "discord-9002"), 2);
    assert_eq!(archive_count(r, "discord-9001"), 0);
    let keys = db1_keys(r);
    assert!(keys.iter().any(|k| k.starts_with("discord-9002:")));
    assert!(!keys.iter().any(|k| k.starts_with("discord-9001:")));
    assert!(trash_entries(r).is_empty());
    let log = results(&run(r, &["log", "--json"]));
    assert_eq!(log[0]["command"], "trash restore");
}

#[test]
fn a_tampered_trash_entry_is_refused_with_65_and_nothing_changes() {
    let root = fixture_copy();
    let r = root.path();
    run(r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    let entry = trash_entries(r).pop().unwrap();
    std::fs::write(
        r.join("sessions/.Trash").join(&entry).join("history.json"),
        "[]",
    )
    .unwrap();
    let before = snapshot(r);
    for args in [
        vec!["trash", "restore", &entry, "--yes"],
        vec!["undo", "--yes"],
    ] {
        let out = sessionctl(r).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(65), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("history.json"));
        assert_eq!(snapshot(r), before, "nothing changed");
    }
}

#[test]
fn an_undo_killed_midway_completes_when_run_again() {
    let root = fixture_copy();
    let r = root.path();
    let before = state(r);
    run(r, &["remove", "tui-alice", "--yes"]);
    for fp in ["restore-after-torii", "restore-after-file"] {
        let out = sessionctl(r)
            .env("SESSIONCTL_FAILPOINT", fp)
            .args(["undo", "--yes"])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{fp} aborts");
    }
    let log = results(&run(r, &["log", "--json"]));
    assert_eq!(log[0]["command"], "undo");
    assert_eq!(log[0]["done"], false, "the interrupted undo is on record");
    run(r, &["undo", "--yes"]);
    assert_eq!(state(r), before);
    fts_integrity_ok(r);
    let log = results(&run(r, &["log", "--json"]));
    assert_eq!(log.len(), 2, "the rerun completed the same undo");
    assert_eq!(log[0]["done"], true);
}

#[test]
fn undo_of_a_purge_says_nothing_was_kept() {
    let root = fixture_copy();
    let r = root.path();
    run(r, &["remove", "tui-alice", "--purge", "--yes"]);
    let out = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&out.stderr).contains("kept nothing"));
}

#[test]
fn trash_prune_deletes_old_entries_and_keeps_the_newest_of_each_session() {
    let root = fixture_copy();
    let r = root.path();
    let trash = r.join("sessions/.Trash");
    // 120 old entries of 40 sessions, as Agenvoy and older runs left them
    for i in 0..120 {
        let e = trash.join(format!("s{}_202001{:02}_000000.000", i % 40, 1 + i / 40));
        std::fs::create_dir_all(e.join(".sessionctl")).unwrap();
        std::fs::write(e.join("history.json"), "[]").unwrap();
        std::fs::write(e.join(".sessionctl/session-id"), format!("s{}", i % 40)).unwrap();
    }
    // and a fresh one
    run(r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    let out = run(
        r,
        &[
            "trash",
            "prune",
            "--older-than",
            "30d",
            "--keep-last",
            "1",
            "--dry-run",
            "--json",
        ],
    );
    assert_eq!(
        results(&out).len(),
        80,
        "all but the newest of each old session"
    );
    assert_eq!(trash_entries(r).len(), 121, "a dry run deletes nothing");

    let out = sessionctl(r)
        .args(["trash", "prune", "--older-than", "30d"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(64),
        "--yes is needed without a terminal"
    );

    run(
        r,
        &[
            "trash",
            "prune",
            "--older-than",
            "30d",
            "--keep-last",
            "1",
            "--yes",
        ],
    );
    let left = trash_entries(r);
    assert_eq!(left.len(), 41);
    assert!(left.iter().any(|e| e.starts_with("tui-alice_")));
    for s in 0..40 {
        assert!(
            left.contains(&format!("s{s}_20200103_000000.000")),
            "s{s}'s newest stays"
        );
    }
    // an old operation's pre-images age out too; a recent one's stay
    let old_op = r.join(".sessionctl/ops/20200101T000000.000Z-abcdef/s.compact");
    std::fs::create_dir_all(&old_op).unwrap();
    std::fs::write(old_op.join("history.json"), "[]").unwrap();
    run(r, &["--offline", "summarize", "tui-alice-2", "--yes"]);
    run(r, &["trash", "prune", "--older-than", "30d", "--yes"]);
    assert_eq!(trash_entries(r).len(), 1, "only the recent entry is left");
    let ops: Vec<_> = std::fs::read_dir(r.join(".sessionctl/ops"))
        .unwrap()
        .collect();
    assert_eq!(ops.len(), 1, "the summarize's pre-image stays");
    assert!(!old_op.exists());
    let log = results(&run(r, &["log", "--json"]));
    assert_eq!(log[0]["command"], "trash prune");
    assert_eq!(
        log[0]["sessions"].as_array().unwrap().len(),
        41,
        "40 sessions' entries and one operation's pre-images"
    );
}

#[test]
fn a_torn_last_line_of_the_operation_log_is_ignored() {
    let root = fixture_copy();
    let r = root.path();
    run(r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    let log = r.join(".sessionctl/oplog.jsonl");
    let mut bytes = std::fs::read(&log).unwrap();
    bytes.extend_from_slice(br#"{"id":"2026"#);
    std::fs::write(&log, bytes).unwrap();
    let out = run(r, &["log", "--json"]);
    assert_eq!(results(&out).len(), 1);
    assert!(String::from_utf8_lossy(&out.stderr).contains("torn"));
    run(r, &["undo", "--yes"]);
    assert!(r.join("sessions/tui-alice/history.json").exists());
}

#[test]
fn undo_of_compact_puts_back_history_task_histories_archive_and_torii() {
    let root = fixture_copy();
    let r = root.path();
    let before = state(r);
    run(
        r,
        &[
            "--offline",
            "compact",
            "tui-alice",
            "--budget",
            "30",
            "--yes",
        ],
    );
    let log = results(&run(r, &["log", "--json"]));
    assert_eq!(log[0]["command"], "compact");
    assert_eq!(log[0]["sessions"][0]["change"], "compact");
    let after = state(r);
    assert_ne!(after, before, "compact changed the session");
    let out = run(r, &["undo", "--dry-run", "--json"]);
    assert_eq!(one(&out)["kind"], "compact");
    assert_eq!(state(r), after, "a dry run changes nothing");
    run(r, &["undo", "--yes"]);
    assert_eq!(state(r), before);
    fts_integrity_ok(r);
    logs_are_toriidb_readable(r);
}

#[test]
fn an_operation_undo_cannot_reverse_is_refused_by_name_not_skipped() {
    let root = fixture_copy();
    let r = root.path();
    run(r, &["reset", "discord-9001", "--mode", "all", "--yes"]);
    run(r, &["remove", "tui-alice", "--purge", "--yes"]);
    let log = results(&run(r, &["log", "--json"]));
    let out = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&out.stderr).contains(log[0]["id"].as_str().unwrap()));
    // the earlier reset can still be named
    run(r, &["undo", log[1]["id"].as_str().unwrap(), "--yes"]);
    assert!(r.join("sessions/discord-9001/history.json").exists());
}

#[test]
fn check_reports_an_operation_a_crash_left_incomplete_and_a_torn_log_line() {
    let root = fixture_copy();
    let r = root.path();
    let out = sessionctl(r)
        .env("SESSIONCTL_FAILPOINT", "clear-after-archive")
        .args(["reset", "tui-alice", "--mode", "all", "--yes"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let log = r.join(".sessionctl/oplog.jsonl");
    let mut bytes = std::fs::read(&log).unwrap();
    bytes.extend_from_slice(br#"{"id":"x","#);
    std::fs::write(&log, bytes).unwrap();
    let out = sessionctl(r).args(["check", "--json"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("incomplete-operation"), "{text}");
    assert!(text.contains("oplog-torn-line"), "{text}");
    let ops = results(&run(r, &["log", "--json"]));
    assert_eq!(ops[0]["done"], false);
}

#[test]
fn the_help_of_every_write_command_mentions_undo() {
    let root = fixture_copy();
    let r = root.path();
    for cmd in [
        vec!["reset"],
        vec!["remove"],
        vec!["compact"],
        vec!["summarize"],
        vec!["errors", "edit"],
        vec!["errors", "prune"],
        vec!["limits", "learn"],
    ] {
        let mut args = cmd.clone();
        args.push("--help");
        let out = run(r, &args);
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("undo"),
            "{cmd:?} --help"
        );
    }
}

#[test]
fn undo_of_summarize_and_of_reset_summary_brings_the_previous_summary_back() {
    let root = fixture_copy();
    let r = root.path();
    let before = state(r);
    run(r, &["--offline", "summarize", "tui-alice", "--yes"]);
    run(r, &["--offline", "summarize", "tui-alice-2", "--yes"]);
    assert_ne!(state(r), before, "summarize changed something");
    run(r, &["undo", "--yes"]);
    run(r, &["undo", "--yes"]);
    assert_eq!(state(r), before);

    run(
        r,
        &[
            "--offline",
            "reset",
            "tui-alice",
            "--mode",
            "summary",
            "--yes",
        ],
    );
    let log = results(&run(r, &["log", "--json"]));
    let kinds: Vec<&str> = log[0]["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["change"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["summary", "reset"]);
    run(r, &["undo", "--yes"]);
    assert_eq!(state(r), before, "the refreshed summary is undone too");
}

#[test]
fn undo_of_errors_edit_and_prune_brings_the_records_back_with_their_expiry() {
    let root = fixture_copy();
    let r = root.path();
    let before = state(r);
    run(
        r,
        &[
            "errors",
            "edit",
            "3f1c",
            "--action",
            "retry with 120s",
            "--yes",
        ],
    );
    run(
        r,
        &[
            "errors", "edit", "9a2b", "--action", "sudo it", "--touch", "--yes",
        ],
    );
    run(r, &["errors", "prune", "--yes"]);
    run(r, &["errors", "search", "timeout", "--touch-hits", "--yes"]);
    assert_ne!(state(r), before);
    let log = results(&run(r, &["log", "--json"]));
    let undoable = log
        .iter()
        .filter(|o| !o["sessions"].as_array().unwrap().is_empty())
        .count();
    for _ in 0..undoable {
        run(r, &["undo", "--yes"]);
    }
    assert_eq!(state(r), before);
    logs_are_toriidb_readable(r);
}

#[test]
fn undo_of_limits_learn_forgets_the_limit_and_undo_of_forget_brings_it_back() {
    let root = fixture_copy();
    let r = root.path();
    let learned = |r: &Path| -> serde_json::Value {
        let v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(r.join(".sessionctl/limits.json")).unwrap())
                .unwrap();
        v["learned"]["claude@claude-sonnet-4-5"].clone()
    };
    run(
        r,
        &[
            "--offline",
            "limits",
            "learn",
            "claude@claude-sonnet-4-5",
            "--from-error",
            "prompt is too long: 210312 tokens > 150000 maximum",
        ],
    );
    let limit = learned(r);
    assert_eq!(limit["limit"], 150000);
    run(r, &["undo", "--yes"]);
    assert!(learned(r).is_null(), "undo of learn forgets it");

    // learn again, forget, and undo the forget
    run(
        r,
        &[
            "--offline",
            "limits",
            "learn",
            "claude@claude-sonnet-4-5",
            "--from-error",
            "prompt is too long: 210312 tokens > 150000 maximum",
        ],
    );
    let limit = learned(r);
    run(
        r,
        &[
            "--offline",
            "limits",
            "forget",
            "claude@claude-sonnet-4-5",
            "--yes",
        ],
    );
    assert!(learned(r).is_null());
    run(r, &["undo", "--yes"]);
    assert_eq!(learned(r), limit, "the forgotten limit is back as it was");
}

#[test]
fn undo_of_compact_fold_brings_the_summary_back_too() {
    let root = fixture_copy();
    let r = root.path();
    // a session long enough for compact to take records (and fold them)
    let records: Vec<serde_json::Value> = (0..30i64)
        .flat_map(|i| {
            let t = 1_764_547_200_000_000_000 + i * 10_000_000_000;
            [
                serde_json::json!({"role": "user", "content": format!("question {i} about log rotation"), "sendAt": t}),
                serde_json::json!({"role": "assistant", "content": format!("answer {i}: logrotate daily"), "sendAt": t + 5_000_000_000}),
            ]
        })
        .collect();
    std::fs::create_dir(r.join("sessions/tui-big")).unwrap();
    std::fs::write(
        r.join("sessions/tui-big/history.json"),
        serde_json::to_vec_pretty(&records).unwrap(),
    )
    .unwrap();
    let before = state(r);
    run(
        r,
        &[
            "--offline",
            "compact",
            "tui-big",
            "--budget",
            "200",
            "--fold",
            "--yes",
        ],
    );
    assert!(r.join("sessions/tui-big/summary.json").exists(), "folded");
    assert_ne!(state(r), before);
    run(r, &["undo", "--yes"]);
    assert_eq!(state(r), before);
}
