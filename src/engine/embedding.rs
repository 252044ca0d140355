//! Vectors for search and the error memory: from ToriiDB's own embedding
//! cache when it has the text, else from a configured embedder — never
//! over the network when the user said `--offline`.

use crate::error::Result;
use crate::llm::embed::{self, Embedder};
use crate::store::torii::Db;

pub use embed::{to_base64, DEFAULT_DIM};

/// Where vectors come from.
#[derive(Debug, Clone, Default)]
pub struct EmbedSettings {
    pub url: Option<String>,
    pub model: Option<String>,
    /// No request of any kind.
    pub offline: bool,
}

/// Why a query has no vector (the caller falls back to keywords).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoVector {
    /// The cache lacks the text and no embedder is configured.
    NoEmbedder,
    /// An embedder is configured, but `--offline` forbids asking it.
    Offline,
}

/// The query's vector of `dim` dimensions: the store's cache first, then
/// the embedder.
pub fn query_vector(
    db: &Db,
    settings: &EmbedSettings,
    dim: usize,
    query: &str,
) -> Result<std::result::Result<Vec<f32>, NoVector>> {
    let model = embed::model_name(settings.model.as_deref());
    if let Some(v) = embed::cached(db, &model, dim, query)? {
        return Ok(Ok(v));
    }
    match Embedder::configured(settings.url.as_deref(), Some(&model)) {
        Some(_) if settings.offline => Ok(Err(NoVector::Offline)),
        Some(e) => Ok(Ok(e.embed(query, dim, None)?)),
        None => Ok(Err(NoVector::NoEmbedder)),
    }
}

/// A new vector for edited text, base64 as ToriiDB stores it; `None` when
/// no embedder may be asked.
pub fn text_vector(settings: &EmbedSettings, dim: usize, text: &str) -> Result<Option<String>> {
    if settings.offline {
        return Ok(None);
    }
    match Embedder::configured(settings.url.as_deref(), settings.model.as_deref()) {
        Some(e) => Ok(Some(to_base64(&e.embed(text, dim, None)?))),
        None => Ok(None),
    }
}
