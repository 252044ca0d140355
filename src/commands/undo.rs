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
use crate::store::oplog::{self, Change};
use crate::store::torii;

pub fn run(ctx: &Context, args: &UndoArgs) -> Result<Done> {
    let log = oplog::read(&ctx.root)?;
    let (target, resume) = undo::pick::pick(&log, args.op.as_deref())?;
    if !args.change.force {
        if let Some(later) = undo::pick::conflict(&log, target) {
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
    let changes = undo::pick::steps(target)?;
    let w = write_args(&args.change);
    let planned = undo::plan_all(&ctx.root, &changes, resume.is_some())?;
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
    let planned = undo::plan_all(&ctx.root, &changes, resume.is_some())?;
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
