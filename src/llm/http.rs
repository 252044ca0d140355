//! LLM backends over HTTP: any OpenAI-compatible `/v1/chat/completions`
//! (OpenAI, Ollama, vLLM, llama.cpp server, OpenRouter, DeepSeek) and
//! Anthropic's `/v1/messages`. Retries 429 and 5xx with backoff, honouring
//! `Retry-After`; a context-length error comes back as `ContextLength`.
//! The API key is sent, never printed: errors name the backend and URL.

use std::time::Duration;

use serde_json::{json, Value};

use crate::error::Error;
use crate::llm::{
    summary_user_message, LlmError, Summarizer, SUMMARY_SYSTEM_PROMPT, TOOLS_SYSTEM_PROMPT,
};
use crate::store::history::Record;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    OpenAi,
    Anthropic,
}

#[derive(Clone)]
pub struct HttpSummarizer {
    pub wire: Wire,
    pub base_url: String,
    pub model: String,
    api_key: Option<String>,
    pub timeout: Duration,
    pub max_retries: u32,
}

impl std::fmt::Debug for HttpSummarizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpSummarizer")
            .field("wire", &self.wire)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

impl HttpSummarizer {
    pub fn new(
        wire: Wire,
        base_url: &str,
        model: &str,
        api_key: Option<String>,
        timeout: Duration,
    ) -> Self {
        HttpSummarizer {
            wire,
            base_url: base_url.trim_end_matches('/').to_owned(),
            model: model.to_owned(),
            api_key: api_key.filter(|k| !k.is_empty()),
            timeout,
            max_retries: 3,
        }
    }

    pub fn endpoint(&self) -> String {
        let path = match self.wire {
            Wire::OpenAi => "chat/completions",
            Wire::Anthropic => "messages",
        };
        if self.base_url.ends_with("/v1") {
            format!("{}/{path}", self.base_url)
        } else {
            format!("{}/v1/{path}", self.base_url)
        }
    }

    fn backend(&self) -> &'static str {
        match self.wire {
            Wire::OpenAi => "openai",
            Wire::Anthropic => "anthropic",
        }
    }

    /// One chat turn: system + user, returns the assistant's text.
    pub fn chat(&self, system: &str, user: &str) -> Result<String, LlmError> {
        let url = self.endpoint();
        let body = match self.wire {
            Wire::OpenAi => json!({
                "model": self.model,
                "temperature": 0,
                "messages": [{"role":"system","content":system},{"role":"user","content":user}]
            }),
            Wire::Anthropic => json!({
                "model": self.model,
                "max_tokens": 4096,
                "system": system,
                "messages": [{"role":"user","content":user}]
            }),
        };
        let client = crate::net::client(self.timeout, crate::net::Peer::Remote)?;
        let what = format!("{} backend at {url}", self.backend());
        let request = || {
            let req = client
                .post(&url)
                .header("content-type", "application/json")
                .body(body.to_string());
            let req = match (self.wire, &self.api_key) {
                (Wire::OpenAi, Some(k)) => req.bearer_auth(k),
                (Wire::Anthropic, Some(k)) => req.header("x-api-key", k),
                (_, None) => req,
            };
            match self.wire {
                Wire::Anthropic => req.header("anthropic-version", "2023-06-01"),
                Wire::OpenAi => req,
            }
        };
        // a context-length error is final even when a server sends it as a
        // 5xx: the caller halves the chunk instead
        let context_error = |a: &crate::net::Answer| {
            a.status.as_u16() != 429 && super::context_error::is_context_error(&a.text())
        };
        let fail = |why: String| Error::unavailable(self.redact(&format!("{what}: {why}")));
        let answer = crate::net::send_idempotent(self.max_retries, &what, request, context_error)?
            .map_err(|no| {
                fail(if no.timed_out {
                    format!("timed out after {:?}", self.timeout)
                } else {
                    no.error.to_string()
                })
            })?;
        let text = answer.text();
        if answer.status.is_success() {
            return self
                .extract(&text)
                .ok_or_else(|| fail(format!("unexpected answer shape: {}", shown(&text))).into());
        }
        if context_error(&answer) {
            return Err(LlmError::ContextLength(self.redact(&text)));
        }
        Err(fail(format!("HTTP {}: {}", answer.status, shown(&text))).into())
    }

    /// Servers sometimes echo the key back in an error; never pass it on.
    fn redact(&self, text: &str) -> String {
        match &self.api_key {
            Some(k) if k.len() >= 4 => text.replace(k.as_str(), "<redacted>"),
            _ => text.to_owned(),
        }
    }

    fn extract(&self, body: &str) -> Option<String> {
        let v: Value = serde_json::from_str(body).ok()?;
        let text = match self.wire {
            Wire::OpenAi => v["choices"][0]["message"]["content"].as_str()?.to_owned(),
            Wire::Anthropic => v["content"]
                .as_array()?
                .iter()
                .filter(|b| b["type"] == "text")
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join(""),
        };
        Some(text.trim().to_owned())
    }
}

/// A server's answer in an error: its start and end, bounded, with
/// control characters escaped (it reaches a terminal).
fn shown(text: &str) -> String {
    crate::net::printable(&crate::llm::offline::head_tail(text, 300), 400)
}

impl Summarizer for HttpSummarizer {
    fn name(&self) -> &'static str {
        self.backend()
    }

    fn condense_tool_steps(&self, question: &str, transcript: &str) -> crate::Result<String> {
        let user = format!(
            "The user's question:\n{question}\n\nEarlier tool calls and results:\n{transcript}"
        );
        self.chat(TOOLS_SYSTEM_PROMPT, &user)
            .map_err(|e| e.into_error(self.backend()))
    }

    fn merge_summary_within(
        &self,
        current: &Value,
        chunk: &[Record],
        repair: Option<&str>,
        source_before: Option<usize>,
    ) -> Result<String, LlmError> {
        let source =
            source_before.map(|b| b + chunk.iter().map(super::source_chars).sum::<usize>());
        let mut user = summary_user_message(current, chunk, repair);
        user.push_str(&format!(
            "\n\nKeep the whole memory JSON under {} characters: drop the oldest past \
             discussions first, decisions last.",
            super::summary_budget(source)
        ));
        self.chat(SUMMARY_SYSTEM_PROMPT, &user)
    }
}
