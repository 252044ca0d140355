//! `show --summary`, the summary's age by its cursor, and the model's
//! window and budget in `show` and `sessions list`.

use crate::common::*;

const NOW: &str = "2026-12-03T00:00:00Z";

#[test]
fn show_summary_prints_the_summary_and_its_lag_until_summarize_catches_up() {
    let root = fixture_copy();
    let r = root.path();
    let out = sessionctl(r)
        .args(["show", "tui-alice", "--summary"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for part in [
        "Key decisions",
        "要：nightly logrotate, 14 days, compressed",
        "Current discussion",
        "topic: log retention",
        "Past discussions",
        "nginx logs (2025-12-01 00:00)",
        "up to 2025-12-01 00:00:05",
        "2 record(s) behind",
    ] {
        assert!(text.contains(part), "{part:?} missing:\n{text}");
    }
    let v = json_of(
        &sessionctl(r)
            .args(["show", "tui-alice", "--summary", "--json"])
            .output()
            .unwrap(),
    );
    let s = &v["results"][0];
    assert_eq!(s["behind"], 2);
    assert_eq!(s["cursor"], "2025-12-01 00:00:05");
    assert_eq!(s["summary"]["current_discussion"]["topic"], "log retention");

    let done = sessionctl(r)
        .args(["summarize", "tui-alice", "--yes"])
        .output()
        .unwrap();
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let v = json_of(
        &sessionctl(r)
            .args(["show", "tui-alice", "--summary", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(v["results"][0]["behind"], 0);
    let v = json_of(
        &sessionctl(r)
            .args(["show", "tui-alice", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(v["results"][0]["summary"]["behind"], 0);

    let none = sessionctl(r)
        .args(["show", "tui-alice-2", "--summary"])
        .output()
        .unwrap();
    assert!(none.status.success());
    assert!(String::from_utf8_lossy(&none.stdout).contains("no rolling summary yet"));
}

#[test]
fn the_summary_column_is_the_cursors_age_not_the_files_mtime() {
    let root = fixture_copy();
    let r = root.path();
    // a copy (or restore) makes the file new; the summary is as old as ever
    let path = r.join("sessions/tui-alice/summary.json");
    std::fs::write(&path, std::fs::read(&path).unwrap()).unwrap();
    let out = sessionctl(r)
        .env("SESSIONCTL_NOW", NOW)
        .args(["sessions", "list"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split('\t').collect();
    let col = header.iter().position(|h| *h == "SUMMARY").unwrap();
    let row = text.lines().find(|l| l.starts_with("tui-alice\t")).unwrap();
    assert_eq!(row.split('\t').nth(col), Some("12mo ago"), "{text}");
}

#[test]
fn show_and_list_give_the_models_window_budget_and_share_used() {
    let root = fixture_copy();
    let r = root.path();
    let v = json_of(
        &sessionctl(r)
            .args(["sessions", "list", "--json"])
            .output()
            .unwrap(),
    );
    let b = &v["results"][0]["budget"];
    assert_eq!(b["agent"], "claude@claude-sonnet-4-5");
    assert_eq!(
        (b["window"].as_u64(), b["budget"].as_u64()),
        (Some(200_000), Some(160_000))
    );
    assert_eq!(b["window_source"], "table");
    assert!(b["used_percent"].as_f64().unwrap() > 0.0);

    let v = json_of(
        &sessionctl(r)
            .args(["sessions", "list", "--sort", "used", "--reverse", "--json"])
            .output()
            .unwrap(),
    );
    let used: Vec<f64> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["budget"]["used_percent"].as_f64().unwrap())
        .collect();
    assert!(used.windows(2).all(|w| w[0] >= w[1]), "{used:?}");

    let v = json_of(
        &sessionctl(r)
            .args(["show", "tui-alice", "--json"])
            .output()
            .unwrap(),
    );
    let b = &v["results"][0]["budget"];
    assert_eq!(b["tokens"], v["results"][0]["tokens"]["request"]);
    let text = String::from_utf8(
        sessionctl(r)
            .args(["show", "tui-alice"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(
        text.contains("budget 160000 (80% of a 200000 window, table)"),
        "{text}"
    );
}
