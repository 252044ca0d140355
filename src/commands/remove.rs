//! `remove SESSION…`

use anyhow::Result;

use crate::cli::RemoveArgs;
use crate::commands::{clear, reset::preview, targets, Context};
use crate::engine::reset;
use crate::error::{exit, Error};
use crate::store::layout::Last;

pub fn run(ctx: &Context, args: &RemoveArgs) -> Result<i32> {
    // Folders by path, symlinked ones included: rename moves a link as a
    // link, so removing one never touches its target.
    let mut targets = Vec::new();
    if args.targets.all {
        targets = targets::resolve(&ctx.root, &args.targets, false)?
            .into_iter()
            .map(|t| (t.id, t.dir.map(|d| d.path)))
            .collect();
    } else {
        if args.targets.sessions.is_empty() {
            targets::resolve(&ctx.root, &args.targets, true)?; // reports the usage error
        }
        for id in &args.targets.sessions {
            let path = ctx.root.session_path(id)?;
            // the folder itself may be a link: it is moved as one
            let entry = ctx.root.resolve(&path, Last::Entry)?;
            let exists = std::fs::symlink_metadata(entry).is_ok();
            if !targets.iter().any(|(t, _): &(String, _)| t == id) {
                targets.push((id.clone(), exists.then_some(path)));
            }
        }
        let filters = &args.targets.filters;
        targets.retain(|(id, _)| targets::matches_id(filters, id));
        if filters.idle_for.is_some() || filters.older_than.is_some() {
            let kept: Vec<String> = targets::resolve(&ctx.root, &args.targets, true)?
                .into_iter()
                .map(|t| t.id)
                .collect();
            targets.retain(|(id, _)| kept.contains(id));
        }
    }
    if targets.is_empty() {
        ctx.out.line("no sessions match; nothing to do")?;
        if ctx.out.json {
            ctx.out.json(&Vec::<()>::new())?;
        }
        return Ok(exit::OK);
    }

    let ids: Vec<&str> = targets.iter().map(|(id, _)| id.as_str()).collect();
    let question = format!("Remove {} session(s) ({})?", ids.len(), preview(&ids));
    if !targets::confirm(&args.write, &question)? {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(exit::FINDINGS);
    }
    let mut guard = clear::begin(ctx, &ids, &args.write)?;
    let mut tiers = clear::open_tiers(ctx, &args.write)?;

    // An id with no folder is only valid if the stores still hold its data
    // (an interrupted earlier remove); otherwise it is unknown.
    for (id, folder) in &targets {
        if folder.is_none() {
            let rows = match &tiers.archive {
                Some(a) => a.count_session(id)?,
                None => 0,
            };
            if rows == 0 && tiers.session_keys(id).is_empty() {
                return Err(Error::no_input(format!(
                    "unknown session '{id}': no folder, no archive rows, no ToriiDB keys"
                ))
                .with_hint("`sessionctl sessions list` shows the sessions under this root")
                .into());
            }
        }
    }

    let opts = reset::ClearOptions {
        dry_run: args.write.dry_run,
        purge: args.write.purge,
    };
    let mut reports = Vec::with_capacity(targets.len());
    let bar = ctx.out.progress(targets.len(), "removing");
    for (id, folder) in targets {
        reports.push(reset::remove(&mut tiers, &id, folder, opts)?);
        guard.forget(&id)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    clear::render(ctx, &reports)?;
    Ok(exit::OK)
}
