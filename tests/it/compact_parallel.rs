//! `compact --all` applies sessions in parallel: with two
//! threads it leaves the same files, archive and db1 as with one, a kill
//! mid-batch loses nothing and a rerun completes, and undo restores every
//! session.

use crate::common::*;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use serde_json::{json, Value};

const SESSIONS: usize = 10;
const DB1_TS: i64 = 1796220417;

/// The fixture plus `SESSIONS` sessions over budget, each with db1 keys and
/// every other one with a task history to trim.
fn many_root() -> tempfile::TempDir {
    let root = fixture_copy();
    let r = root.path();
    let mut aof = std::fs::OpenOptions::new()
        .append(true)
        .open(r.join(".store/db_1/record.aof"))
        .unwrap();
    for s in 0..SESSIONS {
        let id = format!("par-{s}");
        let dir = r.join("sessions").join(&id);
        std::fs::create_dir_all(dir.join("history")).unwrap();
        let mut records = Vec::new();
        for i in 0..30i64 {
            let t = 1_800_000_000_000_000_000 + i * 10_000_000_000 + s as i64;
            let q = format!("question {s}.{i} {}", "words ".repeat(30));
            let a = format!("answer {s}.{i} {}", "more words ".repeat(40));
            for (role, text, at) in [("user", q, t), ("assistant", a, t + 1)] {
                records.push(json!({"role": role, "content": text, "sendAt": at}));
                let value = json!({"content": text, "role": role}).to_string();
                let line = json!({"ts": DB1_TS, "cmd": "SET", "key": format!("{id}:{at}"), "value": value});
                writeln!(aof, "{line}").unwrap();
            }
        }
        std::fs::write(
            dir.join("history.json"),
            serde_json::to_vec_pretty(&records).unwrap(),
        )
        .unwrap();
        if s % 2 == 0 {
            let mut task = vec![json!({"role":"user","content":"q"})];
            for k in 0..6 {
                task.push(json!({"role":"assistant","content":"","tool_calls":[{"id":format!("c{k}"),"type":"function","function":{"name":"read_file","arguments":"{}"}}]}));
                task.push(json!({"role":"tool","tool_call_id":format!("c{k}"),"content":"x".repeat(3000)}));
            }
            std::fs::write(
                dir.join("history/5e1f.json"),
                serde_json::to_vec(&task).unwrap(),
            )
            .unwrap();
        }
    }
    root
}

fn compact_all(r: &Path, threads: &str) -> std::process::Output {
    sessionctl(r)
        .env("RAYON_NUM_THREADS", threads)
        .args([
            "--offline",
            "compact",
            "--all",
            "--budget",
            "1500",
            "--yes",
            "--json",
        ])
        .output()
        .unwrap()
}

/// What a compact leaves that does not depend on timing: session files
/// (Trash entry names carry a time), archive rows without their ids (two
/// sessions may insert in either order), session_meta, db1's live keys.
type Outcome = (
    Vec<(std::path::PathBuf, Vec<u8>)>,
    BTreeSet<(String, i64, String, String)>,
    Vec<(String, Option<i64>)>,
    Vec<String>,
);

