//! The token estimate against exact counts, per kind of text, on the
//! checked-in samples (`tests/data/token_samples/`, see its README).
//!
//! Estimates may count high (budgets stay safe) but never more than 10 %
//! low, and not absurdly high either.

use sessionctl::engine::tokens::Counter;

const MIN_RATIO: f64 = 0.90;
const MAX_RATIO: f64 = 1.6;

struct Sample {
    kind: String,
    text: String,
    /// Exact o200k count, computed once: BPE is slow in debug builds.
    o200k: usize,
}

fn samples() -> &'static [Sample] {
    static SAMPLES: std::sync::OnceLock<Vec<Sample>> = std::sync::OnceLock::new();
    SAMPLES.get_or_init(load_samples)
}

fn load_samples() -> Vec<Sample> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/token_samples");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x != "md"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    let kinds: Vec<&str> = out.iter().map(|(n, _)| n.as_str()).collect();
    for kind in [
        "prose.txt",
        "code.txt",
        "build_log.txt",
        "numeric.csv",
        "json.json",
        "cjk_zh.txt",
        "japanese.txt",
        "mixed.txt",
    ] {
        assert!(kinds.contains(&kind), "sample {kind} is missing: {kinds:?}");
    }
    out.into_iter()
        .map(|(kind, text)| Sample {
            o200k: o200k(&text),
            kind,
            text,
        })
        .collect()
}

fn o200k(text: &str) -> usize {
    Counter::for_agent("openai@gpt-4o").count(text)
}

/// Tokens a tokenizer that makes every digit a token (Qwen 2/3) needs:
/// o200k cuts digit runs into groups of up to three, each one token, and
/// never merges digits with anything else, so swap the groups for digits.
fn per_digit_reference(s: &Sample) -> usize {
    let text = &s.text;
    let mut extra = 0;
    let mut run = 0usize;
    for b in text.bytes().chain([b' ']) {
        if b.is_ascii_digit() {
            run += 1;
        } else {
            extra += run - run.div_ceil(3);
            run = 0;
        }
    }
    s.o200k + extra
}

fn exact_o200k(s: &Sample) -> usize {
    s.o200k
}

fn check(agent: &str, reference: fn(&Sample) -> usize) {
    let counter = Counter::for_agent(agent);
    let mut report = Vec::new();
    let mut bad = Vec::new();
    for s in samples() {
        let (kind, est, exact) = (&s.kind, counter.count(&s.text), reference(s));
        let ratio = est as f64 / exact as f64;
        report.push(format!("{kind}: {ratio:.3} ({est} / {exact})"));
        if !(MIN_RATIO..=MAX_RATIO).contains(&ratio) {
            bad.push(kind);
        }
    }
    assert!(
        bad.is_empty(),
        "{agent} ({counter:?}) out of {MIN_RATIO}–{MAX_RATIO}× on {bad:?}:\n{}",
        report.join("\n")
    );
}

#[test]
fn every_o200k_digit_group_is_one_token() {
    // the premise of `per_digit_reference`: "0 1 … 999 00 01 … 000 001 …"
    // is one token per number plus one per separating space
    let numbers: Vec<String> = (0..1000)
        .flat_map(|n| [format!("{n}"), format!("{n:02}"), format!("{n:03}")])
        .collect();
    let text = numbers.join("\n");
    assert_eq!(o200k(&text), 2 * numbers.len() - 1);
}

#[test]
fn openai_like_estimates_hold_against_exact_o200k() {
    // Llama 3 and DeepSeek V3 cut digits like o200k; so does an OpenAI
    // model tiktoken-rs has no BPE for.
    for agent in [
        "ollama@llama3.1:8b",
        "deepseek@deepseek-chat",
        "openai@davinci-002",
    ] {
        check(agent, exact_o200k);
    }
}

#[test]
fn qwen_like_estimates_hold_against_per_digit_counts() {
    // Qwen splits every digit; unknown tokenizers are treated the same way
    for agent in [
        "ollama@qwen3:8b",
        "openrouter@qwen/qwen-2.5-72b-instruct",
        "claude@claude-sonnet-4-5",
        "gemini@gemini-2.5-pro",
    ] {
        check(agent, per_digit_reference);
    }
}
