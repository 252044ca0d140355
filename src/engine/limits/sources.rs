//! Parsers of every source a window table can be fetched from, each mapped
//! onto Agenvoy's vendor and model keys. Fetching is the caller's (`net`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::{split_vendor_path, ModelLimit, Source, Table};

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
                    from: None,
                },
            );
        }
    }
    Ok(table)
}

/// LiteLLM provider → Agenvoy vendor. `github_copilot` entries are
/// Copilot's prompt caps (gpt-4o: 64K where OpenAI allows 128K); they go to
/// the `copilot` table that `copilot@` agents consult when Copilot's own
/// `/models` has not been fetched.
fn litellm_vendor(provider: &str) -> Option<&'static str> {
    Some(match provider {
        "github_copilot" => "copilot",
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
                from: None,
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
                    from: None,
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
                ModelLimit {
                    input: ctx,
                    output,
                    from: None,
                },
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
