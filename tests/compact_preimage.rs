//! The pre-image compact keeps of history.json (issue 16): the replaced
//! file itself, hard-linked into the undo bundle, when nothing else can
//! reach it; a copy otherwise.

mod common;
mod undo_support;
use common::*;
use undo_support::state;

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

const SESSION: &str = "tui-long";

/// A fixture copy with a session long enough for compact to take records.
fn root_with_long_session() -> tempfile::TempDir {
    let root = fixture_copy();
    let records: Vec<serde_json::Value> = (0..30i64)
        .flat_map(|i| {
            let t = 1_764_547_200_000_000_000 + i * 10_000_000_000;
            [
                serde_json::json!({"role": "user", "content": format!("question {i}"), "sendAt": t}),
                serde_json::json!({"role": "assistant", "content": format!("answer {i}"), "sendAt": t + 1}),
            ]
        })
        .collect();
    let dir = root.path().join("sessions").join(SESSION);
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("history.json"),
        serde_json::to_vec_pretty(&records).unwrap(),
    )
    .unwrap();
    root
}

fn compact(r: &Path) {
    let out = sessionctl(r)
        .args(["--offline", "compact", SESSION, "--budget", "200", "--yes"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The history.json of the one compact pre-image under the root.
fn preimage_history(r: &Path) -> PathBuf {
    let ops: Vec<PathBuf> = std::fs::read_dir(r.join(".sessionctl/ops"))
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .join(format!("{SESSION}.compact/history.json"))
        })
        .filter(|p| p.exists())
        .collect();
    assert_eq!(ops.len(), 1, "one compact pre-image: {ops:?}");
    ops[0].clone()
}

#[test]
fn the_replaced_history_json_becomes_the_preimage_and_undo_still_restores_it() {
    let root = root_with_long_session();
    let r = root.path();
    let live = r.join(format!("sessions/{SESSION}/history.json"));
    let (old_bytes, old_ino) = (
        std::fs::read(&live).unwrap(),
        live.metadata().unwrap().ino(),
    );
    let before = state(r);
    compact(r);
    let kept = preimage_history(r);
    let meta = kept.metadata().unwrap();
    assert_eq!(meta.ino(), old_ino, "the old inode is the pre-image");
    assert_eq!(meta.nlink(), 1, "the session folder no longer names it");
    assert_ne!(
        live.metadata().unwrap().ino(),
        old_ino,
        "replaced by rename"
    );
    assert_eq!(std::fs::read(&kept).unwrap(), old_bytes);
    let out = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(state(r), before);
}

#[test]
fn a_history_json_reachable_by_another_name_is_copied_not_linked() {
    for how in ["symlink", "second name"] {
        let root = root_with_long_session();
        let r = root.path();
        let live = r.join(format!("sessions/{SESSION}/history.json"));
        let other = r.join("elsewhere.json");
        let bytes = std::fs::read(&live).unwrap();
        if how == "symlink" {
            std::fs::rename(&live, &other).unwrap();
            std::os::unix::fs::symlink(&other, &live).unwrap();
        } else {
            std::fs::hard_link(&live, &other).unwrap();
        }
        compact(r);
        let kept = preimage_history(r);
        assert_ne!(
            kept.metadata().unwrap().ino(),
            other.metadata().unwrap().ino(),
            "{how}: the pre-image must not be writable through {other:?}"
        );
        assert_eq!(std::fs::read(&kept).unwrap(), bytes, "{how}");
        assert_eq!(std::fs::read(&other).unwrap(), bytes, "{how}: left alone");
    }
}
