//! `limits learn` and `limits forget` as operations on the limits cache
//! (`.sessionctl/limits.json`): the plan reads the cache without the lock
//! (a dry run writes nothing, not even a lock file); apply runs under the
//! limits lock the runner takes, reads the cache again, keeps the agent's
//! learned limit as it was for `undo`, and saves. (Beside `engine::limits`, not in it: the
//! window resolution must not depend on undo, which depends on it.)

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::engine::batch::{Needs, Operation, StoreView, Stores, Target};
use crate::engine::limits::{learn, parse_overflow_error, window, LimitsCache};
use crate::error::{Error, Result};
use crate::store::layout::DataRoot;
use crate::store::limits_cache;
use crate::store::oplog::Intent;

/// A limit learned from a provider's error: planned or stored.
#[derive(Debug, Clone, Serialize)]
pub struct LearnReport {
    pub agent: String,
    pub learned: u64,
    /// Whether it is (in a plan: would be) stored; not when the known
    /// window is already as small.
    pub stored: bool,
    pub window: u64,
    pub budget: u64,
    pub evidence: String,
}

/// What a provider's error says about a model's input limit.
#[derive(Debug, Clone)]
pub struct Lesson {
    pub agent: String,
    pub limit: u64,
    pub evidence: String,
}

impl Lesson {
    /// The smallest limit any of `errors` states: one lesson per run, so
    /// the pre-image undo keeps is the limit as it was before the run.
    pub fn from_errors(agent: &str, errors: &[String]) -> Option<Lesson> {
        errors
            .iter()
            .filter_map(|t| parse_overflow_error(t, None))
            .min_by_key(|(limit, _)| *limit)
            .map(|(limit, evidence)| Lesson {
                agent: agent.to_owned(),
                limit,
                evidence,
            })
    }
}

fn load(root: &DataRoot) -> Result<LimitsCache> {
    Ok(limits_cache::load(root)?.unwrap_or_else(LimitsCache::builtin))
}

/// Learn into `cache` (in memory) and say what it made of it.
fn learn_into(cache: &mut LimitsCache, l: &Lesson, now: DateTime<Utc>) -> LearnReport {
    let stored = learn(cache, &l.agent, l.limit, l.evidence.clone(), now);
    let w = window(&l.agent, cache);
    LearnReport {
        agent: l.agent.clone(),
        learned: l.limit,
        stored,
        window: w.window,
        budget: w.budget,
        evidence: l.evidence.clone(),
    }
}

/// `limits learn`: store a limit learned from a provider's error (undoable)
/// unless the known window is as small. Its one target is the limits cache.
pub struct Learn<'a> {
    pub root: &'a DataRoot,
    pub lesson: Lesson,
    pub now: DateTime<Utc>,
}

/// The target of an operation on the limits cache.
pub const LIMITS_TARGET: &str = "limits";

/// Needs of an operation on the limits cache alone: its lock; Agenvoy
/// never writes it, so a running Agenvoy does not matter.
fn limits_needs() -> Needs {
    Needs {
        limits_lock: true,
        ..Needs::default()
    }
}

impl Learn<'_> {
    pub fn target(&self) -> Target {
        Target::shared(LIMITS_TARGET)
    }
}

impl Operation for Learn<'_> {
    type Plan = LearnReport;
    type Report = LearnReport;

    fn needs(&self) -> Needs {
        limits_needs()
    }
    fn intent(&self) -> Intent {
        Intent::of("limits learn")
    }
    fn replans_under_locks(&self) -> bool {
        true
    }
    fn plan(&self, _: &Target, _: &dyn StoreView) -> Result<LearnReport> {
        Ok(learn_into(&mut load(self.root)?, &self.lesson, self.now))
    }
    fn has_work(&self, plan: &LearnReport) -> bool {
        plan.stored
    }
    fn preview(&self, _: &Target, plan: &LearnReport, _: bool) -> LearnReport {
        plan.clone()
    }
    fn apply(&self, _: &Target, _: LearnReport, stores: &mut Stores<'_>) -> Result<LearnReport> {
        let root = stores.root;
        let mut cache = load(root)?;
        let before = cache.clone();
        let report = learn_into(&mut cache, &self.lesson, self.now);
        if report.stored {
            crate::engine::undo::limits::before(stores.journal, root, &before, &self.lesson.agent)?;
            limits_cache::save(root, &cache)?;
        }
        Ok(report)
    }
}
/// A learned limit dropped (in a dry run: that would be).
#[derive(Debug, Clone, Serialize)]
pub struct ForgetReport {
    pub agent: String,
    pub forgotten: u64,
    pub dry_run: bool,
}

fn learned_limit(cache: &LimitsCache, agent: &str) -> Result<u64> {
    match cache.learned.get(agent) {
        Some(l) => Ok(l.limit),
        None => Err(Error::no_input(format!("no learned limit for {agent}"))
            .with_hint("`sessionctl limits show` lists the learned limits")),
    }
}

