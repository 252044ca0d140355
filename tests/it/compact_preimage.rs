//! The pre-image compact keeps of history.json: the replaced
//! file itself, hard-linked into the undo bundle, when nothing else can
//! reach it; a copy otherwise.

use crate::common::*;
use crate::undo_support::state;

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

const SESSION: &str = "tui-long";

/// A fixture copy with a session long enough for compact to take records.
fn root_with_long_session() -> tempfile::TempDir {
    let root = fixture_copy();
    let records: Vec<serde_json::Value> = (0..30i64)
        .flat_map(|i| {
            let t = 1_764_547_200_000_000_000 + i * 10_000_000_000;
            [
                serde_json::json!({"role": "user", "content": format!("question {i}"), "sendAt": t}),
                serde_json::json!({"role": "assistant", "content": format!("answer {i}"), "sendAt": t + 1}),
            ]
        })
        .collect();
    let dir = root.path().join("sessions").join(SESSION);
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("history.json"),
        serde_json::to_vec_pretty(&records).unwrap(),
    )
    .unwrap();
    root
}

fn compact(r: &Path) {
    let out = sessionctl(r)
        .args(["--offline", "compact", SESSION, "--budget", "200", "--yes"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The history.json of the one compact pre-image under the root.
fn preimage_history(r: &Path) -> PathBuf {
    let ops: Vec<PathBuf> = std::fs::read_dir(r.join(".sessionctl/ops"))
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .join(format!("{SESSION}.compact/history.json"))
        })
        .filter(|p| p.exists())
        .collect();
    assert_eq!(ops.len(), 1, "one compact pre-image: {ops:?}");
    ops[0].clone()
}

#[test]
fn the_replaced_history_json_becomes_the_preimage_and_undo_still_restores_it() {
    let root = root_with_long_session();
    let r = root.path();
    let live = r.join(format!("sessions/{SESSION}/history.json"));
    let (old_bytes, old_ino) = (
        std::fs::read(&live).unwrap(),
        live.metadata().unwrap().ino(),
    );
    let before = state(r);
    compact(r);
    let kept = preimage_history(r);
    let meta = kept.metadata().unwrap();
    assert_eq!(meta.ino(), old_ino, "the old inode is the pre-image");
    assert_eq!(meta.nlink(), 1, "the session folder no longer names it");
    assert_ne!(
        live.metadata().unwrap().ino(),
        old_ino,
        "replaced by rename"
    );
    assert_eq!(std::fs::read(&kept).unwrap(), old_bytes);
    let out = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(state(r), before);
}

#[test]
fn a_history_json_reachable_by_another_name_is_copied_not_linked() {
    for how in ["symlink", "second name"] {
        let root = root_with_long_session();
        let r = root.path();
        let live = r.join(format!("sessions/{SESSION}/history.json"));
        let other = r.join("elsewhere.json");
        let bytes = std::fs::read(&live).unwrap();
        if how == "symlink" {
            std::fs::rename(&live, &other).unwrap();
            std::os::unix::fs::symlink(&other, &live).unwrap();
        } else {
            std::fs::hard_link(&live, &other).unwrap();
        }
        compact(r);
        let kept = preimage_history(r);
        assert_ne!(
            kept.metadata().unwrap().ino(),
            other.metadata().unwrap().ino(),
            "{how}: the pre-image must not be writable through {other:?}"
        );
        assert_eq!(std::fs::read(&kept).unwrap(), bytes, "{how}");
        assert_eq!(std::fs::read(&other).unwrap(), bytes, "{how}: left alone");
    }
}

/// db1 log lines for the session's oldest records, in every form the
/// export copies or decodes: ToriiDB's own shape with escapes serde_json
/// writes differently (`\u003c`, `\/`, `\u0008`), a surrogate pair, a lone
/// surrogate, invalid UTF-8, a vector only Go's decoder takes, a TTL, a
/// key set twice, and lines in another field order.
fn db1_lines_for_leaving_records() -> Vec<u8> {
    let t = |i: i64| 1_764_547_200_000_000_000 + i * 10_000_000_000;
    let key = |i: i64| format!("{SESSION}:{}", t(i));
    let mut log = Vec::new();
    let mut line = |body: &[u8]| {
        log.extend_from_slice(body);
        log.push(b'\n');
    };
    let far = 4_102_444_800i64; // 2100: still live
    line(format!(r#"{{"ts":1764547200,"cmd":"SET","key":"{}","value":"{{\"role\":\"user\",\"content\":\"a \u003cb\u003e \/ \u0008 \\\"q\\\" \ud83d\ude00\"}}","vector":"AAAAAAAAgD8="}}"#, key(0)).as_bytes());
    line(format!(r#"{{"ts":1764547210,"cmd":"SET","key":"{}","value":"lone \ud800 surrogate","expire_at":{far}}}"#, key(1)).as_bytes());
    line(
        &[
            format!(
                r#"{{"ts":1764547220,"cmd":"SET","key":"{}","value":"bad "#,
                key(2)
            )
            .as_bytes(),
            b"\xff\xe2\x82",
            br#" bytes","vector":"AAAAAB=="}"#,
        ]
        .concat(),
    );
    line(
        format!(
            r#"{{"ts":1764547230,"cmd":"SET","key":"{}","value":"first"}}"#,
            key(3)
        )
        .as_bytes(),
    );
    line(format!(r#"{{"ts":1764547240,"cmd":"SET","key":"{}","value":"second\n","expire_at":{far},"vector":"AACAPwAAAEA="}}"#, key(3)).as_bytes());
    line(format!(r#"{{"key":"{}","cmd":"SET","ts":1764547250,"value":"other order","vector":"AACAPw=="}}"#, key(4)).as_bytes());
    line(
        format!(
            r#"{{"ts":1764547260,"cmd":"SET","key":"{}","value":""}}"#,
            key(5)
        )
        .as_bytes(),
    );
    log
}

#[test]
fn undo_of_compact_gives_back_db1_entries_whatever_form_their_lines_had() {
    let root = root_with_long_session();
    let r = root.path();
    let aof = r.join(".store/db_1/record.aof");
    let mut log = std::fs::read(&aof).unwrap();
    log.extend_from_slice(&db1_lines_for_leaving_records());
    std::fs::write(&aof, log).unwrap();
    let before = state(r);
    let keys_before = db1_keys(r);
    compact(r);
    let gone: Vec<&String> = keys_before
        .iter()
        .filter(|k| k.starts_with(SESSION) && !db1_keys(r).contains(k))
        .collect();
    assert_eq!(
        gone.len(),
        6,
        "compact took the session's old keys: {gone:?}"
    );
    let out = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
    assert!(out.status.success());
    // values, creation times, TTLs and vectors as db1 shows them
    assert_eq!(state(r), before);
    logs_are_toriidb_readable(r);
}
