//! `view`: the full-screen view over the same operations.

use clap::Args;

use super::LlmArgs;

#[derive(Debug, Args)]
pub struct ViewArgs {
    /// Open on the sessions whose id matches this glob or substring (the
    /// filter `/` edits)
    #[arg(long = "match", value_name = "TEXT")]
    pub filter: Option<String>,

    /// How `reset --mode summary`, `summarize` and the summary tab's merge
    /// reach a summarizer
    #[command(flatten)]
    pub llm: LlmArgs,

    /// Write even though Agenvoy seems to be running (with `--via auto`: write
    /// the files instead of going through its daemon)
    #[arg(long)]
    pub force: bool,
}
