//! `summary.json` (the rolling summary) and `summary.meta.json` (its cursor).

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::{Error, Result};

const CURRENT_KEYS: [&str; 3] = ["key_decisions", "past_discussions", "current_discussion"];
const LEGACY_KEYS: [&str; 4] = [
    "core_discussion",
    "discussion_log",
    "confirmed_needs",
    "current_conclusion",
];

#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub fields: Map<String, Value>,
}

/// Agenvoy's validity rule: at least 2 of the current keys, or at least 2
/// of the legacy ones.
pub fn is_valid(fields: &Map<String, Value>) -> bool {
    let count = |keys: &[&str]| keys.iter().filter(|k| fields.contains_key(**k)).count();
    count(&CURRENT_KEYS) >= 2 || count(&LEGACY_KEYS) >= 2
}

impl Summary {
    pub fn is_valid(&self) -> bool {
        is_valid(&self.fields)
    }

    pub fn is_legacy(&self) -> bool {
        !CURRENT_KEYS.iter().any(|k| self.fields.contains_key(*k))
            && LEGACY_KEYS.iter().any(|k| self.fields.contains_key(*k))
    }

    fn array_len(&self, key: &str) -> usize {
        self.fields
            .get(key)
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    }
    pub fn key_decisions(&self) -> usize {
        self.array_len("key_decisions")
    }
    pub fn past_discussions(&self) -> usize {
        self.array_len("past_discussions")
    }
    pub fn current_topic(&self) -> Option<&str> {
        self.fields
            .get("current_discussion")?
            .get("topic")?
            .as_str()
            .filter(|s| !s.is_empty())
    }
}

/// Parse summary.json. Agenvoy treats an unparsable file as `{}`; we refuse
/// it as bad data so nothing built on a broken file gets written back.
pub fn parse(bytes: &[u8], path: &Path) -> Result<Summary> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(fields)) => Ok(Summary { fields }),
        Ok(_) => Err(Error::data(path, "summary is not a JSON object")),
        Err(e) => Err(Error::data(path, format!("not valid JSON: {e}"))
            .with_hint("fix or move the file away; nothing was changed")),
    }
}

/// The cursor: local time `YYYY-MM-DD HH:MM:SS` of the last summarised record.
pub fn parse_cursor(bytes: &[u8], path: &Path) -> Result<Option<String>> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| Error::data(path, format!("not valid JSON: {e}")))?;
    Ok(v.get("last_message_time")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validity_follows_agenvoy() {
        let p = Path::new("summary.json");
        assert!(parse(br#"{"key_decisions":[],"current_discussion":{}}"#, p)
            .unwrap()
            .is_valid());
        assert!(!parse(br#"{"key_decisions":[]}"#, p).unwrap().is_valid());
        let legacy = parse(br#"{"core_discussion":"x","confirmed_needs":[]}"#, p).unwrap();
        assert!(legacy.is_valid() && legacy.is_legacy());
        assert!(!parse(b"{}", p).unwrap().is_valid());
        assert_eq!(parse(b"[1]", p).unwrap_err().exit_code(), 65);
        assert_eq!(
            parse(b"{\"key_decisions\":[", p).unwrap_err().exit_code(),
            65
        );
    }

    #[test]
    fn cursor() {
        let p = Path::new("summary.meta.json");
        assert_eq!(
            parse_cursor(br#"{"last_message_time": "2025-12-01 00:00:05"}"#, p).unwrap(),
            Some("2025-12-01 00:00:05".into())
        );
        assert_eq!(
            parse_cursor(br#"{"last_message_time": ""}"#, p).unwrap(),
            None
        );
    }
}
