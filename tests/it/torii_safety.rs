//! ToriiDB semantics a writer must get exactly right: writers decide on the
//! log as it is under the lock, `expire_at: 0` is an expiry, and values
//! decode as Go decodes them.

use crate::common::*;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

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

fn field(root: &Path, key: &str, name: &str) -> Value {
    let d = db(root, 2);
    let v: Value = serde_json::from_str(&d.get(key).unwrap().value).unwrap();
    v[name].clone()
}

// ---------------------------------------------------------------------------
// Writers load what they rewrite only after taking the store lock.

/// `sessionctl` in the background; `load_delay_ms` makes each of its
/// ToriiDB loads that much slower (a debug-build hook), so that a writer
/// that loads before it locks holds a stale copy while the other writes.
fn spawn(root: &Path, args: &[&str], load_delay_ms: u64) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("sessionctl"))
        .env("TZ", "UTC")
        .env("HOME", root.join("no-home"))
        .env("SESSIONCTL_TORII_LOAD_DELAY_MS", load_delay_ms.to_string())
        .arg("--root")
        .arg(root)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Start `slow` (its loads delayed), then `fast` after `offset_ms`; both
/// must end in 0 (done) or 75 (locked, retry), and one must be done.
/// Returns whether each was done.
fn race(root: &Path, slow: &[&str], fast: &[&str], offset_ms: u64) -> (bool, bool) {
    let s = spawn(root, slow, 200);
    std::thread::sleep(Duration::from_millis(offset_ms));
    let f = spawn(root, fast, 0);
    let done = |c: Child, what: &[&str]| {
        let out = c.wait_with_output().unwrap();
        let code = out.status.code();
        assert!(
            matches!(code, Some(0) | Some(1) | Some(75)),
            "{what:?} at +{offset_ms}ms: {code:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        code != Some(75)
    };
    let (f_done, s_done) = (done(f, fast), done(s, slow));
    assert!(f_done || s_done, "one of them must do the work");
    eprintln!("+{offset_ms}ms: {slow:?} done={s_done}, {fast:?} done={f_done}");
    (s_done, f_done)
}

const OFFSETS: [u64; 3] = [0, 60, 250];

#[test]
fn two_edits_of_one_record_both_survive_or_one_is_told_to_retry() {
    for offset in OFFSETS {
        let root = fixture_copy();
        let r = root.path();
        let (cause_done, action_done) = race(
            r,
            &["errors", "edit", "3f1c", "--cause", "B cause", "--yes"],
            &["errors", "edit", "3f1c", "--action", "A action", "--yes"],
            offset,
        );
        if cause_done {
            assert_eq!(field(r, FETCH, "cause"), "B cause", "+{offset}ms");
        }
        if action_done {
            assert_eq!(
                field(r, FETCH, "action"),
                "A action",
                "+{offset}ms: edit lost"
            );
        }
    }
}

#[test]
fn two_edits_of_different_records_both_survive_or_one_is_told_to_retry() {
    for offset in OFFSETS {
        let root = fixture_copy();
        let r = root.path();
        plant_oversize(&db2_log(r), "big:1");
        let (b_done, a_done) = race(
            r,
            &["errors", "edit", "9a2b", "--action", "B action", "--yes"],
            &["errors", "edit", "3f1c", "--action", "A action", "--yes"],
            offset,
        );
        if b_done {
            assert_eq!(field(r, RUN, "action"), "B action", "+{offset}ms");
        }
        if a_done {
            assert_eq!(
                field(r, FETCH, "action"),
                "A action",
                "+{offset}ms: edit lost"
            );
        }
        logs_are_toriidb_readable(r);
    }
}

#[test]
fn check_repair_never_undoes_an_edit_or_a_reset_made_while_it_ran() {
    for offset in OFFSETS {
        let root = fixture_copy();
        let r = root.path();
        plant_oversize(&db2_log(r), "big:1");
        let (_, edited) = race(
            r,
            &["check", "--repair", "--yes"],
            &["errors", "edit", "3f1c", "--action", "A action", "--yes"],
            offset,
        );
        if edited {
            assert_eq!(
                field(r, FETCH, "action"),
                "A action",
                "+{offset}ms: edit undone"
            );
        }

        let root = fixture_copy();
        let r = root.path();
        plant_oversize(&r.join(".store/db_1/record.aof"), "discord-9001:9");
        let (_, reset) = race(
            r,
            &["check", "--repair", "--yes"],
            &["reset", "tui-alice", "--mode", "all", "--yes"],
            offset,
        );
        if reset {
            assert!(
                db(r, 1).session_keys("tui-alice", 0).is_empty(),
                "+{offset}ms: the reset's deletions were undone"
            );
        }
    }
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
    results(out)
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
    let all = results(&list(&["--expired"]));
    let zero = all.iter().find(|e| e["id"] == "ee00").unwrap();
    assert_eq!(zero["expire_at"], 0);

    // search and --touch-hits do not see them (nor revive them)
    let log = std::fs::read(db2_log(r)).unwrap();
    for q in ["permission", "zero ttl"] {
        let out = sessionctl(r)
            .args(["errors", "search", q, "--touch-hits", "--yes", "--json"])
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
    let exp = one(&out)["expire_at"].as_i64().unwrap();
    assert!((exp - (chrono::Utc::now().timestamp() + 7_776_000)).abs() < 10);
    assert_eq!(ids(&list(&[])), ["ee00", "3f1c"]);

    // prune takes the one still expired
    let out = sessionctl(r)
        .args(["errors", "prune", "--expired", "--yes", "--json"])
        .output()
        .unwrap();
    let keys: Vec<Value> = results(&out).iter().map(|p| p["key"].clone()).collect();
    assert_eq!(keys, [json!(RUN)]);
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

// ---------------------------------------------------------------------------
// Values decode as Go's encoding/json and base64.StdEncoding decode them.

/// A key, and its value and vector as ToriiDB holds them.
type GoDecoded = (String, &'static str, Option<&'static str>);

/// Raw lines no serde_json writer would produce, each read by ToriiDB:
/// (key suffix, line tail after the key, the value Go decodes, the vector
/// ToriiDB's compaction writes back).
fn go_only_lines(session: &str) -> (Vec<u8>, Vec<GoDecoded>) {
    let cases: [(&str, &[u8], &str, Option<&str>); 4] = [
        // E2 82 is a truncated 3-byte sequence: Go's utf8.DecodeRune gives
        // width 1 for E2, then for the lone continuation byte 82: two
        // U+FFFD (Rust's from_utf8_lossy would give one).
        (
            "1",
            b"\"value\":\"a\xe2\x82b\"}",
            "a\u{FFFD}\u{FFFD}b",
            None,
        ),
        // a lone high surrogate escape: U+FFFD (serde_json rejects it)
        ("2", br#""value":"x\ud800y"}"#, "x\u{FFFD}y", None),
        // 'B' leaves a non-zero padding bit: Go decodes [0,0,0,0] anyway;
        // compaction re-encodes it canonically
        (
            "3",
            br#""value":"p","vector":"AAAAAB=="}"#,
            "p",
            Some("AAAAAA=="),
        ),
        // Go's base64 skips \r and \n: 00 00 80 3F, the float 1.0
        (
            "4",
            br#""value":"c","vector":"AACA\r\nPw=="}"#,
            "c",
            Some("AACAPw=="),
        ),
    ];
    let mut log = Vec::new();
    let mut want = Vec::new();
    for (n, tail, value, vector) in cases {
        let key = format!("{session}:176454740000000000{n}");
        log.extend_from_slice(format!("{{\"ts\":1,\"cmd\":\"SET\",\"key\":\"{key}\",").as_bytes());
        log.extend_from_slice(tail);
        log.push(b'\n');
        want.push((key, value, vector));
    }
    (log, want)
}

#[test]
fn reset_removes_keys_only_go_can_decode_and_trashes_them_as_go_decodes_them() {
    let root = fixture_copy();
    let r = root.path();
    let (lines, want) = go_only_lines("tui-alice");
    append_raw(&r.join(".store/db_1/record.aof"), &lines);
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all", "--yes", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        one(&out)["removed_torii_keys"],
        8,
        "the fixture's 4 keys and these 4"
    );
    assert!(db(r, 1).session_keys("tui-alice", 0).is_empty());
    // (the SET lines planted above are not UTF-8)
    let log = std::fs::read(r.join(".store/db_1/record.aof")).unwrap();
    let text = String::from_utf8_lossy(&log);
    for (key, _, _) in &want {
        assert!(
            text.contains(&format!("\"cmd\":\"DEL\",\"key\":\"{key}\"")),
            "no DEL line for {key}: ToriiDB would keep it"
        );
    }
    let trash = std::fs::read_dir(r.join("sessions/.Trash"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let saved: Vec<Value> = std::fs::read_to_string(trash.join("torii-db1.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (key, value, vector) in want {
        let line = saved.iter().find(|l| l["key"] == key.as_str()).unwrap();
        assert_eq!(line["value"], value, "{key}");
        assert_eq!(line["vector"].as_str(), vector, "{key}");
    }
}

#[test]
fn the_over_64k_rewrite_keeps_entries_only_go_can_decode() {
    let root = fixture_copy();
    let r = root.path();
    let log = r.join(".store/db_1/record.aof");
    let (lines, want) = go_only_lines("discord-9001");
    append_raw(&log, &lines);
    plant_oversize(&log, "discord-9001:9");
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all", "--yes"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains("qqqq"), "the log was rewritten");
    let d = db(r, 1);
    for (key, value, vector) in want {
        let e = d.get(&key).unwrap_or_else(|| panic!("{key} was dropped"));
        assert_eq!((e.value.as_str(), e.vector.as_deref()), (value, vector));
    }
    logs_are_toriidb_readable(r);
}
