//! `undo [OP_ID] [--force] [--dry-run] [--yes]`: reverse an operation from
//! what it kept, itself recorded as an operation (engine::undo does the
//! work; this parses, asks, locks and renders).

use anyhow::Result;

use crate::cli::UndoArgs;
use crate::cli_util::guard::{finish, write_args};
use crate::cli_util::{guard, targets};
use crate::commands::{Context, Done};
use crate::engine::batch::Stores;
use crate::engine::undo;
use crate::store::{oplog, torii};

pub fn run(ctx: &Context, args: &UndoArgs) -> Result<Done> {
    let log = oplog::read(&ctx.root)?;
    let req = undo::pick::request(&log, args.op.as_deref(), args.change.force)?;
    let resume = req.resume.is_some();
    let w = write_args(&args.change);
    let planned = undo::plan_all(&ctx.root, &req.changes, resume)?;
    let ids: Vec<String> = planned.iter().map(|p| p.id().to_owned()).collect();
    if w.dry_run {
        let reports: Vec<_> = planned.iter().map(|p| p.report().clone()).collect();
        return finish(ctx, "undo", true, &reports, &ids);
    }
    req.announce(&ctx.root);
    let question = format!(
        "Undo {} ({}, {})?",
        req.target.id,
        req.target.command,
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
    // checked and planned again under the locks: an operation that ran
    // meanwhile may conflict, a bundle may have changed
    undo::pick::request(
        &oplog::read(&ctx.root)?,
        Some(&req.target.id),
        args.change.force,
    )?;
    let planned = undo::plan_all(&ctx.root, &req.changes, resume)?;
    let mut stores = Stores::new(&ctx.root, torii::now_unix(), w.force);
    let reports = undo::apply_all(&mut stores, planned, w.force, guard::to_trash)?;
    finish(ctx, "undo", false, &reports, &ids)
}
