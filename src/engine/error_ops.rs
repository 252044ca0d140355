//! `errors edit` and `errors prune` as operations on the error memory
//! (db2): `plan_*` reads a replay taken without the lock (what the user
//! sees, confirms, and what a dry run reports); `apply_*` takes the store
//! lock, loads db2 again and decides on the log as it is now, keeping the
//! records' pre-images for `undo` first.

use serde::Serialize;

use crate::daemon::Daemon;
use crate::engine::embedding::{self, EmbedSettings};
use crate::engine::errors::{self, ErrorItem, TTL_SECS};
use crate::error::Result;
use crate::llm::embed::Embedder;
use crate::store::layout::DataRoot;
use crate::store::torii::{self, Db, DB_ERROR_MEMORY};
use crate::store::{lock, runtime};

/// Before a write to the error memory: refuse while Agenvoy runs, take the
/// store lock, and only then load db2, so that what we append is decided
/// on the log as it is now, never on a copy another writer has changed
/// since (two edits, or an edit and a prune, would undo each other).
pub fn begin_write(root: &DataRoot, force: bool) -> Result<(lock::Lock, Db)> {
    runtime::ensure_not_running(root, force)?;
    let l = lock::store(root)?;
    let db = Db::load(&root.store_dir(), DB_ERROR_MEMORY)?;
    db.check_writable(force)?;
    Ok((l, db))
}

/// The fields an edit sets; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct Edit {
    pub action: Option<String>,
    pub cause: Option<String>,
    pub keywords: Option<Vec<String>>,
    /// Refresh the 90-day TTL.
    pub touch: bool,
}

impl Edit {
    fn value(&self, item: &ErrorItem) -> String {
        errors::edited_value(
            item,
            self.action.as_deref(),
            self.cause.as_deref(),
            self.keywords.as_deref(),
        )
    }

    fn expire_at(&self, item: &ErrorItem, now: i64) -> Option<i64> {
        if self.touch {
            Some(now + TTL_SECS)
        } else {
            item.expire_at
        }
    }
}

/// One record's edit: planned (a dry run) or done.
#[derive(Debug, Clone, Serialize)]
pub struct EditReport {
    pub key: String,
    pub id: String,
    /// Whether the stored record changes (in a dry run: would change).
    pub changed: bool,
    pub action: String,
    pub expire_at: Option<i64>,
    /// `kept`, `re-embedded`, `dropped`, `none`, or `daemon`.
    pub vector: &'static str,
    pub dry_run: bool,
    /// `daemon` when Agenvoy's daemon rewrote the action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'static str>,
}

/// The record `wanted` names, and what the edit makes of it.
pub struct EditPlan {
    pub item: ErrorItem,
    pub edit: Edit,
    pub report: EditReport,
}

/// Resolve `wanted` in `db` (read-only) and plan the edit, the vector
/// included: what apply will do with it, without asking the embedder.
pub fn plan_edit(
    db: &Db,
    now: i64,
    wanted: &str,
    edit: Edit,
    embed: &EmbedSettings,
) -> Result<EditPlan> {
    let item = errors::resolve(db, now, wanted)?;
    errors::ensure_editable(&item, edit.touch)?;
    let old = db.entry(&item.key)?.expect("resolved from this db");
    let unchanged = edit.value(&item) == old.value;
    let report = EditReport {
        key: item.key.clone(),
        id: item.id.clone(),
        changed: true,
        action: edit.action.clone().unwrap_or_else(|| item.action.clone()),
        expire_at: edit.expire_at(&item, now),
        vector: vector_state(unchanged, old.vector.is_some(), will_embed(embed)),
        dry_run: true,
        via: None,
    };
    Ok(EditPlan { item, edit, report })
}

/// An unchanged value keeps its vector; a changed one gets a fresh vector
/// when an embedder is configured, else none (the old one no longer says
/// what the record says).
fn vector_state(unchanged: bool, had_vector: bool, fresh: bool) -> &'static str {
    match (unchanged, had_vector, fresh) {
        (true, true, _) => "kept",
        (true, false, _) => "none",
        (false, _, true) => "re-embedded",
        (false, true, false) => "dropped",
        (false, false, false) => "none",
    }
}

fn will_embed(s: &EmbedSettings) -> bool {
    !s.offline && Embedder::configured(s.url.as_deref(), s.model.as_deref()).is_some()
}

