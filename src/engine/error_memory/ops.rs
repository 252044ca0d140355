//! `errors edit`, `errors prune` and `errors search --touch-hits` as
//! operations of the runner on the error memory (db2): planned on a replay
//! taken without the lock (what the user sees, confirms, and what a dry
//! run reports), planned again under the store lock on the log as it is
//! then, and applied keeping the records' pre-images for `undo` first.

use serde::Serialize;

use super::{ErrorItem, TTL_SECS};
use crate::daemon::Daemon;
use crate::engine::batch::{Needs, Operation, ReadStores, StoreView, Stores, Target};
use crate::engine::embedding::{self, EmbedSettings};
use crate::engine::undo::error_memory::{self as preimage, ERROR_MEMORY};
use crate::error::Result;
use crate::llm::embed::Embedder;
use crate::store::layout::DataRoot;
use crate::store::oplog::Intent;
use crate::store::torii::{self, Db, DB_ERROR_MEMORY};

/// The error memory (db2) as loaded under the runner's store lock, so
/// that what is appended is decided on the log as it is now, never on a
/// copy another writer has changed since (two edits, or an edit and a
/// prune, would undo each other).
fn load_locked(root: &DataRoot, force: bool) -> Result<Db> {
    let db = Db::load(&root.store_dir(), DB_ERROR_MEMORY)?;
    db.check_writable(force)?;
    Ok(db)
}

/// The target of an operation on the error memory.
pub fn target() -> Target {
    Target::shared(ERROR_MEMORY)
}

/// Needs of an operation on the error memory: the store lock (and so no
/// Agenvoy running: its ToriiDB rewrites db2 on exit), no session lock.
fn db2_needs() -> Needs {
    Needs {
        store_lock: true,
        ..Needs::default()
    }
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
        super::edited_value(
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
    let item = super::resolve(db, now, wanted)?;
    super::ensure_editable(&item, edit.touch)?;
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

/// `errors edit`: rewrite one record's fields, keeping its TTL unless
/// touched. Planned on a replay taken without the lock (what the user
/// confirms, what a dry run reports) and again under it (an editor may
/// have stayed open for minutes): the same field edits are applied to the
/// record as it is then.
pub struct EditError<'a> {
    pub root: &'a DataRoot,
    /// The record's key (resolved from what the user typed).
    pub key: String,
    pub edit: Edit,
    pub embed: EmbedSettings,
    pub force: bool,
}

/// An edit planned on a replay of db2 (kept for the apply when it was
/// made under the lock).
pub struct Planned {
    plan: EditPlan,
    db: Db,
}

impl Operation for EditError<'_> {
    type Plan = Planned;
    type Report = EditReport;

    fn needs(&self) -> Needs {
        db2_needs()
    }
    fn intent(&self) -> Intent {
        Intent::of("errors edit")
    }
    fn replans_under_locks(&self) -> bool {
        true
    }
    fn plan(&self, _: &Target, _: &dyn StoreView) -> Result<Planned> {
        let db = Db::load(&self.root.store_dir(), DB_ERROR_MEMORY)?;
        // the clock too: the record may have expired while $EDITOR was open
        let plan = plan_edit(
            &db,
            torii::now_unix(),
            &self.key,
            self.edit.clone(),
            &self.embed,
        )?;
        Ok(Planned { plan, db })
    }
    fn has_work(&self, _: &Planned) -> bool {
        true
    }
    fn preview(&self, _: &Target, p: &Planned, dry_run: bool) -> EditReport {
        EditReport {
            dry_run,
            ..p.plan.report.clone()
        }
    }
    fn apply(&self, _: &Target, p: Planned, stores: &mut Stores<'_>) -> Result<EditReport> {
        let Planned { plan, mut db } = p;
        db.check_writable(self.force)?;
        let now = torii::now_unix();
        let item = &plan.item;
        let value = plan.edit.value(item);
        let at = plan.edit.expire_at(item, now);
        let old = db.entry(&item.key)?.expect("resolved from this db");
        let unchanged = value == old.value;
        let vector = if unchanged {
            old.vector.clone()
        } else {
            let dim = db.vector_dim()?.unwrap_or(embedding::DEFAULT_DIM);
            embedding::text_vector(&self.embed, dim, &value)?
        };
        let state = vector_state(
            unchanged,
            old.vector.is_some(),
            !unchanged && vector.is_some(),
        );
        let after = [(item.key.clone(), Some(value.clone()))];
        preimage::before(stores.journal, stores.root, &db, &after)?;
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
    fn changed(&self, _: &Target, r: &EditReport) -> Vec<String> {
        vec![r.key.clone()]
    }
    fn apply_daemon(
        &self,
        _: &Target,
        p: Planned,
        daemon: &Daemon,
        _: &ReadStores<'_>,
    ) -> Result<EditReport> {
        edit_via_daemon(daemon, p.plan)
    }
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
        &super::prunable(db, now, which.expired, which.not_resolved)?,
        true,
    ))
}

