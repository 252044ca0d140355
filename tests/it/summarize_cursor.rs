//! `summarize` merges every record exactly once: records compact moved to
//! the archive, a record in the same second as the cursor, records without
//! a sendAt (never again), with Agenvoy's own cursor too.

use crate::common::*;

use std::path::Path;

use serde_json::{json, Value};

const T0: i64 = 1_764_547_200_000_000_000; // 2025-12-01 00:00:00 UTC

/// Append records to a session's history.json and archive, as Agenvoy does
/// (the session folder is created if needed).
fn append(root: &Path, session: &str, records: &[Value]) {
    let dir = root.join("sessions").join(session);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("history.json");
    let mut all: Vec<Value> = std::fs::read(&path)
        .map(|b| serde_json::from_slice(&b).unwrap())
        .unwrap_or_default();
    all.extend(records.iter().cloned());
    std::fs::write(&path, serde_json::to_vec_pretty(&all).unwrap()).unwrap();
    archive_records(root, session, records);
}

/// `n` exchanges from exchange `first` on, a minute apart.
fn exchanges(first: usize, n: usize) -> Vec<Value> {
    (first..first + n)
        .flat_map(|i| {
            let t = T0 + i as i64 * 60_000_000_000;
            [
                json!({"role":"user","content":format!("Step {i}: rotate the logs of service {i} nightly."),"sendAt":t,"sender":"a"}),
                json!({"role":"assistant","content":format!("Service {i}: added a logrotate stanza with rotate 14."),"sendAt":t + 5_000_000_000i64}),
            ]
        })
        .collect()
}

/// The run's result: the one session's report, or (for --all) the list.
fn summarize(root: &Path, args: &[&str]) -> Value {
    let out = sessionctl(root)
        .arg("summarize")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    if args.contains(&"--all") {
        Value::Array(results(&out))
    } else {
        one(&out)
    }
}

/// A session of its own in a copy of the fixture root.
fn root_with(session: &str, records: &[Value]) -> tempfile::TempDir {
    let root = fixture_copy();
    append(root.path(), session, records);
    root
}

fn mtimes(root: &Path) -> Vec<(std::path::PathBuf, std::time::SystemTime)> {
    snapshot(root)
        .into_keys()
        .map(|p| {
            let m = std::fs::metadata(root.join(&p))
                .unwrap()
                .modified()
                .unwrap();
            (p, m)
        })
        .collect()
}

