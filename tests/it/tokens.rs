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

/// tiktoken-rs itself, not our chunked counter.
fn o200k(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton()
        .encode_ordinary(text)
        .len()
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
fn exact_counters_equal_tiktoken_on_every_sample() {
    let o200k = Counter::for_agent("openai@gpt-5");
    let cl100k = Counter::for_agent("openai@gpt-4");
    for s in samples() {
        assert_eq!(o200k.count(&s.text), s.o200k, "{}", s.kind);
        let want = tiktoken_rs::cl100k_base_singleton()
            .encode_ordinary(&s.text)
            .len();
        assert_eq!(cl100k.count(&s.text), want, "{}", s.kind);
    }
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

use crate::common::*;

fn set_model(root: &std::path::Path, session: &str, model: &str) {
    std::fs::write(
        root.join(format!("sessions/{session}/config.json")),
        format!(r#"{{"model": "{model}"}}"#),
    )
    .unwrap();
}

fn run_json(root: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let out = sessionctl(root)
        .arg("--offline")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    json_of(&out)
}

fn listed(root: &std::path::Path, session: &str) -> serde_json::Value {
    let v = run_json(root, &["sessions", "list", "--json"]);
    row_of(&v, session)
}

/// `listed` as if the files had settled (written over two seconds ago).
fn listed_settled(root: &std::path::Path, session: &str) -> serde_json::Value {
    let out = sessionctl(root)
        .env("SESSIONCTL_ROWS_SETTLED", "1")
        .args(["--offline", "sessions", "list", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    row_of(&json_of(&out), session)
}

fn row_of(v: &serde_json::Value, session: &str) -> serde_json::Value {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session"] == session)
        .unwrap()
        .clone()
}

#[test]
fn list_show_and_compact_count_a_session_with_one_counter() {
    for (model, counter) in [
        ("openai@gpt-4o", "o200k_base"),
        ("ollama@qwen3:8b", "heuristic"),
        ("ollama@llama3.1", "heuristic-digits3"),
    ] {
        let root = fixture_copy();
        let r = root.path();
        set_model(r, "tui-alice", model);
        let row = listed(r, "tui-alice");
        assert_eq!(row["counter"], counter, "{model}");
        assert_eq!(row["model"], model);

        let show = run_json(r, &["show", "tui-alice", "--json"])["results"][0].clone();
        assert_eq!(show["tokens"]["counter"], counter, "{model}");
        assert_eq!(show["history"]["tokens"], row["tokens"], "{model}");
        assert_eq!(show["tokens"]["history"], row["tokens"], "{model}");

        let compact =
            run_json(r, &["compact", "tui-alice", "--dry-run", "--json"])["results"][0].clone();
        assert_eq!(compact["counter"], counter, "{model}");
        assert_eq!(
            compact["tokens_before"], show["tokens"]["request"],
            "{model}: compact measures history + summary + largest task, as show says"
        );
    }
}

#[test]
fn exact_counts_in_list_are_tiktokens() {
    let root = fixture_copy();
    let r = root.path();
    set_model(r, "tui-alice", "copilot@gpt-4.1");
    let records: Vec<sessionctl::store::history::Record> =
        serde_json::from_slice(&std::fs::read(r.join("sessions/tui-alice/history.json")).unwrap())
            .unwrap();
    let bpe = tiktoken_rs::o200k_base_singleton();
    // TZ=UTC, as `sessionctl()` runs the binary
    std::env::set_var("TZ", "UTC");
    let want: usize = records
        .iter()
        .map(|rec| {
            let prefix = sessionctl::engine::tokens::prefix_line(rec);
            4 + bpe.encode_ordinary(&prefix).len() + bpe.encode_ordinary(&rec.text()).len()
        })
        .sum();
    assert_eq!(listed(r, "tui-alice")["tokens"], want);
}

#[test]
fn listing_sessions_that_need_no_bpe_never_loads_one() {
    let root = fixture_copy();
    let r = root.path();
    let verbose_list = || {
        let out = sessionctl(r)
            .args(["-v", "sessions", "list"])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // every fixture session runs on Claude
    assert!(
        verbose_list().contains("BPE tables loaded: none"),
        "{}",
        verbose_list()
    );
    set_model(r, "tui-alice-2", "openai@gpt-5");
    let stderr = verbose_list();
    assert!(stderr.contains("BPE tables loaded: o200k_base"), "{stderr}");
    let out = sessionctl(r).args(["sessions", "list"]).output().unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    // piped: one tab-separated row per session
    let line = |id: &str| {
        table
            .lines()
            .find(|l| l.starts_with(&format!("{id}\t")))
            .unwrap()
            .to_owned()
    };
    assert!(line("tui-alice-2").contains(" o200k\t"), "{table}");
    assert!(line("tui-alice").contains(" est\t"), "{table}");
    assert!(
        line("tui-alice").contains("\t~"),
        "estimates are marked: {table}"
    );
}

#[test]
fn exact_counts_are_reused_until_history_changes() {
    let root = fixture_copy();
    let r = root.path();
    set_model(r, "tui-alice", "openai@gpt-4o");
    let history = r.join("sessions/tui-alice/history.json");
    // written just now (a copy may keep the fixture's old times)
    std::fs::write(&history, std::fs::read(&history).unwrap()).unwrap();
    let real = listed(r, "tui-alice")["tokens"].as_u64().unwrap();
    let cache_path = r.join(".sessionctl/tokens.json");
    assert!(
        !cache_path.exists(),
        "a history.json changed a moment ago is not remembered (coarse timestamps): {:?}",
        std::fs::read_to_string(&cache_path)
    );
    // once the file has settled, its count is remembered …
    assert_eq!(listed_settled(r, "tui-alice")["tokens"], real);
    let mut cache: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&cache_path).unwrap()).unwrap();
    assert_eq!(cache["sessions"]["tui-alice"]["tokens"], real);
    assert!(
        cache["sessions"].get("discord-9001").is_none(),
        "estimates are not cached"
    );
    // … and used: a planted count shows while the file is unchanged
    cache["sessions"]["tui-alice"]["tokens"] = 123456.into();
    std::fs::write(&cache_path, cache.to_string()).unwrap();
    assert_eq!(listed(r, "tui-alice")["tokens"], 123456);
    // another counter (the model changed) or another file version: counted again
    set_model(r, "tui-alice", "openai@gpt-4");
    assert_ne!(listed(r, "tui-alice")["tokens"], 123456);
    set_model(r, "tui-alice", "openai@gpt-4o");
    let mut records: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&history).unwrap()).unwrap();
    records
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"role":"user","content":"one more"}));
    std::fs::write(&history, serde_json::to_vec_pretty(&records).unwrap()).unwrap();
    let after = listed(r, "tui-alice")["tokens"].as_u64().unwrap();
    assert!(after > real && after != 123456, "{after}");
}

