//! The view's undo, Trash and error-memory calls, in one place: each is an
//! operation of the batch runner (which locks, journals and applies it),
//! built as its command builds it, run on one target.

use crate::cli_util::guard;
use crate::daemon::Backend;
use crate::engine::batch::Target;
use crate::engine::embedding::EmbedSettings;
use crate::engine::error_memory::{self, ErrorItem, Filter, Sort};
use crate::engine::prune::PruneTrash;
use crate::engine::undo;
use crate::error::Error;
use crate::store::oplog;
use crate::store::torii::{self, Db, DB_ERROR_MEMORY};
use crate::store::trash::{self, EntryInfo};

use super::ops::{run_one, Done, Env, ViewUi};
use super::state::OpRow;

/// The operation log, newest first, with why `undo` would refuse each.
pub fn oplog_rows(env: Env) -> crate::Result<Vec<OpRow>> {
    let root = &env.ctx.root;
    let log = oplog::read(root)?;
    Ok(log
        .ops
        .iter()
        .rev()
        .map(|op| OpRow {
            why_not: undo::why_not(root, &log, op),
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
    let db = Db::load_incremental(&env.ctx.root, DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let all = Filter {
        expired: true,
        ..Filter::default()
    };
    error_memory::list(&db, now, &all, Sort::Age, None)
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

/// What a one-target job did, or that it was cancelled before writing.
fn finish<R>(ran: Option<(R, Vec<String>)>, lines: impl FnOnce(&R) -> Vec<String>) -> Done {
    match ran {
        None => Done {
            lines: vec!["cancelled before anything was written; nothing changed".into()],
            ..Done::default()
        },
        Some((report, changed)) => Done {
            lines: lines(&report),
            failed: false,
            changed,
        },
    }
}

/// `undo OP_ID`.
pub fn undo(env: Env, op_id: &str, ui: &ViewUi) -> crate::Result<Done> {
    let root = &env.ctx.root;
    let log = oplog::read(root)?;
    let op = undo::op::Undo {
        root,
        request: undo::pick::request(root, &log, Some(op_id), false)?,
        force: env.args.force,
        to_trash: guard::to_trash,
    };
    let ran = run_one(env, &op, op.target(), ui, &Backend::Files)?;
    Ok(finish(ran, |reports| {
        let mut lines = vec![format!(
            "undid {} ({})",
            op.request.target.id, op.request.target.command
        )];
        lines.extend(restored_lines(reports, env));
        lines
    }))
}

fn entry(env: Env, name: &str) -> crate::Result<EntryInfo> {
    trash::list(&env.ctx.root)?
        .into_iter()
        .find(|e| e.name == name)
        .ok_or_else(|| Error::no_input(format!("no trash entry '{name}'")))
}

/// `trash restore ENTRY`, as the session it was (or the completion of an
/// interrupted restore of it, as the command does).
pub fn restore(env: Env, name: &str, ui: &ViewUi) -> crate::Result<Done> {
    let op =
        undo::op::RestoreEntry::new(&env.ctx.root, name, None, env.args.force, guard::to_trash)?;
    let target: Target = op.target()?;
    let ran = run_one(env, &op, target, ui, &Backend::Files)?;
    Ok(finish(ran, |r| {
        restored_lines(std::slice::from_ref(r), env)
    }))
}

/// `trash prune` with the selected entry's age as the cut-off: it and
/// every older entry (and the pre-images kept before it) go for good.
pub fn prune(env: Env, name: &str, ui: &ViewUi) -> crate::Result<Done> {
    let e = entry(env, name)?;
    let op = PruneTrash {
        root: &env.ctx.root,
        cutoff: e.time + chrono::Duration::milliseconds(1),
        keep_last: 0,
    };
    let ran = run_one(env, &op, op.target(), ui, &Backend::Files)?;
    Ok(finish(ran, |pruning| {
        pruning
            .doomed
            .iter()
            .map(|d| format!("deleted {} for good", d.name))
            .chain(pruning.kept.iter().map(|k| k.line()))
            .collect()
    }))
}

/// `errors edit KEY --action TEXT`: the TTL is kept.
pub fn edit_action(env: Env, key: &str, action: &str, ui: &ViewUi) -> crate::Result<Done> {
    let ctx = env.ctx;
    let item = error_memory::resolve(
        &Db::load_incremental(&ctx.root, DB_ERROR_MEMORY)?,
        torii::now_unix(),
        key,
    )?;
    error_memory::ensure_editable(&item, false)?;
    let op = error_memory::ops::EditError {
        root: &ctx.root,
        key: item.key.clone(),
        edit: error_memory::ops::Edit {
            action: Some(action.to_owned()),
            cause: None,
            keywords: None,
            touch: false,
        },
        embed: EmbedSettings {
            url: None,
            model: None,
            offline: ctx.offline,
        },
        force: env.args.force,
    };
    // through Agenvoy's daemon while it runs, as the command goes
    let backend = ctx.backend(env.args.force)?;
    let ran = run_one(env, &op, error_memory::ops::target(), ui, &backend)?;
    Ok(finish(ran, |r| {
        vec![format!(
            "rewrote {} ({}): expires {}; vector {}",
            r.id,
            r.key,
            r.expire_at
                .map_or("never".into(), |t| crate::timefmt::local(
                    crate::timefmt::from_nanos(t * 1_000_000_000)
                )),
            r.vector
        )]
    }))
}
