//! `trash prune` as an operation: what reset and remove kept in the Trash,
//! and the pre-images operations kept under `.sessionctl/ops/`, deleted for
//! good once older than a cut-off. Recorded as irreversible (`undo`
//! refuses it); run with the store lock, and never while Agenvoy runs (it
//! moves its own things into the same Trash).
//!
//! Age is not the only rule: what an unfinished operation still needs
//! (its own pre-images and Trash entries, what an unfinished undo restores
//! from, the entry an unfinished trash restore consumes) stays, or its
//! rerun could not complete and the data would be lost; and the pre-images
//! of an operation whose Trash entry stays (`--keep-last`) stay with it,
//! or the undo of that entry's operation would refuse. Each is reported as
//! kept, with the reason, in a dry run as in the real one.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::engine::batch::{Needs, Operation, StoreView, Stores, Target};
use crate::engine::compact::preimage::Unfinished;
use crate::error::Result;
use crate::store::layout::DataRoot;
use crate::store::oplog::{self, Intent, Log, Op};
use crate::store::trash::{self, EntryInfo};

pub struct PruneTrash<'a> {
    pub root: &'a DataRoot,
    /// Entries older than this go.
    pub cutoff: DateTime<Utc>,
    /// The newest this many entries of each session stay.
    pub keep_last: usize,
}

/// The one target of `trash prune`.
pub const TRASH: &str = "trash";

/// What a prune deletes, and what it keeps although it is old enough.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Pruning {
    pub doomed: Vec<EntryInfo>,
    pub kept: Vec<Kept>,
}

/// Something old enough to go that stays, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Kept {
    pub entry: EntryInfo,
    pub why: String,
}

impl Kept {
    /// One line for a report: `kept NAME: WHY`.
    pub fn line(&self) -> String {
        format!("kept {}: {}", self.entry.name, self.why)
    }
}

/// What a prune deletes as one piece: a Trash entry (with its `.stores`
/// folder) or one operation's folder of pre-images.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Unit {
    Entry(String),
    Ops(String),
}

impl Unit {
    /// The unit holding `kept`, a path relative to the root as the log
    /// records it.
    fn of_kept(kept: &str) -> Option<Unit> {
        let mut parts = kept.split('/');
        match (parts.next(), parts.next(), parts.next()) {
            (Some("sessions"), Some(".Trash"), Some(name)) => {
                // a moved symlink's stores sit beside its entry
                let name = name.strip_suffix(".stores").unwrap_or(name);
                Some(Unit::Entry(name.to_owned()))
            }
            (Some(".sessionctl"), Some("ops"), Some(op)) => Some(Unit::Ops(op.to_owned())),
            _ => None,
        }
    }

    fn of_info(e: &EntryInfo) -> Unit {
        match (e.kind.as_deref(), &e.op) {
            (Some(trash::PREIMAGES), Some(op)) => Unit::Ops(op.clone()),
            _ => Unit::Entry(e.name.clone()),
        }
    }
}

impl PruneTrash<'_> {
    pub fn target(&self) -> Target {
        Target::shared(TRASH)
    }

    /// What would be deleted now, and what stays although old enough.
    fn pruning(&self) -> Result<Pruning> {
        let entries = trash::list(self.root)?;
        let log = oplog::read(self.root)?;
        let unfinished = crate::engine::compact::preimage::unfinished(self.root)?;
        let needed = needed(&log, &entries, &unfinished);
        let mut out = Pruning::default();
        let mut staying: BTreeMap<String, String> = BTreeMap::new();
        let old = trash::to_prune(&entries, self.cutoff, self.keep_last);
        for e in &entries {
            let is_old = old.iter().any(|o| o.name == e.name);
            match needed.get(&Unit::of_info(e)) {
                Some(why) if is_old => out.kept.push(Kept {
                    entry: e.clone(),
                    why: why.clone(),
                }),
                _ if is_old => {
                    out.doomed.push(e.clone());
                    continue;
                }
                _ => {}
            }
            if let Some(op) = &e.op {
                staying.entry(op.clone()).or_insert_with(|| e.name.clone());
            }
        }
        // the pre-images operations kept age out with the Trash
        for p in trash::preimages(self.root)?
            .into_iter()
            .filter(|p| p.time < self.cutoff)
        {
            let op = p.op.clone().unwrap_or_default();
            let why = needed.get(&Unit::of_info(&p)).cloned().or_else(|| {
                staying.get(&op).map(|name| {
                    format!("operation {op} kept them with the Trash entry {name}, which stays")
                })
            });
            match why {
                Some(why) => out.kept.push(Kept { entry: p, why }),
                None => out.doomed.push(p),
            }
        }
        Ok(out)
    }
}