/// `limits forget AGENT`: drop a learned limit (undoable).
pub struct Forget<'a> {
    pub root: &'a DataRoot,
    pub agent: String,
}

impl Forget<'_> {
    pub fn target(&self) -> Target {
        Target::shared(LIMITS_TARGET)
    }
}

impl Operation for Forget<'_> {
    type Plan = ForgetReport;
    type Report = ForgetReport;

    fn needs(&self) -> Needs {
        limits_needs()
    }
    fn intent(&self) -> Intent {
        Intent::of("limits forget")
    }
    fn replans_under_locks(&self) -> bool {
        true
    }
    fn plan(&self, _: &Target, _: &dyn StoreView) -> Result<ForgetReport> {
        Ok(ForgetReport {
            agent: self.agent.clone(),
            forgotten: learned_limit(&load(self.root)?, &self.agent)?,
            dry_run: true,
        })
    }
    fn has_work(&self, _: &ForgetReport) -> bool {
        true
    }
    fn summary(&self, plan: &ForgetReport) -> Option<String> {
        Some(plan.forgotten.to_string())
    }
    fn preview(&self, _: &Target, plan: &ForgetReport, dry_run: bool) -> ForgetReport {
        ForgetReport {
            dry_run,
            ..plan.clone()
        }
    }
    fn apply(&self, _: &Target, _: ForgetReport, stores: &mut Stores<'_>) -> Result<ForgetReport> {
        let root = stores.root;
        let mut cache = load(root)?;
        let forgotten = learned_limit(&cache, &self.agent)?;
        crate::engine::undo::limits::before(stores.journal, root, &cache, &self.agent)?;
        cache.learned.remove(&self.agent);
        limits_cache::save(root, &cache)?;
        Ok(ForgetReport {
            agent: self.agent.clone(),
            forgotten,
            dry_run: false,
        })
    }
}

/// Change the limits cache in place under its lock, on the cache as it is
/// then (never a copy read earlier: a `limits learn` meanwhile would be
/// lost): how a stale window table is refreshed in passing, and how a
/// failed fetch is remembered. A cache, not an operation: nothing to undo.
pub fn update_cache(root: &DataRoot, f: impl FnOnce(&mut LimitsCache)) -> Result<LimitsCache> {
    let _lock = crate::store::lock::limits(root)?;
    let mut cache = load(root)?;
    f(&mut cache);
    limits_cache::save(root, &cache)?;
    Ok(cache)
}

/// `limits refresh`: merge a fetched table into the cache. The shrinks it
/// offers are applied only when `shrinks` says so (asked before the run).
pub struct RefreshLimits<'a> {
    pub root: &'a DataRoot,
    pub fetched: crate::engine::limits::Fetched,
    pub source: crate::engine::limits::Source,
    pub url: String,
    pub now: DateTime<Utc>,
    pub shrinks: bool,
}

impl RefreshLimits<'_> {
    pub fn target(&self) -> Target {
        Target::shared(LIMITS_TARGET)
    }

    /// The plan on the cache as it is now (read without the lock: the
    /// question about shrinks is asked from it).
    pub fn plan_now(&self) -> Result<crate::engine::limits::refresh::RefreshPlan> {
        Ok(crate::engine::limits::refresh::plan(
            &load(self.root)?,
            self.fetched.clone(),
            self.source,
            self.url.clone(),
            self.now,
        ))
    }
}

impl Operation for RefreshLimits<'_> {
    type Plan = crate::engine::limits::refresh::RefreshPlan;
    type Report = crate::engine::limits::refresh::RefreshReport;

    fn needs(&self) -> Needs {
        limits_needs()
    }
    fn intent(&self) -> Intent {
        Intent::of("limits refresh")
    }
    fn replans_under_locks(&self) -> bool {
        true
    }
    fn plan(&self, _: &Target, _: &dyn StoreView) -> Result<Self::Plan> {
        self.plan_now()
    }
    fn has_work(&self, _: &Self::Plan) -> bool {
        // the fetch time and source are written even when no window moved
        true
    }
    fn changed(&self, _: &Target, _: &Self::Report) -> Vec<String> {
        // kept nothing: `undo` names it rather than skip it
        vec![crate::engine::undo::limits::LIMITS.to_owned()]
    }
    fn preview(&self, _: &Target, plan: &Self::Plan, _: bool) -> Self::Report {
        let mut scratch = LimitsCache::builtin();
        crate::engine::limits::refresh::apply(&mut scratch, plan.clone(), self.shrinks, true)
    }
    fn apply(&self, _: &Target, plan: Self::Plan, stores: &mut Stores<'_>) -> Result<Self::Report> {
        let mut cache = load(stores.root)?;
        let report = crate::engine::limits::refresh::apply(&mut cache, plan, self.shrinks, false);
        limits_cache::save(stores.root, &cache)?;
        Ok(report)
    }
}
