//! The command line, defined once: `--help`, the shell completions in
//! `completions/` and the man page in `man/` are all generated from here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::engine::reset::ResetMode;

const AFTER_HELP: &str = "\
Exit codes: 0 ok, 1 findings, 64 usage, 65 bad data, 66 no such session or root,
69 service unavailable, 73 cannot write, 75 locked or Agenvoy running (retry later).

Examples:
  sessionctl sessions list --idle-for 30d
  sessionctl show tui-alice
  sessionctl reset tui-alice --mode summary --dry-run
  sessionctl remove --all --idle-for 90d --yes --json";

#[derive(Debug, Parser)]
#[command(
    name = "sessionctl",
    version = crate::VERSION,
    about = "Maintenance for Agenvoy session stores: history.json, ToriiDB, the SQLite archive and summary.json",
    long_about = "Maintenance for Agenvoy session stores.\n\n\
        A conversation lives in four tiers under the data root: sessions/<id>/history.json \
        (recent turns), the ToriiDB store .store/db_N (vector-indexed recent messages, \
        cross-session error memory), the SQLite archive .store/history.db (every message), \
        and sessions/<id>/summary.json (the rolling summary). sessionctl inspects them and \
        runs one maintenance operation at a time, safely: destructive commands take --dry-run, \
        need --yes without a terminal, keep what they take away in sessions/.Trash, and \
        refuse to write while Agenvoy runs.",
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// The Agenvoy data root [default: ~/.config/agenvoy]
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "AGENVOY_HOME",
        value_name = "DIR"
    )]
    pub root: Option<PathBuf>,

    /// Print JSON for scripts instead of tables
    #[arg(long, global = true, help_heading = "Global options")]
    pub json: bool,

    /// Print nothing but errors
    #[arg(short, long, global = true, help_heading = "Global options")]
    pub quiet: bool,

    /// Say more about what is happening (on stderr)
    #[arg(short, long, global = true, help_heading = "Global options")]
    pub verbose: bool,

    /// Never use the network (the window table comes from the cache or the
    /// built-in copy)
    #[arg(long, global = true, help_heading = "Global options", env = "SESSIONCTL_OFFLINE", value_parser = clap::builder::FalseyValueParser::new())]
    pub offline: bool,

    /// Append one NDJSON line per run to FILE (time, command line, exit code, sessions
    /// changed and failed); its folder is created. For cron jobs.
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "SESSIONCTL_LOG",
        value_name = "FILE"
    )]
    pub log: Option<PathBuf>,

    /// When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never
    #[arg(long, global = true, help_heading = "Global options", value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,

    /// The same as --color never
    #[arg(long, global = true, help_heading = "Global options", hide = true)]
    pub no_color: bool,
}

