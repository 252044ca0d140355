//! Commands about sessionctl itself (`completions`, `man`) and the dynamic
//! completers that offer session ids, error ids and agent names.

use std::ffi::OsStr;
use std::path::PathBuf;

use clap::Args;
use clap_complete::engine::CompletionCandidate;

use crate::store::layout::DataRoot;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
    /// The static script (as in completions/): commands and options only, without asking
    /// sessionctl for session ids, error ids and agent names
    #[arg(long = "static")]
    pub static_script: bool,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write every page (sessionctl.1 and one per subcommand) into DIR, created if
    /// missing [default: print sessionctl.1]
    #[arg(value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub dir: Option<PathBuf>,
}

/// The root a completion looks in: `--root` on the line being completed,
/// else `AGENVOY_HOME`, else the config file's, else the default. Never
/// fails: no candidates.
fn completion_root() -> Option<DataRoot> {
    let args: Vec<String> = std::env::args().collect();
    let from_line = args.iter().enumerate().find_map(|(i, a)| {
        a.strip_prefix("--root=")
            .map(str::to_owned)
            .or_else(|| (a == "--root").then(|| args.get(i + 1).cloned()).flatten())
    });
    // The words of a line being completed are as typed: the shell has not
    // expanded `~/agenvoy` yet, as it will when the command runs.
    let path = from_line
        .map(|p| crate::cli::config_file::expand(&p))
        .or_else(|| std::env::var_os("AGENVOY_HOME").map(PathBuf::from))
        .or_else(|| crate::cli::config_file::load().ok().and_then(|c| c.root))
        .or_else(DataRoot::default_path)?;
    DataRoot::open(&path).ok()
}

fn candidates(
    names: impl IntoIterator<Item = String>,
    current: &OsStr,
) -> Vec<CompletionCandidate> {
    let prefix = current.to_string_lossy();
    let mut names: Vec<String> = names
        .into_iter()
        .filter(|n| n.starts_with(prefix.as_ref()))
        .collect();
    names.sort();
    names.dedup();
    names.into_iter().map(CompletionCandidate::new).collect()
}

/// Session ids under the root.
pub fn session_ids(current: &OsStr) -> Vec<CompletionCandidate> {
    let ids = completion_root()
        .and_then(|root| root.session_ids().ok())
        .map(|l| l.ids)
        .unwrap_or_default();
    candidates(ids, current)
}

/// Ids of the error memory's live records (db 2).
pub fn error_ids(current: &OsStr) -> Vec<CompletionCandidate> {
    let ids = completion_root()
        .and_then(|root| {
            crate::store::torii::Db::load_store(&root, crate::store::torii::DB_ERROR_MEMORY).ok()
        })
        .map(|db| {
            let now = crate::store::torii::now_unix();
            crate::engine::error_memory::all(&db, now)
                .unwrap_or_default()
                .into_iter()
                .filter(|i| !i.expired)
                .map(|i| i.id)
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    candidates(ids, current)
}

/// The agents (provider@model) sessions name in config.json.
pub fn agents(current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(root) = completion_root() else {
        return Vec::new();
    };
    let ids = root.session_ids().map(|l| l.ids).unwrap_or_default();
    let models = ids.iter().filter_map(|id| {
        let dir = root.session(id).ok()?;
        crate::engine::sessions::load_model(&dir).ok().flatten()
    });
    candidates(models, current)
}
