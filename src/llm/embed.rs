//! Query vectors from an OpenAI-compatible `/v1/embeddings` endpoint, the
//! same model and dimension ToriiDB uses (`text-embedding-3-small`, 256),
//! looked up first in the store's `__torii:embed:` cache so a repeated
//! query needs no network.

use std::time::Duration;

use base64::Engine as _;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::store::torii::Db;

/// Tries after the first for a failed connection, 429 or 5xx: an embedding
/// is safe to ask for again.
const RETRIES: u32 = 2;

pub const DEFAULT_MODEL: &str = "text-embedding-3-small";
pub const DEFAULT_DIM: usize = 256;

#[derive(Clone)]
pub struct Embedder {
    pub base_url: String,
    pub model: String,
    api_key: Option<String>,
    pub timeout: Duration,
}

impl std::fmt::Debug for Embedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .finish_non_exhaustive()
    }
}

/// The embedding model: the flag, else `SESSIONCTL_EMBED_MODEL`, else
/// ToriiDB's `text-embedding-3-small`.
pub fn model_name(flag: Option<&str>) -> String {
    flag.map(str::to_owned)
        .or_else(|| {
            std::env::var("SESSIONCTL_EMBED_MODEL")
                .ok()
                .filter(|m| !m.is_empty())
        })
        .unwrap_or_else(|| DEFAULT_MODEL.into())
}

impl Embedder {
    /// `SESSIONCTL_EMBED_BASE_URL` (unset or empty: no embedder),
    /// `SESSIONCTL_EMBED_MODEL`, `SESSIONCTL_EMBED_API_KEY`; flags win.
    pub fn configured(url: Option<&str>, model: Option<&str>) -> Option<Embedder> {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let base = url
            .map(str::to_owned)
            .or_else(|| env("SESSIONCTL_EMBED_BASE_URL"))?;
        Some(Embedder {
            base_url: base.trim_end_matches('/').to_owned(),
            model: model_name(model),
            api_key: env("SESSIONCTL_EMBED_API_KEY"),
            timeout: Duration::from_secs(30),
        })
    }

    fn endpoint(&self) -> String {
        if self.base_url.ends_with("/v1") {
            format!("{}/embeddings", self.base_url)
        } else {
            format!("{}/v1/embeddings", self.base_url)
        }
    }

    /// ToriiDB's cache key: `__torii:embed:` + hex(sha256("model|dim|text")).
    pub fn cache_key(model: &str, dim: usize, text: &str) -> String {
        let h = Sha256::digest(format!("{model}|{dim}|{text}").as_bytes());
        format!(
            "__torii:embed:{}",
            h.iter().map(|b| format!("{b:02x}")).collect::<String>()
        )
    }

    /// A vector for `text` of exactly `dim` floats: from the store's cache
    /// when ToriiDB already embedded it, else from the server.
    pub fn embed(&self, text: &str, dim: usize, cache: Option<&Db>) -> Result<Vec<f32>> {
        if let Some(db) = cache {
            if let Some(v) = cached(db, &self.model, dim, text)? {
                return Ok(v);
            }
        }
        let url = self.endpoint();
        let fail = |why: String| Error::unavailable(format!("embeddings at {url}: {why}"));
        let client = crate::net::client(self.timeout, crate::net::Peer::Remote)?;
        let body = json!({"input": text, "model": self.model, "dimensions": dim, "encoding_format": "float"});
        let request = || {
            let req = client
                .post(&url)
                .header("content-type", "application/json")
                .body(body.to_string());
            match &self.api_key {
                Some(k) => req.bearer_auth(k),
                None => req,
            }
        };
        let answer =
            crate::net::send_idempotent(RETRIES, &format!("embeddings at {url}"), request, |_| {
                false
            })?
            .map_err(|no| {
                fail(if no.timed_out {
                    "timed out".into()
                } else {
                    no.error.to_string()
                })
            })?;
        if !answer.status.is_success() {
            return Err(fail(format!("HTTP {}", answer.status)));
        }
        let text = answer.text();
        let v: Value = serde_json::from_str(&text).map_err(|e| fail(format!("not JSON: {e}")))?;
        let vector: Vec<f32> = v["data"][0]["embedding"]
            .as_array()
            .ok_or_else(|| fail("no data[0].embedding in the answer".into()))?
            .iter()
            .filter_map(|x| x.as_f64().map(|f| f as f32))
            .collect();
        if vector.len() != dim {
            return Err(fail(format!(
                "got {} dimensions, the store uses {dim}",
                vector.len()
            )));
        }
        Ok(vector)
    }
}

/// A vector from ToriiDB's embedding cache, if it holds this text.
pub fn cached(db: &Db, model: &str, dim: usize, text: &str) -> Result<Option<Vec<f32>>> {
    let Some(e) = db.entry(&Embedder::cache_key(model, dim, text))? else {
        return Ok(None);
    };
    Ok(cached_vector(e, dim))
}

fn cached_vector(e: &crate::store::torii::Entry, dim: usize) -> Option<Vec<f32>> {
    let v: Value = serde_json::from_str(&e.value).ok()?;
    if v["d"].as_u64() != Some(dim as u64) {
        return None;
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(v["v"].as_str()?)
        .ok()?;
    (bytes.len() == dim * 4).then(|| {
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    })
}

pub fn to_base64(v: &[f32]) -> String {
    let bytes: Vec<u8> = v.iter().flat_map(|f| f.to_le_bytes()).collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Cosine similarity in f64, as ToriiDB computes it; `None` for a zero vector
/// or mismatched lengths.
pub fn cosine(a: &[f32], b: &[f32]) -> Option<f64> {
    if a.len() != b.len() || a.is_empty() {
        return None;
    }
    let (mut dot, mut na, mut nb) = (0f64, 0f64, 0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    (na > 0.0 && nb > 0.0).then(|| dot / (na.sqrt() * nb.sqrt()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_key_matches_toriidb() {
        // ToriiDB's own cache key of text-embedding-3-small|256|hello: 0e1a4c7e…b726
        let k = Embedder::cache_key("text-embedding-3-small", 256, "hello");
        assert!(k.starts_with("__torii:embed:0e1a4c7e"), "{k}");
        assert!(k.ends_with("b726"), "{k}");
    }

    #[test]
    fn cosine_like_toriidb() {
        // the probe: [1,0,0,0] vs [0.6,0.8,0,0] = 0.6000000095 (f32 rounding)
        let c = cosine(&[1.0, 0.0, 0.0, 0.0], &[0.6, 0.8, 0.0, 0.0]).unwrap();
        assert!((c - 0.600_000_009_5).abs() < 1e-9, "{c}");
        assert_eq!(cosine(&[0.0; 4], &[1.0; 4]), None);
        assert_eq!(cosine(&[1.0], &[1.0, 2.0]), None);
    }
}
