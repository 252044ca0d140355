//! The one runner every write goes through (reset, remove, compact,
//! summarize, undo, trash restore/prune, import, errors edit/prune/touch,
//! limits learn/forget/refresh, check --repair): resolve targets → plan
//! each target in parallel, without locks → confirm → refuse while Agenvoy
//! runs → take the locks → re-plan a target whose files changed since (or
//! always, for an operation that asks) → begin the operation in the log →
//! apply target by target (in parallel for an operation that opts in) →
//! end the operation in the log → collect reports.
//!
//! A target is usually a session; operations on shared state (the error
//! memory, the Trash, the limits cache, the whole root) have one target
//! that names it and locks what it needs instead of a session.
//!
//! A target that fails (a corrupt file, its lock held, an I/O error) is
//! reported with its error and the batch goes on; the exit code is decided
//! at the end from the worst failure. A dry run is exactly the plan. The
//! operation log is written only through the `Journal` this runner creates
//! and hands to `apply` in `Stores`; a command never writes it, nor takes a
//! lock (tests/it/layers.rs holds that).

use std::path::PathBuf;
use std::time::SystemTime;

use rayon::prelude::*;
use serde::Serialize;

use crate::daemon::Daemon;
use crate::error::{exit, Error, Result};
use crate::store::layout::{DataRoot, SessionDir};
use crate::store::oplog::{Intent, Journal};
use crate::store::torii::Db;
use crate::store::{lock, runtime, torii};

mod stores;
pub use stores::Stores;
use stores::{Replayed, Snapshot};

/// One session a command was asked to work on, or one piece of shared
/// state (the error memory, the Trash, the limits cache, the whole root).
#[derive(Debug, Clone)]
pub struct Target {
    pub id: String,
    /// `None` when the folder is gone (only `remove` accepts that: an
    /// interrupted earlier remove left rows or keys behind).
    pub dir: Option<SessionDir>,
}

impl Target {
    /// The target of an operation on shared state. Its id starts with a
    /// dot, which no session id does, so it never takes a session's lock.
    pub fn shared(name: &str) -> Target {
        Target {
            id: format!(".{name}"),
            dir: None,
        }
    }

    pub fn is_shared(&self) -> bool {
        self.id.starts_with('.')
    }
}

/// What the shared stores hold for one session, as planning needs it. The
/// snapshot taken before the locks and the stores loaded under them both
/// answer, so a plan made either way reads the same.
pub trait StoreView {
    /// Live db1 keys of the session, sorted.
    fn session_keys(&self, session: &str) -> Vec<String>;
    /// How many `session_keys` would return, without copying them.
    fn session_key_count(&self, session: &str) -> usize {
        self.session_keys(session).len()
    }
    /// Archived messages of the session.
    fn archive_rows(&self, session: &str) -> Result<u64>;
}

/// Which shared stores an operation reads to plan, and writes to apply.
#[derive(Debug, Clone, Copy, Default)]
pub struct Needs {
    /// db1 keys and archive rows are part of the plan.
    pub stores_in_plan: bool,
    /// Apply writes db1 or the archive: hold the store lock, and refuse
    /// while Agenvoy runs (its ToriiDB would undo us when it exits).
    pub store_lock: bool,
    /// Apply rewrites the limits cache: hold its lock.
    pub limits_lock: bool,
}

pub trait Operation: Sync {
    type Plan: Send;
    type Report: Serialize + Send;

    fn needs(&self) -> Needs;

    /// What the operation log records this operation as.
    fn intent(&self) -> Intent;

    /// The sessions whose locks a target's apply holds: by default the
    /// target's own, none for a target of shared state (`Target::shared`).
    fn locks(&self, target: &Target) -> Vec<String> {
        if target.is_shared() {
            Vec::new()
        } else {
            vec![target.id.clone()]
        }
    }

    /// The sessions (or records) an applied target changed, as the
    /// operation log names them when apply recorded nothing itself (a
    /// change through Agenvoy's daemon): by default the locked sessions.
    fn changed(&self, target: &Target, _report: &Self::Report) -> Vec<String> {
        self.locks(target)
    }

    /// Plan every target again once its locks are held, whatever changed:
    /// for operations whose plan reads more than the session's files (the
    /// operation log, a bundle, the Trash, the error memory).
    fn replans_under_locks(&self) -> bool {
        false
    }

