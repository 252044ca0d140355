//! `history/<task>.json`: per-task provider message arrays with tool calls
//! (assistant `tool_calls`, `tool` results tied by `tool_call_id`).

use std::collections::HashSet;
use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Result};

#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct TaskStats {
    pub messages: usize,
    /// Assistant messages that carry tool calls.
    pub tool_steps: usize,
    pub tool_calls: usize,
    pub tool_results: usize,
    /// Results whose call is missing, and calls with no result.
    pub orphan_results: usize,
    pub orphan_calls: usize,
}

pub fn parse(bytes: &[u8], path: &Path) -> Result<Vec<Value>> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Array(msgs)) => Ok(msgs),
        Ok(_) => Err(Error::data(path, "task history is not a JSON array")),
        Err(e) => Err(Error::data(path, format!("not valid JSON: {e}"))),
    }
}

/// Text of a provider message's `content`: a string, or the text parts of
/// an array joined by newlines. `None` for anything else.
pub fn content_text(msg: &Value) -> Option<String> {
    match msg.get("content")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => Some(
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => None,
    }
}

pub fn call_ids(msg: &Value) -> impl Iterator<Item = &str> {
    msg.get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.get("id").and_then(Value::as_str))
}

pub fn stats(messages: &[Value]) -> TaskStats {
    let mut s = TaskStats {
        messages: messages.len(),
        ..Default::default()
    };
    let mut calls = HashSet::new();
    let mut answered = HashSet::new();
    for m in messages {
        let ids: Vec<&str> = call_ids(m).collect();
        if !ids.is_empty() {
            s.tool_steps += 1;
            s.tool_calls += ids.len();
            calls.extend(ids);
        }
        if m.get("role").and_then(Value::as_str) == Some("tool") {
            s.tool_results += 1;
            match m.get("tool_call_id").and_then(Value::as_str) {
                Some(id) if calls.contains(id) => {
                    answered.insert(id);
                }
                _ => s.orphan_results += 1,
            }
        }
    }
    s.orphan_calls = calls.len() - answered.len();
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parallel_calls_and_orphans() {
        let msgs: Vec<Value> = serde_json::from_str(
            r#"[{"role":"user","content":"q"},
                {"role":"assistant","content":"","tool_calls":[{"id":"a"},{"id":"b"}]},
                {"role":"tool","tool_call_id":"a","content":"1"},
                {"role":"tool","tool_call_id":"b","content":"2"},
                {"role":"tool","tool_call_id":"zzz","content":"3"},
                {"role":"assistant","content":"","tool_calls":[{"id":"c"}]}]"#,
        )
        .unwrap();
        let s = stats(&msgs);
        assert_eq!((s.tool_steps, s.tool_calls, s.tool_results), (2, 3, 3));
        assert_eq!((s.orphan_results, s.orphan_calls), (1, 1));
    }
}
