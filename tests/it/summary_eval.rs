//! Faithfulness of the offline summarizer on hand-annotated conversations
//! (tests/data/summary_eval/<set>/: `<name>.history.json` as Agenvoy writes
//! it, `<name>.expected.json` written by hand before the summarizer ran on
//! it). Three sets:
//! - `dev`: 317 conversations the rules may be tuned on: 59 written in
//!   rounds, each annotated before any run (22 with the first test set,
//!   then batches in shapes and styles the others lacked: implicit
//!   acceptances, options by letter or number, decisions taken back by
//!   subject, keigo, casual, formal and terse chat in four languages); and
//!   the 258 of 27 held-out and validation sets written by helpers who
//!   never saw the rules, each moved here once it had been scored (set X,
//!   the last, in session 39);
//! - `test`: 10 held out (set Y), written in session 39 by helpers who saw
//!   neither the rules nor any other eval text, from the brief the earlier
//!   writers had (tests/data/summary_eval/WRITING.md): a Node.js service
//!   leaking memory, then structured logging, in an English coding-agent
//!   session; a home NAS backed up to Backblaze, then Pi-hole, in casual
//!   English; a photo club's exhibition, then collecting dues, in casual
//!   Japanese; smart lights, then the home router, in casual Chinese; a
//!   Spring Boot / Java 21 upgrade, then Grafana alerts, in Chinese mixed
//!   with English (those five over 20k characters, with a topic change
//!   after a day); RDS snapshot retention in Terraform (English agent), a
//!   dental clinic's reminders in keigo, annual-meeting vendors in formal
//!   Chinese, a Unity game's asset bundles in Japanese mixed with English,
//!   a RabbitMQ backlog in terse chat; 194 decisions. A gap of more than 0.1
//!   between it and dev says the rules fit the dev text rather than the
//!   language.
//!   Neither set meets the aims; each asserts floors at the figures last
//!   measured (`DEV`, `TEST`);
//! - `legacy`: the eight conversations the first rules were written
//!   against (one-term annotations, their own older thresholds).
//!
//! Measured per set and per language/style: decision precision and recall,
//! reversed decisions kept, open-question recall, answered questions left
//! open, fact recall, past topics, "no cut numbers" (every number in the
//! summary occurs whole in the source: "1.7" is not whole in "1.75"), size
//! against the source and the
//! budget (`llm::summary_budget`). Aims (the goal on both sets; met
//! on the first 59 dev conversations only):
//! - decision precision ≥ 0.85 at recall ≥ 0.75, every language ≥ 0.6
//!   recall: key_decisions bind Agenvoy's model, a wrong one costs more
//!   than a missing one;
//! - no reversed decision kept: a replaced decision left binding is the
//!   worst error a summary can make;
//! - fact recall ≥ 0.7, open-question recall ≥ 0.7;
//! - no cut numbers; never over the budget.
//!
//! Matching (`Terms`) is strict on purpose: an annotation lists key terms
//! (groups of alternatives, `"pool|max_conns"`), every group must occur in
//! one summary line (a decision line of the right polarity, one sentence
//! for a fact, one `Open:` item for a question), ASCII terms as whole words
//! and whole numbers ("35" is not in "350" or "3.5"). A decision annotation
//! with one term must name something specific (five letters or more, three
//! CJK characters, or a digit or sign), so that no single common word can
//! satisfy it. `past` decisions may instead sit in a past discussion, after
//! their `要：`/`不要：` prefix.
//!
//! Run with `--nocapture` to see the figures (`SUMMARY_EVAL_SHOW=1` prints
//! every summary, `SUMMARY_EVAL_DUMP=<dir>` writes each to `<dir>/<name>.json`,
//! `SUMMARY_EVAL_ONLY=<part of a name>` scores only those). To see what a
//! rule does to one conversation or to a few lines of your own, `cargo run
//! --example summary_probe -- <history.json or transcript> [--json|--steps]`.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use rayon::prelude::*;
use serde_json::{json, Value};
use sessionctl::llm::offline::Offline;
use sessionctl::llm::Summarizer;
use sessionctl::store::history::{self, Record};

fn set_dir(set: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/summary_eval")
        .join(set)
}

struct Conversation {
    name: String,
    records: Vec<Record>,
    expected: Annotation,
}

fn conversations(set: &str) -> Vec<Conversation> {
    let dir = set_dir(set);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".history.json").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let path = dir.join(format!("{name}.history.json"));
            let records = history::parse(&std::fs::read(&path).unwrap(), &path).unwrap();
            let raw: Value = serde_json::from_slice(
                &std::fs::read(dir.join(format!("{name}.expected.json"))).unwrap(),
            )
            .unwrap();
            let expected = Annotation::parse(&name, &raw, set != "legacy");
            Conversation {
                name,
                records,
                expected,
            }
        })
        .collect()
}

/// Key terms: every group must occur; a group is alternatives.
#[derive(Debug, Clone)]
struct Terms(Vec<Vec<String>>);

impl Terms {
    fn parse(v: &Value) -> Terms {
        Terms(
            v.as_array()
                .unwrap()
                .iter()
                .map(|g| {
                    g.as_str()
                        .unwrap()
                        .split('|')
                        .map(|t| t.trim().to_lowercase())
                        .collect()
                })
                .collect(),
        )
    }

    /// Is there no single common word that satisfies these terms?
    fn is_specific(&self) -> bool {
        let specific = |t: &str| {
            let cjk = t
                .chars()
                .filter(|c| !c.is_ascii() && c.is_alphabetic())
                .count();
            t.chars().any(|c| !c.is_alphabetic()) || cjk >= 3 || t.is_ascii() && t.len() >= 5
        };
        self.0.len() >= 2 || self.0.iter().flatten().all(|t| specific(t))
    }

    fn found_in(&self, text: &str) -> bool {
        let text = text.to_lowercase();
        self.0
            .iter()
            .all(|group| group.iter().any(|t| occurs(&text, t)))
    }
}

/// `term` occurs in `text` (both lower case); where the term begins or ends
/// with an ASCII letter or digit, as a whole word there, and a number is
/// not part of a longer number ("35" is not in "350", "3.5" or "1,35").
fn occurs(text: &str, term: &str) -> bool {
    let starts_word = term
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric());
    let ends_word = term
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric());
    text.match_indices(term).any(|(i, _)| {
        let before: Vec<char> = text[..i].chars().rev().take(2).collect();
        let after: Vec<char> = text[i + term.len()..].chars().take(2).collect();
        let word = |c: &char| c.is_ascii_alphanumeric() || *c == '_';
        let left_ok = !starts_word
            || match before.as_slice() {
                [c, ..] if word(c) => false,
                ['.' | ',', d, ..] if d.is_ascii_digit() => false,
                _ => true,
            };
        let right_ok = !ends_word
            || match after.as_slice() {
                [c, ..] if word(c) => false,
                ['.' | ',', d, ..] if d.is_ascii_digit() => false,
                _ => true,
            };
        left_ok && right_ok
    })
}