#[test]
fn records_compact_removed_after_the_cursor_are_merged() {
    let root = root_with("tui-cron", &exchanges(0, 10));
    let r = root.path();
    assert_eq!(summarize(r, &["tui-cron"])["count"], 20);
    // Agenvoy appends 20 exchanges; the cron's compact runs before its summarize
    append(r, "tui-cron", &exchanges(10, 20));
    let out = sessionctl(r)
        .args([
            "--offline",
            "compact",
            "tui-cron",
            "--budget",
            "600",
            "--yes",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let removed = one(&out)["removed_records"].as_u64().unwrap();
    assert!(
        removed > 20,
        "compact removed records not merged yet: {removed}"
    );
    // every new record is merged, also those now only in the archive
    let v = summarize(r, &["tui-cron"]);
    assert_eq!(v["count"], 40, "{v}");
    assert_eq!(v["cursor"], "2025-12-01 00:29:05");
    let s: Value =
        serde_json::from_slice(&std::fs::read(r.join("sessions/tui-cron/summary.json")).unwrap())
            .unwrap();
    assert!(
        s.to_string().contains("Service 1") || s.to_string().contains("Step"),
        "{s}"
    );
    // and a rerun merges nothing and writes nothing
    let before = snapshot(r);
    assert_eq!(summarize(r, &["tui-cron"])["count"], 0);
    assert_eq!(before, snapshot(r));
}

#[test]
fn a_record_in_the_cursors_second_is_merged_on_rerun() {
    let root = root_with(
        "tui-sec",
        &[json!({"role":"user","content":"Rotate the logs nightly.","sendAt":T0,"sender":"a"})],
    );
    let r = root.path();
    let v = summarize(r, &["tui-sec"]);
    assert_eq!(
        (v["count"].as_u64(), v["cursor"].as_str()),
        (Some(1), Some("2025-12-01 00:00:00"))
    );
    // the reply lands 0.3 s later, in the same second as the cursor
    append(
        r,
        "tui-sec",
        &[
            json!({"role":"assistant","content":"Added a logrotate stanza.","sendAt":T0 + 300_000_000}),
        ],
    );
    assert_eq!(summarize(r, &["tui-sec"])["count"], 1);
    assert_eq!(summarize(r, &["tui-sec"])["count"], 0);
}

#[test]
fn sessions_ending_without_a_send_at_are_not_merged_again() {
    let root = fixture_copy();
    let r = root.path();
    for id in ["tui-alice", "discord-9001", "tui-alice-2"] {
        append(
            r,
            id,
            &[json!({"role":"assistant","content":"(a reply saved without a time)"})],
        );
    }
    let first = summarize(r, &["--all"]);
    assert!(
        first
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["count"].as_u64() > Some(0)),
        "{first}"
    );
    let (files, times) = (snapshot(r), mtimes(r));
    let again = summarize(r, &["--all"]);
    assert!(
        again.as_array().unwrap().iter().all(|s| s["count"] == 0),
        "{again}"
    );
    assert_eq!(files, snapshot(r), "nothing rewritten");
    assert_eq!(times, mtimes(r), "not even touched");
}

#[test]
fn a_cursor_agenvoy_wrote_still_works() {
    let root = fixture_copy();
    let r = root.path();
    // the fixture's cursor is Agenvoy's: last_message_time only
    assert_eq!(summarize(r, &["tui-alice"])["count"], 2);
    let meta_path = r.join("sessions/tui-alice/summary.meta.json");
    let meta: Value = serde_json::from_slice(&std::fs::read(&meta_path).unwrap()).unwrap();
    assert_eq!(meta["last_message_time"], "2025-12-01 00:01:50");
    assert_eq!(meta["last_send_at"], "1764547310000000000", "{meta}");
    // Agenvoy's next run rewrites it with its own field only
    std::fs::write(&meta_path, r#"{"last_message_time":"2025-12-01 00:01:50"}"#).unwrap();
    let before = snapshot(r);
    assert_eq!(summarize(r, &["tui-alice"])["count"], 0);
    assert_eq!(before, snapshot(r));
    append(
        r,
        "tui-alice",
        &[
            json!({"role":"user","content":"Also rotate the error log.","sendAt":T0 + 200_000_000_000i64}),
        ],
    );
    assert_eq!(summarize(r, &["tui-alice"])["count"], 1);
}

#[test]
fn summarizing_in_increments_writes_what_one_run_writes() {
    let all = exchanges(0, 8);
    let once = root_with("tui-inc", &all);
    summarize(once.path(), &["tui-inc"]);
    let steps = fixture_copy();
    for part in all.chunks(5) {
        append(steps.path(), "tui-inc", part);
        summarize(steps.path(), &["tui-inc", "--chunk-chars", "120"]);
    }
    let summary = |root: &Path| std::fs::read(root.join("sessions/tui-inc/summary.json")).unwrap();
    assert_eq!(summary(once.path()), summary(steps.path()));
    // Both count the whole conversation as merged: the summary's size
    // budget (a fifth of it) is the same however it was reached.
    let meta = |root: &Path| -> Value {
        serde_json::from_slice(
            &std::fs::read(root.join("sessions/tui-inc/summary.meta.json")).unwrap(),
        )
        .unwrap()
    };
    let chars: u64 = all
        .iter()
        .map(|r| r["content"].as_str().unwrap().chars().count() as u64)
        .sum();
    assert_eq!(meta(once.path())["merged_chars"], chars);
    assert_eq!(meta(steps.path())["merged_chars"], chars);
}
