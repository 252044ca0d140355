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
    Ok(parse_meta(bytes, path)?.time)
}

/// summary.meta.json. Agenvoy reads and writes only `last_message_time`
/// (local time, to the second); `exact` is ours, in fields Go's
/// json.Unmarshal ignores, so a meta Agenvoy rewrites simply loses it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cursor {
    pub time: Option<String>,
    pub exact: Option<ExactCursor>,
    /// Characters of conversation merged into the summary so far (the
    /// summary's size budget grows with it); unknown for a summary written
    /// by Agenvoy or an older sessionctl.
    pub merged_chars: Option<u64>,
}

/// Where the merge stopped, to the record: `tail_count` records were merged
/// from the first record whose sendAt is `last_send_at` on (from the start
/// of the conversation when no merged record had a sendAt, `last_send_at`
/// 0), and `tail_hash` is their hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactCursor {
    pub last_send_at: i64,
    pub tail_count: usize,
    pub tail_hash: String,
}

pub fn parse_meta(bytes: &[u8], path: &Path) -> Result<Cursor> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| Error::data(path, format!("not valid JSON: {e}")))?;
    let time = v
        .get("last_message_time")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned);
    let send_at = match v.get("last_send_at") {
        Some(Value::String(s)) => s.parse::<i64>().ok(),
        Some(n) => n.as_i64(),
        None => None,
    };
    let count = v.get("tail_count").and_then(Value::as_u64);
    let hash = v.get("tail_hash").and_then(Value::as_str);
    let exact = match (send_at, count, hash) {
        (Some(last_send_at), Some(n), Some(h)) if last_send_at >= 0 => Some(ExactCursor {
            last_send_at,
            tail_count: usize::try_from(n).unwrap_or(usize::MAX),
            tail_hash: h.to_owned(),
        }),
        _ => None,
    };
    let merged_chars = v.get("merged_chars").and_then(Value::as_u64);
    Ok(Cursor {
        time,
        exact,
        merged_chars,
    })
}

/// The bytes of summary.meta.json; `last_send_at` is a string because
/// nanoseconds do not fit a JSON reader's doubles.
pub fn meta_bytes(c: &Cursor) -> Vec<u8> {
    let mut m = serde_json::Map::new();
    m.insert(
        "last_message_time".into(),
        Value::String(c.time.clone().unwrap_or_default()),
    );
    if let Some(e) = &c.exact {
        m.insert(
            "last_send_at".into(),
            Value::String(e.last_send_at.to_string()),
        );
        m.insert("tail_count".into(), Value::from(e.tail_count));
        m.insert("tail_hash".into(), Value::String(e.tail_hash.clone()));
    }
    if let Some(n) = c.merged_chars {
        m.insert("merged_chars".into(), Value::from(n));
    }
    Value::Object(m).to_string().into_bytes()
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

    #[test]
    fn exact_cursor_round_trips_and_agenvoy_meta_has_none() {
        let p = Path::new("summary.meta.json");
        let c = Cursor {
            time: Some("2025-12-01 00:01:50".into()),
            exact: Some(ExactCursor {
                last_send_at: 1_764_547_310_300_000_001,
                tail_count: 2,
                tail_hash: "ab".into(),
            }),
            merged_chars: None,
        };
        assert_eq!(parse_meta(&meta_bytes(&c), p).unwrap(), c);
        let agenvoy = parse_meta(br#"{"last_message_time":"2025-12-01 00:01:50"}"#, p).unwrap();
        assert_eq!(agenvoy.exact, None);
        let untimed = Cursor {
            time: None,
            exact: Some(ExactCursor {
                last_send_at: 0,
                tail_count: 3,
                tail_hash: "cd".into(),
            }),
            merged_chars: None,
        };
        let bytes = meta_bytes(&untimed);
        assert!(String::from_utf8_lossy(&bytes).contains(r#""last_message_time":"""#));
        assert_eq!(parse_meta(&bytes, p).unwrap(), untimed);
    }
}
