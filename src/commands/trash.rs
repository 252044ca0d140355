//! `trash list | restore ENTRY [--as NEW_ID] | prune --older-than AGE`

use anyhow::Result;

use crate::cli::{TrashPruneArgs, TrashRestoreArgs};
use crate::cli_util::guard::{self, finish, write_args};
use crate::cli_util::targets;
use crate::commands::{Context, Done};
use crate::engine::batch::Stores;
use crate::engine::undo;
use crate::error::Error;
use crate::output::bytes;
use crate::store::trash::{self, EntryInfo};
use crate::store::{oplog, torii};
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
    // a rerun completes the interrupted restore, under the id it chose
    let as_id = match &resume {
        Some((_, id)) => Some(id.as_str()),
        None => args.as_id.as_deref(),
    };
    let planned = undo::plan(&ctx.root, &entry, as_id, resume.is_some())?;
    let id = planned.id().to_owned();
    let w = write_args(&args.change);
    if w.dry_run {
        return finish(
            ctx,
            "trash restore",
            true,
            &[planned.report().clone()],
            &[id],
        );
    }
    if let Some((op, _)) = &resume {
        // its snapshot and entry copy are kept once, in that operation
        oplog::resume(&ctx.root, op);
    }
    if !targets::ask(
        Some(false),
        w.yes,
        &format!("Restore {} as session {id}?", args.entry),
    )? {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(Done::from(crate::error::exit::FINDINGS));
    }
    let _guard = guard::begin(ctx, &[&id], &w)?;
    // planned again under the locks: the session may have appeared since
    let planned = undo::plan(&ctx.root, &entry, as_id, resume.is_some())?;
    // what the restore consumes, so its undo puts the entry back
    undo::entry::keep(&ctx.root, &entry, &id)?;
    let mut stores = Stores::new(&ctx.root, torii::now_unix(), w.force);
    let report = undo::apply(&mut stores, planned, w.force, guard::to_trash)?;
    oplog::note(&ctx.root, restored(&id))?;
    finish(ctx, "trash restore", false, &[report], &[id])
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

fn restored(id: &str) -> oplog::Change {
    oplog::Change {
        session: id.to_owned(),
        change: "restore".into(),
        kept: None,
    }
}

pub fn prune(ctx: &Context, args: &TrashPruneArgs) -> Result<Done> {
    let entries = trash::list(&ctx.root)?;
    let cutoff = crate::timefmt::TimeBound::Ago(args.older_than).cutoff(crate::timefmt::now());
    let mut doomed = trash::to_prune(&entries, cutoff, args.keep_last);
    // the pre-images operations kept age out with the Trash
    doomed.extend(
        trash::preimages(&ctx.root)?
            .into_iter()
            .filter(|p| p.time < cutoff),
    );
    let w = write_args(&args.change);
    let ids: Vec<String> = doomed.iter().filter_map(|e| e.session.clone()).collect();
    if w.dry_run || doomed.is_empty() {
        return prune_report(ctx, w.dry_run, &doomed, &[]);
    }
    oplog::set_irreversible();
    let total: u64 = doomed.iter().map(|e| e.bytes).sum();
    let question = format!(
        "Delete {} trash entr{} ({}) for good?",
        doomed.len(),
        if doomed.len() == 1 { "y" } else { "ies" },
        bytes(total)
    );
    if !targets::ask(Some(false), w.yes, &question)? {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(Done::from(crate::error::exit::FINDINGS));
    }
    let _store = crate::store::lock::store(&ctx.root)?;
    for e in &doomed {
        trash::delete(&ctx.root, &e.path)?;
        oplog::note(
            &ctx.root,
            oplog::Change {
                // an entry Agenvoy made, or an operation's pre-images: its name
                session: e.session.clone().unwrap_or_else(|| e.name.clone()),
                change: "prune".into(),
                kept: None,
            },
        )?;
    }
    prune_report(ctx, false, &doomed, &ids)
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
