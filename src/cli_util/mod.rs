//! What the command modules share and no command owns: the `Context`
//! every command gets, turning `SESSION…|--all` into targets, asking before
//! a write, the backend choice (`--via`), the window table, and the report
//! table of the commands that clear sessions. Command modules import this,
//! never each other; this imports no command module.

pub(crate) mod clear;
pub(crate) mod context_window;
pub(crate) mod guard;
pub(crate) mod listing;
pub(crate) mod targets;
pub(crate) mod via;

use crate::output::{ErrorEntry, Output};
use crate::store::layout::DataRoot;

/// What every command gets: the opened root and the renderer.
#[derive(Clone)]
pub struct Context {
    pub root: DataRoot,
    pub out: Output,
    /// Never touch the network.
    pub offline: bool,
    /// The command is a dry run: nothing under the root changes.
    pub dry_run: bool,
    /// `--via`, `--daemon-url`, `--timeout`.
    pub daemon: crate::cli::DaemonArgs,
}

/// What a command did, for the exit code and the run log.
#[derive(Debug, Default)]
pub struct Done {
    pub code: i32,
    /// Sessions the command looked at.
    pub sessions: usize,
    /// Sessions it changed (a no-op run lists none).
    pub changed: Vec<String>,
    pub failed: Vec<ErrorEntry>,
}

impl From<i32> for Done {
    fn from(code: i32) -> Self {
        Done {
            code,
            ..Done::default()
        }
    }
}
