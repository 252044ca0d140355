//! `trash prune` against what kills and odd layouts leave: which entry
//! `--keep-last` keeps when a killed reset left an unsealed entry in the
//! same second, the unsealed entry of an interrupted reset or remove (the
//! only copy of the session), and a `.Trash` that is a link back into the
//! root.

use crate::common::*;

use std::path::Path;

fn run(r: &Path, now: Option<&str>, kill_at: Option<&str>, args: &[&str]) -> std::process::Output {
    let mut cmd = sessionctl(r);
    if let Some(now) = now {
        cmd.env("SESSIONCTL_NOW", now);
    }
    if let Some(n) = kill_at {
        cmd.env("SESSIONCTL_KILL_AT", n);
    }
    cmd.args(args).output().unwrap()
}

fn ok(r: &Path, now: Option<&str>, args: &[&str]) -> std::process::Output {
    let out = run(r, now, None, args);
    assert!(
        out.status.success(),
        "{args:?}: exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        stderr(&out)
    );
    out
}

fn killed(r: &Path, now: Option<&str>, at: &str, args: &[&str]) {
    let out = run(r, now, Some(at), args);
    assert!(
        stderr(&out).contains("killed at durable step"),
        "{args:?} at {at}: {}",
        stderr(&out)
    );
}

/// The paths under `sessions/`, for a failure message.
fn ls(r: &Path) -> Vec<String> {
    snapshot(&r.join("sessions"))
        .into_keys()
        .map(|p| format!("sessions/{}", p.display()))
        .collect()
}

fn entries(r: &Path) -> Vec<serde_json::Value> {
    results(&ok(r, None, &["trash", "list", "--json"]))
}

fn names(list: &[serde_json::Value]) -> Vec<String> {
    list.iter()
        .map(|e| e["name"].as_str().unwrap().to_owned())
        .collect()
}

fn prune_later(r: &Path, extra: &[&str]) -> std::process::Output {
    let later = an_hour_from_now();
    let mut args = vec!["trash", "prune", "--older-than", "1s", "--yes", "--json"];
    args.extend_from_slice(extra);
    ok(r, Some(&later), &args)
}

