//! `<root>/.sessionctl/limits.json`: the window table, Copilot limits and
//! learned limits (the engine's `LimitsCache`; this module only stores it).
//! Our own file; Agenvoy never reads it.

use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::store::layout::DataRoot;
use crate::store::{atomic, files};

pub fn path(root: &DataRoot) -> PathBuf {
    root.tool_dir().join("limits.json")
}

/// The cache, or `None` when there is none yet. A damaged cache is bad
/// data naming the file (the built-in table is the caller's fallback).
pub fn load<T: DeserializeOwned>(root: &DataRoot) -> Result<Option<T>> {
    let p = path(root);
    match files::read(root, &p, files::MAX_SMALL_FILE)? {
        Some(bytes) => serde_json::from_slice(&bytes).map(Some).map_err(|e| {
            Error::data(&p, format!("not a limits cache: {e}"))
                .with_hint("delete it and run `sessionctl limits refresh`")
        }),
        None => Ok(None),
    }
}

pub fn save<T: Serialize>(root: &DataRoot, cache: &T) -> Result<()> {
    let p = path(root);
    atomic::create_dir_all(root, &root.tool_dir())?;
    let mut bytes = serde_json::to_vec_pretty(cache).expect("the cache serialises");
    bytes.push(b'\n');
    atomic::write_atomic(root, &p, &bytes)
}
