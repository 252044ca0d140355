//! Undo of an undo (redo), undo of import and trash restore, and trash
//! prune refused as irreversible.

use crate::common::*;
use crate::undo_support::state;

use std::path::Path;

fn run(r: &Path, args: &[&str]) -> std::process::Output {
    let out = sessionctl(r).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The id of the newest operation in the log.
fn latest(r: &Path) -> String {
    results(&run(r, &["log", "--json"]))[0]["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn trash_sessions(r: &Path) -> Vec<String> {
    results(&run(r, &["trash", "list", "--json"]))
        .iter()
        .filter_map(|e| e["session"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn undo_of_an_undo_redoes_and_undo_of_that_undoes_again() {
    let root = fixture_copy();
    let r = root.path();
    for write in [
        &["reset", "tui-alice", "--mode", "all"][..],
        &["remove", "discord-9001"],
        &["compact", "tui-alice", "--budget", "30"],
        &["summarize", "tui-alice"],
    ] {
        let before = state(r);
        let mut args = vec!["--offline"];
        args.extend(write);
        args.push("--yes");
        run(r, &args);
        let after = state(r);
        assert!(after != before, "{write:?} changed something");
        run(r, &["undo", "--yes"]);
        assert!(state(r) == before, "{write:?}: undo");
        let undo = latest(r);
        let out = run(r, &["undo", &undo, "--dry-run", "--json"]);
        assert!(state(r) == before, "{write:?}: a dry run changes nothing");
        assert!(results(&out).iter().all(|p| p["dry_run"] == true));
        run(r, &["undo", &undo, "--yes"]);
        assert!(
            state(r) == after,
            "{write:?}: redo gives the state after it"
        );
        // the redo is the latest thing in play: a bare undo reverses it
        run(r, &["undo", "--yes"]);
        assert!(state(r) == before, "{write:?}: undo of the redo");
        fts_integrity_ok(r);
        logs_are_toriidb_readable(r);
    }
}

#[test]
fn redo_of_errors_and_limits_changes() {
    let root = fixture_copy();
    let r = root.path();
    expired_error_record(r);
    let learned = |r: &Path| -> serde_json::Value {
        std::fs::read(r.join(".sessionctl/limits.json"))
            .map(|b| serde_json::from_slice::<serde_json::Value>(&b).unwrap())
            .map(|v| v["learned"]["claude@claude-sonnet-4-5"].clone())
            .unwrap_or_default()
    };
    for write in [
        &[
            "errors",
            "edit",
            "3f1c",
            "--action",
            "retry with 120s",
            "--yes",
        ][..],
        &["errors", "prune", "--yes"],
        &[
            "limits",
            "learn",
            "claude@claude-sonnet-4-5",
            "--from-error",
            "prompt is too long: 210312 tokens > 150000 maximum",
        ],
    ] {
        let before = (state(r), learned(r));
        let mut args = vec!["--offline"];
        args.extend(write);
        run(r, &args);
        let after = (state(r), learned(r));
        assert!(after != before, "{write:?} changed something");
        run(r, &["undo", "--yes"]);
        assert!((state(r), learned(r)) == before, "{write:?}: undo");
        let undo = latest(r);
        run(r, &["undo", &undo, "--yes"]);
        assert!((state(r), learned(r)) == after, "{write:?}: redo");
        run(r, &["undo", "--yes"]);
        assert!((state(r), learned(r)) == before, "{write:?}: undo of redo");
        logs_are_toriidb_readable(r);
    }
}

#[test]
fn a_redo_killed_midway_completes_when_run_again() {
    let root = fixture_copy();
    let r = root.path();
    run(r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    let after = state(r);
    run(r, &["undo", "--yes"]);
    let undo = latest(r);
    for fp in [
        "restore-after-keep",
        "replace-after-trash",
        "replace-after-torii",
        "replace-after-files",
    ] {
        let out = sessionctl(r)
            .env("SESSIONCTL_FAILPOINT", fp)
            .args(["undo", &undo, "--yes"])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{fp} aborts");
        let log = results(&run(r, &["log", "--json"]));
        assert_eq!(log[0]["undoes"], undo.as_str());
        assert_eq!(
            log[0]["done"], false,
            "{fp}: the interrupted redo is on record"
        );
    }
    run(r, &["undo", "--yes"]);
    assert!(state(r) == after, "the rerun completed the redo");
    fts_integrity_ok(r);
    logs_are_toriidb_readable(r);
    let log = results(&run(r, &["log", "--json"]));
    assert_eq!(log.len(), 3, "reset, undo, and the one redo");
    assert_eq!(log[0]["done"], true);
    // and the completed redo is undone like any other
    run(r, &["undo", "--yes"]);
    assert!(r.join("sessions/tui-alice/history.json").exists());
}

#[test]
fn a_redo_refuses_when_a_later_operation_changed_the_session() {
    let root = fixture_copy();
    let r = root.path();
    run(r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    run(r, &["undo", "--yes"]);
    let undo = latest(r);
    run(r, &["--offline", "summarize", "tui-alice", "--yes"]);
    let summarize = latest(r);
    let before = state(r);
    let out = sessionctl(r)
        .args(["undo", &undo, "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&summarize));
    assert!(state(r) == before, "nothing changed");
    // undone in order, it works
    run(r, &["undo", "--yes"]);
    run(r, &["undo", &undo, "--yes"]);
    assert!(
        !r.join("sessions/tui-alice/history.json").exists(),
        "reset again"
    );
}

#[test]
fn undo_of_import_takes_the_session_to_the_trash_and_redo_brings_it_back() {
    let root = fixture_copy();
    let r = root.path();
    let out_dir = tempfile::tempdir().unwrap();
    run(
        r,
        &[
            "export",
            "discord-9001",
            "-o",
            out_dir.path().to_str().unwrap(),
        ],
    );
    let bundle = out_dir.path().join("discord-9001");
    let before = state(r);
    run(
        r,
        &[
            "import",
            bundle.to_str().unwrap(),
            "--as",
            "discord-copy",
            "--yes",
        ],
    );
    let imported = state(r);
    assert!(imported != before);
    run(r, &["undo", "--yes"]);
    assert!(state(r) == before, "every tier of the import is gone");
    assert!(trash_sessions(r).contains(&"discord-copy".to_owned()));
    let undo = latest(r);
    run(r, &["undo", &undo, "--yes"]);
    assert!(state(r) == imported, "redo brings the import back");
    fts_integrity_ok(r);
}

#[test]
fn undo_of_trash_restore_puts_the_entry_back_in_the_trash() {
    let root = fixture_copy();
    let r = root.path();
    let start = state(r);
    run(r, &["remove", "discord-9001", "--yes"]);
    let removed = state(r);
    let entry = results(&run(r, &["trash", "list", "--json"]))[0]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    run(r, &["trash", "restore", &entry, "--yes"]);
    let restored = state(r);
    assert!(trash_sessions(r).is_empty());
    run(r, &["undo", "--yes"]);
    assert!(state(r) == removed);
    let names: Vec<String> = results(&run(r, &["trash", "list", "--json"]))
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        names.contains(&entry),
        "trash list shows {entry} again: {names:?}"
    );
    // redo, and undo of the redo
    let undo = latest(r);
    run(r, &["undo", &undo, "--yes"]);
    assert!(state(r) == restored);
    run(r, &["undo", "--yes"]);
    assert!(state(r) == removed);
    // the entry put back is the one the remove kept: its undo still works
    run(r, &["undo", "--yes"]);
    assert!(state(r) == start);
    fts_integrity_ok(r);
}

#[test]
fn trash_prune_is_recorded_irreversible_and_undo_refuses_it() {
    let root = fixture_copy();
    let r = root.path();
    run(r, &["remove", "discord-9001", "--yes"]);
    let pruned = sessionctl(r)
        .env("SESSIONCTL_NOW", an_hour_from_now())
        .args(["trash", "prune", "--older-than", "1s", "--yes"])
        .output()
        .unwrap();
    assert!(pruned.status.success(), "{pruned:?}");
    let log = results(&run(r, &["log", "--json"]));
    assert_eq!(log[0]["command"], "trash prune");
    assert_eq!(log[0]["irreversible"], true);
    assert_eq!(log[0]["undoable"], false);
    assert!(log[0]["not_undoable"]
        .as_str()
        .unwrap()
        .contains("for good"));
    // the remove's kept state is gone with it, and log says so
    assert_eq!(log[1]["command"], "remove");
    assert_eq!(log[1]["undoable"], false);
    assert!(log[1]["not_undoable"].as_str().unwrap().contains("gone"));
    let out = sessionctl(r)
        .args(["undo", log[1]["id"].as_str().unwrap(), "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64), "the prune changed it later");
    let out = sessionctl(r)
        .args(["undo", log[1]["id"].as_str().unwrap(), "--yes", "--force"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(66));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is gone"));
    let before = snapshot(r);
    for args in [
        vec!["undo", "--yes"],
        vec!["undo", log[0]["id"].as_str().unwrap(), "--yes"],
    ] {
        let out = sessionctl(r).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(64), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("for good"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(snapshot(r), before, "nothing changed");
    }
    let out = run(r, &["trash", "prune", "--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("cannot be undone"));
}

#[test]
fn log_shows_which_operations_undo_can_reverse() {
    let root = fixture_copy();
    let r = root.path();
    run(r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    run(r, &["remove", "discord-9001", "--purge", "--yes"]);
    run(r, &["remove", "tui-alice-2", "--yes"]);
    run(r, &["undo", "--yes"]);
    let log = results(&run(r, &["log", "--json"]));
    let undoable: Vec<bool> = log.iter().map(|o| o["undoable"] == true).collect();
    // undo (redo-able), remove (undone), remove --purge (kept nothing), reset
    assert_eq!(undoable, [true, false, false, true]);
    assert!(log[2]["not_undoable"]
        .as_str()
        .unwrap()
        .contains("kept nothing"));
    let table = String::from_utf8_lossy(&run(r, &["log"]).stdout).into_owned();
    assert!(table.contains("UNDO"), "{table}");
}

/// An expired db2 record, for `errors prune` to take.
fn expired_error_record(r: &Path) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(r.join(".store/db_2/record.aof"))
        .unwrap();
    let value = serde_json::json!({"id": "aa01", "timestamp": 1764600000, "tool_name": "read_file",
        "keywords": ["read_file"], "symptom": "old", "action": "x", "outcome": "resolved"});
    let line = serde_json::json!({"ts":1,"cmd":"SET","key":"read_file:1764600000000000001",
        "value": value.to_string(), "expire_at": 1700000000});
    writeln!(f, "{line}").unwrap();
}

#[test]
fn a_redo_waits_for_the_session_lock_and_for_agenvoy() {
    let root = fixture_copy();
    let r = root.path();
    let data = sessionctl::store::layout::DataRoot::open(r).unwrap();
    run(r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    {
        let _held = sessionctl::store::lock::session(&data, "tui-alice").unwrap();
        let out = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
        assert_eq!(out.status.code(), Some(75), "the session is locked");
    }
    // the refused attempt undid nothing: the reset is still to undo
    run(r, &["undo", "--yes"]);
    assert!(r.join("sessions/tui-alice/history.json").exists());
    let undo = latest(r);
    let before = snapshot(r);
    {
        let _held = sessionctl::store::lock::session(&data, "tui-alice").unwrap();
        let out = sessionctl(r)
            .args(["undo", &undo, "--yes"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(75), "the session is locked");
    }
    let agenvoy = FakeProcess::spawn("agenvoy", r, r);
    agenvoy.write_runtime_uid(r);
    let out = sessionctl(r)
        .args(["undo", &undo, "--yes"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(75),
        "Agenvoy runs: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    drop(agenvoy);
    std::fs::remove_file(r.join("runtime.uid")).unwrap();
    let mut after = snapshot(r);
    after.retain(|p, _| !p.starts_with(".sessionctl"));
    let mut want = before;
    want.retain(|p, _| !p.starts_with(".sessionctl"));
    assert!(after == want, "nothing changed");
    run(r, &["undo", &undo, "--yes"]);
    assert!(
        !r.join("sessions/tui-alice/history.json").exists(),
        "redone"
    );
}

#[test]
fn a_tampered_snapshot_is_refused_with_65_and_nothing_changes() {
    let root = fixture_copy();
    let r = root.path();
    run(r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    run(r, &["undo", "--yes"]);
    let undo = latest(r);
    let snap = r
        .join(".sessionctl/ops")
        .join(&undo)
        .join("tui-alice.snapshot");
    assert!(snap.join(".sessionctl/manifest.json").exists());
    std::fs::write(snap.join("usage.log"), "tampered").unwrap();
    let before = state(r);
    let out = sessionctl(r)
        .args(["undo", &undo, "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65));
    assert!(String::from_utf8_lossy(&out.stderr).contains("usage.log"));
    assert!(state(r) == before, "nothing changed");
}

#[test]
fn redo_of_sessions_with_cjk_and_255_byte_ids() {
    let root = fixture_copy();
    let r = root.path();
    let long = format!("{}-{}", "長い".repeat(20), "x".repeat(134));
    assert_eq!(long.len(), 255);
    for id in ["會話-東京", long.as_str()] {
        crate::common::copy_tree(
            &r.join("sessions/tui-alice-2"),
            &r.join("sessions").join(id),
        );
        let start = state(r);
        run(r, &["remove", id, "--yes"]);
        let removed = state(r);
        run(r, &["undo", "--yes"]);
        assert!(state(r) == start, "{id}: undo");
        let undo = latest(r);
        run(r, &["undo", &undo, "--yes"]);
        assert!(state(r) == removed, "{id}: redo");
        run(r, &["undo", "--yes"]);
        assert!(state(r) == start, "{id}: undo of the redo");
    }
}

#[test]
fn redo_of_a_symlinked_session_keeps_the_link_and_never_follows_it() {
    let root = fixture_copy();
    let r = root.path();
    let outside = tempfile::tempdir().unwrap();
    crate::common::copy_tree(&r.join("sessions/tui-alice-2"), &outside.path().join("s"));
    std::os::unix::fs::symlink(outside.path().join("s"), r.join("sessions/linked")).unwrap();
    let target_before = snapshot(outside.path());
    let start = state(r);
    run(r, &["remove", "linked", "--yes"]);
    let removed = state(r);
    run(r, &["undo", "--yes"]);
    assert!(state(r) == start, "undo");
    let undo = latest(r);
    run(r, &["undo", &undo, "--yes"]);
    assert!(state(r) == removed, "redo");
    run(r, &["undo", "--yes"]);
    assert!(state(r) == start, "undo of the redo");
    let link = std::fs::read_link(r.join("sessions/linked")).unwrap();
    assert_eq!(link, outside.path().join("s"), "the link is back as a link");
    assert!(
        snapshot(outside.path()) == target_before,
        "the target was never touched"
    );
}
