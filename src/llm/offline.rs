//! The offline summarizer: deterministic and extractive, no network.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

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

    /// Extractive merge: each exchange (a user record and its replies) gets
    /// a topic from its most salient terms and becomes the current
    /// discussion; when the topic changes the previous one moves to
    /// past_discussions (same topic replaces). Settled user statements
    /// (imperatives, "always/never/must/want", 要/不要) become key
    /// decisions, a reversal replacing the old entry. Deterministic.
    fn merge_summary(
        &self,
        current: &Value,
        chunk: &[Record],
        _repair: Option<&str>,
    ) -> Result<String, LlmError> {
        let mut m: Map<String, Value> = current.as_object().cloned().unwrap_or_default();
        let mut decisions: Vec<String> = strings(m.get("key_decisions"));
        let mut past: Vec<Value> = m
            .get("past_discussions")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut cur = m.get("current_discussion").cloned().unwrap_or_else(
            || json!({"topic":"","description":"","perspectives":"","direction":""}),
        );
        let mut cur_time = String::new();

        for ex in exchanges(chunk) {
            let user_text: String = ex
                .iter()
                .filter(|r| r.is_user())
                .map(|r| r.text().into_owned())
                .collect::<Vec<_>>()
                .join("\n");
            let reply: String = ex
                .iter()
                .filter(|r| !r.is_user())
                .map(|r| r.text().into_owned())
                .collect::<Vec<_>>()
                .join("\n");
            for d in decisions_in(&user_text) {
                add_decision(&mut decisions, d);
            }
            let all = format!("{user_text}\n{reply}");
            if all.split_whitespace().count() < 4 && !all.chars().any(crate::engine::tokens::is_cjk)
            {
                continue; // greetings and acknowledgements make no topic
            }
            let topic = topic_of(&all);
            let old_topic = cur["topic"].as_str().unwrap_or("").to_owned();
            if !old_topic.is_empty() && !same_topic(&old_topic, &topic) {
                // Not known when it was last current: then at the latest
                // just before the exchange that displaced it.
                if cur_time.is_empty() {
                    if let Some(t) = ex.iter().find_map(crate::engine::summarize::cursor_of) {
                        cur_time = t[..16].to_owned();
                    }
                }
                let demoted = json!({
                    "topic": old_topic,
                    "description": cur["description"],
                    "direction": cur["direction"],
                    "last_discussed": cur_time.clone(),
                });
                past.retain(|p| !same_topic(p["topic"].as_str().unwrap_or(""), &old_topic));
                past.push(demoted);
            }
            cur = json!({
                "topic": topic,
                "description": head_tail(first_sentences(&user_text, 2).trim(), 240),
                "perspectives": "",
                "direction": head_tail(first_sentences(&reply, 2).trim(), 240),
            });
            if let Some(t) = ex
                .iter()
                .rev()
                .find_map(crate::engine::summarize::cursor_of)
            {
                cur_time = t[..16].to_owned();
            }
        }
        if past.len() > crate::engine::summarize::MAX_PAST_DISCUSSIONS {
            past.drain(..past.len() - crate::engine::summarize::MAX_PAST_DISCUSSIONS);
        }
        if decisions.len() > crate::engine::summarize::MAX_KEY_DECISIONS {
            decisions.drain(..decisions.len() - crate::engine::summarize::MAX_KEY_DECISIONS);
        }
        m.insert("key_decisions".into(), json!(decisions));
        m.insert("past_discussions".into(), Value::Array(past));
        m.insert("current_discussion".into(), cur);
        Ok(Value::Object(m).to_string())
    }
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// A user record with the replies that follow it (leading replies alone).
fn exchanges(chunk: &[Record]) -> Vec<&[Record]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=chunk.len() {
        if i == chunk.len() || chunk[i].is_user() {
            out.push(&chunk[start..i]);
            start = i;
        }
    }
    out.retain(|e| !e.is_empty());
    out
}

const STOPWORDS: &[&str] = &[
    "about", "after", "again", "also", "and", "any", "are", "because", "been", "before", "but",
    "can", "could", "does", "doing", "done", "each", "every", "from", "have", "here", "how",
    "into", "just", "like", "make", "more", "most", "much", "need", "only", "other", "over",
    "please", "should", "some", "such", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "those", "through", "use", "using", "very", "want", "what", "when",
    "where", "which", "while", "will", "with", "would", "your", "yours", "you", "keep", "days",
    "night", "them", "thanks", "sure",
];