    /// Apply writes files Agenvoy writes too: refuse while it runs (the
    /// shared stores always; `summarize`'s summary.json without them).
    fn refuses_while_agenvoy_runs(&self) -> bool {
        self.needs().store_lock
    }

    /// What would be done for this session. Read-only, no locks; an error
    /// is this session's failure, not the batch's.
    fn plan(&self, target: &Target, view: &dyn StoreView) -> Result<Self::Plan>;

    fn has_work(&self, plan: &Self::Plan) -> bool;

    /// What a plan with work is, in a few words, for the confirmation
    /// question ("3 trash entries (12 MB)").
    fn summary(&self, _plan: &Self::Plan) -> Option<String> {
        None
    }

    /// The report of a dry run (and of a session with nothing to do).
    fn preview(&self, target: &Target, plan: &Self::Plan, dry_run: bool) -> Self::Report;

    /// Carry the plan out. Runs with the session lock (and the store lock
    /// when `needs().store_lock`) held; `stores` were loaded after them.
    fn apply(
        &self,
        target: &Target,
        plan: Self::Plan,
        stores: &mut Stores<'_>,
    ) -> Result<Self::Report>;

    /// Sessions may be applied at the same time, on rayon's threads
    /// (`RAYON_NUM_THREADS`), through `apply_shared`. Off by default: the
    /// batch applies session by session, in target order.
    fn applies_in_parallel(&self) -> bool {
        false
    }

    /// `apply` for a batch whose sessions may run at the same time: the
    /// stores are behind a lock the operation takes only for the steps
    /// that touch them. By default it is held for the whole apply.
    fn apply_shared(
        &self,
        target: &Target,
        plan: Self::Plan,
        stores: &Shared<'_, '_>,
    ) -> Result<Self::Report> {
        self.apply(target, plan, &mut stores.lock())
    }

    /// Carry the plan out through Agenvoy's daemon, which owns the stores
    /// while it runs; `stores` are only read. Runs with the
    /// session lock held.
    fn apply_daemon(
        &self,
        target: &Target,
        _plan: Self::Plan,
        _daemon: &Daemon,
        _stores: &ReadStores<'_>,
    ) -> Result<Self::Report> {
        Err(Error::busy(format!(
            "session {}: this operation cannot go through Agenvoy's daemon",
            target.id
        ))
        .with_hint("stop Agenvoy, then retry with --via files"))
    }

    /// Whether the operation is complete once this run changed `changed`
    /// without a failure midway: by default, yes. An operation that
    /// continues an interrupted one (`Intent::resume`) may have begun
    /// sessions this run did not finish; its record then stays open.
    fn complete_after(&self, _changed: &[String]) -> bool {
        true
    }

    /// Operations a crash left `done:false` whose work this run completes
    /// when it finishes with no target failed (not a dry run, nor
    /// declined): their records are closed, as completed by this one (even
    /// when it found nothing left to do). Asked after the run. Default:
    /// none.
    fn completes(&self, _root: &DataRoot) -> Result<Vec<String>> {
        Ok(Vec::new())
    }

    /// The files a plan depends on: when one changed between planning and
    /// taking the lock, the session is planned again.
    fn watched(&self, target: &Target) -> Vec<PathBuf> {
        let Some(dir) = &target.dir else {
            return Vec::new();
        };
        let mut paths = vec![
            dir.history_json(),
            dir.summary_json(),
            dir.summary_meta(),
            dir.config_json(),
        ];
        paths.extend(crate::engine::sessions::task_files(dir).unwrap_or_default());
        paths
    }
}

/// How the batch talks to the person (or script) running it.
pub trait Ui: Sync {
    /// Asked once before the first write, with the targets that have work
    /// and what each plan says of itself (`Operation::summary`).
    fn confirm(&self, sessions: &[&str], summaries: &[String]) -> Result<bool>;
    fn planned(&self) {}
    fn applied(&self) {}
    /// Something the user should hear that does not stop the batch.
    fn warn(&self, _text: &str) {}
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    pub dry_run: bool,
    /// Write although Agenvoy runs.
    pub force: bool,
}

/// One target whose apply failed after the operation began changing it
/// (a full disk, an I/O error): the operation is left `done:false`.
fn began_changing(error: &Error, journal: &Journal, sessions: &[String]) -> bool {
    matches!(
        error.exit_code(),
        exit::SOFTWARE | exit::IO | exit::CANT_CREATE
    ) || journal.noted_any(sessions)
}

