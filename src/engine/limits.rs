//! Context windows and the compaction budget (product.md, CheckThreshold).
//!
//! `window(agent)` resolves, in order: the fixed entry (deepseek-flash) →
//! a learned limit when it is smaller than what the table knows or the
//! table lacks the model → the vendor table → Copilot's own `/models` for
//! `copilot@` agents → 128,000. The budget is 80 % of the window.
//!
//! The table is keyed by vendor and model as Agenvoy's live table is
//! (agenvoy-behaviour.md §3.3). Every source we can fetch is mapped onto
//! those keys here; fetching itself is the caller's (see `net`).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use chrono::{DateTime, Duration, Utc};
use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const FALLBACK_WINDOW: u64 = 128_000;
/// `deepseek@deepseek-flash` is fixed at this many input tokens (v1.3.0).
pub const DEEPSEEK_FLASH_WINDOW: u64 = 1_048_576;
/// A fetched table is fresh this long (Agenvoy refetches hourly).
pub const FRESH_FOR: Duration = Duration::hours(1);
/// After a failed fetch, nobody fetches again for this long (v1.3.1).
pub const RETRY_AFTER: Duration = Duration::minutes(5);
/// Learned limits outside this range are parse accidents (§12.2).
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelLimit {
    #[serde(rename = "in")]
    pub input: u64,
    #[serde(rename = "out", default, skip_serializing_if = "Option::is_none")]
    pub output: Option<u64>,
}

/// vendor → model → limits
pub type Table = BTreeMap<String, BTreeMap<String, ModelLimit>>;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Learned {
    pub limit: u64,
    pub learned_at: DateTime<Utc>,
    /// The part of the provider error the limit was read from.
    pub evidence: String,
}

/// Everything `window()` consults; persisted as `<root>/.sessionctl/limits.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LimitsCache {
    /// "builtin" until the first successful fetch.
    pub source: String,
    pub url: Option<String>,
    pub fetched_at: Option<DateTime<Utc>>,
    /// No fetch before this time (set by a failed fetch).
    pub retry_after: Option<DateTime<Utc>>,
    pub table: Table,
    #[serde(default)]
    pub copilot: BTreeMap<String, u64>,
    #[serde(default)]
    pub copilot_fetched_at: Option<DateTime<Utc>>,
    /// Learned from overflow errors, per full agent name.
    #[serde(default)]
    pub learned: BTreeMap<String, Learned>,
}

/// The table compiled into the binary: serves the first run with no
/// network. Input limits as the vendors document them (late 2026).
const BUILTIN: &str = include_str!("limits_builtin.json");

impl LimitsCache {
    pub fn builtin() -> LimitsCache {
        LimitsCache {
            source: "builtin".into(),
            url: None,
            fetched_at: None,
            retry_after: None,
            table: serde_json::from_str(BUILTIN).expect("the built-in table parses"),
            copilot: BTreeMap::new(),
            copilot_fetched_at: None,
            learned: BTreeMap::new(),
        }
    }

    /// Should a command that needs a window fetch now? Only when the table
    /// is stale (or built-in) and no failed fetch asked us to wait.
    pub fn needs_fetch(&self, now: DateTime<Utc>) -> bool {
        let stale = self.fetched_at.is_none_or(|t| now - t >= FRESH_FOR);
        let waiting = self.retry_after.is_some_and(|t| now < t);
        stale && !waiting
    }

    pub fn record_failed_fetch(&mut self, now: DateTime<Utc>) {
        self.retry_after = Some(now + RETRY_AFTER);
    }

