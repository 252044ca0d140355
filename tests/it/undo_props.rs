//! Property: any sequence of the writes undo can reverse (reset in both
//! modes, remove, summarize, compact with small budgets, errors edit and
//! prune, import, trash restore), undo itself and undo of an undo (redo),
//! then `undo` until nothing is left, gives back every tier as it was:
//! files byte for byte, archive rows with their ids, session_meta, db1/db2
//! entries with created_at, TTL and vector. A redo right after an undo
//! gives back the state before that undo.

use crate::common::*;
use crate::undo_support::state;

use proptest::prelude::*;

const SESSIONS: [&str; 3] = ["tui-alice", "tui-alice-2", "discord-9001"];

#[derive(Debug, Clone)]
enum Write {
    ResetAll(usize),
    ResetSummary(usize),
    Remove(usize),
    Summarize(usize),
    Compact(usize, &'static str),
    ErrorsEdit(&'static str),
    ErrorsPrune,
}

impl Write {
    fn args(&self) -> Vec<&'static str> {
        match *self {
            Write::ResetAll(s) => vec!["reset", SESSIONS[s], "--mode", "all"],
            Write::ResetSummary(s) => vec!["reset", SESSIONS[s], "--mode", "summary"],
            Write::Remove(s) => vec!["remove", SESSIONS[s]],
            Write::Summarize(s) => vec!["summarize", SESSIONS[s]],
            Write::Compact(s, budget) => vec!["compact", SESSIONS[s], "--budget", budget],
            Write::ErrorsEdit(id) => vec!["errors", "edit", id, "--action", "edited"],
            Write::ErrorsPrune => vec!["errors", "prune"],
        }
    }
}

#[derive(Debug, Clone)]
enum Step {
    Write(Write),
    Undo,
    /// Undo of the undo just before (nothing when the step before was not
    /// an undo that succeeded).
    Redo,
    /// Export a session and import it under a new id.
    Import(usize),
    /// Restore the newest restorable trash entry.
    TrashRestore,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        5 => write().prop_map(Step::Write),
        2 => Just(Step::Undo),
        2 => Just(Step::Redo),
        1 => (0..SESSIONS.len()).prop_map(Step::Import),
        1 => Just(Step::TrashRestore),
    ]
}

fn newest_id(r: &std::path::Path) -> String {
    let out = sessionctl(r).args(["log", "--json"]).output().unwrap();
    results(&out)[0]["id"].as_str().unwrap().to_owned()
}

fn newest_entry(r: &std::path::Path) -> Option<String> {
    let out = sessionctl(r)
        .args(["trash", "list", "--json"])
        .output()
        .unwrap();
    results(&out)
        .iter()
        .rev()
        .find(|e| e["restorable"] == true)
        .map(|e| e["name"].as_str().unwrap().to_owned())
}

fn write() -> impl Strategy<Value = Write> {
    (
        0..7u8,
        0..SESSIONS.len(),
        prop_oneof![Just("20"), Just("60"), Just("150")],
    )
        .prop_map(|(k, s, budget)| match k {
            0 => Write::ResetAll(s),
            1 => Write::ResetSummary(s),
            2 => Write::Remove(s),
            3 => Write::Summarize(s),
            4 => Write::Compact(s, budget),
            5 => Write::ErrorsEdit(["3f1c", "9a2b"][s % 2]),
            _ => Write::ErrorsPrune,
        })
}

proptest! {
    // each case runs the binary a few dozen times: few cases, short sequences
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn undo_all_the_way_back_restores_every_tier(steps in prop::collection::vec(step(), 1..7)) {
        let root = fixture_copy();
        let r = root.path();
        let exports = tempfile::tempdir().unwrap();
        let start = state(r);
        // the undo that ran last, and the state before it
        let mut redoable: Option<(String, crate::undo_support::State)> = None;
        for (i, s) in steps.iter().enumerate() {
            let before = state(r);
            let last = redoable.take();
            let args: Vec<String> = match s {
                Step::Write(w) => {
                    // a write on a session an earlier one removed fails (66)
                    // and records no operation
                    let mut a = vec!["--offline".to_owned()];
                    a.extend(w.args().into_iter().map(str::to_owned));
                    a
                }
                Step::Undo => vec!["undo".into()],
                Step::Redo => match &last {
                    Some((id, _)) => vec!["undo".into(), id.clone()],
                    None => continue,
                },
                Step::Import(n) => {
                    let dir = exports.path().join(i.to_string());
                    let dir = dir.to_str().unwrap().to_owned();
                    let out = sessionctl(r)
                        .args(["export", SESSIONS[*n], "-o", &dir])
                        .output()
                        .unwrap();
                    if !out.status.success() {
                        continue;
                    }
                    let bundle = format!("{dir}/{}", SESSIONS[*n]);
                    vec!["import".into(), bundle, "--as".into(), format!("imported-{i}")]
                }
                Step::TrashRestore => match newest_entry(r) {
                    Some(e) => vec!["trash".into(), "restore".into(), e],
                    None => continue,
                },
            };
            let out = sessionctl(r).args(&args).arg("--yes").output().unwrap();
            let ok = out.status.success();
            match s {
                Step::Undo if ok => redoable = Some((newest_id(r), before)),
                Step::Redo => {
                    prop_assert!(ok, "redo: {}", String::from_utf8_lossy(&out.stderr));
                    let (_, wanted) = last.expect("a redo runs after an undo");
                    prop_assert!(state(r) == wanted, "redo gives back the state before the undo");
                }
                _ => {}
            }
        }
        let mut undone = 0;
        loop {
            let out = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
            if out.status.code() == Some(64)
                && String::from_utf8_lossy(&out.stderr).contains("nothing to undo")
            {
                break;
            }
            prop_assert!(out.status.success(), "undo: {}", String::from_utf8_lossy(&out.stderr));
            undone += 1;
            prop_assert!(undone <= 2 * steps.len(), "more undos than steps");
        }
        prop_assert!(state(r) == start, "every tier is back as it was");
        fts_integrity_ok(r);
        logs_are_toriidb_readable(r);
    }
}
