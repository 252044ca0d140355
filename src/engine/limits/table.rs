//! The window table: the cache `window()` consults, the built-in table it
//! starts from, and how a fetched table is merged into it.
//!
//! A source only updates what it knows: a model it lacks keeps the entry
//! we had (LiteLLM has no `claude-sonnet-4`; that must not drop it to the
//! 128K fallback). A smaller value than ours is a *shrink*, applied only
//! when the caller says so (`limits refresh` asks, or takes `--yes`); it
//! is never applied silently.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{names, Learned, Source, FRESH_FOR, RETRY_AFTER};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelLimit {
    #[serde(rename = "in")]
    pub input: u64,
    #[serde(rename = "out", default, skip_serializing_if = "Option::is_none")]
    pub output: Option<u64>,
    /// The source this entry came from; `None`: the built-in table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Source>,
}

/// vendor → model → limits
pub type Table = BTreeMap<String, BTreeMap<String, ModelLimit>>;

/// Everything `window()` consults; persisted as `<root>/.sessionctl/limits.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LimitsCache {
    /// "builtin" until the first successful fetch.
    pub source: String,
    pub url: Option<String>,
    pub fetched_at: Option<DateTime<Utc>>,
    /// No fetch before this time (set by a failed fetch).
    pub retry_after: Option<DateTime<Utc>>,
    pub table: Table,
    #[serde(default)]
    pub copilot: BTreeMap<String, u64>,
    #[serde(default)]
    pub copilot_fetched_at: Option<DateTime<Utc>>,
    /// Learned from overflow errors, per full agent name.
    #[serde(default)]
    pub learned: BTreeMap<String, Learned>,
    /// Smaller values a fetch offered and we did not apply (see `merge`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_shrinks: Vec<Change>,
}

/// The table compiled into the binary: serves the first run with no
/// network. Input limits as the vendors document them (late 2026); `qwen`
/// as OpenRouter lists Alibaba's models, `ollama` the models Ollama's
/// library offers as cloud tags (`gpt-oss:120b-cloud`), which run with
/// their full context.
const BUILTIN: &str = include_str!("builtin.json");

fn builtin_table() -> &'static Table {
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| serde_json::from_str(BUILTIN).expect("the built-in table parses"))
}

impl LimitsCache {
    pub fn builtin() -> LimitsCache {
        LimitsCache {
            source: "builtin".into(),
            url: None,
            fetched_at: None,
            retry_after: None,
            table: builtin_table().clone(),
            copilot: BTreeMap::new(),
            copilot_fetched_at: None,
            learned: BTreeMap::new(),
            held_shrinks: Vec::new(),
        }
    }

    /// Should a command that needs a window fetch now? Only when the table
    /// is stale (or built-in) and no failed fetch asked us to wait.
    pub fn needs_fetch(&self, now: DateTime<Utc>) -> bool {
        let stale = self.fetched_at.is_none_or(|t| now - t >= FRESH_FOR);
        let waiting = self.retry_after.is_some_and(|t| now < t);
        stale && !waiting
    }

    pub fn record_failed_fetch(&mut self, now: DateTime<Utc>) {
        self.retry_after = Some(now + RETRY_AFTER);
    }

    /// The entry for a vendor's model under any of its spellings
    /// (`names`), with the key it was found under. A model the cached
    /// table lacks is looked up in the built-in table: caches written
    /// before refreshes merged may have lost built-in entries.
    pub fn lookup(&self, vendor: &str, model: &str) -> Option<(&str, &ModelLimit)> {
        let find = |t: &'static Table| t.get(vendor).and_then(|m| names::find(m, model));
        self.table
            .get(vendor)
            .and_then(|m| names::find(m, model))
            .or_else(|| find(builtin_table()))
    }