/// Carry the edit out on the files: the record is read again under the
/// lock (an editor may have stayed open for minutes) and the same field
/// edits are applied to it.
pub fn apply_edit(
    root: &DataRoot,
    plan: EditPlan,
    embed: &EmbedSettings,
    force: bool,
) -> Result<EditReport> {
    let (_lock, mut db) = begin_write(root, force)?;
    // the clock too: the record may have expired while $EDITOR was open
    let now = torii::now_unix();
    let item = errors::resolve(&db, now, &plan.item.key)?;
    errors::ensure_editable(&item, plan.edit.touch)?;
    let value = plan.edit.value(&item);
    let at = plan.edit.expire_at(&item, now);
    let old = db.entry(&item.key)?.expect("resolved from this db");
    let unchanged = value == old.value;
    let vector = if unchanged {
        old.vector.clone()
    } else {
        let dim = db.vector_dim()?.unwrap_or(embedding::DEFAULT_DIM);
        embedding::text_vector(embed, dim, &value)?
    };
    let state = vector_state(
        unchanged,
        old.vector.is_some(),
        !unchanged && vector.is_some(),
    );
    crate::engine::undo::errors::before(root, &db, std::slice::from_ref(&item.key))?;
    db.set(&item.key, &value, at, vector, now)?;
    Ok(EditReport {
        key: item.key.clone(),
        id: item.id.clone(),
        action: plan
            .edit
            .action
            .clone()
            .unwrap_or_else(|| item.action.clone()),
        expire_at: at,
        vector: state,
        dry_run: false,
        ..plan.report
    })
}

/// `PATCH /v1/torii/error`: the daemon rewrites the action, keeps the TTL
/// and decides about the vector.
pub fn edit_via_daemon(daemon: &Daemon, plan: EditPlan) -> Result<EditReport> {
    let action = plan.edit.action.as_deref().unwrap_or(&plan.item.action);
    daemon.patch_error(&plan.item.id, action)?;
    Ok(EditReport {
        expire_at: plan.item.expire_at,
        vector: "daemon",
        dry_run: false,
        via: Some("daemon"),
        ..plan.report
    })
}

/// Which records `errors prune` takes.
#[derive(Debug, Clone, Copy)]
pub struct Prune {
    pub expired: bool,
    pub not_resolved: bool,
}

impl Prune {
    /// Neither flag: both kinds.
    pub fn new(expired: bool, not_resolved: bool) -> Prune {
        let both = !expired && !not_resolved;
        Prune {
            expired: expired || both,
            not_resolved: not_resolved || both,
        }
    }
}

/// One record `errors prune` removed (in a dry run: would remove).
#[derive(Debug, Clone, Serialize)]
pub struct Pruned {
    pub key: String,
    pub id: String,
    pub tool_name: String,
    /// `expired` or `not-resolved`.
    pub reason: &'static str,
    pub dry_run: bool,
}

fn pruned(items: &[ErrorItem], dry_run: bool) -> Vec<Pruned> {
    items
        .iter()
        .map(|i| Pruned {
            key: i.key.clone(),
            id: i.id.clone(),
            tool_name: i.tool_name.clone(),
            reason: if i.expired { "expired" } else { "not-resolved" },
            dry_run,
        })
        .collect()
}

/// The records prune would remove now (read-only).
pub fn plan_prune(db: &Db, now: i64, which: Prune) -> Result<Vec<Pruned>> {
    Ok(pruned(
        &errors::prunable(db, now, which.expired, which.not_resolved)?,
        true,
    ))
}

/// Remove, under the lock, what was planned (and confirmed) and is still
/// prunable now: a record edited or touched meanwhile stays. `now` is the
/// plan's clock, so a record expiring since is not taken unasked.
pub fn apply_prune(
    root: &DataRoot,
    plan: &[Pruned],
    which: Prune,
    now: i64,
    force: bool,
) -> Result<Vec<Pruned>> {
    let (_lock, mut db) = begin_write(root, force)?;
    let confirmed: std::collections::HashSet<&str> = plan.iter().map(|p| p.key.as_str()).collect();
    let doomed: Vec<ErrorItem> = errors::prunable(&db, now, which.expired, which.not_resolved)?
        .into_iter()
        .filter(|i| confirmed.contains(i.key.as_str()))
        .collect();
    let keys: Vec<String> = doomed.iter().map(|i| i.key.clone()).collect();
    crate::engine::undo::errors::before(root, &db, &keys)?;
    db.delete(&keys, now)?;
    Ok(pruned(&doomed, false))
}
