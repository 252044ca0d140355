//! The command line, defined once: `--help`, the shell completions in
//! `completions/` and the man page in `man/` are all generated from here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

mod config;
pub mod config_file;
mod daemon;
mod errors;
mod limits;
mod meta;
mod read;
mod undo;
mod view;
mod write;

pub use config::ConfigCommand;
pub use daemon::*;
pub use errors::*;
pub use limits::*;
pub use meta::{CompletionsArgs, ManArgs};
pub use read::*;
pub use undo::*;
pub use view::ViewArgs;
pub use write::*;

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

    #[command(flatten)]
    pub daemon: DaemonArgs,
    /// Which settings a flag or the environment gave (for the config file).
    #[arg(skip)]
    pub explicit: crate::cli::config_file::Explicit,
}

impl Cli {
    /// The command as scripts see it in the JSON envelope and the run log.
    pub fn command_name(&self) -> &'static str {
        match &self.command {
            Command::Sessions(SessionsCommand::List(_)) => "sessions list",
            Command::Show(_) => "show",
            Command::View(_) => "view",
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
            Command::Limits(LimitsCommand::Forget(_)) => "limits forget",
            Command::Log(_) => "log",
            Command::Undo(_) => "undo",
            Command::Trash(TrashCommand::List) => "trash list",
            Command::Trash(TrashCommand::Restore(_)) => "trash restore",
            Command::Trash(TrashCommand::Prune(_)) => "trash prune",
            Command::Export(_) => "export",
            Command::Import(_) => "import",
            Command::Completions(_) => "completions",
            Command::Man(_) => "man",
            Command::Config(ConfigCommand::Show) => "config show",
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
            Command::Check(a) => a.dry_run,
            Command::Undo(a) => a.change.dry_run,
            Command::Limits(LimitsCommand::Forget(a)) => a.change.dry_run,
            Command::Trash(TrashCommand::Restore(a)) => a.change.dry_run,
            Command::Trash(TrashCommand::Prune(a)) => a.change.dry_run,
            Command::Export(a) => a.dry_run,
            Command::Import(a) => a.change.dry_run,
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
    #[command(after_help = "\
The tokens row compares what Agenvoy sends per request (history + summary + the largest
task history) with the model's budget (80% of its window; see `limits show`).

Examples:
  sessionctl show tui-alice
  sessionctl show tui-alice --summary
  sessionctl show tui-alice --json")]
    Show(ShowArgs),

    /// A full-screen view: sessions, their summary, compact and reset tabs, undo, Trash, errors
    #[command(after_help = "\
The same operations as the commands, run by the same engine: compact, reset, remove and
summarize plan first (the tab shows the dry run), ask, then apply through the batch runner
(through Agenvoy's daemon while it runs, as --via says). Every write is in `log` and undoable.

Keys: ↑↓ move  / filter (glob or substring)  o sort (activity, tokens, % of budget, size)
  O reverse  Tab/Shift-Tab summary|compact|reset tab  Enter apply the tab  m reset mode
  S summarize  D remove  1 sessions  2 undo  3 trash  4 errors  ? help  q quit
Undo: u undoes the selected operation. Trash: r restores, p deletes an entry and older ones.
Errors: e edits the action (its TTL is kept). Esc cancels what has not started writing, and a wait for a summarizer.

Needs a terminal (80×24 or larger); scripts use the subcommands: sessions list, show,
compact, reset, remove, summarize, log, undo, trash, errors.

Examples:
  sessionctl view
  sessionctl view --match 'tui-*'")]
    View(ViewArgs),

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
torii-db1.jsonl, manifest) unless --purge; `sessionctl undo` puts it all back.

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
Every run is recorded in `sessionctl log`; `sessionctl undo` puts the removed records
and the task histories back as they were (and the db1 keys, with their TTLs).

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
Every run is recorded in `sessionctl log`; `sessionctl undo` puts the previous
summary.json and summary.meta.json back.

Summarizers: offline (default; deterministic, no network), openai (any OpenAI-compatible
/v1/chat/completions: OpenAI, Ollama, vLLM, llama.cpp, OpenRouter, DeepSeek), anthropic.
Configure with SESSIONCTL_LLM_BASE_URL, SESSIONCTL_LLM_MODEL, SESSIONCTL_LLM_API_KEY
(or --base-url/--model). The key is never printed. A model writes better summaries than
the offline summarizer: it is the way to go when one is at hand, e.g. a local Ollama.

Examples:
  sessionctl summarize --all
  sessionctl summarize tui-alice --summarizer openai --base-url http://127.0.0.1:11434/v1 --model qwen3")]
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
deletes user text. --repair --dry-run lists what it would fix and changes nothing.
A repair is recorded in `sessionctl log` but `undo` cannot reverse it: what it cuts off
is kept beside the log it came from, to put back by hand.

Exit codes: 0 clean, 1 findings, 65 something could not be read.

Examples:
  sessionctl check
  sessionctl check --repair --dry-run
  sessionctl check tui-alice --repair --yes --json")]
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
restored with `sessionctl undo` (or `trash restore ENTRY`); --purge deletes instead.
A session whose folder is already gone but whose rows or keys remain (an interrupted
remove) is cleaned up too.

Examples:
  sessionctl remove temp-123 --dry-run
  sessionctl remove --all --match 'temp-*' --idle-for 7d --yes"
    )]
    Remove(RemoveArgs),

    /// The operation log: every write, newest first
    #[command(
        after_help = "Every write is recorded in <root>/.sessionctl/oplog.jsonl; `undo OP_ID` reverses one."
    )]
    Log(LogArgs),

    /// Reverse the latest operation (or the one named), from what it kept
    #[command(after_help = "\