impl Cli {
    /// The command as scripts see it in the JSON envelope and the run log.
    pub fn command_name(&self) -> &'static str {
        match &self.command {
            Command::Sessions(SessionsCommand::List(_)) => "sessions list",
            Command::Show(_) => "show",
            Command::Reset(_) => "reset",
            Command::Remove(_) => "remove",
            Command::Compact(_) => "compact",
            Command::Summarize(_) => "summarize",
            Command::Search(_) => "search",
            Command::Check(_) => "check",
            Command::Errors(ErrorsCommand::List(_)) => "errors list",
            Command::Errors(ErrorsCommand::Show(_)) => "errors show",
            Command::Errors(ErrorsCommand::Edit(_)) => "errors edit",
            Command::Errors(ErrorsCommand::Prune(_)) => "errors prune",
            Command::Errors(ErrorsCommand::Search(_)) => "errors search",
            Command::Limits(LimitsCommand::Refresh(_)) => "limits refresh",
            Command::Limits(LimitsCommand::Show(_)) => "limits show",
            Command::Limits(LimitsCommand::Learn(_)) => "limits learn",
        }
    }

    pub fn dry_run(&self) -> bool {
        match &self.command {
            Command::Reset(a) => a.write.dry_run,
            Command::Remove(a) => a.write.dry_run,
            Command::Compact(a) => a.dry_run,
            Command::Summarize(a) => a.dry_run,
            Command::Errors(ErrorsCommand::Edit(a)) => a.write.dry_run,
            Command::Errors(ErrorsCommand::Prune(a)) => a.write.dry_run,
            _ => false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    /// `NO_COLOR` with any non-empty value turns colour off (no-color.org);
    /// `--color always` wins over it, as an explicit flag should.
    pub fn enabled(self, tty: bool, no_color_env: Option<&std::ffi::OsStr>) -> bool {
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => tty && no_color_env.is_none_or(|v| v.is_empty()),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Work with the set of sessions under the root
    #[command(subcommand)]
    Sessions(SessionsCommand),

    /// Show every tier of one session side by side
    #[command(after_help = "Example:\n  sessionctl show tui-alice --json")]
    Show(ShowArgs),

    /// Clear a session's conversation (history, ToriiDB keys, archive rows)
    #[command(after_help = "\
What each mode clears (product table):
  --mode summary   history.json, history/, pending/, action.log, ToriiDB db1 <id>:* keys,
                   archive messages + session_meta. summary.json and its cursor are KEPT.
  --mode all       the same, and summary.json + summary.meta.json too.
With --mode summary the rolling summary is first brought up to date (as Agenvoy does);
if that fails, the reset is aborted and nothing is cleared.
Never touched: usage.log, config.json, bot.md, status.json, .history, other sessions,
the error memory (db2) and file_history.

What is taken away is moved to sessions/.Trash/<id>_<stamp>/ (files, archive.jsonl,
torii-db1.jsonl) unless --purge.

Examples:
  sessionctl reset tui-alice --mode summary --dry-run
  sessionctl reset --all --idle-for 60d --mode all --yes")]
    Reset(ResetArgs),

    /// Bring sessions back under their model's token budget, losing nothing
    #[command(after_help = "\
Budget: 80% of the model's context window (see `limits show`), or --budget.
With --fold, the records that leave history.json are merged into summary.json first. A session is
compacted when its tokens (history.json + summary + its largest task history) exceed the
budget, or history.json exceeds --max-bytes; it is then brought to 80% of the limit that
triggered, so the next run is a no-op. Stages, as far as needed:
  tools      fold the oldest tool steps of task histories into one text message
  trim       drop the oldest exchanges of history.json (never the newest --keep-last),
             then the oldest task-history messages and tool steps with their results
  raw-tools  with --for-model: rewrite task histories as plain text for the new model;
             a session rewritten this way is moved to it (config.json \"model\", first)
Every record that leaves history.json is first inserted into the SQLite archive if it
is missing; ToriiDB db1 keys older than the first remaining record are removed;
session_meta.start_at moves to it. summary.json is untouched.

Examples:
  sessionctl compact tui-alice --dry-run
  sessionctl compact --all --yes --json          # the nightly cron job
  sessionctl compact tui-alice --for-model ollama@qwen3 --yes")]
    Compact(CompactArgs),

    /// Merge new records into each session's rolling summary (summary.json)
    #[command(after_help = "\
Incremental by default: every record after the cursor in summary.meta.json is merged
(not only the last 24, as Agenvoy does), in chunks of --chunk-chars characters with a
user record always next to its reply. summary.json and the cursor are saved after each
chunk, so an interrupted run resumes where it stopped. --rebuild starts from {} and
merges the whole archive, then what is not archived yet.

Summarizers: offline (default; deterministic, no network), openai (any OpenAI-compatible
/v1/chat/completions: OpenAI, Ollama, vLLM, llama.cpp, OpenRouter, DeepSeek), anthropic.
Configure with SESSIONCTL_LLM_BASE_URL, SESSIONCTL_LLM_MODEL, SESSIONCTL_LLM_API_KEY
(or --llm-url/--llm-model). The key is never printed.

Examples:
  sessionctl summarize --all
  SESSIONCTL_LLM_BASE_URL=http://127.0.0.1:11434 sessionctl summarize tui-alice --summarizer openai --llm-model qwen3")]
    Summarize(SummarizeArgs),

    /// Search conversations: by meaning (ToriiDB vectors) or by words (archive + recent)
    #[command(after_help = "\
--by semantic: cosine over the vectors ToriiDB keeps for recent messages (db1); the
query vector comes from ToriiDB's embedding cache or SESSIONCTL_EMBED_BASE_URL.
--by keyword: full-text search of the SQLite archive (FTS5) plus a case-insensitive
scan of recent messages in ToriiDB. Every word must occur; \"quote\" a phrase; --fts passes
FTS5 syntax through (e.g. 'nginx OR logrotate', 'rot*').
Without --by: semantic when a query vector can be had, else keyword (no network needed).
RELEVANCE is relative to the best hit of the search (100%); JSON also has the raw score
(bm25 for the archive, cosine for vectors).

Examples:
  sessionctl search 'nginx logrotate' --by keyword   # both words
  sessionctl search '\"log rotation\"' --by keyword    # the phrase
  sessionctl search 'what did we decide about backups' tui-alice --since 30d")]
    Search(SearchArgs),

    /// Cross-session error memory (ToriiDB db 2): list, show, edit, prune, search
    #[command(subcommand)]
    Errors(ErrorsCommand),

    /// Verify every tier; --repair fixes what is safe to fix
    #[command(after_help = "\
Reports, per session and for the shared stores: files that do not parse; history records
missing from the archive; archive rows and ToriiDB keys whose session folder is gone;
session_meta.start_at past the first record of history.json; FTS5 integrity-check
failures; ToriiDB lines over 64 KiB (ToriiDB loads such a log as EMPTY and deletes it when
Agenvoy exits), torn last lines and malformed lines; orphan tool calls and results in
task histories; invalid summary.json.

--repair fixes only what is safe and says what it did: it inserts missing archive rows,
cuts a torn last line off a ToriiDB log (kept beside it), rewrites a log ToriiDB cannot
read without its over-long entries (kept beside it), and rebuilds the FTS index. It never
deletes user text.

Exit codes: 0 clean, 1 findings, 65 something could not be read.")]
    Check(CheckArgs),

    /// Context windows and compaction budgets of the models sessions use
    #[command(subcommand)]
    Limits(LimitsCommand),

    /// Remove sessions entirely: folder, ToriiDB keys and archive rows
    #[command(
        visible_alias = "rm",
        after_help = "\
The folder moves to sessions/.Trash/<id>_<stamp>/ (Agenvoy's trash layout) with the
session's archive rows and ToriiDB entries saved beside its files, so it can be
restored; --purge deletes instead. A session whose folder is already gone but whose
rows or keys remain (an interrupted remove) is cleaned up too.

Examples:
  sessionctl remove temp-123 --dry-run
  sessionctl remove --all --match 'temp-*' --idle-for 7d --yes"
    )]
    Remove(RemoveArgs),
}

#[derive(Debug, Subcommand)]
pub enum SessionsCommand {
    /// List sessions: records, tokens, size, last activity, summary, keys, archive
    #[command(
        visible_alias = "ls",
        after_help = "\
Examples:
  sessionctl sessions list
  sessionctl sessions list --sort last --reverse --limit 10
  sessionctl sessions list --idle-for 30d --json | jq -r '.results[].session'"
    )]
    List(ListArgs),
}

