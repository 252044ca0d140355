//! The offline summarizer: deterministic and extractive, no network.
//! `text` splits sentences, `classify` says what a sentence is (by the
//! markers in lexicon.txt), `facts` what is worth keeping, `refs` the
//! identifiers a discussion names, and `memory` folds records into the
//! summary one at a time.

mod classify;
mod facts;
mod lexicon;
pub mod memory;
mod refs;
mod subject;
pub mod text;

use serde_json::Value;

use crate::error::Result;
use crate::llm::{LlmError, Summarizer};
use crate::store::history::Record;

#[derive(Debug, Default, Clone, Copy)]
pub struct Offline;

/// Longest text kept of one tool result: head and tail, the middle cut.
const RESULT_KEEP: usize = 800;
/// Longest text kept of a call's arguments, assistant text or context.
const LINE_KEEP: usize = 300;

impl Summarizer for Offline {
    fn name(&self) -> &'static str {
        "offline"
    }

    /// Keeps every call signature and the head and tail of every result
    /// (where error messages and summaries usually sit), drops exact
    /// duplicate results, and cuts long arguments and prose.
    fn condense_tool_steps(&self, _question: &str, transcript: &str) -> Result<String> {
        let mut out = String::new();
        let mut seen_results = std::collections::HashSet::new();
        for block in split_blocks(transcript) {
            let (tag, body) = match block.find(']') {
                Some(i) if block.starts_with('[') => (&block[..=i], block[i + 1..].trim()),
                _ => ("", block.trim()),
            };
            if body.is_empty() {
                continue;
            }
            let kept = match tag {
                "[result]" => {
                    if !seen_results.insert(body) {
                        continue;
                    }
                    head_tail(body, RESULT_KEEP)
                }
                _ => head_tail(body, LINE_KEEP),
            };
            if !out.is_empty() {
                out.push('\n');
            }
            if !tag.is_empty() {
                out.push_str(tag);
                out.push(' ');
            }
            out.push_str(&kept);
        }
        Ok(out)
    }

    /// Extractive and faithful: decisions only from explicit user
    /// decisions and approvals (a later one on the same subject replaces
    /// the earlier), questions, pending items and proposals as open
    /// questions, facts (root causes, measurements, ids) in descriptions,
    /// all quoted verbatim. Each record is applied to the summary on its
    /// own, so chunking and incremental runs cannot change the result.
    /// The budget grows record by record with the source, so merging in
    /// chunks or all at once gives the same summary.
    fn merge_summary_within(
        &self,
        current: &Value,
        chunk: &[Record],
        _repair: Option<&str>,
        source_before: Option<usize>,
    ) -> Result<String, LlmError> {
        // (a summary edited by hand may hold letters whose lower case takes
        // another number of bytes, as a record may: `text::case_stable`;
        // what `memory::apply` returns holds none, so once is enough)
        let json = current.to_string();
        let start = match text::case_stable(&json) {
            std::borrow::Cow::Borrowed(_) => current.clone(),
            std::borrow::Cow::Owned(fixed) => {
                serde_json::from_str(&fixed).unwrap_or_else(|_| current.clone())
            }
        };
        let mut source = source_before;
        let merged = chunk.iter().fold(start, |summary, r| {
            source = source.map(|n| n + super::source_chars(r));
            memory::apply(&summary, r, super::summary_budget(source))
        });
        Ok(merged.to_string())
    }
}

/// Blocks start at a line beginning with a `[tag]`.
fn split_blocks(transcript: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = vec![0];
    let mut offset = 0;
    for line in transcript.split_inclusive('\n') {
        if offset > 0
            && ["[call]", "[result]", "[assistant]", "[context]"]
                .iter()
                .any(|t| line.starts_with(t))
        {
            starts.push(offset);
        }
        offset += line.len();
    }
    starts.push(transcript.len());
    starts.windows(2).map(|w| &transcript[w[0]..w[1]]).collect()
}

/// Keep about `max` characters: two thirds from the head, one third from
/// the tail, and say how much was cut.
pub fn head_tail(text: &str, max: usize) -> String {
    let chars = text.chars().count();
    if chars <= max {
        return text.to_owned();
    }
    let head = max * 2 / 3;
    let tail = max - head;
    let head_end = text.char_indices().nth(head).map_or(text.len(), |(i, _)| i);
    let tail_start = text
        .char_indices()
        .nth(chars - tail)
        .map_or(text.len(), |(i, _)| i);
    format!(
        "{}\n…[{} characters cut]…\n{}",
        &text[..head_end],
        chars - head - tail,
        &text[tail_start..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_calls_and_cuts_long_results() {
        let big = format!("START {} END", "x".repeat(5000));
        let t = format!(
            "[call] read_file({{\"path\":\"/etc/x\"}})\n[result] {big}\n\n[result] {big}\n\n[assistant] done\n"
        );
        let out = Offline.condense_tool_steps("q", &t).unwrap();
        assert!(out.contains("[call] read_file({\"path\":\"/etc/x\"})"));
        assert!(out.contains("START") && out.contains("END"));
        assert!(out.contains("characters cut"));
        assert_eq!(
            out.matches("[result]").count(),
            1,
            "duplicate results dropped"
        );
        assert!(out.len() < 1200, "{}", out.len());
        assert_eq!(
            out,
            Offline.condense_tool_steps("q", &t).unwrap(),
            "deterministic"
        );
    }

    #[test]
    fn head_tail_respects_char_boundaries() {
        let s = "日本語".repeat(100);
        let cut = head_tail(&s, 30);
        assert!(cut.starts_with("日本語") && cut.contains("270 characters cut"));
        assert_eq!(head_tail("short", 30), "short");
    }

    /// A summary edited by hand, with a Kelvin sign "K" in what the rules
    /// read back (its lower case is one byte, not three), merges as any.
    #[test]
    fn a_hand_edited_summary_with_a_kelvin_sign_merges() {
        let summary = serde_json::json!({
            "key_decisions": ["要：O\u{212A}, go with Redis for the cache"],
            "past_discussions": [],
            "current_discussion": {
                "topic": "O\u{212A}, the cache",
                "description": "",
                "perspectives": "Open: O\u{212A}, which cache?",
                "direction": "Proposed: O\u{212A}, go with Redis",
                "last_discussed": "2026-01-01 00:00",
                "focus": ["O\u{212A}, which cache?", "O\u{212A}, go with Redis"]
            }
        });
        let r: Record = serde_json::from_value(serde_json::json!({
            "role": "user", "content": "ok, go with Memcached instead", "sendAt": 1_767_225_660_000_000_000i64
        }))
        .unwrap();
        let out = Offline
            .merge_summary_within(&summary, &[r], None, Some(0))
            .unwrap();
        assert!(out.contains("Memcached"), "{out}");
    }
}
