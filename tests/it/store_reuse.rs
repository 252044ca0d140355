//! A batch that plans with db1 (reset, remove) replays the log once: the
//! apply takes over the plan's replay when the log is unchanged under the
//! locks, and replays it again when it is not.

use crate::common::*;

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

const NEW_KEY: &str = "tui-alice:1764547999000000000";

fn loads(count: &Path) -> usize {
    std::fs::read_to_string(count).map_or(0, |s| s.lines().count())
}

fn aof(root: &Path) -> std::path::PathBuf {
    root.join(".store/db_1/record.aof")
}

#[test]
fn reset_replays_db1_once() {
    let root = fixture_copy();
    let r = root.path();
    let count = r.join("no-home-loads");
    let out = sessionctl(r)
        .env("SESSIONCTL_TORII_LOAD_COUNT", &count)
        .args([
            "reset",
            "tui-alice",
            "--mode",
            "all",
            "--purge",
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
    assert_eq!(one(&out)["removed_torii_keys"], 4);
    assert_eq!(loads(&count), 1, "db1 replayed more than once");
}

#[test]
fn a_log_changed_between_plan_and_apply_is_replayed_again() {
    let root = fixture_copy();
    let r = root.path();
    let count = r.join("no-home-loads");
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sessionctl"))
        .env_clear()
        .env("TZ", "UTC")
        .env("HOME", r.join("no-home"))
        .arg("--root")
        .arg(r)
        .env("SESSIONCTL_TORII_LOAD_COUNT", &count)
        .env("SESSIONCTL_TORII_LOAD_DELAY_MS", "600")
        .args([
            "reset",
            "tui-alice",
            "--mode",
            "all",
            "--purge",
            "--yes",
            "--json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The plan's replay has read the log and is held up: append a key of
    // the session, as Agenvoy would.
    let started = Instant::now();
    while loads(&count) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no replay started"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let line = format!(
        "{{\"ts\":1796220418,\"cmd\":\"SET\",\"key\":\"{NEW_KEY}\",\"value\":\"{{\\\"content\\\":\\\"late\\\",\\\"role\\\":\\\"user\\\"}}\"}}\n"
    );
    std::fs::OpenOptions::new()
        .append(true)
        .open(aof(r))
        .unwrap()
        .write_all(line.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(loads(&count), 2, "the changed log must be replayed again");
    assert_eq!(
        one(&out)["removed_torii_keys"],
        5,
        "the late key is reset too"
    );
    let log = std::fs::read_to_string(aof(r)).unwrap();
    assert!(
        log.lines()
            .any(|l| l.contains("\"cmd\":\"DEL\"") && l.contains(NEW_KEY)),
        "no DEL for the late key"
    );
}
