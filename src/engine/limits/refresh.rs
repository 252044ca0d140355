//! `limits refresh` as plan/apply: `plan` merges a fetched source into the
//! cached table (pure: new and larger windows, the smaller ones offered);
//! `apply` writes the merge into the cache, with or without the shrinks.
//! Fetching and asking about shrinks are the command's.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::engine::limits::{
    merge, Change, Fetched, LimitsCache, Merge, ModelLimit, Source, Table,
};

/// The vendor name Copilot's `/models` limits are reported under (the
/// `copilot` vendor of the table is LiteLLM's or the built-in values).
const COPILOT_API: &str = "copilot /models";

#[derive(Debug, Clone, Serialize)]
pub struct RefreshReport {
    pub source: &'static str,
    pub url: String,
    pub fetched_at: String,
    pub dry_run: bool,
    pub vendors: Vec<VendorCount>,
    pub models: usize,
    /// New models and changed windows, as written (or as they would be).
    pub changed: Vec<Change>,
    /// Windows the source says are smaller than ours.
    pub shrinks: Vec<Change>,
    /// Whether the shrinks were (or, in a dry run, would be) applied.
    pub shrinks_applied: bool,
    /// Our models the source does not list; kept.
    pub kept: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct VendorCount {
    pub vendor: String,
    pub models: usize,
}

/// A fetched source merged into the cache's table, not yet applied.
#[derive(Clone)]
pub struct RefreshPlan {
    pub source: Source,
    pub url: String,
    pub now: DateTime<Utc>,
    fetched: Fetched,
    theirs: Table,
    pub merged: Merge,
}

fn copilot_table(models: &BTreeMap<String, u64>) -> Table {
    let models = models
        .iter()
        .map(|(m, w)| {
            let limit = ModelLimit {
                input: *w,
                output: None,
                from: None,
            };
            (m.clone(), limit)
        })
        .collect();
    Table::from([(COPILOT_API.to_owned(), models)])
}

/// Merge `fetched` (from `source` at `url`, fetched `now`) into `cache`'s
/// table. Read-only.
pub fn plan(
    cache: &LimitsCache,
    fetched: Fetched,
    source: Source,
    url: String,
    now: DateTime<Utc>,
) -> RefreshPlan {
    let (ours, theirs) = match &fetched {
        Fetched::Table(t) => (cache.table.clone(), t.clone()),
        Fetched::Copilot(m) => (copilot_table(&cache.copilot), copilot_table(m)),
    };
    let merged = merge(&ours, &theirs, source);
    RefreshPlan {
        source,
        url,
        now,
        fetched,
        theirs,
        merged,
    }
}

/// Write the plan into `cache` (the caller saves it, or not in a dry run),
/// the smaller windows only with `shrinks`; held back, they are kept in
/// the cache for `limits show` to mention.
pub fn apply(
    cache: &mut LimitsCache,
    p: RefreshPlan,
    shrinks: bool,
    dry_run: bool,
) -> RefreshReport {
    let table = p.merged.table(shrinks);
    let mut changed = p.merged.changes.clone();
    if shrinks {
        changed.extend(p.merged.shrinks.iter().cloned());
        changed.sort_by(|a, b| (&a.vendor, &a.model).cmp(&(&b.vendor, &b.model)));
    }
    match p.fetched {
        Fetched::Table(_) => {
            cache.table = table;
            cache.held_shrinks = if shrinks {
                Vec::new()
            } else {
                p.merged.shrinks.clone()
            };
            cache.source = p.source.name().into();
            cache.url = Some(p.url.clone());
            cache.fetched_at = Some(p.now);
            cache.retry_after = None;
        }
        Fetched::Copilot(_) => {
            cache.copilot = table
                .get(COPILOT_API)
                .into_iter()
                .flatten()
                .map(|(m, l)| (m.clone(), l.input))
                .collect();
            cache.copilot_fetched_at = Some(p.now);
        }
    }
    RefreshReport {
        source: p.source.name(),
        url: p.url,
        fetched_at: crate::timefmt::rfc3339(p.now),
        dry_run,
        vendors: p
            .theirs
            .iter()
            .map(|(v, m)| VendorCount {
                vendor: v.clone(),
                models: m.len(),
            })
            .collect(),
        models: p.theirs.values().map(BTreeMap::len).sum(),
        changed,
        shrinks: p.merged.shrinks,
        shrinks_applied: shrinks,
        kept: p.merged.kept,
    }
}
