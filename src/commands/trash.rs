//! `trash list | restore ENTRY [--as NEW_ID] | prune --older-than AGE`

use anyhow::Result;

use crate::cli::{TrashPruneArgs, TrashRestoreArgs};
use crate::cli_util::guard::{finish, to_trash, write_args};
use crate::commands::{batch_ui, Context, Done};
use crate::engine::prune::{PruneTrash, Pruning};
use crate::engine::undo::op::RestoreEntry;
use crate::output::bytes;
use crate::store::trash::{self, EntryInfo};
use crate::table::{Col, Grid};

pub fn list(ctx: &Context) -> Result<Done> {
    let entries = trash::list(&ctx.root)?;
    if ctx.out.json {
        ctx.out.envelope("trash list", false, &entries, &[])?;
    } else if entries.is_empty() {
        ctx.out.line("the trash is empty")?;
    } else {
        render(ctx, &entries)?;
    }
    Ok(Done::default())
}

fn render(ctx: &Context, entries: &[EntryInfo]) -> Result<()> {
    let mut t = Grid::new(vec![
        // an entry of a 56-character session id is 77: it alone fits 80
        Col::id("ENTRY"),
        Col::id("SESSION").optional(5),
        Col::id("KIND").optional(2),
        Col::id("TIME").optional(3),
        Col::num("SIZE").optional(1),
        Col::id("OPERATION").optional(4),
    ]);
    let now = crate::timefmt::now();
    for e in entries {
        t.row(vec![
            (&e.name).into(),
            e.session.as_deref().unwrap_or("-").into(),
            e.kind.as_deref().unwrap_or("-").into(),
            crate::table::when(Some(e.time), now),
            bytes(e.bytes).into(),
            e.op.as_deref().unwrap_or("-").into(),
        ]);
    }
    ctx.out.grid(&t)?;
    Ok(())
}

pub fn restore(ctx: &Context, args: &TrashRestoreArgs) -> Result<Done> {
    let w = write_args(&args.change);
    let op = RestoreEntry::new(
        &ctx.root,
        &args.entry,
        args.as_id.clone(),
        w.force,
        to_trash,
    )?;
    let target = op.target()?;
    let id = target.id.clone();
    let question = |_: &[&str], _: &[String]| format!("Restore {} as session {id}?", args.entry);
    let Some(report) = ctx.run_one(&op, target, batch_ui(ctx, &w, 1, question))? else {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(Done::from(crate::error::exit::FINDINGS));
    };
    finish(ctx, "trash restore", w.dry_run, &[report], &[id])
}

pub fn prune(ctx: &Context, args: &TrashPruneArgs) -> Result<Done> {
    let op = PruneTrash {
        root: &ctx.root,
        cutoff: crate::timefmt::TimeBound::Ago(args.older_than).cutoff(crate::timefmt::now()),
        keep_last: args.keep_last,
    };
    let w = write_args(&args.change);
    let question = |_: &[&str], plan: &[String]| format!("Delete {} for good?", plan.join(", "));
    let Some(pruning) = ctx.run_one(&op, op.target(), batch_ui(ctx, &w, 1, question))? else {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(Done::from(crate::error::exit::FINDINGS));
    };
    let ids: Vec<String> = if w.dry_run {
        Vec::new()
    } else {
        pruning
            .doomed
            .iter()
            .filter_map(|e| e.session.clone())
            .collect()
    };
    prune_report(ctx, w.dry_run, &pruning, &ids)
}

fn prune_report(ctx: &Context, dry_run: bool, pruning: &Pruning, ids: &[String]) -> Result<Done> {
    let doomed = &pruning.doomed;
    // what stays although old enough, and why: a warning, so the table
    // (and --json's results) stay what is deleted
    let kept: Vec<String> = pruning.kept.iter().map(|k| k.line()).collect();
    if ctx.out.json {
        ctx.out
            .envelope_warning("trash prune", dry_run, doomed, &[], &kept)?;
    } else {
        for k in &kept {
            ctx.out.warn(k);
        }
        if doomed.is_empty() {
            ctx.out.line("no trash entries to prune")?;
        } else {
            render(ctx, doomed)?;
            let verb = if dry_run { "would delete" } else { "deleted" };
            ctx.out
                .footer(&format!("{verb} {} entries", doomed.len()))?;
        }
    }
    Ok(Done {
        code: 0,
        sessions: doomed.len(),
        changed: ids.to_vec(),
        failed: Vec::new(),
    })
}
