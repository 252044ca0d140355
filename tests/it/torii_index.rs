//! The ToriiDB index snapshot read commands keep in `.sessionctl/`: the
//! next run replays only what was appended, sees what a full replay sees,
//! and the snapshot never costs a user file, a link out of the root, a
//! read-only root or a kill in the middle of writing it.

use crate::common::*;

use std::io::Write;
use std::path::{Path, PathBuf};

fn log(root: &Path, db: u8) -> PathBuf {
    root.join(format!(".store/db_{db}/record.aof"))
}

fn index(root: &Path, db: u8) -> PathBuf {
    root.join(format!(".sessionctl/torii-db{db}.idx"))
}

/// The binary with snapshots kept of any log (the fixture's are a few
/// hundred bytes) and files taken as settled, counting loads in `count`.
fn run(root: &Path, count: &Path, args: &[&str]) -> std::process::Output {
    sessionctl(root)
        .env("SESSIONCTL_TORII_SNAPSHOT_MIN", "0")
        .env("SESSIONCTL_ROWS_SETTLED", "1")
        .env("SESSIONCTL_TORII_LOAD_COUNT", count)
        .args(args)
        .output()
        .unwrap()
}

/// The same command with no snapshot to resume from and none kept: what
/// a full replay shows.
fn full(root: &Path, args: &[&str]) -> serde_json::Value {
    let copy = tempfile::tempdir().unwrap();
    copy_tree(root, copy.path());
    // a session with no history is as recent as its folder: the copy keeps
    // the folders' times, or a copy made across a second boundary differs
    keep_times(&root.join("sessions"), &copy.path().join("sessions"));
    let _ = std::fs::remove_dir_all(copy.path().join(".sessionctl"));
    let out = sessionctl(copy.path()).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json_of(&out)
}

fn keep_times(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let (f, t) = (e.path(), to.join(e.file_name()));
        if e.file_type().unwrap().is_dir() {
            keep_times(&f, &t);
        }
        if let (Ok(m), Ok(file)) = (std::fs::symlink_metadata(&f), std::fs::File::open(&t)) {
            let _ = file.set_modified(m.modified().unwrap());
        }
    }
    if let (Ok(m), Ok(dir)) = (std::fs::metadata(from), std::fs::File::open(to)) {
        let _ = dir.set_modified(m.modified().unwrap());
    }
}

/// The loads `count` recorded since it was last taken: "load" (a full
/// replay) or "load resumed at N".
fn take_loads(count: &Path) -> Vec<String> {
    let s = std::fs::read_to_string(count).unwrap_or_default();
    let _ = std::fs::remove_file(count);
    s.lines().map(str::to_owned).collect()
}

fn append(path: &Path, bytes: &[u8]) {
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .unwrap()
        .write_all(bytes)
        .unwrap();
}

fn new_message(key: &str) -> String {
    let value = serde_json::json!({"role": "user", "content": "logrotate again", "sendAt": 1});
    format!(
        "{}\n",
        serde_json::json!({"ts": 1764547999, "cmd": "SET", "key": key, "value": value.to_string()})
    )
}

/// Results without what differs between two roots anyway (their paths and
/// files' modification times).
fn results(v: &serde_json::Value) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("path");
                m.remove("modified");
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut r = v["results"].clone();
    strip(&mut r);
    r
}

#[test]
fn a_read_resumes_from_the_snapshot_of_the_one_before() {
    let root = fixture_copy();
    let r = root.path();
    let count = r.join("no-home-loads");
    let out = run(r, &count, &["sessions", "list", "--json"]);
    assert!(out.status.success());
    assert_eq!(take_loads(&count), ["load"]);
    assert!(index(r, 1).is_file(), "the first read keeps the index");
    let covered = std::fs::metadata(log(r, 1)).unwrap().len();

    // Agenvoy appends a message
    append(
        &log(r, 1),
        new_message("tui-alice:1764547999000000000").as_bytes(),
    );
    let args = ["show", "tui-alice", "--json"];
    let out = run(r, &count, &args);
    assert!(out.status.success());
    assert_eq!(
        take_loads(&count),
        [format!("load resumed at {covered}")],
        "only the appended line is replayed"
    );
    assert_eq!(results(&json_of(&out)), results(&full(r, &args)));
    // db2 gets its own snapshot on its first read
    assert!(run(r, &count, &["errors", "list", "--json"])
        .status
        .success());
    assert_eq!(take_loads(&count), ["load"]);
    append(
        &log(r, 2),
        std::fs::read(log(r, 2))
            .unwrap()
            .split_inclusive(|&b| b == b'\n')
            .next()
            .unwrap(),
    );
    for args in [
        &["sessions", "list", "--json"][..],
        &["search", "logrotate", "--by", "keyword", "--json"],
        &["search", "logrotate", "--json"],
        &["errors", "list", "--json"],
    ] {
        let out = run(r, &count, args);
        assert!(out.status.success(), "{args:?}");
        assert_eq!(results(&json_of(&out)), results(&full(r, args)), "{args:?}");
        assert!(
            take_loads(&count)
                .iter()
                .all(|l| l.starts_with("load resumed at")),
            "{args:?} replayed a whole log"
        );
    }
}

