//! `check` and `check --repair` on a copy of the fixture with planted faults.

use crate::common::*;

use serde_json::Value;

fn check(root: &std::path::Path, extra: &[&str]) -> (Option<i32>, Value) {
    let out = sessionctl(root)
        .args(["check", "--json"])
        .args(extra)
        .output()
        .unwrap();
    (out.status.code(), json_of(&out))
}

fn kinds(v: &Value, repaired: bool) -> Vec<String> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["repaired"] == repaired)
        .map(|f| {
            format!(
                "{}:{}",
                f["session"].as_str().unwrap_or("store"),
                f["kind"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn a_clean_root_is_clean() {
    let root = fixture_copy();
    let (code, v) = check(root.path(), &[]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["ok"], true);
    assert!(v["results"].as_array().unwrap().is_empty());
}

#[test]
fn planted_faults_are_found_and_the_safe_ones_repaired() {
    let root = fixture_copy();
    let r = root.path();
    let db = sqlite(r);
    db.execute_batch(
        "DELETE FROM messages WHERE id = 2;
         UPDATE session_meta SET start_at = 1764547300000000000 WHERE session_id = 'tui-alice';
         INSERT INTO messages (session_id, send_at, role, content) VALUES ('gone-session', 1, 'user', 'hello');
         INSERT INTO messages_fts5(messages_fts5, rowid, role, content) VALUES('delete', 5, 'user', 'Summarise yesterday''s deploy failures.');",
    )
    .unwrap();
    drop(db);
    let aof = r.join(".store/db_1/record.aof");
    let mut log = std::fs::read(&aof).unwrap();
    log.extend_from_slice(
        b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"gone-session:5\",\"value\":\"x\"}\n",
    );
    log.extend_from_slice(b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"x:1\",\"value\":\"to");
    std::fs::write(&aof, &log).unwrap();
    std::fs::write(
        r.join("sessions/discord-9001/summary.json"),
        br#"{"key_decisions":[]}"#,
    )
    .unwrap();
    std::fs::create_dir_all(r.join("sessions/discord-9001/history")).unwrap();
    std::fs::write(
        r.join("sessions/discord-9001/history/t.json"),
        br#"[{"role":"tool","tool_call_id":"zz","content":"x"}]"#,
    )
    .unwrap();

    let (code, v) = check(r, &[]);
    assert_eq!(code, Some(1));
    let found = kinds(&v, false);
    for want in [
        "store:torii-torn-tail",
        "store:torii-malformed-lines",
        "store:torii-orphan-keys",
        "store:fts-integrity",
        "store:orphan-archive-rows",
        "tui-alice:missing-from-archive",
        "tui-alice:start-at-past-history",
        "discord-9001:invalid-summary",
        "discord-9001:orphan-tool-messages",
    ] {
        assert!(found.contains(&want.to_string()), "{want} not in {found:?}");
    }

    let out = sessionctl(r).args(["check", "--repair"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(64),
        "--repair needs --yes without a terminal"
    );
    let (code, v) = check(r, &["--repair", "--yes"]);
    assert_eq!(code, Some(1), "unsafe findings stay");
    let repaired = kinds(&v, true);
    for want in [
        "store:torii-torn-tail",
        "store:fts-integrity",
        "tui-alice:missing-from-archive",
    ] {
        assert!(
            repaired.contains(&want.to_string()),
            "{want} not repaired: {repaired:?}"
        );
    }
    // what was repaired is really fixed; nothing of the user's was deleted
    fts_integrity_ok(r);
    assert_eq!(archive_count(r, "tui-alice"), 4);
    assert_eq!(archive_count(r, "gone-session"), 1);
    assert!(std::fs::read(&aof).unwrap().ends_with(b"\n"));
    assert!(db1_keys(r).contains(&"gone-session:5".to_string()));
    let (_, v) = check(r, &[]);
    let left = kinds(&v, false);
    assert!(
        !left.iter().any(|k| k.ends_with("torn-tail")
            || k.ends_with("fts-integrity")
            || k.ends_with("missing-from-archive")),
        "{left:?}"
    );
}

#[test]
fn an_unreadable_file_is_65() {
    let root = fixture_copy();
    std::fs::write(root.path().join("sessions/tui-alice/history.json"), b"[{").unwrap();
    let (code, v) = check(root.path(), &[]);
    assert_eq!(code, Some(65));
    assert!(kinds(&v, false).contains(&"tui-alice:unreadable".to_string()));
}

#[test]
fn an_over_long_line_is_reported_loudly_and_repaired_without_loss() {
    let root = fixture_copy();
    let r = root.path();
    let aof = r.join(".store/db_1/record.aof");
    let mut log = std::fs::read(&aof).unwrap();
    let big = "q".repeat(70_000);
    log.extend_from_slice(
        format!("{{\"ts\":1,\"cmd\":\"SET\",\"key\":\"discord-9001:9\",\"value\":\"{big}\"}}\n")
            .as_bytes(),
    );
    std::fs::write(&aof, &log).unwrap();
    let (code, v) = check(r, &[]);
    assert_eq!(code, Some(1));
    assert!(v["results"][0]["detail"]
        .as_str()
        .unwrap()
        .contains("EMPTY"));
    let (_, _) = check(r, &["--repair", "--yes"]);
    logs_are_toriidb_readable(r);
    let kept: Vec<_> = std::fs::read_dir(r.join(".store/db_1"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".oversize"))
        .collect();
    assert_eq!(kept.len(), 1);
    assert!(
        std::fs::read_to_string(r.join(".store/db_1").join(&kept[0]))
            .unwrap()
            .contains(&big)
    );
    assert_eq!(db1_keys(r).len(), 7, "every readable key is still there");
}

/// Go's line scanner returns an unterminated last line, so ToriiDB applies
/// a complete record that only lacks its '\n': repair must end it, not
/// cut it away as a torn write.
#[test]
fn a_complete_last_record_without_newline_is_kept_and_ended() {
    let root = fixture_copy();
    let r = root.path();
    let aof = r.join(".store/db_1/record.aof");
    let mut log = std::fs::read(&aof).unwrap();
    let last = br#"{"ts":1,"cmd":"SET","key":"discord-9001:1764600020000000000","value":"last"}"#;
    log.extend_from_slice(last);
    std::fs::write(&aof, &log).unwrap();
    assert!(
        db1_keys(r).contains(&"discord-9001:1764600020000000000".to_string()),
        "replay applies it, as ToriiDB does"
    );
    let (code, v) = check(r, &[]);
    assert_eq!(code, Some(1));
    let found = kinds(&v, false);
    assert_eq!(found, ["store:torii-unterminated-line"], "{v}");

    let (code, v) = check(r, &["--repair", "--yes"]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(kinds(&v, true), ["store:torii-unterminated-line"]);
    let mut want = log.clone();
    want.push(b'\n');
    assert_eq!(
        std::fs::read(&aof).unwrap(),
        want,
        "only the newline is added"
    );
    assert!(db1_keys(r).contains(&"discord-9001:1764600020000000000".to_string()));
    let torn = std::fs::read_dir(r.join(".store/db_1"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".torn")
        })
        .count();
    assert_eq!(torn, 0, "nothing was cut");
}
