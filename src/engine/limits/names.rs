//! One model, several spellings. Vendors write versions with dashes
//! (`claude-opus-4-7`, Anthropic and LiteLLM), routers with dots
//! (`claude-opus-4.7`, OpenRouter and Copilot), snapshots carry a date
//! (`claude-opus-4-7-20260416`), and OpenRouter and Ollama add variants
//! after a colon (`:thinking`, `:free`, `:8b`). Lookups try the name as
//! given first, then these spellings, then a dated snapshot of it.

use std::collections::BTreeMap;

use super::ModelLimit;

/// The spellings of `model` to look up, most literal first.
pub fn candidates(model: &str) -> Vec<String> {
    let lower = model.to_ascii_lowercase();
    let base = lower.split(':').next().unwrap_or(&lower).to_owned();
    let mut out = vec![model.to_owned(), lower, base.clone()];
    for name in [base.clone(), undated(&base).to_owned()] {
        out.push(between_digits(&name, '.', '-'));
        out.push(between_digits(&name, '-', '.'));
        out.push(name);
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|c| seen.insert(c.clone()));
    out
}

/// The entry for `model` among one vendor's models, and the key it was
/// found under. Among dated snapshots of the name, the smallest wins.
pub fn find<'a>(
    models: &'a BTreeMap<String, ModelLimit>,
    model: &str,
) -> Option<(&'a str, &'a ModelLimit)> {
    let candidates = candidates(model);
    for c in &candidates {
        if let Some((k, v)) = models.get_key_value(c) {
            return Some((k, v));
        }
    }
    candidates
        .iter()
        .flat_map(|c| {
            let prefix = format!("{c}-");
            models
                .range(prefix.clone()..)
                .take_while(move |(k, _)| k.starts_with(&prefix))
                .filter(move |(k, _)| undated(k) == c)
        })
        .min_by_key(|(_, v)| v.input)
        .map(|(k, v)| (k.as_str(), v))
}

/// `name` with `from` replaced by `to` wherever both neighbours are digits.
fn between_digits(name: &str, from: char, to: char) -> String {
    let chars: Vec<char> = name.chars().collect();
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let digits_around = i > 0
                && chars[i - 1].is_ascii_digit()
                && chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if c == from && digits_around {
                to
            } else {
                c
            }
        })
        .collect()
}

/// `name` without a trailing `-20260416`, `-2026-04-16` or `-latest`.
fn undated(name: &str) -> &str {
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = name.strip_suffix("-latest") {
        return rest;
    }
    if let Some((rest, date)) = name.rsplit_once('-') {
        if date.len() == 8 && all_digits(date) {
            return rest;
        }
    }
    // YYYY-MM-DD
    let parts: Vec<&str> = name.rsplitn(4, '-').collect();
    if let [d, m, y, rest] = parts[..] {
        if [(y, 4), (m, 2), (d, 2)]
            .iter()
            .all(|(s, n)| s.len() == *n && all_digits(s))
        {
            return rest;
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(keys: &[(&str, u64)]) -> BTreeMap<String, ModelLimit> {
        keys.iter()
            .map(|(k, n)| {
                (
                    (*k).to_owned(),
                    ModelLimit {
                        input: *n,
                        output: None,
                        from: None,
                    },
                )
            })
            .collect()
    }

    #[test]
    fn spellings_meet() {
        let dashed = table(&[
            ("claude-opus-4-7", 1_000_000),
            ("claude-opus-4-7-20260416", 1_000_000),
            ("claude-sonnet-4-5", 200_000),
            ("claude-3-7-sonnet", 200_000),
            ("claude-haiku-4-5-20251001", 200_000),
            ("gpt-4o-2024-05-13", 128_000),
            ("gpt-4o-2024-08-06", 120_000),
        ]);
        for (asked, found) in [
            ("claude-opus-4.7", "claude-opus-4-7"),
            ("claude-opus-4-7", "claude-opus-4-7"),
            ("Claude-Opus-4.7", "claude-opus-4-7"),
            ("claude-sonnet-4.5", "claude-sonnet-4-5"),
            ("claude-sonnet-4.5:thinking", "claude-sonnet-4-5"),
            ("claude-3.7-sonnet", "claude-3-7-sonnet"),
            ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
            ("claude-haiku-4.5", "claude-haiku-4-5-20251001"),
            ("gpt-4o", "gpt-4o-2024-08-06"),
        ] {
            assert_eq!(find(&dashed, asked).map(|f| f.0), Some(found), "{asked}");
        }
        let dotted = table(&[("claude-sonnet-4.6", 200_000), ("gpt-4.1", 128_000)]);
        assert_eq!(
            find(&dotted, "claude-sonnet-4-6").map(|f| f.0),
            Some("claude-sonnet-4.6")
        );
        assert_eq!(find(&dotted, "gpt-4.1").map(|f| f.0), Some("gpt-4.1"));
        for absent in ["claude-opus-4.8", "gpt-4", "claude", "opus-4-7"] {
            assert_eq!(find(&dashed, absent).map(|f| f.0), None, "{absent}");
        }
    }
}
