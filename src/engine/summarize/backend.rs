//! Which summarizer writes summaries and folds tool steps, built from plain
//! settings: command modules say what they want, only the engine talks to
//! `llm`.

use std::time::Duration;

use crate::error::{Error, Result};
use crate::llm::http::{HttpSummarizer, Wire};
use crate::llm::offline::Offline;
use crate::llm::Summarizer;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SummarizerKind {
    /// Deterministic and extractive; no network, no key
    Offline,
    /// Any OpenAI-compatible /v1/chat/completions server
    Openai,
    /// Anthropic /v1/messages
    Anthropic,
}

/// How to reach a summarizer.
#[derive(Debug, Clone)]
pub struct SummarizerSpec {
    pub kind: SummarizerKind,
    pub url: Option<String>,
    pub model: Option<String>,
    pub api_key: Option<String>,
    pub timeout: Duration,
    /// `--offline`: a remote summarizer is refused, not silently replaced.
    pub offline: bool,
}

impl SummarizerSpec {
    /// The agent name a learned limit is filed under for this backend.
    pub fn agent(&self) -> Option<String> {
        let model = self.model.as_ref()?;
        match self.kind {
            SummarizerKind::Offline => None,
            SummarizerKind::Openai => Some(format!("openai@{model}")),
            SummarizerKind::Anthropic => Some(format!("claude@{model}")),
        }
    }
}

/// The summarizer the settings ask for. Remote ones need a model name.
pub fn summarizer(spec: &SummarizerSpec) -> Result<Box<dyn Summarizer>> {
    let remote = |wire, default_url: &str| -> Result<Box<dyn Summarizer>> {
        if spec.offline {
            return Err(Error::usage(
                "--offline forbids network requests, and this summarizer is a remote model",
            )
            .with_hint("drop --offline, or use --summarizer offline"));
        }
        let model = spec.model.clone().ok_or_else(|| {
            Error::usage(
                "a remote summarizer needs a model: pass --llm-model or set SESSIONCTL_LLM_MODEL",
            )
        })?;
        let url = spec.url.clone().unwrap_or_else(|| default_url.to_owned());
        Ok(Box::new(HttpSummarizer::new(
            wire,
            &url,
            &model,
            spec.api_key.clone(),
            spec.timeout,
        )))
    };
    match spec.kind {
        SummarizerKind::Offline => Ok(Box::new(Offline)),
        SummarizerKind::Openai => remote(Wire::OpenAi, "https://api.openai.com"),
        SummarizerKind::Anthropic => remote(Wire::Anthropic, "https://api.anthropic.com"),
    }
}
