//! `summarize` on the batch runner: a dry run is the real run's report,
//! number for number, and a cron run over an up-to-date root only stats
//! the sessions (no parse, no write, no lock).

use crate::common::*;

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{json, Value};

const T0: i64 = 1_764_547_200_000_000_000; // 2025-12-01 00:00:00 UTC

/// `n` exchanges from exchange `first` on, a minute apart, of varied length.
fn exchanges(first: usize, n: usize) -> Vec<Value> {
    (first..first + n)
        .flat_map(|i| {
            let t = T0 + i as i64 * 60_000_000_000;
            [
                json!({"role":"user","content":format!("Step {i}: rotate the logs of service {i} {}", "nightly ".repeat(i % 7)),"sendAt":t}),
                json!({"role":"assistant","content":format!("Service {i}: added a logrotate stanza with rotate {}.", 7 + i),"sendAt":t + 5_000_000_000i64}),
            ]
        })
        .collect()
}

fn write_history(root: &Path, session: &str, records: &[Value]) {
    let dir = root.join("sessions").join(session);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("history.json"),
        serde_json::to_vec_pretty(records).unwrap(),
    )
    .unwrap();
}

/// The fixture root with `n` more sessions of 1..=9 exchanges each.
fn generated_root(n: usize) -> tempfile::TempDir {
    let root = fixture_copy();
    for i in 0..n {
        write_history(
            root.path(),
            &format!("gen-{i:03}"),
            &exchanges(i, 1 + i % 9),
        );
    }
    root
}

fn summarize(root: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    sessionctl(root)
        .envs(env.iter().copied())
        .arg("summarize")
        .args(args)
        .arg("--json")
        .output()
        .unwrap()
}

fn without_dry_run(out: &Output) -> Vec<Value> {
    results(out)
        .into_iter()
        .map(|mut x| {
            x.as_object_mut().unwrap().remove("dry_run");
            x
        })
        .collect()
}

/// Every file outside `.sessionctl/` with its inode and mtime: equal means
/// nothing was rewritten, not even with the same bytes.
fn stamps(root: &Path) -> Vec<(PathBuf, u64, i64, i64)> {
    snapshot(root)
        .into_keys()
        .map(|p| {
            let m = std::fs::symlink_metadata(root.join(&p)).unwrap();
            (p, m.ino(), m.mtime(), m.mtime_nsec())
        })
        .collect()
}

#[test]
fn a_dry_run_is_the_real_runs_report() {
    let fixture = fixture_copy();
    let generated = generated_root(12);
    for (root, args) in [
        (fixture.path(), &["--all"][..]),
        (generated.path(), &["--all", "--chunk-chars", "300"]),
    ] {
        let before = snapshot(root);
        let dry = summarize(root, &[args, &["--dry-run"]].concat(), &[]);
        assert!(dry.status.success(), "{}", stderr(&dry));
        assert_eq!(before, snapshot(root), "a dry run writes nothing");
        let real = summarize(root, args, &[]);
        assert!(real.status.success(), "{}", stderr(&real));
        let (dry, real) = (without_dry_run(&dry), without_dry_run(&real));
        assert_eq!(dry, real, "{args:?}");
        assert!(
            real.iter().all(|r| r["count"].as_u64() > Some(0)),
            "{real:?}"
        );
        if root == generated.path() {
            assert!(real.iter().any(|r| r["chunks"].as_u64() > Some(1)));
        }
    }
}

