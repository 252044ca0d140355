//! Operations on loaded data. Engine functions decide policy and return
//! reports; they never print and never exit.

pub mod batch;
pub mod compact;

pub mod embedding;
pub mod error_memory;
pub mod import;
pub mod limit_ops;
pub mod limits;
pub mod prune;
pub mod repair;
pub mod reset;
pub mod row_cache;
pub mod search;
pub mod session_config;
pub mod sessions;
pub mod summarize;
pub mod tarball;
pub mod tokens;
pub mod transfer;
pub mod undo;
