//! The view's undo, Trash and error-memory calls, in one place: these
//! writes do not go through the batch runner yet, so each follows the
//! steps its command takes (read, plan, ask, lock, plan again under the
//! locks, apply), with the operation log as it is today. When they move
//! onto the runner, this module is what changes.

use crate::cli::WriteArgs;
use crate::cli_util::guard;
use crate::engine::batch::Stores;
use crate::engine::embedding::EmbedSettings;
use crate::engine::error_ops;
use crate::engine::errors::{self, ErrorItem, Filter, Sort};
use crate::engine::undo;
use crate::error::Error;
use crate::store::torii::{self, Db, DB_ERROR_MEMORY};
use crate::store::trash::{self, EntryInfo};
use crate::store::{lock, oplog};

use super::ops::{Done, Env, ViewUi};
use super::state::OpRow;

fn ours(e: anyhow::Error) -> Error {
    match e.downcast::<Error>() {
        Ok(ours) => ours,
        Err(other) => Error::usage(other.to_string()),
    }
}

fn cancelled() -> Done {
    Done {
        lines: vec!["cancelled before anything was written; nothing changed".into()],
        ..Done::default()
    }
}

/// The operation log, newest first, with why `undo` would refuse each.
pub fn oplog_rows(env: Env) -> crate::Result<Vec<OpRow>> {
    let root = &env.ctx.root;
    let log = oplog::read(root)?;
    Ok(log
        .ops
        .iter()
        .rev()
        .map(|op| OpRow {
            why_not: undo::why_not(root, op),
            op: op.clone(),
        })
        .collect())
}

/// The Trash, newest first.
pub fn trash_entries(env: Env) -> crate::Result<Vec<EntryInfo>> {
    let mut entries = trash::list(&env.ctx.root)?;
    entries.reverse();
    Ok(entries)
}