/// A session that failed, and why.
#[derive(Debug)]
pub struct SessionError {
    pub session: String,
    pub error: Error,
}

#[derive(Debug)]
pub struct Outcome<R> {
    /// One report per session that did not fail, in target order.
    pub results: Vec<R>,
    pub errors: Vec<SessionError>,
    /// The user said no at the prompt: nothing was written.
    pub declined: bool,
    /// Sessions the operation changed.
    pub changed: Vec<String>,
    /// No target failed after it began changing something.
    pub complete: bool,
}

impl<R> Outcome<R> {
    /// The exit code: 0, 1 when declined, else the worst failure.
    pub fn code(&self) -> i32 {
        if self.declined {
            return exit::FINDINGS;
        }
        worst(self.errors.iter().map(|e| e.error.exit_code()))
    }
}

/// The worst of several exit codes: what a person must look at outranks
/// what a retry fixes, so one corrupt session (65) among locked ones (75)
/// is not retried forever by cron.
pub fn worst(codes: impl IntoIterator<Item = i32>) -> i32 {
    const ORDER: [i32; 9] = [
        exit::SOFTWARE,
        exit::IO,
        exit::CANT_CREATE,
        exit::DATA,
        exit::NO_INPUT,
        exit::USAGE,
        exit::UNAVAILABLE,
        exit::TEMP_FAIL,
        exit::FINDINGS,
    ];
    let rank = |c: i32| ORDER.iter().position(|o| *o == c).unwrap_or(0);
    codes
        .into_iter()
        .filter(|c| *c != exit::OK)
        .min_by_key(|c| rank(*c))
        .unwrap_or(exit::OK)
}

/// Where a batch's writes go.
#[derive(Clone, Copy)]
pub enum Backend<'d> {
    /// The files, refused while Agenvoy runs.
    Files,
    /// Agenvoy's daemon: planned from the files (read-only), applied by it.
    Daemon(&'d Daemon),
}

pub fn run<O: Operation>(
    op: &O,
    root: &DataRoot,
    targets: Vec<Target>,
    opts: Options,
    ui: &dyn Ui,
) -> Result<Outcome<O::Report>> {
    run_via(op, root, targets, opts, ui, Backend::Files)
}

pub fn run_via<O: Operation>(
    op: &O,
    root: &DataRoot,
    targets: Vec<Target>,
    opts: Options,
    ui: &dyn Ui,
    backend: Backend<'_>,
) -> Result<Outcome<O::Report>> {
    let journal = Journal::new(root, op.intent());
    let result = run_journaled(op, root, targets, opts, ui, backend, &journal);
    // An error of the whole batch after it began (none is expected: they
    // all come before the first write) leaves the record open.
    let (changed, complete) = match &result {
        Ok(o) => (
            o.changed.clone(),
            o.complete && op.complete_after(&o.changed),
        ),
        Err(_) => (Vec::new(), false),
    };
    journal.finish(&changed, complete)?;
    if let Ok(o) = &result {
        if !opts.dry_run && !o.declined && o.errors.is_empty() && o.complete {
            for id in op.completes(root)? {
                journal.close_completed(&id)?;
            }
        }
    }
    result
}

