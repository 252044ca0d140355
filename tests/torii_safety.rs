//! ToriiDB semantics a writer must get exactly right: `expire_at: 0` is an
//! expiry.

mod common;
use common::*;

use std::path::Path;

use serde_json::json;

const FETCH: &str = "fetch_page:1764547200111111111";
const RUN: &str = "run_command:1764550000222222222";

fn append_raw(path: &Path, bytes: &[u8]) {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .unwrap()
        .write_all(bytes)
        .unwrap();
}

fn db2_log(root: &Path) -> std::path::PathBuf {
    root.join(".store/db_2/record.aof")
}

fn record(id: &str, outcome: &str, symptom: &str) -> String {
    json!({"id": id, "timestamp": 1764600000, "tool_name": "read_file", "keywords": ["read_file"],
           "symptom": symptom, "action": "do something", "outcome": outcome})
    .to_string()
}

/// A line over ToriiDB's 64 KiB limit: every write first rewrites the log
/// without it, so a writer working from a stale copy undoes others' lines.
fn plant_oversize(log: &Path, key: &str) {
    let big = "q".repeat(70_000);
    append_raw(
        log,
        format!("{}\n", json!({"ts":1,"cmd":"SET","key":key,"value":big})).as_bytes(),
    );
}

// ---------------------------------------------------------------------------
// `expire_at: 0` is present, and means expired at the epoch.

/// ToriiDB's own `ExpireAt(k, 0)` writes `"expire_at":0`; its field is a
/// `*int64`, so 0 is a TTL that ran out, not "no TTL".
fn with_zero_expiries() -> tempfile::TempDir {
    let root = fixture_copy();
    append_raw(
        &db2_log(root.path()),
        format!(
            "{}\n{}\n",
            json!({"ts":1,"cmd":"SET","key":"read_file:1764600000000000001","value":record("ee00","resolved","zero ttl"),"expire_at":0}),
            json!({"ts":1,"cmd":"EXPIREAT","key":RUN,"value":"0","expire_at":0}),
        )
        .as_bytes(),
    );
    root
}

fn ids(out: &std::process::Output) -> Vec<String> {
    json_of(out)["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn expire_at_zero_is_expired_for_list_search_touch_edit_and_prune() {
    let root = with_zero_expiries();
    let r = root.path();
    let list = |extra: &[&str]| {
        sessionctl(r)
            .args(["errors", "list", "--json"])
            .args(extra)
            .output()
            .unwrap()
    };
    assert_eq!(ids(&list(&[])), ["3f1c"], "expired records are hidden");
    let all = json_of(&list(&["--expired"]));
    let zero = all["errors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "ee00")
        .unwrap();
    assert_eq!(zero["expire_at"], 0);

    // search and --touch-hits do not see them (nor revive them)
    let log = std::fs::read(db2_log(r)).unwrap();
    for q in ["permission", "zero ttl"] {
        let out = sessionctl(r)
            .args(["errors", "search", q, "--touch-hits", "--json"])
            .output()
            .unwrap();
        assert!(ids(&out).is_empty(), "{q}");
    }
    assert_eq!(std::fs::read(db2_log(r)).unwrap(), log);

    // an edit would revive it: refused, nothing written...
    let snap = snapshot(r);
    let out = sessionctl(r)
        .args(["errors", "edit", "ee00", "--action", "x", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(66));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("expired") && err.contains("--touch"), "{err}");
    assert_eq!(snapshot(r), snap);
    // ...unless asked for explicitly: --touch gives a fresh 90-day TTL
    let out = sessionctl(r)
        .args([
            "errors", "edit", "ee00", "--action", "x", "--touch", "--yes", "--json",
        ])
        .output()
        .unwrap();
    let exp = json_of(&out)["expire_at"].as_i64().unwrap();
    assert!((exp - (chrono::Utc::now().timestamp() + 7_776_000)).abs() < 10);
    assert_eq!(ids(&list(&[])), ["ee00", "3f1c"]);

    // prune takes the one still expired
    let out = sessionctl(r)
        .args(["errors", "prune", "--expired", "--yes", "--json"])
        .output()
        .unwrap();
    assert_eq!(json_of(&out)["keys"], json!([RUN]));
}

#[test]
fn a_log_rewrite_keeps_expire_at_zero() {
    let root = with_zero_expiries();
    let r = root.path();
    plant_oversize(&db2_log(r), "big:1");
    let out = sessionctl(r)
        .args(["errors", "edit", "3f1c", "--action", "new", "--yes"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(db2_log(r)).unwrap();
    assert!(!text.contains("big:1"), "the log was rewritten");
    for key in ["read_file:1764600000000000001", RUN] {
        let line = text.lines().find(|l| l.contains(key)).unwrap();
        assert!(line.ends_with(r#","expire_at":0}"#), "{line}");
    }
    assert_eq!(db(r, 2).keys("*", chrono::Utc::now().timestamp()), [FETCH]);
}
