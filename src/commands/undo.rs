//! `undo [OP_ID] [--force] [--dry-run] [--yes]`: reverse an operation from
//! what it kept, itself recorded as an operation.

use anyhow::Result;

use crate::cli::UndoArgs;
use crate::cli_util::guard::{finish, write_args};
use crate::cli_util::{guard, targets};
use crate::commands::{Context, Done};
use crate::engine::batch::Stores;
use crate::engine::undo;
use crate::error::Error;
use crate::store::oplog::{self, Change, Log, Op};
use crate::store::torii;

/// Changes whose previous state is a bundle `undo` can put back.
const REVERSIBLE: &[&str] = &[
    "reset",
    "remove",
    crate::engine::undo::SUMMARY,
    crate::engine::compact::preimage::COMPACT,
    crate::engine::undo::errors::ERRORS,
    crate::engine::undo::limits::LIMITS,
];

pub fn run(ctx: &Context, args: &UndoArgs) -> Result<Done> {
    let log = oplog::read(&ctx.root)?;
    let (target, resume) = pick(&log, args.op.as_deref())?;
    if !args.change.force {
        if let Some(later) = conflict(&log, target) {
            return Err(Error::usage(format!(
                "operation {} ({}) changed the same session after {}",
                later.id, later.command, target.id
            ))
            .with_hint(format!(
                "undo {} first, or pass --force to restore over it",
                later.id
            ))
            .into());
        }
    }
    let changes = reversible(target)?;
    let w = write_args(&args.change);
    let planned = plan_all(ctx, &changes, resume.is_some())?;
    let ids: Vec<String> = planned.iter().map(|p| p.id().to_owned()).collect();
    if w.dry_run {
        let reports: Vec<_> = planned.iter().map(|p| p.report().clone()).collect();
        return finish(ctx, "undo", true, &reports, &ids);
    }
    match &resume {
        Some(id) => oplog::resume(&ctx.root, id),
        None => oplog::set_undoes(&target.id),
    }
    let question = format!(
        "Undo {} ({}, {})?",
        target.id,
        target.command,
        ids.join(", ")
    );
    if !targets::ask(Some(false), w.yes, &question)? {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(Done::from(crate::error::exit::FINDINGS));
    }
    let mut refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    refs.sort_unstable();
    refs.dedup();
    let _guard = guard::begin(ctx, &refs, &w)?;
    let planned = plan_all(ctx, &changes, resume.is_some())?;
    let mut stores = Stores::new(&ctx.root, torii::now_unix(), w.force);
    let mut reports = Vec::new();
    for p in planned {
        let report = undo::apply(&mut stores, p, w.force)?;
        oplog::note(
            &ctx.root,
            Change {
                session: report.session.clone(),
                change: "restore".into(),
                kept: None,
            },
        )?;
        reports.push(report);
    }
    finish(ctx, "undo", false, &reports, &ids)
}

/// The operation to undo, and the id of an interrupted undo of it to
/// complete. Without an id: an interrupted undo, if the latest operation
/// is one; else the latest operation that changed something and is
/// neither an undo nor undone.
fn pick<'a>(log: &'a Log, id: Option<&str>) -> crate::Result<(&'a Op, Option<String>)> {
    let op = match id {
        Some(id) => log.get(id).ok_or_else(|| {
            Error::no_input(format!("no operation '{id}' in the operation log"))
                .with_hint("`sessionctl log` lists the operations")
        })?,
        None => match log.ops.last() {
            Some(last) if last.undoes.is_some() && !last.done => last,
            _ => log
                .ops
                .iter()
                .rev()
                .find(|o| o.undoes.is_none() && o.undone_by.is_none())
                .ok_or_else(|| {
                    Error::usage("nothing to undo: every operation in the log is undone already")
                })?,
        },
    };
    if let Some(target) = &op.undoes {
        // an undo named, or the interrupted one found: complete it
        if !op.done {
            let t = log.get(target).ok_or_else(|| {
                Error::no_input(format!(
                    "operation {target}, undone by {}, is not in the log",
                    op.id
                ))
            })?;
            return Ok((t, Some(op.id.clone())));
        }
        return Err(Error::usage(format!(
            "{} is an undo; undoing an undo is not supported yet",
            op.id
        ))
        .with_hint(format!(
            "run `sessionctl {}` again instead",
            op.argv
                .iter()
                .skip(1)
                .cloned()
                .collect::<Vec<_>>()
                .join(" ")
        )));
    }
    match op.undone_by.as_ref().and_then(|by| log.get(by)) {
        Some(by) if by.done => Err(Error::usage(format!(
            "operation {} was already undone by {}",
            op.id, by.id
        ))),
        Some(by) => Ok((op, Some(by.id.clone()))),
        None => Ok((op, None)),
    }
}

/// A later operation, not undone, that changed a session `op` changed.
fn conflict<'a>(log: &'a Log, op: &Op) -> Option<&'a Op> {
    let pos = log.ops.iter().position(|o| o.id == op.id)?;
    log.ops[pos + 1..].iter().rev().find(|later| {
        later.undoes.is_none()
            && later.undone_by.is_none()
            && later
                .sessions
                .iter()
                .any(|c| op.sessions.iter().any(|d| d.session == c.session))
    })
}

fn reversible(op: &Op) -> crate::Result<Vec<Change>> {
    if op.sessions.is_empty() {
        return Err(Error::usage(format!(
            "operation {} ({}) recorded no session change to undo",
            op.id, op.command
        ))
        .with_hint("`sessionctl log` lists the operations; `undo OP_ID` names an earlier one"));
    }
    if let Some(c) = op
        .sessions
        .iter()
        .find(|c| !REVERSIBLE.contains(&c.change.as_str()) || c.kept.is_none())
    {
        let why = if REVERSIBLE.contains(&c.change.as_str()) {
            "kept nothing (--purge)".to_owned()
        } else {
            format!("is a {} change; its undo is not supported yet", c.change)
        };
        return Err(Error::usage(format!(
            "cannot undo {} ({}): session {} {why}",
            op.id, op.command, c.session
        ))
        .with_hint("`sessionctl log` lists the operations; `undo OP_ID` names an earlier one"));
    }
    Ok(op.sessions.clone())
}

/// Plan each kept bundle's restore; when completing an interrupted undo,
/// bundles already restored (gone) are skipped.
fn plan_all(ctx: &Context, changes: &[Change], resume: bool) -> crate::Result<Vec<undo::Planned>> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // the last change first: each pre-image is of the state before it
    for c in changes.iter().rev() {
        let kept = c.kept.as_deref().expect("reversible");
        // one pre-image may cover several changes (the records of an errors prune)
        if !seen.insert(kept) {
            continue;
        }
        let entry = ctx.root.path().join(kept);
        let bundle = crate::store::bundle::of_entry(&entry);
        if resume && std::fs::symlink_metadata(&bundle).is_err() {
            continue;
        }
        out.push(undo::plan(&ctx.root, &entry, None, resume)?);
    }
    Ok(out)
}