Restores every tier from the bundle the operation kept: archive rows first (ids kept,
FTS in step), then the ToriiDB db1 entries (TTL and vectors intact), then the files.
Refuses (64, naming it) when a later operation changed the same session, unless --force.
An undo that was interrupted completes when `undo` runs again. An undo keeps what it
overwrites, so `undo UNDO_OP_ID` redoes (the current state goes to the Trash first).
Without OP_ID: the latest original write or redo not undone, never an undo.

Examples:
  sessionctl log
  sessionctl undo --dry-run
  sessionctl undo 20261203T082323.123Z-1a2b3c --yes")]
    Undo(UndoArgs),

    /// sessions/.Trash: list, restore or prune what reset and remove took away
    #[command(subcommand)]
    Trash(TrashCommand),

    /// Write sessions as bundles (every tier, with checksums) for another root or machine
    #[command(after_help = "\
Each session becomes <DIR>/<SESSION>/: its files, and in .sessionctl/ its archive rows,
its ToriiDB db1 entries (TTL and vectors intact) and a manifest with the sha256 of every
file (docs/bundle.md). Read consistently under the session lock; nothing under the root
changes. With -o FILE.tar the same folders are packed into one tar file instead
(written to a temporary file and renamed; an existing file is never overwritten).
With no session to export, the folder or tar is written empty (it imports as none).

Examples:
  sessionctl export tui-alice -o /mnt/backup/sessions
  sessionctl --root /new/root import /mnt/backup/sessions/tui-alice --yes
  sessionctl export tui-alice tui-bob -o move.tar
  sessionctl --root /new/root import move.tar --yes")]
    Export(ExportArgs),

    /// Bring a bundle into this root (refuses an existing session; checks every checksum)
    #[command(after_help = "\
Every file is checked against the manifest, and every part read as it will be written,
first (exit 65 naming the file on any problem, nothing written). Writes the files to a
hidden staging folder, then the archive rows (new ids), then the ToriiDB entries, then
renames the folder into place; importing the same bundle again after a crash completes
it, and another bundle of a session it began is refused (64). Recorded in `sessionctl
log`; `undo` takes the imported session away again, to the Trash. A FILE.tar is
unpacked into the root's own state (.sessionctl/tmp) and every session in it imported;
an absolute or `..` path, a hard link, a device, a duplicate or a file written through
a link in it is refused (65) before anything is imported.")]
    Import(ImportArgs),
    /// Print the shell completion script (session ids, error ids and agent names included)
    #[command(after_help = "\
The script asks sessionctl for session ids, error ids and agent names as you type (it
reads --root on the line, else AGENVOY_HOME, else the config file, else the default
root); --static prints the fixed script in completions/, which completes commands and
options only.

Install:
  bash        echo 'source <(sessionctl completions bash)' >> ~/.bashrc
  zsh         echo 'source <(sessionctl completions zsh)' >> ~/.zshrc
  fish        sessionctl completions fish > ~/.config/fish/completions/sessionctl.fish
  elvish      echo 'eval (sessionctl completions elvish | slurp)' >> ~/.config/elvish/rc.elv
  powershell  add `sessionctl completions powershell | Out-String | Invoke-Expression`
              to $PROFILE")]
    Completions(CompletionsArgs),

    /// Print the man page, or write every page into DIR
    #[command(after_help = "\
Example:
  sessionctl man ~/.local/share/man/man1 && man sessionctl-compact")]
    Man(ManArgs),

    /// The config file's settings: see `config show --help`
    #[command(subcommand)]
    Config(ConfigCommand),
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
}
