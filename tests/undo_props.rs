//! Property: any sequence of the writes undo can reverse (reset in both
//! modes, remove, summarize, compact with small budgets, errors edit and
//! prune), then `undo` until nothing is left, gives back
//! every tier as it was: files byte for byte, archive rows with their ids,
//! session_meta, db1/db2 entries with created_at, TTL and vector.

mod common;
mod undo_support;
use common::*;
use undo_support::state;

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
    // each case runs the binary up to ~10 times: few cases, short sequences
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn undo_all_the_way_back_restores_every_tier(writes in prop::collection::vec(write(), 1..5)) {
        let root = fixture_copy();
        let r = root.path();
        let start = state(r);
        for w in &writes {
            // a write on a session an earlier one removed fails (66) and
            // records no operation
            let mut args = vec!["--offline"];
            args.extend(w.args());
            args.push("--yes");
            sessionctl(r).args(&args).output().unwrap();
        }
        let changed = state(r) != start;
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
            prop_assert!(undone <= writes.len(), "more undos than writes");
        }
        prop_assert!(!changed || undone >= 1, "the writes changed something to undo");
        prop_assert_eq!(state(r), start);
        fts_integrity_ok(r);
        logs_are_toriidb_readable(r);
    }
}
