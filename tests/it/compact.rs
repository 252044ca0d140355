//! `compact` end to end on a copy of the fixture root with a big session:
//! under budget afterwards, nothing lost, every tier consistent.

use crate::common::*;

use serde_json::{json, Value};

/// Give tui-alice `n` exchanges (sendAt 1..), archive only the first half
/// of them (Agenvoy archives on append; we simulate missing rows), and
/// write a db1 key per record.
fn big_session(root: &std::path::Path, n: usize) -> Vec<Value> {
    let mut records = Vec::new();
    for i in 0..n {
        let t = 1_800_000_000_000_000_000i64 + (i as i64) * 10_000_000_000;
        records.push(json!({"role":"user","content":format!("question {i}: {}", "how do I rotate logs ".repeat(10)),"sendAt":t,"sender":"alice"}));
        let content = if i % 3 == 0 {
            json!([{"type":"text","text":format!("answer {i} 日本語のテキスト")},{"type":"image_url","image_url":{"url":"data:x"}}])
        } else {
            json!(format!("answer {i}: {}", "use logrotate daily ".repeat(15)))
        };
        records.push(json!({"role":"assistant","content":content,"sendAt":t + 5_000_000_000i64}));
    }
    let dir = root.join("sessions/tui-alice");
    std::fs::write(
        dir.join("history.json"),
        serde_json::to_vec_pretty(&records).unwrap(),
    )
    .unwrap();
    let db = sqlite(root);
    db.execute("DELETE FROM messages WHERE session_id = 'tui-alice'", [])
        .unwrap();
    let half = records.len() / 2;
    for r in &records[..half] {
        let rec: sessionctl::store::history::Record = serde_json::from_value(r.clone()).unwrap();
        db.execute(
            "INSERT INTO messages (session_id, send_at, role, content, sender) VALUES ('tui-alice', ?1, ?2, ?3, ?4)",
            rusqlite::params![rec.send_at, rec.role, rec.text().as_ref(), rec.sender],
        )
        .unwrap();
    }
    let mut aof = std::fs::OpenOptions::new()
        .append(true)
        .open(root.join(".store/db_1/record.aof"))
        .unwrap();
    for r in &records {
        let line = json!({"ts":1796220417,"cmd":"SET","key":format!("tui-alice:{}", r["sendAt"]),"value":json!({"role":r["role"],"content":"x"}).to_string()});
        use std::io::Write;
        writeln!(aof, "{line}").unwrap();
    }
    records
}