#[test]
fn show_names_the_counter() {
    let root = fixture_copy();
    let r = root.path();
    set_model(r, "tui-alice", "openai@gpt-4o");
    let out = sessionctl(r)
        .args(["--offline", "show", "tui-alice"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("counted with o200k_base (exact) for openai@gpt-4o"),
        "{text}"
    );
    assert!(text.contains("per request: history"), "{text}");
}

#[test]
fn a_broken_config_json_is_flagged_and_the_rest_still_lists() {
    let root = fixture_copy();
    let r = root.path();
    std::fs::write(r.join("sessions/tui-alice/config.json"), "{\"model\": ").unwrap();
    let before = snapshot(r);
    let out = sessionctl(r)
        .args(["--offline", "sessions", "list", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65));
    let v = json_of(&out);
    let said = v["errors"][0]["message"].as_str().unwrap_or("");
    assert!(said.contains("tui-alice/config.json"), "{v}");
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "every session still lists");
    let alice = rows.iter().find(|s| s["session"] == "tui-alice").unwrap();
    assert_eq!(alice["counter"], "heuristic", "counted the safe way");
    assert!(alice["problems"][0]
        .as_str()
        .unwrap()
        .contains("config.json"));
    let out = sessionctl(r)
        .args(["--offline", "show", "tui-alice", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65));
    assert_eq!(json_of(&out)["results"][0]["history"]["records"], 4);
    assert_eq!(snapshot(r), before, "nothing modified");
}
