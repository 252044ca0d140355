//! One module per on-disk tier. Modules here own file formats and I/O; they
//! never decide policy (what to delete, when), which is the engine's job.

pub mod archive;
pub mod atomic;
pub mod bundle;
pub mod files;
pub mod history;
pub mod layout;
pub mod leftovers;
pub mod limits_cache;
pub mod lock;
pub mod oplog;
pub mod root;
pub mod runtime;
pub mod summary;
pub mod tasks;
pub mod token_cache;
pub mod torii;
pub mod trash;
