//! Context windows and the compaction budget (docs/agenvoy-format.md#context-windows).
//!
//! `window(agent)` resolves, in order: the fixed entry (deepseek-flash) →
//! a learned limit when it is smaller than what the table knows or the
//! table lacks the model → the vendor table → Copilot's own `/models` for
//! `copilot@` agents → for a model the table lacks, the smallest window
//! known for its vendor when below 128,000 → 128,000. The budget is 80 %
//! of the window.
//!
//! The table is keyed by vendor and model as Agenvoy's live table is
//! (docs/agenvoy-format.md#context-windows). Every source we can fetch is mapped onto
//! those keys here; fetching itself is the caller's (see `net`).

mod learn;
mod names;
pub mod refresh;
mod sources;
mod table;

pub use learn::{learn, parse_overflow_error, Learned};
pub use sources::{parse_source, Fetched};
pub use table::{merge, Change, LimitsCache, Merge, ModelLimit, Table};

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::engine::session_config::SessionConfig;

pub const FALLBACK_WINDOW: u64 = 128_000;
/// `deepseek@deepseek-flash` is fixed at this many input tokens (v1.3.0).
pub const DEEPSEEK_FLASH_WINDOW: u64 = 1_048_576;
/// A fetched table is fresh this long (Agenvoy refetches hourly).
pub const FRESH_FOR: Duration = Duration::hours(1);
/// After a failed fetch, nobody fetches again for this long (v1.3.1).
pub const RETRY_AFTER: Duration = Duration::minutes(5);
/// Learned limits outside this range are parse accidents.
const SANE_LIMIT: std::ops::RangeInclusive<u64> = 1_024..=10_000_000;

/// 80 % of the window (Agenvoy's COMPACT_THRESHOLD_RATIO), in integers.
pub fn budget(window: u64) -> u64 {
    window * 4 / 5
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Agenvoy's own table: {vendor:{model:{in,out}}}
    Agenvoy,
    /// LiteLLM's model_prices_and_context_window.json
    Litellm,
    /// models.dev api.json
    #[value(name = "models.dev")]
    #[serde(rename = "models.dev")]
    ModelsDev,
    /// OpenRouter /api/v1/models
    Openrouter,
    /// GitHub Copilot /models (needs a token, see --token-env)
    Copilot,
}

impl Source {
    pub fn default_url(self) -> &'static str {
        match self {
            Source::Agenvoy => "https://llm-io.agenvoy.com/",
            Source::Litellm => {
                "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json"
            }
            Source::ModelsDev => "https://models.dev/api.json",
            Source::Openrouter => "https://openrouter.ai/api/v1/models",
            Source::Copilot => "https://api.githubcopilot.com/models",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Source::Agenvoy => "agenvoy",
            Source::Litellm => "litellm",
            Source::ModelsDev => "models.dev",
            Source::Openrouter => "openrouter",
            Source::Copilot => "copilot",
        }
    }
}

/// Where a window came from, in the order `window` tries them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WindowSource {
    /// deepseek@deepseek-flash (v1.3.0)
    Fixed,
    /// From an overflow error, when smaller than what is known.
    Learned,
    /// A local runtime's context size from the session's config.json.
    SessionConfig,
    /// The vendor table (built-in or fetched; `origin` says which).
    Table,
    /// Copilot's `/models` (max_prompt_tokens).
    Copilot,
    /// A local runtime with no configured context size.
    LocalDefault,
    /// The table lacks the model: the smallest window known for its
    /// vendor, which is below 128,000.
    FamilyFallback,
    /// Nothing knows the model: 128,000.
    Fallback,
}

