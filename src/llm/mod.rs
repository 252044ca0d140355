//! Summarizer backends behind one trait. Compaction's `tools` stage uses
//! `condense_tool_steps`; the offline backend is the default so the tool
//! works with no network and no key.

pub mod offline;

use crate::error::Result;

pub trait Summarizer: Sync {
    fn name(&self) -> &'static str;

    /// Condense a transcript of tool steps (`[call] …`, `[result] …`,
    /// `[assistant] …`, `[context] …` lines) into text that keeps what
    /// answers `question`: numbers, paths, errors and command output
    /// verbatim (agenvoy-behaviour.md §5 step 6). An empty answer means
    /// "could not condense".
    fn condense_tool_steps(&self, question: &str, transcript: &str) -> Result<String>;
}
