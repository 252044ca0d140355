//! `check --repair` as plan/apply: the findings are the plan (a dry run
//! shows exactly them), and a session whose lock is held keeps its
//! findings open (exit 75) while every other repair is made.

use crate::common::*;

use serde_json::Value;

fn check(root: &std::path::Path, args: &[&str]) -> std::process::Output {
    sessionctl(root)
        .arg("check")
        .args(args)
        .arg("--json")
        .output()
        .unwrap()
}

/// Leftover temp files of an interrupted write in two sessions.
fn with_leftovers(root: &std::path::Path) -> [std::path::PathBuf; 2] {
    ["tui-alice", "tui-alice-2"].map(|id| {
        let p = root
            .join("sessions")
            .join(id)
            .join(".history.json.Ab12Cd.tmp");
        std::fs::write(&p, b"[").unwrap();
        p
    })
}

#[test]
fn a_repair_dry_run_is_the_plan_the_real_run_carries_out() {
    let root = fixture_copy();
    let r = root.path();
    with_leftovers(r);
    let before = snapshot(r);
    let dry = check(r, &["--repair", "--dry-run"]);
    assert_eq!(before, snapshot(r));
    let real = check(r, &["--repair", "--yes"]);
    assert_eq!(
        real.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&real.stderr)
    );
    let plan = |out: &std::process::Output| -> Vec<Value> {
        results(out)
            .into_iter()
            .map(|mut f| {
                f.as_object_mut().unwrap().remove("repaired");
                f
            })
            .collect()
    };
    assert_eq!(plan(&dry), plan(&real));
    assert!(results(&real)
        .iter()
        .all(|f| f["repaired"] == f["repairable"]));
}

#[test]
fn a_held_session_lock_leaves_its_findings_and_the_rest_are_repaired() {
    let root = fixture_copy();
    let r = root.path();
    let [alice, alice2] = with_leftovers(r);
    let locks = r.join(".sessionctl/locks");
    std::fs::create_dir_all(&locks).unwrap();
    let held = std::fs::File::create(locks.join("session-tui-alice.lock")).unwrap();
    let fd = std::os::fd::AsRawFd::as_raw_fd(&held);
    assert_eq!(unsafe { libc::flock(fd, libc::LOCK_EX) }, 0);

    let out = check(r, &["--repair", "--yes"]);
    assert_eq!(
        out.status.code(),
        Some(75),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(alice.exists(), "its session is busy: left alone");
    assert!(!alice2.exists(), "the other session's leftover is removed");
    let v = json_of(&out);
    let errors = v["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{v}");
    assert_eq!(errors[0]["session"], "tui-alice");
    assert_eq!(errors[0]["code"], 75);
}
