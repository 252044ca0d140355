//! `export SESSION… -o DIR` and `import BUNDLE [--as ID]`

use anyhow::Result;

use crate::cli::{ExportArgs, ImportArgs};
use crate::cli_util::guard::write_args;
use crate::cli_util::{guard, targets};
use crate::commands::{Context, Done};
use crate::engine::batch::{SessionError, Stores};
use crate::engine::transfer::{self, TransferReport};
use crate::output::ErrorEntry;
use crate::store::{lock, oplog, torii};

pub fn export(ctx: &Context, args: &ExportArgs) -> Result<Done> {
    let mut reports = Vec::new();
    let mut errors = Vec::new();
    for id in &args.sessions {
        let one = (|| {
            // the session lock: no sessionctl writer changes it meanwhile
            let _lock = if args.dry_run {
                None
            } else {
                Some(lock::session(&ctx.root, id)?)
            };
            transfer::export(&ctx.root, id, &args.output, args.dry_run)
        })();
        match one {
            Ok(r) => reports.push(r),
            Err(error) => errors.push(SessionError {
                session: id.clone(),
                error,
            }),
        }
    }
    finish(ctx, "export", args.dry_run, &reports, &errors, false)
}

pub fn import(ctx: &Context, args: &ImportArgs) -> Result<Done> {
    let planned = transfer::plan_import(&ctx.root, &args.bundle, args.as_id.as_deref())?;
    let w = write_args(&args.change);
    if w.dry_run {
        return finish(ctx, "import", true, &[planned.report().clone()], &[], false);
    }
    let question = format!(
        "Import {} as session {}?",
        args.bundle.display(),
        planned.id
    );
    if !targets::ask(Some(false), w.yes, &question)? {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(Done::from(crate::error::exit::FINDINGS));
    }
    let id = planned.id.clone();
    let _guard = guard::begin(ctx, &[&id], &w)?;
    // planned again under the locks: the session may have appeared since
    let planned = transfer::plan_import(&ctx.root, &args.bundle, args.as_id.as_deref())?;
    // import never overwrites: before it, the session was not there
    crate::engine::undo::snapshot::keep_absent(&ctx.root, &id)?;
    let mut stores = Stores::new(&ctx.root, torii::now_unix(), w.force);
    let report = transfer::import(&mut stores, planned)?;
    oplog::record(&ctx.root, &id, "import", None)?;
    finish(ctx, "import", false, &[report], &[], true)
}

fn finish(
    ctx: &Context,
    command: &str,
    dry_run: bool,
    reports: &[TransferReport],
    errors: &[SessionError],
    changed: bool,
) -> Result<Done> {
    let errors: Vec<ErrorEntry> = errors
        .iter()
        .map(|e| ErrorEntry::new(Some(&e.session), &e.error))
        .collect();
    if ctx.out.json {
        ctx.out.envelope(command, dry_run, reports, &errors)?;
    } else {
        let verb = match (command, dry_run) {
            ("export", true) => "would export",
            ("export", false) => "exported",
            (_, true) => "would import",
            _ => "imported",
        };
        for r in reports {
            ctx.out.line(&format!(
                "{verb} {} ({}): {} file(s), {} archive row(s), {} ToriiDB key(s)",
                r.session,
                r.bundle.display(),
                r.files,
                r.archive_rows,
                r.torii_keys
            ))?;
        }
        ctx.out.session_errors(&errors);
    }
    Ok(Done {
        code: crate::engine::batch::worst(errors.iter().map(|e| e.code)),
        sessions: reports.len() + errors.len(),
        changed: if changed && !dry_run {
            reports.iter().map(|r| r.session.clone()).collect()
        } else {
            Vec::new()
        },
        failed: errors,
    })
}
