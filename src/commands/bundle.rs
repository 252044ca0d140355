//! `export SESSION… -o DIR|FILE.tar` and `import BUNDLE|FILE.tar [--as ID]`

use anyhow::Result;

use crate::cli::{ExportArgs, ImportArgs};
use crate::cli_util::guard::write_args;
use crate::cli_util::{guard, targets};
use crate::commands::{Context, Done};
use crate::engine::batch::{SessionError, Stores};
use crate::engine::tarball::{self, TarExport};
use crate::engine::transfer::{self, TransferReport};
use crate::output::ErrorEntry;
use crate::store::{lock, oplog, torii};

pub fn export(ctx: &Context, args: &ExportArgs) -> Result<Done> {
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
    let mut errors = Vec::new();
    for id in &args.sessions {
        let one = (|| {
            // the session lock: no sessionctl writer changes it meanwhile
            let _lock = if args.dry_run {
                None
            } else {
                Some(lock::session(&ctx.root, id)?)
            };
            transfer::export(&ctx.root, id, &folder, args.dry_run)
        })();
        match one {
            Ok(r) => reports.push(r),
            Err(error) => errors.push(SessionError {
                session: id.clone(),
                error,
            }),
        }
    }
    if tarball::is_tar(&args.output) {
        for r in &mut reports {
            r.bundle = args.output.clone();
        }
    }
    if let Some(t) = tar {
        if !reports.is_empty() {
            t.finish()?;
        }
    }
    finish(ctx, "export", args.dry_run, &reports, &errors, false)
}

pub fn import(ctx: &Context, args: &ImportArgs) -> Result<Done> {
    let w = write_args(&args.change);
    if !tarball::is_tar(&args.bundle) {
        let planned = transfer::plan_import(&ctx.root, &args.bundle, args.as_id.as_deref())?;
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
        let report = import_one(ctx, args, &args.bundle, &id)?;
        return finish(ctx, "import", false, &[report], &[], true);
    }
    let unpacked = tarball::unpack(&args.bundle)?;
    if args.as_id.is_some() && unpacked.bundles.len() > 1 {
        return Err(crate::error::Error::usage(format!(
            "{} holds {} sessions; --as renames only one",
            args.bundle.display(),
            unpacked.bundles.len()
        ))
        .with_hint("import without --as, or export the session alone")
        .into());
    }
    // Each session is planned (and checked) first; one that fails (it
    // exists already, a bad checksum) is reported and the others go on.
    let mut planned = Vec::new();
    let mut errors = Vec::new();
    for bundle in &unpacked.bundles {
        match transfer::plan_import(&ctx.root, bundle, args.as_id.as_deref()) {
            Ok(p) => planned.push((bundle, p)),
            Err(error) => errors.push(SessionError {
                session: bundle_name(bundle),
                error: unpacked.relabel(&args.bundle, error),
            }),
        }
    }
    let mut reports: Vec<TransferReport> = Vec::new();
    if w.dry_run {
        reports = planned.iter().map(|(_, p)| p.report().clone()).collect();
    } else if !planned.is_empty() {
        let ids: Vec<&str> = planned.iter().map(|(_, p)| p.id.as_str()).collect();
        let question = format!(
            "Import {} session(s) from {} ({})?",
            ids.len(),
            args.bundle.display(),
            crate::output::preview_ids(&ids)
        );
        if !targets::ask(Some(false), w.yes, &question)? {
            ctx.out.line("aborted; nothing changed")?;
            return Ok(Done::from(crate::error::exit::FINDINGS));
        }
        for (bundle, p) in &planned {
            match import_one(ctx, args, bundle, &p.id) {
                Ok(r) => reports.push(r),
                Err(e) => match e.downcast::<crate::Error>() {
                    Ok(error) => errors.push(SessionError {
                        session: p.id.clone(),
                        error: unpacked.relabel(&args.bundle, error),
                    }),
                    Err(other) => return Err(other),
                },
            }
        }
    }
    for r in &mut reports {
        r.bundle = args.bundle.clone();
    }
    finish(ctx, "import", w.dry_run, &reports, &errors, true)
}

fn bundle_name(bundle: &std::path::Path) -> String {
    crate::store::bundle::load(bundle)
        .ok()
        .flatten()
        .map(|m| m.session)
        .unwrap_or_else(|| bundle.display().to_string())
}

/// Import the bundle folder at `path` (confirmed): locks, then planned
/// again under them, as the session may have appeared since.
fn import_one(
    ctx: &Context,
    args: &ImportArgs,
    path: &std::path::Path,
    id: &str,
) -> Result<TransferReport> {
    let w = write_args(&args.change);
    let _guard = guard::begin(ctx, &[id], &w)?;
    let planned = transfer::plan_import(&ctx.root, path, args.as_id.as_deref())?;
    // import never overwrites: before it, the session was not there
    crate::engine::undo::snapshot::keep_absent(&ctx.root, id)?;
    let mut stores = Stores::new(&ctx.root, torii::now_unix(), w.force);
    let report = transfer::import(&mut stores, planned)?;
    oplog::record(&ctx.root, id, "import", None)?;
    Ok(report)
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