#[derive(Debug, Clone)]
struct Expect {
    /// "要", "不要" or both.
    polarities: Vec<String>,
    terms: Terms,
    past: bool,
}

impl Expect {
    fn parse(v: &Value) -> Expect {
        Expect {
            polarities: v["polarity"]
                .as_str()
                .unwrap()
                .split('|')
                .map(str::to_owned)
                .collect(),
            terms: Terms::parse(&v["all"]),
            past: v["past"].as_bool().unwrap_or(false),
        }
    }

    /// A line `要：…`/`不要：…` states this decision.
    fn matches(&self, line: &str) -> bool {
        let (polarity, body) = split_polarity(line);
        polarity.is_some_and(|p| self.polarities.iter().any(|x| x == p))
            && self.terms.found_in(body)
    }
}

/// The decisions one key_decisions entry holds: the offline summarizer
/// lets the oldest decisions share an entry (`要：A；不要：B`) when there
/// are more than eight. Each is scored on its own, so a shared entry is
/// never one correct decision carrying a wrong one.
fn decisions_of_entry(entry: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut rest = entry;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        if c == '；' && (after.starts_with("要：") || after.starts_with("不要：")) {
            parts.push(String::new());
        } else {
            parts.last_mut().unwrap().push(c);
        }
        rest = after;
    }
    parts
}

fn split_polarity(line: &str) -> (Option<&'static str>, &str) {
    let line = line.trim();
    if let Some(b) = line.strip_prefix("不要：") {
        (Some("不要"), b)
    } else if let Some(b) = line.strip_prefix("要：") {
        (Some("要"), b)
    } else {
        (None, line)
    }
}

struct Annotation {
    lang: String,
    decisions: Vec<Expect>,
    optional: Vec<Expect>,
    reversed: Vec<Expect>,
    questions: Vec<Terms>,
    answered: Vec<Terms>,
    facts: Vec<Terms>,
    past_topics: Vec<Terms>,
}

impl Annotation {
    /// `strict`: the dev and test sets, whose decision annotations must be
    /// specific (see the module comment).
    fn parse(name: &str, v: &Value, strict: bool) -> Annotation {
        let list = |k: &str| v[k].as_array().cloned().unwrap_or_default();
        let expects = |k: &str| list(k).iter().map(Expect::parse).collect::<Vec<_>>();
        let terms = |k: &str| list(k).iter().map(Terms::parse).collect::<Vec<_>>();
        let a = Annotation {
            lang: v["lang"]
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| name.split('_').next().unwrap().to_owned()),
            decisions: expects("decisions"),
            optional: expects("optional"),
            reversed: expects("reversed"),
            questions: terms("questions"),
            answered: terms("answered"),
            facts: terms("facts"),
            past_topics: terms("past_topics"),
        };
        if strict {
            for e in a.decisions.iter().chain(&a.optional) {
                assert!(
                    e.terms.is_specific(),
                    "{name}: {:?} can be met by one common word",
                    e.terms
                );
            }
        }
        a
    }
}

/// One merge into an empty summary, as `summarize` makes the first one: the
/// size budget counts the source from 0.
fn summarize(records: &[Record]) -> Value {
    let reply = Offline
        .merge_summary_within(&json!({}), records, None, Some(0))
        .unwrap();
    serde_json::from_str(&reply).unwrap()
}

/// The one-shot summary of a conversation of a set, made once per test
/// process: the evals and the incremental check all need it, and making
/// it is most of their time (each caller waits only for the one
/// conversation another is summarizing).
fn one_shot(set: &str, c: &Conversation) -> Value {
    type Made = Mutex<HashMap<String, Arc<OnceLock<Value>>>>;
    static MADE: LazyLock<Made> = LazyLock::new(Made::default);
    let cell = MADE
        .lock()
        .unwrap()
        .entry(format!("{set}/{}", c.name))
        .or_default()
        .clone();
    cell.get_or_init(|| summarize(&c.records)).clone()
}

/// Every string of the summary but the times (`last_discussed`,
/// `resumed`) and the summarizer's own working state (`focus`, what the
/// last turn was about): facts and
/// decisions count only where a reader finds them.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m
            .iter()
            .filter(|(k, _)| !["last_discussed", "resumed", "focus"].contains(&k.as_str()))
            .for_each(|(_, x)| strings(x, out)),
        _ => {}
    }
}

/// The labelled segments of a text: what follows each `Open: `, `要：`,
/// `不要：` or `Proposed: ` label, up to the next label.
fn segments<'a>(text: &'a str, label: &str) -> Vec<&'a str> {
    const LABELS: [&str; 4] = ["Open: ", "Proposed: ", "不要：", "要："];
    let mut starts: Vec<(usize, &str)> = Vec::new();
    for l in LABELS {
        for (i, _) in text.match_indices(l) {
            // "要：" inside "不要：" is the same label
            if l == "要：" && text[..i].ends_with('不') {
                continue;
            }
            starts.push((i, l));
        }
    }
    starts.sort();
    starts
        .iter()
        .enumerate()
        .filter(|(_, (_, l))| *l == label)
        .map(|(k, (i, l))| {
            let end = starts.get(k + 1).map_or(text.len(), |x| x.0);
            &text[i + l.len()..end]
        })
        .collect()
}

/// The "Open: …" items of the current perspectives and past directions.
fn open_items(s: &Value) -> Vec<String> {
    let mut fields = vec![s["current_discussion"]["perspectives"]
        .as_str()
        .unwrap_or("")
        .to_owned()];
    for p in s["past_discussions"].as_array().unwrap() {
        fields.push(p["direction"].as_str().unwrap_or("").to_owned());
    }
    fields
        .iter()
        .flat_map(|f| segments(f, "Open: ").into_iter().map(str::to_owned))
        .collect()
}

/// Decision lines recorded in past discussions (`要：…` inside their text),
/// each up to its sentence's end: in a description the sentences after a
/// filed decision are facts, no part of it.
fn past_decision_lines(s: &Value) -> Vec<String> {
    let mut texts = Vec::new();
    for p in s["past_discussions"].as_array().unwrap() {
        strings(p, &mut texts);
    }
    let mut out = Vec::new();
    for t in &texts {
        for label in ["要：", "不要："] {
            out.extend(
                segments(t, label)
                    .into_iter()
                    .map(|seg| format!("{label}{}", first_sentence(seg))),
            );
        }
    }
    out
}

/// A text up to its first sentence end ("。", or ". " and the like).
fn first_sentence(text: &str) -> &str {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let next_space = chars.get(k + 1).is_none_or(|n| n.1 == ' ');
        if matches!(c, '。' | '！' | '？') || matches!(c, '.' | '!' | '?') && next_space {
            return &text[..i + c.len_utf8()];
        }
    }
    text
}

