//! Options of the commands that only read: sessions list, show, search, check.

use clap::{Args, Subcommand};

use super::{EmbedArgs, Filters, MatchMode};

#[derive(Debug, Subcommand)]
pub enum SessionsCommand {
    /// List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget
    #[command(
        visible_alias = "ls",
        after_help = "\
Examples:
  sessionctl sessions list
  sessionctl sessions list --sort last --reverse --limit 10
  sessionctl sessions list --sort used --reverse --limit 5   # nearest their budget
  sessionctl sessions list --idle-for 30d --json | jq -r '.results[].session'"
    )]
    List(ListArgs),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Sessions to check [default: all, and the shared stores]
    #[arg(value_name = "SESSION", add = clap_complete::ArgValueCompleter::new(super::meta::session_ids))]
    pub sessions: Vec<String>,
    /// Every session and the shared stores (the default when none is named)
    #[arg(long, conflicts_with = "sessions")]
    pub all: bool,
    /// Fix what is safe to fix (needs --yes without a terminal)
    #[arg(long)]
    pub repair: bool,
    /// With --repair: say what would be repaired, change nothing
    #[arg(short = 'n', long, requires = "repair")]
    pub dry_run: bool,
    /// With --repair: do not ask
    #[arg(short, long)]
    pub yes: bool,
    /// Repair even though Agenvoy seems to be running
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// What to look for: words (all must occur) and "quoted phrases"; by meaning with --by semantic
    pub query: String,
    /// Sessions to search [default: all]
    #[arg(value_name = "SESSION", add = clap_complete::ArgValueCompleter::new(super::meta::session_ids))]
    pub sessions: Vec<String>,
    /// Every session (the default when none is named)
    #[arg(long, conflicts_with = "sessions")]
    pub all: bool,
    /// How to search [default: semantic where a query vector can be had (embedding cache or
    /// SESSIONCTL_EMBED_BASE_URL), else keyword]
    #[arg(long, value_enum, value_name = "HOW")]
    pub by: Option<MatchMode>,
    /// Only messages of this role
    #[arg(long, value_parser = ["user", "assistant"])]
    pub role: Option<String>,
    /// Only messages newer than this: an age (7d, 12h) or a date (2025-10-01)
    #[arg(long, value_name = "AGE|DATE", value_parser = crate::timefmt::parse_bound)]
    pub since: Option<crate::timefmt::TimeBound>,
    /// At most this many results
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
    /// Pass the query to FTS5 as it is (keyword search)
    #[arg(long)]
    pub fts: bool,
    #[command(flatten)]
    pub embed: EmbedArgs,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub filters: Filters,

    /// Order by this column (ties by session id)
    #[arg(long, value_enum, default_value_t = SortBy::Session, value_name = "COLUMN")]
    pub sort: SortBy,

    /// Largest, newest or last first
    #[arg(long)]
    pub reverse: bool,

    /// At most this many rows (after sorting)
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
}

/// Columns `sessions list` sorts by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SortBy {
    Session,
    Records,
    Tokens,
    Size,
    /// Last activity
    Last,
    /// Age of the rolling summary
    Summary,
    /// ToriiDB keys
    Keys,
    Archived,
    /// Share of the model's budget history.json uses
    Used,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Session id
    #[arg(add = clap_complete::ArgValueCompleter::new(super::meta::session_ids))]
    pub session: String,
    /// Print the rolling summary (key decisions, discussions, the current one) and how
    /// many records it lags behind the conversation
    #[arg(long)]
    pub summary: bool,
}