#[test]
fn a_keyword_search_without_a_snapshot_scans_and_keeps_none() {
    let root = fixture_copy();
    let r = root.path();
    let count = r.join("no-home-loads");
    let args = ["search", "nginx", "--by", "keyword", "--json"];
    let out = run(r, &count, &args);
    assert!(out.status.success());
    // the filtered scan costs less than a full replay: no index to keep
    assert!(!index(r, 1).exists());
    assert_eq!(take_loads(&count), ["load"]);
    assert_eq!(results(&json_of(&out)), results(&full(r, &args)));
}

#[test]
fn our_own_writes_only_grow_the_log_and_the_next_read_resumes() {
    let root = fixture_copy();
    let r = root.path();
    let count = r.join("no-home-loads");
    assert!(run(r, &count, &["sessions", "list", "--json"])
        .status
        .success());
    let covered = std::fs::metadata(log(r, 1)).unwrap().len();
    take_loads(&count);
    let out = run(
        r,
        &count,
        &[
            "reset",
            "tui-alice",
            "--mode",
            "all",
            "--purge",
            "--yes",
            "--json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // the plan resumed from the snapshot (the apply took its replay over)
    assert_eq!(take_loads(&count), [format!("load resumed at {covered}")]);
    let args = ["sessions", "list", "--json"];
    let out = run(r, &count, &args);
    let loads = take_loads(&count);
    assert!(
        loads.len() == 1 && loads[0].starts_with("load resumed at"),
        "{loads:?}"
    );
    let listed = json_of(&out);
    assert_eq!(results(&listed), results(&full(r, &args)));
    let alice = listed["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session"] == "tui-alice")
        .unwrap();
    assert_eq!(alice["torii_keys"], 0, "{alice}");
}

#[test]
fn a_rewritten_log_is_replayed_whole_and_the_snapshot_replaced() {
    let root = fixture_copy();
    let r = root.path();
    let count = r.join("no-home-loads");
    assert!(run(r, &count, &["errors", "list", "--json"])
        .status
        .success());
    let before = std::fs::read(index(r, 2)).unwrap();
    take_loads(&count);
    // ToriiDB's Close(): the live entries into a new file renamed over the log
    let db2 = db(r, 2);
    let mut compacted: Vec<u8> = db2.all().flat_map(|(k, e)| e.compacted_line(k)).collect();
    compacted.extend_from_slice(&compacted.clone());
    let tmp = log(r, 2).with_extension("aof.tmp");
    std::fs::write(&tmp, &compacted).unwrap();
    std::fs::rename(&tmp, log(r, 2)).unwrap();
    let args = ["errors", "list", "--json"];
    let out = run(r, &count, &args);
    assert_eq!(take_loads(&count), ["load"]);
    assert_eq!(results(&json_of(&out)), results(&full(r, &args)));
    assert_ne!(std::fs::read(index(r, 2)).unwrap(), before);
    assert!(run(r, &count, &args).status.success());
    assert!(take_loads(&count)[0].starts_with("load resumed at"));
}

#[test]
fn a_kill_while_the_snapshot_is_written_leaves_the_old_one_or_none() {
    for failpoint in ["torii-snapshot-half-written", "atomic-before-rename"] {
        let root = fixture_copy();
        let r = root.path();
        let count = r.join("no-home-loads");
        let args = ["sessions", "list", "--json"];
        // no snapshot yet: the kill leaves none
        let out = sessionctl(r)
            .env("SESSIONCTL_TORII_SNAPSHOT_MIN", "0")
            .env("SESSIONCTL_ROWS_SETTLED", "1")
            .env("SESSIONCTL_FAILPOINT", failpoint)
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), None, "{failpoint}: not killed");
        assert!(!index(r, 1).exists(), "{failpoint}");
        // a snapshot, then a tail long enough to replace it
        assert!(run(r, &count, &args).status.success());
        let old = std::fs::read(index(r, 1)).unwrap();
        let tail: String = (0..40)
            .map(|i| new_message(&format!("tui-alice:17645480000000000{i:02}")))
            .collect();
        append(&log(r, 1), tail.as_bytes());
        take_loads(&count);
        let out = sessionctl(r)
            .env("SESSIONCTL_TORII_SNAPSHOT_MIN", "0")
            .env("SESSIONCTL_ROWS_SETTLED", "1")
            .env("SESSIONCTL_FAILPOINT", failpoint)
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), None, "{failpoint}: not killed");
        assert_eq!(std::fs::read(index(r, 1)).unwrap(), old, "{failpoint}");
        // the next run resumes from the old snapshot, and replaces it
        let out = run(r, &count, &args);
        assert!(out.status.success());
        assert_eq!(results(&json_of(&out)), results(&full(r, &args)));
        let loads = take_loads(&count);
        assert!(loads[0].starts_with("load resumed at"), "{loads:?}");
        assert_ne!(std::fs::read(index(r, 1)).unwrap(), old);
    }
}

