//! The rolling summary (docs/agenvoy-format.md#rolling-summary).
//!
//! Incremental: every record after the cursor is merged, not only the last
//! 24 (Agenvoy's window loses records between cron passes), and records
//! compact moved to the archive are merged too (`stream`); the cursor says
//! exactly where the merge stopped (`cursor`). Records are chunked by ≤
//! `chunk_chars` characters, a user record always with its reply; after each
//! merged chunk the caller persists summary.json and the cursor, so a
//! failure leaves the last good state and a rerun continues.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::Result;
use crate::llm::{LlmError, Summarizer};
use crate::store::history::Record;

pub const DEFAULT_CHUNK_CHARS: usize = 32_000;
pub const MAX_KEY_DECISIONS: usize = 8;
pub const MAX_PAST_DISCUSSIONS: usize = 8;

mod backend;
pub mod cursor;
pub mod op;
mod refresh;
pub mod stream;
mod up_to_date;

pub use backend::{summarizer, SummarizerKind, SummarizerSpec};
pub use refresh::{fold_records, pending, refresh, Failure};

/// Local time of a sendAt as Agenvoy writes its cursor: `YYYY-MM-DD HH:MM:SS`.
pub fn local_time(ns: i64) -> String {
    crate::timefmt::local(crate::timefmt::from_nanos(ns))
}

/// A record's local time, as Agenvoy's cursor compares it; none without a sendAt.
pub fn cursor_of(r: &Record) -> Option<String> {
    r.cursor_time()
}

/// Greedy chunks of at most `max_chars` characters (at least one record);
/// a chunk that would end on a user record takes its reply along.
pub fn chunks(records: &[Record], max_chars: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < records.len() {
        let mut end = start;
        let mut chars = 0;
        while end < records.len() {
            let n = records[end].text().chars().count();
            if end > start && chars + n > max_chars {
                break;
            }
            chars += n;
            end += 1;
        }
        if end < records.len() && records[end - 1].is_user() {
            end += 1;
        }
        out.push(start..end);
        start = end;
    }
    out
}

/// Pull the summary object out of a model's reply: a ```json or ```summary
/// fence, a `<summary>` block, a `[summary]` block, or from the first `{`.
pub fn parse_reply(reply: &str) -> Option<Map<String, Value>> {
    let fenced = ["```json", "```summary"].iter().find_map(|open| {
        let start = reply.find(open)? + open.len();
        let end = reply[start..].find("```")? + start;
        Some(&reply[start..end])
    });
    let tagged = |open: &str, close: &str| {
        let start = reply.find(open)? + open.len();
        let end = reply[start..].find(close)? + start;
        Some(&reply[start..end])
    };
    let candidates = [
        fenced,
        tagged("<summary>", "</summary>"),
        tagged("[summary]", "[/summary]"),
        reply.find('{').map(|i| &reply[i..]),
    ];
    for c in candidates.into_iter().flatten() {
        if let Ok(Value::Object(m)) = serde_json::from_str::<Value>(c.trim()) {
            if crate::store::summary::is_valid(&m) {
                return Some(m);
            }
        }
        // a trailing explanation after the object: cut at the last '}'
        if let Some(end) = c.rfind('}') {
            if let Ok(Value::Object(m)) = serde_json::from_str::<Value>(c[..=end].trim()) {
                if crate::store::summary::is_valid(&m) {
                    return Some(m);
                }
            }
        }
    }
    None
}