fn run_journaled<O: Operation>(
    op: &O,
    root: &DataRoot,
    targets: Vec<Target>,
    opts: Options,
    ui: &dyn Ui,
    backend: Backend<'_>,
    journal: &Journal,
) -> Result<Outcome<O::Report>> {
    let needs = op.needs();
    let now = torii::now_unix();
    let ids: Vec<&str> = targets.iter().map(|t| t.id.as_str()).collect();
    let snapshot = if needs.stores_in_plan {
        Snapshot::load(root, now, &ids)?
    } else {
        Snapshot::default()
    };
    drop(ids);
    let planned: Vec<Planned<O::Plan>> = targets
        .into_par_iter()
        .map(|t| {
            let fp = fingerprint(&op.watched(&t));
            let plan = op.plan(&t, &snapshot).map(|p| (p, fp));
            ui.planned();
            (t, plan)
        })
        .collect();
    // db1 as the plans read it; the apply takes it over if the log is
    // unchanged once the locks are held, instead of replaying it again.
    let replayed = snapshot.into_db1();

    // Every target keeps its place: results come back in target order.
    let mut slots: Vec<Option<Applied<O::Report>>> = Vec::new();
    let mut work: Vec<(usize, Target, O::Plan, Fingerprint)> = Vec::new();
    for (t, p) in planned {
        match p {
            Err(error) => slots.push(Some(Applied::failed(t.id, error, false))),
            Ok((plan, fp)) if op.has_work(&plan) && !opts.dry_run => {
                work.push((slots.len(), t, plan, fp));
                slots.push(None);
            }
            Ok((plan, _)) => slots.push(Some(Applied::unchanged(op.preview(
                &t,
                &plan,
                opts.dry_run,
            )))),
        }
    }

    if opts.dry_run {
        let warning = match backend {
            Backend::Daemon(d) => Some(format!(
                "Agenvoy is running: the real run goes through its daemon at {}, which decides the exact numbers; this plan is read from the files",
                d.url()
            )),
            Backend::Files if op.refuses_while_agenvoy_runs() => runtime::dry_run_warning(root),
            Backend::Files => None,
        };
        if let Some(w) = warning {
            ui.warn(&w);
        }
    }
    let mut declined = false;
    if !work.is_empty() {
        let ids: Vec<&str> = work.iter().map(|w| w.1.id.as_str()).collect();
        let summaries: Vec<String> = work.iter().filter_map(|w| op.summary(&w.2)).collect();
        if ui.confirm(&ids, &summaries)? {
            let resumes = op.intent().resume;
            let run = Run {
                root,
                now,
                ui,
                journal,
                restoring: crate::store::oplog::interrupted_undos(root)?
                    .into_iter()
                    .filter(|(u, _)| resumes.as_deref() != Some(u.as_str()))
                    .collect(),
            };
            match backend {
                Backend::Files => run.apply_all(op, work, opts, replayed, &mut slots)?,
                Backend::Daemon(d) => run.apply_via_daemon(op, work, d, &mut slots)?,
            }
        } else {
            declined = true;
        }
    }
    let mut outcome = Outcome {
        results: Vec::new(),
        errors: Vec::new(),
        declined,
        changed: Vec::new(),
        complete: true,
    };
    for slot in slots.into_iter().flatten() {
        outcome.changed.extend(slot.changed);
        outcome.complete &= !slot.began_changing;
        match slot.result {
            Ok(r) => outcome.results.push(r),
            Err(e) => outcome.errors.push(e),
        }
    }
    Ok(outcome)
}

/// What became of one target.
struct Applied<R> {
    result: std::result::Result<R, SessionError>,
    /// Sessions it changed (for the operation log).
    changed: Vec<String>,
    /// It failed after it began changing something.
    began_changing: bool,
}

impl<R> Applied<R> {
    fn unchanged(report: R) -> Self {
        Applied {
            result: Ok(report),
            changed: Vec::new(),
            began_changing: false,
        }
    }
    fn failed(session: String, error: Error, began_changing: bool) -> Self {
        Applied {
            result: Err(SessionError { session, error }),
            changed: Vec::new(),
            began_changing,
        }
    }
}

/// What the apply half of a run shares.
struct Run<'a> {
    root: &'a DataRoot,
    now: i64,
    ui: &'a dyn Ui,
    journal: &'a Journal,
    /// Interrupted undos (other than one this run completes) and the
    /// sessions each is putting back: no write of this run goes there.
    restoring: Vec<(String, Vec<String>)>,
}