/// The error memory, newest first (Agenvoy's order), expired ones included.
pub fn error_items(env: Env) -> crate::Result<Vec<ErrorItem>> {
    let db = Db::load_store(&env.ctx.root, DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let all = Filter {
        expired: true,
        ..Filter::default()
    };
    errors::list(&db, now, &all, Sort::Age, None)
}

fn write_args(env: Env) -> WriteArgs {
    WriteArgs {
        dry_run: false,
        yes: true,
        purge: false,
        force: env.args.force,
    }
}

fn restored_lines(reports: &[undo::RestoreReport], env: Env) -> Vec<String> {
    reports
        .iter()
        .map(|r| {
            format!(
                "restored {} from {}: {} file(s), {} archive row(s), {} ToriiDB key(s)",
                r.session,
                env.ctx.root.relative(&r.from),
                r.files.len(),
                r.archive_rows,
                r.torii_keys
            )
        })
        .collect()
}

/// `undo OP_ID`.
pub fn undo(env: Env, op_id: &str, ui: &ViewUi) -> crate::Result<Done> {
    let ctx = env.ctx;
    let force = false;
    let req = undo::pick::request(&oplog::read(&ctx.root)?, Some(op_id), force)?;
    let resume = req.resume.is_some();
    let planned = undo::plan_all(&ctx.root, &req.changes, resume)?;
    let mut ids: Vec<String> = planned.iter().map(|p| p.id().to_owned()).collect();
    ids.dedup();
    req.announce(&ctx.root);
    if !ui.go_ahead()? {
        return Ok(cancelled());
    }
    let mut refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    refs.sort_unstable();
    refs.dedup();
    let w = write_args(env);
    let _guard = guard::begin(ctx, &refs, &w).map_err(ours)?;
    // checked and planned again under the locks: an operation that ran
    // meanwhile may conflict, a bundle may have changed
    undo::pick::request(&oplog::read(&ctx.root)?, Some(&req.target.id), force)?;
    let planned = undo::plan_all(&ctx.root, &req.changes, resume)?;
    let mut stores = Stores::new(&ctx.root, torii::now_unix(), w.force);
    let reports = undo::apply_all(&mut stores, planned, w.force, guard::to_trash)?;
    let mut lines = vec![format!("undid {} ({})", req.target.id, req.target.command)];
    lines.extend(restored_lines(&reports, env));
    Ok(Done {
        lines,
        failed: false,
        changed: ids,
    })
}

fn entry(env: Env, name: &str) -> crate::Result<EntryInfo> {
    trash::list(&env.ctx.root)?
        .into_iter()
        .find(|e| e.name == name)
        .ok_or_else(|| Error::no_input(format!("no trash entry '{name}'")))
}

/// `trash restore ENTRY` (as the session it was).
pub fn restore(env: Env, name: &str, ui: &ViewUi) -> crate::Result<Done> {
    let ctx = env.ctx;
    let path = entry(env, name)?.path;
    let planned = undo::plan(&ctx.root, &path, None, false)?;
    let id = planned.id().to_owned();
    if !ui.go_ahead()? {
        return Ok(cancelled());
    }
    let _guard = guard::begin(ctx, &[&id], &write_args(env)).map_err(ours)?;
    // planned again under the locks: the session may have appeared since
    let planned = undo::plan(&ctx.root, &path, None, false)?;
    // what the restore consumes, so its undo puts the entry back
    undo::entry::keep(&ctx.root, &path, &id)?;
    let mut stores = Stores::new(&ctx.root, torii::now_unix(), env.args.force);
    let report = undo::apply(&mut stores, planned, env.args.force, guard::to_trash)?;
    oplog::note(
        &ctx.root,
        oplog::Change {
            session: id.clone(),
            change: "restore".into(),
            kept: None,
        },
    )?;
    Ok(Done {
        lines: restored_lines(std::slice::from_ref(&report), env),
        failed: false,
        changed: vec![id],
    })
}

/// `trash prune` of one entry: deleted for good, logged as irreversible.
pub fn prune(env: Env, name: &str, ui: &ViewUi) -> crate::Result<Done> {
    let ctx = env.ctx;
    let e = entry(env, name)?;
    oplog::set_irreversible();
    if !ui.go_ahead()? {
        return Ok(cancelled());
    }
    let _store = lock::store(&ctx.root)?;
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
    Ok(Done {
        lines: vec![format!("deleted {} for good", e.name)],
        failed: false,
        changed: e.session.into_iter().collect(),
    })
}

/// `errors edit KEY --action TEXT`: the TTL is kept.
pub fn edit_action(env: Env, key: &str, action: &str, ui: &ViewUi) -> crate::Result<Done> {
    let ctx = env.ctx;
    let backend = ctx.backend(env.args.force)?;
    let preview = Db::load_store(&ctx.root, DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let item = errors::resolve(&preview, now, key)?;
    errors::ensure_editable(&item, false)?;
    let edit = error_ops::Edit {
        action: Some(action.to_owned()),
        cause: None,
        keywords: None,
        touch: false,
    };
    let embed = EmbedSettings {
        url: None,
        model: None,
        offline: ctx.offline,
    };
    let plan = error_ops::plan_edit(&preview, now, &item.key, edit, &embed)?;
    drop(preview);
    if !ui.go_ahead()? {
        return Ok(cancelled());
    }
    let report = match &backend {
        crate::daemon::Backend::Daemon(d) => error_ops::edit_via_daemon(d, plan)?,
        crate::daemon::Backend::Files => {
            error_ops::apply_edit(&ctx.root, plan, &embed, env.args.force)?
        }
    };
    Ok(Done {
        lines: vec![format!(
            "rewrote {} ({}): expires {}; vector {}",
            report.id,
            report.key,
            report
                .expire_at
                .map_or("never".into(), |t| crate::timefmt::local(
                    crate::timefmt::from_nanos(t * 1_000_000_000)
                )),
            report.vector
        )],
        failed: false,
        changed: vec![report.key],
    })
}
