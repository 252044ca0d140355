//! `trash list | restore ENTRY [--as NEW_ID] | prune --older-than AGE`

use anyhow::Result;

use crate::cli::{TrashPruneArgs, TrashRestoreArgs};
use crate::cli_util::guard::{finish, to_trash, write_args};
use crate::commands::{batch_ui, Context, Done};
use crate::engine::prune::PruneTrash;
use crate::engine::undo;
use crate::engine::undo::op::RestoreEntry;
use crate::error::Error;
use crate::output::bytes;
use crate::store::oplog;
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
        Col::id("ENTRY"),
        Col::id("SESSION").optional(3),
        Col::id("KIND"),
        Col::id("TIME").optional(1),
        Col::num("SIZE"),
        Col::id("OPERATION").optional(2),
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

/// An entry named as `trash list` shows it: one name inside the trash.
fn entry_path(ctx: &Context, name: &str) -> crate::Result<std::path::PathBuf> {
    if name.is_empty() || name.contains('/') || name == "." || name == ".." {
        return Err(Error::usage(format!("'{name}' is not a trash entry name"))
            .with_hint("`sessionctl trash list` shows the entries"));
    }
    let path = ctx.root.trash_dir().join(name);
    if std::fs::symlink_metadata(ctx.root.resolve(&path, crate::store::layout::Last::Entry)?)
        .is_err()
    {
        return Err(Error::no_input(format!("no trash entry '{name}'"))
            .with_hint("`sessionctl trash list` shows the entries"));
    }
    Ok(path)
}

pub fn restore(ctx: &Context, args: &TrashRestoreArgs) -> Result<Done> {
    let entry = entry_path(ctx, &args.entry)?;
    let resume = interrupted(ctx, &args.entry)?;
    let w = write_args(&args.change);
    let op = RestoreEntry {
        root: &ctx.root,
        entry,
        // a rerun completes the interrupted restore, under the id it chose
        as_id: match &resume {
            Some((_, id)) => Some(id.clone()),
            None => args.as_id.clone(),
        },
        resume: resume.map(|(op, _)| op),
        force: w.force,
        to_trash,
    };
    let target = op.target()?;
    let id = target.id.clone();
    let question = |_: &[&str], _: &[String]| format!("Restore {} as session {id}?", args.entry);
    let Some(report) = ctx.run_one(&op, target, batch_ui(ctx, &w, 1, question))? else {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(Done::from(crate::error::exit::FINDINGS));
    };
    finish(ctx, "trash restore", w.dry_run, &[report], &[id])
}

/// A `trash restore` of entry `name` killed midway (its record not done,
/// not undone): its operation id and the session id it restored as.
fn interrupted(ctx: &Context, name: &str) -> crate::Result<Option<(String, String)>> {
    let log = oplog::read(&ctx.root)?;
    let suffix = format!("/{name}");
    Ok(log
        .ops
        .iter()
        .rev()
        .filter(|o| o.command == "trash restore" && !o.done && o.undone_by.is_none())
        .find_map(|o| {
            o.sessions
                .iter()
                .find(|c| {
                    c.change == undo::entry::ENTRY
                        && c.kept.as_deref().is_some_and(|k| k.ends_with(&suffix))
                })
                .map(|c| (o.id.clone(), c.session.clone()))
        }))
}

pub fn prune(ctx: &Context, args: &TrashPruneArgs) -> Result<Done> {
    let op = PruneTrash {
        root: &ctx.root,
        cutoff: crate::timefmt::TimeBound::Ago(args.older_than).cutoff(crate::timefmt::now()),
        keep_last: args.keep_last,
    };
    let w = write_args(&args.change);
    let question = |_: &[&str], plan: &[String]| format!("Delete {} for good?", plan.join(", "));
    let Some(doomed) = ctx.run_one(&op, op.target(), batch_ui(ctx, &w, 1, question))? else {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(Done::from(crate::error::exit::FINDINGS));
    };
    let ids: Vec<String> = if w.dry_run {
        Vec::new()
    } else {
        doomed.iter().filter_map(|e| e.session.clone()).collect()
    };
    prune_report(ctx, w.dry_run, &doomed, &ids)
}

fn prune_report(
    ctx: &Context,
    dry_run: bool,
    doomed: &[EntryInfo],
    ids: &[String],
) -> Result<Done> {
    if ctx.out.json {
        ctx.out.envelope("trash prune", dry_run, doomed, &[])?;
    } else if doomed.is_empty() {
        ctx.out.line("no trash entries to prune")?;
    } else {
        render(ctx, doomed)?;
        let verb = if dry_run { "would delete" } else { "deleted" };
        ctx.out
            .footer(&format!("{verb} {} entries", doomed.len()))?;
    }
    Ok(Done {
        code: 0,
        sessions: doomed.len(),
        changed: ids.to_vec(),
        failed: Vec::new(),
    })
}