impl Run<'_> {
    /// Refuse a target whose sessions an interrupted undo is putting back.
    fn refuse_restoring(&self, sessions: &[String]) -> Result<()> {
        for (undo, restoring) in &self.restoring {
            if let Some(s) = sessions.iter().find(|s| restoring.contains(s)) {
                return Err(Error::usage(format!(
                    "session {s} is being put back by undo {undo}, which did not complete"
                ))
                .with_hint(format!(
                    "`sessionctl undo {undo}` completes it first; then retry"
                )));
            }
        }
        Ok(())
    }

    fn apply_all<O: Operation>(
        &self,
        op: &O,
        work: Vec<(usize, Target, O::Plan, Fingerprint)>,
        opts: Options,
        replayed: Option<Replayed>,
        slots: &mut [Option<Applied<O::Report>>],
    ) -> Result<()> {
        let root = self.root;
        let needs = op.needs();
        // Shared-store writers refuse while Agenvoy runs and hold the store
        // lock for the whole batch: these failures are the batch's.
        if op.refuses_while_agenvoy_runs() {
            runtime::ensure_not_running(root, opts.force)?;
        }
        let _store_lock = if needs.store_lock {
            Some(lock::store(root)?)
        } else {
            None
        };
        let _limits_lock = if needs.limits_lock {
            Some(lock::limits(root)?)
        } else {
            None
        };
        let mut stores = Stores::new(root, self.journal, self.now, opts.force);
        if let Some(r) = replayed {
            stores.adopt_if_current(r)?;
        }
        if needs.stores_in_plan {
            // Re-plans under the lock read the locked stores, indexed once.
            stores.db1()?;
        }
        let shared = Shared::new(&mut stores);
        let apply_one = |(slot, target, plan, fp): (usize, Target, O::Plan, Fingerprint)| {
            let applied = self.apply_target(op, &target, plan, fp, &shared);
            self.ui.applied();
            (slot, applied)
        };
        let done: Vec<_> = if op.applies_in_parallel() {
            work.into_par_iter().map(apply_one).collect()
        } else {
            work.into_iter().map(apply_one).collect()
        };
        for (slot, applied) in done {
            slots[slot] = Some(applied);
        }
        Ok(())
    }

    /// One target of `apply_all`, under its own locks.
    fn apply_target<O: Operation>(
        &self,
        op: &O,
        target: &Target,
        plan: O::Plan,
        fp: Fingerprint,
        shared: &Shared<'_, '_>,
    ) -> Applied<O::Report> {
        let sessions = op.locks(target);
        let fail = |error: Error, began: bool| Applied::failed(target.id.clone(), error, began);
        if let Err(e) = self.refuse_restoring(&sessions) {
            return fail(e, false);
        }
        let locks = match self.lock_sessions(&sessions) {
            Ok(l) => l,
            Err(e) => return fail(e, false),
        };
        // A run killed in this session left the temp files of its atomic
        // writes; with the lock held nobody else is writing them. Best
        // effort: what cannot be looked at is the apply's to report.
        self.sweep_temp_files(&sessions);
        // Under the locks, the plan stands only if nothing it read changed.
        let plan = if !op.replans_under_locks() && fingerprint(&op.watched(target)) == fp {
            plan
        } else {
            match op.plan(target, &**shared.lock()) {
                Ok(p) => p,
                Err(e) => return fail(e, false),
            }
        };
        if !op.has_work(&plan) {
            return Applied::unchanged(op.preview(target, &plan, false));
        }
        if let Err(e) = self.journal.begin() {
            return fail(e, false);
        }
        match op.apply_shared(target, plan, shared) {
            Ok(report) => {
                if let Err(e) = self.release(locks) {
                    return fail(e, true);
                }
                Applied {
                    changed: op.changed(target, &report),
                    result: Ok(report),
                    began_changing: false,
                }
            }
            Err(e) => {
                let began = began_changing(&e, self.journal, &sessions);
                fail(e, began)
            }
        }
    }

    /// Take each session's lock, in a fixed order (two runs locking the
    /// same sessions never wait on each other in a circle).
    fn lock_sessions(&self, sessions: &[String]) -> Result<Vec<(String, lock::Lock)>> {
        let mut sorted: Vec<&String> = sessions.iter().collect();
        sorted.sort_unstable();
        sorted.dedup();
        sorted
            .into_iter()
            .map(|id| Ok((id.clone(), lock::session(self.root, id)?)))
            .collect()
    }

    /// Delete the leftover temp files of atomic writes in the locked
    /// sessions' folders.
    fn sweep_temp_files(&self, sessions: &[String]) {
        for id in sessions {
            let Ok(Some(dir)) = self.root.session(id).map(Some) else {
                continue;
            };
            for l in crate::store::leftovers::in_session(&dir).unwrap_or_default() {
                let _ = crate::store::leftovers::remove(self.root, &l);
            }
        }
    }

    /// Release a target's session locks after a successful apply. The lock
    /// file of a session that no longer has a folder (removed, or put back
    /// to not existing by an undo) is deleted while still held, so gone
    /// sessions leave no lock files behind.
    fn release(&self, locks: Vec<(String, lock::Lock)>) -> Result<()> {
        for (id, l) in locks {
            if self.root.session_entry(&id)?.is_none() {
                l.unlink()?;
            }
        }
        Ok(())
    }

    /// Each target's request to the daemon, `daemon::CONCURRENCY` at a
    /// time. No store lock and no Agenvoy check: the daemon owns the
    /// stores. A session's lock still keeps two sessionctl runs off it.
    fn apply_via_daemon<O: Operation>(
        &self,
        op: &O,
        work: Vec<(usize, Target, O::Plan, Fingerprint)>,
        daemon: &Daemon,
        slots: &mut [Option<Applied<O::Report>>],
    ) -> Result<()> {
        let root = self.root;
        let db1 = if op.needs().stores_in_plan {
            Some(Db::load_store(root, torii::DB_SESSION_HIST)?)
        } else {
            None
        };
        let stores = ReadStores {
            root,
            journal: self.journal,
            now: self.now,
            db1: db1.as_ref(),
        };
        let items: Vec<Pending<O::Plan>> = work
            .into_iter()
            .map(|(slot, t, plan, _)| std::sync::Mutex::new(Some((slot, t, plan))))
            .collect();
        let done = crate::daemon::bounded(&items, |item| {
            let (slot, target, plan) = item
                .lock()
                .expect("not poisoned")
                .take()
                .expect("each item runs once");
            let sessions = op.locks(&target);
            let applied = (|| {
                self.refuse_restoring(&sessions)?;
                let locks = self.lock_sessions(&sessions)?;
                self.journal.begin()?;
                let report = op.apply_daemon(&target, plan, daemon, &stores)?;
                self.release(locks)?;
                Ok(report)
            })();
            self.ui.applied();
            let applied = match applied {
                Ok(report) => Applied {
                    changed: op.changed(&target, &report),
                    result: Ok(report),
                    began_changing: false,
                },
                Err(error) => Applied::failed(target.id, error, false),
            };
            (slot, applied)
        });
        for (slot, applied) in done {
            slots[slot] = Some(applied);
        }
        Ok(())
    }
}

