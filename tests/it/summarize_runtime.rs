//! `summarize` writes summary.json, so like every writer it refuses while
//! Agenvoy runs (exit 75, `--force` writes anyway, a dry run only warns).
//! Its own test binary: a live process named `agenvoy` makes every writer
//! on the machine refuse while it lives, so it lives for this test alone.

use crate::common::*;

use std::process::{Child, Command};

/// A process named `agenvoy` with the data root as its working directory,
/// killed when dropped (also when the test fails).
struct FakeAgenvoy(Child);

impl FakeAgenvoy {
    fn start(root: &std::path::Path, bin_dir: &std::path::Path) -> FakeAgenvoy {
        let exe = bin_dir.join("agenvoy");
        std::fs::copy("/bin/sleep", &exe).unwrap();
        let child = Command::new(&exe)
            .arg("30")
            .current_dir(root)
            .spawn()
            .unwrap();
        std::fs::write(
            root.join("runtime.uid"),
            format!(r#"{{"uid":"test","pid":{},"started_at":1}}"#, child.id()),
        )
        .unwrap();
        FakeAgenvoy(child)
    }
}

impl Drop for FakeAgenvoy {
    fn drop(&mut self) {
        self.0.kill().ok();
        self.0.wait().ok();
    }
}

#[test]
fn summarize_refuses_while_agenvoy_runs() {
    let root = fixture_copy();
    let r = root.path();
    let bin = tempfile::tempdir().unwrap();
    let agenvoy = FakeAgenvoy::start(r, bin.path());
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
