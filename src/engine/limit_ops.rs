//! `limits learn` and `limits forget` as plan/apply on the limits cache
//! (`.sessionctl/limits.json`): the plan reads the cache without the lock
//! (a dry run writes nothing, not even a lock file); apply takes the
//! limits lock, reads the cache again, keeps the agent's learned limit as
//! it was for `undo`, and saves. (Beside `engine::limits`, not in it: the
//! window resolution must not depend on undo, which depends on it.)

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::engine::limits::{learn, parse_overflow_error, window, LimitsCache};
use crate::error::{Error, Result};
use crate::store::layout::DataRoot;
use crate::store::{limits_cache, lock};

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

/// What learning `l` would do. Read-only.
pub fn plan_learn(root: &DataRoot, l: &Lesson, now: DateTime<Utc>) -> Result<LearnReport> {
    Ok(learn_into(&mut load(root)?, l, now))
}

/// Learn `l` and store it (undoable) unless the known window is as small.
pub fn apply_learn(root: &DataRoot, l: &Lesson, now: DateTime<Utc>) -> Result<LearnReport> {
    let _lock = lock::limits(root)?;
    let mut cache = load(root)?;
    let before = cache.clone();
    let report = learn_into(&mut cache, l, now);
    if report.stored {
        crate::engine::undo::limits::before(root, &before, &l.agent)?;
        limits_cache::save(root, &cache)?;
    }
    Ok(report)
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

/// The learned limit `limits forget` would drop. Read-only, no lock.
pub fn plan_forget(root: &DataRoot, agent: &str) -> Result<ForgetReport> {
    Ok(ForgetReport {
        agent: agent.to_owned(),
        forgotten: learned_limit(&load(root)?, agent)?,
        dry_run: true,
    })
}

/// Drop the agent's learned limit as it is now (undoable).
pub fn apply_forget(root: &DataRoot, agent: &str) -> Result<ForgetReport> {
    let _lock = lock::limits(root)?;
    let mut cache = load(root)?;
    let forgotten = learned_limit(&cache, agent)?;
    crate::engine::undo::limits::before(root, &cache, agent)?;
    cache.learned.remove(agent);
    limits_cache::save(root, &cache)?;
    Ok(ForgetReport {
        agent: agent.to_owned(),
        forgotten,
        dry_run: false,
    })
}
