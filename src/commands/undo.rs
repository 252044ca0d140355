//! `undo [OP_ID] [--force] [--dry-run] [--yes]`: reverse an operation from
//! what it kept, itself recorded as an operation (engine::undo does the
//! work and the runner locks and journals it; this parses and renders).

use anyhow::Result;

use crate::cli::UndoArgs;
use crate::cli_util::guard::{finish, to_trash, write_args};
use crate::commands::{batch_ui, Context, Done};
use crate::engine::undo;
use crate::store::oplog;

pub fn run(ctx: &Context, args: &UndoArgs) -> Result<Done> {
    let log = oplog::read(&ctx.root)?;
    let request = undo::pick::request(&ctx.root, &log, args.op.as_deref(), args.change.force)?;
    let w = write_args(&args.change);
    let op = undo::op::Undo {
        root: &ctx.root,
        force: w.force,
        to_trash,
        request,
    };
    let target = op.target();
    let question = |_: &[&str], _: &[String]| {
        format!(
            "Undo {} ({}, {})?",
            op.request.target.id,
            op.request.target.command,
            crate::engine::batch::Operation::locks(&op, &op.target()).join(", ")
        )
    };
    let Some(reports) = ctx.run_one(&op, target, batch_ui(ctx, &w, 1, question))? else {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(Done::from(crate::error::exit::FINDINGS));
    };
    let ids: Vec<String> = reports.iter().map(|r| r.session.clone()).collect();
    finish(ctx, "undo", w.dry_run, &reports, &ids)
}
