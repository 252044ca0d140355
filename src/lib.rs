//! sessionctl: maintenance of Agenvoy session stores.
//!
//! `main.rs` parses the command line and calls [`commands::execute`]; all
//! else is this library. The layers, each importing only those below it
//! (`tests/it/layers.rs` holds them to it; docs/architecture.md#layers):
//!
//! - `cli`: the command line, defined once (help, completions and man pages
//!   are generated from it).
//! - `commands`: one file per command: options → one engine operation (or
//!   the batch runner) → a table or the JSON envelope (`output`). Command
//!   files never import each other; what they share is in `cli_util` (the
//!   `Context`, target resolution, prompts, `--via`, the window table).
//! - `view`: the full-screen view (`sessionctl view`), a face over the
//!   same engine calls and batch runner the commands use; it imports
//!   `cli_util` and below, never a command module.
//! - `engine`: what each operation does, on plain data; returns reports,
//!   never prints or exits. `engine::batch` is the one runner of every
//!   `SESSION…|--all` write: plan in parallel without locks, confirm, lock,
//!   re-plan what changed, apply, report per session. Operations run on the
//!   files or, while Agenvoy runs, through its daemon (`daemon`).
//! - `llm`: summarizers (offline by default; OpenAI-compatible, Anthropic)
//!   and embedders, behind traits the engine calls.
//! - `store`: one module per on-disk tier, owning its format and its
//!   crash-safe writes: `history`/`summary`/`tasks` (session files),
//!   `torii` (the ToriiDB log), `archive` (SQLite), `trash`, `lock`,
//!   `runtime` (is Agenvoy running?), all on `root`'s rule that no path
//!   leaves the data root.
//! - Leaves: `error` (one error type, exit codes), `timefmt`, `net`.

pub mod cli;
pub mod cli_util;
pub mod commands;
pub mod daemon;
pub mod engine;
pub mod error;
pub mod llm;
pub(crate) mod net;
pub mod output;
pub mod store;
pub(crate) mod table;
pub mod timefmt;
pub mod view;

pub use error::{Error, Result};

/// `--version`: the package version, the commit it was built from and the
/// commit's date (set by build.rs; "unknown" outside a git checkout).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("SESSIONCTL_COMMIT"),
    " ",
    env!("SESSIONCTL_COMMIT_DATE"),
    ")"
);

/// Crash-test hook: with the `testing` feature, `SESSIONCTL_FAILPOINT=<name>` aborts the
/// process at that write step, as a kill would. Compiled out of what users build.
#[inline]
pub fn failpoint(name: &str) {
    #[cfg(feature = "testing")]
    if std::env::var_os("SESSIONCTL_FAILPOINT").is_some_and(|v| v == name) {
        eprintln!("sessionctl: failpoint {name} hit, aborting");
        std::process::abort();
    }
    #[cfg(not(feature = "testing"))]
    let _ = name;
}

/// Crash-test hook: with the `testing` feature, `SESSIONCTL_KILL_AT=N`
/// aborts the process at its N-th durable step (each fsync, rename and
/// SQLite commit of a write), as a kill would there. A test runs a command
/// once per N to kill it at every step, and checks what a rerun makes of
/// each. Compiled out of what users build.
#[inline]
pub fn durable_step() {
    #[cfg(feature = "testing")]
    {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static STEPS: AtomicUsize = AtomicUsize::new(0);
        let n = STEPS.fetch_add(1, Ordering::Relaxed) + 1;
        if std::env::var("SESSIONCTL_KILL_AT")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            == Some(n)
        {
            eprintln!("sessionctl: killed at durable step {n}");
            std::process::abort();
        }
    }
}

/// The fixture root for unit tests: ../shared/fixtures/agenvoy-root, or the
/// byte-identical copy in demo/ on a clone without it.
#[cfg(test)]
pub(crate) fn fixture_root() -> std::path::PathBuf {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = manifest.join("../shared/fixtures/agenvoy-root");
    if shared.exists() {
        shared
    } else {
        manifest.join("demo")
    }
}