    pub fn lookup(&self, vendor: &str, model: &str) -> Option<u64> {
        self.table.get(vendor)?.get(model).map(|m| m.input)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WindowSource {
    Fixed,
    Learned,
    Table,
    Copilot,
    Fallback,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Window {
    pub agent: String,
    pub vendor: Option<String>,
    pub model: String,
    pub window: u64,
    pub source: WindowSource,
    pub budget: u64,
    #[serde(serialize_with = "crate::engine::sessions::ser_time")]
    pub fetched_at: Option<DateTime<Utc>>,
}

/// Vendor and model key of an agent name `provider@model` (§3.3). `None`
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
/// leading `~` dropped and the aliases of §3.3 applied.
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

pub fn window(agent: &str, cache: &LimitsCache) -> Window {
    let (vendor, model) = vendor_model(agent);
    let make = |window: u64, source| Window {
        agent: agent.to_owned(),
        vendor: vendor.clone(),
        model: model.clone(),
        window,
        source,
        budget: budget(window),
        fetched_at: cache.fetched_at,
    };
    if vendor.as_deref() == Some("deepseek") && model == "deepseek-flash" {
        return make(DEEPSEEK_FLASH_WINDOW, WindowSource::Fixed);
    }
    let table = vendor.as_deref().and_then(|v| cache.lookup(v, &model));
    let copilot = agent
        .strip_prefix("copilot@")
        .and_then(|m| cache.copilot.get(m).copied());
    let known = table.or(copilot);
    if let Some(l) = cache.learned.get(agent) {
        if known.is_none_or(|k| l.limit < k) {
            return make(l.limit, WindowSource::Learned);
        }
    }
    match (table, copilot) {
        (Some(w), _) => make(w, WindowSource::Table),
        (None, Some(w)) => make(w, WindowSource::Copilot),
        (None, None) => make(FALLBACK_WINDOW, WindowSource::Fallback),
    }
}

/// What a source yields: the vendor table, or Copilot's per-model limits.
#[derive(Debug, Clone, PartialEq)]
pub enum Fetched {
    Table(Table),
    Copilot(BTreeMap<String, u64>),
}

impl Fetched {
    pub fn model_count(&self) -> usize {
        match self {
            Fetched::Table(t) => t.values().map(BTreeMap::len).sum(),
            Fetched::Copilot(c) => c.len(),
        }
    }
}

/// Parse a source's answer. An empty or wrongly shaped answer is an error:
/// it must never replace a good cache.
pub fn parse_source(source: Source, body: &[u8]) -> Result<Fetched, String> {
    let v: Value = serde_json::from_slice(body).map_err(|e| format!("not JSON: {e}"))?;
    let fetched = match source {
        Source::Agenvoy => Fetched::Table(parse_agenvoy(&v)?),
        Source::Litellm => Fetched::Table(parse_litellm(&v)?),
        Source::ModelsDev => Fetched::Table(parse_models_dev(&v)?),
        Source::Openrouter => Fetched::Table(parse_openrouter(&v)?),
        Source::Copilot => Fetched::Copilot(parse_copilot(&v)?),
    };
    if fetched.model_count() == 0 {
        return Err("the answer holds no model limits".into());
    }
    Ok(fetched)
}

fn positive(v: Option<&Value>) -> Option<u64> {
    v.and_then(Value::as_u64).filter(|n| *n > 0)
}

fn insert(table: &mut Table, vendor: &str, model: &str, limit: ModelLimit) {
    let models = table.entry(vendor.to_owned()).or_default();
    // Two entries for one model (a prefixed alias): trust the smaller.
    match models.get(model) {
        Some(old) if old.input <= limit.input => {}
        _ => {
            models.insert(model.to_owned(), limit);
        }
    }
}

fn parse_agenvoy(v: &Value) -> Result<Table, String> {
    let vendors = v.as_object().ok_or("expected an object of vendors")?;
    let mut table = Table::new();
    for (vendor, models) in vendors {
        let models = models
            .as_object()
            .ok_or_else(|| format!("vendor {vendor:?} is not an object of models"))?;
        for (model, m) in models {
            let input = positive(m.get("in"))
                .ok_or_else(|| format!("{vendor}/{model} has no positive \"in\""))?;
            insert(
                &mut table,
                vendor,
                model,
                ModelLimit {
                    input,
                    output: positive(m.get("out")),
                },
            );
        }
    }
    Ok(table)
}

/// LiteLLM provider → Agenvoy vendor.
fn litellm_vendor(provider: &str) -> Option<&'static str> {
    Some(match provider {
        "openai" => "openai",
        "anthropic" => "claude",
        "gemini" => "gemini",
        "xai" => "grok",
        "mistral" => "mistral",
        "deepseek" => "deepseek",
        _ => return None,
    })
}

fn parse_litellm(v: &Value) -> Result<Table, String> {
    let entries = v.as_object().ok_or("expected an object keyed by model")?;
    let mut table = Table::new();
    for (key, e) in entries {
        if key == "sample_spec" {
            continue;
        }
        let Some(provider) = e.get("litellm_provider").and_then(Value::as_str) else {
            continue;
        };
        let Some(vendor) = litellm_vendor(provider) else {
            continue;
        };
        let mode = e.get("mode").and_then(Value::as_str).unwrap_or("chat");
        if !matches!(mode, "chat" | "completion" | "responses") {
            continue;
        }
        let Some(input) = positive(e.get("max_input_tokens")) else {
            continue;
        };
        // `gemini/gemini-2.5-pro` and `gemini-2.5-pro` name the same model.
        let model = key
            .strip_prefix(provider)
            .and_then(|m| m.strip_prefix('/'))
            .unwrap_or(key);
        insert(
            &mut table,
            vendor,
            model,
            ModelLimit {
                input,
                output: positive(e.get("max_output_tokens")),
            },
        );
    }
    Ok(table)
}

fn parse_models_dev(v: &Value) -> Result<Table, String> {
    let providers = v.as_object().ok_or("expected an object of providers")?;
    let mut table = Table::new();
    for (id, p) in providers {
        let vendor = match id.as_str() {
            "openai" => "openai",
            "anthropic" => "claude",
            "google" => "gemini",
            "xai" => "grok",
            "mistral" => "mistral",
            "deepseek" => "deepseek",
            _ => continue,
        };
        let models: Vec<(String, &Value)> = match p.get("models") {
            Some(Value::Object(m)) => m.iter().map(|(k, v)| (k.clone(), v)).collect(),
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(|m| Some((m.get("id")?.as_str()?.to_owned(), m)))
                .collect(),
            _ => continue,
        };
        for (model, m) in models {
            let limit = m.get("limit");
            // Prefer an explicit input limit; `context` includes the output.
            let Some(input) = positive(limit.and_then(|l| l.get("input")))
                .or_else(|| positive(limit.and_then(|l| l.get("context"))))
            else {
                continue;
            };
            insert(
                &mut table,
                vendor,
                &model,
                ModelLimit {
                    input,
                    output: positive(limit.and_then(|l| l.get("output"))),
                },
            );
        }
    }
    Ok(table)
}

fn parse_openrouter(v: &Value) -> Result<Table, String> {
    let data = v
        .get("data")
        .and_then(Value::as_array)
        .ok_or("expected {\"data\":[…]}")?;
    let mut table = Table::new();
    for m in data {
        let (Some(id), Some(ctx)) = (
            m.get("id").and_then(Value::as_str),
            positive(m.get("context_length")),
        ) else {
            continue;
        };
        if let Some((vendor, model)) = split_vendor_path(id) {
            let output = positive(
                m.get("top_provider")
                    .and_then(|t| t.get("max_completion_tokens")),
            );
            insert(
                &mut table,
                &vendor,
                &model,
                ModelLimit { input: ctx, output },
            );
        }
    }
    Ok(table)
}

fn parse_copilot(v: &Value) -> Result<BTreeMap<String, u64>, String> {
    let data = v
        .get("data")
        .and_then(Value::as_array)
        .ok_or("expected {\"data\":[…]}")?;
    let mut out = BTreeMap::new();
    for m in data {
        let caps = m.get("capabilities");
        if caps.and_then(|c| c.get("type")).and_then(Value::as_str) != Some("chat") {
            continue;
        }
        let limits = caps.and_then(|c| c.get("limits"));
        // max_prompt_tokens is the real input cap; the window includes output.
        let limit = positive(limits.and_then(|l| l.get("max_prompt_tokens")))
            .or_else(|| positive(limits.and_then(|l| l.get("max_context_window_tokens"))));
        if let (Some(id), Some(limit)) = (m.get("id").and_then(Value::as_str), limit) {
            out.insert(id.to_owned(), limit);
        }
    }
    Ok(out)
}

/// A change between two tables, for `limits refresh` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub vendor: String,
    pub model: String,
    pub old: Option<u64>,
    pub new: Option<u64>,
}

pub fn diff(old: &Table, new: &Table) -> Vec<Change> {
    let mut changes = Vec::new();
    let vendors: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for vendor in vendors {
        let empty = BTreeMap::new();
        let (o, n) = (
            old.get(vendor).unwrap_or(&empty),
            new.get(vendor).unwrap_or(&empty),
        );
        let models: std::collections::BTreeSet<&String> = o.keys().chain(n.keys()).collect();
        for model in models {
            let (a, b) = (o.get(model).map(|m| m.input), n.get(model).map(|m| m.input));
            if a != b {
                changes.push(Change {
                    vendor: vendor.clone(),
                    model: model.clone(),
                    old: a,
                    new: b,
                });
            }
        }
    }
    changes
}

/// The input limit a provider's context-overflow error reveals (§12.2),
/// with the matched text as evidence. `request_tokens` is what the failed
/// request was estimated at, for errors that carry no numbers.
pub fn parse_overflow_error(text: &str, request_tokens: Option<u64>) -> Option<(u64, String)> {
    struct Rule {
        re: Regex,
        limit: fn(&regex::Captures<'_>, &str) -> Option<u64>,
    }
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    let rules = RULES.get_or_init(|| {
        fn num(c: &regex::Captures<'_>, i: usize) -> Option<u64> {
            c.get(i)?.as_str().parse().ok()
        }
        let r = |p: &str| Regex::new(&format!("(?i){p}")).expect("valid rule");
        vec![
            // Anthropic: input + max_tokens > limit → the input may use limit − max_tokens
            Rule {
                re: r(r"exceed context limit:\s*(\d+)\s*\+\s*(\d+)\s*>\s*(\d+)"),
                limit: |c, _| num(c, 3)?.checked_sub(num(c, 2)?),
            },
            Rule { re: r(r"prompt is too long:\s*(\d+)\s*tokens\s*>\s*(\d+)"), limit: |c, _| num(c, 2) },
            // OpenAI, DeepSeek, OpenRouter, older vLLM; minus the output share when stated
            Rule {
                re: r(r"maximum context length is\s*(\d+)\s*tokens"),
                limit: |c, text| {
                    let total = num(c, 1)?;
                    static OUT: OnceLock<Regex> = OnceLock::new();
                    let out = OUT.get_or_init(|| {
                        Regex::new(r"(?i)(\d+)\s*(?:tokens\s*)?(?:in the completion|in the output)").unwrap()
                    });
                    match out.captures(text).and_then(|o| num(&o, 1)) {
                        Some(o) => total.checked_sub(o),
                        None => Some(total),
                    }
                },
            },
            Rule {
                re: r(r"input token count \((\d+)\) exceeds the maximum number of tokens allowed \((\d+)\)"),
                limit: |c, _| num(c, 2),
            },
            Rule { re: r(r"maximum prompt length is\s*(\d+)"), limit: |c, _| num(c, 1) },
            Rule {
                re: r(r"prompt token count of\s*(\d+)\s*exceeds the limit of\s*(\d+)"),
                limit: |c, _| num(c, 2),
            },
            Rule {
                re: r(r"too large for model with\s*(\d+)\s*maximum context length"),
                limit: |c, _| num(c, 1),
            },
            Rule {
                re: r(r"(?:decoder prompt \(length|prompt length of)\s*(\d+)\)?\s*is longer than the maximum model length of\s*(\d+)"),
                limit: |c, _| num(c, 2),
            },
            // llama.cpp: the JSON body carries n_ctx
            Rule {
                re: r(r#"exceed_context_size_error[\s\S]*?"n_ctx"\s*:\s*(\d+)|"n_ctx"\s*:\s*(\d+)[\s\S]*?exceed_context_size_error"#),
                limit: |c, _| num(c, 1).or_else(|| num(c, 2)),
            },
        ]
    });
    for rule in rules {
        if let Some(c) = rule.re.captures(text) {
            if let Some(limit) = (rule.limit)(&c, text).filter(|l| SANE_LIMIT.contains(l)) {
                return Some((limit, c.get(0).map_or("", |m| m.as_str()).to_owned()));
            }
        }
    }
    // No numbers (OpenAI Responses/Codex, …): 95 % of what the failed request held.
    if is_context_error(text) {
        let limit = request_tokens? * 95 / 100;
        return SANE_LIMIT.contains(&limit).then(|| {
            (
                limit,
                format!(
                    "95% of the failed request's {} tokens",
                    request_tokens.unwrap_or(0)
                ),
            )
        });
    }
    None
}

/// Agenvoy's context-error matcher (§12.1) plus the patterns it misses.
pub fn is_context_error(text: &str) -> bool {
    let t = text.to_lowercase();
    const NEEDLES: [&str; 16] = [
        "context_length_exceeded",
        "maximum context length",
        "prompt is too long",
        "exceeds the maximum number of tokens",
        "context window",
        "reduce the length of the messages",
        "too many tokens",
        "maximum context",
        "maximum prompt length",
        "max_tokens must be at least",
        "context length",
        "input size exceeds",
        "context limit",
        "maximum model length",
        "context size",
        "exceed_context_size_error",
    ];
    NEEDLES.iter().any(|n| t.contains(n)) || (t.contains("token count") && t.contains("exceeds"))
}

/// Store a learned limit unless what is known is already as small.
/// Returns whether it was stored.
pub fn learn(
    cache: &mut LimitsCache,
    agent: &str,
    limit: u64,
    evidence: String,
    now: DateTime<Utc>,
) -> bool {
    let current = window(agent, cache);
    if current.source != WindowSource::Fallback && current.window <= limit {
        return false;
    }
    cache.learned.insert(
        agent.to_owned(),
        Learned {
            limit,
            learned_at: now,
            evidence,
        },
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let fb = window("ollama@llama3", &c);
        assert_eq!(
            (fb.window, fb.source, fb.budget),
            (128_000, WindowSource::Fallback, 102_400)
        );

        let now = Utc::now();
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

    #[test]
    fn fetch_timing_is_injected() {
        let t0 = DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
            .unwrap()
            .to_utc();
        let mut c = LimitsCache::builtin();
        assert!(c.needs_fetch(t0), "the built-in table always wants a fetch");
        c.fetched_at = Some(t0);
        assert!(!c.needs_fetch(t0 + Duration::minutes(59)));
        assert!(c.needs_fetch(t0 + Duration::minutes(60)));
        let fail = t0 + Duration::minutes(61);
        c.record_failed_fetch(fail);
        assert!(!c.needs_fetch(fail + Duration::minutes(4)));
        assert!(c.needs_fetch(fail + Duration::minutes(5)));
    }

    #[test]
    fn overflow_errors_of_every_provider() {
        let cases: &[(&str, u64)] = &[
            ("HTTP 400: input length and `max_tokens` exceed context limit: 187254 + 20000 > 200000, decrease input length or `max_tokens` and try again", 180_000),
            (r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210312 tokens > 200000 maximum"}}"#, 200_000),
            ("This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.", 128_000),
            ("This model's maximum context length is 65536 tokens. However, you requested 70000 tokens (62000 in the messages, 8000 in the completion).", 57_536),
            ("This endpoint's maximum context length is 200000 tokens. However, you requested about 220000 tokens (180000 of text input, 40000 in the output).", 160_000),
            ("The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", 1_048_576),
            ("This model's maximum prompt length is 131072 but the request contains 140000 tokens.", 131_072),
            ("prompt token count of 140000 exceeds the limit of 128000", 128_000),
            ("Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length", 32_768),
            ("The decoder prompt (length 40000) is longer than the maximum model length of 32768.", 32_768),
            ("Prompt length of 9000 is longer than the maximum model length of 8192", 8_192),
            (r#"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}}"#, 8_192),
        ];
        for (text, want) in cases {
            assert_eq!(
                parse_overflow_error(text, None).map(|x| x.0),
                Some(*want),
                "{text}"
            );
            assert!(is_context_error(text), "{text}");
        }
        let codex = "Your input exceeds the context window of this model. Please adjust your input and try again.";
        assert_eq!(parse_overflow_error(codex, None), None);
        assert_eq!(
            parse_overflow_error(codex, Some(100_000)).map(|x| x.0),
            Some(95_000)
        );
        assert_eq!(
            parse_overflow_error("rate limit: too many requests", Some(100_000)),
            None
        );
        // absurd numbers are parse accidents
        assert_eq!(
            parse_overflow_error("maximum context length is 12 tokens", None),
            None
        );
    }

    #[test]
    fn agenvoy_source_validates_shape() {
        assert!(parse_source(
            Source::Agenvoy,
            br#"{"openai":{"gpt-4o":{"in":128000,"out":16384}}}"#
        )
        .is_ok());
        for bad in [
            &b""[..],
            b"[]",
            b"{}",
            b"{\"openai\":[]}",
            b"{\"openai\":{\"x\":{\"in\":0}}}",
            b"<html>",
        ] {
            assert!(
                parse_source(Source::Agenvoy, bad).is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn litellm_real_table_maps_to_vendors() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/litellm_excerpt.json"
        );
        let Fetched::Table(t) =
            parse_source(Source::Litellm, &std::fs::read(path).unwrap()).unwrap()
        else {
            panic!("a table")
        };
        assert_eq!(t["openai"]["gpt-4o"].input, 128_000);
        assert_eq!(t["claude"]["claude-sonnet-4-5"].input, 200_000);
        assert_eq!(
            t["gemini"]["gemini-2.5-pro"].input, 1_048_576,
            "provider prefix stripped"
        );
        assert_eq!(t["deepseek"]["deepseek-chat"].input, 131_072);
        assert!(t.contains_key("grok") && t.contains_key("mistral"));
        assert!(!t.values().any(|m| m.contains_key("sample_spec")));
        // bedrock/azure/fireworks entries are not vendors Agenvoy keys
        assert_eq!(t.len(), 6, "{:?}", t.keys().collect::<Vec<_>>());
        // embeddings are not chat models
        assert!(!t["openai"].contains_key("text-embedding-3-small"));
    }

    #[test]
    fn other_sources() {
        let md = br#"{"anthropic":{"id":"anthropic","models":{"claude-sonnet-4-5":{"limit":{"context":200000,"output":64000}}}},
                      "openai":{"models":{"gpt-5":{"limit":{"context":400000,"input":272000,"output":128000}}}},
                      "someone":{"models":{"x":{"limit":{"context":1}}}}}"#;
        let Fetched::Table(t) = parse_source(Source::ModelsDev, md).unwrap() else {
            panic!()
        };
        assert_eq!(t["claude"]["claude-sonnet-4-5"].input, 200_000);
        assert_eq!(
            t["openai"]["gpt-5"].input, 272_000,
            "an explicit input limit wins"
        );
        assert!(!t.contains_key("someone"));

        let or = br#"{"data":[{"id":"anthropic/claude-3.7-sonnet","context_length":200000,"top_provider":{"max_completion_tokens":64000}},
                               {"id":"google/gemini-2.5-pro","context_length":1048576},{"id":"broken"}]}"#;
        let Fetched::Table(t) = parse_source(Source::Openrouter, or).unwrap() else {
            panic!()
        };
        assert_eq!(t["claude"]["claude-3.7-sonnet"].output, Some(64_000));
        assert_eq!(t["gemini"]["gemini-2.5-pro"].input, 1_048_576);

        let cp = br#"{"data":[{"id":"gpt-5","capabilities":{"type":"chat","limits":{"max_prompt_tokens":128000,"max_context_window_tokens":264000}}},
                               {"id":"claude-sonnet-4","capabilities":{"type":"chat","limits":{"max_context_window_tokens":216000}}},
                               {"id":"text-embedding-3-small","capabilities":{"type":"embeddings","limits":{"max_context_window_tokens":8191}}}]}"#;
        let Fetched::Copilot(c) = parse_source(Source::Copilot, cp).unwrap() else {
            panic!()
        };
        assert_eq!(c["gpt-5"], 128_000, "max_prompt_tokens preferred");
        assert_eq!(c["claude-sonnet-4"], 216_000);
        assert!(!c.contains_key("text-embedding-3-small"));
    }

    #[test]
    fn builtin_table_is_sane() {
        let c = LimitsCache::builtin();
        assert!(c
            .table
            .values()
            .flat_map(|m| m.values())
            .all(|m| SANE_LIMIT.contains(&m.input)));
        assert_eq!(
            window("claude@claude-sonnet-4-5", &c).source,
            WindowSource::Table
        );
    }

    #[test]
    fn diff_reports_changes() {
        let a: Table = serde_json::from_str(r#"{"openai":{"a":{"in":1},"b":{"in":2}}}"#).unwrap();
        let b: Table =
            serde_json::from_str(r#"{"openai":{"a":{"in":1},"b":{"in":3},"c":{"in":4}}}"#).unwrap();
        let d = diff(&a, &b);
        assert_eq!(d.len(), 2);
        assert_eq!((d[0].old, d[0].new), (Some(2), Some(3)));
        assert_eq!((d[1].old, d[1].new), (None, Some(4)));
    }
}
