//! Summarizer backends behind one trait: `offline` (the default: no
//! network, no key), `openai` (any OpenAI-compatible chat completions
//! server) and `anthropic`. Compaction's `tools` stage and the rolling
//! summary both go through it.

pub(crate) mod context_error;
pub mod embed;
pub(crate) mod http;
pub mod offline;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::store::history::Record;

/// Why a backend call failed: a context overflow can be retried with less.
#[derive(Debug)]
pub enum LlmError {
    /// The provider said the request is longer than the model's window.
    ContextLength(String),
    Failed(Error),
}

impl From<Error> for LlmError {
    fn from(e: Error) -> Self {
        LlmError::Failed(e)
    }
}

impl LlmError {
    pub fn into_error(self, backend: &str) -> Error {
        match self {
            LlmError::ContextLength(msg) => Error::unavailable(format!(
                "{backend}: the request exceeds the model's context window even at one record: {msg}"
            )),
            LlmError::Failed(e) => e,
        }
    }
}

/// `Send` too: the view waits for a reply on a thread it can stop
/// waiting for.
pub trait Summarizer: Send + Sync {
    fn name(&self) -> &'static str;

    /// Condense a transcript of tool steps (`[call] …`, `[result] …`,
    /// `[assistant] …`, `[context] …` lines) into text that keeps what
    /// answers `question`: numbers, paths, errors and command output
    /// verbatim (docs/agenvoy-format.md#stage-tool-history). Empty means "could not".
    fn condense_tool_steps(&self, question: &str, transcript: &str) -> Result<String>;

    /// Merge `chunk` into the rolling summary `current` and reply with the
    /// new summary (JSON, possibly wrapped; see `summarize::parse_reply`),
    /// keeping it within `summary_budget` of the conversation merged so
    /// far: `source_before` characters were merged before this chunk
    /// (`None`: unknown, an older summary; the fixed cap applies).
    /// `repair` carries the previous, invalid reply for one retry.
    fn merge_summary_within(
        &self,
        current: &Value,
        chunk: &[Record],
        repair: Option<&str>,
        source_before: Option<usize>,
    ) -> Result<String, LlmError>;
}

/// Characters of a record as the summary's source counts them.
pub fn source_chars(r: &Record) -> usize {
    r.text().chars().count()
}

/// The most characters (compact JSON) a summary of `source` characters of
/// conversation may take: a fifth of it, but never under `SUMMARY_FLOOR`
/// (a short session's few decisions must fit) nor over `SUMMARY_CAP`.
/// Unknown source size: the cap.
pub fn summary_budget(source: Option<usize>) -> usize {
    match source {
        Some(n) => (n / 5).clamp(SUMMARY_FLOOR, SUMMARY_CAP),
        None => SUMMARY_CAP,
    }
}

/// About 1,000 to 1,500 tokens: what Agenvoy injects into every request.
pub const SUMMARY_CAP: usize = 4_000;
/// Room for the schema's keys, a topic and a handful of one-line decisions.
pub const SUMMARY_FLOOR: usize = 2_000;

/// What we ask a model to do with the rolling summary (the intent of
/// Agenvoy's merge prompt, in our own words).
pub const SUMMARY_SYSTEM_PROMPT: &str = "\
You maintain the long-term memory of a conversation between a user and an assistant.
You get the current memory as JSON and a new part of the conversation. Merge them and
reply with exactly one <summary>…</summary> block holding valid JSON with these keys:
- \"key_decisions\": settled outcomes only, each a string starting with \"要：\" (the user
  wants) or \"不要：\" (the user does not want). A reversal replaces the old entry. At most 8.
- \"past_discussions\": a list of {\"topic\",\"description\",\"direction\",\"last_discussed\"
  (\"YYYY-MM-DD HH:mm\")}. The same topic replaces its old entry; no entries for greetings
  or small talk. At most 8; drop the oldest first.
- \"current_discussion\": {\"topic\",\"description\",\"perspectives\",\"direction\"}. When the
  topic changes, move the old one to past_discussions, and into key_decisions if it was
  concluded.
Every text field is one to three sentences. Keep numbers, names, paths and identifiers
exactly. Never include these instructions in the memory. Always include all three keys.";

/// The user message for one chunk: each record as `[role] text`.
pub fn summary_user_message(current: &Value, chunk: &[Record], repair: Option<&str>) -> String {
    let mut s = format!("Current memory:\n{}\n\n<conversation>\n", current);
    for r in chunk {
        let when = r
            .cursor_time()
            .map(|t| format!(" ({t})"))
            .unwrap_or_default();
        s.push_str(&format!("[{}]{when} {}\n", r.role, r.text()));
    }
    s.push_str("</conversation>\n\nMerge the conversation into the memory and reply with exactly one <summary> block.");
    if let Some(bad) = repair {
        s.push_str(&format!(
            "\n\nYour previous reply was not a valid summary (it must be one <summary> block with a JSON \
             object holding key_decisions, past_discussions and current_discussion). It was:\n{bad}\n\
             Reply again, correctly."
        ));
    }
    s
}

/// What we ask a model to do with old tool steps (Agenvoy's condensing prompt's intent).
pub const TOOLS_SYSTEM_PROMPT: &str = "\
You compress the earlier tool calls of an agent run so the agent can still answer the
user's question. Keep every fact that bears on the question: numbers, quotes, paths,
line numbers, code, error messages and command output verbatim. Drop noise (HTML,
boilerplate, failed calls), keep only the relevant fields of JSON payloads, merge
overlapping results, organise by topic or source rather than by time. Be complete rather
than brief. Reply with plain text with headings, nothing else.";
