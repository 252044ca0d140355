//! Options shared by the commands that write: targets, filters, write flags.

use clap::Args;

use crate::engine::reset::ResetMode;

/// The write flags of commands that keep no trash copy of what they change.
#[derive(Debug, Args, Clone, Copy)]
pub struct ChangeArgs {
    /// Print exactly what would change, change nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,

    /// Do not ask for confirmation (required when stdin is not a terminal)
    #[arg(short, long)]
    pub yes: bool,

    /// Write even though Agenvoy seems to be running, or the ToriiDB log has
    /// lines of an unknown format
    #[arg(long)]
    pub force: bool,
}

/// Which sessions a command applies to.
#[derive(Debug, Args, Clone, Default)]
pub struct Filters {
    /// Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo
    /// (a bare `m` is refused: write `min` or `mo`)
    #[arg(long, value_name = "AGE", value_parser = parse_age)]
    pub idle_for: Option<i64>,

    /// Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)
    #[arg(long, value_name = "DATE", value_parser = crate::timefmt::parse_date, conflicts_with = "idle_for")]
    pub idle_since: Option<chrono::DateTime<chrono::Utc>>,

    /// Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)
    #[arg(long, value_name = "AGE|DATE", value_parser = crate::timefmt::parse_bound)]
    pub older_than: Option<crate::timefmt::TimeBound>,

    /// Only session ids matching this glob (`*`, `?`, `[a-z]`)
    #[arg(long = "match", value_name = "GLOB")]
    pub glob: Option<String>,

    /// Only shard K of N (1-based), a stable split of ids across cron jobs or hosts
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u32, u32)>,
}

impl Filters {
    pub fn is_empty(&self) -> bool {
        !self.has_time() && self.glob.is_none() && self.shard.is_none()
    }

    /// Whether a filter needs the sessions' times.
    pub fn has_time(&self) -> bool {
        self.idle_for.is_some() || self.idle_since.is_some() || self.older_than.is_some()
    }

    /// Sessions whose last activity is at or before this are idle enough.
    pub fn idle_cutoff(
        &self,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Option<chrono::DateTime<chrono::Utc>> {
        self.idle_for
            .map(|s| crate::timefmt::TimeBound::Ago(s).cutoff(now))
            .or(self.idle_since)
    }
}

#[derive(Debug, Args)]
pub struct Targets {
    /// Session ids (folder names under sessions/)
    #[arg(value_name = "SESSION", add = clap_complete::ArgValueCompleter::new(super::meta::session_ids))]
    pub sessions: Vec<String>,

    /// Every session (narrow it with the filters)
    #[arg(long, conflicts_with = "sessions")]
    pub all: bool,

    #[command(flatten)]
    pub filters: Filters,
}

#[derive(Debug, Args, Clone, Copy, Default)]
pub struct WriteArgs {
    /// Print exactly what would change, change nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,

    /// Do not ask for confirmation (required when stdin is not a terminal)
    #[arg(short, long)]
    pub yes: bool,

    /// Delete instead of moving to sessions/.Trash
    #[arg(long)]
    pub purge: bool,

    /// Write even though Agenvoy seems to be running, or the ToriiDB log has
    /// lines of an unknown format
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct ResetArgs {
    #[command(flatten)]
    pub targets: Targets,

    /// summary: keep the rolling summary; all: delete it too
    #[arg(long, value_enum)]
    pub mode: ResetMode,

    /// With --mode summary: how the summary is refreshed before the reset
    #[command(flatten)]
    pub llm: LlmArgs,

    #[command(flatten)]
    pub write: WriteArgs,
}

pub use crate::engine::summarize::SummarizerKind;

/// How to reach a summarizer model.
#[derive(Debug, Args, Clone)]
pub struct LlmArgs {
    /// Which summarizer writes summaries and folds tool steps
    #[arg(long, value_enum, default_value = "offline")]
    pub summarizer: SummarizerKind,

    /// Base URL of the model server (e.g. a local Ollama:
    /// http://127.0.0.1:11434/v1)
    #[arg(
        long,
        visible_alias = "base-url",
        env = "SESSIONCTL_LLM_BASE_URL",
        value_name = "URL"
    )]
    pub llm_url: Option<String>,

    /// Model name to ask for
    #[arg(long, env = "SESSIONCTL_LLM_MODEL", value_name = "MODEL")]
    pub llm_model: Option<String>,

