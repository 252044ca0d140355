//! The rolling summary is the offline summarizer's only state. Every record
//! is applied to the summary JSON on its own (`apply`), so merging records
//! in chunks, across runs, gives exactly what merging them at once gives.

use serde_json::{json, Map, Value};

use super::classify::{self, Decision, Polarity, UserKind};
use super::facts::{self, contains_value, number_tokens};
use super::lexicon::words;
use super::text::{clip, is_cjk, sentences, shared, terms, Sentence};
use crate::store::history::Record;

pub const MAX_KEY_DECISIONS: usize = 8;
pub const MAX_PAST_DISCUSSIONS: usize = 8;
/// Facts kept per discussion. Lengths below are UTF-8 bytes, so a CJK
/// text gets a third of the characters a Latin one gets.
const MAX_FACTS: usize = 4;
const FACTS_BYTES: usize = 480;
const FACT_BYTES: usize = 180;
/// A sentence is a fact from this score on (see `facts::score`).
const FACT_MIN: u32 = 2;
const MAX_OPEN: usize = 3;
const OPEN_BYTES: usize = 120;
const DIRECTION_BYTES: usize = 150;
const PAST_FACTS: usize = 1;
const PAST_TEXT_BYTES: usize = 200;
/// A pause this long, with no shared term, starts a new discussion.
const NEW_TOPIC_GAP_MINUTES: i64 = 60;
const OPEN_LABEL: &str = "Open: ";
const PROPOSED: &str = "Proposed: ";

#[derive(Debug, Default, Clone)]
struct Discussion {
    topic: String,
    /// `YYYY-MM-DD HH:MM` of its newest record with a time (an extra key
    /// Agenvoy ignores; it becomes the past entry's `last_discussed`).
    last: String,
    facts: Vec<String>,
    /// Perspectives text that is not an open question (an LLM wrote it).
    head: String,
    open: Vec<String>,
    direction: String,
    other: Map<String, Value>,
}

#[derive(Debug, Default, Clone)]
struct Memory {
    decisions: Vec<String>,
    past: Vec<Value>,
    cur: Discussion,
    other: Map<String, Value>,
}

/// Apply one record to a summary; the result is a valid summary.
/// Apply one record, then keep the summary within `max_chars` (compact
/// JSON; see `llm::summary_budget`).
pub fn apply(summary: &Value, record: &Record, max_chars: usize) -> Value {
    let mut m = Memory::from_json(summary);
    let text = record.text();
    let sents: Vec<Sentence> = sentences(&text)
        .into_iter()
        .filter(|s| !s.tool_call)
        .collect();
    let when = record.cursor_time().map(|t| t[..16].to_owned());
    if record.is_user() {
        m.user(&sents, when.as_deref());
    } else {
        m.assistant(&sents, &facts::one_line_commands(&text));
    }
    if let Some(t) = when.filter(|_| !m.cur.topic.is_empty()) {
        m.cur.last = t;
    }
    m.bound(max_chars);
    m.to_json()
}

