//! One module per on-disk tier. Modules here own file formats and I/O; they
//! never decide policy (what to delete, when), which is the engine's job.

pub mod archive;
pub(crate) mod atomic;
pub mod bundle;
pub(crate) mod files;
pub mod history;
pub mod layout;
pub(crate) mod leftovers;
pub(crate) mod limits_cache;
pub mod lock;
pub mod oplog;
pub(crate) mod root;
pub(crate) mod runtime;
pub mod summary;
pub mod tasks;
pub(crate) mod token_cache;
pub mod torii;
pub(crate) mod trash;
