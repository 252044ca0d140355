//! `sessions list` remembers what it read from unchanged sessions
//! (`.sessionctl/rows.json`) and only stats them next time; the cache is
//! never trusted over a changed file.

mod common;
use common::*;

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

use serde_json::Value;

fn list(root: &Path) -> Vec<Value> {
    let out = sessionctl(root)
        .env("SESSIONCTL_ROWS_SETTLED", "1")
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    results(&out)
}

fn records(rows: &[Value], id: &str) -> Option<u64> {
    rows.iter()
        .find(|r| r["session"] == id)
        .map(|r| r["records"].as_u64().unwrap())
}

fn cache_path(root: &Path) -> std::path::PathBuf {
    root.join(".sessionctl/rows.json")
}

/// Make the cache claim 999 records for every session it holds, stamps
/// untouched: a row showing 999 came from the cache, not the files.
fn forge(root: &Path) {
    let mut cache: Value = serde_json::from_slice(&fs::read(cache_path(root)).unwrap()).unwrap();
    for facts in cache["sessions"].as_object_mut().unwrap().values_mut() {
        facts["records"] = 999.into();
    }
    fs::write(cache_path(root), cache.to_string()).unwrap();
}

fn set_mtime(path: &Path, t: SystemTime) {
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

fn history(root: &Path, id: &str) -> std::path::PathBuf {
    root.join("sessions").join(id).join("history.json")
}

#[test]
fn a_warm_list_equals_a_cold_one_and_takes_unchanged_sessions_from_the_cache() {
    let root = fixture_copy();
    let r = root.path();
    let cold = list(r);
    assert!(cache_path(r).exists(), "the first run remembers the rows");
    let written = fs::metadata(cache_path(r)).unwrap().modified().unwrap();
    assert_eq!(list(r), cold, "a warm run lists the same rows");
    assert_eq!(
        fs::metadata(cache_path(r)).unwrap().modified().unwrap(),
        written,
        "an up-to-date cache is not rewritten"
    );
    forge(r);
    let warm = list(r);
    assert!(
        warm.iter().all(|row| row["records"] == 999),
        "unchanged sessions are not read: {warm:?}"
    );
}

#[test]
fn the_cache_is_never_trusted_over_a_changed_file() {
    let root = fixture_copy();
    let r = root.path();
    let cold = list(r);
    forge(r);

    // same size, same bytes, a new mtime
    let discord = history(r, "discord-9001");
    let later = fs::metadata(&discord).unwrap().modified().unwrap() + Duration::from_secs(10);
    set_mtime(&discord, later);
    // another size, the mtime put back as it was
    let alice = history(r, "tui-alice");
    let mtime = fs::metadata(&alice).unwrap().modified().unwrap();
    let mut bytes = fs::read(&alice).unwrap();
    bytes.push(b'\n');
    fs::write(&alice, &bytes).unwrap();
    set_mtime(&alice, mtime);
    // a new session, and one removed
    copy_tree(&r.join("sessions/tui-alice-2"), &r.join("sessions/zz-new"));
    fs::remove_dir_all(r.join("sessions/tui-alice-2")).unwrap();

    let rows = list(r);
    assert_eq!(
        records(&rows, "discord-9001"),
        records(&cold, "discord-9001")
    );
    assert_eq!(records(&rows, "tui-alice"), records(&cold, "tui-alice"));
    assert_eq!(records(&rows, "zz-new"), records(&cold, "tui-alice-2"));
    assert_eq!(records(&rows, "tui-alice-2"), None);
    let cache: Value = serde_json::from_slice(&fs::read(cache_path(r)).unwrap()).unwrap();
    let held: Vec<&String> = cache["sessions"].as_object().unwrap().keys().collect();
    assert_eq!(held, ["discord-9001", "tui-alice", "zz-new"]);
}

#[test]
fn a_corrupt_or_other_version_cache_is_rebuilt_never_an_error() {
    let root = fixture_copy();
    let r = root.path();
    let cold = list(r);
    fs::write(cache_path(r), b"{\"version\":1,\"sessions\":{\"tui-al").unwrap();
    assert_eq!(list(r), cold);
    forge(r);
    let mut cache: Value = serde_json::from_slice(&fs::read(cache_path(r)).unwrap()).unwrap();
    cache["version"] = 0.into();
    fs::write(cache_path(r), cache.to_string()).unwrap();
    assert_eq!(list(r), cold, "another version's facts are not used");
    let rebuilt: Value = serde_json::from_slice(&fs::read(cache_path(r)).unwrap()).unwrap();
    assert_eq!(rebuilt["version"], 1);
    fs::write(cache_path(r), b"").unwrap();
    assert_eq!(list(r), cold);
}
