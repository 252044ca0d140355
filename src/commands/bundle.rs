//! `export SESSION…|--all -o DIR|FILE.tar [--with-errors]` and
//! `import BUNDLE|DIR|FILE.tar [--as ID]`

use anyhow::Result;

use crate::cli::{ExportArgs, ImportArgs};
use crate::cli_util::guard::write_args;
use crate::cli_util::targets::{self, Resolve};
use crate::commands::{batch_ui, Context, Done};
use crate::engine::batch::SessionError;
use crate::engine::import::{self, ImportBundles};
use crate::engine::tarball::{self, TarExport};
use crate::engine::transfer::{self, TransferReport};
use crate::output::ErrorEntry;

pub fn export(ctx: &Context, args: &ExportArgs) -> Result<Done> {
    let (targets, mut errors) = targets::resolve(&ctx.root, &args.targets, Resolve::Folders)?;
    // A tar is packed from bundles written beside it, once all are done.
    let tar = match tarball::is_tar(&args.output) {
        true if args.dry_run => {
            tarball::refuse_existing(&args.output)?;
            None
        }
        true => Some(TarExport::begin(&ctx.root, &args.output)?),
        false => None,
    };
    // A dry run into a tar plans into the tar's own path, where no
    // `<id>/` can exist, as none can in the real run's staging folder.
    let folder = tar
        .as_ref()
        .map_or_else(|| args.output.clone(), |t| t.folder().to_path_buf());
    let mut reports = Vec::new();
    let bar = ctx.out.progress(targets.len(), "exporting");
    let mut exporter = transfer::Exporter::new(&ctx.root)?;
    for t in &targets {
        match exporter.export(&t.id, &folder, args.dry_run) {
            Ok(r) => reports.push(r),
            Err(error) => errors.push(SessionError {
                session: t.id.clone(),
                error,
            }),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if args.with_errors {
        match transfer::export_errors(&ctx.root, &folder, args.dry_run) {
            Ok(r) => reports.push(r),
            Err(error) => errors.push(SessionError {
                session: transfer::ERROR_MEMORY_BUNDLE.into(),
                error,
            }),
        }
    }
    if tarball::is_tar(&args.output) {
        for r in &mut reports {
            r.bundle = args.output.clone();
        }
    }
    // nothing to export is an empty folder or tar, which imports as none;
    // when every session failed, nothing is written
    let nothing = reports.is_empty() && errors.is_empty() && !args.dry_run;
    match tar {
        Some(t) if !reports.is_empty() || nothing => t.finish()?,
        None if nothing => transfer::export_nothing(&ctx.root, &folder)?,
        _ => {}
    }
    finish(ctx, "export", args.dry_run, &reports, &errors, false)
}

pub fn import(ctx: &Context, args: &ImportArgs) -> Result<Done> {
    let w = write_args(&args.change);
    // a new machine's root: made once the import is confirmed
    let new_root = !import::is_root(ctx.root.path());
    let unpacked = if tarball::is_tar(&args.bundle) {
        Some(tarball::unpack(&ctx.root, &args.bundle)?)
    } else {
        None
    };
    let found = match &unpacked {
        Some(u) => u.bundles.clone(),
        None => tarball::bundles_in(&args.bundle)?,
    };
    if args.as_id.is_some() && found.len() > 1 {
        return Err(crate::error::Error::usage(format!(
            "{} holds {} sessions; --as renames only one",
            args.bundle.display(),
            found.len()
        ))
        .with_hint("import without --as, or export the session alone")
        .into());
    }
    let tar = unpacked
        .as_ref()
        .map(|u| (args.bundle.clone(), u.path().to_path_buf()));
    let (mut op, targets, errors) = ImportBundles::new(&ctx.root, &found, args.as_id.clone(), tar);
    if let Some(e) = op.refused() {
        return Err(e.into());
    }
    if new_root && w.dry_run {
        ctx.out.warn(&format!(
            "{} is not an Agenvoy data root yet; the import would create it (sessions/, .store/)",
            ctx.root.path().display()
        ));
    }
    let root_note = if new_root {
        format!(" into a new data root {}", ctx.root.path().display())
    } else {
        String::new()
    };
    let question = |ids: &[&str], _: &[String]| {
        format!(
            "Import {} session(s) from {}{root_note} ({})?",
            ids.len(),
            args.bundle.display(),
            crate::output::preview_ids(ids)
        )
    };
    let mut ui = batch_ui(ctx, &w, targets.len(), question);
    if new_root {
        ui = ui.on_yes(|| import::create_root(&ctx.root));
    }
    let outcome = crate::engine::batch::run(&op, &ctx.root, targets, ui.options(), &ui)?;
    ui.finish();
    drop(unpacked);
    let mut all_errors = errors;
    all_errors.extend(outcome.errors);
    if outcome.declined {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(Done::from(crate::error::exit::FINDINGS));
    }
    finish(
        ctx,
        "import",
        w.dry_run,
        &outcome.results,
        &all_errors,
        true,
    )
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
        if reports.is_empty() && errors.is_empty() {
            ctx.out.line(&format!("{verb} no session"))?;
        }
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