#[test]
fn a_damaged_or_foreign_snapshot_is_a_full_replay() {
    let root = fixture_copy();
    let r = root.path();
    let count = r.join("no-home-loads");
    // `show` reads db1 every time (`sessions list` may answer from rows.json)
    let args = ["show", "tui-alice", "--json"];
    assert!(run(r, &count, &args).status.success());
    let good = std::fs::read(index(r, 1)).unwrap();
    let want = results(&full(r, &args));
    let mut torn = good.clone();
    torn.truncate(good.len() - 3);
    let mut flipped = good.clone();
    let mid = good.len() / 2;
    flipped[mid] ^= 0x20;
    let mut other_version = good.clone();
    other_version[8] ^= 0x7f;
    for bad in [
        Vec::new(),
        b"not an index".to_vec(),
        torn,
        flipped,
        other_version,
        br#"{"version":2,"sessions":{}}"#.to_vec(),
    ] {
        std::fs::write(index(r, 1), &bad).unwrap();
        take_loads(&count);
        let out = run(r, &count, &args);
        assert!(out.status.success());
        assert_eq!(results(&json_of(&out)), want);
        assert_eq!(take_loads(&count), ["load"]);
    }
    // db2's snapshot is not db1's
    std::fs::copy(index(r, 1), index(r, 2)).unwrap();
    take_loads(&count);
    let out = run(r, &count, &["errors", "list", "--json"]);
    assert!(out.status.success());
    assert_eq!(take_loads(&count), ["load"]);
}

#[test]
fn links_out_of_the_root_and_fifos_are_neither_read_nor_written() {
    let outside = tempfile::tempdir().unwrap();
    let root = fixture_copy();
    let r = root.path();
    let count = r.join("no-home-loads");
    let args = ["sessions", "list", "--json"];
    // a snapshot outside the root, as a real one, linked in
    assert!(run(r, &count, &args).status.success());
    let foreign = outside.path().join("torii-db1.idx");
    std::fs::rename(index(r, 1), &foreign).unwrap();
    let bytes = std::fs::read(&foreign).unwrap();
    std::os::unix::fs::symlink(&foreign, index(r, 1)).unwrap();
    append(
        &log(r, 1),
        new_message("tui-alice:1764547999000000000").as_bytes(),
    );
    take_loads(&count);
    let out = run(r, &count, &args);
    assert!(out.status.success());
    assert_eq!(take_loads(&count), ["load"], "read through a link out");
    assert_eq!(
        std::fs::read(&foreign).unwrap(),
        bytes,
        "written through a link out"
    );
    // our folder itself a link out of the root
    std::fs::remove_dir_all(r.join(".sessionctl")).unwrap();
    std::os::unix::fs::symlink(outside.path(), r.join(".sessionctl")).unwrap();
    let listed: Vec<_> = std::fs::read_dir(outside.path()).unwrap().collect();
    let out = run(r, &count, &args);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_dir(outside.path()).unwrap().count(),
        listed.len()
    );
    // a FIFO where the snapshot goes: not opened for reading (that would
    // block), and the run still lists
    std::fs::remove_file(r.join(".sessionctl")).unwrap();
    let want = results(&full(r, &args));
    std::fs::create_dir(r.join(".sessionctl")).unwrap();
    let fifo = std::ffi::CString::new(index(r, 1).into_os_string().into_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let out = run(r, &count, &args);
    assert!(out.status.success());
    assert_eq!(results(&json_of(&out)), want);
}