#[test]
fn an_up_to_date_root_is_only_statted() {
    let root = generated_root(30);
    let r = root.path();
    // files this test wrote count as settled at once
    let settled = [("SESSIONCTL_ROWS_SETTLED", "1")];
    let no_parse = [
        ("SESSIONCTL_ROWS_SETTLED", "1"),
        ("SESSIONCTL_FAILPOINT", "summarize-parse"),
    ];
    let first = summarize(r, &["--all"], &settled);
    assert!(first.status.success(), "{}", stderr(&first));

    // nothing new: nothing written outside .sessionctl/, the finding kept
    let before = (snapshot(r), stamps(r));
    let second = summarize(r, &["--all"], &settled);
    assert!(second.status.success(), "{}", stderr(&second));
    assert_eq!(before, (snapshot(r), stamps(r)));
    assert!(results(&second).iter().all(|x| x["count"] == 0));
    let cache = r.join(".sessionctl/summarized.json");
    assert!(cache.exists(), "the up-to-date sessions are remembered");

    // and the next run parses no session at all (the failpoint would
    // abort), writes not even the cache, and reports the same
    let cache_before = std::fs::read(&cache).unwrap();
    let third = summarize(r, &["--all"], &no_parse);
    assert!(third.status.success(), "{}", stderr(&third));
    assert_eq!(results(&second), results(&third));
    assert_eq!(before, (snapshot(r), stamps(r)));
    assert_eq!(cache_before, std::fs::read(&cache).unwrap());

    // a changed history.json is read again, never trusted from the cache
    write_history(r, "gen-004", &exchanges(4, 7));
    let aborted = summarize(r, &["--all"], &no_parse);
    assert!(!aborted.status.success(), "a changed session is parsed");
    let fourth = summarize(r, &["--all"], &settled);
    assert!(fourth.status.success(), "{}", stderr(&fourth));
    let merged: Vec<(String, u64)> = results(&fourth)
        .iter()
        .filter(|x| x["count"] != 0)
        .map(|x| {
            (
                x["session"].as_str().unwrap().to_owned(),
                x["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(merged, [("gen-004".to_owned(), 4)]);
}

/// A session file that is a link inside the root is stamped through the
/// link (the file it leads to), not by the link itself: rewriting the
/// file it leads to in place must not leave the session trusted as up to
/// date. (Files that are no links are stamped by the one lstat that also
/// checks they are no links.)
#[test]
fn a_linked_history_is_stamped_by_the_file_it_leads_to() {
    let root = generated_root(3);
    let r = &root.path().canonicalize().unwrap();
    let kept = r.join("kept");
    std::fs::create_dir_all(&kept).unwrap();
    let history = r.join("sessions/gen-002/history.json");
    std::fs::rename(&history, kept.join("history.json")).unwrap();
    std::os::unix::fs::symlink("../../kept/history.json", &history).unwrap();
    let settled = [("SESSIONCTL_ROWS_SETTLED", "1")];
    let no_parse = [
        ("SESSIONCTL_ROWS_SETTLED", "1"),
        ("SESSIONCTL_FAILPOINT", "summarize-parse"),
    ];
    for _ in 0..2 {
        let out = summarize(r, &["--all"], &settled);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let quiet = summarize(r, &["--all"], &no_parse);
    assert!(quiet.status.success(), "up to date: {}", stderr(&quiet));

    // the file behind the link grows; the link itself does not change
    let link_before = std::fs::symlink_metadata(&history).unwrap();
    std::fs::write(
        kept.join("history.json"),
        serde_json::to_vec_pretty(&exchanges(2, 8)).unwrap(),
    )
    .unwrap();
    let link_after = std::fs::symlink_metadata(&history).unwrap();
    assert_eq!(
        (link_before.ino(), link_before.mtime_nsec()),
        (link_after.ino(), link_after.mtime_nsec())
    );
    let aborted = summarize(r, &["--all"], &no_parse);
    assert!(
        !aborted.status.success(),
        "the linked history is read again"
    );
    let merged = summarize(r, &["--all"], &settled);
    assert!(merged.status.success(), "{}", stderr(&merged));
    let counts: Vec<(String, u64)> = results(&merged)
        .iter()
        .filter(|x| x["count"] != 0)
        .map(|x| {
            (
                x["session"].as_str().unwrap().to_owned(),
                x["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(counts.len(), 1, "{counts:?}");
    assert_eq!(counts[0].0, "gen-002");
}

#[test]
fn a_held_lock_fails_its_session_and_the_batch_goes_on() {
    let root = fixture_copy();
    let r = root.path();
    let lock_dir = r.join(".sessionctl/locks");
    std::fs::create_dir_all(&lock_dir).unwrap();
    let file = std::fs::File::create(lock_dir.join("session-tui-alice.lock")).unwrap();
    assert_eq!(
        unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&file), libc::LOCK_EX) },
        0
    );
    let out = summarize(r, &["--all"], &[]);
    assert_eq!(out.status.code(), Some(75), "{}", stderr(&out));
    let v = json_of(&out);
    assert_eq!(v["errors"][0]["session"], "tui-alice", "{v}");
    let done: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["session"].as_str().unwrap())
        .collect();
    assert_eq!(done, ["discord-9001", "tui-alice-2"]);
}

/// A corrupt summary.json fails its session with 65 naming the file; the
/// others are merged, and the bad one is never remembered as up to date.
#[test]
fn a_corrupt_summary_is_65_and_the_batch_goes_on() {
    let root = generated_root(3);
    let r = root.path();
    let bad = r.join("sessions/gen-001/summary.json");
    std::fs::write(&bad, b"{\"key_decisions\":[").unwrap();
    let settled = [("SESSIONCTL_ROWS_SETTLED", "1")];
    for _ in 0..2 {
        let out = summarize(r, &["--all"], &settled);
        assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
        let v = json_of(&out);
        assert_eq!(v["errors"].as_array().unwrap().len(), 1, "{v}");
        assert_eq!(v["errors"][0]["session"], "gen-001");
        assert!(v["errors"][0]["file"]
            .as_str()
            .unwrap()
            .ends_with("summary.json"));
        assert_eq!(results(&out).len(), 5, "{v}");
    }
    assert_eq!(std::fs::read(&bad).unwrap(), b"{\"key_decisions\":[");
}

/// No session matches: an empty result, exit 0, nothing written.
#[test]
fn no_matching_session_is_an_empty_batch() {
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    let out = summarize(r, &["--all", "--match", "nobody-*"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(results(&out).is_empty());
    assert_eq!(before, snapshot(r));
}