/// The two most salient terms: frequent words of four letters or more
/// that are not stop words, and runs of CJK characters; ties go to the
/// term seen first.
fn topic_of(text: &str) -> String {
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut order = 0;
    let mut bump = |term: String| {
        order += 1;
        let e = counts.entry(term).or_insert((0, order));
        e.0 += 1;
    };
    let mut cjk = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if crate::engine::tokens::is_cjk(c) && c.is_alphabetic() {
            cjk.push(c);
            continue;
        }
        if cjk.chars().count() >= 2 {
            bump(cjk.chars().take(4).collect());
        }
        cjk.clear();
    }
    for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')) {
        let w = w.trim_matches('-').to_ascii_lowercase();
        if w.len() >= 4
            && !w.chars().all(|c| c.is_ascii_digit())
            && !STOPWORDS.contains(&w.as_str())
        {
            bump(w);
        }
    }
    let mut terms: Vec<(String, (usize, usize))> = counts.into_iter().collect();
    terms.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.1 .1.cmp(&b.1 .1)));
    terms
        .into_iter()
        .take(2)
        .map(|(t, _)| t)
        .collect::<Vec<_>>()
        .join(" / ")
}

fn same_topic(a: &str, b: &str) -> bool {
    let first = |s: &str| s.split(" / ").next().unwrap_or("").to_owned();
    !a.is_empty() && (a == b || first(a) == first(b))
}

fn first_sentences(text: &str, n: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for c in text.chars() {
        out.push(c);
        if matches!(c, '.' | '!' | '?' | '。' | '！' | '？' | '\n') {
            count += 1;
            if count == n {
                break;
            }
        }
    }
    out
}

const SETTLED: &[&str] = &[
    "always",
    "never",
    "must",
    "i want",
    "i'd like",
    "i prefer",
    "we will",
    "we'll",
    "let's",
    "decided",
    "don't",
    "do not",
    "make sure",
    "要",
    "不要",
    "請",
    "務必",
    "別",
];
const IMPERATIVES: &[&str] = &[
    "keep", "use", "add", "remove", "rotate", "set", "switch", "store", "save", "move", "delete",
    "run", "write", "avoid", "stop", "prefer", "enable", "disable", "compress", "change",
];
const NEGATIONS: &[&str] = &[
    "don't", "do not", "never", "avoid", "stop", "disable", "不要", "別", "no ",
];

/// Sentences of a user's text that state what they want or do not want.
fn decisions_in(user_text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for sentence in user_text.split(['.', '!', '\n', '。', '！']) {
        let s = sentence.trim();
        if s.is_empty() || s.ends_with('?') || s.ends_with('？') || s.len() > 400 {
            continue;
        }
        let lower = s.to_lowercase();
        let first = lower.split_whitespace().next().unwrap_or("");
        let first = first.trim_start_matches(|c: char| !c.is_alphanumeric());
        let settled = SETTLED.iter().any(|k| lower.contains(k))
            || IMPERATIVES.contains(&first)
            || lower.starts_with("and ") && IMPERATIVES.iter().any(|v| lower[4..].starts_with(v));
        if !settled {
            continue;
        }
        let mut body = s.trim_start_matches("要：").trim_start_matches("不要：");
        for conj in [
            "and ", "also ", "but ", "so ", "then ", "And ", "Also ", "But ", "So ", "Then ",
        ] {
            body = body.strip_prefix(conj).unwrap_or(body);
        }
        let negative = NEGATIONS.iter().any(|n| lower.contains(n)) || s.starts_with("不要");
        out.push(format!(
            "{}{}",
            if negative { "不要：" } else { "要：" },
            head_tail(body, 160)
        ));
    }
    out
}

/// Add a decision; the same statement (or its reversal) replaces the old.
fn add_decision(decisions: &mut Vec<String>, d: String) {
    let body = |s: &str| {
        s.trim_start_matches("要：")
            .trim_start_matches("不要：")
            .to_lowercase()
    };
    let new_body = body(&d);
    decisions.retain(|old| body(old) != new_body);
    decisions.push(d);
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
}
