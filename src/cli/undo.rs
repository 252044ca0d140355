//! `log`, `undo`, `trash list|restore|prune`: the operation log and the way back.

use clap::{Args, Subcommand};

use crate::cli::ChangeArgs;

#[derive(Debug, Args)]
pub struct LogArgs {
    /// Only operations that changed this session
    #[arg(long, value_name = "SESSION")]
    pub session: Option<String>,

    /// Show at most N operations (newest first)
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub limit: usize,
}

#[derive(Debug, Args)]
pub struct UndoArgs {
    /// The operation to reverse (an id from `sessionctl log`; an undo's id
    /// redoes) [default: the latest write or redo not undone yet]
    #[arg(value_name = "OP_ID")]
    pub op: Option<String>,

    /// --force also undoes an operation when a later one changed the same
    /// session, and writes although Agenvoy seems to be running
    #[command(flatten)]
    pub change: ChangeArgs,
}

#[derive(Debug, Subcommand)]
pub enum TrashCommand {
    /// The entries of sessions/.Trash: session, time, operation and size
    List,
    /// Put a trash entry back (all tiers); refuses if the session exists;
    /// `undo` takes it back to the Trash
    Restore(TrashRestoreArgs),
    /// Delete old trash entries for good (cannot be undone)
    #[command(after_help = "\
Deletion for good: recorded in `sessionctl log` as irreversible, and `undo` refuses it
(64). Operations whose kept state it deleted cannot be undone either.

Example (the weekly cron job):
  sessionctl trash prune --older-than 30d --keep-last 1 --yes --json")]
    Prune(TrashPruneArgs),
}

#[derive(Debug, Args)]
pub struct TrashRestoreArgs {
    /// The entry's name in sessions/.Trash (as `trash list` shows it)
    #[arg(value_name = "ENTRY")]
    pub entry: String,

    /// Restore under this session id instead
    #[arg(long = "as", value_name = "NEW_ID")]
    pub as_id: Option<String>,

    #[command(flatten)]
    pub change: ChangeArgs,
}

#[derive(Debug, Args)]
pub struct TrashPruneArgs {
    /// Delete entries older than this: 30d, 2w, 6mo
    #[arg(long, value_name = "AGE", value_parser = crate::cli::write::parse_age)]
    pub older_than: i64,

    /// Keep the newest N entries of each session, however old
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub keep_last: usize,

    #[command(flatten)]
    pub change: ChangeArgs,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub targets: super::Targets,

    /// Also export the cross-session error memory (ToriiDB db 2), as
    /// `<DIR>/.error-memory/`; `import` merges it (records the root lacks)
    #[arg(long)]
    pub with_errors: bool,

    /// The folder to write `<DIR>/<SESSION>/` bundles into (created if missing), or a
    /// FILE.tar to pack them into (never overwritten)
    #[arg(short, long, value_name = "DIR|FILE.tar")]
    pub output: std::path::PathBuf,

    /// Print what would be exported, write nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// A bundle folder, as `export` or the Trash wrote it; a folder of bundles, as
    /// `export -o DIR` wrote it; or a FILE.tar from `export -o FILE.tar` (every session
    /// in it is imported, and the error memory when it was exported with --with-errors)
    #[arg(value_name = "BUNDLE|FILE.tar")]
    pub bundle: std::path::PathBuf,

    /// Import under this session id instead
    #[arg(long = "as", value_name = "ID")]
    pub as_id: Option<String>,

    #[command(flatten)]
    pub change: ChangeArgs,
}
