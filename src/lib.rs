//! sessionctl: maintenance of Agenvoy session stores.
//!
//! Data flows one way: `commands` (parse, resolve targets, render) →
//! `engine` (policy; returns reports, never prints) → `store` (one module
//! per on-disk tier; owns the formats).

pub mod cli;
pub mod commands;
pub mod config;
pub mod engine;
pub mod error;
pub mod llm;
pub mod net;
pub mod output;
pub mod store;
pub mod table;
pub mod timefmt;

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

/// Crash-test hook: in debug builds, `SESSIONCTL_FAILPOINT=<name>` aborts the
/// process at that write step, as a kill would. Compiled out of release.
#[inline]
pub fn failpoint(name: &str) {
    #[cfg(debug_assertions)]
    if std::env::var_os("SESSIONCTL_FAILPOINT").is_some_and(|v| v == name) {
        eprintln!("sessionctl: failpoint {name} hit, aborting");
        std::process::abort();
    }
    #[cfg(not(debug_assertions))]
    let _ = name;
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
