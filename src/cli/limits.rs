//! Options of `limits`.

use clap::{Args, Subcommand};

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
Recorded in `sessionctl log`, but not undoable: it replaces only sessionctl's own copy of
the published windows (learned limits are kept); run it again to refresh.

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
Recorded in `sessionctl log`; `sessionctl undo` forgets the learned limit again.

Example:
  sessionctl limits learn claude@claude-sonnet-4-5 --from-error 'prompt is too long: 210312 tokens > 200000 maximum'
  pbpaste | sessionctl limits learn openai@gpt-4o --from-error -")]
    Learn(LearnArgs),

    /// Forget a learned limit (the table's window applies again)
    #[command(after_help = "Recorded in `sessionctl log`; `sessionctl undo` brings it back.")]
    Forget(ForgetArgs),
}

#[derive(Debug, Args)]
pub struct ForgetArgs {
    /// The agent (provider@model) whose learned limit to forget
    #[arg(value_name = "AGENT")]
    pub agent: String,

    #[command(flatten)]
    pub change: super::ChangeArgs,
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
    #[arg(value_name = "AGENT", add = clap_complete::ArgValueCompleter::new(super::meta::agents))]
    pub agents: Vec<String>,
}

#[derive(Debug, Args)]
pub struct LearnArgs {
    /// Agent name: provider@model
    #[arg(add = clap_complete::ArgValueCompleter::new(super::meta::agents))]
    pub agent: String,

    /// The provider's error text, or - to read it from stdin
    #[arg(long, value_name = "TEXT")]
    pub from_error: String,

    /// Tokens the failed request held, for errors that state no numbers
    #[arg(long, value_name = "N")]
    pub input_tokens: Option<u64>,
}