fn str_of(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// Sentences joined into one text, each ending in a full stop.
fn join_sentences(items: &[String]) -> String {
    let ended = |s: &String| {
        let last = s.chars().last().unwrap_or('.');
        if ".!?。！？…".contains(last) {
            s.clone()
        } else if is_cjk(last) {
            format!("{s}。")
        } else {
            format!("{s}.")
        }
    };
    items.iter().map(ended).collect::<Vec<_>>().join(" ")
}

fn parse_discussion(mut d: Map<String, Value>) -> Discussion {
    let mut take = |k: &str| str_of(d.shift_remove(k).as_ref());
    let (topic, description, perspectives) =
        (take("topic"), take("description"), take("perspectives"));
    let (direction, last) = (take("direction"), take("last_discussed"));
    let (head, open) = match perspectives.find(OPEN_LABEL) {
        Some(i) => (
            perspectives[..i].trim().to_owned(),
            perspectives[i..]
                .split(OPEN_LABEL)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect(),
        ),
        None => (perspectives.trim().to_owned(), Vec::new()),
    };
    Discussion {
        topic,
        last,
        facts: sentences(&description)
            .into_iter()
            .map(|s| s.text)
            .collect(),
        head,
        open,
        direction,
        other: d,
    }
}

impl Memory {
    fn from_json(v: &Value) -> Memory {
        let mut other = v.as_object().cloned().unwrap_or_default();
        let decisions = match other.shift_remove("key_decisions") {
            Some(Value::Array(a)) => a.iter().map(|x| str_of(Some(x))).collect(),
            _ => Vec::new(),
        };
        let past = match other.shift_remove("past_discussions") {
            Some(Value::Array(a)) => a,
            _ => Vec::new(),
        };
        let cur = match other.shift_remove("current_discussion") {
            Some(Value::Object(d)) => parse_discussion(d),
            _ => Discussion::default(),
        };
        Memory {
            decisions,
            past,
            cur,
            other,
        }
    }

    fn to_json(&self) -> Value {
        let mut perspectives = self.cur.head.clone();
        for q in &self.cur.open {
            if !perspectives.is_empty() {
                perspectives.push(' ');
            }
            perspectives.push_str(OPEN_LABEL);
            perspectives.push_str(q);
        }
        let mut cur = Map::new();
        cur.insert("topic".into(), json!(self.cur.topic));
        cur.insert("description".into(), json!(join_sentences(&self.cur.facts)));
        cur.insert("perspectives".into(), json!(perspectives));
        cur.insert("direction".into(), json!(self.cur.direction));
        if !self.cur.last.is_empty() {
            cur.insert("last_discussed".into(), json!(self.cur.last));
        }
        cur.extend(self.cur.other.clone());
        let mut m = Map::new();
        m.insert("key_decisions".into(), json!(self.decisions));
        m.insert("past_discussions".into(), Value::Array(self.past.clone()));
        m.insert("current_discussion".into(), Value::Object(cur));
        m.extend(self.other.clone());
        Value::Object(m)
    }

    fn user(&mut self, sents: &[Sentence], when: Option<&str>) {
        let items: Vec<(&str, UserKind)> = sents
            .iter()
            .map(|s| (s.text.as_str(), classify::user_sentence(&s.text)))
            .collect();
        let Some(first) = items.iter().find(|(_, k)| *k != UserKind::SmallTalk) else {
            return; // greetings and thanks change nothing
        };
        let all: String = items.iter().map(|(s, _)| *s).collect::<Vec<_>>().join(" ");
        let acknowledges = items
            .first()
            .is_some_and(|(s, k)| *k == UserKind::SmallTalk && !classify::is_greeting(s));
        if self.starts_new_topic(first, &all, acknowledges, when) {
            self.demote();
            self.cur = Discussion {
                topic: facts::topic_of(first.0),
                ..Discussion::default()
            };
            if first.1 == UserKind::Other {
                self.add_fact(first.0, true);
            }
        }
        for (s, kind) in &items {
            match kind {
                UserKind::Decisions(ds) => ds.iter().for_each(|d| self.decide(d)),
                UserKind::Open(q) => self.add_open(q),
                UserKind::Approval { strong, rest } => self.approve(*strong, rest),
                UserKind::Other => self.add_fact(s, false),
                UserKind::SmallTalk => {}
            }
        }
    }

    /// A user record continues the current discussion unless it changes
    /// the subject: it shares no term with the discussion, has terms of its
    /// own, and either says so ("by the way", "另外一个问题", "ところで") or
    /// comes an hour or more after the discussion's last record. Replies to
    /// the assistant (acknowledgements, approvals, "and …") always continue.
    fn starts_new_topic(
        &self,
        first: &(&str, UserKind),
        all: &str,
        acknowledges: bool,
        when: Option<&str>,
    ) -> bool {
        if self.cur.topic.is_empty() {
            return true;
        }
        if acknowledges || matches!(first.1, UserKind::Approval { .. }) || continues(first.0) {
            return false;
        }
        let mine = terms(all);
        let c = &self.cur;
        let context = format!(
            "{} {} {} {} {}",
            c.topic,
            c.facts.join(" "),
            c.open.join(" "),
            c.head,
            c.direction
        );
        if mine.len() <= 1 || shared(&mine, &terms(&context)) > 0 {
            return false;
        }
        classify::says_new_topic(all) || minutes_between(&c.last, when) >= NEW_TOPIC_GAP_MINUTES
    }

    /// The current discussion becomes a past one: its topic, its best fact,
    /// where it was heading and what was left open.
    fn demote(&mut self) {
        let c = std::mem::take(&mut self.cur);
        if c.topic.is_empty() {
            return;
        }
        let mut direction = clip(&c.direction, PAST_TEXT_BYTES / 2);
        for q in &c.open {
            if !direction.is_empty() {
                direction.push(' ');
            }
            direction.push_str(OPEN_LABEL);
            direction.push_str(q);
        }
        let entry = json!({
            "topic": c.topic,
            "description": clip(&join_sentences(&facts::best(&c.facts, PAST_FACTS)), PAST_TEXT_BYTES),
            "direction": clip(&direction, PAST_TEXT_BYTES),
            "last_discussed": c.last,
        });
        self.past
            .retain(|p| p.get("topic").and_then(Value::as_str) != Some(c.topic.as_str()));
        self.past.push(entry);
    }

    fn decide(&mut self, d: &Decision) {
        let dt = terms(&d.body);
        if self.decisions.iter().any(|old| restates(d, &dt, old)) {
            return; // said before, more fully
        }
        let (replaced, kept): (Vec<String>, Vec<String>) = std::mem::take(&mut self.decisions)
            .into_iter()
            .partition(|old| replaces(d, &dt, old));
        self.decisions = kept;
        self.decisions.push(d.line());
        self.drop_stale_facts(d, &dt, &replaced);
        self.cur.open.retain(|q| shared(&terms(q), &dt) == 0);
        let proposal = self.cur.direction.strip_prefix(PROPOSED);
        if proposal.is_some_and(|p| shared(&terms(p), &dt) > 0) {
            self.cur.direction = d.line();
        }
    }

    /// Facts that state a value a decision just replaced ("not 5"), or
    /// describe an option it rejects ("don't use Redis" after "use Redis"),
    /// no longer hold.
    fn drop_stale_facts(&mut self, d: &Decision, dt: &[String], replaced: &[String]) {
        if let Some(v) = &d.old_value {
            self.cur.facts.retain(|f| !contains_value(f, v));
            if contains_value(&self.cur.direction, v) {
                self.cur.direction = d.line();
            }
        }
        if d.polarity == Polarity::DontWant {
            let rejected: Vec<String> = replaced
                .iter()
                .filter(|old| old.starts_with(Polarity::Want.prefix()))
                .flat_map(|old| terms(old))
                .filter(|t| dt.contains(t))
                .collect();
            if !rejected.is_empty() {
                self.cur.facts.retain(|f| shared(&terms(f), &rejected) == 0);
            }
        }
    }

    /// "yes, do that" adopts the pending proposal; "LGTM, merge it" states
    /// its own decision.
    fn approve(&mut self, strong: bool, rest: &str) {
        let stated = classify::decisions_in(rest);
        if !stated.is_empty() {
            stated.iter().for_each(|d| self.decide(d));
            return;
        }
        let Some(p) = self.cur.direction.strip_prefix(PROPOSED).map(str::to_owned) else {
            return;
        };
        if strong || classify::is_deictic(rest) {
            self.decide(&Decision {
                polarity: Polarity::Want,
                body: p,
                reverses: false,
                old_value: None,
            });
        }
    }

    /// An open question replaces an older one on the same subject.
    fn add_open(&mut self, q: &str) {
        let q = clip(q, OPEN_BYTES);
        let qt = terms(&q);
        self.cur
            .open
            .retain(|old| *old != q && shared(&terms(old), &qt) == 0);
        self.cur.open.push(q);
        if self.cur.open.len() > MAX_OPEN {
            self.cur.open.remove(0);
        }
    }

    /// Keep a fact if it scores (or `force`, for the request that opens a
    /// discussion, kept only until a real fact arrives); then keep the best
    /// `MAX_FACTS`, dropping the weakest and, among equals, the oldest. A
    /// fact that only repeats decided values counts less.
    fn add_fact(&mut self, s: &str, force: bool) {
        let s = clip(s, FACT_BYTES);
        let scored = facts::score(&s) >= FACT_MIN;
        if self.cur.facts.contains(&s) || !force && !scored {
            return;
        }
        if scored {
            self.cur.facts.retain(|f| facts::score(f) >= FACT_MIN);
        }
        self.cur.facts.push(s);
        let decided = self.decisions.join("\n");
        let worth = |f: &str| {
            let nums = number_tokens(f);
            let repeats = !nums.is_empty() && nums.iter().all(|n| contains_value(&decided, n));
            facts::score(f).saturating_sub(if repeats { 2 } else { 0 })
        };
        let total = |f: &[String]| f.iter().map(String::len).sum::<usize>();
        while self.cur.facts.len() > MAX_FACTS
            || self.cur.facts.len() > 1 && total(&self.cur.facts) > FACTS_BYTES
        {
            let weakest = (0..self.cur.facts.len())
                .min_by_key(|&i| (worth(&self.cur.facts[i]), i))
                .expect("not empty");
            self.cur.facts.remove(weakest);
        }
    }

    /// A reply: its last proposal (or else its first status line, or its
    /// first real sentence) becomes the direction; facts go to the
    /// description, as do one-line commands it shows.
    fn assistant(&mut self, sents: &[Sentence], commands: &[String]) {
        if self.cur.topic.is_empty() {
            return; // a reply before any question: nothing to attach it to
        }
        let proposal = sents.iter().rev().find_map(|s| classify::proposal(&s.text));
        let plain: Vec<&str> = sents
            .iter()
            .map(|s| s.text.as_str())
            .filter(|t| classify::proposal(t).is_none() && !classify::is_question(t))
            .collect();
        let status = plain.iter().find(|t| facts::is_status(t)).copied();
        let first = plain.iter().find(|t| t.chars().count() >= 20).copied();
        let direction = match (proposal, status.or(first)) {
            (Some(p), _) => format!("{PROPOSED}{p}"),
            (None, Some(s)) => clip(s, DIRECTION_BYTES),
            (None, None) => String::new(),
        };
        // The line it replaces was a fact too (a status such as "committed
        // as 9c1e4f2"): kept out of the description while it was the
        // direction, so that it is not said twice.
        if !direction.is_empty() {
            let old = std::mem::replace(&mut self.cur.direction, direction);
            if !old.starts_with(PROPOSED) && old != self.cur.direction {
                self.add_fact(&old, false);
            }
        }
        let candidates: Vec<&str> = plain
            .iter()
            .copied()
            .chain(commands.iter().map(String::as_str))
            .collect();
        for t in candidates {
            if clip(t, DIRECTION_BYTES) != self.cur.direction {
                self.add_fact(t, false);
            }
        }
    }

    /// The schema's bounds and the size budget: the oldest past discussions
    /// go first (Agenvoy shows them only while they are in its 24-record
    /// window, docs/agenvoy-format.md#how-agenvoy-uses-the-summary, so old ones cost more than they
    /// give), then the oldest facts, and decisions last, oldest first.
    fn bound(&mut self, max_chars: usize) {
        if self.decisions.len() > MAX_KEY_DECISIONS {
            self.decisions
                .drain(..self.decisions.len() - MAX_KEY_DECISIONS);
        }
        if self.past.len() > MAX_PAST_DISCUSSIONS {
            self.past.drain(..self.past.len() - MAX_PAST_DISCUSSIONS);
        }
        let size = |m: &Memory| m.to_json().to_string().chars().count();
        while size(self) > max_chars && !self.past.is_empty() {
            self.past.remove(0);
        }
        while size(self) > max_chars && self.cur.facts.len() > 1 {
            self.cur.facts.remove(0);
        }
        while size(self) > max_chars && self.decisions.len() > 1 {
            self.decisions.remove(0);
        }
    }
}

/// Minutes from `last` to `now` (both `YYYY-MM-DD HH:MM`); 0 when unknown.
fn minutes_between(last: &str, now: Option<&str>) -> i64 {
    let parse = |s: &str| chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").ok();
    match (parse(last), now.and_then(parse)) {
        (Some(a), Some(b)) => (b - a).num_minutes(),
        _ => 0,
    }
}

fn continues(first: &str) -> bool {
    let l = first.to_lowercase();
    words("continuation")
        .iter()
        .any(|w| classify::starts_with_word(&l, w))
        || words("continuation_cjk")
            .iter()
            .any(|w| first.starts_with(w))
}

fn polarity_and_body(line: &str) -> (Polarity, &str) {
    match line.strip_prefix(Polarity::DontWant.prefix()) {
        Some(b) => (Polarity::DontWant, b),
        None => (
            Polarity::Want,
            line.strip_prefix(Polarity::Want.prefix()).unwrap_or(line),
        ),
    }
}

/// Does the new decision replace an older one? The same statement; or it
/// says it reverses something and names the old value or shares a term;
/// or it shares two terms; or it flips the polarity of a small subject.
fn replaces(d: &Decision, dt: &[String], old: &str) -> bool {
    let (old_polarity, body) = polarity_and_body(old);
    if body.to_lowercase() == d.body.to_lowercase() {
        return true;
    }
    let ot = terms(body);
    let s = shared(dt, &ot);
    if d.reverses
        && (s >= 1
            || d.old_value
                .as_deref()
                .is_some_and(|v| contains_value(body, v)))
    {
        return true;
    }
    s >= 2 || s >= 1 && old_polarity != d.polarity && dt.len().min(ot.len()) <= 2
}

/// The new decision only repeats an older one of the same polarity: no
/// reversal, and no term or number the older one lacks.
fn restates(d: &Decision, dt: &[String], old: &str) -> bool {
    let (old_polarity, body) = polarity_and_body(old);
    let ot = terms(body);
    old_polarity == d.polarity
        && !d.reverses
        && !dt.is_empty()
        && dt.iter().all(|t| ot.contains(t))
        && number_tokens(&d.body)
            .iter()
            .all(|n| contains_value(body, n))
}

#[cfg(test)]
mod tests;
