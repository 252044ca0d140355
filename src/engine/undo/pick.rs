//! Which operation `undo` reverses, what of it, and what refuses it.
//!
//! Operations form chains: an original write, the undo of it, the undo of
//! that undo (a redo), and so on. An element at an even depth (an original,
//! a redo) puts changes in play; one at an odd depth takes them back out.

use crate::error::{Error, Result};
use crate::store::layout::DataRoot;
use crate::store::oplog::{Change, Intent, Log, Op};

use super::snapshot::SNAPSHOT;

/// Changes whose previous state is a bundle `undo` can put back.
const REVERSIBLE: &[&str] = &[
    "reset",
    "remove",
    super::SUMMARY,
    crate::engine::compact::preimage::COMPACT,
    super::error_memory::ERRORS,
    super::limits::LIMITS,
    SNAPSHOT,
];

/// What `undo [OP_ID]` is asked to do, checked: the operation, the
/// interrupted undo of it to complete (if any), and the changes to reverse.
pub struct Request {
    pub target: Op,
    pub resume: Option<String>,
    pub changes: Vec<Change>,
}

/// Pick the operation, refuse a conflict (unless `force`) and one that
/// cannot be reversed. While another operation runs (its record may not
/// name its sessions yet), nothing is picked: that is a retry (75).
pub fn request(root: &DataRoot, log: &Log, id: Option<&str>, force: bool) -> Result<Request> {
    for op in log.ops.iter().filter(|o| !o.done) {
        if crate::store::oplog::is_running(root, &op.id)? {
            return Err(Error::busy(format!(
                "operation {} ({}) is running; undo waits until it has finished",
                op.id, op.command
            ))
            .with_hint("retry when it has finished; exit code 75 means 'try again later'"));
        }
    }
    let (target, resume) = pick(log, id)?;
    if !force {
        if let Some(later) = conflict(log, target) {
            return Err(Error::usage(format!(
                "operation {} ({}) changed the same session after {}",
                later.id, later.command, target.id
            ))
            .with_hint(format!(
                "undo {} first, or pass --force to restore over it",
                later.id
            )));
        }
    }
    Ok(Request {
        changes: steps(target)?,
        target: target.clone(),
        resume,
    })
}

impl Request {
    /// What the coming operation is: the undo of the target, or the
    /// continuation of the interrupted undo of it.
    pub fn intent(&self) -> Intent {
        Intent {
            command: "undo".into(),
            undoes: Some(self.target.id.clone()),
            irreversible: false,
            resume: self.resume.clone(),
        }
    }
}

/// The operation to undo, and the id of an interrupted undo of it to
/// complete. Without an id: the latest interrupted undo, wherever it is in
/// the log (a write that came after it must not hide it: reversing that
/// write instead would leave the restore half done); else the latest
/// operation whose changes are in play (an original write or a redo, not
/// undone).
pub fn pick<'a>(log: &'a Log, id: Option<&str>) -> Result<(&'a Op, Option<String>)> {
    let op = match id {
        Some(id) => log.get(id).ok_or_else(|| {
            Error::no_input(format!("no operation '{id}' in the operation log"))
                .with_hint("`sessionctl log` lists the operations")
        })?,
        None => match log
            .ops
            .iter()
            .rev()
            .find(|o| o.undoes.is_some() && !o.done && o.undone_by.is_none())
        {
            Some(interrupted) => {
                return resume_of(log, interrupted);
            }
            None => log
                .ops
                .iter()
                .rev()
                .find(|o| o.undone_by.is_none() && in_play(log, o))
                .ok_or_else(|| {
                    Error::usage(if log.ops.is_empty() {
                        "nothing to undo: no write is recorded in the operation log"
                    } else {
                        "nothing to undo: every operation in the log is undone already"
                    })
                })?,
        },
    };
    if op.undoes.is_some() && !op.done {
        // an interrupted undo named: complete it
        return resume_of(log, op);
    }
    match op.undone_by.as_ref().and_then(|by| log.get(by)) {
        Some(by) if by.done => {
            let mut e = Error::usage(format!(
                "operation {} was already undone by {}",
                op.id, by.id
            ));
            if by.undone_by.is_some() {
                e = e.with_hint(format!(
                    "that undo was itself undone; `sessionctl undo {}` reverses it",
                    by.undone_by.as_deref().unwrap_or_default()
                ));
            }
            Err(e)
        }
        Some(by) => Ok((op, Some(by.id.clone()))),
        None => Ok((op, None)),
    }
}

/// The target of the interrupted undo `u`, to complete `u`.
fn resume_of<'a>(log: &'a Log, u: &'a Op) -> Result<(&'a Op, Option<String>)> {
    let target = u.undoes.as_deref().expect("an undo");
    let t = log.get(target).ok_or_else(|| {
        Error::no_input(format!(
            "operation {target}, undone by {}, is not in the log",
            u.id
        ))
    })?;
    Ok((t, Some(u.id.clone())))
}

