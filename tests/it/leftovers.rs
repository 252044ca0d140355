//! What a kill or a removed session leaves behind: temp files of
//! interrupted writes, a cold SQLite journal, lock files of sessions that
//! are gone. `check` reports each class, `check --repair` removes them.

use crate::common::*;

use std::path::{Path, PathBuf};

fn check(r: &Path, args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let out = sessionctl(r)
        .arg("check")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    (out.status.code(), json_of(&out))
}

fn kinds(v: &serde_json::Value) -> Vec<String> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap().to_owned())
        .collect()
}

fn temp_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect()
}

#[test]
fn leftovers_of_a_kill_are_reported_and_repair_removes_them() {
    let root = fixture_copy();
    let r = root.path();
    // a real kill between writing a temp file and renaming it
    let out = sessionctl(r)
        .env("SESSIONCTL_FAILPOINT", "atomic-before-rename")
        .args(["--offline", "summarize", "discord-9001"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("failpoint"));
    let killed = temp_files(&r.join("sessions/discord-9001"));
    assert_eq!(killed.len(), 1, "the kill left one temp file");

    // and one of each other class
    let session = r.join("sessions/tui-alice");
    let planted = [
        session.join("history/.5e1f.json.Ab12Cd.tmp"),
        r.join(".store/db_1/record.aof.tmp"),
        r.join(".store/db_2/.record.aof.Zz9Yy8.tmp"),
        r.join(".store/db_1/bb/64/03/bb6403dcf91c2571976e766fda6eeba5.json.tmp"),
        r.join(".store/history.db-journal"),
        r.join(".sessionctl/locks/session-long-gone.lock"),
    ];
    std::fs::create_dir_all(r.join(".sessionctl/locks")).unwrap();
    for p in &planted {
        std::fs::write(p, b"").unwrap();
    }
    // files that look alike but are not ours to delete
    let kept = [
        session.join("notes.tmp"),
        r.join(".sessionctl/locks/session-tui-alice.lock"),
    ];
    for p in &kept {
        std::fs::write(p, b"keep").unwrap();
    }

    let (code, v) = check(r, &[]);
    assert_eq!(code, Some(1), "{v}");
    let found = kinds(&v);
    for kind in [
        "leftover-temp-file",
        "leftover-aof-temp",
        "leftover-mirror-temp",
        "leftover-sqlite-journal",
        "stale-lock-file",
        // the killed summarize's record in the operation log
        "incomplete-operation",
    ] {
        assert!(found.iter().any(|k| k == kind), "{kind} missing: {v}");
    }
    assert_eq!(found.len(), 8, "{v}");

    let (code, v) = check(r, &["--repair", "--yes"]);
    assert_eq!(code, Some(0), "{v}");
    for p in killed.iter().chain(&planted) {
        assert!(!p.exists(), "{} was not removed", p.display());
    }
    for p in &kept {
        assert_eq!(std::fs::read(p).unwrap(), b"keep");
    }
    let (code, v) = check(r, &[]);
    assert_eq!((code, kinds(&v).len()), (Some(0), 0), "{v}");
}

#[test]
fn a_lock_file_someone_holds_is_left_alone() {
    let root = fixture_copy();
    let r = root.path();
    std::fs::create_dir_all(r.join(".sessionctl/locks")).unwrap();
    let held = r.join(".sessionctl/locks/session-gone.lock");
    let f = std::fs::File::create(&held).unwrap();
    f.lock().unwrap();
    let (code, v) = check(r, &["--repair", "--yes"]);
    assert_eq!(code, Some(1), "reported, not repaired: {v}");
    assert_eq!(kinds(&v), ["stale-lock-file"]);
    assert!(held.exists());
    drop(f);
    let (code, _) = check(r, &["--repair", "--yes"]);
    assert_eq!(code, Some(0));
    assert!(!held.exists());
}

#[test]
fn remove_leaves_no_lock_files_behind() {
    let root = fixture_copy();
    let r = root.path();
    let ids: Vec<String> = (0..20).map(|i| format!("bulk-{i:02}")).collect();
    for id in &ids {
        copy_tree(
            &r.join("sessions/discord-9001"),
            &r.join("sessions").join(id),
        );
    }
    let out = sessionctl(r)
        .arg("remove")
        .args(&ids)
        .arg("--yes")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let left: Vec<String> = std::fs::read_dir(r.join(".sessionctl/locks"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("session-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
