//! Adversarial review of undo / trash / export / import: what a
//! hostile user, Agenvoy writing meanwhile, or a cron job does to them.

use crate::common::*;

use std::path::Path;

fn run(r: &Path, args: &[&str]) -> std::process::Output {
    sessionctl(r).args(args).output().unwrap()
}

fn ok(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Agenvoy appends a record to history.json, as it does after each turn.
fn agenvoy_appends(history: &Path, content: &str) {
    let mut v: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(history).unwrap()).unwrap();
    v.push(serde_json::json!({
        "role": "user",
        "content": content,
        "sendAt": 1_764_999_999_000_000_000_i64,
        "sender": "alice"
    }));
    std::fs::write(history, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
}

#[test]
fn undo_of_compact_refuses_when_agenvoy_wrote_to_the_session_since() {
    let root = fixture_copy();
    let r = root.path();
    let compact = [
        "--offline",
        "compact",
        "tui-alice",
        "--budget",
        "30",
        "--keep-last",
        "1",
        "--yes",
        "--json",
    ];
    let out = run(r, &compact);
    ok(&out);
    assert!(
        one(&out)["removed_records"].as_u64().unwrap() > 0,
        "{out:?}"
    );
    let history = r.join("sessions/tui-alice/history.json");
    agenvoy_appends(&history, "a turn written after the compact");
    let log = results(&run(r, &["log", "--json"]));
    assert_eq!(log[0]["undoable"], false, "log says so too: {log:?}");
    assert!(log[0]["not_undoable"]
        .as_str()
        .unwrap_or_default()
        .contains("changed since"));
    let before = snapshot(r);
    for args in [
        &["undo", "--yes", "--json"][..],
        &["undo", "--yes", "--force", "--json"][..],
    ] {
        let out = run(r, args);
        assert_eq!(out.status.code(), Some(64), "{args:?}: {out:?}");
        let env = json_of(&out);
        let msg = env["errors"][0]["message"].as_str().unwrap_or_default();
        assert!(msg.contains("history.json"), "names the file: {env}");
        assert!(msg.contains("changed since"), "says why: {env}");
        assert_eq!(snapshot(r), before, "{args:?}: nothing changed");
    }
    let text = std::fs::read_to_string(&history).unwrap();
    assert!(text.contains("a turn written after the compact"));
}

#[test]
fn undo_of_compact_still_works_when_nothing_wrote_since() {
    let root = fixture_copy();
    let r = root.path();
    let history = r.join("sessions/tui-alice/history.json");
    let before = std::fs::read(&history).unwrap();
    ok(&run(
        r,
        &[
            "--offline",
            "compact",
            "tui-alice",
            "--budget",
            "30",
            "--keep-last",
            "1",
            "--yes",
        ],
    ));
    assert_ne!(std::fs::read(&history).unwrap(), before);
    ok(&run(r, &["undo", "--yes"]));
    assert_eq!(std::fs::read(&history).unwrap(), before);
}

fn empty_root() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join("sessions")).unwrap();
    d
}

/// Export tui-alice from a fixture copy into a new folder; the bundle path.
fn exported(src: &Path, out: &Path) -> std::path::PathBuf {
    ok(&sessionctl(src)
        .args(["export", "tui-alice", "-o"])
        .arg(out)
        .output()
        .unwrap());
    out.join("tui-alice")
}

#[test]
fn trash_prune_with_an_age_past_the_calendar_prunes_nothing_and_does_not_panic() {
    let root = fixture_copy();
    let r = root.path();
    ok(&run(r, &["remove", "tui-alice", "--yes"]));
    let before = snapshot(r);
    for age in ["1000000000d", "100000000000d", "1000000000000d"] {
        let out = run(
            r,
            &["trash", "prune", "--older-than", age, "--yes", "--json"],
        );
        ok(&out);
        assert!(results(&out).is_empty(), "{age}: nothing is that old");
        assert_eq!(snapshot(r), before, "{age}");
    }
    for bad in ["0", "-1d", "30x", "99999999999999999999d", ""] {
        let out = run(r, &["trash", "prune", "--older-than", bad, "--yes"]);
        assert_eq!(out.status.code(), Some(64), "{bad:?}: {out:?}");
    }
}