fn compact(root: &std::path::Path, args: &[&str]) -> std::process::Output {
    sessionctl(root)
        .arg("--offline")
        .arg("compact")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn compact_brings_a_session_under_budget_and_loses_nothing() {
    let root = fixture_copy();
    let r = root.path();
    let original = big_session(r, 120);
    let out = compact(r, &["tui-alice", "--budget", "4000", "--yes", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(v["action"], "compact");
    assert_eq!(v["budget"], 4000);
    assert!(v["tokens_before"].as_u64().unwrap() > 4000);
    assert!(v["tokens_after"].as_u64().unwrap() <= 3200, "{v}");
    let removed = v["removed_records"].as_u64().unwrap() as usize;
    assert!(removed > 0);
    assert!(
        v["archived_new"].as_u64().unwrap() > 0,
        "the unarchived half had to be inserted"
    );
    // the fixture's task history has one tool step: too few to fold (it takes 3)
    assert_eq!(v["stages"][0]["stage"], "trim", "{v}");

    // history.json: the newest records, starting with a user record
    let kept: Vec<Value> =
        serde_json::from_slice(&std::fs::read(r.join("sessions/tui-alice/history.json")).unwrap())
            .unwrap();
    assert_eq!(kept.len() + removed, original.len());
    assert_eq!(kept[..], original[removed..]);
    assert_eq!(kept[0]["role"], "user");

    // invariant 1: every record that left is in the archive, byte-identical
    let db = sqlite(r);
    for rec in &original[..removed] {
        let rec: sessionctl::store::history::Record = serde_json::from_value(rec.clone()).unwrap();
        let n: i64 = db
            .query_row(
                "SELECT COUNT(*) FROM messages WHERE session_id='tui-alice' AND send_at=?1 AND role=?2 AND content=?3 AND sender=?4",
                rusqlite::params![rec.send_at, rec.role, rec.text().as_ref(), rec.sender],
                |x| x.get(0),
            )
            .unwrap();
        assert_eq!(
            n, 1,
            "record at {} must be archived exactly once",
            rec.send_at
        );
    }
    fts_integrity_ok(r);
    let first_kept = kept[0]["sendAt"].as_i64().unwrap();
    let start_at: i64 = db
        .query_row(
            "SELECT start_at FROM session_meta WHERE session_id='tui-alice'",
            [],
            |x| x.get(0),
        )
        .unwrap();
    assert_eq!(start_at, first_kept);

    // ToriiDB: keys older than the first kept record are gone, the rest stay
    let keys = db1_keys(r);
    let alice: Vec<i64> = keys
        .iter()
        .filter_map(|k| k.strip_prefix("tui-alice:"))
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(alice.iter().all(|t| *t >= first_kept));
    assert_eq!(alice.len(), kept.len());
    // the removed records' keys, plus the fixture's four older tui-alice keys
    assert_eq!(
        v["removed_torii_keys"].as_u64().unwrap() as usize,
        removed + 4
    );
    assert!(keys.contains(&"tui-alice-2:1764700000000000000".to_string()));
    logs_are_toriidb_readable(r);

    // the summary is untouched without --fold
    assert_eq!(
        std::fs::read(r.join("sessions/tui-alice/summary.json")).unwrap(),
        std::fs::read(fixture_root().join("sessions/tui-alice/summary.json")).unwrap()
    );

    // a second run right after is a no-op that writes nothing
    let before = snapshot(r);
    let again = compact(r, &["tui-alice", "--budget", "4000", "--json"]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let v = one(&again);
    assert_eq!(v["within_budget"], true);
    assert!(v["stages"].as_array().unwrap().is_empty());
    assert_eq!(before, snapshot(r));
}

#[test]
fn the_byte_cap_triggers_too() {
    let root = fixture_copy();
    let r = root.path();
    big_session(r, 60);
    let size = std::fs::metadata(r.join("sessions/tui-alice/history.json"))
        .unwrap()
        .len();
    let cap = size / 2;
    let out = compact(
        r,
        &[
            "tui-alice",
            "--max-bytes",
            &cap.to_string(),
            "--yes",
            "--json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(v["within_budget"], false);
    let after = std::fs::metadata(r.join("sessions/tui-alice/history.json"))
        .unwrap()
        .len();
    assert_eq!(
        v["bytes_after"].as_u64(),
        Some(after),
        "the reported size is the written size"
    );
    assert!(after <= cap * 4 / 5, "{after} > 80% of {cap}");
    let again = compact(r, &["tui-alice", "--max-bytes", &cap.to_string(), "--json"]);
    assert_eq!(one(&again)["within_budget"], true);
}

#[test]
fn dry_run_and_confirmation() {
    let root = fixture_copy();
    let r = root.path();
    big_session(r, 40);
    let before = snapshot(r);
    let out = compact(r, &["tui-alice", "--budget", "2000", "--dry-run", "--json"]);
    assert!(out.status.success());
    let v = one(&out);
    assert_eq!(v["dry_run"], true);
    assert!(v["removed_records"].as_u64().unwrap() > 0);
    assert_eq!(before, snapshot(r), "a dry run writes nothing");
    // work to do, no terminal, no --yes
    let out = compact(r, &["tui-alice", "--budget", "2000"]);
    assert_eq!(out.status.code(), Some(64));
    assert_eq!(before, snapshot(r));
    // nothing to do needs no --yes (the cron no-op path)
    let out = compact(r, &["discord-9001"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Agenvoy running blocks the write with 75
    let daemon = FakeProcess::spawn("agenvoy", r, r);
    daemon.write_runtime_uid(r);
    let out = compact(
        r,
        &["tui-alice", "--budget", "2000", "--yes", "--via", "files"],
    );
    assert_eq!(out.status.code(), Some(75));
}

#[test]
fn all_skips_sessions_that_fit_by_size() {
    let root = fixture_copy();
    let r = root.path();
    big_session(r, 80);
    let out = compact(r, &["--all", "--budget", "5000", "--yes", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let list = results(&out);
    assert_eq!(list.len(), 3);
    let by_id = |id: &str| list.iter().find(|x| x["session"] == id).unwrap().clone();
    assert!(
        by_id("discord-9001")["tokens_before"].is_null(),
        "small sessions are not even read"
    );
    assert!(by_id("tui-alice")["removed_records"].as_u64().unwrap() > 0);
}

#[test]
fn for_model_rewrites_tool_histories_as_plain_text() {
    let root = fixture_copy();
    let r = root.path();
    let out = compact(
        r,
        &[
            "tui-alice",
            "--for-model",
            "ollama@qwen3",
            "--yes",
            "--json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(v["model"], "ollama@qwen3");
    assert_eq!(v["stages"][0]["stage"], "raw-tools");
    let task: Vec<Value> = serde_json::from_slice(
        &std::fs::read(r.join("sessions/tui-alice/history/5e1f.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(task.len(), 2, "{task:?}");
    assert_eq!(task[0]["content"], "Check the current logrotate config.");
    let text = task[1]["content"].as_str().unwrap();
    assert!(
        text.contains("[call] read_file({\"path\":\"/etc/logrotate.d/nginx\"})"),
        "{text}"
    );
    assert!(
        text.contains("[result read_file] /var/log/nginx/*.log { weekly rotate 4 }"),
        "{text}"
    );
    assert!(text.contains("[result run_command]"));
    assert!(text.contains("[assistant] The rule rotates weekly"));
    assert!(task
        .iter()
        .all(|m| m.get("tool_calls").is_none() && m["role"] != "tool"));
    // the rolling summary is kept (an improvement over Agenvoy)
    assert!(r.join("sessions/tui-alice/summary.json").exists());
}

#[test]
fn corrupt_history_is_65_and_nothing_changes() {
    let root = fixture_copy();
    let r = root.path();
    std::fs::write(r.join("sessions/tui-alice/history.json"), b"[{\"role\":").unwrap();
    let before = snapshot(r);
    let out = compact(r, &["tui-alice", "--budget", "10", "--yes"]);
    assert_eq!(out.status.code(), Some(65));
    assert!(String::from_utf8_lossy(&out.stderr).contains("history.json"));
    assert_eq!(before, snapshot(r));
}