/// Enforce the schema's bounds: at most 8 key decisions (the newest, which
/// come last) and 8 past discussions (the oldest dropped first), and every
/// current key present.
pub fn normalize(mut m: Map<String, Value>) -> Map<String, Value> {
    let legacy = m.contains_key("core_discussion");
    for (key, max) in [
        ("key_decisions", MAX_KEY_DECISIONS),
        ("past_discussions", MAX_PAST_DISCUSSIONS),
    ] {
        match m.get_mut(key) {
            Some(Value::Array(a)) if a.len() > max => {
                let drop = a.len() - max;
                a.drain(..drop);
            }
            Some(Value::Array(_)) => {}
            _ if legacy => {} // legacy schema: leave it be
            _ => {
                m.insert(key.into(), Value::Array(Vec::new()));
            }
        }
    }
    if !m.contains_key("current_discussion") && !m.contains_key("core_discussion") {
        m.insert(
            "current_discussion".into(),
            serde_json::json!({"topic":"","description":"","perspectives":"","direction":""}),
        );
    }
    m
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Outcome {
    /// Records merged into the summary.
    pub count: usize,
    pub chunks: usize,
    pub cursor_before: Option<String>,
    pub cursor_after: Option<String>,
    /// Provider errors that said the chunk was too long (to learn from).
    #[serde(skip)]
    pub context_errors: Vec<String>,
    /// The raw reply of a chunk that failed validation twice.
    #[serde(skip)]
    pub failed_reply: Option<String>,
    /// A summary from before cursors: only its cursor is (or would be)
    /// written, nothing is merged.
    #[serde(skip)]
    pub cursor_only: bool,
}

/// Persists a merged summary after the first `merged` records; returns the
/// cursor to show.
pub type Save<'a> = dyn FnMut(&Map<String, Value>, usize) -> Result<Option<String>> + 'a;

/// Merge `records` into `summary`, chunk by chunk. `save` is called after
/// each merged chunk with the new summary and how many records are merged
/// so far; an error stops the merge with everything before it saved.
/// `source_before`: characters of conversation merged into `summary`
/// before `records` (None: unknown), for the summary's size budget.
pub fn merge(
    summary: &mut Map<String, Value>,
    records: &[Record],
    summarizer: &dyn Summarizer,
    chunk_chars: usize,
    source_before: Option<usize>,
    outcome: &mut Outcome,
    save: &mut Save<'_>,
) -> Result<()> {
    let mut pending: Vec<std::ops::Range<usize>> =
        chunks(records, chunk_chars).into_iter().rev().collect();
    let upto = source_prefix(records);
    while let Some(range) = pending.pop() {
        let chunk = &records[range.clone()];
        let current = Value::Object(summary.clone());
        let before = source_before.map(|b| b + upto[range.start]);
        let reply = match summarizer.merge_summary_within(&current, chunk, None, before) {
            Ok(r) => r,
            Err(LlmError::ContextLength(msg)) if chunk.len() > 1 => {
                // Too long for the model: learn from it and halve the chunk.
                outcome.context_errors.push(msg);
                let half = range.start + split_point(chunk);
                pending.push(half..range.end);
                pending.push(range.start..half);
                continue;
            }
            Err(e) => return Err(e.into_error(summarizer.name())),
        };
        let merged = match parse_reply(&reply) {
            Some(m) => m,
            None => {
                let retry = summarizer
                    .merge_summary_within(&current, chunk, Some(&reply), before)
                    .map_err(|e| e.into_error(summarizer.name()))?;
                match parse_reply(&retry) {
                    Some(m) => m,
                    None => {
                        outcome.failed_reply = Some(retry);
                        return Err(crate::Error::data(
                            format!("<{} reply>", summarizer.name()),
                            "the summarizer's reply is not a valid summary, even after a repair request",
                        )
                        .with_hint("summary.json was left as it was; --keep-failed FILE saves the reply"));
                    }
                }
            }
        };
        *summary = normalize(merged);
        let shown = save(summary, range.end)?;
        outcome.count += chunk.len();
        outcome.chunks += 1;
        outcome.cursor_after = shown.or(outcome.cursor_after.take());
    }
    Ok(())
}

/// `upto[i]`: characters of `records[..i]` as the summary budget counts them.
pub fn source_prefix(records: &[Record]) -> Vec<usize> {
    let mut upto = Vec::with_capacity(records.len() + 1);
    upto.push(0);
    for r in records {
        upto.push(upto.last().copied().unwrap_or(0) + crate::llm::source_chars(r));
    }
    upto
}

/// Halve a chunk without separating a user record from its reply.
fn split_point(chunk: &[Record]) -> usize {
    let mut half = chunk.len() / 2;
    if half > 0 && chunk[half - 1].is_user() && half < chunk.len() - 1 {
        half += 1;
    }
    half.clamp(1, chunk.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec(role: &str, text: &str, t: i64) -> Record {
        serde_json::from_value(json!({"role": role, "content": text, "sendAt": t})).unwrap()
    }

    #[test]
    fn chunks_keep_replies_with_questions() {
        let rs: Vec<Record> = (0..10)
            .map(|i| {
                rec(
                    if i % 2 == 0 { "user" } else { "assistant" },
                    &"x".repeat(100),
                    i,
                )
            })
            .collect();
        let cs = chunks(&rs, 250);
        assert!(
            cs.iter()
                .all(|c| !rs[c.end - 1].is_user() || c.end == rs.len()),
            "{cs:?}"
        );
        assert_eq!(cs.iter().map(|c| c.len()).sum::<usize>(), 10);
        // a single record larger than the limit still makes progress
        let big = vec![rec("assistant", &"y".repeat(1000), 1)];
        assert_eq!(chunks(&big, 10), vec![0..1]);
        // the 32K boundary
        let rs = vec![
            rec("assistant", &"a".repeat(32_000), 1),
            rec("assistant", "b", 2),
        ];
        assert_eq!(chunks(&rs, DEFAULT_CHUNK_CHARS), vec![0..1, 1..2]);
    }

    #[test]
    fn replies_in_every_wrapping() {
        let obj =
            r#"{"key_decisions":[],"past_discussions":[],"current_discussion":{"topic":"t"}}"#;
        for reply in [
            format!("<summary>{obj}</summary>"),
            format!("Here you go:\n```json\n{obj}\n```\nthanks"),
            format!("[summary]{obj}[/summary]"),
            format!("sure! {obj} hope this helps"),
        ] {
            assert!(parse_reply(&reply).is_some(), "{reply}");
        }
        assert!(parse_reply("no json here").is_none());
        assert!(
            parse_reply(r#"{"key_decisions":[]}"#).is_none(),
            "one key is not a summary"
        );
    }

    #[test]
    fn normalize_bounds_the_lists() {
        let m: Map<String, Value> = serde_json::from_value(json!({
            "key_decisions": (0..12).map(|i| format!("要：{i}")).collect::<Vec<_>>(),
            "past_discussions": (0..10).map(|i| json!({"topic": i})).collect::<Vec<_>>()
        }))
        .unwrap();
        let n = normalize(m);
        assert_eq!(n["key_decisions"].as_array().unwrap().len(), 8);
        assert_eq!(n["key_decisions"][0], "要：4", "the oldest go first");
        assert_eq!(n["past_discussions"][0]["topic"], 2);
        assert!(n.contains_key("current_discussion"));
    }
}
