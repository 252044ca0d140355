//! Operations on loaded data. Engine functions decide policy and return
//! reports; they never print and never exit.

pub(crate) mod batch;
pub mod compact;

pub(crate) mod embedding;
pub(crate) mod error_memory;
pub(crate) mod import;
pub(crate) mod limit_ops;
pub mod limits;
pub(crate) mod prune;
pub(crate) mod repair;
pub mod reset;
pub mod row_cache;
pub(crate) mod search;
pub(crate) mod session_config;
pub mod sessions;
pub mod summarize;
pub(crate) mod tarball;
pub mod tokens;
pub(crate) mod transfer;
pub(crate) mod undo;
