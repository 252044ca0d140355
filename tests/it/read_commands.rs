//! `sessions list` and `show` on a copy of the fixture root.

use crate::common::*;

#[test]
fn sessions_list_json_counts_every_tier() {
    let root = fixture_copy();
    let out = sessionctl(root.path())
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sessions = results(&out);
    let ids: Vec<&str> = sessions
        .iter()
        .map(|s| s["session"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["discord-9001", "tui-alice", "tui-alice-2"]);
    let alice = &sessions[1];
    assert_eq!(alice["records"], 4);
    assert_eq!(alice["bytes"], 561);
    assert_eq!(alice["has_summary"], true);
    assert_eq!(alice["torii_keys"], 4);
    assert_eq!(alice["archived"], 4);
    assert_eq!(alice["last_at"], "2025-12-01T00:01:50Z");
    assert!(alice["tokens"].as_u64().unwrap() > 20);
    assert_eq!(sessions[0]["has_summary"], false);
    assert_eq!(
        sessions[2]["torii_keys"], 1,
        "tui-alice-2 keys are its own, not tui-alice's"
    );
}

#[test]
fn sessions_list_filters() {
    let root = fixture_copy();
    let ids = |args: &[&str]| -> Vec<String> {
        let out = sessionctl(root.path())
            .args(["sessions", "list", "--json"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success());
        results(&out)
            .iter()
            .map(|s| s["session"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(ids(&["--match", "tui-*"]), ["tui-alice", "tui-alice-2"]);
    // the fixture's records are from 2025-12; today is later
    assert_eq!(ids(&["--idle-for", "7d"]).len(), 3);
    assert!(ids(&["--idle-for", "100000w"]).is_empty());
    assert_eq!(
        ids(&["--older-than", "1d", "--match", "discord-*"]),
        ["discord-9001"]
    );
    let a = ids(&["--shard", "1/2"]);
    let b = ids(&["--shard", "2/2"]);
    assert_eq!(a.len() + b.len(), 3);
    assert!(a.iter().all(|x| !b.contains(x)));
}

#[test]
fn sessions_list_table_for_people() {
    let root = fixture_copy();
    let out = sessionctl(root.path())
        .args(["sessions", "list"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("SESSION") && text.contains("LAST ACTIVITY"),
        "{text}"
    );
    assert!(text.contains("tui-alice-2"));
    // piped: the rows alone; the count line is for terminals
    assert!(!text.contains("3 session(s)"), "{text}");
    assert_eq!(text.lines().count(), 4, "a header and three rows: {text}");
}

#[test]
fn show_json_has_every_tier() {
    let root = fixture_copy();
    let out = sessionctl(root.path())
        .args(["show", "tui-alice", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(v["history"]["records"], 4);
    assert_eq!(v["history"]["first_send_at"], "1764547200000000000");
    assert_eq!(v["summary"]["valid"], true);
    assert_eq!(v["summary"]["cursor"], "2025-12-01 00:00:05");
    assert_eq!(v["summary"]["current_topic"], "log retention");
    assert_eq!(v["tasks"][0]["file"], "5e1f.json");
    assert_eq!(v["tasks"][0]["tool_calls"], 2);
    assert_eq!(v["tasks"][0]["orphan_results"], 0);
    assert_eq!(v["pending"][0], "5e1f.json");
    assert_eq!(v["torii"]["keys"], 4);
    assert_eq!(v["torii"]["with_vector"], 1);
    assert_eq!(v["archive"]["messages"], 4);
    assert_eq!(v["archive"]["start_at"], "1764547200000000000");
    assert!(v["problems"].as_array().unwrap().is_empty());
}

#[test]
fn show_table_for_people() {
    let root = fixture_copy();
    let out = sessionctl(root.path())
        .args(["show", "discord-9001"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for want in [
        "history.json",
        "2 record(s)",
        "summary.json",
        "absent",
        "ToriiDB db1",
        "SQLite archive",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

#[test]
fn readers_never_write() {
    let root = fixture_copy();
    let before = snapshot(root.path());
    for args in [
        &["sessions", "list"][..],
        &["show", "tui-alice"],
        &["show", "tui-alice", "--json"],
    ] {
        assert!(sessionctl(root.path())
            .args(args)
            .output()
            .unwrap()
            .status
            .success());
    }
    assert_eq!(before, snapshot(root.path()));
    assert!(
        !root.path().join(".sessionctl").exists(),
        "readers take no locks"
    );
}

#[test]
fn help_teaches_and_lists_only_working_commands() {
    let out = sessionctl(std::path::Path::new("/nonexistent"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for cmd in ["sessions", "show", "reset", "remove"] {
        assert!(text.contains(cmd), "{text}");
    }
    assert!(text.contains("Exit codes"));
    let out = sessionctl(std::path::Path::new("/nonexistent"))
        .args(["reset", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("--mode") && text.contains("--dry-run") && text.contains("Trash"));
}