impl WindowSource {
    /// A window nobody stated (learned limits may replace it either way).
    pub fn is_guess(self) -> bool {
        matches!(
            self,
            WindowSource::LocalDefault | WindowSource::FamilyFallback | WindowSource::Fallback
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            WindowSource::Fixed => "fixed",
            WindowSource::Learned => "learned",
            WindowSource::SessionConfig => "session-config",
            WindowSource::Table => "table",
            WindowSource::Copilot => "copilot",
            WindowSource::LocalDefault => "local-default",
            WindowSource::FamilyFallback => "family-fallback",
            WindowSource::Fallback => "fallback",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Window {
    pub agent: String,
    pub vendor: Option<String>,
    pub model: String,
    pub window: u64,
    pub source: WindowSource,
    /// Where the window came from, in words: the table (and the key found,
    /// when spelled differently from the model), the config key, when a
    /// limit was learned, the model a family fallback took its window from.
    pub origin: String,
    pub budget: u64,
    #[serde(serialize_with = "crate::timefmt::ser_time")]
    pub fetched_at: Option<DateTime<Utc>>,
    /// Set when the window is a guess (fallback, local default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// Context size assumed for a local runtime whose session does not say:
/// Ollama's documented default below 24 GiB of VRAM and the usual default
/// of llama.cpp's server and LM Studio. Guessing low only compacts sooner
/// (what leaves history.json is archived); guessing high lets Ollama
/// silently cut the front of the prompt (it answers 200 and truncates).
pub const LOCAL_DEFAULT_WINDOW: u64 = 4_096;

/// Providers that run models locally (their window is what they were
/// started with, not the model's maximum).
const LOCAL_PROVIDERS: [&str; 7] = [
    "ollama",
    "llamacpp",
    "llama.cpp",
    "llama-cpp",
    "lmstudio",
    "lm-studio",
    "local",
];

/// A local runtime: the providers above, and `compat@` (any
/// OpenAI-compatible server) when the session's base URL is on this
/// machine.
fn is_local(provider: &str, session: Option<&SessionConfig>) -> bool {
    LOCAL_PROVIDERS.contains(&provider)
        || (provider == "compat" && session.is_some_and(|s| s.loopback_url))
}

/// An Ollama cloud tag (`gpt-oss:120b-cloud`, `glm-4.6:cloud`): Ollama runs
/// it on its servers with the model's full context, whatever `num_ctx`
/// says, so its window is the model's (the `ollama` table), not a local one.
fn is_ollama_cloud(provider: &str, model: &str) -> bool {
    provider == "ollama"
        && model
            .rsplit_once(':')
            .is_some_and(|(_, tag)| tag == "cloud" || tag.ends_with("-cloud"))
}

/// Vendor and model key of an agent name `provider@model`. `None`
/// vendor: the provider has no table entry (copilot, compat, ollama, …).
pub fn vendor_model(agent: &str) -> (Option<String>, String) {
    let (provider, model) = match agent.split_once('@') {
        Some((p, m)) => (p.to_ascii_lowercase(), m.to_owned()),
        None => (String::new(), agent.to_owned()),
    };
    let direct = match provider.as_str() {
        "openai" | "codex" => Some("openai"),
        "claude" => Some("claude"),
        "gemini" => Some("gemini"),
        "grok" | "grok-oauth" => Some("grok"),
        "mistral" => Some("mistral"),
        "deepseek" => Some("deepseek"),
        _ => None,
    };
    if let Some(v) = direct {
        return (Some(v.to_owned()), model);
    }
    if provider == "nvidia" || provider == "openrouter" {
        if let Some((v, m)) = split_vendor_path(&model) {
            return (Some(v), m);
        }
    }
    (None, model)
}

/// `anthropic/claude-3.7-sonnet` → (`claude`, `claude-3.7-sonnet`), with a
/// leading `~` dropped and Agenvoy's vendor aliases applied.
fn split_vendor_path(model: &str) -> Option<(String, String)> {
    let (v, m) = model.split_once('/')?;
    let v = v.trim_start_matches('~').to_ascii_lowercase();
    let v = match v.as_str() {
        "google" => "gemini".to_owned(),
        "x-ai" => "grok".to_owned(),
        "mistralai" => "mistral".to_owned(),
        "anthropic" => "claude".to_owned(),
        _ => v,
    };
    Some((v, m.to_owned()))
}

/// The window of an agent with no session to consult.
pub fn window(agent: &str, cache: &LimitsCache) -> Window {
    window_for(agent, cache, None)
}

/// The window of `agent`, resolved in this order: the fixed entry → a
/// learned limit when smaller than what is known (or nothing is) → a local
/// runtime's (or `compat@` server's) configured context size (`session`)
/// → the vendor table
/// (names matched across spellings) → Copilot's `/models`, then the
/// `copilot` table, for `copilot@` → the local default for local runtimes
/// → 128,000.
pub fn window_for(agent: &str, cache: &LimitsCache, session: Option<&SessionConfig>) -> Window {
    let (vendor, model) = vendor_model(agent);
    let provider = agent
        .split_once('@')
        .map_or(String::new(), |(p, _)| p.to_ascii_lowercase());
    let cloud = is_ollama_cloud(&provider, &model);
    let vendor = if cloud {
        Some("ollama".to_owned())
    } else {
        vendor
    };
    let local = is_local(&provider, session) && !cloud;
    let make = |window: u64, source, origin: String| Window {
        agent: agent.to_owned(),
        vendor: vendor.clone(),
        model: model.clone(),
        window,
        source,
        origin,
        budget: budget(window),
        fetched_at: cache.fetched_at,
        warning: None,
    };
    if vendor.as_deref() == Some("deepseek") && model == "deepseek-flash" {
        return make(
            DEEPSEEK_FLASH_WINDOW,
            WindowSource::Fixed,
            "fixed for deepseek-flash".into(),
        );
    }
    // compat@ serves any model from any server: its configured size is the
    // best word there is, local or not
    let configured = session
        .and_then(|s| s.num_ctx)
        .filter(|_| local || provider == "compat")
        .map(|(n, key)| (n, WindowSource::SessionConfig, format!("config.json {key}")));
    let table = vendor
        .as_deref()
        .and_then(|v| cache.lookup(v, &model))
        .map(|(key, limit)| (limit.input, WindowSource::Table, origin(&model, key, limit)));
    let copilot = (provider == "copilot")
        .then(|| copilot_window(cache, &model))
        .flatten();
    let known = configured.or(table).or(copilot);
    if let Some(l) = cache.learned.get(agent) {
        if known.as_ref().is_none_or(|k| l.limit < k.0) {
            let when = l.learned_at.format("%Y-%m-%d");
            return make(
                l.limit,
                WindowSource::Learned,
                format!("learned {when} from an overflow error"),
            );
        }
    }
    if let Some((window, source, origin)) = known {
        return make(window, source, origin);
    }
    if local {
        return Window {
            warning: Some(format!(
                "{agent}: no context size configured; assuming {LOCAL_DEFAULT_WINDOW} tokens \
                 (set options.num_ctx in the session's config.json)"
            )),
            ..make(
                LOCAL_DEFAULT_WINDOW,
                WindowSource::LocalDefault,
                "local runtime without num_ctx".into(),
            )
        };
    }
    // A guess must not exceed what the vendor's own models are known to
    // take: an unknown Qwen model is not given 128K when Qwen-Max has 32K.
    let family = vendor
        .as_deref()
        .and_then(|v| Some((v, cache.smallest(v)?)))
        .filter(|(_, (_, w))| *w < FALLBACK_WINDOW);
    if let Some((v, (key, w))) = family {
        return Window {
            warning: Some(format!(
                "{agent}: unknown model; using the smallest known {v} window, {w} tokens \
                 ({key}) (check the name, `limits refresh`, or `limits learn`)"
            )),
            ..make(
                w,
                WindowSource::FamilyFallback,
                format!("smallest known {v} window, {key}"),
            )
        };
    }
    Window {
        warning: Some(format!(
            "{agent}: unknown model; using the fallback window of {FALLBACK_WINDOW} tokens \
             (check the name, `limits refresh`, or `limits learn`)"
        )),
        ..make(
            FALLBACK_WINDOW,
            WindowSource::Fallback,
            "unknown model".into(),
        )
    }
}

/// A `copilot@` model: Copilot's own `/models` answer (its
/// max_prompt_tokens), else the `copilot` table (LiteLLM's
/// `github_copilot/*` or the built-in values).
fn copilot_window(cache: &LimitsCache, model: &str) -> Option<(u64, WindowSource, String)> {
    let api = names::candidates(model)
        .into_iter()
        .find_map(|c| cache.copilot.get(&c).map(|w| (c, *w)));
    if let Some((key, w)) = api {
        let origin = if key == model {
            "copilot /models".to_owned()
        } else {
            format!("as {key}, copilot /models")
        };
        return Some((w, WindowSource::Copilot, origin));
    }
    let (key, limit) = cache.lookup("copilot", model)?;
    Some((limit.input, WindowSource::Table, origin(model, key, limit)))
}

/// `litellm`, or `as claude-opus-4-7, litellm` when the key differs.
fn origin(model: &str, key: &str, limit: &ModelLimit) -> String {
    let table = limit.from.map_or("builtin", Source::name);
    if key == model {
        table.to_owned()
    } else {
        format!("as {key}, {table}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_guess_exceeds_a_known_window_of_its_vendor() {
        let c = LimitsCache::builtin();
        for (vendor, models) in &c.table {
            let agent = if vendor == "ollama" {
                "ollama@made-up-model:cloud".to_owned()
            } else {
                format!("openrouter@{vendor}/made-up-model")
            };
            let w = window(&agent, &c);
            let smallest = models.values().map(|m| m.input).min().unwrap();
            assert!(w.source.is_guess(), "{agent}: {w:?}");
            assert!(w.window <= smallest.max(FALLBACK_WINDOW), "{agent}: {w:?}");
            assert!(w.window <= FALLBACK_WINDOW, "{agent}: {w:?}");
        }
    }

    fn cache_with(table: &str) -> LimitsCache {
        LimitsCache {
            table: serde_json::from_str(table).unwrap(),
            ..LimitsCache::builtin()
        }
    }

    #[test]
    fn vendors_follow_agenvoy_mapping() {
        assert_eq!(
            vendor_model("claude@claude-sonnet-4-5"),
            (Some("claude".into()), "claude-sonnet-4-5".into())
        );
        assert_eq!(
            vendor_model("codex@gpt-5"),
            (Some("openai".into()), "gpt-5".into())
        );
        assert_eq!(
            vendor_model("grok-oauth@grok-3"),
            (Some("grok".into()), "grok-3".into())
        );
        assert_eq!(
            vendor_model("openrouter@anthropic/claude-3.7-sonnet"),
            (Some("claude".into()), "claude-3.7-sonnet".into())
        );
        assert_eq!(
            vendor_model("openrouter@google/gemini-2.5-pro"),
            (Some("gemini".into()), "gemini-2.5-pro".into())
        );
        assert_eq!(
            vendor_model("openrouter@~x-ai/grok-4"),
            (Some("grok".into()), "grok-4".into())
        );
        assert_eq!(
            vendor_model("nvidia@openai/gpt-oss-120b"),
            (Some("openai".into()), "gpt-oss-120b".into())
        );
        assert_eq!(
            vendor_model("copilot@claude-sonnet-4"),
            (None, "claude-sonnet-4".into())
        );
        assert_eq!(vendor_model("ollama@llama3"), (None, "llama3".into()));
    }
    #[test]
    fn resolution_order() {
        let mut c = cache_with(r#"{"claude":{"claude-sonnet-4-5":{"in":200000,"out":64000}}}"#);
        c.copilot.insert("gpt-5".into(), 128_000);
        let w = window("claude@claude-sonnet-4-5", &c);
        assert_eq!(
            (w.window, w.source, w.budget),
            (200_000, WindowSource::Table, 160_000)
        );
        assert_eq!(window("copilot@gpt-5", &c).source, WindowSource::Copilot);
        assert_eq!(window("copilot@unknown", &c).window, FALLBACK_WINDOW);
        let w = window("deepseek@deepseek-flash", &c);
        assert_eq!(
            (w.window, w.source),
            (DEEPSEEK_FLASH_WINDOW, WindowSource::Fixed)
        );
        let fb = window("someone@something", &c);
        assert_eq!(
            (fb.window, fb.source, fb.budget),
            (128_000, WindowSource::Fallback, 102_400)
        );
        assert!(fb.warning.is_some(), "a guess is said out loud");
        // a local runtime is not an unknown model: its context is small
        let local = window("ollama@llama3", &c);
        assert_eq!(
            (local.window, local.source),
            (LOCAL_DEFAULT_WINDOW, WindowSource::LocalDefault)
        );

        let now = crate::timefmt::now();
        // a learned limit wins only when smaller, or when the table lacks the model
        assert!(learn(
            &mut c,
            "claude@claude-sonnet-4-5",
            150_000,
            "e".into(),
            now
        ));
        assert_eq!(
            window("claude@claude-sonnet-4-5", &c).source,
            WindowSource::Learned
        );
        assert!(!learn(
            &mut c,
            "claude@claude-sonnet-4-5",
            190_000,
            "e".into(),
            now
        ));
        assert!(learn(&mut c, "ollama@llama3", 8_192, "e".into(), now));
        assert_eq!(window("ollama@llama3", &c).window, 8_192);
        // a later table that is smaller than the learned value wins again
        c.table
            .get_mut("claude")
            .unwrap()
            .get_mut("claude-sonnet-4-5")
            .unwrap()
            .input = 100_000;
        assert_eq!(
            window("claude@claude-sonnet-4-5", &c).source,
            WindowSource::Table
        );
    }
}
