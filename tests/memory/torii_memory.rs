//! A replayed ToriiDB log is an index, not a copy: values are read back
//! from the open log by offset (the aim: peak memory ≤ 1.5× the log).
//! Heap use is measured with a counting allocator, so these tests are
//! exact, not timing- or RSS-dependent.

use std::path::Path;
use std::sync::atomic::Ordering;

use crate::counting_alloc::{COUNT, LIVE, PEAK, SERIAL};

use sessionctl::store::torii::Db;

const MIB: usize = 1 << 20;

/// A db1 log of `lines` SETs with ~60 KiB values (under ToriiDB's line
/// limit), the shape where the values are nearly all of the log.
fn big_log(store: &Path, lines: usize) -> usize {
    std::fs::create_dir_all(store.join("db_1")).unwrap();
    let mut log = Vec::new();
    for i in 0..lines {
        let value = format!("{i:05}").repeat(12_000);
        log.extend_from_slice(
            format!("{{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:{i}\",\"value\":\"{value}\"}}\n")
                .as_bytes(),
        );
    }
    std::fs::write(store.join("db_1/record.aof"), &log).unwrap();
    log.len()
}

#[test]
fn replay_keeps_the_index_not_the_log() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let size = big_log(dir.path(), 400); // 24 MB
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let db = Db::load(dir.path(), 1).unwrap();
    let kept = LIVE.load(Ordering::Relaxed).saturating_sub(before);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert_eq!(db.len(), 400);
    assert!(
        kept < MIB,
        "the replayed db holds {kept} bytes for a {size}-byte log: the log is kept in memory"
    );
    assert!(
        peak * 2 < size * 3,
        "replay peaked at {peak} bytes for a {size}-byte log (aim: ≤ 1.5×)"
    );
    // a value is read back when asked for, and only that one is kept
    let v = db.entry("s:7").unwrap().unwrap();
    assert_eq!(v.value, "00007".repeat(12_000));
    let kept = LIVE.load(Ordering::Relaxed).saturating_sub(before);
    assert!(kept < 2 * MIB, "{kept} bytes held after reading one value");
}

/// Replay speed is bound by the fresh memory it touches: a key must cost
/// its bytes in one shared arena, not an allocation (and a `String`
/// header) of its own.
#[test]
fn replay_makes_no_allocation_per_key() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let keys = 20_000;
    std::fs::create_dir_all(dir.path().join("db_1")).unwrap();
    let mut log = String::new();
    for i in 0..keys {
        log += &format!("{{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:{i}\",\"value\":\"v\"}}\n");
    }
    std::fs::write(dir.path().join("db_1/record.aof"), log).unwrap();
    let before = COUNT.load(Ordering::Relaxed);
    let db = Db::load(dir.path(), 1).unwrap();
    let made = COUNT.load(Ordering::Relaxed) - before;
    assert_eq!(db.len(), keys);
    assert!(
        made < keys / 10,
        "replaying {keys} keys made {made} allocations: one per key"
    );
    assert_eq!(db.get("s:19999").unwrap().value, "v");
}

#[test]
fn values_come_from_the_log_as_replayed_even_after_a_rewrite() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path();
    std::fs::create_dir_all(store.join("db_1")).unwrap();
    let log = store.join("db_1/record.aof");
    std::fs::write(
        &log,
        "{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"old\"}\n",
    )
    .unwrap();
    let db = Db::load(store, 1).unwrap();
    // ToriiDB's compaction: a new file renamed over the log
    let fresh = store.join("db_1/record.aof.tmp");
    std::fs::write(
        &fresh,
        "{\"ts\":2,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"a much longer new value\"}\n",
    )
    .unwrap();
    std::fs::rename(&fresh, &log).unwrap();
    assert_eq!(db.entry("s:1").unwrap().unwrap().value, "old");
}

#[test]
fn a_log_cut_short_in_place_is_a_data_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path();
    std::fs::create_dir_all(store.join("db_1")).unwrap();
    let log = store.join("db_1/record.aof");
    std::fs::write(
        &log,
        "{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"one\"}\n\
         {\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:2\",\"value\":\"two\"}\n",
    )
    .unwrap();
    let db = Db::load(store, 1).unwrap();
    // truncated in place, on the inode replay holds open
    std::fs::OpenOptions::new()
        .write(true)
        .open(&log)
        .unwrap()
        .set_len(10)
        .unwrap();
    let err = db.entry("s:2").unwrap_err();
    assert_eq!(err.exit_code(), 65);
    assert!(err.to_string().contains("record.aof"), "{err}");
    assert!(db.try_all().is_err(), "bulk reads fail the same way");
}