    /// Seconds to wait for one answer
    #[arg(long, default_value_t = 120, value_name = "SECS")]
    pub llm_timeout: u64,
}

impl LlmArgs {
    /// The summarizer these flags (and SESSIONCTL_LLM_API_KEY) ask for.
    pub fn spec(&self, offline: bool) -> crate::engine::summarize::SummarizerSpec {
        crate::engine::summarize::SummarizerSpec {
            kind: self.summarizer,
            url: self.llm_url.clone(),
            model: self.llm_model.clone(),
            api_key: std::env::var("SESSIONCTL_LLM_API_KEY").ok(),
            timeout: std::time::Duration::from_secs(self.llm_timeout),
            offline,
        }
    }
}

#[derive(Debug, Args)]
pub struct SummarizeArgs {
    #[command(flatten)]
    pub targets: Targets,

    /// Start from an empty summary and merge the whole archive (needs --yes
    /// without a terminal; the old summary goes to sessions/.Trash)
    #[arg(long)]
    pub rebuild: bool,

    #[command(flatten)]
    pub llm: LlmArgs,

    /// Model name to ask for, as --llm-model ('summarize --summarizer openai
    /// --base-url URL --model NAME')
    #[arg(long, value_name = "MODEL", conflicts_with = "llm_model")]
    pub model: Option<String>,

    /// Characters per chunk sent to the summarizer
    #[arg(long, default_value_t = crate::engine::summarize::DEFAULT_CHUNK_CHARS, value_name = "N")]
    pub chunk_chars: usize,

    /// Save a reply that failed validation twice to this file
    #[arg(long, value_name = "FILE")]
    pub keep_failed: Option<std::path::PathBuf>,

    /// Print what would be merged, change nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,

    /// Do not ask for confirmation of --rebuild
    #[arg(short, long)]
    pub yes: bool,

    /// Write even though Agenvoy seems to be running
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct CompactArgs {
    #[command(flatten)]
    pub targets: Targets,

    /// The model whose window sets the budget [default: the session's config.json model]
    #[arg(long, value_name = "AGENT", add = clap_complete::ArgValueCompleter::new(super::meta::agents))]
    pub model: Option<String>,

    /// Token budget, instead of 80% of the model's window
    #[arg(long, value_name = "TOKENS")]
    pub budget: Option<u64>,

    /// Byte cap of history.json (Agenvoy's max_history_bytes)
    #[arg(long, value_name = "N", default_value_t = crate::engine::compact::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,

    /// Always keep this many newest exchanges of history.json
    #[arg(long, value_name = "N", default_value_t = crate::engine::compact::DEFAULT_KEEP_LAST)]
    pub keep_last: usize,

    /// Merge the records that leave history.json into summary.json first, so
    /// the model keeps their gist (the summary is otherwise untouched)
    #[arg(long)]
    pub fold: bool,

    #[command(flatten)]
    pub llm: LlmArgs,

    /// The session moves to this model: rewrite its tool histories as plain
    /// text the new model can read, budget for that model, and set it as
    /// config.json's model when the session is rewritten
    #[arg(long, value_name = "AGENT", add = clap_complete::ArgValueCompleter::new(super::meta::agents))]
    pub for_model: Option<String>,

    /// Print exactly what would change, change nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,

    /// Do not ask for confirmation (required when stdin is not a terminal)
    #[arg(short, long)]
    pub yes: bool,

    /// Write even though Agenvoy seems to be running
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct RemoveArgs {
    #[command(flatten)]
    pub targets: Targets,

    #[command(flatten)]
    pub write: WriteArgs,
}

pub(crate) fn parse_age(s: &str) -> Result<i64, String> {
    crate::timefmt::parse_duration(s)
}

fn parse_shard(s: &str) -> Result<(u32, u32), String> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| format!("shard {s:?} must look like K/N, e.g. 1/4"))?;
    let k: u32 = k
        .parse()
        .map_err(|_| format!("shard {s:?}: K is not a number"))?;
    let n: u32 = n
        .parse()
        .map_err(|_| format!("shard {s:?}: N is not a number"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("shard {s:?}: need 1 <= K <= N"));
    }
    Ok((k, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards() {
        assert_eq!(parse_shard("1/4"), Ok((1, 4)));
        assert!(parse_shard("0/4").is_err());
        assert!(parse_shard("5/4").is_err());
        assert!(parse_shard("x").is_err());
    }
}
