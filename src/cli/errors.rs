//! Options of `errors` (the cross-session error memory).

use clap::{Args, Subcommand};

use super::ChangeArgs;

#[derive(Debug, Subcommand)]
pub enum ErrorsCommand {
    /// List error-memory records (expired ones only with --expired)
    #[command(
        after_help = "Examples:\n  sessionctl errors list --tool run_command\n  sessionctl errors list --expired --sort expires --json"
    )]
    List(ErrorsListArgs),
    /// Show one record: every field, TTL left, whether it has a vector
    Show(ErrorsShowArgs),
    /// Rewrite a record's action (and optionally cause/keywords), keeping its TTL
    #[command(after_help = "\
Appends one SET line with the same key and the same expire_at (so the 90-day TTL is
kept); --touch restarts it, as a lookup hit does. The stored vector no longer matches
the text, so it is dropped, or re-embedded when SESSIONCTL_EMBED_BASE_URL is set.
An expired record is gone for Agenvoy (and ToriiDB drops it at its next rewrite), so
editing one is refused (exit 66) unless --touch asks to revive it for 90 days.
Recorded in `sessionctl log`; `sessionctl undo` puts the previous record back, with
its original expiry and vector.

Examples:
  sessionctl errors edit 3f1c --action 'retry with timeout 120s' --yes
  sessionctl errors edit 9a2b --action - --yes < fix.txt")]
    Edit(ErrorsEditArgs),
    /// Remove expired records and records whose outcome is not `resolved`
    #[command(
        after_help = "Recorded in `sessionctl log`; `sessionctl undo` puts the pruned records back with their original expiry."
    )]
    Prune(ErrorsPruneArgs),
    /// What an agent would get as related_errors for a query
    #[command(after_help = "\
keyword: case-insensitive Contains over tool, symptom, cause and keywords (Agenvoy's).
semantic: cosine over stored vectors; the query vector comes from ToriiDB's embedding
cache or SESSIONCTL_EMBED_BASE_URL (text-embedding-3-small, the store's dimension).
Without an embedder it says so on stderr and searches by keyword.

Example:
  sessionctl errors search 'permission denied' --tool run_command")]
    Search(ErrorsSearchArgs),
}

#[derive(Debug, Args)]
pub struct ErrorsListArgs {
    /// Only this tool
    #[arg(long)]
    pub tool: Option<String>,
    /// Only records with a keyword containing this
    #[arg(long)]
    pub keyword: Option<String>,
    /// Only this outcome (resolved, failed, …)
    #[arg(long)]
    pub outcome: Option<String>,
    /// Include expired records
    #[arg(long)]
    pub expired: bool,
    #[arg(long, value_enum, default_value = "age")]
    pub sort: crate::engine::error_memory::Sort,
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
}

#[derive(Debug, Args)]
pub struct ErrorsShowArgs {
    /// A record's key (tool:nanos) or a unique prefix of its id
    #[arg(add = clap_complete::ArgValueCompleter::new(super::meta::error_ids))]
    pub id: String,
}

#[derive(Debug, Args)]
pub struct EmbedArgs {
    /// OpenAI-compatible embeddings server [env: SESSIONCTL_EMBED_BASE_URL]
    #[arg(long, value_name = "URL")]
    pub embed_url: Option<String>,
    /// Embedding model [env: SESSIONCTL_EMBED_MODEL; default: text-embedding-3-small]
    #[arg(long, value_name = "MODEL")]
    pub embed_model: Option<String>,
}

#[derive(Debug, Args)]
pub struct ErrorsEditArgs {
    /// A record's key (tool:nanos) or a unique prefix of its id
    #[arg(add = clap_complete::ArgValueCompleter::new(super::meta::error_ids))]
    pub id: String,
    /// The new action; - reads it from stdin; without it, $EDITOR on a terminal
    #[arg(long)]
    pub action: Option<String>,
    /// The new cause (what was behind the failure)
    #[arg(long)]
    pub cause: Option<String>,
    /// Replace the keywords (comma-separated)
    #[arg(long, value_delimiter = ',')]
    pub keywords: Option<Vec<String>>,
    /// Restart the 90-day TTL instead of keeping it (also revives an expired record)
    #[arg(long)]
    pub touch: bool,
    #[command(flatten)]
    pub embed: EmbedArgs,
    #[command(flatten)]
    pub write: ChangeArgs,
}

#[derive(Debug, Args)]
pub struct ErrorsPruneArgs {
    /// Remove expired records (default: both kinds)
    #[arg(long)]
    pub expired: bool,
    /// Remove records whose outcome is not `resolved` (default: both kinds)
    #[arg(long)]
    pub not_resolved: bool,
    #[command(flatten)]
    pub write: ChangeArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MatchMode {
    Semantic,
    Keyword,
}

#[derive(Debug, Args)]
pub struct ErrorsSearchArgs {
    /// What a failing tool call would look up: words of its error, or a symptom
    pub query: String,
    /// How to search: keyword (Agenvoy's Contains rule) or semantic (vectors)
    #[arg(long, value_enum, default_value = "keyword", value_name = "HOW")]
    pub by: MatchMode,
    /// Only records of this tool (Agenvoy's `<tool>:*` pattern)
    #[arg(long)]
    pub tool: Option<String>,
    /// At most this many records (an agent gets 3)
    #[arg(long, default_value_t = 3)]
    pub limit: usize,
    /// Refresh the 90-day TTL of what is returned, as an agent's lookup does
    /// (a write: needs --yes without a terminal)
    #[arg(long)]
    pub touch_hits: bool,
    /// With --touch-hits: do not ask
    #[arg(short, long)]
    pub yes: bool,
    /// Write even though Agenvoy seems to be running (with --touch-hits)
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub embed: EmbedArgs,
}