/// The sentences of every string of the summary: a fact must be stated
/// with its subject in one of them.
fn sentences_of(s: &Value) -> Vec<String> {
    let mut texts = Vec::new();
    strings(s, &mut texts);
    let mut out = Vec::new();
    for t in texts {
        let mut start = 0;
        let chars: Vec<(usize, char)> = t.char_indices().collect();
        for (k, &(i, c)) in chars.iter().enumerate() {
            let next_space = chars.get(k + 1).is_none_or(|n| n.1 == ' ');
            if matches!(c, '。' | '！' | '？') || matches!(c, '.' | '!' | '?') && next_space {
                out.push(t[start..i + c.len_utf8()].to_owned());
                start = i + c.len_utf8();
            }
        }
        out.push(t[start..].to_owned());
    }
    out
}

/// Every string the summarizer took from the conversation, its own labels
/// ("Open: ", "要：") cut off.
fn quoted_strings(v: &Value) -> Vec<String> {
    let mut all = Vec::new();
    strings(v, &mut all);
    let mut out = Vec::new();
    for s in all {
        let mut s = s.clone();
        for label in [
            "Open: ",
            "Proposed: ",
            "Advised against: ",
            "不要：",
            "要：",
        ] {
            s = s.replace(label, "\n");
        }
        out.extend(s.split('\n').map(str::to_owned));
    }
    out
}

/// Number tokens ("1.75", "10,000", "3"), not those inside identifiers
/// ("fs4", "v2.0", "UTF-8").
fn number_tokens(text: &str) -> Vec<&str> {
    let re = regex::Regex::new(r"\d+(?:[.,:]\d+)*").unwrap();
    re.find_iter(text)
        .filter(|m| {
            let mut before = text[..m.start()].chars().rev();
            let attached = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
            match before.next() {
                Some(c) if attached(c) => false,
                Some('-') => !before.next().is_some_and(|c| c.is_ascii_alphabetic()),
                _ => true,
            }
        })
        .map(|m| m.as_str())
        .collect()
}

/// `number` occurs whole in `source`: not preceded by a digit or a
/// decimal mark and not followed by more of a number ("1.7" is not whole
/// in "1.75", nor "75" in "1.75", nor "10" in "10,000").
fn occurs_whole(source: &str, number: &str) -> bool {
    source.match_indices(number).any(|(i, _)| {
        let before: Vec<char> = source[..i].chars().rev().take(2).collect();
        let after: Vec<char> = source[i + number.len()..].chars().take(2).collect();
        let left = !matches!(before.as_slice(), [c, ..] if c.is_ascii_digit())
            && !matches!(before.as_slice(), ['.' | ',', d, ..] if d.is_ascii_digit());
        let right = !matches!(after.as_slice(), [c, ..] if c.is_ascii_digit())
            && !matches!(after.as_slice(), ['.' | ',' | ':', d] if d.is_ascii_digit());
        left && right
    })
}

#[derive(Default, Clone)]
struct Tally {
    out_decisions: usize,
    correct_decisions: usize,
    reversed_kept: usize,
    expected_decisions: usize,
    found_decisions: usize,
    expected_questions: usize,
    found_questions: usize,
    answered_open: usize,
    expected_facts: usize,
    found_facts: usize,
    expected_past: usize,
    found_past: usize,
    summary_chars: usize,
    source_chars: usize,
    budget: usize,
    cut_numbers: Vec<String>,
    over_budget: Vec<String>,
}