fn outcome(r: &Path) -> Outcome {
    let files = snapshot(r)
        .into_iter()
        .filter(|(p, _)| p.starts_with("sessions") && !p.starts_with("sessions/.Trash"))
        .collect();
    let c = sqlite(r);
    let rows = c
        .prepare("SELECT session_id, send_at, role, content FROM messages")
        .unwrap()
        .query_map([], |x| Ok((x.get(0)?, x.get(1)?, x.get(2)?, x.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let meta = c
        .prepare("SELECT session_id, start_at FROM session_meta ORDER BY session_id")
        .unwrap()
        .query_map([], |x| Ok((x.get(0)?, x.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    (files, rows, meta, db1_keys(r))
}

/// The JSON results, with the Trash entry (its name carries a time) blanked.
fn results_without_time(out: &std::process::Output) -> Vec<Value> {
    let mut v = results(out);
    for r in &mut v {
        if r["trash"].is_string() {
            r["trash"] = json!("<trash entry>");
        }
    }
    v
}

fn assert_ok(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn two_threads_leave_the_same_stores_and_report_as_one() {
    let (one, two) = (many_root(), many_root());
    let serial = compact_all(one.path(), "1");
    let parallel = compact_all(two.path(), "2");
    assert_ok(&serial);
    assert_ok(&parallel);
    let reports = results_without_time(&serial);
    assert!(
        reports.iter().filter(|r| r["changed"] == true).count() >= SESSIONS,
        "every generated session was compacted: {reports:?}"
    );
    assert_eq!(results_without_time(&parallel), reports);
    assert_eq!(outcome(two.path()), outcome(one.path()));
    fts_integrity_ok(two.path());
    logs_are_toriidb_readable(two.path());
}

/// Every record of every session as it was: in history.json or the archive.
fn assert_nothing_lost(r: &Path, before: &BTreeSet<(String, i64, String)>, what: &str) {
    let (files, rows, _, _) = outcome(r);
    let mut kept: BTreeSet<(String, i64, String)> =
        rows.into_iter().map(|(s, t, _, c)| (s, t, c)).collect();
    for (p, bytes) in files {
        if p.file_name().is_some_and(|n| n == "history.json") {
            let id = p.parent().unwrap().file_name().unwrap().to_string_lossy();
            for rec in serde_json::from_slice::<Vec<Value>>(&bytes).unwrap() {
                kept.insert((
                    id.to_string(),
                    rec["sendAt"].as_i64().unwrap_or(0),
                    rec["content"].as_str().unwrap_or_default().to_owned(),
                ));
            }
        }
    }
    let lost: Vec<_> = before.difference(&kept).collect();
    assert!(lost.is_empty(), "{what}: lost {lost:?}");
}

fn records(r: &Path) -> BTreeSet<(String, i64, String)> {
    let mut all = BTreeSet::new();
    assert_nothing_lost(r, &BTreeSet::new(), "");
    for s in 0..SESSIONS {
        let id = format!("par-{s}");
        let bytes = std::fs::read(r.join("sessions").join(&id).join("history.json")).unwrap();
        for rec in serde_json::from_slice::<Vec<Value>>(&bytes).unwrap() {
            all.insert((
                id.clone(),
                rec["sendAt"].as_i64().unwrap(),
                rec["content"].as_str().unwrap().to_owned(),
            ));
        }
    }
    all
}

#[test]
fn a_kill_in_the_parallel_apply_loses_nothing_and_a_rerun_completes() {
    let root = many_root();
    let r = root.path();
    let before = records(r);
    let start = crate::undo_support::state(r);
    let crashed = sessionctl(r)
        .env("RAYON_NUM_THREADS", "2")
        .env("SESSIONCTL_FAILPOINT", "compact-after-archive")
        .args(["--offline", "compact", "--all", "--budget", "1500", "--yes"])
        .output()
        .unwrap();
    assert!(!crashed.status.success(), "the failpoint aborted the batch");
    assert_nothing_lost(r, &before, "after the kill");
    fts_integrity_ok(r);

    let rerun = compact_all(r, "2");
    assert_ok(&rerun);
    assert_nothing_lost(r, &before, "after the rerun");
    let again = compact_all(r, "2");
    assert_ok(&again);
    assert!(
        results(&again).iter().all(|x| x["changed"] == false),
        "the rerun completed every session"
    );
    logs_are_toriidb_readable(r);

    // The rerun took over what the killed batch kept of the sessions it
    // had begun, so undoing the rerun (and the killed batch, for the
    // sessions it had finished) goes back to before the batch, not to
    // the half-compacted sessions the kill left.
    let undo = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
    assert_ok(&undo);
    loop {
        let more = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
        if more.status.code() == Some(64) {
            break;
        }
        assert_ok(&more);
    }
    assert_eq!(crate::undo_support::state(r), start);
    assert_nothing_lost(r, &before, "after the undo");
}

#[test]
fn undo_after_a_parallel_batch_restores_every_session() {
    let root = many_root();
    let r = root.path();
    let before = crate::undo_support::state(r);
    assert_ok(&compact_all(r, "2"));
    assert_ne!(crate::undo_support::state(r), before);
    let log = results(&sessionctl(r).args(["log", "--json"]).output().unwrap());
    let sessions: BTreeSet<&str> = log[0]["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["session"].as_str().unwrap())
        .collect();
    assert!(
        sessions.len() >= SESSIONS,
        "one operation holds every session"
    );
    let undo = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
    assert_ok(&undo);
    assert_eq!(crate::undo_support::state(r), before);
    fts_integrity_ok(r);
    logs_are_toriidb_readable(r);
}
