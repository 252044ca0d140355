//! "Is Agenvoy running on this root?": real processes (copies of `sleep`
//! under Agenvoy's names), the pid in runtime.uid, their cwd, HOME and
//! open files decide; nothing else does.

use crate::common::*;

use std::path::Path;

/// Exit code of a real write (75 = refused because Agenvoy runs).
fn reset_code(r: &Path) -> Option<i32> {
    let out = sessionctl(r)
        .args([
            "reset",
            "tui-alice",
            "--mode",
            "all",
            "--yes",
            "--via",
            "files",
        ])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let code = out.status.code();
    assert!(
        matches!(code, Some(0) | Some(75)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    code
}

#[test]
fn the_daemon_pid_blocks_when_it_is_agenvoy_working_on_this_root() {
    let elsewhere = tempfile::tempdir().unwrap();
    // a renamed release binary, working in the root
    let root = fixture_copy();
    let r = root.path();
    let p = FakeProcess::spawn("agenvoy-linux-amd64", r, elsewhere.path());
    p.write_runtime_uid(r);
    assert_eq!(reset_code(r), Some(75));
    drop(p);
    assert_eq!(reset_code(r), Some(0), "a dead daemon does not block");

    // `agenvoy` started elsewhere, whose HOME makes this its root
    let home = tempfile::tempdir().unwrap();
    let r = &home.path().join(".config/agenvoy");
    copy_fixture(r);
    let p = FakeProcess::spawn("agenvoy", elsewhere.path(), home.path());
    p.write_runtime_uid(r);
    assert_eq!(reset_code(r), Some(75));
}

#[test]
fn a_pid_in_runtime_uid_that_is_not_this_roots_agenvoy_does_not_block() {
    let elsewhere = tempfile::tempdir().unwrap();
    // pid reuse: the pid now belongs to `sleep`, even one working in the root
    let root = fixture_copy();
    let r = root.path();
    let p = FakeProcess::spawn("sleep", r, r);
    p.write_runtime_uid(r);
    assert_eq!(reset_code(r), Some(0));

    // an Agenvoy of another home, nowhere near this root
    let root = fixture_copy();
    let r = root.path();
    let p = FakeProcess::spawn("agenvoy", elsewhere.path(), elsewhere.path());
    p.write_runtime_uid(r);
    assert_eq!(reset_code(r), Some(0));
}

#[test]
fn agenvoy_processes_block_only_the_root_they_work_in() {
    let root = fixture_copy();
    let r = root.path();
    let other = fixture_copy();
    let elsewhere = tempfile::tempdir().unwrap();

    // working in another root: no effect here
    let p = FakeProcess::spawn("agenvoy", other.path(), elsewhere.path());
    assert_eq!(reset_code(r), Some(0));
    drop(p);

    // a renamed binary holding one of this root's files open: blocks
    let root = fixture_copy();
    let r = root.path();
    let file = std::fs::File::open(r.join("sessions/tui-alice/usage.log")).unwrap();
    let p = FakeProcess::spawn_with(
        "agenvoy-linux-amd64",
        elsewhere.path(),
        elsewhere.path(),
        file,
    );
    assert_eq!(reset_code(r), Some(75));
    drop(p);

    // working in this root: blocks
    let p = FakeProcess::spawn("agenvoy", r, elsewhere.path());
    assert_eq!(reset_code(r), Some(75));
    drop(p);
    assert_eq!(reset_code(r), Some(0));
}