fn warnings(out: &std::process::Output) -> Vec<String> {
    json_of(out)["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_owned())
        .collect()
}

/// A reset killed before its manifest, then run again within the same
/// second: the rerun's sealed entry is the newer one, so `trash list`
/// shows it last and `--keep-last 1` keeps it (it alone can be restored),
/// although its manifest's time is in whole seconds.
#[test]
fn keep_last_keeps_the_newest_entry_within_one_second() {
    let root = fixture_copy();
    let r = root.path();
    let rows = archive_count(r, "tui-alice");
    assert!(rows > 0);
    killed(
        r,
        Some("2026-03-01T10:00:00.400Z"),
        "20",
        &["reset", "tui-alice", "--mode", "all", "--yes"],
    );
    ok(
        r,
        Some("2026-03-01T10:00:00.700Z"),
        &["reset", "tui-alice", "--mode", "all", "--yes"],
    );
    let list = entries(r);
    assert_eq!(list.len(), 2, "{list:?}");
    assert_eq!(
        list[0]["restorable"], false,
        "the killed one first: {list:?}"
    );
    assert_eq!(list[1]["restorable"], true, "the sealed one last: {list:?}");
    let sealed = list[1]["name"].as_str().unwrap().to_owned();
    let out = prune_later(r, &["--keep-last", "1"]);
    let pruned = names(&results(&out));
    assert!(!pruned.contains(&sealed), "{pruned:?}");
    assert!(names(&entries(r)).contains(&sealed));
    ok(r, None, &["trash", "restore", &sealed, "--yes"]);
    assert_eq!(archive_count(r, "tui-alice"), rows, "the rows are back");
}

/// The Trash entry of a reset or remove killed before its manifest holds
/// the only copy of the session: a prune keeps it while the operation is
/// unfinished, and says why; `check` does not promise that a rerun
/// completes it (the rerun finds nothing left to do).
#[test]
fn prune_keeps_the_entry_of_an_interrupted_reset_or_remove() {
    for (at, args) in [
        ("16", &["remove", "tui-alice", "--yes"][..]),
        ("28", &["reset", "tui-alice", "--mode", "all", "--yes"][..]),
    ] {
        let root = fixture_copy();
        let r = root.path();
        killed(r, None, at, args);
        let list = entries(r);
        assert_eq!(list.len(), 1, "{list:?}");
        let entry = list[0]["name"].as_str().unwrap().to_owned();
        assert_eq!(
            archive_count(r, "tui-alice"),
            0,
            "the rows are only in the entry"
        );
        let out = prune_later(r, &[]);
        assert!(results(&out).is_empty(), "{args:?}: {:?}", results(&out));
        let kept = warnings(&out);
        assert!(
            kept.iter()
                .any(|w| w.contains(&entry) && w.contains("did not finish")),
            "{args:?}: {kept:?}"
        );
        assert!(r.join("sessions/.Trash").join(&entry).exists());
        let check = run(r, None, None, &["check"]);
        let said = String::from_utf8_lossy(&check.stdout).into_owned();
        assert!(said.contains("incomplete-operation"), "{said}");
        assert!(!said.contains("rerun it"), "{args:?}: {said}");
        assert!(
            said.contains(&entry),
            "{args:?}: check names the entry: {said}"
        );
    }
}

/// A reset or remove killed before its manifest: `check --repair` rolls
/// the move back when nothing was taken from the stores yet, and otherwise
/// seals the entry, after which `trash restore` puts every tier back - as
/// it was before the command, wherever the kill came.
#[test]
fn check_repair_seals_an_interrupted_entry_and_trash_restore_puts_it_back() {
    for args in [
        &["remove", "tui-alice", "--yes"][..],
        &["reset", "tui-alice", "--mode", "all", "--yes"][..],
    ] {
        let (mut sealed_some, mut rolled_back_some) = (false, false);
        for at in 1..40 {
            let root = fixture_copy();
            let r = root.path();
            let before = crate::undo_support::state(r);
            let out = run(r, None, Some(&at.to_string()), args);
            if out.status.success() {
                break; // past its last durable step
            }
            let unsealed: Vec<String> = entries(r)
                .iter()
                .filter(|e| e["restorable"] == false)
                .map(|e| e["name"].as_str().unwrap().to_owned())
                .collect();
            if unsealed.is_empty() {
                continue; // killed before the entry, or after its manifest
            }
            // (exit 1: rows and keys whose folder is in the entry are
            // findings until it is restored)
            let repair = run(r, None, None, &["check", "--repair", "--yes"]);
            assert!(
                matches!(repair.status.code(), Some(0 | 1)),
                "{args:?} at {at}: {}",
                stderr(&repair)
            );
            let list = entries(r);
            let entry = &unsealed[0];
            let Some(now) = list.iter().find(|e| e["name"] == entry.as_str()) else {
                // it had taken nothing from the stores: the move was rolled back
                assert!(
                    crate::undo_support::state(r) == before,
                    "{args:?} killed at step {at}: not as before after the roll-back: {:?}",
                    ls(r)
                );
                rolled_back_some = true;
                continue;
            };
            if now["restorable"] == false {
                // no session id recorded yet: left as it was, and said so
                continue;
            }
            sealed_some = true;
            ok(r, None, &["trash", "restore", entry, "--yes"]);
            assert!(
                crate::undo_support::state(r) == before,
                "{args:?} killed at step {at}: not every tier is back: {:?}",
                ls(r)
            );
            let check = run(r, None, None, &["check", "--json"]);
            assert!(
                check.status.success(),
                "{args:?} at {at}: {}",
                stderr(&check)
            );
        }
        assert!(sealed_some, "{args:?}: no kill left an entry to seal");
        assert!(
            rolled_back_some,
            "{args:?}: no kill left a move to roll back"
        );
    }
}

/// A `sessions/.Trash` that is a link to somewhere inside the root (the
/// stores, the sessions): every command that writes into or deletes from
/// the Trash refuses it (65, naming it), nothing is touched, and `check`
/// reports it.
#[test]
fn a_symlinked_trash_inside_the_root_is_refused_and_reported() {
    for target in ["../.store", "../sessions"] {
        let root = fixture_copy();
        let r = root.path();
        std::os::unix::fs::symlink(target, r.join("sessions/.Trash")).unwrap();
        let before = crate::undo_support::state(r);
        let store: Vec<_> = std::fs::read_dir(r.join(".store"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        for args in [
            &["trash", "prune", "--older-than", "0s", "--yes"][..],
            &["trash", "list"][..],
            &["trash", "restore", "db_1", "--yes"][..],
            &["reset", "tui-alice", "--mode", "all", "--yes"][..],
            &["remove", "tui-alice", "--yes"][..],
        ] {
            let out = run(r, None, None, args);
            assert_eq!(
                out.status.code(),
                Some(65),
                "{target} {args:?}: {}",
                stderr(&out)
            );
            assert!(
                stderr(&out).contains(".Trash"),
                "{args:?}: {}",
                stderr(&out)
            );
        }
        assert_eq!(crate::undo_support::state(r), before, "{target}");
        let now: Vec<_> = std::fs::read_dir(r.join(".store"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(now, store, "{target}");
        let check = run(r, None, None, &["check"]);
        let said = String::from_utf8_lossy(&check.stdout).into_owned();
        assert!(said.contains("trash-symlink"), "{target}: {said}");
        assert_ne!(check.status.code(), Some(0));
    }
}

/// Review findings on the repair above, each as it was reported:
/// - a later `summarize --rebuild` backup is no entry of an interrupted
///   reset of another session: repair leaves it alone;
/// - a reset rerun to completion before the repair took the stores: the
///   killed run's entry is not moved back over it;
/// - a ToriiDB key written for the id after the repair is not merged into
///   a restored remove.
#[test]
fn repair_touches_only_what_the_interrupted_operation_made() {
    // a rebuild backup made after another session's killed reset
    let root = fixture_copy();
    let r = root.path();
    killed(
        r,
        None,
        "1",
        &["reset", "discord-9001", "--mode", "all", "--yes"],
    );
    ok(r, None, &["summarize", "tui-alice", "--rebuild", "--yes"]);
    ok(r, None, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    let before: Vec<String> = names(&entries(r));
    let _ = run(r, None, None, &["check", "--repair", "--yes"]);
    assert!(
        !r.join("sessions/tui-alice/summary.json").exists(),
        "the rebuild's backup came back into the reset session"
    );
    assert_eq!(names(&entries(r)), before, "every entry is where it was");

    // a reset killed after its first move, then rerun to completion
    let root = fixture_copy();
    let r = root.path();
    killed(
        r,
        None,
        "8",
        &["reset", "tui-alice", "--mode", "all", "--yes"],
    );
    ok(r, None, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    let _ = run(r, None, None, &["check", "--repair", "--yes"]);
    assert!(
        !r.join("sessions/tui-alice/history.json").exists(),
        "the killed run's history.json was moved back over the completed reset"
    );

    // a key written for the id after the repair sealed a removed session
    let mut sealed = false;
    for at in 10..30 {
        let root = fixture_copy();
        let r = root.path();
        if run(
            r,
            None,
            Some(&at.to_string()),
            &["remove", "discord-9001", "--yes"],
        )
        .status
        .success()
        {
            break;
        }
        let _ = run(r, None, None, &["check", "--repair", "--yes"]);
        let list = entries(r);
        let Some(e) = list.iter().find(|e| e["restorable"] == true) else {
            continue;
        };
        if archive_count(r, "discord-9001") > 0 {
            continue;
        }
        sealed = true;
        let entry = e["name"].as_str().unwrap().to_owned();
        let line = r#"{"ts":1796300000,"cmd":"SET","key":"discord-9001:1796300000000000000","value":"{\"content\":\"NEW conversation\",\"role\":\"user\"}"}"#;
        let aof = r.join(".store/db_1/record.aof");
        let mut log = std::fs::read_to_string(&aof).unwrap();
        log.push_str(line);
        log.push('\n');
        std::fs::write(&aof, log).unwrap();
        let out = run(r, None, None, &["trash", "restore", &entry, "--yes"]);
        assert_eq!(out.status.code(), Some(64), "step {at}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("merge two sessions"),
            "{}",
            stderr(&out)
        );
    }
    assert!(sealed, "no kill left a sealed remove with the rows taken");
}

/// Second review: the repair killed in the middle of a roll-back, and a
/// remove of two sessions killed while it takes the second one's keys.
/// Nothing is lost: a rerun of the repair still finishes the entry (known
/// by its name once its id record is gone), and the second session's
/// sealed entry restores although the first session's change is recorded.
#[test]
fn a_killed_repair_and_a_two_session_remove_are_still_finished() {
    for repair_at in 1..8 {
        let root = fixture_copy();
        let r = root.path();
        let before = crate::undo_support::state(r);
        killed(r, None, "8", &["remove", "tui-alice", "--yes"]);
        let out = run(
            r,
            None,
            Some(&repair_at.to_string()),
            &["check", "--repair", "--yes"],
        );
        let _ = out;
        let _ = run(r, None, None, &["check", "--repair", "--yes"]);
        for e in entries(r).iter().filter(|e| e["restorable"] == true) {
            ok(
                r,
                None,
                &["trash", "restore", e["name"].as_str().unwrap(), "--yes"],
            );
        }
        assert!(
            crate::undo_support::state(r) == before,
            "repair killed at {repair_at}: not as before: {:?}",
            ls(r)
        );
    }
    let mut restored_second = false;
    for at in 25..45 {
        let root = fixture_copy();
        let r = root.path();
        let out = run(
            r,
            None,
            Some(&at.to_string()),
            &["remove", "tui-alice", "discord-9001", "--yes"],
        );
        if out.status.success() {
            break;
        }
        let _ = run(r, None, None, &["check", "--repair", "--yes"]);
        let sealed: Vec<String> = entries(r)
            .iter()
            .filter(|e| e["restorable"] == true && e["session"] == "discord-9001")
            .map(|e| e["name"].as_str().unwrap().to_owned())
            .collect();
        for name in sealed {
            let out = run(r, None, None, &["trash", "restore", &name, "--yes"]);
            assert!(
                out.status.success(),
                "remove killed at {at}: {}",
                stderr(&out)
            );
            restored_second = true;
        }
    }
    assert!(
        restored_second,
        "no kill left the second session's entry sealed"
    );
}

/// The repair that moves a killed remove back does not leave the session's
/// rows and keys reported as orphans with `remove` as their hint (that
/// would take the session it just put back).
#[test]
fn a_rolled_back_session_is_no_orphan_in_the_repair_report() {
    let root = fixture_copy();
    let r = root.path();
    killed(r, None, "4", &["remove", "tui-alice", "--yes"]);
    let out = run(r, None, None, &["check", "--repair", "--yes", "--json"]);
    assert!(
        r.join("sessions/tui-alice/history.json").exists(),
        "{}",
        stderr(&out)
    );
    for f in results(&out) {
        let orphan = matches!(
            f["kind"].as_str(),
            Some("orphan-archive-rows" | "torii-orphan-keys")
        );
        assert!(!orphan || f["repaired"] == true, "{f}");
    }
}
