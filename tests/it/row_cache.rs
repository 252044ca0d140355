//! `sessions list` remembers what it read from unchanged sessions
//! (`.sessionctl/rows.json`) and only stats them next time; the cache is
//! never trusted over a changed file.

use crate::common::*;

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
    assert_eq!(rebuilt["version"], sessionctl::engine::row_cache::VERSION);
    fs::write(cache_path(r), b"").unwrap();
    assert_eq!(list(r), cold);
}

fn forge_tiers(root: &Path, edit: impl Fn(&mut Value)) {
    let mut cache: Value = serde_json::from_slice(&fs::read(cache_path(root)).unwrap()).unwrap();
    edit(&mut cache["tiers"]);
    fs::write(cache_path(root), cache.to_string()).unwrap();
}

fn keys_and_archived(rows: &[Value], id: &str) -> (u64, u64) {
    let r = rows.iter().find(|r| r["session"] == id).unwrap();
    (
        r["torii_keys"].as_u64().unwrap(),
        r["archived"].as_u64().unwrap(),
    )
}

#[test]
fn db1_and_archive_counts_are_each_remembered_while_their_tier_is_unchanged() {
    let root = fixture_copy();
    let r = root.path();
    let cold = list(r);
    let real = keys_and_archived(&cold, "tui-alice");
    let forged = |t: &mut Value| {
        t["torii"]["tui-alice"] = 999.into();
        t["archive"]["tui-alice"] = serde_json::json!([999, null]);
    };
    forge_tiers(r, forged);
    assert_eq!(
        keys_and_archived(&list(r), "tui-alice"),
        (999, 999),
        "served from the cache"
    );

    // an appended db1 line: db1 is counted again, the archive (unchanged,
    // as when Agenvoy appends a message) is not
    let log = r.join(".store/db_1/record.aof");
    let mut f = fs::File::options().append(true).open(&log).unwrap();
    std::io::Write::write_all(
        &mut f,
        b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"tui-alice:1764547999000000000\",\"value\":\"{}\"}\n",
    )
    .unwrap();
    assert_eq!(keys_and_archived(&list(r), "tui-alice"), (real.0 + 1, 999));

    // an archive change: the archive is counted again, db1 is not
    forge_tiers(r, forged);
    sqlite(r)
        .execute("DELETE FROM messages WHERE session_id = 'tui-alice'", [])
        .unwrap();
    assert_eq!(keys_and_archived(&list(r), "tui-alice"), (999, 0));

    // both changed
    forge_tiers(r, forged);
    std::io::Write::write_all(
        &mut f,
        b"{\"ts\":1,\"cmd\":\"DEL\",\"key\":\"tui-alice:1764547999000000000\"}\n",
    )
    .unwrap();
    sqlite(r)
        .execute("DELETE FROM messages WHERE session_id = 'discord-9001'", [])
        .unwrap();
    assert_eq!(keys_and_archived(&list(r), "tui-alice"), (real.0, 0));

    // a key that expired since the counts were made: db1 is counted again
    forge_tiers(r, |t| {
        forged(t);
        t["torii_until"] = 1.into();
    });
    assert_eq!(keys_and_archived(&list(r), "tui-alice"), (real.0, 999));
}

#[test]
fn warnings_about_db1_are_repeated_when_its_counts_come_from_the_cache() {
    let root = fixture_copy();
    let r = root.path();
    let log = r.join(".store/db_1/record.aof");
    let mut f = fs::File::options().append(true).open(&log).unwrap();
    std::io::Write::write_all(&mut f, b"{\"ts\":1,\"cmd\":\"SE").unwrap();
    for run in 0..2 {
        let out = sessionctl(r)
            .env("SESSIONCTL_ROWS_SETTLED", "1")
            .args(["sessions", "list"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("cut short"), "run {run}: {stderr}");
    }
    let cache: Value = serde_json::from_slice(&fs::read(cache_path(r)).unwrap()).unwrap();
    assert!(cache["tiers"].is_object(), "the second run used the cache");
}

/// A row from the cache has the window config.json gives (a local
/// runtime's num_ctx), exactly as a cold read, and a moved summary cursor
/// (summary.meta.json only) is read again.
#[test]
fn cached_rows_keep_the_configs_window_and_see_a_moved_cursor() {
    let root = fixture_copy();
    let r = root.path();
    fs::write(
        r.join("sessions/tui-alice/config.json"),
        r#"{"model":"ollama@qwen3:8b","options":{"num_ctx":32768}}"#,
    )
    .unwrap();
    let cold = list(r);
    let window = |rows: &[Value]| {
        rows.iter().find(|r| r["session"] == "tui-alice").unwrap()["budget"]["window"].clone()
    };
    assert_eq!(window(&cold), 32768);
    forge(r);
    let warm = list(r);
    assert_eq!(
        records(&warm, "tui-alice"),
        Some(999),
        "served from the cache"
    );
    assert_eq!(window(&warm), 32768);
    // Only the cursor moves: the summary's age must follow it.
    let meta = r.join("sessions/tui-alice/summary.meta.json");
    fs::write(&meta, r#"{"last_message_time":"2025-12-01 00:01:50"}"#).unwrap();
    let after = list(r);
    assert_ne!(records(&after, "tui-alice"), Some(999), "read again");
}
