//! `undo` and `trash restore` as operations of the batch runner: planned
//! without locks (what a dry run shows), planned again under them (the log
//! or the Trash may have changed meanwhile), applied with the store lock,
//! each restored session's lock and, for a learned limit, the limits lock.

use std::path::PathBuf;

use crate::engine::batch::{Needs, Operation, StoreView, Stores, Target};
use crate::error::{Error, Result};
use crate::store::layout::DataRoot;
use crate::store::oplog::{self, Intent};

use super::pick::{self, Request};
use super::{entry, errors, limits, Planned, RestoreReport, ToTrash};

/// `undo [OP_ID]`: reverse one operation. Its one target is the operation
/// undone (`Target::id` is its id); it locks the sessions it restores.
pub struct Undo<'a> {
    pub root: &'a DataRoot,
    /// What was picked before the locks; the plan under them must pick the
    /// same (else another run changed the log: retry).
    pub request: Request,
    pub force: bool,
    pub to_trash: ToTrash,
}

impl Undo<'_> {
    /// The one target: the operation to undo.
    pub fn target(&self) -> Target {
        Target {
            id: self.request.target.id.clone(),
            dir: None,
        }
    }

    fn touches(&self, kind: &str) -> bool {
        self.request.changes.iter().any(|c| c.change == kind)
    }
}

/// Kinds of change whose `session` is not a session (a record key of the
/// error memory, the limits cache): they take no session lock.
const NOT_SESSIONS: [&str; 2] = [errors::ERRORS, limits::LIMITS];

impl Operation for Undo<'_> {
    type Plan = Vec<Planned>;
    type Report = Vec<RestoreReport>;

    fn needs(&self) -> Needs {
        Needs {
            stores_in_plan: false,
            store_lock: true,
            limits_lock: self.touches(limits::LIMITS),
        }
    }

    fn intent(&self) -> Intent {
        self.request.intent()
    }

    fn locks(&self, _: &Target) -> Vec<String> {
        let mut ids: Vec<String> = self
            .request
            .changes
            .iter()
            .filter(|c| !NOT_SESSIONS.contains(&c.change.as_str()))
            .map(|c| c.session.clone())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    fn replans_under_locks(&self) -> bool {
        true
    }

    fn watched(&self, _: &Target) -> Vec<PathBuf> {
        Vec::new()
    }

    fn plan(&self, _: &Target, _: &dyn StoreView) -> Result<Vec<Planned>> {
        // checked again: an operation that ran since may conflict, a
        // bundle may have changed
        let now = pick::request(
            self.root,
            &oplog::read(self.root)?,
            Some(&self.request.target.id),
            self.force,
        )?;
        if now.resume != self.request.resume {
            return Err(Error::busy(format!(
                "the operation log changed while undo of {} was being planned",
                self.request.target.id
            ))
            .with_hint("run `sessionctl undo` again"));
        }
        super::plan_all(self.root, &now.changes, now.resume.is_some(), self.force)
    }

    fn has_work(&self, plan: &Vec<Planned>) -> bool {
        !plan.is_empty()
    }

    fn preview(&self, _: &Target, plan: &Vec<Planned>, dry_run: bool) -> Vec<RestoreReport> {
        plan.iter()
            .map(|p| RestoreReport {
                dry_run,
                ..p.report().clone()
            })
            .collect()
    }

    fn apply(
        &self,
        _: &Target,
        plan: Vec<Planned>,
        stores: &mut Stores<'_>,
    ) -> Result<Vec<RestoreReport>> {
        super::apply_all(stores, plan, self.force, self.to_trash)
    }
}

/// `trash restore ENTRY [--as ID]`: put a trash entry back as a session.
/// Its one target is the session it becomes.
pub struct RestoreEntry<'a> {
    pub root: &'a DataRoot,
    /// The entry, inside the Trash.
    pub entry: PathBuf,
    pub as_id: Option<String>,
    /// An interrupted restore of this entry to complete: its operation.
    pub resume: Option<String>,
    pub force: bool,
    pub to_trash: ToTrash,
}

impl RestoreEntry<'_> {
    /// The one target: the session the entry is restored as.
    pub fn target(&self) -> Result<Target> {
        let planned = super::plan(
            self.root,
            &self.entry,
            self.as_id.as_deref(),
            self.resume.is_some(),
        )?;
        Ok(Target {
            id: planned.id().to_owned(),
            dir: None,
        })
    }
}

impl Operation for RestoreEntry<'_> {
    type Plan = Planned;
    type Report = RestoreReport;

    fn needs(&self) -> Needs {
        Needs {
            stores_in_plan: false,
            store_lock: true,
            limits_lock: false,
        }
    }

    fn intent(&self) -> Intent {
        Intent {
            command: "trash restore".into(),
            resume: self.resume.clone(),
            ..Intent::default()
        }
    }

    fn replans_under_locks(&self) -> bool {
        true
    }

    fn watched(&self, _: &Target) -> Vec<PathBuf> {
        Vec::new()
    }

    fn plan(&self, t: &Target, _: &dyn StoreView) -> Result<Planned> {
        // a rerun completes the interrupted restore under the id it chose
        let as_id = self.as_id.as_deref().or(Some(t.id.as_str()));
        super::plan(self.root, &self.entry, as_id, self.resume.is_some())
    }

    fn has_work(&self, _: &Planned) -> bool {
        true
    }

    fn preview(&self, _: &Target, plan: &Planned, dry_run: bool) -> RestoreReport {
        RestoreReport {
            dry_run,
            ..plan.report().clone()
        }
    }

    fn apply(&self, t: &Target, plan: Planned, stores: &mut Stores<'_>) -> Result<RestoreReport> {
        // what the restore consumes, so its undo puts the entry back
        entry::keep(stores.journal, stores.root, &self.entry, &t.id)?;
        let report = super::apply(stores, plan, self.force, self.to_trash)?;
        stores.journal.record(&t.id, "restore", None)?;
        Ok(report)
    }
}