impl Tally {
    fn add(&mut self, t: &Tally) {
        self.out_decisions += t.out_decisions;
        self.correct_decisions += t.correct_decisions;
        self.reversed_kept += t.reversed_kept;
        self.expected_decisions += t.expected_decisions;
        self.found_decisions += t.found_decisions;
        self.expected_questions += t.expected_questions;
        self.found_questions += t.found_questions;
        self.answered_open += t.answered_open;
        self.expected_facts += t.expected_facts;
        self.found_facts += t.found_facts;
        self.expected_past += t.expected_past;
        self.found_past += t.found_past;
        self.summary_chars += t.summary_chars;
        self.source_chars += t.source_chars;
        self.budget += t.budget;
        self.cut_numbers.extend(t.cut_numbers.iter().cloned());
        self.over_budget.extend(t.over_budget.iter().cloned());
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// Score one summary against its annotation; print what is wrong.
fn score(name: &str, records: &[Record], exp: &Annotation, s: &Value) -> Tally {
    let source: String = records
        .iter()
        .map(|r| r.text().into_owned())
        .collect::<Vec<_>>()
        .join("\n");
    let mut t = Tally::default();

    let decisions: Vec<String> = s["key_decisions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| decisions_of_entry(d.as_str().unwrap()))
        .collect();
    t.out_decisions = decisions.len();
    for d in &decisions {
        let required = exp.decisions.iter().any(|e| e.matches(d));
        let optional = exp.optional.iter().any(|e| e.matches(d));
        let reversed = exp.reversed.iter().any(|e| e.matches(d));
        if reversed && !required {
            t.reversed_kept += 1;
            println!("  {name}: REVERSED decision kept {d:?}");
        } else if required || optional {
            t.correct_decisions += 1;
        } else {
            println!("  {name}: unexpected decision {d:?}");
        }
    }
    let past_lines = past_decision_lines(s);
    for e in &exp.decisions {
        t.expected_decisions += 1;
        let found = decisions.iter().any(|d| e.matches(d))
            || e.past && past_lines.iter().any(|d| e.matches(d));
        if found {
            t.found_decisions += 1;
        } else {
            println!(
                "  {name}: missing decision {}{:?}",
                e.polarities.join("|"),
                e.terms.0
            );
        }
    }

    let opens = open_items(s);
    for q in &exp.questions {
        t.expected_questions += 1;
        if opens.iter().any(|o| q.found_in(o)) {
            t.found_questions += 1;
        } else {
            println!("  {name}: missing open question {:?}", q.0);
        }
    }
    for q in &exp.answered {
        if let Some(o) = opens.iter().find(|o| q.found_in(o)) {
            t.answered_open += 1;
            println!("  {name}: answered question still open {o:?}");
        }
    }

    let sentences = sentences_of(s);
    for f in &exp.facts {
        t.expected_facts += 1;
        if sentences.iter().any(|x| f.found_in(x)) {
            t.found_facts += 1;
        } else {
            println!("  {name}: missing fact {:?}", f.0);
        }
    }

    let past: Vec<String> = s["past_discussions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{} {}", p["topic"], p["description"]))
        .collect();
    for p in &exp.past_topics {
        t.expected_past += 1;
        if past.iter().any(|x| p.found_in(x)) {
            t.found_past += 1;
        } else {
            println!("  {name}: missing past discussion {:?}", p.0);
        }
    }

    for text in quoted_strings(s) {
        for n in number_tokens(&text) {
            if !occurs_whole(&source, n) {
                t.cut_numbers.push(format!("{name}: {n:?} in {text:?}"));
            }
        }
    }
    t.summary_chars = s.to_string().chars().count();
    t.source_chars = source.chars().count();
    t.budget = sessionctl::llm::summary_budget(Some(
        records.iter().map(sessionctl::llm::source_chars).sum(),
    ));
    if t.summary_chars > t.budget {
        t.over_budget
            .push(format!("{name}: {} > {}", t.summary_chars, t.budget));
    }
    assert!(
        sessionctl::store::summary::is_valid(s.as_object().unwrap()),
        "{name}: {s}"
    );
    t
}

fn row(label: &str, t: &Tally) {
    println!(
        "{:<34} {:>8} {:>8} {:>4} {:>7} {:>4} {:>7} {:>5} {:>6.0}% {:>6.0}%",
        label,
        format!("{}/{}", t.correct_decisions, t.out_decisions),
        format!("{}/{}", t.found_decisions, t.expected_decisions),
        t.reversed_kept,
        format!("{}/{}", t.found_questions, t.expected_questions),
        t.answered_open,
        format!("{}/{}", t.found_facts, t.expected_facts),
        format!("{}/{}", t.found_past, t.expected_past),
        100.0 * ratio(t.summary_chars, t.source_chars),
        100.0 * ratio(t.summary_chars, t.budget),
    );
}

/// The figures of one set, printed; the totals and per-language tallies.
fn evaluate(set: &str) -> (Tally, BTreeMap<String, Tally>) {
    println!("== summary eval: {set} ==");
    println!(
        "{:<34} {:>8} {:>8} {:>4} {:>7} {:>4} {:>7} {:>5} {:>7} {:>7}",
        "conversation",
        "dec.prec",
        "dec.rec",
        "rev",
        "q.rec",
        "ans",
        "facts",
        "past",
        "size",
        "budget"
    );
    let mut total = Tally::default();
    let mut by_lang: BTreeMap<String, Tally> = BTreeMap::new();
    let only = std::env::var("SUMMARY_EVAL_ONLY").unwrap_or_default();
    for c in conversations(set)
        .into_iter()
        .filter(|c| c.name.contains(&only))
    {
        let s = one_shot(set, &c);
        if std::env::var_os("SUMMARY_EVAL_SHOW").is_some() {
            println!("{}", serde_json::to_string_pretty(&s).unwrap());
        }
        if let Some(dir) = std::env::var_os("SUMMARY_EVAL_DUMP") {
            let path = PathBuf::from(dir).join(format!("{}.json", c.name));
            std::fs::write(path, serde_json::to_string_pretty(&s).unwrap()).unwrap();
        }
        let t = score(&c.name, &c.records, &c.expected, &s);
        row(&c.name, &t);
        total.add(&t);
        by_lang.entry(c.expected.lang.clone()).or_default().add(&t);
    }
    for (lang, t) in &by_lang {
        row(&format!("  [{lang}]"), t);
    }
    row("TOTAL", &total);
    println!(
        "{set}: decision precision {:.2}, recall {:.2}, reversed kept {}, open-question recall {:.2}, \
         answered left open {}, fact recall {:.2}, past topics {:.2}, cut numbers {}, size {:.0}% of \
         the source, {:.0}% of the budget",
        ratio(total.correct_decisions, total.out_decisions),
        ratio(total.found_decisions, total.expected_decisions),
        total.reversed_kept,
        ratio(total.found_questions, total.expected_questions),
        total.answered_open,
        ratio(total.found_facts, total.expected_facts),
        ratio(total.found_past, total.expected_past),
        total.cut_numbers.len(),
        100.0 * ratio(total.summary_chars, total.source_chars),
        100.0 * ratio(total.summary_chars, total.budget),
    );
    (total, by_lang)
}

/// What a set must not fall below: the figures last measured on it. The
/// aims of the module comment are not met on either set (see `DEV` and
/// `TEST`); these floors make a change that loses decisions, facts or a
/// language fail, and are raised when a finished change raises the
/// figures.
struct Floors {
    precision: f64,
    recall: f64,
    facts: f64,
    questions: f64,
    max_reversed: usize,
    max_answered_open: usize,
    by_language: [(&'static str, f64); 5],
}

fn assert_floors(set: &str, f: &Floors, total: &Tally, by_lang: &BTreeMap<String, Tally>) {
    let precision = ratio(total.correct_decisions, total.out_decisions);
    let recall = ratio(total.found_decisions, total.expected_decisions);
    let questions = ratio(total.found_questions, total.expected_questions);
    let facts = ratio(total.found_facts, total.expected_facts);
    let aims_met = precision >= 0.85
        && recall >= 0.75
        && facts >= 0.7
        && questions >= 0.7
        && total.reversed_kept == 0
        && by_lang
            .values()
            .all(|t| ratio(t.found_decisions, t.expected_decisions) >= 0.6);
    println!(
        "{set}: the aims (precision >= 0.85 at recall >= 0.75, facts and open questions >= 0.7, \
         no reversed decision kept, every language >= 0.6) are {}met",
        if aims_met { "" } else { "NOT " }
    );
    assert!(total.cut_numbers.is_empty(), "{:#?}", total.cut_numbers);
    assert!(total.over_budget.is_empty(), "{:#?}", total.over_budget);
    let checks = [
        ("decision precision", precision, f.precision),
        ("decision recall", recall, f.recall),
        ("fact recall", facts, f.facts),
        ("open-question recall", questions, f.questions),
    ];
    for (what, got, floor) in checks {
        assert!(got >= floor, "{set}: {what} {got:.2} fell below {floor}");
    }
    assert!(
        total.reversed_kept <= f.max_reversed,
        "{set}: {} reversed decisions kept (at most {})",
        total.reversed_kept,
        f.max_reversed
    );
    assert!(
        total.answered_open <= f.max_answered_open,
        "{set}: {} answered questions left open (at most {})",
        total.answered_open,
        f.max_answered_open
    );
    for (lang, floor) in f.by_language {
        let t = &by_lang[lang];
        let r = ratio(t.found_decisions, t.expected_decisions);
        assert!(
            r >= floor,
            "{set}: {lang} decision recall {r:.2} fell below {floor}"
        );
    }
    assert_eq!(
        by_lang.len(),
        f.by_language.len(),
        "{set}: a language without a floor"
    );
}

// Dev, 217 conversations: the 59 the rules were tuned on, the 28 of the
// first three held-out sets, the 9 of a validation set written in session
// 10, the held-out sets of sessions 11 to 21 (sets F to N) moved here once
// their figures had been used (`git log` of this file has each session's
// steps). Session 20 ended the first 187 at precision 0.68 (1240/1816),
// recall 0.65 (1212/1863), facts 0.66 (1149/1740), reversed kept 24; with
// set L, 197 conversations, at precision 0.68 (1327/1956), recall 0.65
// (1330/2062), facts 0.66 (1204/1836), open questions 0.68 (167/244),
// reversed kept 31, answered left open 36. Session 21 read set M's
// failure lines (M then joined dev: on all 207, precision 0.68
// (1436/2106), recall 0.64 (1440/2249), reversed kept 34) and dev's
// missed decisions: option labels set in bold with their mark, "instead
// of the …" taking "the" for the old value, "please" before any verb, a
// bare "make it 10" named by the reply's "~10gb", Chinese directives by
// their grammar (请 + a verb of change, 同意/可以 after a thing, 由, 按, a
// thing then 别/不给…), "pending" only as a status, the day's main
// subject after a night, deferrals to someone else; then a helper's
// adversarial review (~520 probes) removed two rules and narrowed the
// rest; then "how X works" is no yes, terse orders ("add: X"), and a
// second review (~840 probes) narrowed those and the first round again.
// Decisions kept went from 16 to 24 (three to an entry): on the same
// rules 16 gave recall 0.64 (1436), reversed kept 35. Ended at precision
// 0.66 (1628/2464), recall 0.67 (1509/2249), facts 0.65 (1240/1916), open
// questions 0.71 (181/255), reversed kept 47, answered left open 37.
// Session 22 moved set N here (on all 217, precision 0.661 (1743/2637),
// recall 0.669 (1625/2428), reversed kept 50, facts 1295/2010) and read its
// failure lines: a conversation's first turn briefs rather than decides
// (a part of it that says what the work is, a need, a wish, a plan, a
// request for advice, is a fact; orders and bans stay), table rows labelled
// A/B/C or 1/2/3 under a choice's heading are options, more ways to put a
// choice off, "yeah 24.04 not now" is a no. Two adversarial reviews by
// helpers (~250 and ~350 probes) removed three rules (an opening "ok" with
// nothing before it, a turn opening with an option's label, "2かな") and
// narrowed the rest. Ended at precision 0.665 (1745/2625), recall 0.671
// (1630/2428), facts 0.64 (1293/2010), open questions 0.70 (190/270),
// reversed kept 50, answered left open 40. Session 23 moved set O here:
// on all 227, precision 0.667 (1848/2772), recall 0.667 (1740/2607),
// reversed kept 56, facts 0.64 (1357/2111), open questions 0.70 (197/281),
// answered left open 43; then found that a decision filed in a past
// discussion was read up to the next label, taking the facts after it
// along (7 decisions found that way): it now ends with its sentence, and
// the session's start reads recall 0.665 (1733/2607). Session 23 then read
// set O's failure lines: a Chinese yes to "the X one" takes the reply's
// item X names, a CJK topic given another amount of its unit replaces the
// old one (two helpers' adversarial reviews, 192 and 149 probes, narrowed
// both and removed a third rule), a count glued to a CJK word with a
// counter word is a fact, a reply's options stay in view, a decision with
// a lent subject does not take back the one lending it, a "no" names what
// it rules out before its reason. Ended at precision 0.668 (1864/2791),
// recall 0.668 (1742/2607), reversed kept 54, facts 0.65 (1367/2111), open
// questions 0.70 (197/281), answered left open 43. Session 24 moved set P
// here: on all 237, precision 0.669 (1973/2950), recall 0.659 (1838/2789),
// reversed kept 60, facts 0.65 (1439/2221), open questions 0.70 (205/291),
// answered left open 43. It read P's failure lines: a formal register
// ("we shall (not) …", "That is acceptable to us", "let us return to that
// once …"), casual Japanese ("Bでいっか。", "入れといて", "Xのほうで" with a
// long Latin name), a value rejected after the new one ("make it 150, 400
// is pointless"), a fragment after a don't, a yes to both of two listed
// proposals, a name answered by its own yes ("_compat_argparse.py yes
// delete"), "保持 10 不动" as a do, polite Japanese refusals and changes
// ("難しいかと存じます", "に変更させてください"), and values said after what
// they are of keep its name. Two adversarial reviews by helpers (181 and
// 196 probes) found 51 and 42 regressions: anecdote openers and Chinese
// question-word endings were removed, the rest narrowed. Ended at
// precision 0.673 (1994/2964), recall 0.667 (1859/2789), reversed kept
// 58, facts 0.65 (1441/2221), open questions 0.70 (205/291), answered
// left open 43. Session 25 moved set Q here: on all 247, precision 0.662
// (2069/3125), recall 0.656 (1934/2947), reversed kept 70, facts 0.64
// (1490/2324), open questions 0.70 (212/303), answered left open 43. It
// read Q's failure lines and tried eleven changes; most moved dev by a
// few lines either way and were dropped (a setting's restated value
// replacing an older one: never fired; the user's own follow-ups to
// others as no decision; a version inventory; echo sizes 80–160; the
// summarizer's focus trimmed first; looser restatement guards; "要不…吧"
// as settling; the newest reversal target most in view). Two went to
// helpers' adversarial reviews: a Japanese "Xで、" before a past report
// (174 probes: 36 worse, 24 better; removed) and Chinese question
// prefaces (102 probes: 20 worse, 10 better; never landed). Kept: a
// modal particle parts casual Chinese clauses before a name or figure
// (104 probes, narrowed to 25 better, 3 worse). Ended at precision 0.663
// (2071/3126), recall 0.657 (1936/2947), reversed kept 70, facts 0.64
// (1490/2324), open questions 0.70 (212/303), answered left open 43.
// Session 26 moved set R here: on all 257, precision 0.656 (2161/3296),
// recall 0.649 (2017/3108), reversed kept 75, facts 0.64 (1549/2419),
// open questions 0.69 (218/314), answered left open 46.
// Session 27 gave each discussion its identifiers (`refs`: versions with
// their package, commits with their message, requests, hosts, addresses
// with their name, ports, files): facts 0.664 (1606/2419, +57: 100 found
// that were missed, 43 lost to the room the items take), decisions
// unchanged (recall 2018/3108, precision 2161/3297), open questions
// 219/314, answered left open 47 (one more a trimmed direction used to
// hide), past topics 64/75.
// Session 28 replaced the decision whose value a change names ("feb 14 is
// inside it. ugh. make it feb 21", "from $300 to $200", "SLA 改成 4 小时"),
// after two reviews: reversed kept 72, precision 0.656 (2162/3296), recall
// 0.650 (2020/3108), facts 0.666 (1610/2419), open questions unchanged.
// Session 29 moved set S here (267 conversations), with the rules session
// 28 ended with: precision 0.652 (2238/3430), recall 0.641 (2093/3264),
// reversed kept 75, facts 0.664 (1665/2507), open questions 0.707
// (232/328), answered left open 50. Then a "do" about the same thing that
// gives no value of a kind the old "do" gave no longer replaces it (a
// valid decision erased by another setting of the same thing): recall
// 2093 → 2105, precision 2254/3460 (0.651), reversed kept 75 → 79 (old
// values that were remarks), facts 1665 → 1661. Then the formal
// register's rules of things ("alcohol shall not be reimbursable", "the
// effective date is to be April 1"): recall 2108, precision 2257/3464,
// reversed kept 80 (a consent deadline later changed is now read, and
// kept), facts 1660. A review (90 conversations) found
// the first guard keeping reversals said in words ("Keep logs forever",
// "right after the deploy") or after "Scratch that, …": with those read
// as reversals, recall 2104, precision 2250/3456, reversed kept 77, facts
// 1666.
// Session 30 made a question put off until someone answers ("asking her",
// "組合長に聞いてからにする") a deferral and closed it when the user passes
// the answer on ("Priya says …", "県から返事来た"): on the 267, answered
// left open 50 -> 42, open questions 232 -> 235, precision 2251/3444,
// recall unchanged. Then set T moved here (277 conversations): precision
// 0.650 (2351/3617), recall 0.635 (2199/3461), reversed kept 91, facts
// 0.658 (1729/2627), open questions 0.714 (245/343), answered left open
// 43. Then a setting's word and a whole number name their subject
// ("retries 1"), "で進めてよいですか"/"可以吗" offer what they ask about, a
// word of change in the sentence before counts only when it made no
// decision of its own, and "we'll be wrecked" decides nothing: precision
// 0.651 (2359/3623), recall 0.638 (2207/3461), reversed kept 92, facts
// 0.659 (1731/2627), open questions unchanged. Then "a no." ends a
// sentence, an "instead" spares what its own turn decided, chat words
// ("tho") name no subject, a move in time needs a shared name and a thing
// that "stays" as set is a decision: precision 0.654 (2380/3641), recall
// 0.643 (2224/3461), reversed kept 90, answered left open 42, facts 0.659
// (1730/2627). Then a "don't" shows the word that ruled its thing out, two
// spaces end an unpunctuated sentence, "so please …" requests, "that's
// final" seals the statement before it, "X not now" and a polite request
// to switch off are "don'ts": precision 0.661 (2411/3648), recall 0.651
// (2254/3461), reversed kept 88, facts 0.658 (1729/2627). Session 33: a
// sentence's own label scopes its decision, "feels" is a verb, "the X one
// is fine" takes the row X labels, "Keep it at 1?" names the setting that
// held 1, "no. 10s then" decides 10s, an A-not-A question is answered by
// its yes or no, a later decision closes what an earlier discussion left
// open: precision 0.662 (2415/3646), recall 0.653 (2259/3461), reversed
// kept 88, answered left open 39, facts 0.660 (1735/2627), past 71/82.
// Session 34 moved set U here (287 conversations), with the rules session
// 33 ended with: precision 0.659 (2506/3803), recall 0.647 (2351/3634),
// reversed kept 95, facts 0.656 (1792/2732), open questions 0.710
// (255/359), answered left open 39, past 73/85. Then a pick in a
// table's header, a hypothetical without a rule in it as small talk,
// "… is off the table", "7 天够了", casual Japanese requests to add or
// keep, and a person's answer passed on to a question put off: precision
// 0.659 (2512/3810), recall 0.649 (2358/3634), reversed kept 95, facts
// 0.656 (1792/2732), answered left open 40. (A helper's review, 93 probes
// on new text, made three more rules go, an opening "2." as a pick, a
// relisted label starting a new list, "… is gone" as a "don't", and
// narrowed the others; dev had recall 2367 with them.)
// Session 35 moved set V here (297 conversations), with the rules session
// 34 ended with: precision 0.657 (2616/3983), recall 0.643 (2453/3814),
// reversed kept 98, facts 0.652 (1890/2900), open questions 0.703
// (263/374), answered left open 41, past 77/89. Then a reply's table of
// verdicts ("| 項目 | 決定内容 |", "| 序号 | 事项 | 决定 |") read as a recap
// row by row, when announced as one or when it restates a thing already
// decided (a helper's 40 probes on new text showed such tables after a
// question weigh options or report results), a Markdown heading heading
// the list under it, and a reply's list under a bare "## Decisions" as a
// recap: precision 0.686 (2881/4199), recall 0.691 (2635/3814), reversed
// kept 93, facts 0.650 (1885/2900), open questions 0.703 (263/374),
// answered left open 39, past 77/89. (A table of changes,
// "| Setting | Before | Now |", announced as where things stand, added 8
// on dev; a second review found it recording measurements and status
// reports announced the same way, so it went.)
// Session 36: a terse or Chinese report of what happens is no decision,
// "on X, …" / "X的话，" names a turn's topic, and "do both" after a numbered
// list decides each item (narrowed after a helper's 123 cases on new
// text): precision 0.689 (2882/4188), recall 0.692 (2638/3814), reversed
// kept 93, facts 0.650 (1886/2900), open questions 263/374, answered left
// open 39, past 76/89 (one past topic lost to the size budget where a
// conversation gained two decisions).
// Session 37 moved set W here (307 conversations), with the rules session
// 36 ended with: precision 0.681 (2981/4377), recall 0.684 (2732/3997),
// reversed kept 101, facts 0.644 (1969/3056), open questions 0.696
// (272/391), answered left open 41, past 78/94. Then a sentence that only
// announces what follows its colon decides nothing, "<verb> it" takes the
// thing the reply put the same verb on (and a value it gives replaces the
// one that thing had), and an order ending in a colon before its code is
// a decision, not a label (each narrowed after a helper's review on new
// text: 63, 132 and 123 cases): precision 0.682 (2984/4375), recall 0.684
// (2732/3997; one long conversation lost two decisions to the 24 kept),
// reversed kept 100, facts 0.644 (1967/3056), open questions 272/391,
// answered left open 41, past 78/94.
// Session 38: the facts the user stated are worth three points more when
// the budget chooses (`told`): facts 0.669 (2044/3056, +77), recall 0.682
// (2726/3997, -6: long conversations at their budget lose a filed or the
// oldest decision to the longer facts kept; Chinese 632 -> 630), precision
// and the rest unchanged, past 77/94. A choice put off, a matter on hold
// and a recap's row of what is open wait: precision 2986/4374, open
// questions 273. A helper's review (51 conversations) found the user's
// small talk in figures pushing out root causes and results, the user's
// facts moved first breaking the reading order, and suppositions told:
// the bonus now holds while the user's facts are at most half, they keep
// their place (`told` lists where), a supposition is not told, and "950
// ms." ends a sentence: facts 0.665 (2031/3056), recall 2725, precision
// 2986/4375, past 75/94.
// Session 39: an "ok so …" that only tells what happened decides nothing,
// a Japanese clause with its subject in が describes, a question taken to
// someone "before we decide" or doubted ("I'm not sure …") stays open, and
// a choice put off outlasts the questions after it; a helper's review (59
// new conversations, better on 17, worse on 8) led to the hedge, setting,
// role and plan exceptions. Precision 0.687 (2984/4346), recall 0.682
// (2727/3997), open questions 0.703 (275/391), facts 0.665 (2033/3056),
// past 75/94. Then set X moved here (317 conversations): precision
// 0.684 (3109/4543), recall 0.681 (2856/4196), reversed kept 106, facts
// 0.660 (2103/3185), open questions 0.694 (283/408), answered left open
// 43, past 78/99. A label before a colon announcing the decision after
// it ("Final answer: beta in five weeks"): precision 3110/4544. Session
// 40: a bare value after a sentence quoting the old one takes the reply's
// line holding it: precision 3111/4544, recall 2857/4196. Session 41: of
// the missed decisions whose terms sit in one user sentence, the
// sentences the classifier called Other on their own gave the shapes it
// now reads (terse verdicts after a thing, "X is approved as …", 不予/
// 不接受, 可以 closing a clause, plain Japanese value changes, …), and a
// don't in the -ing form takes back the do of its verb: precision 0.687
// (3149/4584), recall 0.689 (2891/4196), reversed kept 105, facts 0.660
// (2103/3185), open questions 283/408, answered left open 43, past 77/99.
// Session 42: a recap announced by a sentence ending in a colon whose
// items stand under bold labels ("今天确定的事项汇总如下：" … "**加工**")
// is read as a recap, but for a label that says the part is open:
// precision 3151/4584, recall 2894/4196, facts 2102/3185 (one fact gave
// way to the decisions kept in the size budget, so the fact floor is
// 0.655). A table under a line that says it sums up what was decided
// ("Recap:", "目前定下来的：", "今日決まったことのまとめ：") is read row by row
// as item and value, but for a row that totals the others; a list under
// a line that only sums up ("ここまでの設定まとめ：", "会议纪要：") is a
// recap. Reading tables under those lines too gave dev recall 2967 but
// cost the held-out set three decisions and five facts (budget tables
// filling the size budget), so tables need a line saying what was
// decided: precision 0.692 (3219/4652), recall 0.696 (2919/4196),
// reversed kept 101, open questions 281/408 (two questions a recap item
// shares its subject with were closed by it, so the floor is 0.68),
// facts 0.662 (2108/3185), past 77/99.
// Session 43: a sentence whose verb is deciding itself, put off to a
// meeting, a person or a later look ("decide w/ sre tmrw", "理事会で決定",
// "結果を見て判断", "等财务领导定", "課長に確認中" before any "but"), and
// "another day", leave the thing open instead of recording a decision:
// precision 0.695 (3228/4642), recall 0.696 (2921/4196), reversed kept
// 101, open questions 0.703 (287/408, the aim), answered left open 42,
// facts 2108/3185. Set Y unchanged (126/200: a first, broader rule took
// one wrong decision off it, but an outside review found it turned about
// 40 real decisions and design statements into deferrals, "let the
// scheduler decide at deploy time", "理事会で決定いたしました", "等宽字体定为
// …", so the rule needs the meeting or time it waits for). A capitalised
// word before a capitalised versioned name is part of the name ("Fluent
// Bit 3.0.7", "React Native 0.73", not "Upgrade Redis 7.2"): facts
// 2108 -> 2112/3185, the rest unchanged, Y unchanged.
const DEV: Floors = Floors {
    precision: 0.69,
    recall: 0.69,
    facts: 0.66,
    questions: 0.70,
    max_reversed: 101,
    max_answered_open: 42,
    by_language: [
        ("en", 0.63),    // 702/1102
        ("ja", 0.74),    // 689/929
        ("mixed", 0.77), // 529/683
        ("terse", 0.64), // 339/523
        ("zh", 0.69),    // 662/959
    ],
};

// Test, 10 conversations (set Y) written in session 39 by five helpers who
// saw neither the summarizer's rules nor any eval text, from the brief in
// WRITING.md; five of them over 20,000 characters with a day's gap and a
// topic change (English twice, Japanese, Chinese, mixed). Its predecessors
// scored lower on first sight: set S recall 0.47 (73/156), set T 0.48
// (94/197), set U 0.52 (90/173), set V 0.53 (95/180), set W 0.44
// (81/183), set X 0.64 (127/199); each moved into dev once it had been
// scored (X after five scorings, sessions 37-39, totals only). Y, scored
// first with the rules session 39 ended with (e89daa0), totals and
// languages only: precision 0.63 (125/199), recall 0.59 (115/194),
// reversed kept 8, open questions 0.67 (12/18), answered left open 0,
// facts 0.58 (93/159), past topics 3/5; English 29/63, Japanese 29/40,
// mixed 22/39, terse 5/10, Chinese 30/42. Decisions are 0.09 under dev
// (English 0.16 under), facts 0.08 under. Scored a second time after
// b3361a2 (a label before a colon announces the decision): identical.
// A third time after session 40's subject rule (7e9f881): identical.
// A fourth after session 41's classifier shapes (dev +34 decisions):
// precision 126/200, recall 116/194, reversed kept 7, facts 93/159;
// English 30/63, the rest unchanged.
// Never tune on this set's conversations or failure lines; a new held-out
// set replaces it when its figures have guided a change.
const TEST: Floors = Floors {
    precision: 0.62,
    recall: 0.59,
    facts: 0.58,
    questions: 0.66,
    max_reversed: 7,
    max_answered_open: 0,
    by_language: [
        ("en", 0.47),    // 30/63
        ("ja", 0.72),    // 29/40
        ("mixed", 0.56), // 22/39
        ("terse", 0.5),  // 5/10
        ("zh", 0.71),    // 30/42
    ],
};

#[test]
fn offline_summaries_on_the_dev_set() {
    let (total, by_lang) = evaluate("dev");
    assert_floors("dev", &DEV, &total, &by_lang);
}

#[test]
fn offline_summaries_on_the_held_out_test_set() {
    let (total, by_lang) = evaluate("test");
    assert_floors("test", &TEST, &total, &by_lang);
}

/// The original eight, with their one-term annotations and the thresholds
/// they were written with.
#[test]
fn offline_summaries_on_the_legacy_set() {
    let (total, _) = evaluate("legacy");
    let precision = ratio(total.correct_decisions, total.out_decisions);
    let recall = ratio(total.found_decisions, total.expected_decisions);
    assert!(total.cut_numbers.is_empty(), "{:#?}", total.cut_numbers);
    assert!(total.over_budget.is_empty(), "{:#?}", total.over_budget);
    assert!(precision >= 0.9, "decision precision {precision:.2}");
    assert!(recall >= 0.7, "decision recall {recall:.2}");
    assert!(ratio(total.found_questions, total.expected_questions) >= 0.7);
    assert!(ratio(total.found_facts, total.expected_facts) >= 0.8);
}

#[test]
fn the_matcher_needs_every_key_term_the_polarity_and_whole_numbers() {
    let e = Expect::parse(&json!({"polarity": "要", "all": ["35", "max_conns|pool"]}));
    assert!(e.matches("要：make max_conns 35 on both instances"));
    assert!(e.matches("要：Make it 35 (the pool)"));
    assert!(!e.matches("要：Make it 35"), "the subject is a key term");
    assert!(!e.matches("要：raise the pool to 350"), "a longer number");
    assert!(!e.matches("要：pool timeout 3.5 s"));
    assert!(!e.matches("要：pool 1,35 ms"));
    assert!(!e.matches("不要：max_conns 35"), "the polarity counts");
    assert!(!e.matches("max_conns 35"), "a line without a prefix");
    assert!(!e.matches("要：poolside 35"), "whole words only");
    let either = Expect::parse(&json!({"polarity": "要|不要", "all": ["金曜", "15時|15:00"]}));
    assert!(either.matches("不要：金曜の15時以降の本番デプロイ"));
    assert!(either.matches("要：金曜 15:00 以降はデプロイ禁止"));
    assert!(!either.matches("要：金曜 115:00"));
    let cjk = Terms::parse(&json!(["30 日", "保持"]));
    assert!(cjk.found_in("保持は 30 日"));
    assert!(!cjk.found_in("保持は 130 日"));
    // one common word cannot carry a decision annotation
    assert!(!Terms::parse(&json!(["test"])).is_specific());
    assert!(!Terms::parse(&json!(["pino"])).is_specific());
    assert!(Terms::parse(&json!(["fd-lock"])).is_specific());
    assert!(Terms::parse(&json!(["Karpenter"])).is_specific());
    assert!(Terms::parse(&json!(["丁寧語"])).is_specific());
    assert!(Terms::parse(&json!(["test", "rows"])).is_specific());
    // segments stop at the next label
    assert_eq!(
        segments("x Open: a? Open: b 要：c 不要：d", "Open: "),
        ["a? ", "b "]
    );
    assert_eq!(segments("要：c 不要：d", "要："), ["c "]);
    // a decision filed in a past description ends with its sentence
    let s = json!({"past_discussions": [{"description": "要：締切は前日18時。15時まで取り置き。 要：use v2. We keep 3."}]});
    assert_eq!(
        past_decision_lines(&s),
        ["要：締切は前日18時。", "要：use v2."]
    );
}

/// Merging the records in pieces (any split, summary saved and reloaded in
/// between) gives the summary merging them at once gives.
#[test]
fn incremental_merges_equal_one_shot_merges() {
    let all: Vec<(&str, Conversation)> = ["legacy", "dev", "test"]
        .into_iter()
        .flat_map(|set| conversations(set).into_iter().map(move |c| (set, c)))
        .collect();
    // (each chunk size is a full run of a conversation: the slowest test of
    // the suite, so it uses every core rather than leaving one to the rest
    // of the suite, and runs on every other conversation: each of the seven
    // sizes still meets some twenty-four conversations)
    all.par_iter()
        .enumerate()
        .filter(|(nth, _)| nth % 2 == 0)
        .for_each(|(nth, (set, c))| assert_chunks_merge_as_one(set, c, nth));
}

/// The chunk size for the `nth` conversation: one record at a time, two,
/// three, seven, a third, a half or all but one, taken in turn, so that
/// each size runs on dozens of conversations without running every size
/// on each (all at once is the one-shot summary itself).
fn chunk_size(n: usize, nth: usize) -> Option<usize> {
    let size = [1, 2, 3, 7, n / 3, n / 2, n.saturating_sub(1)][nth % 7];
    (size >= 1 && size < n).then_some(size)
}

fn assert_chunks_merge_as_one(set: &str, c: &Conversation, nth: usize) {
    let Some(size) = chunk_size(c.records.len(), nth) else {
        return;
    };
    let once = one_shot(set, c);
    let mut s = json!({});
    let mut before = 0;
    for chunk in c.records.chunks(size) {
        let reply = Offline
            .merge_summary_within(&s, chunk, None, Some(before))
            .unwrap();
        s = serde_json::from_str(&reply).unwrap();
        before += chunk
            .iter()
            .map(sessionctl::llm::source_chars)
            .sum::<usize>();
    }
    assert_eq!(s, once, "{set}/{}: chunks of {size}", c.name);
}

/// A long session is held to a fifth of its size: every sixth legacy and
/// dev conversation as one session, in time order (over 500k characters,
/// twenty-five times where the cap binds), summarizes within the cap and keeps
/// decisions.
#[test]
fn a_long_session_summarizes_to_a_fifth_or_less() {
    let mut all: Vec<(i64, Vec<Record>)> = ["legacy", "dev"]
        .iter()
        .flat_map(|set| conversations(set))
        .step_by(6)
        .map(|c| (c.records[0].send_at, c.records))
        .collect();
    all.sort_by_key(|(t, _)| *t);
    let records: Vec<Record> = all.into_iter().flat_map(|(_, r)| r).collect();
    let s = summarize(&records);
    let source: usize = records.iter().map(|r| r.text().chars().count()).sum();
    let size = s.to_string().chars().count();
    println!(
        "long session: {} records, {source} characters; summary {size} characters ({:.1}%), {} past discussions",
        records.len(),
        100.0 * size as f64 / source as f64,
        s["past_discussions"].as_array().unwrap().len()
    );
    if std::env::var_os("SUMMARY_EVAL_SHOW").is_some() {
        println!("{}", serde_json::to_string_pretty(&s).unwrap());
    }
    assert!(size * 5 <= source, "{size} of {source}");
    assert!(size <= sessionctl::llm::SUMMARY_CAP);
    assert!(!s["key_decisions"].as_array().unwrap().is_empty());
}

/// The budget: a fifth of the source between the floor and the cap; the
/// cap when the source is unknown (a summary Agenvoy wrote).
#[test]
fn the_size_budget_grows_with_the_source() {
    use sessionctl::llm::{summary_budget, SUMMARY_CAP, SUMMARY_FLOOR};
    assert_eq!(summary_budget(Some(0)), SUMMARY_FLOOR);
    assert_eq!(summary_budget(Some(15_000)), 3_000);
    assert_eq!(summary_budget(Some(1_000_000)), SUMMARY_CAP);
    assert_eq!(summary_budget(None), SUMMARY_CAP);
}

/// `SUMMARY_EVAL_TRACE=<name> cargo test --test it summary_eval::trace --
/// --nocapture --ignored`: the decisions, open questions and focus after
/// each record of one conversation, to see where a rule goes wrong
/// (`SUMMARY_EVAL_TRACE_FACTS=1`: the description too).
#[test]
#[ignore]
fn trace() {
    let name = std::env::var("SUMMARY_EVAL_TRACE").unwrap_or_default();
    for set in ["dev", "legacy"] {
        for c in conversations(set).into_iter().filter(|c| c.name == name) {
            let mut s = json!({});
            let mut before = 0;
            for r in &c.records {
                let started = std::time::Instant::now();
                let reply = Offline
                    .merge_summary_within(&s, std::slice::from_ref(r), None, Some(before))
                    .unwrap();
                println!("   ({:?})", started.elapsed());
                s = serde_json::from_str(&reply).unwrap();
                before += sessionctl::llm::source_chars(r);
                let text: String = r.text().chars().take(100).collect();
                println!("[{}] {}", r.role, text.replace('\n', " "));
                println!("   decisions: {}", s["key_decisions"]);
                println!(
                    "   perspectives: {}",
                    s["current_discussion"]["perspectives"]
                );
                println!("   direction: {}", s["current_discussion"]["direction"]);
                println!("   focus: {}", s["current_discussion"]["focus"]);
                println!(
                    "   past: {} ({} chars of {})",
                    s["past_discussions"].as_array().map_or(0, Vec::len),
                    s.to_string().chars().count(),
                    sessionctl::llm::summary_budget(Some(before))
                );
                if std::env::var_os("SUMMARY_EVAL_TRACE_FACTS").is_some() {
                    println!("   description: {}", s["current_discussion"]["description"]);
                }
            }
        }
    }
}