#[derive(Debug, Subcommand)]
pub enum LimitsCommand {
    /// Fetch a context-window table and merge it into the cache
    #[command(after_help = "\
The cache is <root>/.sessionctl/limits.json. A fetched table is merged into it: models
the source lists are updated, models it lacks keep their entry (built-in or from an
earlier source). A smaller window than the cached one (a shrink) is asked about on a
terminal; --yes applies it; without a terminal and without --yes it is kept at the old
value and reported (JSON: \"shrinks\", \"shrinks_applied\": false). --dry-run writes nothing.
Commands that need a window refresh the cache themselves when it is older than an hour
(5 s timeout; after a failure nobody fetches for 5 minutes), never applying shrinks;
--offline never fetches. A bad answer never replaces a good cache: exit 69 when the
source is unreachable or answers an HTTP error, 65 when the answer is empty, not JSON
or wrongly shaped.

Examples:
  sessionctl limits refresh
  sessionctl limits refresh --source litellm --dry-run
  sessionctl limits refresh --source litellm --yes
  sessionctl limits refresh --source copilot --token-env COPILOT_TOKEN")]
    Refresh(RefreshArgs),

    /// Show window, source and budget for agents (default: those the sessions use)
    #[command(after_help = "\
Sources, in the order they are tried: fixed (deepseek@deepseek-flash); learned (from an
overflow error, when smaller than what is known); session-config (the num_ctx of a local
runtime or compat@ server from the session's config.json: options.num_ctx, limits.num_ctx,
num_ctx or n_ctx); table (vendor table, names matched across spellings: claude-opus-4.7 finds
claude-opus-4-7); copilot (Copilot's /models max_prompt_tokens, then the copilot table);
local-default (4,096 for ollama, llama.cpp, lmstudio, and compat on a localhost base_url);
fallback (128,000, with a warning). Budget = 80% of the window. Without AGENT names,
every session's model is shown with the sessions using it.

Examples:
  sessionctl limits show
  sessionctl limits show claude@claude-sonnet-4-5 openrouter@anthropic/claude-3.7-sonnet")]
    Show(LimitsShowArgs),

    /// Learn a model's real limit from a provider's context-overflow error
    #[command(after_help = "\
Understands OpenAI, Anthropic (both wordings), Gemini, xAI, Copilot, OpenRouter,
DeepSeek, Mistral, vLLM and llama.cpp errors. A limit is stored only if it is smaller
than what is known. Exit 65 when the text holds no limit.

Example:
  sessionctl limits learn claude@claude-sonnet-4-5 --from-error 'prompt is too long: 210312 tokens > 200000 maximum'
  pbpaste | sessionctl limits learn openai@gpt-4o --from-error -")]
    Learn(LearnArgs),
}

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

Examples:
  sessionctl errors edit 3f1c --action 'retry with timeout 120s' --yes
  sessionctl errors edit 9a2b --action - --yes < fix.txt")]
    Edit(ErrorsEditArgs),
    /// Remove expired records and records whose outcome is not `resolved`
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
    pub sort: crate::engine::errors::Sort,
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
}

#[derive(Debug, Args)]
pub struct ErrorsShowArgs {
    /// A record's key (tool:nanos) or a unique prefix of its id
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

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Sessions to check [default: all, and the shared stores]
    #[arg(value_name = "SESSION")]
    pub sessions: Vec<String>,
    /// Every session and the shared stores (the default when none is named)
    #[arg(long, conflicts_with = "sessions")]
    pub all: bool,
    /// Fix what is safe to fix (needs --yes without a terminal)
    #[arg(long)]
    pub repair: bool,
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
    #[arg(value_name = "SESSION")]
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
pub struct RefreshArgs {
    /// Where to fetch from
    #[arg(long, value_enum, default_value = "agenvoy")]
    pub source: crate::engine::limits::Source,