#[test]
fn a_manifest_listing_a_file_twice_is_refused_with_65_not_a_panic() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let b = exported(src.path(), out.path());
    let mpath = b.join(".sessionctl/manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&mpath).unwrap()).unwrap();
    let first = m["files"][0].clone();
    m["files"].as_array_mut().unwrap().push(first);
    std::fs::write(&mpath, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    let dst = empty_root();
    let before = snapshot(dst.path());
    let o = sessionctl(dst.path())
        .args(["import", "--yes", "--json"])
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(65), "{o:?}");
    let env = json_of(&o);
    assert!(env["errors"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("more than once"));
    assert_eq!(snapshot(dst.path()), before, "nothing written");
}

#[test]
fn import_refuses_a_bundle_whose_symlinks_point_out_of_the_session() {
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim.txt");
    std::fs::write(&victim, "not Agenvoy's").unwrap();
    for (name, target) in [
        ("abs", victim.clone()),
        (
            "up",
            std::path::PathBuf::from("../../../../../../etc/passwd"),
        ),
        ("sub/up", std::path::PathBuf::from("../../x")),
    ] {
        let src = fixture_copy();
        let link = src.path().join("sessions/tui-alice").join(name);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let out = tempfile::tempdir().unwrap();
        let b = exported(src.path(), out.path());
        let dst = empty_root();
        let before = snapshot(dst.path());
        let o = sessionctl(dst.path())
            .args(["import", "--yes"])
            .arg(&b)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(65), "{name}: {o:?}");
        assert_eq!(snapshot(dst.path()), before, "{name}: nothing written");
    }
    // a link that stays inside the session is kept as it is
    let src = fixture_copy();
    let s = src.path().join("sessions/tui-alice");
    std::fs::create_dir(s.join("sub")).unwrap();
    std::os::unix::fs::symlink("../history.json", s.join("sub/h")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let b = exported(src.path(), out.path());
    let dst = empty_root();
    ok(&sessionctl(dst.path())
        .args(["import", "--yes"])
        .arg(&b)
        .output()
        .unwrap());
    assert_eq!(
        std::fs::read_link(dst.path().join("sessions/tui-alice/sub/h")).unwrap(),
        Path::new("../history.json")
    );
}

#[test]
fn the_operation_after_a_torn_log_line_is_still_recorded_and_undoable() {
    let root = fixture_copy();
    let r = root.path();
    ok(&run(r, &["reset", "tui-alice", "--mode", "all", "--yes"]));
    let log = r.join(".sessionctl/oplog.jsonl");
    let mut bytes = std::fs::read(&log).unwrap();
    bytes.extend_from_slice(br#"{"id":"2026"#);
    std::fs::write(&log, bytes).unwrap();
    ok(&run(r, &["undo", "--yes"]));
    let ops = results(&run(r, &["log", "--json"]));
    assert_eq!(ops.len(), 2, "the undo is in the log: {ops:?}");
    assert_eq!(ops[0]["command"], "undo");
    assert_eq!(ops[1]["undone_by"], ops[0]["id"], "{ops:?}");
    // and the undo can itself be undone (a redo)
    let id = ops[0]["id"].as_str().unwrap();
    ok(&run(r, &["undo", id, "--yes"]));
    assert!(!r.join("sessions/tui-alice/history.json").exists());
}

#[test]
fn export_into_the_sessions_folder_or_the_session_itself_is_refused() {
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    for out in [
        r.join("sessions/tui-alice/out"),
        r.join("sessions/tui-alice"),
        r.join("sessions/new-folder"),
        r.join("sessions/../sessions/x"),
    ] {
        let o = sessionctl(r)
            .args(["export", "tui-alice", "--json", "-o"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(64), "{out:?}: {o:?}");
        assert_eq!(snapshot(r), before, "{out:?}: nothing written");
    }
    // beside the sessions, inside the root, is fine
    let o = sessionctl(r)
        .args(["export", "tui-alice", "-o"])
        .arg(r.join("exports"))
        .output()
        .unwrap();
    ok(&o);
}

#[test]
fn a_trash_restore_killed_midway_completes_when_run_again() {
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r.join("sessions/tui-alice").as_path());
    ok(&run(r, &["remove", "tui-alice", "--yes"]));
    let entry = results(&run(r, &["trash", "list", "--json"]))
        .iter()
        .find(|e| e["session"] == "tui-alice")
        .map(|e| e["name"].as_str().unwrap().to_owned())
        .unwrap();
    for fp in ["restore-after-torii", "restore-after-file"] {
        let out = sessionctl(r)
            .env("SESSIONCTL_FAILPOINT", fp)
            .args(["trash", "restore", &entry, "--yes"])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{fp} aborts");
    }
    ok(&run(r, &["trash", "restore", &entry, "--yes"]));
    assert_eq!(snapshot(r.join("sessions/tui-alice").as_path()), before);
    assert!(!r.join("sessions/.Trash").join(&entry).exists());
    let log = results(&run(r, &["log", "--json"]));
    assert_eq!(log[0]["command"], "trash restore");
    assert_eq!(
        log[0]["done"], true,
        "the rerun completed the same operation"
    );
    assert_eq!(log.len(), 2, "{log:?}");
    // and that restore is undone like any other
    ok(&run(r, &["undo", "--yes"]));
    assert!(!r.join("sessions/tui-alice").exists());
    assert!(r.join("sessions/.Trash").join(&entry).exists());
}

#[test]
fn a_trash_entry_linked_from_outside_the_root_is_refused_and_nothing_changes() {
    let root = fixture_copy();
    let r = root.path();
    ok(&run(r, &["remove", "tui-alice", "--yes"]));
    let trash = r.join("sessions/.Trash");
    let entry = std::fs::read_dir(&trash)
        .unwrap()
        .map(|e| e.unwrap().path())
        .next()
        .unwrap();
    let outside = tempfile::tempdir().unwrap();
    let bundle = outside.path().join("bundle");
    std::fs::rename(&entry, &bundle).unwrap();
    std::os::unix::fs::symlink(outside.path().join("x"), trash.join("evil")).unwrap();
    std::os::unix::fs::symlink(&bundle, trash.join("evil.stores")).unwrap();
    let before = snapshot(r);
    let outside_before = snapshot(outside.path());
    let out = run(r, &["trash", "restore", "evil", "--yes", "--json"]);
    assert_eq!(out.status.code(), Some(65), "{out:?}");
    assert_eq!(snapshot(r), before, "nothing changed in the root");
    assert_eq!(snapshot(outside.path()), outside_before);
    assert!(!r.join("sessions/tui-alice").exists());
}

#[test]
fn log_says_how_many_oplog_lines_it_ignored_and_keeps_the_rest() {
    use std::io::Write;
    let root = fixture_copy();
    let r = root.path();
    ok(&run(r, &["reset", "tui-alice", "--mode", "all", "--yes"]));
    let path = r.join(".sessionctl/oplog.jsonl");
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.write_all(b"\xff\xfe not utf-8\n{\"schema\":\"other\",\"x\":1}\n")
        .unwrap();
    f.write_all(&vec![b'a'; 10 << 20]).unwrap();
    f.write_all(b"\n").unwrap();
    drop(f);
    ok(&run(r, &["remove", "discord-9001", "--yes"]));
    let out = run(r, &["log", "--json"]);
    ok(&out);
    let ops = results(&out);
    assert_eq!(ops.len(), 2, "both operations are read: {ops:?}");
    assert_eq!(ops[0]["command"], "remove");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("3 line(s) are not operation records"), "{err}");
    ok(&run(r, &["undo", "--yes"]));
    assert!(r.join("sessions/discord-9001").exists());
}
