//! Run the offline summarizer on a conversation and print what it keeps:
//! the quickest way to see what a rule does to text of your own.
//!
//!   cargo run --example summary_probe -- FILE           # key_decisions
//!   cargo run --example summary_probe -- FILE --json    # the whole summary
//!   cargo run --example summary_probe -- FILE --steps   # decisions after each record
//!
//! FILE is an Agenvoy `history.json` (tests/data/summary_eval/dev/…) or a
//! transcript `[["user", "text"], ["assistant", "text"], …]` (records a
//! minute apart); `-` reads it from stdin. The summary is merged record by
//! record within the size budget, which gives what one merge of the whole
//! conversation gives (the summary eval's
//! `incremental_merges_equal_one_shot_merges`).

use std::io::Read;

use serde_json::{json, Value};
use sessionctl::llm::offline::Offline;
use sessionctl::llm::Summarizer;
use sessionctl::store::history::{self, Record};

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .expect("usage: summary_probe FILE|- [--json|--steps]");
    let mode = args.next().unwrap_or_default();
    let mut raw = Vec::new();
    if file == "-" {
        std::io::stdin()
            .read_to_end(&mut raw)
            .expect("reading stdin");
    } else {
        raw = std::fs::read(&file).unwrap_or_else(|e| panic!("reading {file}: {e}"));
    }
    let records = parse(&raw, &file);
    let mut summary = json!({});
    let mut before = 0;
    for (i, r) in records.iter().enumerate() {
        let reply = Offline
            .merge_summary_within(&summary, std::slice::from_ref(r), None, Some(before))
            .expect("the offline summarizer does not fail");
        summary = serde_json::from_str(&reply).expect("a summary is JSON");
        before += sessionctl::llm::source_chars(r);
        if mode == "--steps" {
            println!("{i} {}: {}", r.role, summary["key_decisions"]);
        }
    }
    match mode.as_str() {
        "--steps" => {}
        "--json" => println!("{}", serde_json::to_string_pretty(&summary).unwrap()),
        _ => {
            for d in summary["key_decisions"].as_array().into_iter().flatten() {
                println!("{}", d.as_str().unwrap_or_default());
            }
        }
    }
}

/// A history.json as Agenvoy writes it, or a bare transcript of
/// `[role, text]` pairs given times a minute apart.
fn parse(raw: &[u8], name: &str) -> Vec<Record> {
    let v: Value = serde_json::from_slice(raw).unwrap_or_else(|e| panic!("{name}: {e}"));
    let transcript = v
        .as_array()
        .is_some_and(|a| a.first().is_some_and(Value::is_array));
    if !transcript {
        return history::parse(raw, std::path::Path::new(name))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    const START: i64 = 1_767_225_600_000_000_000;
    v.as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, pair)| {
            serde_json::from_value(json!({
                "role": pair[0],
                "content": pair[1],
                "sendAt": START + i as i64 * 60_000_000_000,
            }))
            .unwrap_or_else(|e| panic!("{name}: record {i}: {e}"))
        })
        .collect()
}
