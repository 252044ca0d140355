//! `undo` and `trash restore` as operations of the batch runner: planned
//! without locks (what a dry run shows), planned again under them (the log
//! or the Trash may have changed meanwhile), applied with the store lock,
//! each restored session's lock and, for a learned limit, the limits lock.

use std::path::PathBuf;

use crate::engine::batch::{Needs, Operation, StoreView, Stores, Target};
use crate::error::{Error, Result};
use crate::store::layout::{DataRoot, Last};
use crate::store::oplog::{self, Intent};

use super::pick::{self, Request};
use super::{entry, error_memory, limits, Planned, RestoreReport, ToTrash};

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
const NOT_SESSIONS: [&str; 2] = [error_memory::ERRORS, limits::LIMITS];

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
        // an interrupted undo with nothing left to put back still has its
        // record to close
        !plan.is_empty() || self.request.resume.is_some()
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
    /// That restore had begun taking the entry out (it recorded the
    /// copy of the entry it consumes): files may be back already.
    pub begun: bool,
    pub force: bool,
    pub to_trash: ToTrash,
}

impl<'a> RestoreEntry<'a> {
    /// The restore of the trash entry `name` (as `trash list` shows it) as
    /// session `as_id` (else its own), or the completion of one a kill
    /// interrupted: under the id that one chose, the entry perhaps gone.
    pub fn new(
        root: &'a DataRoot,
        name: &str,
        as_id: Option<String>,
        force: bool,
        to_trash: ToTrash,
    ) -> Result<RestoreEntry<'a>> {
        if name.is_empty() || name.contains('/') || name == "." || name == ".." {
            return Err(Error::usage(format!("'{name}' is not a trash entry name"))
                .with_hint("`sessionctl trash list` shows the entries"));
        }
        // a symlinked .Trash is refused before anything is read through it
        crate::store::trash::dir(root)?;
        let resume = Self::interrupted(root, name)?;
        let entry = root.trash_dir().join(name);
        let begun = matches!(resume, Some((_, Some(_))));
        let missing = std::fs::symlink_metadata(root.resolve(&entry, Last::Entry)?).is_err();
        if missing && !begun {
            return Err(Error::no_input(format!("no trash entry '{name}'"))
                .with_hint("`sessionctl trash list` shows the entries"));
        }
        Ok(RestoreEntry {
            root,
            entry,
            as_id: match &resume {
                Some((_, Some(id))) => Some(id.clone()),
                _ => as_id,
            },
            begun,
            resume: resume.map(|(op, _)| op),
            force,
            to_trash,
        })
    }

    /// The one target: the session the entry is restored as.
    pub fn target(&self) -> Result<Target> {
        if let (true, Some(id)) = (self.consumed(), &self.as_id) {
            return Ok(Target {
                id: id.clone(),
                dir: None,
            });
        }
        let planned = super::plan(self.root, &self.entry, self.as_id.as_deref(), self.begun)?;
        Ok(Target {
            id: planned.id().to_owned(),
            dir: None,
        })
    }

    /// A `trash restore` of entry `name` a kill interrupted (not done, not
    /// running, not undone): its operation, and the session id it restored
    /// as once it had recorded that (a run killed before it had, names the
    /// entry on its command line).
    pub fn interrupted(root: &DataRoot, name: &str) -> Result<Option<(String, Option<String>)>> {
        let log = oplog::read(root)?;
        let suffix = format!("/{name}");
        for o in log.ops.iter().rev() {
            if o.command != "trash restore" || o.done || o.undone_by.is_some() {
                continue;
            }
            if oplog::is_running(root, &o.id)? {
                continue;
            }
            let consumed = o.sessions.iter().find(|c| {
                c.change == entry::ENTRY && c.kept.as_deref().is_some_and(|k| k.ends_with(&suffix))
            });
            match consumed {
                Some(c) => return Ok(Some((o.id.clone(), Some(c.session.clone())))),
                None if o.sessions.is_empty() && o.argv.iter().any(|a| a == name) => {
                    return Ok(Some((o.id.clone(), None)))
                }
                None => {}
            }
        }
        Ok(None)
    }

    /// An interrupted restore of the entry got as far as taking it out of
    /// the Trash: every tier is back, only its record is left to close.
    fn consumed(&self) -> bool {
        self.begun && std::fs::symlink_metadata(&self.entry).is_err()
    }
}

impl Operation for RestoreEntry<'_> {
    /// `None`: the interrupted restore this one completes had put
    /// everything back already.
    type Plan = Option<Planned>;
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

    fn plan(&self, t: &Target, _: &dyn StoreView) -> Result<Option<Planned>> {
        if self.consumed() {
            return Ok(None);
        }
        // a rerun completes the interrupted restore under the id it chose
        let as_id = self.as_id.as_deref().or(Some(t.id.as_str()));
        super::plan(self.root, &self.entry, as_id, self.begun).map(Some)
    }

    fn has_work(&self, _: &Option<Planned>) -> bool {
        true
    }

    fn preview(&self, t: &Target, plan: &Option<Planned>, dry_run: bool) -> RestoreReport {
        match plan {
            Some(p) => RestoreReport {
                dry_run,
                ..p.report().clone()
            },
            None => RestoreReport {
                session: t.id.clone(),
                from: self.entry.clone(),
                kind: "restore".into(),
                archive_rows: 0,
                torii_keys: 0,
                files: Vec::new(),
                dry_run,
            },
        }
    }

    fn apply(
        &self,
        t: &Target,
        plan: Option<Planned>,
        stores: &mut Stores<'_>,
    ) -> Result<RestoreReport> {
        let report = match plan {
            Some(plan) => {
                // what the restore consumes, so its undo puts the entry back
                entry::keep(stores.journal, stores.root, &self.entry, &t.id)?;
                super::apply(stores, plan, self.force, self.to_trash)?
            }
            None => self.preview(t, &None, false),
        };
        stores.journal.record(&t.id, "restore", None)?;
        Ok(report)
    }
}