/// What unfinished operations (`done:false`) still need, and why: their
/// own pre-images and Trash entries (a rerun or `undo` completes them
/// from there), what the operation an unfinished undo reverses kept, and
/// the Trash entry an unfinished trash restore consumes; and the
/// pre-images interrupted compacts left for the next compact to complete,
/// whatever their operation's record says.
fn needed(log: &Log, entries: &[EntryInfo], unfinished: &[Unfinished]) -> BTreeMap<Unit, String> {
    let mut out = BTreeMap::new();
    let mut need = |unit: Unit, why: &dyn Fn() -> String| {
        out.entry(unit).or_insert_with(why);
    };
    for u in unfinished {
        let why = || {
            format!(
                "the compact of {} it began is unfinished (`sessionctl compact {}` completes it)",
                u.session, u.session
            )
        };
        need(Unit::Ops(u.op.clone()), &why);
    }
    for o in log.ops.iter().filter(|o| !o.done) {
        let own = || format!("operation {} ({}) did not finish", o.id, o.command);
        need(Unit::Ops(o.id.clone()), &own);
        for unit in o.sessions.iter().filter_map(|c| c.kept.as_deref()) {
            if let Some(unit) = Unit::of_kept(unit) {
                need(unit, &own);
            }
        }
        for e in entries.iter().filter(|e| e.op.as_deref() == Some(&o.id)) {
            need(Unit::Entry(e.name.clone()), &own);
        }
        for e in unsealed_of(o, entries) {
            need(Unit::Entry(e.name.clone()), &own);
        }
        if let Some(target) = o.undoes.as_deref().and_then(|t| log.get(t)) {
            let why = || {
                format!(
                    "the unfinished undo {} restores {} ({}) from it",
                    o.id, target.id, target.command
                )
            };
            for kept in target.sessions.iter().filter_map(|c| c.kept.as_deref()) {
                if let Some(unit) = Unit::of_kept(kept) {
                    need(unit, &why);
                }
            }
        }
        if o.command == "trash restore" {
            // named on its command line; a copy it recorded names it too
            let why = || format!("the unfinished trash restore {} consumes it", o.id);
            for e in entries {
                let named = o.argv.contains(&e.name);
                let copied = o.sessions.iter().any(|c| {
                    c.change == crate::engine::undo::entry::ENTRY
                        && c.kept
                            .as_deref()
                            .is_some_and(|k| k.ends_with(&format!("/{}", e.name)))
                });
                if named || copied {
                    need(Unit::Entry(e.name.clone()), &why);
                }
            }
        }
    }
    out
}

/// The Trash entries an unfinished reset or remove may have begun and not
/// sealed: those with no manifest (so no operation named in one), named
/// once it had begun. A kill before the manifest leaves the session's
/// files, archive rows and ToriiDB entries in such an entry alone, and
/// the log does not name it yet (a change is recorded once sealed). An
/// entry of the same age Agenvoy made is taken too: kept for nothing is
/// better than a session deleted for good.
pub fn unsealed_of<'e>(o: &Op, entries: &'e [EntryInfo]) -> Vec<&'e EntryInfo> {
    if o.done || !matches!(o.command.as_str(), "reset" | "remove") {
        return Vec::new();
    }
    // the id starts with the UTC time it began, to the millisecond
    let Some(began) =
        o.id.get(..19)
            .and_then(|t| chrono::NaiveDateTime::parse_from_str(t, "%Y%m%dT%H%M%S%.3f").ok())
            .map(|t| t.and_utc())
    else {
        return Vec::new();
    };
    entries
        .iter()
        .filter(|e| !e.restorable && e.kind.is_none() && e.time >= began)
        .collect()
}

impl Operation for PruneTrash<'_> {
    type Plan = Pruning;
    type Report = Pruning;

    fn needs(&self) -> Needs {
        Needs {
            store_lock: true,
            ..Needs::default()
        }
    }

    fn intent(&self) -> Intent {
        Intent {
            irreversible: true,
            ..Intent::of("trash prune")
        }
    }

    fn replans_under_locks(&self) -> bool {
        true
    }

    fn plan(&self, _: &Target, _: &dyn StoreView) -> Result<Pruning> {
        self.pruning()
    }

    fn has_work(&self, plan: &Pruning) -> bool {
        !plan.doomed.is_empty()
    }

    fn summary(&self, plan: &Pruning) -> Option<String> {
        let total: u64 = plan.doomed.iter().map(|e| e.bytes).sum();
        Some(format!(
            "{} trash entr{} ({total} bytes)",
            plan.doomed.len(),
            if plan.doomed.len() == 1 { "y" } else { "ies" },
        ))
    }

    fn preview(&self, _: &Target, plan: &Pruning, _: bool) -> Pruning {
        plan.clone()
    }

    fn apply(&self, _: &Target, plan: Pruning, stores: &mut Stores<'_>) -> Result<Pruning> {
        for e in &plan.doomed {
            trash::delete(stores.root, &e.path)?;
            // an entry Agenvoy made, or an operation's pre-images: its name
            let session = e.session.clone().unwrap_or_else(|| e.name.clone());
            stores.journal.record(&session, "prune", None)?;
        }
        Ok(plan)
    }
}
