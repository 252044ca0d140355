//! `view`: the full-screen view over the same operations.

use clap::Args;

use super::LlmArgs;

#[derive(Debug, Args, Clone)]
pub struct ViewArgs {
    /// Open on the sessions whose id matches this glob or substring (the
    /// filter `/` edits)
    #[arg(long = "match", value_name = "TEXT")]
    pub filter: Option<String>,

    /// How `reset --mode summary`, `summarize` and the summary tab's merge
    /// reach a summarizer
    #[command(flatten)]
    pub llm: LlmArgs,

    /// The compact tab always keeps this many newest exchanges (as
    /// `compact --keep-last`; config.toml's keep_last when not given)
    #[arg(long, value_name = "N", default_value_t = crate::engine::compact::DEFAULT_KEEP_LAST)]
    pub keep_last: usize,

    /// Write even though Agenvoy seems to be running (with `--via auto`: write
    /// the files instead of going through its daemon)
    #[arg(long)]
    pub force: bool,
}
