//! Limits learned from context-overflow errors (docs/agenvoy-format.md#context-length-errors).

pub use crate::llm::context_error::is_context_error;
use std::sync::OnceLock;

use chrono::{DateTime, Utc};
use regex::Regex;
use serde::{Deserialize, Serialize};

use super::{window, LimitsCache, SANE_LIMIT};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Learned {
    pub limit: u64,
    pub learned_at: DateTime<Utc>,
    /// The part of the provider error the limit was read from.
    pub evidence: String,
}

/// The input limit a provider's context-overflow error reveals,
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

/// Store a learned limit unless what is known is already as small (a
/// guessed window is not known). Returns whether it was stored.
pub fn learn(
    cache: &mut LimitsCache,
    agent: &str,
    limit: u64,
    evidence: String,
    now: DateTime<Utc>,
) -> bool {
    let current = window(agent, cache);
    if !current.source.is_guess() && current.window <= limit {
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
}
