//! `summarize` writes summary.json, so like every writer it refuses while
//! Agenvoy runs (exit 75, `--force` writes anyway, a dry run only warns).
//! The fake Agenvoy runs with this test's root as its working directory,
//! which is how sessionctl ties a running Agenvoy to a root: the tests of
//! other roots are not affected.

use crate::common::*;

#[test]
fn summarize_refuses_while_agenvoy_runs() {
    let root = fixture_copy();
    let r = root.path();
    // (the shared helper retries a copy of `sleep` that is "text file
    // busy" while another test thread forks)
    let agenvoy = FakeProcess::spawn("agenvoy", r, r);
    agenvoy.write_runtime_uid(r);
    let before = snapshot(r);

    let out = sessionctl(r)
        .args(["summarize", "tui-alice", "--via", "files"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(75),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("Agenvoy is running"));
    assert_eq!(before, snapshot(r), "nothing written");

    let out = sessionctl(r)
        .args([
            "summarize",
            "tui-alice",
            "--dry-run",
            "--json",
            "--via",
            "files",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("Agenvoy is running"));
    assert_eq!(one(&out)["count"], 2);

    let out = sessionctl(r)
        .args(["summarize", "tui-alice", "--force", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(one(&out)["count"], 2);

    // up to date: nothing to write, so nothing to refuse
    let out = sessionctl(r)
        .args(["summarize", "tui-alice", "--via", "files"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    drop(agenvoy);
}