    /// Fetch from this URL instead of the source's usual one
    #[arg(long)]
    pub url: Option<String>,

    /// Environment variable holding the bearer token (Copilot)
    #[arg(long, value_name = "NAME")]
    pub token_env: Option<String>,

    /// Give up after this many seconds
    #[arg(long, default_value_t = 30, value_name = "SECS")]
    pub timeout: u64,

    /// Fetch and show what would change, write nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,

    /// Apply smaller windows without asking (without a terminal and without
    /// --yes they are kept at their old, larger values)
    #[arg(short, long)]
    pub yes: bool,
}

#[derive(Debug, Args)]
pub struct LimitsShowArgs {
    /// Agent names as in a session's config.json: provider@model
    #[arg(value_name = "AGENT")]
    pub agents: Vec<String>,
}

#[derive(Debug, Args)]
pub struct LearnArgs {
    /// Agent name: provider@model
    pub agent: String,

    /// The provider's error text, or - to read it from stdin
    #[arg(long, value_name = "TEXT")]
    pub from_error: String,

    /// Tokens the failed request held, for errors that state no numbers
    #[arg(long, value_name = "N")]
    pub input_tokens: Option<u64>,
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
    #[arg(value_name = "SESSION")]
    pub sessions: Vec<String>,

    /// Every session (narrow it with the filters)
    #[arg(long, conflicts_with = "sessions")]
    pub all: bool,

    #[command(flatten)]
    pub filters: Filters,
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
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Session id
    pub session: String,
}

#[derive(Debug, Args, Clone, Copy)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SummarizerKind {
    /// Deterministic and extractive; no network, no key
    Offline,
    /// Any OpenAI-compatible /v1/chat/completions server
    Openai,
    /// Anthropic /v1/messages
    Anthropic,
}

/// How to reach a summarizer model.
#[derive(Debug, Args, Clone)]
pub struct LlmArgs {
    /// Which summarizer writes summaries and folds tool steps
    #[arg(long, value_enum, default_value = "offline")]
    pub summarizer: SummarizerKind,

    /// Base URL of the model server
    #[arg(long, env = "SESSIONCTL_LLM_BASE_URL", value_name = "URL")]
    pub llm_url: Option<String>,

    /// Model name to ask for
    #[arg(long, env = "SESSIONCTL_LLM_MODEL", value_name = "MODEL")]
    pub llm_model: Option<String>,

    /// Seconds to wait for one answer
    #[arg(long, default_value_t = 120, value_name = "SECS")]
    pub llm_timeout: u64,
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
    #[arg(long, value_name = "AGENT")]
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
    #[arg(long, value_name = "AGENT")]
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

fn parse_age(s: &str) -> Result<i64, String> {
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
    use clap::CommandFactory;

    #[test]
    fn definitions_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn no_color_means_any_non_empty_value() {
        use std::ffi::OsStr;
        let auto = ColorWhen::Auto;
        assert!(auto.enabled(true, None));
        assert!(auto.enabled(true, Some(OsStr::new(""))));
        for v in ["1", "0", "false", "no"] {
            assert!(!auto.enabled(true, Some(OsStr::new(v))), "NO_COLOR={v}");
        }
        assert!(!auto.enabled(false, None), "no colour into a pipe");
        assert!(ColorWhen::Always.enabled(false, Some(OsStr::new("1"))));
        assert!(!ColorWhen::Never.enabled(true, None));
    }

    #[test]
    fn shards() {
        assert_eq!(parse_shard("1/4"), Ok((1, 4)));
        assert!(parse_shard("0/4").is_err());
        assert!(parse_shard("5/4").is_err());
        assert!(parse_shard("x").is_err());
    }
}