    /// The smallest window known for any of a vendor's models (cached or
    /// built in), and its model: what an unknown model of the vendor may
    /// assume at most.
    pub fn smallest(&self, vendor: &str) -> Option<(&str, u64)> {
        [self.table.get(vendor), builtin_table().get(vendor)]
            .into_iter()
            .flatten()
            .flat_map(|models| models.iter())
            .map(|(model, limit)| (model.as_str(), limit.input))
            .min_by_key(|(_, input)| *input)
    }
}

/// A change between two tables, for `limits refresh` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    pub vendor: String,
    pub model: String,
    pub old: Option<u64>,
    pub new: Option<u64>,
}

/// A fetched table merged into ours, before deciding on shrinks.
#[derive(Debug, Clone, PartialEq)]
pub struct Merge {
    /// Ours with every new or larger entry of the fetched table.
    pub grown: Table,
    /// New models and larger windows (already in `grown`).
    pub changes: Vec<Change>,
    /// Smaller windows the source offers (not in `grown`).
    pub shrinks: Vec<Change>,
    /// Our models the source does not list, kept as they were.
    pub kept: usize,
    fetched: Table,
}

impl Merge {
    /// The merged table, with or without the shrinks.
    pub fn table(&self, with_shrinks: bool) -> Table {
        let mut t = self.grown.clone();
        if with_shrinks {
            for c in &self.shrinks {
                let limit = self.fetched[&c.vendor][&c.model];
                t.entry(c.vendor.clone())
                    .or_default()
                    .insert(c.model.clone(), limit);
            }
        }
        t
    }
}

/// Merge `fetched` (from `source`) into `ours`. A changed output limit or
/// origin with the same input limit is taken silently.
pub fn merge(ours: &Table, fetched: &Table, source: Source) -> Merge {
    let mut grown = ours.clone();
    let (mut changes, mut shrinks) = (Vec::new(), Vec::new());
    let mut tagged = Table::new();
    for (vendor, models) in fetched {
        for (model, limit) in models {
            let limit = ModelLimit {
                from: Some(source),
                ..*limit
            };
            tagged
                .entry(vendor.clone())
                .or_default()
                .insert(model.clone(), limit);
            let old = ours.get(vendor).and_then(|m| m.get(model)).map(|m| m.input);
            let change = Change {
                vendor: vendor.clone(),
                model: model.clone(),
                old,
                new: Some(limit.input),
            };
            if old.is_some_and(|o| limit.input < o) {
                shrinks.push(change);
                continue;
            }
            if old != Some(limit.input) {
                changes.push(change);
            }
            grown
                .entry(vendor.clone())
                .or_default()
                .insert(model.clone(), limit);
        }
    }
    let kept = ours
        .iter()
        .flat_map(|(v, ms)| ms.keys().map(move |m| (v, m)))
        .filter(|(v, m)| fetched.get(*v).is_none_or(|f| !f.contains_key(*m)))
        .count();
    Merge {
        grown,
        changes,
        shrinks,
        kept,
        fetched: tagged,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{window, WindowSource, SANE_LIMIT};
    use super::*;
    use chrono::Duration;

    #[test]
    fn fetch_timing_is_injected() {
        let t0 = DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
            .unwrap()
            .to_utc();
        let mut c = LimitsCache::builtin();
        assert!(c.needs_fetch(t0), "the built-in table always wants a fetch");
        c.fetched_at = Some(t0);
        assert!(!c.needs_fetch(t0 + Duration::minutes(59)));
        assert!(c.needs_fetch(t0 + Duration::minutes(60)));
        let fail = t0 + Duration::minutes(61);
        c.record_failed_fetch(fail);
        assert!(!c.needs_fetch(fail + Duration::minutes(4)));
        assert!(c.needs_fetch(fail + Duration::minutes(5)));
    }
    #[test]
    fn builtin_table_is_sane() {
        let c = LimitsCache::builtin();
        assert!(c
            .table
            .values()
            .flat_map(|m| m.values())
            .all(|m| SANE_LIMIT.contains(&m.input)));
        assert_eq!(
            window("claude@claude-sonnet-4-5", &c).source,
            WindowSource::Table
        );
    }
}
