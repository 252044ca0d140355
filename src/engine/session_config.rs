//! What sessionctl reads from a session's config.json: the model (which
//! picks the token counter and the window) and, for local runtimes, the
//! context size the model runs with. Every other field is Agenvoy's.

use std::path::Path;

use crate::engine::tokens::Counter;
use crate::error::{Error, Result};
use crate::store::layout::SessionDir;

/// The agent name used when a session's config.json names no model.
pub const UNKNOWN_AGENT: &str = "unknown@unknown";

/// What sessionctl reads from a session's config.json (every other field
/// is Agenvoy's and left alone).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionConfig {
    /// The agent, `provider@model`.
    pub model: Option<String>,
    /// The context size a local runtime was configured with, and the key it
    /// was read from (see `NUM_CTX_KEYS`).
    pub num_ctx: Option<(u64, &'static str)>,
    /// A base URL (see `BASE_URL_KEYS`) on this machine: a `compat@`
    /// session then runs on a local server.
    pub loopback_url: bool,
}

impl SessionConfig {
    /// The token counter for this session's model (`Counter::for_agent`).
    pub fn counter(&self) -> Counter {
        Counter::for_agent(self.model.as_deref().unwrap_or(UNKNOWN_AGENT))
    }
}

/// Where a context size may sit in config.json, in the order they are
/// tried: Ollama's request `options` (what Ollama itself is sent), next to
/// Agenvoy's own `limits.max_history_messages`, at the top level, and
/// llama.cpp's name for it.
pub const NUM_CTX_KEYS: [&str; 4] = ["options.num_ctx", "limits.num_ctx", "num_ctx", "n_ctx"];

/// The key of `NUM_CTX_KEYS` with this name (for a config remembered by
/// name).
pub fn num_ctx_key(name: &str) -> Option<&'static str> {
    NUM_CTX_KEYS.iter().copied().find(|k| *k == name)
}

/// Where an OpenAI-compatible server's address may sit in config.json.
pub const BASE_URL_KEYS: [&str; 5] = ["base_url", "baseURL", "api_base", "endpoint", "url"];

/// `http://localhost:11434/v1`, `http://127.0.0.1:8080`, `http://[::1]:1234`
fn is_loopback_url(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host_port = rest.split('/').next().unwrap_or("");
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host_port.split(':').next().unwrap_or(""),
    };
    let host = host.to_ascii_lowercase();
    host == "localhost" || host.starts_with("127.") || host == "::1" || host == "0.0.0.0"
}

/// The largest context size believed (as for learned limits).
const MAX_NUM_CTX: u64 = 10_000_000;

pub fn load_config(dir: &SessionDir) -> Result<Option<SessionConfig>> {
    let path = dir.config_json();
    let Some(bytes) = dir.read_small(&path)? else {
        return Ok(None);
    };
    let v: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| Error::data(&path, format!("not valid JSON: {e}")))?;
    let model = v
        .get("model")
        .and_then(serde_json::Value::as_str)
        .filter(|m| !m.is_empty())
        .map(str::to_owned);
    let mut num_ctx = None;
    for key in NUM_CTX_KEYS {
        let Some(found) = key.split('.').try_fold(&v, |v, k| v.get(k)) else {
            continue;
        };
        let n = found
            .as_u64()
            .filter(|n| (1..=MAX_NUM_CTX).contains(n))
            .ok_or_else(|| {
                Error::data(
                    &path,
                    format!("{key} is {found}, not a context size in tokens (1–{MAX_NUM_CTX})"),
                )
                .with_hint("set it to the num_ctx the model runs with, e.g. 32768, or remove it")
            })?;
        num_ctx = Some((n, key));
        break;
    }
    let loopback_url = BASE_URL_KEYS
        .iter()
        .filter_map(|k| v.get(*k).and_then(serde_json::Value::as_str))
        .any(is_loopback_url);
    Ok(Some(SessionConfig {
        model,
        num_ctx,
        loopback_url,
    }))
}

/// The agent (`provider@model`) a session runs on, from its config.json.
pub fn load_model(dir: &SessionDir) -> Result<Option<String>> {
    Ok(load_config(dir)?.and_then(|c| c.model))
}

/// config.json's bytes with `model` set to `agent`: every other field, the
/// key order and the layout (one line or indented) are kept.
pub fn with_model(bytes: Option<&[u8]>, agent: &str, path: &Path) -> Result<Vec<u8>> {
    let mut config = match bytes {
        Some(b) => match serde_json::from_slice::<serde_json::Value>(b) {
            Ok(serde_json::Value::Object(m)) => m,
            Ok(_) => return Err(Error::data(path, "is not a JSON object")),
            Err(e) => return Err(Error::data(path, format!("not valid JSON: {e}"))),
        },
        None => serde_json::Map::new(),
    };
    config.insert("model".into(), agent.into());
    let pretty = bytes.is_some_and(|b| b.contains(&b'\n'));
    let mut out = if pretty {
        serde_json::to_vec_pretty(&config)
    } else {
        serde_json::to_vec(&config)
    }
    .expect("a JSON object serialises");
    if bytes.is_some_and(|b| b.ends_with(b"\n")) {
        out.push(b'\n');
    }
    Ok(out)
}

/// Point a session at another agent: config.json rewritten atomically
/// (created when the session has none).
pub fn write_model(dir: &SessionDir, agent: &str) -> Result<()> {
    let path = dir.config_json();
    let bytes = dir.read_small(&path)?;
    let new = with_model(bytes.as_deref(), agent, &path)?;
    dir.write(&path, &new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_changes_and_nothing_else() {
        let p = Path::new("config.json");
        let compact = br#"{"theme":"dark","model":"claude@claude-sonnet-4-5","limits":{"max_history_messages":24}}"#;
        assert_eq!(
            with_model(Some(compact), "ollama@qwen3", p).unwrap(),
            br#"{"theme":"dark","model":"ollama@qwen3","limits":{"max_history_messages":24}}"#
        );
        let pretty = b"{\n  \"z\": 1,\n  \"model\": \"a@b\",\n  \"a\": [1.5, null]\n}\n";
        assert_eq!(
            String::from_utf8(with_model(Some(pretty), "c@d", p).unwrap()).unwrap(),
            "{\n  \"z\": 1,\n  \"model\": \"c@d\",\n  \"a\": [\n    1.5,\n    null\n  ]\n}\n"
        );
        assert_eq!(with_model(None, "c@d", p).unwrap(), br#"{"model":"c@d"}"#);
        assert!(with_model(Some(b"[]"), "c@d", p).is_err());
        assert!(with_model(Some(b"{"), "c@d", p).is_err());
    }
}