/// A batch's stores while its sessions are applied, possibly at the same
/// time: one session at a time holds them.
pub struct Shared<'s, 'r> {
    stores: std::sync::Mutex<&'s mut Stores<'r>>,
    /// The stores' journal, reachable without waiting for them.
    pub journal: &'r Journal,
}

impl<'s, 'r> Shared<'s, 'r> {
    pub fn new(stores: &'s mut Stores<'r>) -> Self {
        let journal = stores.journal;
        Shared {
            stores: std::sync::Mutex::new(stores),
            journal,
        }
    }

    pub fn lock(&self) -> std::sync::MutexGuard<'_, &'s mut Stores<'r>> {
        // A session that panicked holding them fails alone; the stores
        // are written by whole transactions and appends.
        self.stores.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A session waiting for its daemon request: its slot, target and plan,
/// taken by the worker that sends it.
type Pending<P> = std::sync::Mutex<Option<(usize, Target, P)>>;

/// What an operation applied through the daemon may read: db1 (loaded
/// read-only when the operation plans with the stores) and the archive.
pub struct ReadStores<'r> {
    pub root: &'r DataRoot,
    pub journal: &'r Journal,
    pub now: i64,
    pub db1: Option<&'r Db>,
}

/// A target with its plan (and the fingerprint the plan was made on).
type Planned<P> = (Target, Result<(P, Fingerprint)>);

type Fingerprint = Vec<(PathBuf, Option<(u64, Option<SystemTime>)>)>;

fn fingerprint(paths: &[PathBuf]) -> Fingerprint {
    paths
        .iter()
        .map(|p| {
            let meta = std::fs::symlink_metadata(p).ok();
            (p.clone(), meta.map(|m| (m.len(), m.modified().ok())))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worst_failure_decides_the_exit_code() {
        assert_eq!(worst([]), exit::OK);
        assert_eq!(worst([exit::TEMP_FAIL, exit::DATA]), exit::DATA);
        assert_eq!(worst([exit::TEMP_FAIL, exit::OK]), exit::TEMP_FAIL);
        assert_eq!(worst([exit::USAGE, exit::CANT_CREATE]), exit::CANT_CREATE);
    }
}
