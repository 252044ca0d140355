//! The window table: the cache `window()` consults, the built-in table it
//! starts from, and what changes between two tables.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{Learned, FRESH_FOR, RETRY_AFTER};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelLimit {
    #[serde(rename = "in")]
    pub input: u64,
    #[serde(rename = "out", default, skip_serializing_if = "Option::is_none")]
    pub output: Option<u64>,
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
}

/// The table compiled into the binary: serves the first run with no
/// network. Input limits as the vendors document them (late 2026).
const BUILTIN: &str = include_str!("builtin.json");

impl LimitsCache {
    pub fn builtin() -> LimitsCache {
        LimitsCache {
            source: "builtin".into(),
            url: None,
            fetched_at: None,
            retry_after: None,
            table: serde_json::from_str(BUILTIN).expect("the built-in table parses"),
            copilot: BTreeMap::new(),
            copilot_fetched_at: None,
            learned: BTreeMap::new(),
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

    pub fn lookup(&self, vendor: &str, model: &str) -> Option<u64> {
        self.table.get(vendor)?.get(model).map(|m| m.input)
    }
}

/// A change between two tables, for `limits refresh` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub vendor: String,
    pub model: String,
    pub old: Option<u64>,
    pub new: Option<u64>,
}

pub fn diff(old: &Table, new: &Table) -> Vec<Change> {
    let mut changes = Vec::new();
    let vendors: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for vendor in vendors {
        let empty = BTreeMap::new();
        let (o, n) = (
            old.get(vendor).unwrap_or(&empty),
            new.get(vendor).unwrap_or(&empty),
        );
        let models: std::collections::BTreeSet<&String> = o.keys().chain(n.keys()).collect();
        for model in models {
            let (a, b) = (o.get(model).map(|m| m.input), n.get(model).map(|m| m.input));
            if a != b {
                changes.push(Change {
                    vendor: vendor.clone(),
                    model: model.clone(),
                    old: a,
                    new: b,
                });
            }
        }
    }
    changes
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
    #[test]
    fn diff_reports_changes() {
        let a: Table = serde_json::from_str(r#"{"openai":{"a":{"in":1},"b":{"in":2}}}"#).unwrap();
        let b: Table =
            serde_json::from_str(r#"{"openai":{"a":{"in":1},"b":{"in":3},"c":{"in":4}}}"#).unwrap();
        let d = diff(&a, &b);
        assert_eq!(d.len(), 2);
        assert_eq!((d[0].old, d[0].new), (Some(2), Some(3)));
        assert_eq!((d[1].old, d[1].new), (None, Some(4)));
    }
}
