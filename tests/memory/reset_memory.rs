//! `reset` of a session with many db1 keys holds no more than the replay
//! itself needed (the aim: peak memory ≤ 1.5× the log): its keys are not
//! copied again, and the DEL lines are written into room reserved once.
//! Heap use is measured with a counting allocator, so the test is exact,
//! not timing- or RSS-dependent.

use std::path::Path;

use crate::counting_alloc::{peak_of, SERIAL};

use clap::Parser;
use sessionctl::cli::Cli;
use sessionctl::store::torii::Db;

const KEY_LEN: usize = 200;

/// A root with one session whose db1 log has `keys` SETs of short values
/// (the shape of Agenvoy's session history: the keys are much of the log).
fn root_with_keys(root: &Path, keys: usize) -> usize {
    std::fs::create_dir_all(root.join("sessions/s1")).unwrap();
    std::fs::write(root.join("sessions/s1/history.json"), "[]").unwrap();
    std::fs::create_dir_all(root.join(".store/db_1")).unwrap();
    let mut log = String::new();
    let tag = "k".repeat(KEY_LEN);
    for i in 0..keys {
        log +=
            &format!("{{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s1:{tag}{i:09}\",\"value\":\"x\"}}\n");
    }
    std::fs::write(root.join(".store/db_1/record.aof"), &log).unwrap();
    log.len()
}

fn cli(root: &Path, dry_run: bool) -> Cli {
    let mut args = vec![
        "sessionctl",
        "--offline",
        "--quiet",
        "--root",
        root.to_str().unwrap(),
        "reset",
        "s1",
        "--mode",
        "all",
        "--purge",
        "--yes",
    ];
    if dry_run {
        args.push("--dry-run");
    }
    Cli::try_parse_from(args).unwrap()
}

#[test]
fn reset_holds_no_more_than_its_plan() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let keys = 20_000;
    let size = root_with_keys(dir.path(), keys);
    let plan = peak_of(|| {
        sessionctl::commands::run(cli(dir.path(), true)).unwrap();
    });
    let reset = peak_of(|| {
        sessionctl::commands::run(cli(dir.path(), false)).unwrap();
    });
    let log = std::fs::read_to_string(dir.path().join(".store/db_1/record.aof")).unwrap();
    assert_eq!(log.matches("\"cmd\":\"DEL\"").count(), keys);
    eprintln!("log {size}, plan peak {plan}, reset peak {reset}");
    // The plan's peak is the replay's. The apply needs, beside the index,
    // only the DEL lines: a second copy of the keys, or the lines' buffer
    // grown by doubling, goes over it (by ~70 bytes a key here). Parallel
    // parsing makes the replay's peak vary a little: 16 bytes a key spare.
    let slack = keys * 16;
    assert!(
        reset <= plan + slack,
        "reset peaked at {reset} bytes, its plan at {plan} (log: {size} bytes)"
    );
}

#[test]
fn deleting_keys_holds_their_del_lines_once() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let keys = 20_000;
    root_with_keys(dir.path(), keys);
    let log = dir.path().join(".store/db_1/record.aof");
    let before = std::fs::metadata(&log).unwrap().len() as usize;
    let mut db = Db::load(&dir.path().join(".store"), 1).unwrap();
    let names = db.keys("s1:*", 2);
    let peak = peak_of(|| {
        assert_eq!(db.delete(&names, 2).unwrap(), keys);
    });
    let lines = std::fs::metadata(&log).unwrap().len() as usize - before;
    // The lines' buffer, and a few bytes a key to find them: not a second
    // buffer as big (the blank bytes the append reserves the room with).
    assert!(
        peak * 2 <= lines * 3,
        "deleting peaked at {peak} bytes for {lines} bytes of DEL lines"
    );
}

/// A root with one session whose db1 log is shaped like Agenvoy's: short
/// keys (`<id>:<unix nanos>`), a message of a few hundred bytes each.
fn root_like_agenvoy(root: &Path, keys: usize) -> usize {
    std::fs::create_dir_all(root.join("sessions/s1")).unwrap();
    std::fs::write(root.join("sessions/s1/history.json"), "[]").unwrap();
    std::fs::create_dir_all(root.join(".store/db_1")).unwrap();
    let mut log = String::new();
    let words = "check the nginx config then compress the daily logs ".repeat(3);
    for i in 0..keys {
        let ts = 1_760_000_000 + i;
        log += &format!(
            "{{\"ts\":{ts},\"cmd\":\"SET\",\"key\":\"s1:{ts}{i:09}\",\"value\":\
             \"{{\\\"role\\\":\\\"user\\\",\\\"content\\\":\\\"{words}{i}\\\"}}\"}}\n"
        );
    }
    std::fs::write(root.join(".store/db_1/record.aof"), &log).unwrap();
    log.len()
}

/// Peak heap of replaying the root's db1 on its own.
fn replay_peak(root: &Path) -> usize {
    peak_of(|| drop(Db::load(&root.join(".store"), 1).unwrap()))
}

#[test]
fn planning_holds_no_copy_of_the_keys() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    // Enough keys that their copy outgrows replay's own buffers, which
    // are freed before the plan would copy them.
    let keys = 40_000;
    root_with_keys(dir.path(), keys);
    let replay = replay_peak(dir.path());
    let plan = peak_of(|| {
        sessionctl::commands::run(cli(dir.path(), true)).unwrap();
    });
    eprintln!("replay peak {replay}, plan peak {plan}");
    // Planning needs only how many keys the session has: its peak is the
    // replay's, not that plus the keys as `String`s (~240 bytes a key
    // here). 16 bytes a key spare for the parallel parse's variation.
    assert!(
        plan <= replay + keys * 16,
        "planning peaked at {plan} bytes, replaying alone at {replay}"
    );
}

#[test]
fn reset_peaks_well_under_its_log() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    // Replay reads two 1 MiB chunks a thread at a time: pin the threads
    // so the bound does not depend on the machine's cores.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build_global();
    // Big enough that replay's read buffer (4 MiB) is not most of it.
    let keys = 60_000;
    let size = root_like_agenvoy(dir.path(), keys);
    let reset = peak_of(|| {
        sessionctl::commands::run(cli(dir.path(), false)).unwrap();
    });
    let log = std::fs::read_to_string(dir.path().join(".store/db_1/record.aof")).unwrap();
    assert_eq!(log.matches("\"cmd\":\"DEL\"").count(), keys);
    eprintln!("log {size}, reset peak {reset}");
    // The aim is peak RSS within 1.5x the log; the heap, held
    // here, is what of it grows with the log: the index and replay's
    // buffer, then the DEL lines — not a copy of the keys too.
    assert!(
        reset <= size,
        "reset peaked at {reset} bytes for a log of {size} bytes"
    );
}