/// `errors prune`: remove expired and unresolved records. Only what was
/// planned (and confirmed) and is still prunable under the lock goes: a
/// record edited or touched meanwhile stays. `now` is the plan's clock, so
/// a record expiring since is not taken unasked.
pub struct PruneErrors<'a> {
    pub root: &'a DataRoot,
    pub which: Prune,
    pub now: i64,
    pub force: bool,
    /// What the user was shown and confirmed (the plan before the lock).
    pub confirmed: std::sync::Mutex<Option<std::collections::HashSet<String>>>,
}

impl Operation for PruneErrors<'_> {
    type Plan = (Vec<Pruned>, Option<Db>);
    type Report = Vec<Pruned>;

    fn needs(&self) -> Needs {
        db2_needs()
    }
    fn intent(&self) -> Intent {
        Intent::of("errors prune")
    }
    fn replans_under_locks(&self) -> bool {
        true
    }
    fn plan(&self, _: &Target, _: &dyn StoreView) -> Result<Self::Plan> {
        let db = Db::load(&self.root.store_dir(), DB_ERROR_MEMORY)?;
        let mut planned = plan_prune(&db, self.now, self.which)?;
        let mut confirmed = self.confirmed.lock().unwrap_or_else(|e| e.into_inner());
        match confirmed.as_ref() {
            // under the lock: only what the first plan showed
            Some(keys) => planned.retain(|p| keys.contains(&p.key)),
            None => *confirmed = Some(planned.iter().map(|p| p.key.clone()).collect()),
        }
        Ok((planned, Some(db)))
    }
    fn has_work(&self, plan: &Self::Plan) -> bool {
        !plan.0.is_empty()
    }
    fn summary(&self, plan: &Self::Plan) -> Option<String> {
        Some(format!("{} error record(s)", plan.0.len()))
    }
    fn preview(&self, _: &Target, plan: &Self::Plan, _: bool) -> Vec<Pruned> {
        plan.0.clone()
    }
    fn changed(&self, _: &Target, r: &Vec<Pruned>) -> Vec<String> {
        r.iter().map(|p| p.key.clone()).collect()
    }
    fn apply(&self, _: &Target, plan: Self::Plan, stores: &mut Stores<'_>) -> Result<Vec<Pruned>> {
        let (planned, db) = plan;
        let mut db = match db {
            Some(db) => db,
            None => load_locked(self.root, self.force)?,
        };
        db.check_writable(self.force)?;
        let keys: Vec<String> = planned.iter().map(|p| p.key.clone()).collect();
        let after: Vec<(String, Option<String>)> = keys.iter().map(|k| (k.clone(), None)).collect();
        preimage::before(stores.journal, stores.root, &db, &after)?;
        db.delete(&keys, self.now)?;
        Ok(planned
            .into_iter()
            .map(|p| Pruned {
                dry_run: false,
                ..p
            })
            .collect())
    }
}

/// `errors search --touch-hits`: refresh the 90-day TTL of the records a
/// search found, as Agenvoy's lookup does: only records that are still
/// there and live get it; an expired one is gone, not revived.
pub struct TouchErrors<'a> {
    pub root: &'a DataRoot,
    pub keys: Vec<String>,
    pub now: i64,
    pub force: bool,
}

impl Operation for TouchErrors<'_> {
    type Plan = Vec<String>;
    type Report = Vec<String>;

    fn needs(&self) -> Needs {
        db2_needs()
    }
    fn intent(&self) -> Intent {
        Intent::of("errors search")
    }
    fn plan(&self, _: &Target, _: &dyn StoreView) -> Result<Vec<String>> {
        Ok(self.keys.clone())
    }
    fn has_work(&self, keys: &Vec<String>) -> bool {
        !keys.is_empty()
    }
    fn preview(&self, _: &Target, _: &Vec<String>, _: bool) -> Vec<String> {
        Vec::new()
    }
    fn changed(&self, _: &Target, keys: &Vec<String>) -> Vec<String> {
        keys.clone()
    }
    fn apply(&self, _: &Target, keys: Vec<String>, stores: &mut Stores<'_>) -> Result<Vec<String>> {
        let mut db = load_locked(self.root, self.force)?;
        let live: Vec<String> = keys
            .into_iter()
            .filter(|k| db.is_live(k, self.now))
            .collect();
        let after: Vec<(String, Option<String>)> = live
            .iter()
            .map(|k| Ok((k.clone(), db.entry(k)?.map(|e| e.value.clone()))))
            .collect::<Result<_>>()?;
        preimage::before(stores.journal, stores.root, &db, &after)?;
        db.expire(&live, self.now + TTL_SECS, self.now)?;
        Ok(live)
    }
}