#[test]
fn a_read_only_root_gets_no_snapshot() {
    let Some(fs) = Tmpfs::mount("16m") else {
        eprintln!("skipped: mounting a tmpfs needs root");
        return;
    };
    let r = fs.dir.path();
    copy_fixture(r);
    fs.remount_read_only();
    let before = snapshot(r);
    let count = tempfile::tempdir().unwrap();
    let count = count.path().join("loads");
    for args in [
        &["sessions", "list", "--json"][..],
        &["errors", "list", "--json"],
        &["show", "tui-alice", "--json"],
    ] {
        let out = run(r, &count, args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("torii-db"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(!r.join(".sessionctl").exists());
    assert_eq!(before, snapshot(r));
}

#[test]
fn readers_at_once_leave_a_snapshot_that_resumes() {
    let root = fixture_copy();
    let r = root.path();
    let count = r.join("no-home-loads");
    let args = ["sessions", "list", "--json"];
    let first = results(&full(r, &args));
    for round in 0..6 {
        // more lines each round: every reader has something to write
        let tail: String = (0..20)
            .map(|i| new_message(&format!("tui-alice:17645490000000{round:02}{i:03}")))
            .collect();
        append(&log(r, 1), tail.as_bytes());
        let want = results(&full(r, &args));
        let children: Vec<_> = (0..4)
            .map(|_| {
                std::process::Command::new(assert_cmd::cargo::cargo_bin("sessionctl"))
                    .env_clear()
                    .env("TZ", "UTC")
                    .env("HOME", r.join("no-home"))
                    .env("SESSIONCTL_TORII_SNAPSHOT_MIN", "0")
                    .env("SESSIONCTL_ROWS_SETTLED", "1")
                    .arg("--root")
                    .arg(r)
                    .args(args)
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let out = c.wait_with_output().unwrap();
            assert!(out.status.success());
            assert_eq!(results(&json_of(&out)), want);
        }
    }
    take_loads(&count);
    let show = ["show", "tui-alice", "--json"];
    let out = run(r, &count, &show);
    assert!(take_loads(&count)[0].starts_with("load resumed at"));
    assert_eq!(results(&json_of(&out)), results(&full(r, &show)));
    let out = run(r, &count, &args);
    assert_ne!(results(&json_of(&out)), first, "the rounds added keys");
    assert_eq!(results(&json_of(&out)), results(&full(r, &args)));
    let leftovers: Vec<_> = std::fs::read_dir(r.join(".sessionctl"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A db1 of many messages in the fixture's sessions: shared words, equal
/// times across sessions, deletions, expired and expiring keys.
fn busy_log(seed: u64, n: usize) -> String {
    let mut x = seed;
    let mut next = move |m: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % m
    };
    let sessions = ["tui-alice", "tui-alice-2", "discord-9001"];
    let words = [
        "logrotate",
        "nginx",
        "daily",
        "rotate",
        "logs",
        "Daily",
        "LOGROTATE",
    ];
    let mut out = String::new();
    for _ in 0..n {
        let key = format!("{}:17645{:014}", sessions[next(3) as usize], next(40));
        let line = match next(10) {
            0 => serde_json::json!({"ts": 2, "cmd": "DEL", "key": key}),
            1 => {
                serde_json::json!({"ts": 2, "cmd": "EXPIREAT", "key": key, "value": "5", "expire_at": 5})
            }
            _ => {
                let text: Vec<&str> = (0..1 + next(4)).map(|_| words[next(7) as usize]).collect();
                let role = if next(2) == 0 { "user" } else { "assistant" };
                let value =
                    serde_json::json!({"role": role, "content": text.join(" ")}).to_string();
                serde_json::json!({"ts": 1, "cmd": "SET", "key": key, "value": value})
            }
        };
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

#[test]
fn a_keyword_search_from_the_index_finds_what_the_scan_does() {
    let root = fixture_copy();
    let r = root.path();
    let count = r.join("no-home-loads");
    append(&log(r, 1), busy_log(7, 400).as_bytes());
    assert!(run(r, &count, &["show", "tui-alice", "--json"])
        .status
        .success());
    assert!(index(r, 1).is_file());
    // appended since: more of the same, over the same keys
    append(&log(r, 1), busy_log(11, 150).as_bytes());
    for query in [
        "logrotate",
        "nginx daily",
        "rotate",
        "\"rotate logs\"",
        "absent",
    ] {
        for limit in ["1", "3", "20", "200"] {
            for sessions in [&[][..], &["tui-alice-2"]] {
                let mut args = vec![
                    "search", query, "--by", "keyword", "--limit", limit, "--json",
                ];
                args.extend_from_slice(sessions);
                take_loads(&count);
                let out = run(r, &count, &args);
                assert!(out.status.success(), "{args:?}");
                assert!(
                    take_loads(&count)[0].starts_with("load resumed at"),
                    "{args:?}"
                );
                assert_eq!(
                    results(&json_of(&out)),
                    results(&full(r, &args)),
                    "{args:?}"
                );
            }
        }
    }
}