/// How many undos away from an original write `op` is.
fn depth(log: &Log, op: &Op) -> usize {
    let mut n = 0;
    let mut cur = op;
    while let Some(t) = cur.undoes.as_deref().and_then(|t| log.get(t)) {
        n += 1;
        cur = t;
    }
    n
}

/// `op` puts changes in play (an original write, a redo), rather than
/// taking them out (an undo).
fn in_play(log: &Log, op: &Op) -> bool {
    depth(log, op).is_multiple_of(2)
}

/// The original write `op`'s chain starts with.
fn origin<'a>(log: &'a Log, op: &'a Op) -> &'a Op {
    let mut cur = op;
    while let Some(t) = cur.undoes.as_deref().and_then(|t| log.get(t)) {
        cur = t;
    }
    cur
}

/// A later operation whose changes to a session `op` changed are in play:
/// undoing `op` would restore over them. A chain that began after `op` and
/// ends undone cancels out; every other later chain end that touched the
/// session counts (a later undo of an earlier write included).
pub fn conflict<'a>(log: &'a Log, op: &Op) -> Option<&'a Op> {
    let pos = log.ops.iter().position(|o| o.id == op.id)?;
    let began_after = |o: &Op| {
        log.ops
            .iter()
            .position(|x| x.id == o.id)
            .is_some_and(|p| p > pos)
    };
    log.ops[pos + 1..].iter().rev().find(|later| {
        later.undone_by.is_none()
            && later.undoes.as_deref() != Some(op.id.as_str())
            && (in_play(log, later) || !began_after(origin(log, later)))
            && later
                .sessions
                .iter()
                .any(|c| op.sessions.iter().any(|d| d.session == c.session))
    })
}

/// The changes of `op` to reverse. A session with a snapshot is put back
/// to it whole (its other changes are covered); the notes an undo writes
/// besides its pre-images keep nothing and are skipped.
pub fn steps(op: &Op) -> Result<Vec<Change>> {
    if op.irreversible {
        return Err(Error::usage(format!(
            "operation {} ({}) deleted data for good and cannot be undone",
            op.id, op.command
        ))
        .with_hint("`sessionctl log` lists the operations; `undo OP_ID` names an earlier one"));
    }
    let snapshotted: Vec<&str> = op
        .sessions
        .iter()
        .filter(|c| c.change == SNAPSHOT)
        .map(|c| c.session.as_str())
        .collect();
    let mut out: Vec<Change> = Vec::new();
    for c in &op.sessions {
        let covered = snapshotted.contains(&c.session.as_str());
        if covered {
            // the first snapshot, and the trash entry a restore consumed
            let first = !out
                .iter()
                .any(|o| o.session == c.session && o.change == c.change);
            if [SNAPSHOT, super::entry::ENTRY].contains(&c.change.as_str()) && first {
                out.push(c.clone());
            }
            continue;
        }
        if c.kept.is_none() && op.undoes.is_some() {
            continue;
        }
        if !REVERSIBLE.contains(&c.change.as_str()) || c.kept.is_none() {
            return Err(not_reversible(op, c));
        }
        out.push(c.clone());
    }
    if out.is_empty() {
        let e = Error::usage(format!(
            "operation {} ({}) recorded no session change to undo",
            op.id, op.command
        ));
        return Err(if op.done {
            e.with_hint("`sessionctl log` lists the operations; `undo OP_ID` names an earlier one")
        } else {
            // interrupted before it recorded a change: what it began is
            // completed by a rerun, which `check` names
            e.with_hint("it did not complete: `sessionctl check` says what completes it")
        });
    }
    Ok(out)
}

fn not_reversible(op: &Op, c: &Change) -> Error {
    let why = if c.change == "prune" {
        "was deleted for good (trash prune cannot be undone)".to_owned()
    } else if REVERSIBLE.contains(&c.change.as_str()) && op.argv.iter().any(|a| a == "--purge") {
        "kept nothing (--purge)".to_owned()
    } else if REVERSIBLE.contains(&c.change.as_str()) {
        // what goes through Agenvoy's daemon is changed by Agenvoy, which
        // keeps no copy (reset and remove make their Trash copy first)
        format!(
            "was changed ({}) through Agenvoy's daemon, which keeps nothing to undo it from",
            c.change
        )
    } else {
        format!(
            "was changed ({}) without keeping anything to undo it from",
            c.change
        )
    };
    Error::usage(format!(
        "cannot undo {} ({}): session {} {why}",
        op.id, op.command, c.session
    ))
    .with_hint("`sessionctl log` lists the operations; `undo OP_ID` names an earlier one")
}
