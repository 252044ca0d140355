//! The rolling summary is the offline summarizer's only state. Every record
//! is applied to the summary JSON on its own (`apply`), so merging records
//! in chunks, across runs, gives exactly what merging them at once gives.
//!
//! Besides Agenvoy's keys, the current discussion keeps a short `focus`:
//! what the last turn was about (the options it offered, the sentence a
//! proposal rests on, its question, its identifiers). The next user turn is
//! read against it: "make it 35", "add a test", "b", "それは30分にしましょう"
//! name no subject, the previous turn does.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::{json, Map, Value};

use super::classify::{self, Decision, Polarity, Proposal, UserKind};
use super::facts::{self, contains_value, number_tokens};
use super::lexicon::words;
use super::refs;
use super::subject::{self, head_terms, needs_subject, quantities, subject_before, Quantity};
use super::text::{
    case_stable, cjk_content_chars, clip, is_cjk, is_hiragana, is_kana, item_and_verdict,
    sentences, shared, terms, Sentence,
};
use crate::store::history::Record;

pub const MAX_KEY_DECISIONS: usize = 8;
/// Decisions remembered in all: Agenvoy's schema allows eight entries, and
/// a long conversation settles more than eight things; the oldest share an
/// entry (`pack_decisions`) rather than being forgotten. Three to an entry:
/// on the dev set two to an entry (sixteen) lost 80 decisions that had been
/// found, long conversations settle twenty and more; on session 21's final
/// rules twenty-four keep 73 more (recall 0.64 -> 0.67) at the cost of 12
/// more replaced ones kept (35 -> 47) and about 1.5 points of precision.
const MAX_DECISIONS: usize = 3 * MAX_KEY_DECISIONS;
/// Between two decisions sharing one entry; each keeps its own prefix, so
/// `要：A；不要：B` reads back as the two decisions it holds.
const DECISION_JOINT: char = '；';
pub const MAX_PAST_DISCUSSIONS: usize = 8;
/// Facts kept per discussion before the size budget decides; lengths below
/// are UTF-8 bytes, so a CJK text gets a third of the characters a Latin
/// one gets.
const MAX_FACTS: usize = 45;
/// (A CJK fact gets a third more: 80 characters, not 60, keep the subject
/// of most Chinese and Japanese facts with their value.)
const FACT_BYTES: usize = 180;
/// Facts the budget leaves to the current discussion before it takes from
/// decisions.
const MIN_FACTS: usize = 3;
/// A sentence is a fact from this score on (see `facts::score`).
const FACT_MIN: u32 = 2;
/// What a fact the user stated (`Discussion::told`) scores more when the
/// budget chooses: on the dev set a user's fact sentence of score 2 or 3
/// states an annotated fact about as often as an assistant's of 5 or 6.
/// (With the user's facts shown first and no cap, a bonus of 2 found 2,009
/// facts, 3 found 2,022, 4 found 2,020; see `told_bonus` for the cap.)
const TOLD_BONUS: u32 = 3;
const MAX_OPEN: usize = 4;
const OPEN_BYTES: usize = 140;
const DIRECTION_BYTES: usize = 200;
const PAST_FACTS: usize = 30;
const PAST_TEXT_BYTES: usize = 1200;
/// The identifiers a discussion names (`refs`), at most, in bytes: the
/// newest stay, files go first (`refs::weakest`). The size budget takes
/// them down to `MIN_REFS` per discussion (see `bound`).
const REFS_BYTES: usize = 400;
const MIN_REFS: usize = 10;
/// Facts of one shape (the rows of a table, a series of runs) kept at most.
const SAME_SHAPE: usize = 3;
const FOCUS_ITEMS: usize = 5;
const FOCUS_BYTES: usize = 120;
/// A subject added to a decision, at most.
const SUBJECT_BYTES: usize = 90;
/// A reply's restatement added to the decision it restates, at most.
const ECHO_BYTES: usize = 120;
/// Before a reply's restatement on a decision, Latin and CJK.
const ECHO_MARKS: [&str; 2] = [" (= ", "（＝"];
/// A first turn this long (a third of it in CJK), or asking, asking for
/// help or of three sentences, briefs (`Memory::brief_not_decisions`).
const BRIEF_CHARS: usize = 150;
/// A pause this long, with no shared term, starts a new discussion.
const NEW_TOPIC_GAP_MINUTES: i64 = 60;
/// After a pause this long, a record that shares under a third of its terms
/// with the discussion starts a new one.
const LONG_GAP_MINUTES: i64 = 8 * 60;
/// How long after such a pause the conversation counts as just resumed.
const RESUMED_MINUTES: i64 = 30;
const OPEN_LABEL: &str = "Open: ";
const PROPOSED: &str = "Proposed: ";
const ADVISED_AGAINST: &str = "Advised against: ";

#[derive(Debug, Default, Clone)]
struct Discussion {
    topic: String,
    /// `YYYY-MM-DD HH:MM` of its newest record with a time (an extra key
    /// Agenvoy ignores; it becomes the past entry's `last_discussed`).
    last: String,
    facts: Vec<String>,
    /// The facts the user stated, kept in the description in the order
    /// said; `told`, an extra key, lists the places of their sentences.
    /// What the user says of their own situation is worth more than what a
    /// reply works out: on the dev set 35 % of the user's fact sentences state an
    /// annotated fact, 15 % of the assistant's, and the assistant says ten
    /// times as many.
    told: Vec<String>,
    /// Perspectives text that is not an open question (an LLM wrote it).
    head: String,
    open: Vec<String>,
    direction: String,
    /// Its identifiers (`refs::named_in`), oldest first (`refs`, an
    /// extra key).
    refs: Vec<String>,
    focus: Vec<String>,
    /// Where the decisions the last user turn made or changed are in the
    /// list, until the reply after it (`echoed`); kept as `decided`, an
    /// extra key.
    decided: Vec<usize>,
    /// When the discussion resumed after a long pause, for the half hour
    /// after it (`resumed`, an extra key): a change of subject then starts a
    /// new discussion however soon after the turn before it comes.
    resumed: String,
    other: Map<String, Value>,
}

#[derive(Debug, Default, Clone)]
struct Memory {
    decisions: Vec<String>,
    past: Vec<Value>,
    cur: Discussion,
    other: Map<String, Value>,
    /// The decisions the sentence being read made so far: a sentence that
    /// says "not A, B instead" about one thing makes both, the second does
    /// not take back the first of the other polarity. (Never saved.)
    sentence_made: Vec<String>,
    /// The decisions the user's turn being read made so far (never saved).
    turn_made: Vec<String>,
    /// The decisions the recap being read made so far: its items are each
    /// their own, none takes back another ("班次时间: 早班07:30…" is not
    /// revisited by "交接班: …班次开始后10分钟内"). (Never saved.)
    list_made: Vec<String>,
    /// "skip the maintenance page" is decided as "不要：the maintenance
    /// page": each such line (as first recorded) with the word that ruled
    /// it out, which the summary shows beside it ("… — skip") and the
    /// rules never see.
    ruled_out: Vec<(String, String)>,
    /// The record being read is the user's (never saved).
    reading_user: bool,
}

/// A statement decided as said, a "do": fillers and the full stop off,
/// within the length of a decision.
fn whole_statement(said: &str) -> Decision {
    let body = classify::strip_fillers(said).trim_end_matches(['.', '。']);
    let mut d = Decision::plain(Polarity::Want, clip(body, classify::DECISION_BYTES));
    d.said = said.to_owned();
    d
}

/// The words that rule a thing out which a "don't" line shows beside it.
const RULED_OUT_BY: [&str; 13] = [
    "skip", "omit", "exclude", "scrap", "ditch", "drop", "forget", "kill", "cancel", "remove",
    "delete", "revert", "disable",
];

/// What may follow a line as first recorded: nothing, a subject or a
/// reply's restatement in brackets, a detail after "; ". ("不要：cache" is
/// not the start of "不要：cache warming".)
fn grown_from(rest: &str) -> bool {
    rest.is_empty() || rest.starts_with(" (") || rest.starts_with('（') || rest.starts_with("; ")
}

/// A "don't" line without the word shown beside it ("不要：the maintenance
/// page — skip (…)"), and that word with the line as recorded before it.
fn without_ruled_out(line: &str) -> (String, Option<(String, String)>) {
    if line.starts_with(Polarity::DontWant.prefix()) {
        for verb in RULED_OUT_BY {
            let mark = format!(" — {verb}");
            if let Some(at) = line.find(&mark) {
                let after = &line[at + mark.len()..];
                if grown_from(after) {
                    let clean = format!("{}{after}", &line[..at]);
                    return (clean, Some((line[..at].to_owned(), verb.to_owned())));
                }
            }
        }
    }
    (line.to_owned(), None)
}

/// Apply one record, then keep the summary within `max_chars` (compact
/// JSON; see `llm::summary_budget`). The result is a valid summary.
pub fn apply(summary: &Value, record: &Record, max_chars: usize) -> Value {
    let mut m = Memory::from_json(summary);
    m.reading_user = record.is_user();
    let text = record.text();
    let text = case_stable(&text).into_owned();
    let text = if record.is_user() {
        without_sign_off(&text, &m.context().join(" "))
    } else {
        text.to_string()
    };
    let sents: Vec<Sentence> = sentences(&text)
        .into_iter()
        .filter(|s| !s.tool_call)
        .collect();
    let when = record.cursor_time().map(|t| t[..16].to_owned());
    let mut made = Vec::new();
    if record.is_user() {
        let before = m.decisions.clone();
        // (a first turn that asks the assistant something, asks for help or
        // lays out a situation briefs; "在庫の棚卸しは毎月末にやりたいです。"
        // alone states a requirement)
        let brief_chars = if text.chars().any(is_cjk) {
            BRIEF_CHARS / 3
        } else {
            BRIEF_CHARS
        };
        let asks = text.contains(['?', '？'])
            || sents.len() >= 3
            || text.chars().count() >= brief_chars
            || classify::has_any(&text.to_lowercase(), words("help_requests"));
        // (a list under "Decisions:" is decided)
        let lists_decisions = sents.iter().any(|s| classify::listed_decision(s).is_some());
        let fresh = asks
            && !lists_decisions
            && m.decisions.is_empty()
            && m.past.is_empty()
            && m.cur.topic.is_empty();
        m.user(&sents, when.as_deref());
        if fresh {
            m.brief_not_decisions();
        }
        made = m
            .decisions
            .iter()
            .filter(|d| !before.contains(d))
            .cloned()
            .collect();
        m.forget_stale_echoes(&made);
        // (a turn that also asks something gets its answer first: "go with
        // that one. how heavy is the page now?" … "The page weighs 3.2 MB")
        if text.contains(['?', '？']) {
            made.clear();
        }
    } else if record.is_assistant() && !sents.is_empty() {
        // (a record of tool calls or a tool's output is no reply to the turn)
        let decided: Vec<usize> = std::mem::take(&mut m.cur.decided);
        let context = m.context().join(" ");
        m.assistant(&sents, &text, Some(&decided));
        m.echoed(&sents, &text, &context, &decided);
    } else {
        m.assistant(&sents, &text, None);
    }
    if (record.is_user() || record.is_assistant()) && !m.cur.topic.is_empty() {
        m.add_refs(&text);
    }
    if let Some(t) = when.filter(|_| !m.cur.topic.is_empty()) {
        m.cur.last = t;
    }
    // (where the turn's decisions are, before and after the bound: it may
    // move them, and their places count against the budget)
    let places = |m: &Memory| {
        made.iter()
            .filter_map(|l| m.decisions.iter().position(|d| d == l))
            .collect()
    };
    m.cur.decided = places(&m);
    m.bound(max_chars);
    m.cur.decided = places(&m);
    m.to_json()
}

/// The characters of `v` as compact JSON, counted as it is written:
/// the budget loop asks after every item it drops, and building the
/// string each time was a sixth of the time to summarize a long session.
fn json_chars(v: &Value) -> usize {
    struct Chars(usize);
    impl std::io::Write for Chars {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            // (a character starts at every byte that continues none)
            self.0 += buf.iter().filter(|&&b| b & 0xC0 != 0x80).count();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut n = Chars(0);
    serde_json::to_writer(&mut n, v).expect("a Value always serializes");
    n.0
}

/// "yeah 24.04 not now": after a yes, a first clause that ends in "not
/// now" says no to the thing it names ("yes, not this time next week —
/// this Friday", "why not now", "RFC looks good, rollout not now" do not).
fn says_not_now(rest: &str) -> bool {
    // (a clause ends at a comma or a full stop, not at the dot of "24.04")
    let l = rest.to_lowercase().replace(". ", "; ");
    let first = l
        .trim_end_matches('.')
        .split([',', ';', '—', '!'])
        .next()
        .unwrap_or("")
        .trim();
    let asks = ["why", "if", "when", "what", "how"]
        .iter()
        .any(|w| classify::has(first, w));
    !asks
        && first.split_whitespace().count() <= 5
        && ["not now", "not yet", "not this time", "not for now"]
            .iter()
            .any(|n| first.ends_with(n))
}

/// A wish, a need to do, a plan or a request for advice: what a
/// conversation's first turn says the work is ("need to upgrade pg …",
/// "我们要把…迁到…", "…を入れたい", "请先就日期和场地给出建议"), said at the
/// start of the part ("一定要把调试日志关掉" and "We should use feature flags"
/// are rules of the work, not the work).
fn states_the_work(part: &str) -> bool {
    let l = classify::strip_fillers(part).to_lowercase();
    // "入れたい", "upgrade したい、": a wish ends its clause
    let wish = l.match_indices("たい").any(|(i, _)| {
        l[i + "たい".len()..]
            .chars()
            .next()
            .is_none_or(|c| "、。，,！!？?けとんでです ".contains(c))
    });
    let advice = ["给出建议", "给点建议", "给几个方案", "给出整体", "出个方案"]
        .iter()
        .any(|w| l.contains(w));
    wish || advice || words("brief_markers").iter().any(|m| l.starts_with(m))
}

/// A message without the name it is signed with and the closing before
/// it ("…for access.\n\nMargaret", "Kind regards,\nDaniel Reyes"):
/// "Margaret" after a decision is no detail of it. A last line that
/// answers ("Yes", "Approved") or names what the conversation was about
/// ("Postgres" after "Postgres or DynamoDB?") is no signature.
fn without_sign_off(text: &str, context: &str) -> String {
    static NAME: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^[A-Z][a-z]+(?:[ -][A-Z][a-z.]*){0,2}$").unwrap());
    static CLOSING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^(?:kind |best |warm |many )?(?:regards|thanks|thank you|sincerely|best|cheers|yours)[,.!]?$")
            .unwrap()
    });
    let mut lines: Vec<&str> = text.trim_end().lines().collect();
    let body_lines = |ls: &[&str]| ls.iter().filter(|l| !l.trim().is_empty()).count();
    // a title under the name ("Director of Operations"), the name, the
    // closing: from the end, while there is a message above them
    let mut cut = lines.len();
    let mut named = false;
    for (i, l) in lines.iter().enumerate().rev() {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        // (a message that is only "Thanks" is left as it is)
        if CLOSING.is_match(t) && body_lines(&lines[..i]) > 0 {
            cut = i;
            break;
        }
        // (after a blank line below a finished sentence or a closing:
        // "…decide:\n\nPostgres" is an answer, not a signature)
        let above: Vec<&str> = lines[..i].iter().rev().take(2).map(|l| l.trim()).collect();
        let signed = match above.as_slice() {
            ["", prev, ..] => prev.ends_with(['.', '!', ',']),
            [prev, ..] => CLOSING.is_match(prev),
            _ => false,
        };
        const ANSWERS: &[&str] = &[
            "yes",
            "no",
            "ok",
            "okay",
            "approved",
            "agreed",
            "fine",
            "done",
            "confirmed",
            "sure",
            "correct",
            "both",
            "neither",
            "either",
            "later",
            "go",
            "ship it",
            "lgtm",
        ];
        let answers = ANSWERS.contains(&t.to_lowercase().as_str())
            || classify::has(&context.to_lowercase(), &t.to_lowercase());
        if NAME.is_match(t)
            && signed
            && !answers
            && i + 3 >= lines.len()
            && body_lines(&lines[..i]) > 0
        {
            cut = i;
            named = true;
            continue;
        }
        break;
    }
    if !named && cut == lines.len() {
        return text.to_owned();
    }
    lines.truncate(cut);
    lines.join("\n")
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
        // (a fact cut after a clause ends there: "…，代码最稳；" gets no "；.")
        let s = s.trim_end_matches(['；', '，', '、', ';', ',']);
        let last = s.chars().last().unwrap_or('.');
        if ".!?。！？…".contains(last) {
            s.to_owned()
        } else if is_cjk(last) {
            format!("{s}。")
        } else {
            format!("{s}.")
        }
    };
    items.iter().map(ended).collect::<Vec<_>>().join(" ")
}

/// The `n` best facts (the user's, marked true, worth more while they
/// are not most of them: `told_bonus`), in their order, as a description,
/// with the places of the user's sentences in it (`told_places`).
fn best_facts(facts: &[(String, bool)], n: usize) -> (String, Vec<usize>) {
    let told_count = facts.iter().filter(|(_, t)| *t).count();
    let bonus = told_bonus(told_count, facts.len());
    let worth = |(f, told): &(String, bool)| facts::score(f) + if *told { bonus } else { 0 };
    let mut idx: Vec<usize> = (0..facts.len()).collect();
    idx.sort_by_cached_key(|&i| (std::cmp::Reverse(worth(&facts[i])), i));
    idx.truncate(n);
    idx.sort_unstable();
    let kept: Vec<String> = idx.iter().map(|&i| facts[i].0.clone()).collect();
    let told: Vec<String> = (idx.iter().filter(|&&i| facts[i].1))
        .map(|&i| facts[i].0.clone())
        .collect();
    let description = join_sentences(&kept);
    let places = told_places(&description, &told);
    (description, places)
}

/// What a fact the user told scores more, while such facts are at most
/// half of a description's: a user who chats in figures ("my 4th coffee",
/// "25 minutes to standup") must not push out every root cause and result
/// the replies found.
fn told_bonus(told: usize, facts: usize) -> u32 {
    if told * 2 <= facts {
        TOLD_BONUS
    } else {
        0
    }
}

/// The places among the sentences of `description` of those that belong
/// to a fact the user told. (A sentence the splitter reads across two
/// facts is no one's: "… 950 ms. We run …".)
fn told_places(description: &str, told: &[String]) -> Vec<usize> {
    if told.is_empty() {
        return Vec::new();
    }
    let told: Vec<String> = told
        .iter()
        .map(|t| join_sentences(std::slice::from_ref(t)))
        .collect();
    sentences(description)
        .iter()
        .enumerate()
        .filter(|(_, s)| told.iter().any(|t| t.contains(s.text.as_str())))
        .map(|(i, _)| i)
        .collect()
}

/// The places a list of places (`told`, `decided`) holds.
fn places_in(v: Option<&Value>) -> Vec<usize> {
    match v {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_u64)
            .map(|i| i as usize)
            .collect(),
        _ => Vec::new(),
    }
}

fn parse_discussion(mut d: Map<String, Value>) -> Discussion {
    let mut take = |k: &str| str_of(d.shift_remove(k).as_ref());
    let (topic, description, perspectives) =
        (take("topic"), take("description"), take("perspectives"));
    let (direction, last) = (take("direction"), take("last_discussed"));
    let mut list = |k: &str| match d.shift_remove(k) {
        Some(Value::Array(a)) => a.iter().map(|x| str_of(Some(x))).collect(),
        Some(Value::String(s)) if !s.is_empty() => vec![s],
        _ => Vec::new(),
    };
    let focus = list("focus");
    let refs = list("refs");
    let resumed = str_of(d.shift_remove("resumed").as_ref());
    let told = places_in(d.shift_remove("told").as_ref());
    let facts: Vec<String> = sentences(&description)
        .into_iter()
        .map(|s| s.text)
        .collect();
    let told = told.iter().filter_map(|&i| facts.get(i).cloned()).collect();
    let decided = places_in(d.shift_remove("decided").as_ref());
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
        facts,
        told,
        head,
        open,
        direction,
        refs,
        focus,
        decided,
        resumed,
        other: d,
    }
}

/// What the reader of one user turn knows: the sentence before (for "let's
/// decide that later") and the subject it named (for "add a test").
#[derive(Default)]
struct Turn {
    prev_sentence: Option<String>,
    /// All the turn said before the sentence being read.
    earlier: String,
    prev_subject: Option<String>,
    /// Index in `decisions` of the decision this turn made last.
    last_decision: Option<usize>,
    /// The turn reports an answer ("came back", "決めました").
    answers: bool,
    /// The open question this turn answers.
    answered: Option<String>,
    /// The decision a counter-proposal the user accepts replaces.
    counter: Option<String>,
    /// The turn decides something (so a report in it is no decision).
    decides: bool,
    /// The decisions it made.
    decided: Vec<String>,
    /// The questions it left open.
    opened: Vec<String>,
    /// The topic it named last before a colon ("also exif: …").
    label: Option<String>,
}

impl Memory {
    fn from_json(v: &Value) -> Memory {
        let mut other = v.as_object().cloned().unwrap_or_default();
        let lines: Vec<String> = match other.shift_remove("key_decisions") {
            Some(Value::Array(a)) => a
                .iter()
                .flat_map(|x| unpack_decision(&str_of(Some(x))))
                .collect(),
            _ => Vec::new(),
        };
        let mut decisions = Vec::new();
        let mut ruled_out = Vec::new();
        for line in lines {
            let (clean, verb) = without_ruled_out(&line);
            decisions.push(clean);
            ruled_out.extend(verb);
        }
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
            sentence_made: Vec::new(),
            reading_user: false,
            turn_made: Vec::new(),
            list_made: Vec::new(),
            ruled_out,
        }
    }

    /// The decision lines as the summary shows them, each "don't" with the
    /// word that ruled its thing out.
    fn shown_decisions(&self) -> Vec<String> {
        self.decisions
            .iter()
            .map(|line| {
                match self
                    .ruled_out
                    .iter()
                    .find(|(first, _)| line.strip_prefix(first.as_str()).is_some_and(grown_from))
                {
                    Some((first, verb)) => {
                        format!("{first} — {verb}{}", &line[first.len()..])
                    }
                    None => line.clone(),
                }
            })
            .collect()
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
        let description = join_sentences(&self.cur.facts);
        let told = told_places(&description, &self.cur.told);
        cur.insert("description".into(), json!(description));
        cur.insert("perspectives".into(), json!(perspectives));
        cur.insert("direction".into(), json!(self.cur.direction));
        if !self.cur.refs.is_empty() {
            cur.insert("refs".into(), json!(self.cur.refs));
        }
        if !self.cur.last.is_empty() {
            cur.insert("last_discussed".into(), json!(self.cur.last));
        }
        if !self.cur.focus.is_empty() {
            cur.insert("focus".into(), json!(self.cur.focus));
        }
        if !self.cur.decided.is_empty() {
            cur.insert("decided".into(), json!(self.cur.decided));
        }
        if !self.cur.resumed.is_empty() {
            cur.insert("resumed".into(), json!(self.cur.resumed));
        }
        if !told.is_empty() {
            cur.insert("told".into(), json!(told));
        }
        cur.extend(self.cur.other.clone());
        let mut m = Map::new();
        m.insert(
            "key_decisions".into(),
            json!(pack_decisions(&self.shown_decisions(), MAX_KEY_DECISIONS)),
        );
        m.insert("past_discussions".into(), Value::Array(self.past.clone()));
        m.insert("current_discussion".into(), Value::Object(cur));
        m.extend(self.other.clone());
        Value::Object(m)
    }

    fn user(&mut self, sents: &[Sentence], when: Option<&str>) {
        let resumes =
            minutes_between(&self.cur.last, when) >= LONG_GAP_MINUTES && !self.cur.topic.is_empty();
        self.turn_made.clear();
        self.user_turn(sents, when);
        self.turn_made.clear();
        // (set after the turn: a new discussion it opened has resumed too)
        if resumes {
            self.cur.resumed = when.unwrap_or_default().to_owned();
        }
    }

    fn user_turn(&mut self, sents: &[Sentence], when: Option<&str>) {
        // "早。先收个尾：…这件事就先这样。今天主要是另一件事：创作者分成报表…"
        // after a pause: what comes before the change of subject closes the
        // old discussion, the rest opens the new one
        let gap = minutes_between(&self.cur.last, when);
        // ("早上好。先补充昨天的一件事：…" … a minute later "好，扫码签到。另外今天
        // 想请您帮忙的是另一件事：…": the first turns after a night's pause
        // close the old business, then change the subject)
        if minutes_between(&self.cur.resumed, when) > RESUMED_MINUTES {
            self.cur.resumed.clear();
        }
        // (just after resuming, "by the way" is still about the subject:
        // only "another thing", "另一件事" announce a new one)
        let weak = |t: &str| {
            let l = t.to_lowercase();
            ["by the way", "btw", "ところで"]
                .iter()
                .any(|w| classify::has(&l, w))
                && !classify::has_any(
                    &l.replace("by the way", "")
                        .replace("btw", "")
                        .replace("ところで", ""),
                    words("new_topic"),
                )
        };
        let announces = |s: &Sentence| {
            classify::says_new_topic(&s.text) && (gap >= NEW_TOPIC_GAP_MINUTES || !weak(&s.text))
        };
        let paused = gap >= NEW_TOPIC_GAP_MINUTES || !self.cur.resumed.is_empty();
        if let Some(k) = sents
            .iter()
            .position(announces)
            .filter(|&k| k > 0 && paused && !self.cur.topic.is_empty())
        {
            self.user(&sents[..k], when);
            self.user(&sents[k..], when);
            return;
        }
        let listed: Vec<Option<UserKind>> = sents.iter().map(classify::listed_decision).collect();
        let items: Vec<(&str, UserKind)> = sents
            .iter()
            .enumerate()
            .map(|(i, s)| {
                // "決定事項をまとめておきます。" announces the decisions
                // listed after it; it is none of them
                let heads_them = listed.get(i + 1).is_some_and(Option::is_some)
                    && !s.text.ends_with([':', '：'])
                    && sents[i + 1].heading.as_deref()
                        == Some(s.text.trim_end_matches(['.', '。']).trim());
                let kind = match &listed[i] {
                    _ if heads_them => UserKind::SmallTalk,
                    Some(k) => k.clone(),
                    None => classify::user_sentence(&s.text),
                };
                (s.text.as_str(), kind)
            })
            .collect();
        // "Meet in the middle: 30%. That's final.": a statement sealed as
        // settled is a decision, the seal itself none
        let sealable = |(s, kind): &(&str, UserKind)| {
            *kind == UserKind::Other
                && !classify::is_question(s)
                && (terms(s).len() >= 2 || !super::text::numbers(s).is_empty())
        };
        let mut items = items;
        for k in 1..items.len() {
            if classify::seals_the_last(items[k].0) && sealable(&items[k - 1]) {
                items[k - 1].1 = UserKind::Decisions(vec![whole_statement(items[k - 1].0)]);
                items[k].1 = UserKind::SmallTalk;
            }
        }
        let Some(first) = items.iter().find(|(_, k)| *k != UserKind::SmallTalk) else {
            return; // greetings and thanks change nothing
        };
        let all: String = items.iter().map(|(s, _)| *s).collect::<Vec<_>>().join(" ");
        let acknowledges = items
            .first()
            .is_some_and(|(s, k)| *k == UserKind::SmallTalk && !classify::is_greeting(s));
        let opening = self.starts_new_topic(first, &all, acknowledges, when);
        if opening {
            self.demote();
            // "New thing. The CSV export …": the first sentence that says
            // what about
            // (not one that only asks to talk: "ちょっと相談させて")
            let said: Vec<&str> = items
                .iter()
                .filter(|(_, k)| *k != UserKind::SmallTalk)
                .map(|(s, _)| *s)
                .collect();
            let topic = said
                .iter()
                .filter(|s| !facts::only_asks_to_talk(s))
                .chain(said.iter())
                .map(|s| facts::topic_of(s))
                .find(|t| !t.is_empty())
                .unwrap_or_default();
            self.cur = Discussion {
                topic,
                ..Discussion::default()
            };
            if first.1 == UserKind::Other {
                self.add_fact(first.0, true);
            }
        }
        let mut turn = Turn {
            answers: classify::has_any(&all.to_lowercase(), words("answer_cues")),
            decides: items
                .iter()
                .any(|(_, k)| matches!(k, UserKind::Decisions(_) | UserKind::Approval { .. })),
            ..Turn::default()
        };
        for (s, kind) in &items {
            let made_before = self.turn_made.len();
            // ("- uv yes": a yes to a listed item by its name, `named_item`;
            // decided as said, so that `decide_in_turn` knows it)
            // ("a b d yes": several listed options taken at once, each a
            // decision of its own)
            let picked = self.options_picked(s);
            let named = if picked.len() >= 2 {
                Some(UserKind::Decisions(
                    picked
                        .into_iter()
                        .map(|item| {
                            // (said as its own item: two options are two
                            // decisions, neither a detail of the other)
                            let mut d = Decision::plain(Polarity::Want, item.clone());
                            d.said = item;
                            d
                        })
                        .collect(),
                ))
            } else {
                // (or a sentence decided as said: "latency one is fine")
                let as_said = |ds: &[Decision]| {
                    let plain = |t: &str| t.trim().trim_end_matches(['.', '!']).to_lowercase();
                    matches!(ds, [d] if plain(&d.body) == plain(s))
                };
                (matches!(kind, UserKind::Approval { .. } | UserKind::Other)
                    || matches!(kind, UserKind::Decisions(ds) if as_said(ds)))
                .then(|| self.named_item(s))
                .flatten()
                .map(|item| {
                    let mut d = Decision::plain(Polarity::Want, item);
                    d.said = (*s).to_owned();
                    UserKind::Decisions(vec![d])
                })
            };
            let kind = named.as_ref().unwrap_or(kind);
            if let Some(label) = subject::topic_label(s) {
                turn.label = Some(label);
            }
            let reports = !matches!(kind, UserKind::Open(_) | UserKind::Defer(_));
            match kind {
                // "ok do both", "yes, all of them please", "两个都做": the whole
                // list the reply offered, whatever the sentence was read as
                UserKind::Decisions(_) | UserKind::Approval { .. } | UserKind::Other
                    if self.take_all_listed(s, &mut turn) => {}
                // a phrase without a verb opens a discussion, it does not
                // decide in it
                UserKind::Decisions(ds) if opening && ds.iter().all(|d| d.verbless) => {
                    self.add_fact(s, false)
                }
                UserKind::Decisions(ds) => {
                    for d in ds {
                        self.decide_in_turn(d.clone(), &mut turn);
                        if let Some(i) = turn.last_decision.filter(|&i| i < self.decisions.len()) {
                            self.sentence_made.push(self.decisions[i].clone());
                        }
                    }
                    self.sentence_made.clear();
                }
                UserKind::Open(q) => {
                    // "pino or winston?" says little without "I want proper
                    // structured logging." before it
                    // ("Metrics are a separate conversation. I haven't made up
                    // my mind on moving them …": its pronoun names the
                    // sentence before)
                    let points_back = q
                        .to_lowercase()
                        .split(|c: char| !c.is_alphanumeric())
                        .any(|w| ["them", "it", "that", "those", "this"].contains(&w))
                        || words("cjk_pronouns")
                            .iter()
                            .any(|p| q.trim_start().starts_with(p));
                    let q = match &turn.prev_sentence {
                        Some(prev)
                            if (terms(q).len() < 3 || points_back)
                                && !classify::is_question(prev) =>
                        {
                            format!("{} {q}", clip(prev, OPEN_BYTES / 2))
                        }
                        // "海外用户的数据放哪个区域？这个我还没想好。": the
                        // question asked for information is the one left open
                        Some(prev)
                            if points_back
                                && classify::is_question(prev)
                                && !self.cur.open.contains(prev) =>
                        {
                            format!("{} {q}", clip(prev, OPEN_BYTES / 2))
                        }
                        _ => q.clone(),
                    };
                    // "Not sure yet, I have to ask Lena." after a question
                    // of the same turn says why it stays open
                    let follows = !classify::is_question(&q)
                        && turn.opened.last().is_some_and(|o| classify::is_question(o));
                    if follows {
                        let last = turn.opened.pop().expect("checked");
                        self.cur.open.retain(|o| *o != clip(&last, OPEN_BYTES));
                        let joined = format!("{last} {q}");
                        self.add_open(&joined);
                        turn.opened.push(joined);
                    } else {
                        self.add_open(&q);
                        turn.opened.push(q);
                    }
                }
                UserKind::Defer(s) => self.defer_or_split(s, &mut turn),
                UserKind::Approval { strong, rest } => self.approve(*strong, rest, &mut turn),
                UserKind::Rejection(rest) => self.reject(rest, &mut turn),
                UserKind::Other => {
                    if !self.decide_reported(s, &mut turn) {
                        self.other_statement(s, &mut turn);
                    }
                }
                UserKind::SmallTalk => continue,
            }
            self.note_ruled_out(s, made_before);
            // (after what the sentence decides, which may take its subject
            // from the question it answers)
            if reports {
                self.close_reported(s);
            }
            // the sentence before is what the next one may point back at
            if !terms(s).is_empty() {
                turn.prev_subject = Some(clip(s.trim_end_matches(['.', '。']), SUBJECT_BYTES));
            }
            turn.prev_sentence = Some((*s).to_owned());
            turn.earlier.push_str(s);
            turn.earlier.push(' ');
        }
        // a question the turn takes up and decides on is settled ("5 个服务都
        // 切完代理地址了。切换定在 2 月 14 日凌晨 2 点。" after "切换日期先不定，等 5
        // 个服务都切到代理地址再说")
        if !turn.decided.is_empty() {
            let said = terms(&all);
            let decided = terms(&turn.decided.join(" "));
            let opened: Vec<String> = turn.opened.iter().map(|o| clip(o, OPEN_BYTES)).collect();
            self.cur.open.retain(|q| {
                opened.contains(q)
                    || !(shared(&terms(q), &said) >= 2 && shared(&terms(q), &decided) >= 1)
            });
        }
        // "那 iOS 等审核过了再说" … "审核过了": the condition a deferral waited
        // for, reported in its own words, closes it
        let opened: Vec<String> = turn.opened.iter().map(|o| clip(o, OPEN_BYTES)).collect();
        for (s, _) in &items {
            let said = s.trim().trim_end_matches(['.', '。', '!', '！']);
            if said.chars().count() >= 3 && !classify::is_question(s) && !classify::is_deferral(s) {
                self.cur.open.retain(|q| {
                    opened.contains(q) || !(classify::is_deferral(q) && q.contains(said))
                });
            }
        }
        // the user's own words are the context of the reply that follows
        // until the reply says more
        if let Some(p) = turn.prev_subject.filter(|p| !p.is_empty()) {
            self.push_focus(&p);
        }
    }

    /// A user record continues the current discussion unless it changes
    /// the subject: after an hour with no shared term; after a long pause
    /// (8 hours) with under a third of its terms shared; or when it says so
    /// ("new thing", "别件", "换个事") sharing under half. Replies to the
    /// assistant (acknowledgements, approvals, "and …") always continue.
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
        // an explicit change of subject wins over a continuing "另外", "and"
        let says_so = classify::says_new_topic(all);
        if acknowledges
            || matches!(first.1, UserKind::Approval { .. } | UserKind::Rejection(_))
            || continues(first.0) && !says_so
        {
            return false;
        }
        let mine = terms(all);
        let c = &self.cur;
        let context = format!(
            "{} {} {} {} {} {}",
            c.topic,
            c.facts.join(" "),
            c.open.join(" "),
            c.head,
            c.direction,
            c.focus.join(" ")
        );
        if mine.len() <= 1 {
            return false;
        }
        let common = shared(&mine, &terms(&context));
        let overlap = common as f64 / mine.len() as f64;
        let gap = minutes_between(&c.last, when);
        says_so && overlap < 0.5
            || gap >= LONG_GAP_MINUTES && overlap < 1.0 / 3.0
            || gap >= NEW_TOPIC_GAP_MINUTES && common == 0
    }

    /// The current discussion becomes a past one: its topic, its best
    /// facts, where it was heading and what was left open.
    fn demote(&mut self) {
        let c = std::mem::take(&mut self.cur);
        if c.topic.is_empty() {
            return;
        }
        // a pending proposal is not where it went: only a settled direction
        let mut direction =
            if c.direction.starts_with(PROPOSED) || c.direction.starts_with(ADVISED_AGAINST) {
                String::new()
            } else {
                clip(&c.direction, DIRECTION_BYTES / 2)
            };
        for q in &c.open {
            if !direction.is_empty() {
                direction.push(' ');
            }
            direction.push_str(OPEN_LABEL);
            direction.push_str(&clip(q, OPEN_BYTES));
        }
        let facts: Vec<(String, bool)> = c
            .facts
            .iter()
            .map(|f| (f.clone(), c.told.contains(f)))
            .collect();
        let (description, told) = best_facts(&facts, PAST_FACTS);
        let mut entry = json!({
            "topic": c.topic,
            "description": description,
            "direction": direction,
            "last_discussed": c.last,
        });
        if !told.is_empty() {
            entry["told"] = json!(told);
        }
        if !c.refs.is_empty() {
            entry["refs"] = json!(c.refs);
        }
        self.past
            .retain(|p| p.get("topic").and_then(Value::as_str) != Some(c.topic.as_str()));
        self.past.push(entry);
    }

    /// The things the next statement may refer to, most likely first.
    fn context(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if let Some(p) = self.pending_proposal() {
            out.push(p.body);
        }
        out.extend(self.cur.focus.iter().cloned());
        if !self.cur.direction.is_empty() && self.pending_proposal().is_none() {
            out.push(self.cur.direction.clone());
        }
        out.extend(self.cur.open.iter().rev().cloned());
        out
    }

    /// The proposal the assistant made last, if the user has not answered it.
    fn pending_proposal(&self) -> Option<Proposal> {
        let d = &self.cur.direction;
        if let Some(b) = d.strip_prefix(PROPOSED) {
            return Some(Proposal {
                body: b.to_owned(),
                against: false,
                deictic: false,
            });
        }
        d.strip_prefix(ADVISED_AGAINST).map(|b| Proposal {
            body: b.to_owned(),
            against: true,
            deictic: false,
        })
    }

    /// Remember the word that ruled out what each "don't" the sentence made
    /// (`turn_made` from `from` on) names: the word opening the clause that
    /// names the thing ("skip" of "nah replacing handles it, skip the
    /// delete").
    fn note_ruled_out(&mut self, sentence: &str, from: usize) {
        let clauses: Vec<(String, String)> = sentence
            .split([',', ';', ':', '.', '—', '，', '；', '：'])
            .filter_map(|c| {
                let c = classify::strip_fillers(c).to_lowercase();
                let verb = c.split_whitespace().next()?.to_owned();
                RULED_OUT_BY.contains(&verb.as_str()).then_some((verb, c))
            })
            .collect();
        if clauses.is_empty() {
            return;
        }
        let prefix = Polarity::DontWant.prefix();
        for line in self.turn_made.get(from..).unwrap_or_default().to_vec() {
            let Some(body) = line.strip_prefix(prefix) else {
                continue;
            };
            // (the body as said, before a subject added in brackets)
            let own = [body.find(" ("), body.find('（')]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(body.len());
            let first = format!("{prefix}{}", &body[..own]);
            let Some(head) = body[..own]
                .split_whitespace()
                .map(str::to_lowercase)
                .find(|w| {
                    !words("articles").contains(&w.as_str())
                        && !["that", "this"].contains(&w.as_str())
                })
            else {
                continue;
            };
            let Some((verb, _)) = clauses
                .iter()
                .find(|(verb, c)| !head.starts_with(verb.as_str()) && c.contains(&head))
            else {
                continue;
            };
            if !self.ruled_out.iter().any(|(f, _)| *f == first) {
                self.ruled_out.push((first, verb.clone()));
            }
        }
    }

    /// A decision of this turn: a short one that names nothing after
    /// another decision qualifies it ("No exceptions."); otherwise it gets
    /// its subject and is recorded.
    fn decide_in_turn(&mut self, d: Decision, turn: &mut Turn) {
        // ("要不要重构？" … "不重构，上线会有风险": said as a statement, still
        // a no to the question's verb)
        if d.polarity == Polarity::Want {
            let said = if d.said.is_empty() { &d.body } else { &d.said };
            if let Some((q, no)) = self.question_said_no_to(said) {
                self.decide_question(&q, Some(&no), turn);
                return;
            }
        }
        // "I'd set a lifecycle rule to delete after 7 days." … "7 days is
        // fine": the value the proposal named, accepted, is the proposal
        static VALUE_OK: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"(?i)^(.{1,24}?)\s+(?:is|are|sounds|seems|works)\s+(?:fine|ok|okay|good|great|right)\b")
                .unwrap()
        });
        let said = if d.said.is_empty() { &d.body } else { &d.said };
        if let Some(p) = self.pending_proposal().filter(|p| !p.against) {
            let value = VALUE_OK
                .captures(said.trim())
                .map(|c| c[1].to_owned())
                .filter(|v| !number_tokens(v).is_empty());
            if value.is_some_and(|v| {
                number_tokens(&v)
                    .iter()
                    .all(|n| number_tokens(&p.body).contains(n))
            }) {
                self.adopt(&p, None, None, turn);
                return;
            }
        }
        // "- uv yes", "- xdist yes", "codecov: fine": a yes to an item the
        // reply listed, by a name of it, is that item, a decision of its
        // own (never a detail of the one before: "uv" names nothing to
        // `needs_subject`, the item does)
        if let Some(item) = self.named_item(&d.said) {
            let mut d = d;
            d.body = clip(&item, classify::DECISION_BYTES);
            d.polarity = Polarity::Want;
            self.decide(&d, None);
            turn.last_decision = self.decisions.iter().position(|x| *x == d.line());
            turn.decided.push(d.line());
            return;
        }
        // said before, more fully ("keep 14 days of them, compressed" after
        // "nightly logrotate, 14 days, compressed"): judged on the words as
        // said, before a subject is added
        let dt = terms(&d.body);
        if self.decisions.iter().any(|old| restates(&d, &dt, old)) {
            return;
        }
        let short = d.body.split_whitespace().count() <= 3 && d.body.chars().count() <= 24;
        // "緊急のホットフィックスだけは例外で", "No exceptions.": a qualifier of
        // the decision before it
        let qualifier = d.body.chars().any(is_cjk)
            && d.body.chars().count() <= 24
            && ["だけ", "以外", "例外", "除外", "除了", "但是", "只有"]
                .iter()
                .any(|w| d.body.contains(w));
        // "並列化でいこう。並列数は 8 で。": a short decision about what the
        // turn's previous one decided is its detail
        let brief = if d.body.chars().any(is_cjk) {
            d.body.chars().count() <= 16
        } else {
            d.body.split_whitespace().count() <= 6
        };
        // "feb 14 is inside it. ugh. make it feb 21": a change of a value an
        // earlier decision set is a decision of its own, which replaces that
        // one, not a detail of the turn's last
        // (unless the turn's last decision has no value of its kind, whose
        // detail it is: "Add a nightly report job. 01:00 is taken by the
        // backups, so make it 02:00")
        let value_target = classify::value_then_change(&turn.earlier, said).and_then(|c| {
            let last_has_kind = turn
                .last_decision
                .and_then(|i| self.decisions.get(i))
                .is_none_or(|last| {
                    quantities(polarity_and_body(last).1)
                        .iter()
                        .any(|q| q.kind == c.kind)
                });
            self.value_target(&c).filter(|_| last_has_kind)
        });
        let changes_earlier = value_target.is_some();
        if let Some(i) = turn
            .last_decision
            .filter(|&i| i < self.decisions.len() && !changes_earlier)
        {
            let (_, prev_body) = polarity_and_body(&self.decisions[i]);
            // "…ことにしましょう。第 1 水曜で。", "じゃそれで。vz 付きで": a
            // bare "X で" has no verb of its own, it details the decision
            // just made
            // (not "同日リリースは無しで": a topic of its own)
            let bare_de = d.body.chars().any(is_kana)
                && d.body.trim_end_matches(['。', '！']).ends_with('で')
                && !d.body.contains(['は', 'を', 'が'])
                && d.polarity == Polarity::Want
                && !classify::is_deferral(&d.body);
            let same = bare_de || shared(&head_terms(&d.body), &terms(prev_body)) > 0;
            // (never across polarities: "RetryInterceptor は外します。backoff
            // 30秒もそれで" is a don't and a do)
            let same_polarity = polarity_and_body(&self.decisions[i]).0 == d.polarity;
            if brief && same && same_polarity && d.lead.is_none() && d.old_value.is_none() {
                let line = &mut self.decisions[i];
                let cjk = line.chars().last().is_some_and(is_cjk);
                line.push_str(if cjk { "，" } else { "; " });
                line.push_str(d.said.trim_end_matches(['.', '。']));
                return;
            }
        }
        // "3 回聞き返しても…", "if it fails twice, …": a value or condition
        // that goes on the decision before
        let continues_value = quantities(&d.body).first().is_some_and(|q| q.start == 0)
            || ["if ", "unless ", "如果", "除非"]
                .iter()
                .any(|w| d.body.to_lowercase().starts_with(w))
            || d.body.contains("なければ");
        // a short "don't" after a "do" ("timeout 10 s → 30 s. And no
        // retries after all.") is a decision of its own, unless it only
        // makes the one before absolute ("No exceptions.")
        let absolute = words("absolute_qualifiers").contains(&d.body.to_lowercase().as_str());
        let same_polarity = |line: &String| absolute || polarity_and_body(line).0 == d.polarity;
        if (qualifier
            || continues_value
            || short && needs_subject(&d.body) && quantities(&d.body).is_empty())
            && d.lead.is_none()
            && !changes_earlier
        {
            if let Some(i) = turn
                .last_decision
                .filter(|&i| i < self.decisions.len())
                .filter(|&i| qualifier || same_polarity(&self.decisions[i]))
            {
                let line = &mut self.decisions[i];
                line.push_str(if line.chars().last().is_some_and(is_cjk) {
                    "，"
                } else {
                    "; "
                });
                line.push_str(d.said.trim_end_matches(['.', '。']));
                return;
            }
        }
        let mut d = d;
        let picked = option_refs(&d.body, &self.cur.focus);
        // (a pick already names its option: "选 3 (两个都做)")
        if !picked.is_empty() && subject::trailing_subject(&d.body).is_none() {
            let mut texts: Vec<String> = Vec::new();
            for t in picked.iter().map(|o| subject_phrase(o)) {
                if !texts.contains(&t) {
                    texts.push(t);
                }
            }
            let joined = clip(&texts.join("; "), SUBJECT_BYTES * 2);
            d.body = clip(
                &format!("{} ({joined})", d.body),
                classify::DECISION_BYTES + SUBJECT_BYTES,
            );
        }
        let mut ctx = self.context();
        if let Some(lead) = d.lead.clone() {
            ctx.insert(0, lead);
        }
        // a sentence of the turn that was itself a decision ("cutover fri.
        // drop to 60 wed") is a decision beside it, not its subject
        let prev = turn.prev_subject.clone().filter(|p| {
            !turn
                .decided
                .last()
                .is_some_and(|l| l.contains(p.trim_end_matches(['.', '。'])))
        });
        // (a label names what follows it up to the first decision: "关于推送
        // 频率，每小时一次就行。改成 2000 条。" — the 2000 is not the frequency)
        let label = turn.label.take();
        // (the decision whose value it changes names its subject, not the
        // one said just before: "make it March 10 (mobile release)")
        if let Some(subj) = value_target
            .as_deref()
            .and_then(|old| value_subject(polarity_and_body(old).1))
            .filter(|s| !names_already(&d.body, s))
        {
            d.body = with_trailing_subject(&d.body, &subj);
        }
        let (mut d, slot) = self.with_subject(d, &ctx, prev.as_deref(), label.as_deref());
        // the answer to a question left open names the question's subject
        if let Some(q) = &turn.answered {
            if shared(&terms(&d.body), &terms(q)) == 0 {
                d.body = with_trailing_subject(&d.body, q.trim_end_matches(['?', '？', '。', '.']));
            }
        }
        // "The 60 and 30 minute slots are fine" after a reply that tabled
        // them: the rows holding the values it accepts say what they are for
        if d.polarity == Polarity::Want && ACCEPTS.is_match(&d.said) {
            let rows = self.rows_holding(&d.said);
            if !rows.is_empty() {
                d.body = format!("{} ({})", d.body, clip(&rows.join("; "), 2 * SUBJECT_BYTES));
            }
        }
        let counter = turn.counter.take();
        d.before = turn.prev_sentence.clone();
        d.earlier = Some(turn.earlier.clone()).filter(|e| !e.trim().is_empty());
        // "閾値どうする？" … "A) 50%/80% B) 40%/70%" … "Bでいこ": picking one
        // of the options offered answers the question they were offered for
        if !picked.is_empty() && d.polarity == Polarity::Want {
            if let Some(i) = self.cur.open.iter().rposition(|q| {
                classify::is_question(q)
                    && (asks_what(q)
                        || floats_a_course(q)
                        || classify::has_any(&q.to_lowercase(), words("strong_deciding")))
            }) {
                self.cur.open.remove(i);
            }
        }
        self.decide(&d, slot.or(counter));
        turn.last_decision = self.decisions.iter().position(|x| *x == d.line());
        turn.decided.push(d.line());
        if let Some(q) = &turn.answered {
            self.cur.open.retain(|o| o != q);
        }
    }

    /// What the rows of a table a reply showed (kept as facts, "label:
    /// column value, …") say each number of `said` is for: the label of the
    /// one row holding it ("Full truckload (FTL), live unload: Slot length
    /// 60 minutes" gives "Full truckload (FTL), live unload"); nothing when
    /// `said` names a row itself.
    fn rows_holding(&self, said: &str) -> Vec<String> {
        let said_terms = terms(said);
        // (label and rest of each row; a reply that opens with its table
        // leaves the first row as its direction)
        let rows: Vec<(&str, &str)> = self
            .cur
            .facts
            .iter()
            .map(String::as_str)
            .chain(
                // (not the "Proposed: …" a direction may carry)
                [&self.cur.direction]
                    .into_iter()
                    .filter(|d| !d.starts_with(PROPOSED) && !d.starts_with(ADVISED_AGAINST))
                    .map(String::as_str),
            )
            .filter_map(|f| {
                let (label, rest) = f.split_once(": ")?;
                (label.chars().count() <= 60).then_some((label.trim(), rest))
            })
            .collect();
        // (a sentence naming a row says itself what its value is for)
        if rows
            .iter()
            .any(|(label, _)| shared(&terms(label), &said_terms) > 0)
        {
            return Vec::new();
        }
        let mut out: Vec<String> = Vec::new();
        for n in number_tokens(said) {
            // (whole: the 30 of "15:30" is no 30)
            let whole = |rest: &str| {
                rest.match_indices(n).any(|(i, _)| {
                    value_at(&rest[i..], n) == Some(0)
                        && !rest[..i].ends_with([':', '.', ','])
                        && !rest[i + n.len()..].starts_with(':')
                })
            };
            // (a value in two rows names neither)
            let holding: Vec<&str> = rows
                .iter()
                .filter(|(_, rest)| whole(rest))
                .map(|(label, _)| *label)
                .collect();
            if let [label] = holding[..] {
                if !out.iter().any(|o| o == label) {
                    out.push(label.to_owned());
                }
            }
        }
        out
    }

    /// The options of the last reply a sentence made of their labels takes
    /// ("a b d yes", "1 and 3, please", "options 2 + 4"): the text of each,
    /// in the order named. Empty unless every word is a label, a joining
    /// word or a yes.
    fn options_picked(&self, said: &str) -> Vec<String> {
        const JOINS: [&str; 5] = ["and", "&", "+", "options", "option"];
        const YES: [&str; 8] = ["yes", "yep", "ok", "okay", "fine", "please", "go", "pls"];
        let l = said.trim().trim_end_matches(['.', '!']).to_lowercase();
        let mut labels: Vec<&str> = Vec::new();
        for w in l.split(|c: char| c.is_whitespace() || c == ',' || c == ':') {
            let w = w.trim_end_matches(')');
            if w.is_empty() || JOINS.contains(&w) || YES.contains(&w) {
                continue;
            }
            if w.len() == 1 && w.chars().all(|c| c.is_ascii_alphanumeric()) {
                if !labels.contains(&w) {
                    labels.push(w);
                }
            } else {
                return Vec::new();
            }
        }
        let mut out = Vec::new();
        for label in labels {
            // (the option the reply led with may be its direction instead)
            let direction = self
                .cur
                .direction
                .strip_prefix(PROPOSED)
                .unwrap_or(&self.cur.direction);
            let Some(item) = self
                .cur
                .focus
                .iter()
                .map(String::as_str)
                .chain(std::iter::once(direction))
                .find(|f| option_label_of_item(f).as_deref() == Some(label))
            else {
                return Vec::new();
            };
            let text = item.split_once(") ").map_or(item, |x| x.1);
            out.push(clip(
                text.replace("**", "").trim(),
                classify::DECISION_BYTES,
            ));
        }
        out
    }

    /// "Two changes, then: 1. … 2. …" … "ok do both", "两个都做": each item
    /// the reply listed is a decision of its own. False when `said` takes
    /// no such list.
    fn take_all_listed(&mut self, said: &str, turn: &mut Turn) -> bool {
        let listed = self.all_listed_items(said);
        for item in &listed {
            let mut one = Decision::plain(Polarity::Want, clip(item, classify::DECISION_BYTES));
            one.said = said.to_owned();
            self.decide(&one, None);
            turn.decided.push(one.line());
            turn.last_decision = self.decisions.iter().position(|x| *x == one.line());
        }
        !listed.is_empty()
    }

    /// The items of the list the last reply offered, when the user takes
    /// them all: "do both", "all three then", "两个都做", "両方で". Both
    /// needs a list of two; none when the reply listed nothing.
    fn all_listed_items(&self, said: &str) -> Vec<String> {
        static TAKES_ALL: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(concat!(
                r"(?i)^(?:(?:ok|okay|yes|yep|yeah|sure|fine|great|alright|so)[\s,!.]+)*",
                r"(?:let'?s |please |pls )?(?:do|go with|take|ship|apply|make|we'll do|i'll take)?\s*",
                r"(both|all|all of them|all three|all 3|both of them|them all)",
                r"(?:\s+(?:then|please|pls|of them|sound good|sounds good|look good|are fine))*",
                r"(?:[\s,.!]+(?:go ahead|thanks|thank you|thx|ty))*[.!]*$",
                r"|^(两个都|两项都|两条都|三个都|三项都|都|全部都|全部|全都)(做|要|加|改|上|加上|用)?(吧|了)?",
                r"(?:[，,]\s*(?:谢谢|辛苦了?))?[。！!]*$",
                r"|^(両方|どっちも|どちらも|全部)(とも)?",
                r"(で|やる|やろう|入れる|入れて|やって|やってください|お願いします|でお願いします)?[。！!]*$"
            ))
            .unwrap()
        });
        let said = classify::strip_fillers(said.trim()).trim();
        let Some(c) = TAKES_ALL.captures(said) else {
            return Vec::new();
        };
        let both = c
            .get(1)
            .is_some_and(|m| m.as_str().to_lowercase().starts_with("both"))
            || ["两", "両方", "どっちも", "どちらも"]
                .iter()
                .any(|w| said.starts_with(w));
        let three = c
            .get(1)
            .is_some_and(|m| m.as_str().contains('3') || m.as_str().contains("three"))
            || said.starts_with('三');
        // (the newest list only: the focus holds the newest first, and a
        // label seen again belongs to an older list)
        let mut items: Vec<(String, String)> = Vec::new();
        for f in &self.cur.focus {
            let Some(label) = option_label_of_item(f) else {
                continue;
            };
            if items.iter().any(|(l, _)| *l == label) {
                break;
            }
            let text = f.split_once(") ").map_or(f.as_str(), |x| x.1);
            items.push((label, text.trim_end_matches(['.', '。']).to_owned()));
        }
        items.sort();
        let fits = if both {
            items.len() == 2
        } else if three {
            items.len() == 3
        } else {
            (2..=5).contains(&items.len())
        };
        if fits {
            items.into_iter().map(|(_, t)| t).collect()
        } else {
            Vec::new()
        }
    }

    /// The item of the last reply a "<name> yes" approves: the name (a
    /// word or three, not a pronoun) occurs as a word in exactly one item
    /// of the focus.
    fn named_item(&self, said: &str) -> Option<String> {
        static NAMED_YES: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"(?i)^(?:-\s*)?([\w.\-/+#]+(?:\s[\w.\-/+#]+){0,2}?)[\s:,]+(?:yes|yep|ok|okay|fine|good|sure|please|sounds good|go|do it)[.!]*$")
                .unwrap()
        });
        // "The tolerance is fine as proposed", "The role structure is
        // acceptable": the formal register names the item it accepts
        static NAMED_ACCEPTED: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(concat!(
                r"(?i)^(?:the |your )?([\w.\-/+#]+(?:\s[\w.\-/+#]+){0,3}?)\s+(?:is|are)\s+",
                r"(?:fine|acceptable|approved|agreed|good)(?:\s+(?:as proposed|as suggested|as drafted|too))?[.!]*$"
            ))
            .unwrap()
        });
        let said = said.trim();
        if let Some(item) = self.named_item_cjk(said) {
            return Some(item);
        }
        let accepted = NAMED_ACCEPTED.captures(said);
        let name = match &accepted {
            // (a value the user gives is the decision as it stands: "Exit
            // code 3 is fine")
            Some(c) if c[1].contains(|ch: char| ch.is_ascii_digit()) => return None,
            Some(c) => c.get(1)?.as_str().to_lowercase(),
            None => NAMED_YES.captures(said)?.get(1)?.as_str().to_lowercase(),
        };
        // ("the latency one is fine": the thing "one" stands for is named
        // before it; not "the second one", "the other one")
        let name = match name.strip_suffix(" one") {
            Some(n)
                if [
                    "first", "second", "third", "last", "other", "new", "old", "same",
                ]
                .iter()
                .any(|w| n.ends_with(w)) =>
            {
                return None
            }
            Some(n) => n.to_owned(),
            None => name,
        };
        // (not "sounds good", "looks fine", "all good": the name must be a
        // thing's)
        let l = said.to_lowercase();
        let l = l.trim_end_matches(['.', '!']);
        if ["strong_approvals", "weak_approvals", "small_talk"]
            .iter()
            .any(|k| words(k).contains(&l))
            || name.split_whitespace().any(|w| {
                words("pronouns").contains(&w)
                    || words("fillers").contains(&w)
                    || [
                        "sounds",
                        "looks",
                        "seems",
                        "all",
                        "everything",
                        "that's",
                        "it's",
                    ]
                    .contains(&w)
            })
        {
            return None;
        }
        let named_terms = terms(&name);
        let holds = |item: &str| {
            if accepted.is_some() {
                let it = terms(item);
                return !named_terms.is_empty() && named_terms.iter().all(|t| it.contains(t));
            }
            let l = item.to_lowercase();
            l.match_indices(name.as_str()).any(|(i, _)| {
                let before = l[..i].chars().next_back();
                let after = l[i + name.len()..].chars().next();
                !before.is_some_and(char::is_alphanumeric)
                    && !after.is_some_and(char::is_alphanumeric)
            })
        };
        // (an option is in the focus twice, as its sentence and as the
        // labelled option)
        let mut items: Vec<String> = Vec::new();
        for f in self
            .cur
            .focus
            .iter()
            .filter(|f| holds(f) && !classify::is_question(f))
        {
            let item = subject_phrase(f).replace("**", "").trim().to_owned();
            if !items.contains(&item) {
                items.push(item);
            }
        }
        // ("latency one is fine" after a table with a "latency" row: the
        // row the name labels, kept as a fact "latency: …")
        if items.is_empty() && accepted.is_some() {
            let label = name.strip_suffix(" row").unwrap_or(&name);
            let rows: Vec<&String> = self
                .cur
                .facts
                .iter()
                .filter(|f| {
                    f.split_once(": ")
                        .is_some_and(|(l, _)| l.trim().eq_ignore_ascii_case(label))
                })
                .collect();
            if let [row] = rows.as_slice() {
                items.push(clip(row, SUBJECT_BYTES * 2));
            }
        }
        match items.as_slice() {
            // (the accepted item with the words that accepted it)
            [one] if accepted.is_some() => {
                Some(format!("{} ({one})", said.trim_end_matches(['.', '!'])))
            }
            [one] => Some(one.clone()),
            _ => None,
        }
    }

    /// "生日那个行", "迟到15分钟那个也行": a yes to the item of the last
    /// reply that a noun before "那个" (the … one) names, as said, with that
    /// item (whose words say what was accepted). The noun's ideograph runs
    /// and numbers must all occur in exactly one item.
    fn named_item_cjk(&self, said: &str) -> Option<String> {
        static NAMED_ONE_OK: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(concat!(
                r"^([\p{Han}0-9A-Za-z.%]{2,12}?)的?(?:那个|这个|那条|这条|那项|这项)",
                r"(?:也|就|都)?(?:行|可以|好|没问题|同意|ok|OK)(?:吧|的|了|啊)?[。！!~～]*$"
            ))
            .unwrap()
        });
        let name = NAMED_ONE_OK.captures(said)?.get(1)?.as_str().to_owned();
        if !name.chars().any(is_cjk) {
            return None;
        }
        // ("原来那个就行", "还是这个好", "我觉得那个也行": words of time,
        // place or opinion point at something, they name nothing)
        const POINTERS: [&str; 16] = [
            "原来", "之前", "以前", "刚才", "上面", "下面", "前面", "后面", "最后", "第一", "还是",
            "觉得", "我", "你", "就", "也",
        ];
        if POINTERS.iter().any(|w| name.contains(w)) {
            return None;
        }
        let mut parts: Vec<String> = Vec::new();
        let mut run = String::new();
        // (runs of ideographs and of the rest; the pattern admits no kana)
        for c in name.chars() {
            if !run.is_empty() && run.chars().all(is_cjk) != is_cjk(c) {
                parts.push(std::mem::take(&mut run));
            }
            run.push(c);
        }
        parts.push(run);
        let holds = |item: &str| {
            parts.iter().all(|p| {
                if p.chars().all(is_cjk) {
                    p.chars().count() >= 2 && item.contains(p.as_str())
                } else if p.chars().any(|c| c.is_ascii_alphabetic()) {
                    // ("Pro套餐那个行": the Latin name must be the item's)
                    item.to_lowercase().contains(&p.to_lowercase())
                } else {
                    number_tokens(p).iter().all(|n| holds_value(item, n))
                }
            })
        };
        // (the reply's lead, its direction, is an item too; not a decision
        // or a warning standing as the direction)
        let direction = self
            .cur
            .direction
            .strip_prefix(PROPOSED)
            .unwrap_or(&self.cur.direction);
        let direction = if direction.starts_with(ADVISED_AGAINST)
            || direction.starts_with(Polarity::Want.prefix())
            || direction.starts_with(Polarity::DontWant.prefix())
        {
            ""
        } else {
            direction
        };
        let mut items: Vec<String> = Vec::new();
        for f in self
            .cur
            .focus
            .iter()
            .map(String::as_str)
            .chain(std::iter::once(direction))
            .filter(|f| holds(f) && !classify::is_question(f))
            // (a reason or an example that mentions the thing is not the
            // item: "这样教练有动力把团课招满…")
            .filter(|f| {
                ![
                    "这样", "比如", "例如", "因为", "所以", "不过", "但是", "如果",
                ]
                .iter()
                .any(|w| f.trim_start_matches(['-', '*', ' ']).starts_with(w))
            })
        {
            let item = subject_phrase(f).replace("**", "").trim().to_owned();
            if !items.contains(&item) {
                items.push(item);
            }
        }
        match items.as_slice() {
            [one] => Some(format!(
                "{}（{}）",
                said.trim_end_matches(['。', '！', '!', '~', '～']),
                clip(one, SUBJECT_BYTES)
            )),
            _ => None,
        }
    }

    /// Give a decision that names no subject the one it refers to, the
    /// nearest first: what its own sentence said before it; the question
    /// asked just before in the same turn ("and the listener priority?
    /// leave it at 10"); an earlier decision holding a value of the same
    /// kind ("make it 35" after "bump max_conns to 50", which it then
    /// replaces) or a context item with one; the sentence before in the
    /// turn; the context item it shares most words with; the question the
    /// user asked last; else the first context item.
    fn with_subject(
        &self,
        mut d: Decision,
        ctx: &[String],
        prev: Option<&str>,
        label: Option<&str>,
    ) -> (Decision, Option<String>) {
        // "For reporting-db, forget the replication": what the decision is
        // scoped to is part of it, whether or not it names its subject
        // ("Regarding odometer entry at the pump: …, so please draft it as
        // mandatory": the topic the sentence opens with, without the
        // reason after it)
        // ("buckets: add 1.5 since that's the GetPrice timeout": the label
        // its own sentence opens with names what it decides, whatever else
        // the rest names)
        let own_label = label
            .filter(|l| d.lead.as_deref() == Some(*l) && names_a_thing(l))
            .map(str::to_owned);
        let scope = match topic_of(d.lead.as_deref()) {
            Some(topic) => Some(topic),
            None => scope_of(d.lead.as_deref()).map(|_| d.lead.clone().unwrap_or_default()),
        }
        .or(own_label)
        .filter(|l| shared(&terms(l), &terms(&d.body)) == 0);
        if let Some(scope) = scope.filter(|_| !needs_subject(&d.body)) {
            d.body = with_trailing_subject(&d.body, &scope);
            return (d, None);
        }
        if !needs_subject(&d.body) {
            return (d, None);
        }
        // ("make it 7 per shift" after "bump it to 8 per shift" and other
        // business: the decision it changes lends it its subject, later)
        if self.changed_value_target(&d).is_some() {
            return (d, None);
        }
        let label = label.filter(|l| shared(&terms(l), &terms(&d.body)) == 0);
        // "no retries", "不用 YAML": the thing it rules out is its subject,
        // when it is a name or follows "no", and not a placeholder ("no
        // changes")
        let said = d.said.to_lowercase();
        let word = d.body.to_lowercase();
        let named = d
            .body
            .chars()
            .any(|c| c.is_uppercase() || c.is_ascii_digit())
            || said.contains(&format!("no {word}"));
        if d.polarity == Polarity::DontWant
            && d.body.split_whitespace().count() == 1
            && named
            && !words("placeholder_nouns").contains(&word.as_str())
        {
            return (d, None);
        }
        let mut found: Option<(String, Option<String>)> = None;
        // ("In view of those figures, make it 60 seconds": a lead that
        // points back and names nothing else is no subject; the value's
        // slot is. "That TTL, make it 60 seconds" names the TTL.)
        let points_back = |l: &str| {
            let ws: Vec<String> = l
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect();
            let pointer = ws
                .iter()
                .any(|w| ["those", "these", "that", "this", "such"].contains(&w.as_str()));
            let names = ws.iter().any(|w| {
                !words("pronouns").contains(&w.as_str())
                    && !words("articles").contains(&w.as_str())
                    && !words("link_words").contains(&w.as_str())
                    && !words("discourse_nouns").contains(&w.as_str())
            });
            pointer && !names && !quantities(&d.body).is_empty()
        };
        if let Some(lead) = d
            .lead
            .clone()
            .filter(|l| !terms(l).is_empty() && !points_back(l))
        {
            found = Some((clip(&lead, SUBJECT_BYTES), None));
        }
        if found.is_none() {
            if let Some(q) = prev.filter(|p| classify::is_question(p)) {
                found = Some((subject_phrase(q), None));
            }
        }
        // "also the vacuum job at 3am, move it?" … "move it to 5": the
        // question still open that asked for the same verb on "it"
        if found.is_none() {
            let verb = d
                .body
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_lowercase();
            let points_back = d
                .body
                .split_whitespace()
                .nth(1)
                .is_some_and(|w| words("pronouns").contains(&w.to_lowercase().as_str()));
            if words("imperative_verbs").contains(&verb.as_str()) && points_back {
                if let Some(q) = self.cur.open.iter().rev().find(|q| {
                    classify::is_question(q)
                        && q.split(|c: char| !c.is_alphanumeric())
                            .any(|w| w.eq_ignore_ascii_case(&verb))
                }) {
                    found = Some((subject_phrase(q), None));
                }
                // "bump it to 1200" after "We can leave the warning or bump
                // the limit.": the reply's sentence that puts the same verb
                // on a thing names what "it" is: the proposal when it does,
                // else the one thing the reply puts the verb on (of two,
                // "raise the threshold … may raise the number of misses",
                // neither); not a light verb ("make it 60" is no "make the
                // test smaller", "set it to 300" no "set a reminder")
                let light = [
                    "make", "do", "get", "let", "have", "go", "take", "give", "set",
                ];
                if found.is_none() && !light.contains(&verb.as_str()) {
                    let proposal = self.pending_proposal().map(|p| p.body);
                    let on_things: Vec<(&String, String)> = ctx
                        .iter()
                        .filter_map(|item| Some((item, verb_on_a_thing(item, &verb)?)))
                        .collect();
                    let chosen = on_things
                        .iter()
                        .find(|(item, _)| proposal.as_ref() == Some(*item))
                        .or_else(|| {
                            let first = on_things.first()?;
                            on_things
                                .iter()
                                .all(|(_, t)| *t == first.1)
                                .then_some(first)
                        });
                    found = chosen.map(|(item, thing)| {
                        // ("limit 1000 is enough" … "bump it to 1200"): the
                        // newest decision naming that thing with a value of
                        // the kind the new one gives is what it changes
                        let kinds: Vec<&str> = quantities(&d.body)
                            .iter()
                            .map(|q| q.kind)
                            .filter(|k| !matches!(*k, "version" | "label"))
                            .collect();
                        let changes = self
                            .decisions
                            .iter()
                            .rev()
                            .find(|old| {
                                let body = polarity_and_body(old).1;
                                terms(body).contains(thing)
                                    && quantities(body).iter().any(|q| kinds.contains(&q.kind))
                            })
                            .cloned();
                        (subject_phrase(item), changes)
                    });
                }
            }
        }
        // a bare number fills a slot only in a statement that is little
        // more than the value ("make it 35", "move it to 5")
        let bare_ok = !d.body.chars().any(is_cjk) && d.body.split_whitespace().count() <= 5;
        // "10% is a lot for fri night peak. nah make it 5": a value the
        // sentence before quotes names the decision a bare value revisits,
        // before any newer decision with a number of the same kind
        if found.is_none() && bare_ok && !quantities(&d.body).is_empty() {
            if let Some(b) = prev {
                let quoted = stated_values(b);
                // ("hm retention 2 is tight … make it 3": a bare number
                // quoted with the word before it, held with that word)
                let named_numbers: Vec<(&str, Vec<String>, String)> = quantities(b)
                    .iter()
                    .filter(|q| q.kind == "number" && !in_a_name(b, q.start))
                    .filter_map(|q| {
                        let phrase = subject_before(b, q.start)?;
                        let named = terms(&phrase);
                        (!named.is_empty()).then(|| (b[q.start..q.end].trim(), named, phrase))
                    })
                    .collect();
                // (the word may be part of an identifier there: "retention"
                // of `repo1-retention-full`, which then is the subject)
                let named_in = |body: &str| -> Option<String> {
                    named_numbers.iter().find_map(|(n, named, phrase)| {
                        if !holds_value(body, n) {
                            return None;
                        }
                        // (an identifier holding the word names the
                        // setting best, `repo1-retention-full`; else the
                        // words the sentence used, "retry limit")
                        let token = body
                            .split_whitespace()
                            .map(|w| w.trim_matches(|c: char| "`'\"(),;:".contains(c)))
                            .find(|w| {
                                let w = w.to_lowercase();
                                named
                                    .iter()
                                    .any(|t| t.chars().count() >= 4 && w.contains(t))
                            })?;
                        Some(if token.contains(['-', '_', '.']) {
                            token.to_owned()
                        } else {
                            // (strip_fillers takes "hm", "hmm" as words,
                            // not the "hm" of "hmac_key")
                            let p = classify::strip_fillers(phrase);
                            p.strip_prefix("the ").unwrap_or(p).to_owned()
                        })
                    })
                };
                if let Some(old) = self.decisions.iter().rev().find(|old| {
                    let body = polarity_and_body(old).1;
                    quoted.iter().any(|(v, _)| contains_value(body, v)) || named_in(body).is_some()
                }) {
                    let body = polarity_and_body(old).1;
                    let subj = named_in(body)
                        .filter(|_| !quoted.iter().any(|(v, _)| contains_value(body, v)))
                        .or_else(|| subject::trailing_subject(body).map(str::to_owned))
                        .unwrap_or_else(|| clip(body, SUBJECT_BYTES));
                    found = Some((subj, Some(old.clone())));
                }
            }
        }
        // "Make it 1,200 instead of 1,500", "超 5 分钟那个不行，改成 10
        // 分钟": the sentence that said the old value names its slot
        if found.is_none() {
            if let Some(v) = d
                .old_value
                .as_deref()
                .filter(|v| v.chars().any(|c| c.is_ascii_digit()))
            {
                found = self
                    .decisions
                    .iter()
                    .rev()
                    .map(|old| subject::without_trailing_subject(polarity_and_body(old).1))
                    .chain(ctx.iter().map(String::as_str))
                    .chain(self.cur.facts.iter().rev().map(String::as_str))
                    .find_map(|item| {
                        let at = value_at(item, v)?;
                        subject_before(item, at)
                    })
                    .map(|s| (s, None));
            }
        }
        // "アップロード上限は？" … "10 MB が一般的です。" … "25 MB までに
        // してください": the user's own short question, just answered, names
        // what a first value of its kind is for (a value some decision holds
        // already revisits that decision, below)
        if found.is_none() && d.old_value.is_none() {
            let kinds: Vec<&str> = quantities(&d.body).iter().map(|q| q.kind).collect();
            let first_of_kind = !kinds.is_empty()
                && !self.decisions.iter().any(|old| {
                    quantities(polarity_and_body(old).1)
                        .iter()
                        .any(|x| kinds.contains(&x.kind))
                });
            if let Some(q) = self.cur.focus.last().filter(|q| {
                first_of_kind
                    && classify::is_question(q)
                    && quantities(q).is_empty()
                    && terms(q).len() <= 6
            }) {
                found = Some((subject_phrase(q), None));
            }
        }
        let value = if found.is_none() {
            quantities(&d.body)
        } else {
            Vec::new()
        };
        if let Some(mut q) = value
            .into_iter()
            .find(|q| !matches!(q.kind, "version" | "label") && (q.kind != "number" || bare_ok))
        {
            // "Make it 20,000 then." after "20,000 entries would take …":
            // the number has the unit the context gave it
            if q.kind == "number" {
                let n = &d.body[q.start..q.end];
                if let Some(kind) = ctx.iter().find_map(|item| {
                    quantities(item).into_iter().find_map(|x| {
                        let text = &item[x.start..x.end];
                        let whole = text.strip_prefix(n).is_some_and(|r| {
                            !r.starts_with(|c: char| c.is_ascii_digit() || c == ',' || c == '.')
                        });
                        (x.kind != "number" && whole).then_some(x.kind)
                    })
                }) {
                    q.kind = kind;
                }
            }
            // "In light of that, make it 45 seconds" after "the gateway
            // p99 is 25 seconds, so 30 seconds is tight": the decision
            // holding the value the reply quotes is the slot, not the newest
            // decision of the kind
            if let Some((subj, old)) = ctx.iter().take(3).find_map(|item| {
                quantities(item)
                    .into_iter()
                    .filter(|x| x.kind == q.kind)
                    .find_map(|x| {
                        let v = item[x.start..x.end].trim();
                        self.decisions.iter().rev().find_map(|old| {
                            let own = subject::without_trailing_subject(polarity_and_body(old).1);
                            let at = value_at(own, v)?;
                            let subj = subject::trailing_subject(polarity_and_body(old).1)
                                .map(str::to_owned)
                                .or_else(|| subject_before(own, at))?;
                            Some((subj, old.clone()))
                        })
                    })
            }) {
                found = Some((subj, Some(old)));
            }
            // "In that case, make it 10 minutes" after "The feedback form
            // also has a timeout, currently 5 minutes": the one setting of
            // the reply with a value of this kind, when the reply gives it
            // as the current one and no decision holds it, is what a bare
            // value changes (of two, "決済 API は 30 秒です。在庫 API は 10
            // 秒です", the rules below choose)
            if found.is_none() {
                let held = |v: &str| {
                    self.decisions
                        .iter()
                        .any(|old| holds_value(polarity_and_body(old).1, v))
                };
                let valued: Vec<&String> = ctx
                    .iter()
                    .filter(|item| Some(*item) != d.lead.as_ref())
                    .filter(|item| {
                        quantities(item)
                            .iter()
                            .any(|x| x.kind == q.kind && !held(item[x.start..x.end].trim()))
                    })
                    .collect();
                if let [item] = valued.as_slice() {
                    if classify::has_any(&item.to_lowercase(), words("current_value_markers")) {
                        found = Some((subject_phrase(item), None));
                    }
                }
            }
            // (an amount of money is no count: "Turn it on at 3,000" does
            // not revisit "limit to $1,500")
            let money = |text: &str, at: usize| text[..at].ends_with(['$', '€', '£', '¥']);
            let new_money = money(&d.body, q.start);
            for old in self.decisions.iter().rev().filter(|_| found.is_none()) {
                let (_, body) = polarity_and_body(old);
                // its own value, not one of the subject added to it
                let own = subject::without_trailing_subject(body);
                let Some(oq) = quantities(own).into_iter().find(|x| {
                    x.kind == q.kind && (x.kind != "number" || money(own, x.start) == new_money)
                }) else {
                    continue;
                };
                // a "don't" naming a value is about the decision holding
                // that value ("3 号那个不要"), not another of its kind
                if d.polarity == Polarity::DontWant && !holds_value(own, &d.body[q.start..q.end]) {
                    continue;
                }
                let subj = subject::trailing_subject(body)
                    .map(str::to_owned)
                    .or_else(|| subject_before(own, oq.start))
                    // "cap it at 50,000 entries": the value's own words
                    // name nothing, the decision setting it does (a value
                    // set "at"/"to", not a count like "the 23 env vars")
                    .or_else(|| {
                        let before = own[..oq.start].trim_end().to_lowercase();
                        let sets = [" at", " to", "=", ":"].iter().any(|w| before.ends_with(w));
                        let wants = old.starts_with(Polarity::Want.prefix());
                        (bare_ok && q.kind == "number" && sets && wants).then(|| own.to_owned())
                    });
                if let Some(s) = subj {
                    found = Some((s, Some(old.clone())));
                    break;
                }
            }
            // "make it 10" after "One warning before you apply 12gb … Either
            // lower maxmemory (~10gb)": the reply's value with the same
            // number names the slot before any other of its kind
            if found.is_none() {
                found = reply_value_subject(ctx, &d.body, &q).map(|s| (s, None));
            }
            if found.is_none() {
                for item in ctx {
                    if let Some(s) = quantities(item)
                        .into_iter()
                        .filter(|x| x.kind == q.kind)
                        .filter(|x| !(x.kind == "number" && in_a_name(item, x.start)))
                        .find_map(|x| subject_before(item, x.start))
                    {
                        found = Some((s, None));
                        break;
                    }
                }
            }
        }
        // "5 days is kinda short tho. make it 7" after "give them **5
        // days** to accept": the reply's line holding the value the
        // sentence before quotes is what the bare value changes, and says
        // what it is for better than the complaint does
        if found.is_none() && bare_ok && !quantities(&d.body).is_empty() {
            if let Some(b) = prev {
                let quoted = stated_values(b);
                found = ctx
                    .iter()
                    .chain(self.cur.facts.iter().rev())
                    .filter(|item| {
                        // (not the turn's own sentence, perhaps clipped)
                        let head: String = item.chars().take(24).collect();
                        !b.contains(head.trim_end_matches('…'))
                    })
                    .find(|item| quoted.iter().any(|(v, _)| holds_value(item, v)))
                    .map(|item| {
                        let line = item.replace("**", "");
                        (
                            clip(line.trim_end_matches(['.', '。']), SUBJECT_BYTES),
                            None,
                        )
                    });
            }
        }
        if found.is_none() {
            found = prev.map(|p| (clip(p.trim_end_matches(['.', '。']), SUBJECT_BYTES), None));
        }
        if found.is_none() {
            let dt: Vec<String> = terms(&d.body)
                .into_iter()
                .filter(|t| !words("imperative_verbs").contains(&t.as_str()))
                .collect();
            // the item sharing most words with it, the more specific (with
            // identifiers) among equals, the first among those
            // a proposal the decision only repeats ("set it explicitly"
            // after "I'd set it explicitly in our parameter group") is not
            // what its pronoun points at
            let proposal = self.pending_proposal().map(|p| p.body);
            let repeats = |item: &String| {
                proposal.as_ref() == Some(item) && dt.iter().all(|t| terms(item).contains(t))
            };
            let shares = ctx
                .iter()
                .filter(|item| !repeats(item))
                .enumerate()
                .map(|(i, item)| {
                    (
                        shared(&terms(item), &dt),
                        subject::identifiers(item).len().min(1),
                        i,
                        item,
                    )
                })
                .filter(|(n, ..)| *n > 0)
                .max_by_key(|(n, ids, i, _)| (*n, *ids, std::cmp::Reverse(*i)))
                .map(|(.., item)| item);
            // else the question the user asked last (it stays last in the
            // focus over the reply), else the first item
            // ("who owns it" … "CODEOWNERS says @team-payments." … "assign
            // them": a question asking who or which was answered by the
            // reply, and that answer is what the pronoun names)
            let asked = ctx
                .iter()
                .rfind(|item| self.cur.focus.contains(item) && classify::is_question(item));
            let answer = asked
                .filter(|q| asks_what(q) && pronoun_object(&d.body))
                .and(Some(&self.cur.direction))
                .filter(|a| !a.is_empty() && !a.starts_with(PROPOSED));
            found = shares
                .or(answer)
                .or(asked)
                .or(ctx.first())
                .map(|item| (subject_phrase(item), None));
        }
        // the topic the turn named ("And the daily cap again: … Make it
        // 3") says what it is about better than the sentence or the
        // decision it was found by; the decision it revisits stays
        if let Some(l) = label.filter(|_| d.lead.is_none()) {
            found = Some((l.to_owned(), found.and_then(|(_, slot)| slot)));
        }
        // (a subject that is the decision's own sentence adds nothing:
        // "notify them two weeks in advance" of "Shall I notify them …?")
        let restated = |s: &str| s.to_lowercase().contains(&d.body.to_lowercase());
        match found {
            Some((s, slot)) if !s.is_empty() && !d.body.contains(&s) && !restated(&s) => {
                d.body = with_trailing_subject(&d.body, &s);
                (d, slot)
            }
            Some((_, slot)) => (d, slot),
            None => (d, None),
        }
    }

    fn decide(&mut self, d: &Decision, slot: Option<String>) {
        // "以下是建议条款：", "的发布方式：": a sentence ending in a colon
        // that only announces what follows, or says next to nothing,
        // settles nothing itself ("把超时改成 30 秒，配置如下：" does, before
        // its announcing clause; so does "改成 30 秒：")
        if let Some(intro) = subject::without_trailing_subject(&d.body)
            .trim_end()
            .strip_suffix([':', '：'])
        {
            let l = intro.to_lowercase();
            // (not an order: "Add an index on (user_id, created_at) like
            // this:" decides before its example)
            let one_clause = !l.contains([',', '，', '、', ';', '；']) && !orders(intro);
            let bare = terms(&l).len() <= 2
                && super::text::cjk_content_chars(&l) <= 4
                && !l.chars().any(|c| c.is_ascii_digit());
            if one_clause && (bare || classify::has_any(&l, words("list_intros"))) {
                return;
            }
        }
        let dt = terms(&d.body);
        if self.decisions.iter().any(|old| restates(d, &dt, old)) {
            return; // said before, more fully
        }
        // "kill avif" takes back what holds avif, as "instead" would
        // (not one scoped to a part: "for reporting-db, forget the
        // replication" is an exception to the plan for all three)
        let removes = d.polarity == Polarity::DontWant
            && scope_of(d.lead.as_deref()).is_none()
            && classify::removes(&d.said.to_lowercase());
        // ("Hmm, scratch that. … Keep the positions in process memory.": a
        // turn that opens with a sentence that only takes back what was
        // said reconsiders with the decision it goes on to make; not
        // "Never mind, the error went away", "scratch that idea of yours",
        // "On reflection, Postgres was the right call")
        // (not one that adds: "Changed my mind. We'll also need a CDN")
        let adds = {
            let l = d.said.to_lowercase();
            ["also", "too", "as well"]
                .iter()
                .any(|w| classify::has(&l, w))
        };
        let retracted = d.polarity == Polarity::Want
            && !adds
            && d.earlier.as_deref().is_some_and(|e| {
                let first = e
                    .split_inclusive(['.', '!', '?', '。', '！', '？'])
                    .next()
                    .unwrap_or("")
                    .to_lowercase();
                let mut rest = first.trim().trim_end_matches(['.', '!', '。', '！']);
                loop {
                    let stripped = [
                        "hmm", "hm", "ok", "okay", "actually", "wait", "sorry", "oh", "no",
                    ]
                    .iter()
                    .find_map(|f| rest.strip_prefix(f))
                    .map(|r| r.trim_start_matches([',', ' ', '.', '—', '-']));
                    match stripped {
                        Some(r) if r.len() < rest.len() => rest = r,
                        _ => break,
                    }
                }
                ["scratch that", "never mind", "nevermind", "changed my mind"].contains(&rest)
            });
        let reconsiders = removes
            || retracted
            || classify::has_any(&d.said.to_lowercase(), words("reconsider_cues"));
        // (a change naming the value an earlier decision set knows its
        // target: "feb 14 is inside it. ugh. make it feb 21")
        let by_value = d.value_change().and_then(|c| self.value_target(&c));
        let target = if removes {
            // what it names, all of it ("kill avif" of "avif + jpeg
            // fallback"; not "delete the stale release branches" of "use a
            // release branch per version")
            let named = terms(d.said.split_once(' ').map_or("", |x| x.1));
            self.latest_want(|body| {
                let ot = terms(body);
                !named.is_empty() && named.iter().all(|t| ot.contains(t))
            })
            // ("每周那个不要了": no space parts the verb from what it
            // names; the words it shares name it)
            .or_else(|| {
                d.said
                    .chars()
                    .any(is_cjk)
                    .then(|| self.reversal_target(d))
                    .flatten()
            })
        } else if reconsiders && d.old_value.is_none() {
            self.reversal_target(d)
        } else if subject::is_choice(&d.body) {
            // "Keep npm for now" … "Switch to pnpm": a choice made for the
            // time being is what the next choice revisits
            self.decisions
                .iter()
                .rev()
                .find(|old| {
                    let b = polarity_and_body(old).1.to_lowercase();
                    classify::has_any(&b, words("temporary_markers"))
                        && (subject::is_choice(&b)
                            || b.starts_with("keep ")
                            || b.starts_with("stay "))
                })
                .cloned()
        } else {
            None
        }
        .or_else(|| self.quoted_value_target(d))
        .filter(|_| by_value.is_none());
        // the decision whose value a bare change revisits lends it its
        // subject ("改成 2000 条（离线队列存多少条）")
        let changed = if target.is_none() {
            by_value
                .or_else(|| self.changed_value_target(d))
                .or_else(|| self.slot_target(d))
        } else {
            None
        };
        let mut d = d.clone();
        if let Some(old) = &changed {
            let subject = value_subject(polarity_and_body(old).1);
            if let Some(subj) = subject.filter(|s| !names_already(&d.body, s)) {
                d.body = with_trailing_subject(&d.body, &subj);
            }
        }
        let target = target.or(changed);
        let d = &d;
        // "lr 先别动", "leave the pool alone": a "don't" of a change keeps
        // what was decided; it takes nothing back
        // (but "leave it as is" after "rename it" cancels the rename)
        let keeps_as_is = d.polarity == Polarity::DontWant
            && classify::has_any(&d.said.to_lowercase(), words("leave_alone"));
        let a_change = |old: &String| {
            let l = polarity_and_body(old).1.to_lowercase();
            ["change_verbs", "shift_verbs", "value_verbs"]
                .iter()
                .any(|list| classify::has_any(&l, words(list)))
                || [
                    "rename ", "change ", "switch ", "move ", "replace ", "migrate ", "convert ",
                ]
                .iter()
                .any(|v| l.starts_with(v))
        };
        // "やっぱ 5% はなし" takes back every "do" that set 5%, not only the
        // last ("来週から 5% 出したい" … "月曜 10:00 に 5 % にする予定")
        let dropped_value: Option<String> = (d.polarity == Polarity::DontWant && reconsiders)
            .then(|| stated_values(&d.said))
            .and_then(|vs| match vs.as_slice() {
                [(v, kind)] if *kind != "number" => Some(v.clone()),
                _ => None,
            });
        let drops_value = |old: &String| {
            let (p, body) = polarity_and_body(old);
            p == Polarity::Want
                && dropped_value
                    .as_deref()
                    .is_some_and(|v| holds_value(split_echo(body).0, v))
        };
        // ("actually scrap the sunday rerun. just leave automation there":
        // a decision whose subject was lent by a sentence of the same turn
        // goes on from what that sentence decided, it does not take it
        // back, unless its own words name the same thing)
        // (nor when they give a value of a kind it gave: "go with 40%
        // then. … make it 30%" corrects it)
        let own = subject::without_trailing_subject(&d.body);
        let own_head = head_terms(own);
        let own_kinds: Vec<&str> = quantities(own).iter().map(|q| q.kind).collect();
        let goes_on_from = |old: &String| {
            let body = polarity_and_body(old).1;
            self.turn_made.contains(old)
                && subject::trailing_subject(&d.body).is_some()
                && shared(&own_head, &head_terms(body)) == 0
                && !quantities(body).iter().any(|q| own_kinds.contains(&q.kind))
        };
        // "给 load_to_redshift 设 SLA 3 小时" … "SLA 改成 4 小时": a change of
        // the setting an earlier value was given to, every word of its name
        // there, another value of the kind; of one such line only ("SLA" of
        // two tasks' SLAs names neither)
        let reset = only_one(self.decisions.iter().filter(|old| {
            let (p, body) = polarity_and_body(old);
            p == d.polarity && resets(&d.said, split_echo(body).0)
        }));
        let (replaced, kept): (Vec<String>, Vec<String>) = std::mem::take(&mut self.decisions)
            .into_iter()
            .partition(|old| {
                (!keeps_as_is || a_change(old))
                    // (of one sentence, a don't and a do are two parts of
                    // one thought; two of a kind are a correction: "30s,
                    // hmm, no, 60s")
                    && (!self.sentence_made.contains(old)
                        || polarity_and_body(old).0 == d.polarity)
                    && !self.list_made.iter().any(|m| old.starts_with(m.as_str()))
                    && (Some(old) == slot.as_ref()
                        || Some(old) == target.as_ref()
                        || Some(old) == reset.as_ref()
                        || replaces(d, old) && !goes_on_from(old)
                        || drops_value(old))
            });
        self.decisions = kept;
        // a decision of several parts loses only the part the new one
        // revisits ("最多重试 5 次" of an adopted backoff plan, "p99 超过
        // 200 ms 标红" of "看板放在 … 文件夹"): the rest still binds
        let mut revisited: Vec<String> = Vec::new();
        let mut replaced: Vec<String> = replaced
            .into_iter()
            .filter(
                |old| match without_revisited_part(old, d, target.as_ref() == Some(old)) {
                    Some((rest, part)) => {
                        self.decisions.push(rest);
                        revisited.push(part);
                        false
                    }
                    None => true,
                },
            )
            .collect();
        // a short "don't" or correction says what it takes back ("not yet
        // for lb-portal-old", "Tuesday, not Monday")
        let mut d = d.clone();
        // (a subject given as the very decision it replaces keeps only what
        // the changed value was for: "20にする（1日の受付）", not "（1日の受付は
        // 30件でいこう）" — the old value must not live on in the new line)
        if let Some(subj) =
            subject::trailing_subject(&d.body).map(|t| t.trim_end_matches([')', '）']).to_owned())
        {
            if let Some(old) = replaced
                .iter()
                .map(|o| polarity_and_body(o).1)
                .find(|b| *b == subj)
            {
                let quoted = d.earlier.as_deref().unwrap_or("");
                let own = subject::without_trailing_subject(&d.body).to_owned();
                if let Some(what) = changed_value_subject(old, quoted, |_| true) {
                    d.body = with_trailing_subject(&own, &what);
                }
            }
        }
        let short = d.body.split_whitespace().count() <= 5;
        if short && (d.polarity == Polarity::DontWant || needs_subject(&d.body)) {
            // the decision a new value revisited, without the old value
            // ("make it 5 (use Redis; TTL)", not "… TTL 10 minutes")
            let part_subject = revisited.last().map(|p| {
                let subject = quantities(p)
                    .first()
                    .and_then(|q| subject_before(p, q.start))
                    .unwrap_or_else(|| p.clone());
                let rest = self
                    .decisions
                    .last()
                    .map(|r| polarity_and_body(r).1.to_owned())
                    .unwrap_or_default();
                if rest.is_empty() {
                    subject
                } else {
                    format!("{rest}; {subject}")
                }
            });
            // (of a decision setting a value the new one changes, what the
            // value was for: "20にする（1日の受付）", not "（1日の受付は30件でいこう）")
            let new_kinds: Vec<&str> = quantities(&d.body).iter().map(|q| q.kind).collect();
            let old = replaced
                .iter()
                .find(|o| o.starts_with(Polarity::Want.prefix()))
                .and_then(|o| {
                    let body = polarity_and_body(o).1;
                    let quoted = d.earlier.as_deref().unwrap_or("");
                    // (a new value never carries the old one: "make it 5 per
                    // gate", not "… (bump it to 6 per gate)"; what the old one
                    // was for, if it says)
                    changed_value_subject(body, quoted, |q| new_kinds.contains(&q.kind)).or_else(
                        || match d.polarity {
                            Polarity::DontWant => Some(body.to_owned()),
                            Polarity::Want if quantities(&d.body).is_empty() => {
                                Some(body.to_owned())
                            }
                            Polarity::Want => subject::trailing_subject(body)
                                .map(|t| t.trim_end_matches([')', '）']).to_owned()),
                        },
                    )
                })
                .or(part_subject);
            if let Some(ob) = old {
                if !d.body.contains(&ob) && subject::trailing_subject(&d.body).is_none() {
                    d.body = format!("{} ({})", d.body, clip(&ob, SUBJECT_BYTES));
                }
            }
        }
        // the facts that stated a revisited value go with it
        replaced.extend(
            revisited
                .iter()
                .map(|p| format!("{}{p}", d.polarity.prefix())),
        );
        let d = &d;
        // "要：给", "不要：折腾": what names nothing binds nothing; it may
        // still have taken back the decision it revisits (above)
        if !names_something(&d.body) || is_torn_clause(&d.body) {
            return;
        }
        self.decisions.push(d.line());
        self.turn_made.push(d.line());
        self.drop_stale_facts(d, &dt, &replaced);
        self.close_answered(&d.line());
        if let Some(p) = self.pending_proposal() {
            if shared(&terms(&p.body), &dt) > 0 {
                self.cur.direction = d.line();
            }
        }
    }

    /// "先定 500 条" … "改成 2000 条": a decision that changes a value
    /// ("改成", "make it", "raise it to") in the unit of an earlier
    /// decision's value revisits that decision, wherever its subject was
    /// said.
    /// The latest decision of an earlier turn that set the value a change
    /// names as the old one (see `set_the_value`): "push window to feb 14"
    /// of "feb 14 is inside it. ugh. make it feb 21". A decision of this
    /// turn is not one: "keep the web release on march 5. feb 14 is …"
    /// holds the sentence after it.
    /// `line` is a decision the user's turn being read made, or one it
    /// made and then added a detail or a clause to ("sync the voids; and
    /// test on the demo company first").
    fn made_this_turn(&self, line: &str) -> bool {
        self.turn_made.iter().any(|m| line.starts_with(m.as_str()))
    }

    fn value_target(&self, c: &classify::ValueChange) -> Option<String> {
        // (of one line only: "検索の上限は5件" and "通知の上限は5件" are both
        // what "上限、5件だと少ない" may mean)
        only_one(
            self.decisions
                .iter()
                .filter(|old| !self.made_this_turn(old) && set_the_value(c, old)),
        )
    }

    fn changed_value_target(&self, d: &Decision) -> Option<String> {
        let said = if d.said.is_empty() { &d.body } else { &d.said };
        let l = said.to_lowercase();
        // only a change that names nothing before its verb ("改成 2000 条",
        // "ok make it 40"): "超时 8 秒太长了，调成 3 秒" is about the timeout
        let at = words("change_verbs")
            .iter()
            .filter_map(|v| l.find(v))
            .min()?;
        if !terms(classify::strip_fillers(&l[..at])).is_empty() {
            return None;
        }
        let units = units_of(said);
        if units.is_empty() {
            return None;
        }
        // only a value still in view: quoted in the turn ("还有那个 500 条")
        // or by the reply; "14 日に変更" after a reply proposing 7 日 is about
        // that proposal, not the log retention of 30 日 decided before
        let in_view = format!(
            "{} {}",
            d.before.as_deref().unwrap_or(""),
            self.context().join(" ")
        );
        self.latest_want(|body| {
            units_of(body).iter().any(|u| units.contains(u))
                && quantities(body)
                    .iter()
                    .any(|q| holds_value(&in_view, &body[q.start..q.end]))
        })
        // ("bump it to 8 per shift" … a raffle … "make it 7 per shift": a
        // count of things the conversation names is what it changes, in
        // view or not; a time or a size may be anything's)
        .or_else(|| {
            let counted: Vec<String> = units
                .iter()
                .filter(|u| {
                    u.starts_with("per ")
                        || u.len() >= 3
                            && u.chars().all(|c| c.is_ascii_alphabetic())
                            && quantities(&format!("1 {u}"))
                                .first()
                                .is_some_and(|q| q.kind == "number")
                })
                .cloned()
                .collect();
            (!counted.is_empty())
                .then(|| {
                    self.latest_want(|body| units_of(body).iter().any(|u| counted.contains(u)))
                })
                .flatten()
        })
    }

    /// "时间上限就定 60 秒" … "上限提到 120 秒吧", "bitrate 64kbps" …
    /// "ビットレートは 96kbps に": another value in the same unit for a
    /// slot of the same name revisits the decision that filled it, however
    /// each sentence is built around it.
    fn slot_target(&self, d: &Decision) -> Option<String> {
        let said = if d.said.is_empty() { &d.body } else { &d.said };
        let new = value_slots(said);
        if new.is_empty() {
            return None;
        }
        self.latest_want(|body| {
            value_slots(body).iter().any(|old| {
                new.iter()
                    .any(|n| n.unit == old.unit && n.value != old.value && same_slot(n, old))
            })
        })
    }

    /// "3回だと半分以上逃げてるのか…。2回にしましょう。": the sentence
    /// before quotes the value an earlier decision set, and this decision
    /// sets another value of that kind: it revisits that decision.
    fn quoted_value_target(&self, d: &Decision) -> Option<String> {
        // ("30s polling makes the graph steppy. the dongle's been fine.
        // lets try 15s": anywhere earlier in the turn)
        let before = d.earlier.as_deref().or(d.before.as_deref())?;
        // only a bare value ("2回にしましょう", "make it 5"): a decision
        // naming its own subject ("Git 実践は 1 週間のままで") is about that
        // (what was said: the body may carry a subject guessed for it)
        let said = if d.said.is_empty() { &d.body } else { &d.said };
        let bare = if said.chars().any(is_cjk) {
            cjk_content_chars(said) <= 3
        } else {
            said.split_whitespace().count() <= 6 && needs_subject(said)
        };
        if !bare {
            return None;
        }
        let said_before = before.trim_end_matches(['.', '。', '!', '！']);
        let new = stated_values(&d.body);
        // a bare number takes the unit of the value it revisits ("40件の話を
        // 健太にしたら…多すぎ。25にする！")
        let bare_numbers: Vec<&str> = if new.is_empty() && d.before.as_deref() == Some(before) {
            quantities(said)
                .iter()
                .filter(|q| q.kind == "number")
                .map(|q| said[q.start..q.end].trim())
                .collect()
        } else {
            Vec::new()
        };
        let quoted: Vec<(String, &str)> = stated_values(before)
            .into_iter()
            .filter(|(v, k)| {
                new.iter().any(|(nv, nk)| nk == k && nv != v)
                    || !bare_numbers.is_empty()
                        && bare_numbers.iter().all(|n| !contains_value(v, n))
            })
            .collect();
        self.latest_want(|body| {
            // not the decision the sentence before itself made
            !said_before.contains(body.trim_end_matches(['.', '。']))
                && quoted.iter().any(|(v, _)| contains_value(body, v))
        })
    }

    /// The newest "do" whose body (without its prefix) satisfies `test`.
    fn latest_want(&self, test: impl Fn(&str) -> bool) -> Option<String> {
        self.decisions
            .iter()
            .rev()
            .filter(|old| old.starts_with(Polarity::Want.prefix()))
            .find(|old| test(polarity_and_body(old).1))
            .cloned()
    }

    /// What an "instead", "go back to", やっぱり without a named old value
    /// replaces: for a choice ("use X instead", "go back to Redis"), the
    /// newest choice, one the last turn talked about first; otherwise the
    /// newest decision whose head the last turn talked about. A "don't" is
    /// what an "instead" is said against ("don't use Redis … use an
    /// in-process LRU instead"), never what it replaces; a "don't" takes
    /// back the newest decision naming what it rules out ("no retries
    /// after all").
    fn reversal_target(&self, d: &Decision) -> Option<String> {
        let focus = terms(&self.cur.focus.join(" "));
        let new_head = head_terms(&d.body);
        let wants = || {
            self.decisions
                .iter()
                .rev()
                .filter(|old| old.starts_with(Polarity::Want.prefix()))
        };
        if d.polarity == Polarity::DontWant {
            // "やっぱり focus-trap-react はやめて native の <dialog> に": the
            // name it drops is the subject, wherever it stands
            let names = subject::identifiers(&d.body);
            // "4 日那个不要了": the value it rules out, when it names one
            let values = stated_values(&d.body);
            // the value it names says which, before any shared word
            // (and when none holds it any more, it has been replaced
            // already: "改 10 号，3 号那个不要了")
            if !values.is_empty() {
                return wants()
                    .find(|old| {
                        let body = polarity_and_body(old).1;
                        values.iter().any(|(v, _)| holds_value(body, v))
                    })
                    .cloned();
            }
            // ("每周那个不要（财务说要每天看）": what it rules out is said
            // before the subject it was given)
            // (and before its reason: "scrap the sunday rerun — talked to
            // tomás" rules out no decision "for talk")
            let own = subject::without_trailing_subject(&d.body);
            let object = [" — ", " – ", " - ", ", ", "; ", "，", "；", "、"]
                .iter()
                .filter_map(|sep| own.find(sep))
                .min()
                .map_or(own, |i| &own[..i]);
            let (new_head, own_head) = if object.len() < own.len() {
                let h = head_terms(object);
                (h.clone(), h)
            } else {
                (new_head, head_terms(own))
            };
            return wants()
                .find(|old| {
                    let body = polarity_and_body(old).1;
                    shared(&terms(body), &new_head) > 0
                        || shared(&terms(body), &own_head) > 0
                        || names.iter().any(|n| subject::identifiers(body).contains(n))
                        || values.iter().any(|(v, _)| contains_value(body, v))
                })
                .cloned();
        }
        // "drop the take-home" … "actually keep the take-home for
        // candidates without public code": a "do" naming all that an
        // earlier "don't" ruled out takes that one back, before any "do"
        // (what the "do" is about, its head: "use NATS instead and
        // document that we skipped Kafka" leaves "No Kafka" alone)
        let dt = head_terms(&d.body);
        if let Some(old) = self.decisions.iter().rev().find(|old| {
            let (p, body) = polarity_and_body(old);
            let ot = terms(body);
            p == Polarity::DontWant && !ot.is_empty() && ot.iter().all(|t| dt.contains(t))
        }) {
            return Some(old.clone());
        }
        // "notify them two weeks in advance" … "notify them on 15 February
        // instead": the same verb on the same object is the same subject
        // (after who commits: "we shall ask …" and "we shall have …" are
        // two verbs)
        let opening = |b: &str| {
            let mut ws = b.split_whitespace().map(|w| w.to_lowercase()).peekable();
            while ws
                .next_if(|w| COMMITTING_WORDS.contains(&w.as_str()))
                .is_some()
            {}
            let ws: Vec<String> = ws.take(2).collect();
            (ws.len() == 2).then_some(ws)
        };
        if let Some(o) = opening(&d.body) {
            if let Some(old) =
                wants().find(|old| opening(polarity_and_body(old).1).as_ref() == Some(&o))
            {
                return Some(old.clone());
            }
        }
        // "wed is the finance close. thu 02:00 instead": the sentence before
        // in the turn names what "instead" sets aside (not what that turn
        // has just decided: "yes sync the voids. … change the backfill, start
        // from 1 July instead")
        if let Some(b) = d.before.as_deref().filter(|b| !classify::is_question(b)) {
            let bt = terms(b);
            if let Some(old) = wants().find(|old| {
                let h = head_terms(polarity_and_body(old).1);
                shared(&h, &bt) > 0 && shared(&h, &new_head) == 0 && !self.made_this_turn(old)
            }) {
                return Some(old.clone());
            }
        }
        // "Registry: Docker Hub" … "make the registry GHCR instead": a
        // decision listed under its item's name is what a change naming that
        // item reconsiders
        let all_terms = terms(&d.body);
        if let Some(old) = wants().find(|old| {
            item_and_verdict(polarity_and_body(old).1)
                .map(|(item, _)| terms(item))
                .is_some_and(|it| !it.is_empty() && it.iter().all(|t| all_terms.contains(t)))
        }) {
            return Some(old.clone());
        }
        // "重试次数还是改成 3 次吧" names its subject: the decision on that
        // subject is what it reconsiders, whatever the last turn was about
        // (a Chinese or Japanese head is character pairs: one in common is
        // the same word, "重试" of "重试次数" in "最多重试 5 次")
        if !new_head.is_empty() {
            if let Some(old) = wants().find(|old| {
                let ot = terms(polarity_and_body(old).1);
                let (cjk, latin): (Vec<&String>, Vec<&String>) =
                    new_head.iter().partition(|t| t.chars().any(is_cjk));
                latin.iter().all(|t| ot.contains(t))
                    && (cjk.is_empty() || cjk.iter().any(|t| ot.contains(t)))
            }) {
                return Some(old.clone());
            }
        }
        // "replicas 12 还是多了，…改回 8": the old value it quotes names the
        // one decision it reconsiders
        let quoted: Vec<&String> = wants()
            .filter(|old| {
                old_values(&d.body)
                    .iter()
                    .any(|n| contains_value(polarity_and_body(old).1, n))
            })
            .collect();
        if let [one] = quoted.as_slice() {
            return Some((*one).clone());
        }
        // (what the last reply talked about, and not what this turn has just
        // decided)
        let about_focus = |old: &&String| {
            let h = head_terms(polarity_and_body(old).1);
            shared(&h, &focus) > 0 && shared(&h, &new_head) == 0 && !self.made_this_turn(old)
        };
        if subject::is_choice(&d.body) {
            let choice = |old: &&String| subject::is_choice(polarity_and_body(old).1);
            if let Some(old) = wants()
                .filter(choice)
                .find(about_focus)
                .or_else(|| wants().filter(|old| !self.made_this_turn(old)).find(choice))
            {
                return Some(old.clone());
            }
        }
        wants().find(about_focus).cloned()
    }

    /// Open questions an answer the user reports settles ("Priya says the
    /// runbook is hers", "県から返事来た！繰越はなし", "表姐说从批发市场拿"):
    /// a question put off until someone answers is answered when the user
    /// passes the answer on, whatever it decides. Those sharing a word with
    /// the report close; after a talk with someone ("I have spoken with Dr.
    /// Patel"), those naming that person.
    fn close_reported(&mut self, s: &str) {
        if passes_on_answer(s) {
            let st = named_terms(s);
            self.cur.open.retain(|q| shared(&terms(q), &st) == 0);
        } else if let Some(person) = talked_to(s) {
            // ("I have spoken with Dr. Patel", "田中さんと話してきた",
            // "表姐回我了": only what waited for that person, named as a
            // word of its own in a Latin text: "Ana" is not in "banana")
            let names = |q: &str| {
                let q = q.to_lowercase();
                if person.is_ascii() {
                    q.split(|c: char| !c.is_alphanumeric()).any(|w| w == person)
                } else {
                    q.contains(&person)
                }
            };
            self.cur.open.retain(|q| !names(q));
        }
    }

    /// "parallel run idk, let me ask Dana" … "Dana replied: 7 days
    /// parallel": the answer the user passes on to a question left open
    /// for that person decides it, when it gives a value or reads as a
    /// decision of its own. It is what the user goes with; the question
    /// names its subject. False when the sentence passes on no such answer.
    fn decide_reported(&mut self, s: &str, turn: &mut Turn) -> bool {
        if !passes_on_answer(s) {
            return false;
        }
        let l = s.to_lowercase();
        // (the answer after the word that reports it: "replied: 7 days")
        let Some(rest) = words("answer_reports")
            .iter()
            .filter(|m| m.is_ascii())
            .filter_map(|m| {
                let at = l.find(&format!(" {m}"))? + 1;
                // (a person's answer: not "Section 4 says …", "the contract
                // says …", a text quoted)
                let who = l[..at].split_whitespace().next_back()?;
                let person = who.chars().all(char::is_alphabetic)
                    && ![
                        "section", "clause", "article", "policy", "contract", "doc", "docs",
                        "spec", "law", "rule", "rules", "page", "readme", "manual", "guide", "it",
                        "this", "that", "error", "log", "output", "message",
                    ]
                    .contains(&who);
                if !person {
                    return None;
                }
                let after = at + m.len();
                (l[after..].starts_with([':', ',', ' ']) && s.is_char_boundary(after))
                    .then(|| &s[after..])
            })
            .next()
        else {
            return false;
        };
        let rest = rest
            .trim_start_matches([':', ',', ' '])
            .trim_end_matches(['.', '!']);
        let rest = rest.split(", and ").next().unwrap_or(rest).trim();
        // (a value alone, "7 days parallel"; not a report holding one, "we
        // have 3 instances already and they're idle")
        let decides = rest.contains(|c: char| c.is_ascii_digit())
            && rest.split_whitespace().count() <= 6
            || matches!(classify::user_sentence(rest), UserKind::Decisions(_));
        if rest.is_empty() || !decides {
            return false;
        }
        let st = named_terms(s);
        // (left open, still on the table as the reply's proposal, or in
        // view as a question or as the user's putting it off: "let me ask
        // Dana how long finance wants both")
        let proposed = self.cur.direction.strip_prefix(PROPOSED).map(str::to_owned);
        let asked: Vec<String> = self
            .cur
            .open
            .iter()
            .chain(proposed.iter())
            .chain(
                self.cur
                    .focus
                    .iter()
                    .filter(|f| classify::is_question(f) || classify::is_deferral(f)),
            )
            .filter(|q| shared(&terms(q), &st) > 0)
            .cloned()
            .collect();
        let Some(q) = asked.first() else {
            return false;
        };
        let mut body = clip(rest, classify::DECISION_BYTES);
        if shared(&terms(&body), &terms(q)) == 0 {
            body = with_trailing_subject(&body, &subject_phrase(q));
        }
        let d = Decision::plain(Polarity::Want, body);
        self.decide(&d, None);
        turn.last_decision = self.decisions.iter().position(|x| *x == d.line());
        turn.decided.push(d.line());
        true
    }

    /// Open questions a decision settles: those sharing words with it (two,
    /// or one of a question of a few words).
    /// (and those an earlier discussion left open: "甜品台……等桌数定了再说吧"
    /// settled by "甜品台要的" the next day)
    fn close_answered(&mut self, line: &str) {
        let lt = named_terms(line);
        let open = |q: &str| {
            let qt = terms(q);
            let need = if qt.len() <= 4 { 1 } else { 2 };
            shared(&qt, &lt) < need
        };
        self.cur.open.retain(|q| open(q));
        // (of an earlier discussion, only one naming what the decision is
        // about, its first head word: a long question shares two words
        // with many a decision)
        let head = head_terms(polarity_and_body(line).1);
        let still_open = |q: &str| open(q) || head.first().is_none_or(|h| !terms(q).contains(h));
        for p in self.past.iter_mut() {
            let direction = str_of(p.get("direction"));
            let kept = retain_open(&direction, still_open);
            if kept != direction {
                p["direction"] = json!(kept);
            }
        }
    }

    /// Facts that state a value a decision just replaced ("not 5"), or
    /// describe an option it rejects ("don't use Redis" after "use Redis"),
    /// no longer hold.
    fn drop_stale_facts(&mut self, d: &Decision, dt: &[String], replaced: &[String]) {
        if let Some(v) = &d.old_value {
            self.cur.facts.retain(|f| !contains_value(f, v));
            self.cur.focus.retain(|f| !contains_value(f, v));
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

    /// "yes, do that" adopts the pending proposal; "agreed, not now" adopts
    /// it as a "don't"; "LGTM, merge it" states its own decision; "yes,
    /// per-key overrides from …" answers the proposal with its own words.
    fn approve(&mut self, strong: bool, rest: &str, turn: &mut Turn) {
        // "sgtm on the exports expiry": what it approves
        let rest = rest.strip_prefix("on ").unwrap_or(rest);
        let pending = self.pending_proposal();
        // "可以先观察两天再决定" … "行，先观察两天": to accept waiting
        // decides nothing; the question stays open
        if let Some(p) = pending.as_ref().filter(|p| classify::is_deferral(&p.body)) {
            let what = if rest.is_empty() {
                p.body.as_str()
            } else {
                rest
            };
            self.defer(what, turn);
            return;
        }
        // ("Sounds reasonable, but I need to run it by the CTO": a yes that
        // waits on someone decides nothing yet)
        // (not "hold off on the WAF rules": a side item put off)
        let about_it = rest
            .to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| ["it", "this", "that", "first"].contains(&w));
        if !rest.is_empty() && classify::is_deferral(rest) {
            if let Some(p) = pending.as_ref().filter(|p| !about_it && !p.against) {
                self.adopt(p, None, None, turn);
            }
            self.defer(rest, turn);
            return;
        }
        // a proposal made "instead" of what the user decided replaces it
        if pending
            .as_ref()
            .is_some_and(|p| classify::has_any(&p.body.to_lowercase(), words("reconsider_cues")))
        {
            turn.counter = self.decisions.last().cloned();
        }
        // ("sounds good to both", "yes to all of them": every option the
        // reply listed)
        let every = {
            let l = rest.to_lowercase();
            let l = l.trim().trim_end_matches(['.', '!']);
            [
                "both",
                "to both",
                "both of them",
                "to both of them",
                "all of them",
                "to all of them",
            ]
            .contains(&l)
        };
        let listed: Vec<String> = if every {
            self.cur
                .focus
                .iter()
                .filter_map(|f| {
                    option_label_of_item(f)
                        .and_then(|_| f.split_once(") "))
                        .map(|(_, item)| item.trim_end_matches(['.', '。']).to_owned())
                })
                .collect()
        } else {
            Vec::new()
        };
        if listed.len() >= 2 {
            // (one after another, none takes back the one before: "bump
            // tokio to 1.38" and "pin openssl to 3.0" are both kept)
            let mut adopted: Vec<String> = Vec::new();
            for body in listed {
                let p = Proposal {
                    body,
                    against: false,
                    deictic: false,
                };
                let before = self.decisions.clone();
                self.adopt(&p, None, None, turn);
                let lost: Vec<String> = before
                    .iter()
                    .filter(|d| !self.decisions.contains(d) && adopted.contains(d))
                    .cloned()
                    .collect();
                self.decisions.extend(lost);
                adopted.extend(
                    self.decisions
                        .iter()
                        .filter(|d| !before.contains(d))
                        .cloned()
                        .collect::<Vec<_>>(),
                );
            }
            return;
        }
        if let Some(p) = pending
            .as_ref()
            .filter(|_| rest.is_empty() || classify::is_deictic(rest))
        {
            self.adopt(p, None, None, turn);
            return;
        }
        // ("go ahead" is no course of its own)
        let points_back = rest.is_empty() || classify::is_deictic(rest);
        let stated = if points_back {
            Vec::new()
        } else {
            classify::decisions_in(rest)
        };
        if !stated.is_empty() {
            stated
                .into_iter()
                .for_each(|d| self.decide_in_turn(d, turn));
            return;
        }
        let Some(p) = self.pending_proposal() else {
            // "代わりに、ロックの粒度を SKU 単位に変えるのは？" … "それでお願いします":
            // with no proposal of the assistant's pending, "that" is the
            // course the user floated last
            if let Some(q) = self.question_answered(rest) {
                self.decide_question(&q, Some(rest), turn);
                return;
            }
            // "Retries?" … "3 retries with backoff." … "Sounds reasonable, go
            // ahead.": the plain answer the reply gave is what a strong yes
            // takes when nothing was proposed
            // (a question about a course, "Retries?", not one asking how
            // things are, "What is the latency now?"; and an act word,
            // not "thanks")
            let asked = self.cur.focus.iter().any(|f| {
                classify::is_question(f) && matches!(classify::user_sentence(f), UserKind::Open(_))
            });
            let act = !classify::is_small_talk(rest);
            let answered = (strong && !rest.is_empty() && points_back && act && asked)
                .then(|| self.cur.direction.clone())
                .filter(|d| {
                    !d.is_empty() && !d.starts_with(PROPOSED) && !d.starts_with(ADVISED_AGAINST)
                })
                .filter(|d| !classify::is_question(d) && !facts::is_status(d))
                .map(|d| d.trim_end_matches(['.', '。']).to_owned());
            if let Some(body) = answered {
                let p = Proposal {
                    body,
                    against: false,
                    deictic: false,
                };
                self.adopt(&p, None, None, turn);
                return;
            }
            // "Yes, per-key overrides from the api_keys table": the user
            // affirms what they name
            // ("Go ahead with the conversion": what it goes ahead with)
            let rest = rest.strip_prefix("with ").unwrap_or(rest);
            // ("Fine, 70." after "…, 70 would keep the peak under 120", "ok,
            // 14" after "How many days should we keep them?": a bare value
            // the reply offered or asked for is what the yes settles; its
            // subject is found as for "make it 70". Not "yes, 3" to "There
            // are 3", nor "ok, 5512" after "Order #5512 updated": a value
            // the reply only stated is acknowledged, not chosen.)
            // (one a decision already holds is said back: "就 28" after
            // "改成 28")
            let values = number_tokens(rest);
            const OFFERS: [&str; 16] = [
                "would",
                "could",
                "might",
                "if ",
                "instead",
                "use ",
                "also",
                "recommend",
                "suggest",
                "的话",
                "可以",
                "建议",
                "或者",
                "なら",
                "でも",
                "だと",
            ];
            const ASKS_HOW_MUCH: [&str; 10] = [
                "how many",
                "how long",
                "how much",
                "how often",
                "which",
                "几",
                "多少",
                "多久",
                "何",
                "いくつ",
            ];
            let context = self.context();
            let offered = context.iter().any(|item| {
                let l = item.to_lowercase();
                values.iter().all(|v| contains_value(item, v))
                    && OFFERS.iter().any(|o| l.contains(o))
                    || classify::is_question(item) && ASKS_HOW_MUCH.iter().any(|a| l.contains(a))
            });
            let bare_value = !values.is_empty()
                && offered
                && rest.split_whitespace().count() <= 3
                && !self.decisions.iter().any(|old| {
                    values
                        .iter()
                        .all(|v| holds_value(polarity_and_body(old).1, v))
                });
            // ("ok so I got roped into being plot coordinator", "ok so
            // holiday peak is sold out": with nothing proposed, "ok so" opens
            // a story; the rest decides only when it names a choice or is
            // one by its own words)
            // ("Budget and date?" … "ok, the budget is 5k max": a figure
            // that answers the question asked is what the user goes with)
            let answers_asked = !values.is_empty()
                && self
                    .cur
                    .focus
                    .iter()
                    .any(|f| classify::is_question(f) && shared(&terms(f), &terms(rest)) > 0);
            let chooses = bare_value || answers_asked || !classify::only_tells(rest);
            if !rest.is_empty()
                && !classify::is_deictic(rest)
                && chooses
                && (!terms(rest).is_empty() || bare_value)
            {
                // ("yeah 24.04 not now": a yes to the question, a no to the
                // thing it names)
                let not_now = says_not_now(rest);
                let polarity = if not_now {
                    Polarity::DontWant
                } else {
                    Polarity::Want
                };
                let d = Decision::plain(polarity, clip(rest, classify::DECISION_BYTES));
                self.decide_in_turn(d, turn);
            }
            return;
        };
        let l = rest.to_lowercase();
        // ("yeah 24.04 not now": a no to what the yes names)
        let negated = ["not now", "not yet", "not today", "no", "not"]
            .iter()
            .any(|n| classify::starts_with_word(&l, n))
            || says_not_now(rest);
        if negated {
            self.adopt(&p, Some(Polarity::DontWant), Some(rest), turn);
        } else if strong
            || classify::is_deictic(rest)
            || !terms(rest).is_empty()
            || !number_tokens(rest).is_empty()
        {
            // "Do it, with the trait." qualifies the proposal; "agreed on
            // Unleash for the trial" says in its own words what it takes
            let qualifier = [
                "with ",
                "without ",
                "but ",
                "and ",
                "except ",
                "only ",
                "for ",
                "as long as ",
            ]
            .iter()
            .any(|p| l.starts_with(p));
            let note = rest.split_whitespace().count() <= 4 && qualifier;
            if rest.is_empty() || classify::is_deictic(rest) {
                self.adopt(&p, None, None, turn);
            } else if note {
                // "Do it, with the trait."
                self.adopt(&p, None, Some(rest), turn);
            } else {
                // an answer in the user's own words, about the proposal
                let d = Decision::plain(Polarity::Want, clip(rest, classify::DECISION_BYTES));
                self.decide_in_turn(d, turn);
            }
        }
    }

    /// The user's own question that `rest` answers: the course floated last
    /// when `rest` only points back ("それでお願いします" after "…に変えるの
    /// は？"), or a question naming everything `rest` names ("ok 2" after
    /// "2 replicas during migration?", "那就 30" after "maxPoolSize 30 就够了
    /// 吧？"), left open or just answered by the reply.
    fn question_answered(&self, rest: &str) -> Option<String> {
        let named_in = |q: &String| {
            let qt = terms(q);
            let qn = number_tokens(q);
            let rt = terms(rest);
            let rn = number_tokens(rest);
            q.contains(['?', '？'])
                && !(rt.is_empty() && rn.is_empty())
                && rt.iter().all(|t| qt.contains(t))
                && rn.iter().all(|n| qn.contains(n))
                && !asks_what(q)
        };
        let deictic = classify::is_deictic(rest);
        self.cur
            .open
            .last()
            .filter(|q| deictic && floats_a_course(q) || named_in(q))
            .or_else(|| {
                self.cur
                    .focus
                    .iter()
                    .find(|q| classify::is_question(q))
                    .filter(|q| !deictic && named_in(q))
            })
            .cloned()
    }

    /// The user's yes/no question in view (the newest first, then the last
    /// one left open) whose verb the first clause of `answer` says no to,
    /// and that clause ("IE11 还支持吗？" and "IE11 不支持了").
    fn question_said_no_to(&self, answer: &str) -> Option<(String, String)> {
        let no = answer.split(['，', ',', '。']).next().unwrap_or(answer);
        self.cur
            .focus
            .iter()
            .rev()
            .chain(self.cur.open.last())
            .find(|q| classify::is_question(q) && negated_verb(q, no).is_some())
            .map(|q| (q.clone(), no.to_owned()))
    }

    /// Decide the course a question of the user's asked about.
    fn decide_question(&mut self, q: &str, answer: Option<&str>, turn: &mut Turn) {
        self.cur.open.retain(|o| o != q);
        let body = q
            .trim_end_matches(['?', '？'])
            .trim_end_matches("のは")
            .trim_end_matches("怎么样")
            .trim_end_matches("如何")
            .trim_end_matches("吗");
        let mut body = classify::strip_fillers(body).trim();
        // "should we cap it at 10?": the course, not the asking
        if let Some(w) = words("user_proposal")
            .iter()
            .find(|w| w.is_ascii() && classify::starts_with_word(&body.to_lowercase(), w))
        {
            body = body[w.len()..].trim_start();
        }
        // "IE11 还支持吗？" … "IE11 不支持了": the answer says no to the
        // question's own verb
        if let Some(verb) = answer.and_then(|a| negated_verb(q, a)) {
            let mut body = body.to_owned();
            for aux in ["还要", "要不要", "还", "要", "需要"] {
                body = body.replacen(&format!("{aux}{verb}"), &verb, 1);
            }
            // ("要不要重构" → "重构": too bare to name its subject alone)
            if cjk_content_chars(&body) < 3 {
                body = format!("{body}（{}）", q.trim_end_matches(['?', '？']));
            }
            let d = Decision::plain(Polarity::DontWant, clip(&body, classify::DECISION_BYTES));
            self.decide_in_turn(d, turn);
            return;
        }
        let body = answer
            .and_then(|a| narrowed_alternatives(body, a))
            .unwrap_or_else(|| body.to_owned());
        let d = Decision::plain(Polarity::Want, clip(&body, classify::DECISION_BYTES));
        self.decide_in_turn(d, turn);
    }

    /// Make the pending proposal a decision (`polarity`: overrides its own).
    /// "nah, air blast", "这个算了": the proposal on the table is not
    /// taken; what follows the no is said in its own right. With nothing
    /// proposed, only what follows counts.
    fn reject(&mut self, rest: &str, turn: &mut Turn) {
        if let Some(p) = self.pending_proposal().filter(|p| !p.against) {
            self.adopt(&p, Some(Polarity::DontWant), None, turn);
        }
        if rest.is_empty() {
            return;
        }
        match classify::user_sentence(rest) {
            UserKind::Decisions(ds) => ds.into_iter().for_each(|d| self.decide_in_turn(d, turn)),
            UserKind::Open(q) => self.add_open(&q),
            // ("nah, b": the option it picks instead)
            UserKind::Other => self.other_statement(rest, turn),
            _ => {}
        }
    }

    fn adopt(
        &mut self,
        p: &Proposal,
        polarity: Option<Polarity>,
        note: Option<&str>,
        turn: &mut Turn,
    ) {
        let polarity = polarity.unwrap_or(if p.against {
            Polarity::DontWant
        } else {
            Polarity::Want
        });
        let mut body = p.body.clone();
        if let Some(n) = note
            .map(|n| n.trim_end_matches(['.', '。']))
            .filter(|n| !n.is_empty())
        {
            body = if body.chars().last().is_some_and(is_cjk) {
                format!("{body}（{n}）")
            } else {
                format!("{body} ({n})")
            };
        }
        let d = Decision::plain(polarity, clip(&body, classify::DECISION_BYTES));
        // "set it explicitly": the proposal's own pronoun points back too
        let ctx: Vec<String> = self
            .cur
            .focus
            .iter()
            .chain(self.cur.open.iter().rev())
            .cloned()
            .collect();
        let (d, _) = self.with_subject(d, &ctx, None, None);
        let counter = turn.counter.take();
        self.decide(&d, counter);
        turn.last_decision = self.decisions.iter().position(|x| *x == d.line());
        self.cur.direction = d.line();
    }

    /// A user statement that is neither a decision nor a question: the pick
    /// of an offered option ("b", "第二种", "pino."), a restatement of the
    /// pending proposal ("Design doc first."), the answer to a question
    /// left open ("Security came back: …"), or else a fact.
    fn other_statement(&mut self, s: &str, turn: &mut Turn) {
        // "やっぱ Colima やめよ。Podman のほうが…揃うわ": after a "don't" in
        // the same turn, what the user says is better is the new choice
        let rejected = turn
            .decided
            .iter()
            .any(|l| l.starts_with(Polarity::DontWant.prefix()));
        // ("On second thought, Memcached is enough for sessions": so after
        // a word of reconsidering)
        let reconsidering = classify::has_any(&s.to_lowercase(), words("reconsider_cues"));
        // ("Export should be CSV after all": a slot filled anew)
        let refills = reconsidering && subject::choice_slot(s).is_some();
        if (rejected || reconsidering)
            && !classify::is_question(s)
            && (classify::has_any(&s.to_lowercase(), words("preference_markers")) || refills)
        {
            // (as said, its word of reconsidering with it)
            self.decide_in_turn(whole_statement(s), turn);
            return;
        }
        // "And no retries after all": a "no" that names something on the
        // table (a decision, the working focus, a pending proposal) rules
        // it out
        if let Some(np) = classify::rules_out(s) {
            let on_table: Vec<String> = self
                .decisions
                .iter()
                .chain(self.cur.focus.iter())
                .chain(self.pending_proposal().map(|p| p.body).iter())
                .flat_map(|x| terms(x))
                .collect();
            if shared(&head_terms(&np), &on_table) > 0 {
                let mut d = Decision::plain(Polarity::DontWant, np);
                d.said = s.to_owned();
                d.verbless = true;
                self.decide_in_turn(d, turn);
                return;
            }
        }
        // "go back to Redis. ElastiCache, small instance, sliding window":
        // the phrase details the decision before it
        if let Some(i) = turn.last_decision.filter(|&i| i < self.decisions.len()) {
            let qualifier = ["だけ", "以外", "のみ", "只", "除了", "仅"]
                .iter()
                .any(|w| s.contains(w));
            let cjk_detail = s.chars().any(is_cjk)
                && s.chars().count() <= 40
                && (!quantities(s).is_empty() || qualifier)
                && !classify::is_question(s);
            // "drop the 7-day thing on debug. The on-call folks want 30 days
            // there as well.": the value that takes the removed one's place
            let kinds: Vec<&str> = quantities(&self.decisions[i].replace('-', " "))
                .iter()
                .map(|q| q.kind)
                .filter(|k| !matches!(*k, "number" | "label"))
                .collect();
            let replaces_value = !s.chars().any(is_cjk)
                && s.split_whitespace().count() <= 12
                && !classify::is_question(s)
                && quantities(s).iter().any(|q| kinds.contains(&q.kind));
            // ("现在 HTTP timeout 是 60 秒", "流失的定义目前是…": what is now
            // is no part of what was decided; kept with it, a later change
            // of that value would leave the old one binding)
            // (only its clauses that say so: "每批 2000 行，现在是 5000" keeps
            // 2000)
            let states_current = |c: &str| {
                let l = c.to_lowercase();
                (classify::has_any(&l, words("current_value_markers"))
                    || l.contains("现在") && l.contains('是'))
                    && l.contains(|c: char| c.is_ascii_digit())
            };
            let detail = if !states_current(s) {
                Some(s.trim_end_matches(['.', '。']).to_owned())
            } else {
                let kept: String = s
                    .split_inclusive(['，', '；'])
                    .filter(|c| !states_current(c))
                    .collect();
                let kept = kept.trim().trim_end_matches(['，', '；', '.', '。']);
                (!kept.is_empty()).then(|| kept.to_owned())
            };
            // (on a "don't", only what qualifies it: "no force pushes. not
            // even on feature branches.", "no uploads over 10 MB. 25 for
            // admins."; not "scrap cordon-all. … cordon per batch.", what
            // is done instead, nor "no redis. too much ops overhead", a
            // reason: neither is a part of the don't)
            let qualifies = {
                let l = s.trim_start().to_lowercase();
                l.starts_with(|c: char| c.is_ascii_digit())
                    || ["not", "especially", "even", "never", "no"]
                        .iter()
                        .chain(words("conditions"))
                        .any(|w| {
                            classify::starts_with_word(&l, w) || !w.is_ascii() && l.contains(w)
                        })
            };
            let on_a_do = self.decisions[i].starts_with(Polarity::Want.prefix());
            let instead = !on_a_do && !qualifies;
            if (classify::is_fragment(s) || cjk_detail || replaces_value)
                && turn.prev_sentence.is_some()
                && !instead
            {
                if let Some(detail) = detail {
                    let line = &mut self.decisions[i];
                    line.push_str("; ");
                    line.push_str(&detail);
                    return;
                }
            }
        }
        // "token 要缓存吗？" … "不缓存，安全那边不同意": a no to the verb the
        // user's own yes/no question asked about
        if let Some((q, no)) = self.question_said_no_to(s) {
            self.decide_question(&q, Some(&no), turn);
            return;
        }
        // "那就 5 分钟" after "告警加个持续时间吧，5 分钟？"
        let short = classify::strip_fillers(s).chars().count() <= 16 && !classify::is_question(s);
        if short {
            let rest = classify::strip_fillers(s).trim_end_matches(['.', '。', '!', '！']);
            if let Some(q) = self.question_answered(rest) {
                self.decide_question(&q, Some(rest), turn);
                return;
            }
        }
        if let Some(d) = self.pick(s) {
            self.decide_in_turn(d, turn);
            return;
        }
        if let Some(p) = self.pending_proposal() {
            let st = terms(s);
            let pt = terms(&p.body);
            let covered = shared(&st, &pt);
            // ("那就 400 天" after "建议 400 天": the value it names is the
            // proposal's)
            let values = number_tokens(s);
            // (not "400 天太长了", "5 is too many": a value objected to)
            let objects = classify::has_any(&s.to_lowercase(), words("value_rejections"))
                || ["扛不住", "不行", "overkill"].iter().any(|w| s.contains(w));
            let same_value = !values.is_empty()
                && !objects
                && !s.chars().any(is_kana)
                && classify::strip_fillers(s).chars().count() <= 16
                && values.iter().all(|v| number_tokens(&p.body).contains(v));
            if (!st.is_empty() && covered * 10 >= st.len() * 6 || same_value)
                && !classify::is_question(s)
            {
                self.adopt(&p, None, None, turn);
                return;
            }
        }
        if turn.answers && !classify::is_question(s) {
            let st = named_terms(s);
            let cue = classify::has_any(&s.to_lowercase(), words("answer_cues"));
            let asked = self
                .cur
                .open
                .iter()
                .find(|q| shared(&terms(q), &st) > 0)
                .cloned();
            if cue && turn.answered.is_none() {
                if let Some(q) = asked {
                    // "承認者の件、決めました。": what follows is the answer
                    turn.answered = Some(q);
                    if st.len() <= 3 || s.chars().count() <= 30 {
                        return;
                    }
                }
            }
            let answered = turn.answered.clone();
            let reports = turn.decides; // the decision follows in the turn
            if !reports
                && (answered.is_some() || self.cur.open.iter().any(|q| shared(&terms(q), &st) > 0))
            {
                let body = classify::strip_fillers(s).trim_end_matches(['.', '。']);
                let d = Decision::plain(Polarity::Want, clip(body, classify::DECISION_BYTES));
                self.decide(&d, None);
                turn.last_decision = self.decisions.iter().position(|x| *x == d.line());
                return;
            }
        }
        // "Which region?" … "eu-west-1 is cheapest." … "eu-central-1, for
        // data residency.": a phrase that opens the user's next turn, right
        // after the reply to their own "which/who/what" question, answers it
        // ("queue?", "upload cap?": a bare noun asked about asks which)
        let noun_question = |q: &str| {
            q.split_whitespace().count() <= 4
                && classify::is_fragment(q.trim_end_matches(['?', '？']))
        };
        let asked = self
            .cur
            .focus
            .last()
            .filter(|q| {
                classify::is_question(q)
                    && (asks_what(q) && asks_for_a_choice(q)
                        || noun_question(q)
                        || q.to_lowercase().contains(" or "))
            })
            .cloned();
        // "Email or in-app?" … "Both, actually — email for billing…": both
        // or neither of the alternatives; "Who reviews security PRs?" …
        // "Sam's the reviewer for anything touching auth": the person the
        // reply named
        let first = s
            .split(|c: char| c.is_whitespace() || ",.;:—".contains(c))
            .next()
            .unwrap_or("");
        let alternatives = asked
            .iter()
            .chain(self.cur.open.last())
            .find(|q| {
                let l = q.to_lowercase();
                classify::is_question(q)
                    && (l.contains(" or ")
                        || ["どっち", "どちら", "还是"].iter().any(|w| l.contains(w)))
            })
            .cloned();
        let picks_all = alternatives.is_some()
            && (["both", "neither"].contains(&first.to_lowercase().as_str())
                || ["両方", "どっちも", "どちらも", "两个都", "两种都", "都要"]
                    .iter()
                    .any(|w| s.starts_with(w)));
        let asked = if picks_all { alternatives } else { asked };
        let person = first.trim_end_matches("'s").to_lowercase();
        let names_who = asked
            .as_ref()
            .is_some_and(|q| q.to_lowercase().starts_with("who "))
            && first.starts_with(|c: char| c.is_ascii_uppercase())
            && self
                .cur
                .focus
                .iter()
                .chain(std::iter::once(&self.cur.direction))
                .any(|f| {
                    f.split(|c: char| !c.is_alphanumeric())
                        .any(|w| w.to_lowercase() == person)
                })
            && !words("pronouns").contains(&person.as_str());
        // ("pnpm" after "pkg mgr?" … "pnpm faster": a word or two the reply
        // named)
        let reply: Vec<String> = self
            .cur
            .focus
            .iter()
            .filter(|f| !classify::is_question(f))
            .chain(std::iter::once(&self.cur.direction))
            .flat_map(|f| terms(f))
            .collect();
        // (of "Drizzle，bundle size 小", "Redis, no doubt", the first clause)
        let head = s.split(['，', ',', '。']).next().unwrap_or(s);
        let st = terms(head);
        let named = head.split_whitespace().count() <= 3
            && !st.is_empty()
            && st.iter().all(|t| reply.contains(t));
        // ("eu-central-1，数据合规要求": in CJK text, a first clause that is
        // the value alone)
        let cjk_value_first = s.chars().any(is_cjk)
            && s.split(['，', ',', '。'])
                .next()
                .is_some_and(|c| !c.trim().is_empty() && !c.chars().any(is_cjk));
        // (a report is no answer: "Dana left in 2023", "postgres 16 not on
        // RDS yet", "Prisma，上次踩过坑", "eu-west-1，不过合规可能不让")
        // (of the clause with the name: "us-east-1, we never had issues
        // there" gives its reason; a value objected to, "400 天有点长", or
        // both judged, "Both are bad", is no pick)
        let named_clause = s.split([',', '，', ';', '；']).next().unwrap_or(s);
        let l = s.to_lowercase();
        let reports = says_not_or_was(named_clause)
            || classify::has_any(&l, words("value_rejections"))
            || classify::has_any(&l, &["bad", "worse", "terrible", "awful", "wrong"])
            || s.chars().any(is_cjk)
                && s.split_once(['，', ',']).is_some_and(|(_, rest)| {
                    let rest = rest.trim();
                    ["不过", "但", "可能", "我没", "没用", "上次"]
                        .iter()
                        .any(|w| rest.starts_with(w))
                        || ["坑", "不让", "不行", "再看", "再说"]
                            .iter()
                            .any(|w| rest.contains(w))
                });
        if let Some(q) = asked.filter(|_| {
            turn.prev_sentence.is_none()
                && turn.decided.is_empty()
                && !reports
                // (nor a question of the user's own: "the 17 timeouts, what
                // are they")
                && !classify::is_question(s)
                && !s.split([',', '，']).any(|c| asks_what(c.trim()))
                && (classify::is_fragment(s)
                    || classify::is_fragment(head)
                    || cjk_value_first
                    || picks_all)
                && s.split_whitespace().count() <= if picks_all || names_who { 12 } else { 8 }
                // (a value or a name of a thing, not "nothing obvious in
                // that range")
                && (head.chars().any(|c| c.is_ascii_digit())
                    || !subject::identifiers(head).is_empty()
                    || named
                    || picks_all
                    || names_who)
        }) {
            let body = classify::strip_fillers(s).trim_end_matches(['.', '。']);
            let d = Decision::plain(Polarity::Want, answer_to(&q, body));
            self.decide_in_turn(d, turn);
            return;
        }
        // "Who owns the runbooks? Not sure yet." … "Runbooks go to the SRE
        // team.": a short statement about what a who/which question left
        // open asked, naming someone or something new, answers it
        let new_name = |q: &str| {
            let qt = terms(q);
            s.split_whitespace()
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
                .any(|w| {
                    let acronym = w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase());
                    (acronym || w.chars().any(|c| c.is_ascii_digit()))
                        && !qt.contains(&w.to_lowercase())
                })
        };
        let open_asked = self
            .cur
            .open
            .iter()
            .find(|q| {
                classify::is_question(q)
                    && asks_what(q)
                    && shared(&head_terms(q), &terms(s)) > 0
                    && new_name(q)
            })
            .cloned();
        if let Some(q) = open_asked.filter(|_| {
            !s.chars().any(is_cjk)
                && classify::is_fragment(s)
                && !says_not_or_was(s)
                && !classify::is_question(s)
                && s.split_whitespace().count() <= 12
        }) {
            self.cur.open.retain(|o| *o != q);
            let body = classify::strip_fillers(s).trim_end_matches(['.', '。']);
            let d = Decision::plain(Polarity::Want, clip(body, classify::DECISION_BYTES));
            self.decide_in_turn(d, turn);
            return;
        }
        // "rotating pool-a today. 12 nodes n2-standard-8, 1.28.9-gke.…",
        // "sessions too? 31GB, ~70% dead": values said after the short
        // sentence that named what they are of keep that name
        let subject = turn
            .prev_sentence
            .as_deref()
            .map(|p| classify::strip_fillers(p).trim_end_matches(['.', '?', '。', '？', '!', '！']))
            .filter(|p| {
                // (a name, not chatter: "back from lunch", "I'm on mobile")
                !subject::identifiers(p).is_empty()
                    && p.chars().count() <= 48
                    && shared(&terms(p), &terms(s)) == 0
            });
        match subject {
            Some(p) if classify::strip_fillers(s).starts_with(|c: char| c.is_ascii_digit()) => {
                // (the name, kept as a fact of its own, is said again)
                let said = turn.prev_sentence.as_deref().unwrap_or_default();
                self.cur.facts.retain(|f| f != said);
                self.add_fact(&format!("{p}: {s}"), false)
            }
            _ => self.add_fact(s, false),
        }
    }

    /// A short statement that names one of the options the last turn (or a
    /// question left open) offered: its label ("b", "option 2", "第二种") or
    /// its only content word ("pino.", "soft", "那就 otter").
    fn pick(&self, s: &str) -> Option<Decision> {
        let whole = classify::strip_fillers(s)
            .trim_end_matches(['.', '。', '!', '！'])
            .trim();
        // "usb brick, i'm not soldering a hlk module next to 120V": a short
        // first clause names the pick, the rest is its reason (not "usb
        // brick and the relay", "usb brick, or a battery": more to choose)
        let first = whole
            .split_once([',', '，'])
            .filter(|(head, rest)| {
                let rest = rest.trim_start().to_lowercase();
                // ("3 makes the most sense, it's free": a head that opens
                // with an option's label may say more about it)
                let words = head.split_whitespace().count();
                (words <= 4 || words <= 6 && option_label(head).is_some())
                    && ![
                        "and ", "or ", "but ", "plus ", "also ", "和", "以及", "还有", "或者", "但",
                    ]
                    .iter()
                    .any(|w| rest.starts_with(w))
            })
            .map(|(head, _)| head.trim());
        let body = match first {
            Some(head) if whole.split_whitespace().count() > 6 || whole.chars().count() > 40 => {
                head
            }
            _ => whole,
        };
        let short = body.split_whitespace().count() <= 6 && body.chars().count() <= 40;
        if !short || body.is_empty() || classify::is_question(s) {
            return None;
        }
        // "保守できる人がいません": a statement with its own verb says
        // something about an option, it does not pick it
        if body.chars().any(is_kana)
            && ["ます", "ません", "です", "でした", "ました", "た"]
                .iter()
                .any(|e| body.ends_with(e))
        {
            return None;
        }
        let label = option_label(body);
        let bt = terms(body);
        let direction = [self.cur.direction.clone()];
        let options = self
            .cur
            .focus
            .iter()
            .chain(self.cur.open.iter())
            .chain(direction.iter());
        let chosen = option_refs(body, &self.cur.focus).into_iter().next();
        // a word of a choice offered: an option, or a question that names
        // alternatives ("pino or winston?", "otter 和 ristretto 哪个好？")
        let is_choice = |o: &String| {
            option_label_of_item(o).is_some()
                || o.contains(" or ")
                || classify::is_question(o)
                    && ["还是", "哪个", "か、", "和"].iter().any(|w| o.contains(w))
        };
        let chosen = chosen.or_else(|| {
            (!bt.is_empty() && bt.len() <= 2)
                .then(|| {
                    options.clone().filter(|o| is_choice(o)).find(|o| {
                        // "prod" picks "only production"
                        let ot = terms(o);
                        bt.iter().all(|t| {
                            ot.contains(t)
                                || t.len() >= 4
                                    && t.is_ascii()
                                    && ot.iter().any(|x| x.starts_with(t.as_str()))
                        })
                    })
                })
                .flatten()
        })?;
        // the question the pick answers names its subject better than the
        // list of alternatives
        let asked = self
            .cur
            .focus
            .iter()
            .chain(self.cur.open.iter())
            .find(|o| *o != chosen && classify::is_question(o) && !o.contains(" or "));
        let subject = subject_phrase(asked.unwrap_or(chosen));
        let line = if label.is_some() {
            let text = chosen.split_once(") ").map_or(chosen.as_str(), |x| x.1);
            format!("{body} ({})", clip(text, SUBJECT_BYTES))
        } else if body.contains(&subject) || subject.is_empty() {
            body.to_owned()
        } else {
            format!("{body} ({})", clip(&subject, SUBJECT_BYTES))
        };
        Some(Decision::plain(
            Polarity::Want,
            clip(&line, classify::DECISION_BYTES),
        ))
    }

    /// "那 iOS 等审核过了再说，安卓先发", "park the rollout, but ship the
    /// fix": one clause puts something off and another decides; each is
    /// what it is. A sentence that is one deferral is put off whole.
    fn defer_or_split(&mut self, s: &str, turn: &mut Turn) {
        let parts: Vec<&str> = s
            .split_inclusive(['，', '；', ';'])
            .flat_map(|p| p.split_inclusive(", "))
            .map(|p| p.trim().trim_end_matches(['，', '；', ';', ',']).trim())
            .filter(|p| !p.is_empty())
            .collect();
        // ("eval 用 accuracy 还是 macro-F1，我有点拿不准，先不定": a clause
        // the next one says the user is unsure of decides nothing)
        let unsure = |k: usize| {
            parts.get(k + 1).is_some_and(|n| {
                let l = n.to_lowercase();
                classify::has_any(&l, words("pending")) && !classify::is_deferral(n)
            })
        };
        let decided: Vec<Vec<Decision>> = parts
            .iter()
            .enumerate()
            .map(|(k, p)| match classify::user_sentence(p) {
                UserKind::Decisions(ds) if !classify::is_deferral(p) && !unsure(k) => ds,
                _ => Vec::new(),
            })
            .collect();
        // only a deferral that names what it puts off, and a "do" about
        // something else ("社交的合并先不做，…等他们定了再说" is one thought:
        // not now, and why; "上线时间等 SRE 排期，暂时待定" too)
        let own = |p: &str| -> Vec<String> {
            // the clause without its words of waiting: what is left names
            // what waits
            let mut rest = p.to_lowercase();
            for list in [
                "deferrals",
                "pending",
                "temporary_markers",
                "deferral_verbs",
                "deferral_times",
            ] {
                for w in words(list) {
                    if !w.is_ascii() || classify::has(&rest, w) {
                        rest = rest.replace(w, " ");
                    }
                }
            }
            terms(&rest)
        };
        let deferred: Vec<String> = parts
            .iter()
            .filter(|p| classify::is_deferral(p))
            .flat_map(|p| own(p))
            .collect();
        let apart = decided.iter().zip(&parts).all(|(ds, p)| {
            ds.is_empty()
                || ds.iter().all(|d| d.polarity == Polarity::Want)
                    && shared(&terms(p), &deferred) == 0
        });
        let defers = !deferred.is_empty() && apart;
        if parts.len() < 2 || !defers || decided.iter().all(Vec::is_empty) {
            self.defer(s, turn);
            return;
        }
        for (p, ds) in parts.iter().zip(decided) {
            if classify::is_deferral(p) {
                self.defer(p, turn);
            } else {
                for d in ds {
                    self.decide_in_turn(d, turn);
                }
            }
            turn.prev_sentence = Some((*p).to_owned());
        }
    }

    /// A decision put off: what it puts off becomes an open question, and
    /// nothing is decided.
    fn defer(&mut self, s: &str, turn: &mut Turn) {
        // "90 日の話はいったん保留で" after "90 日に延ばしてください": the
        // decision that set the value is put back on hold
        let values: Vec<&str> = quantities(s)
            .iter()
            .filter(|q| !matches!(q.kind, "number" | "label"))
            .map(|q| &s[q.start..q.end])
            .collect();
        if let Some(i) = self.decisions.iter().rposition(|d| {
            d.starts_with(Polarity::Want.prefix())
                && values
                    .iter()
                    .any(|v| contains_value(polarity_and_body(d).1, v))
        }) {
            let old = self.decisions.remove(i);
            let held = format!("{} {s}", polarity_and_body(&old).1);
            self.add_open(&held);
            turn.opened.push(held);
            return;
        }
        let own: Vec<String> = terms(s)
            .into_iter()
            .filter(|t| {
                !classify::has_any(t, words("deferral_verbs"))
                    && !classify::has_any(t, words("deferral_times"))
            })
            .collect();
        let l = s.to_lowercase();
        // ("The weekend thing — let's decide that later": "that" is the
        // label before the dash, which names what waits)
        // (or a short lead before a comma: "As for the speeches, let us
        // return to that once …", "The menu, let's decide that later")
        let names = |label: &str| {
            label.split_whitespace().count() <= 4
                && !terms(label).is_empty()
                && !classify::is_deferral(label)
                && !label.contains(['.', '?', '!'])
        };
        let labelled = classify::leading_label(&l).is_some_and(|(label, _)| names(label))
            || l.split_once(", ").is_some_and(|(label, _)| names(label));
        let deictic = !labelled
            && (l
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| ["that", "it", "this", "those", "them"].contains(&w))
                || words("cjk_pronouns").iter().any(|p| s.contains(p)));
        // "Want that?" … "later": what it puts off is the offer
        if own.is_empty() && turn.prev_sentence.is_none() {
            if let Some(p) = self.pending_proposal() {
                self.cur.direction.clear();
                self.add_open(&p.body);
                turn.opened.push(p.body);
                return;
            }
        }
        // "Do we re-render the historical invoices, or keep the originals?"
        // … "no idea, that's Ines's call. decide later": what waits is the
        // question the reply asked, when the turn asks nothing of its own
        // (a focus item is clipped: "…, or keep the…" was a question)
        let asked = self
            .cur
            .focus
            .iter()
            .find(|f| {
                classify::is_question(f)
                    || f.strip_suffix('…').is_some_and(|t| {
                        classify::is_question(&format!("{t}?")) && asks_or_offers(t)
                    })
            })
            .cloned();
        let asks_own = classify::has_any(&s.to_lowercase(), words("question_words"));
        let own_question = asks_own
            || turn.opened.iter().any(|o| classify::is_question(o))
            || turn
                .prev_sentence
                .as_deref()
                .is_some_and(classify::is_question);
        if let Some(q) = asked.filter(|_| !own_question && turn.decided.is_empty()) {
            let q = q.trim_end_matches('…').to_owned();
            if !self
                .cur
                .open
                .iter()
                .any(|o| o.starts_with(&clip(&q, OPEN_BYTES / 2)))
            {
                let joined = format!("{q} {s}");
                self.add_open(&joined);
                turn.opened.push(joined);
            }
            return;
        }
        match &turn.prev_sentence {
            Some(prev) if own.len() <= 1 || deictic && own.len() <= 3 => {
                if self.cur.open.iter().any(|q| q == prev) {
                    return; // already open
                }
                let prev = prev.clone();
                self.add_open(&prev);
                turn.opened.push(prev);
            }
            // "log-ingest 的实例数要不要一直保持 12 个？成本上去了，下周看看
            // 数据再定。": the question and why it waits are one item
            // (not "…再说。还有节假日怎么排、加班费怎么算，…这个先挂着": a
            // deferral asking its own question is an item of its own)
            _ if turn.opened.last().is_some_and(|o| classify::is_question(o)) && !asks_own => {
                let last = turn.opened.pop().expect("checked");
                self.cur.open.retain(|o| *o != clip(&last, OPEN_BYTES));
                let joined = format!("{last} {s}");
                self.add_open(&joined);
                turn.opened.push(joined);
            }
            // "それは来週…相談してから決めます" in a turn of its own: "that" is
            // the question the discussion was last asked
            None if deictic
                && self
                    .cur
                    .open
                    .last()
                    .is_some_and(|o| o.contains(['?', '？'])) =>
            {
                let last = self.cur.open.pop().expect("checked");
                let joined = format!("{last} {s}");
                self.add_open(&joined);
                turn.opened.push(joined);
            }
            _ if own.len() >= 2 || !own.is_empty() && !deictic => {
                self.add_open(s);
                turn.opened.push(s.to_owned());
            }
            _ => {}
        }
    }

    /// An open question replaces an older one on the same subject.
    fn add_open(&mut self, q: &str) {
        let q = clip(q, OPEN_BYTES);
        let qt = terms(&q);
        // (a choice put off stays open through a question about it: "モニタ
        // ーは来月決める" … "もし来月のモニター4Kにしたら4070で足りる？" asks
        // for an answer now, it does not take the place of the choice)
        let waits = classify::is_deferral(&q);
        self.cur.open.retain(|old| {
            *old != q
                && (qt.is_empty()
                    || shared(&terms(old), &qt) * 2 < qt.len().max(1)
                    || !waits && classify::is_deferral(old) && classify::is_question(&q))
        });
        self.cur.open.push(q);
        if self.cur.open.len() > MAX_OPEN {
            // the oldest question gives way, before a choice put off: a
            // question is most often answered by the next reply, what waits
            // on next month or on someone stays open until it is settled
            let last = self.cur.open.len() - 1;
            let i = (0..last)
                .find(|&i| !classify::is_deferral(&self.cur.open[i]))
                .unwrap_or(0);
            self.cur.open.remove(i);
        }
    }

    /// The turn that opens a conversation briefs: "need to upgrade pg 14 ->
    /// 16 on orders db", "我们要把用户画像库从 MongoDB 4.4 迁到 PostgreSQL 16",
    /// "Next.js のアプリに i18n 入れたい", "请先就日期和场地给出建议" say what the
    /// work is or what there is, not a course weighed and taken; they are
    /// facts of the discussion. What it orders or rules out ("Never
    /// force-push to main", "keep the API backwards compatible") stays
    /// decided.
    fn brief_not_decisions(&mut self) {
        for d in std::mem::take(&mut self.decisions) {
            let (polarity, body) = polarity_and_body(&d);
            if polarity == Polarity::DontWant {
                self.decisions.push(d);
                continue;
            }
            // ("I need you to fix the login test; Keep the fixtures as they
            // are": each part of a line on its own)
            let (work, kept): (Vec<&str>, Vec<&str>) =
                body.split("; ").partition(|part| states_the_work(part));
            for part in &work {
                self.add_fact(part, false);
            }
            if !kept.is_empty() {
                self.decisions
                    .push(format!("{}{}", polarity.prefix(), kept.join("; ")));
            }
        }
    }

    /// Keep a fact if it scores (or `force`, for the request that opens a
    /// discussion, kept only until a real fact arrives); the size budget
    /// decides later how many stay. A fact that only repeats decided
    /// values, or whose values and identifiers all sit in facts already
    /// kept, is not added.
    fn add_fact(&mut self, s: &str, force: bool) {
        // "各实例的处理速度：", "Results:": what it announces follows it
        if !force && (s.ends_with(':') || s.ends_with('：')) {
            return;
        }
        // (a CJK character takes three bytes: the same room in characters)
        let max = if s.chars().any(is_cjk) {
            FACT_BYTES * 4 / 3
        } else {
            FACT_BYTES
        };
        let s = facts::fact_text(s, max);
        let scored = facts::score(&s) >= FACT_MIN;
        if self.cur.facts.contains(&s) || !force && !scored {
            return;
        }
        if !force && facts::adds_nothing(&s, &self.cur.facts) {
            return;
        }
        if scored {
            self.cur.facts.retain(|f| facts::score(f) >= FACT_MIN);
        }
        // the rows of one table, the runs of one series: a few of them say
        // what the others say; keep the strongest
        let st: Vec<String> = terms(&s);
        let similar: Vec<usize> = (0..self.cur.facts.len())
            .filter(|&i| {
                let ft = terms(&self.cur.facts[i]);
                let common = shared(&st, &ft);
                common >= 3 && common * 10 >= st.len().min(ft.len()) * 6
            })
            .collect();
        // a fact naming its own identifier (a commit, a version, a path)
        // is no mere row of a series
        let anchored = facts::has_anchor(&s);
        if similar.len() >= SAME_SHAPE && !anchored {
            let weakest = *similar
                .iter()
                .min_by_key(|&&i| (facts::score(&self.cur.facts[i]), i))
                .expect("not empty");
            if facts::score(&s) <= facts::score(&self.cur.facts[weakest]) {
                return;
            }
            self.cur.facts.remove(weakest);
        }
        // (not a world that may come, nor what someone else believes:
        // "Suppose we grow to 200 seats", "如果明年扩到 50 人")
        if self.reading_user && !facts::supposes(&s) {
            self.cur.told.push(s.clone());
        }
        self.cur.facts.push(s);
        while self.cur.facts.len() > MAX_FACTS {
            let weakest = self.weakest_fact();
            self.cur.facts.remove(weakest);
        }
    }

    /// The fact to drop first: the lowest score per character, less when it
    /// only repeats decided values; among equals the oldest.
    fn weakest_fact(&self) -> usize {
        let decided = self.decisions.join("\n");
        let is_told = |f: &str| self.cur.told.iter().any(|t| t == f);
        let told_count = self.cur.facts.iter().filter(|f| is_told(f)).count();
        let bonus = told_bonus(told_count, self.cur.facts.len());
        // worth per character: a fact costs the budget its length, so of
        // two facts of one score the shorter is kept
        let worth = |f: &str| {
            let nums = number_tokens(f);
            let repeats = !nums.is_empty() && nums.iter().all(|n| contains_value(&decided, n));
            let told = if is_told(f) { bonus } else { 0 };
            let score = (facts::score(f) + told).saturating_sub(if repeats { 2 } else { 0 });
            score as usize * 1000 / (f.chars().count() + 40)
        };
        (0..self.cur.facts.len())
            .min_by_key(|&i| (worth(&self.cur.facts[i]), std::cmp::Reverse(i)))
            .expect("not empty")
    }

    /// A reply: its proposal (or else its first status line, or its first
    /// real sentence) becomes the direction; its options, questions and
    /// identifiers the focus; its facts go to the description, as do
    /// one-line commands it shows.
    /// `replying_to`: the places of the decisions the user's turn just
    /// made, when this record is the reply to it.
    fn assistant(&mut self, sents: &[Sentence], text: &str, replying_to: Option<&[usize]>) {
        if self.cur.topic.is_empty() {
            return; // a reply before any question: nothing to attach it to
        }
        self.confirmed_changes(sents);
        if let Some(decided) = replying_to {
            self.recapped(sents, decided);
        }
        // a question asking for information ("is ECDSA ok for them?", "rca:
        // check other gp2 volumes?") is answered by a reply about it
        let reply = terms(text);
        // "Does Transfer Family support PGP?" … "Yes, through …": a reply
        // opening with yes or no answers the last question that asked
        // whether something is so
        let yes_no = {
            let l = text.trim_start().to_lowercase();
            ["yes", "no", "yes,", "no,"]
                .iter()
                .any(|w| l.split_whitespace().next() == Some(*w))
                || [
                    "はい、",
                    "いいえ、",
                    "是的",
                    "可以，",
                    "不行",
                    "できます",
                    "できません",
                ]
                .iter()
                .any(|w| l.starts_with(w))
        };
        if yes_no {
            if let Some(i) = self.cur.open.iter().rposition(|q| {
                let l = q.to_lowercase();
                classify::is_question(q)
                    && !asks_what(q)
                    && !classify::has_any(&l, words("deciding"))
                    && !classify::has_any(&l, words("strong_deciding"))
                    && !l.contains(" or ")
            }) {
                self.cur.open.remove(i);
            }
        }
        // "sqlite 会不会太玩具了…？" … "不会，放心": a Chinese question asked
        // as "A 不 A" is answered by a reply opening with A or 不 A
        if let Some(i) = self.cur.open.iter().rposition(|q| answers_a_not_a(q, text)) {
            self.cur.open.remove(i);
        }
        // "好，外包那条先挂着": a reply that puts it off answers nothing
        let reply_defers = sents.iter().any(|s| classify::is_deferral(&s.text));
        self.cur.open.retain(|q| {
            let l = q.to_lowercase();
            let deciding = reply_defers
                || classify::has_any(&l, words("deciding"))
                || classify::has_any(&l, words("strong_deciding"))
                || l.contains(" or ")
                || l.contains("还是")
                || classify::is_deferral(q)
                || classify::has_any(&l, words("pending"))
                || classify::has_any(&l, words("uncertain"));
            deciding || shared(&terms(q), &reply) * 2 < terms(q).len().max(2)
        });
        // "Still open: dismissed-flag retention (waiting on Marcus)", "未決：
        // 速報に消化率を載せるか", a list under "Open questions": what the
        // reply itself lists as not decided is open
        // (two at most, and never in place of the questions open already:
        // a long list is the reply's agenda, not the user's)
        for item in sents
            .iter()
            .filter(|s| !s.tool_call)
            .filter_map(open_item)
            .take(2)
        {
            if self.cur.open.len() < MAX_OPEN {
                self.add_open(&item);
            }
        }
        let options = options_in(text);
        // "保存先はどこがいいですか？" … "私は 2 をおすすめします": what the
        // user asked names the subject of the answer
        let user_asked = self
            .cur
            .focus
            .first()
            .filter(|f| classify::is_question(f) && asks_what(f))
            .map(|f| f.trim_end_matches('…').to_owned());
        let mut proposal: Option<(Proposal, Option<String>)> = None;
        for (i, s) in sents.iter().enumerate() {
            let Some(mut p) = classify::proposal_of(&s.text) else {
                continue;
            };
            let mut basis = None;
            let unnamed =
                |q: &str, body: &str| shared(&terms(q), &terms(body)) * 2 < terms(q).len();
            if p.deictic {
                let label = option_label(&p.body);
                // the option it names, else the last action said before it
                // ("put pgbouncer in front of db-primary. It would … I would
                // not do it now"), else the sentence before
                let action = sents[..i]
                    .iter()
                    .rev()
                    .take(3)
                    .find(|x| !classify::decisions_in(&x.text).is_empty())
                    .map(|x| {
                        let d = &classify::decisions_in(&x.text)[0];
                        d.said.clone()
                    });
                // …else the question the user asked ("Should we move the
                // index?" … "I would not do it before the freeze")
                let asked = self.cur.open.last().map(|q| {
                    let q = q.trim_end_matches(['?', '？']);
                    let l = q.to_lowercase();
                    ["should we ", "shall we ", "do we ", "can we ", "should i "]
                        .iter()
                        .find_map(|p| l.find(p).map(|i| q[i + p.len()..].to_owned()))
                        .or_else(|| {
                            (l.contains(" or ") || q.contains("还是") || q.contains("か、"))
                                .then(|| q.to_owned())
                        })
                });
                // ("Can PagerDuty fix that?" … "A secondary layer would …
                // I'd add it": only a question about a course of ours, or
                // a choice between courses, is what "it" is; else the
                // sentence before)
                let asked = asked.flatten();
                // ("I can add interface endpoints … That should cut $3,500.
                // Go?": the offer made earlier in the reply)
                let offered = sents[..i].iter().rev().take(3).find_map(|x| {
                    classify::proposal_of(&x.text)
                        .filter(|x| !x.deictic)
                        .map(|x| x.body)
                        .or_else(|| {
                            // "I can add …": an offer only when a
                            // question asks for the go-ahead
                            let l = x.text.to_lowercase();
                            ["i can ", "i could ", "we can ", "we could "]
                                .iter()
                                .find(|p| l.starts_with(*p))
                                .map(|p| x.text[p.len()..].trim_end_matches('.').to_owned())
                        })
                });
                // ("One more thing on min-replicas-to-write 1: … Keep it at
                // 1?": the setting the reply gave the value it offers)
                let latin = !p.body.chars().any(is_cjk);
                let valued = number_tokens(&p.body)
                    .first()
                    .filter(|_| latin)
                    .and_then(|n| {
                        sents[..i].iter().rev().find_map(|x| {
                            let at = value_at(&x.text, n)?;
                            subject_before(&x.text, at)
                                .map(|subj| subj.replace("**", "").trim().to_owned())
                                .filter(|subj| !terms(subj).is_empty())
                        })
                    });
                if let Some(subj) = valued.filter(|_| label.is_none()) {
                    p.body = clip(
                        &with_trailing_subject(p.body.trim_end_matches(['?', '？']), &subj),
                        classify::DECISION_BYTES,
                    );
                    proposal = Some((p, basis));
                    continue;
                }
                let resolved = label
                    .and_then(|l| {
                        options
                            .iter()
                            .find(|o| option_label_of_item(o) == Some(l.clone()))
                    })
                    .map(|o| o.split_once(") ").map_or(o.clone(), |x| x.1.to_owned()))
                    .or(offered)
                    .or(action)
                    .or(asked)
                    .or_else(|| (i > 0).then(|| sents[i - 1].text.clone()));
                match resolved {
                    // "Who should own the runbooks? I'd keep them in the
                    // wiki": "them" is what the question asks about, the
                    // proposal's own words are the answer
                    Some(r) if classify::is_question(&r) && classify::proposal_of(&r).is_none() => {
                        p.body = answer_to(&r, &p.body);
                    }
                    Some(r) => {
                        let body = classify::proposal(&r).unwrap_or_else(|| r.clone());
                        p.body = clip(body.trim_end_matches(['.', '。']), classify::DECISION_BYTES);
                    }
                    // ("I think we should keep it alive for two more
                    // weeks": what it points at is the user's; the rest
                    // still says what is proposed)
                    None if terms(&p.body).len() > 2 => {}
                    None => continue,
                }
            } else if let Some(o) = named_option(&p.body, &options) {
                // "Immutable にできるので 2 が安全だと思います", "I'd take B":
                // the option it names is what it proposes
                p.body = clip(
                    o.split_once(") ").map_or(o.as_str(), |x| x.1),
                    classify::DECISION_BYTES,
                );
            } else if let Some(q) = (i > 0)
                .then(|| sents[i - 1].text.as_str())
                .filter(|q| classify::is_question(q) && classify::proposal_of(q).is_none())
                .filter(|q| unnamed(q, &p.body))
            {
                // "事件字典谁来维护？我建议放在一个 Git 仓库里": the proposal
                // answers the question before it, which names its subject
                p.body = answer_to(q, &p.body);
            } else if needs_subject(&p.body) && i > 0 {
                basis = Some(sents[i - 1].text.clone());
            }
            let in_turn = i > 0 && classify::is_question(&sents[i - 1].text);
            if let Some(q) = user_asked
                .as_deref()
                .filter(|q| !in_turn && unnamed(q, &p.body))
            {
                p.body = answer_to(q, &p.body);
            }
            proposal = Some((p, basis));
        }
        let plain: Vec<&str> = sents
            .iter()
            .map(|s| s.text.as_str())
            .filter(|t| classify::proposal_of(t).is_none() && !classify::is_question(t))
            .collect();
        let status = plain.iter().find(|t| facts::is_status(t)).copied();
        let first = plain.iter().find(|t| t.chars().count() >= 20).copied();
        let direction = match (&proposal, status.or(first)) {
            (Some((p, _)), _) => {
                format!(
                    "{}{}",
                    if p.against { ADVISED_AGAINST } else { PROPOSED },
                    p.body
                )
            }
            (None, Some(s)) => clip(s, DIRECTION_BYTES),
            (None, None) => String::new(),
        };
        // The line it replaces was a fact too (a status such as "committed
        // as 9c1e4f2"): kept out of the description while it was the
        // direction, so that it is not said twice.
        if !direction.is_empty() {
            let old = std::mem::replace(&mut self.cur.direction, direction);
            let pending = old.starts_with(PROPOSED) || old.starts_with(ADVISED_AGAINST);
            if !pending && old != self.cur.direction {
                self.add_fact(&old, false);
            }
        }
        // what the next user turn may point at: its question, the sentence
        // its proposal rests on, its options, the end of the reply (a
        // pronoun points at what was said last), its first line
        let mut focus: Vec<String> = Vec::new();
        // (an option's own sentence is in view as the option, with its label)
        let an_option = |t: &str| {
            options
                .iter()
                .any(|o| o.split_once(") ").is_some_and(|(_, text)| text == t))
        };
        let tail: Vec<&str> = sents
            .iter()
            .rev()
            .map(|s| s.text.as_str())
            .filter(|t| {
                classify::proposal_of(t).is_none() && !classify::is_question(t) && !an_option(t)
            })
            .take(2)
            .collect();
        for t in &tail {
            focus.push(clip(t, FOCUS_BYTES));
        }
        if let Some(q) = sents.iter().rev().find(|s| classify::is_question(&s.text)) {
            focus.push(clip(&q.text, FOCUS_BYTES));
        }
        if let Some((_, Some(b))) = &proposal {
            focus.push(clip(b, FOCUS_BYTES));
        }
        focus.extend(options.iter().map(|o| clip(o, FOCUS_BYTES)));
        // the user's question stays in view: the reply answers it, the
        // next turn may pick from the answer ("Which queue…?" … "Kafka.")
        if let Some(asked) = self.cur.focus.first().filter(|f| classify::is_question(f)) {
            focus.push(asked.clone());
        }
        // what the direction already says need not be said twice
        let direction = self.cur.direction.clone();
        focus.retain(|f| !direction.contains(f.trim_end_matches('…')));
        // (an option may be one of the last sentences too: once is enough,
        // and another option keeps the room)
        let mut seen: Vec<String> = Vec::new();
        focus.retain(|f| {
            let new = !seen.contains(f);
            seen.push(f.clone());
            new
        });
        focus.truncate(FOCUS_ITEMS);
        if !focus.is_empty() {
            self.cur.focus = focus;
        }
        let commands = facts::one_line_commands(text);
        // "commit 7e2b1a9。" alone names no subject: it goes with the
        // sentence before it
        let mut joined: Vec<String> = Vec::new();
        for t in &plain {
            let short_anchor = t.chars().count() < 30 && facts::has_anchor(t);
            match joined.last_mut() {
                Some(prev) if short_anchor => {
                    prev.push(' ');
                    prev.push_str(t);
                }
                _ => joined.push((*t).to_owned()),
            }
        }
        let candidates: Vec<&str> = joined
            .iter()
            .map(String::as_str)
            .chain(commands.iter().map(String::as_str))
            .collect();
        for t in candidates {
            if clip(t, DIRECTION_BYTES) != self.cur.direction {
                self.add_fact(t, false);
            }
        }
    }

    /// "承知いたしました。同時受注上限は 2 件に変更いたします。", "Understood.
    /// I'll set the primary window to 90 seconds.": a reply that
    /// acknowledges what the user just asked for and commits to it restates
    /// the user's decision, in full and with its subject, where the user's
    /// own words were a request, a hint or a pronoun. Up to four sentences
    /// after the acknowledgement are decisions when they read as one with
    /// the words of commitment cut off. Only after a turn that decided or
    /// asked for something: what a reply does on its own ("原因がわかりまし
    /// た。…に変更します") is the assistant's, not the user's.
    fn confirmed_changes(&mut self, sents: &[Sentence]) {
        // (a statement after the decision it qualifies: "75% にしよう。95 は
        // そのまま。", "15にしよう。それなら不漁でもだいたい入るはず。")
        let continues_last_decision = |f: &str| {
            self.decisions.last().is_some_and(|d| {
                let body = polarity_and_body(d).1;
                body.contains(f.trim_end_matches(['.', '。', '…']))
                    || shared(&terms(body), &terms(f)) > 0
            })
        };
        // the user's last sentence (see `user`): it decided, picked an
        // option ("the first one i guess") or left it to the reply ("你看着
        // 办吧"); not a statement ("The pool is maxed out at 20."), a
        // question, a request for information or work ("教えてください",
        // "check the logs"), a hesitation or a deferral
        let asked = self
            .cur
            .focus
            .first()
            .is_some_and(|f| match classify::user_sentence(f) {
                UserKind::Decisions(_) | UserKind::Approval { .. } => true,
                UserKind::Other => {
                    option_label(f).is_some()
                        || classify::has_any(&f.to_lowercase(), words("delegations"))
                        || continues_last_decision(f)
                }
                _ => false,
            });
        if !asked {
            return;
        }
        let said: Vec<&str> = sents
            .iter()
            .filter(|s| !s.tool_call)
            .map(|s| s.text.as_str())
            .collect();
        // (after a greeting or thanks: "森田様、おはようございます。…、承知
        // いたしました。")
        let Some(k) = said.iter().take(3).position(|t| acknowledges(t)) else {
            return;
        };
        let mut turn = Turn::default();
        for s in said.into_iter().skip(k).take(5) {
            // the acknowledgement itself, or what follows it in its sentence
            let s = acknowledgement_rest(s);
            // ("I will leave termination for convenience open until you have
            // spoken to Oskar": a commitment to wait settles nothing)
            if s.is_empty()
                || classify::is_question(s)
                || s.contains(['?', '？'])
                || classify::is_deferral(s)
                || classify::leaves_open(&s.to_lowercase(), true)
            {
                continue;
            }
            let l = s.to_lowercase();
            let committed = classify::opening_entry(&l, words("commitments"))
                .and_then(|c| strip_prefix_lowercase(s, c));
            let body = match committed {
                Some(rest) => rest.trim_start(),
                // "同時受注上限は2件に変更いたします": Japanese commits by its
                // ending, on a verb that sets or changes something in its
                // last clause ("…50 台までといたしますと、…で完了します"
                // only supposes)
                None if s.chars().any(is_kana)
                    && ["します", "いたします"]
                        .iter()
                        .any(|e| s.trim_end().trim_end_matches('。').ends_with(e))
                    && words("ja_settings")
                        .iter()
                        .any(|w| s.rsplit(['、', '，']).next().unwrap_or(s).contains(w)) =>
                {
                    s
                }
                None => continue,
            };
            // what the conversation was about just now, and the user's last
            // decision: a commitment sharing no word or value with them is
            // the assistant's own plan ("Yes, use Redis." … "I will switch
            // the session store to Memcached as well"); one sharing a value
            // restates it ("75% にしよう" … "警告を 75% に下げ…ます")
            let mut said_before = self.context();
            said_before.extend(self.decisions.last().cloned());
            let said_before = said_before.join(" ");
            let context = terms(&said_before);
            let context_values = number_tokens(&said_before);
            for d in classify::decisions_in(body) {
                let related = shared(&terms(&d.body), &context) > 0
                    || number_tokens(&d.body)
                        .iter()
                        .any(|n| context_values.contains(n));
                if !related {
                    continue;
                }
                if let Some(last) = self.decisions.last() {
                    let (polarity, body) = polarity_and_body(last);
                    let said = subject::without_trailing_subject(body);
                    let values = number_tokens(said);
                    let new_values = number_tokens(&d.body);
                    // (the subject added to it counts: "Make it 90 (failover
                    // window)")
                    let same_subject = shared(&head_terms(&d.body), &terms(body)) > 0;
                    let same_value = new_values.iter().any(|n| values.contains(n));
                    // the reply says otherwise than the user did: another value
                    // than the one the user set (the value it sets is its
                    // first: "Make it 90." … "I'll set it to 120 seconds to
                    // be safe, since 90 is close to the GC pause"), whatever
                    // it names, or the other polarity on the same subject
                    // ("やめておこう" … "有効にします"); the user's word stands
                    let other_value = !values.is_empty()
                        && new_values.first().is_some_and(|n| !values.contains(n));
                    let deviates = other_value || same_subject && polarity != d.polarity;
                    if deviates {
                        continue;
                    }
                    // the user's own decision, restated: it stays as said,
                    // unless it named no subject of its own ("75% にしよう"),
                    // when the restatement takes its place (never both: a
                    // later change would replace one and leave the other
                    // binding)
                    let head = body.split("; ").next().unwrap_or(body);
                    let own = subject::without_trailing_subject(head);
                    let vague = own.len() < head.len() || needs_subject(own);
                    if (same_subject || same_value) && !vague {
                        continue;
                    }
                    // (a value shared, and nothing else: the same value only
                    // when it is the one set first and the reply adds
                    // nothing beside it, "I'll also set the grace period to
                    // 90", "重连间隔也设为 20 秒")
                    let adds = classify::has_any(&d.said.to_lowercase(), words("additions"));
                    let same_first = new_values
                        .first()
                        .is_some_and(|n| values.first() == Some(n));
                    if !same_subject && same_value && (adds || !same_first) {
                        continue;
                    }
                    if same_subject || same_value && polarity == d.polarity {
                        self.decisions.pop();
                    }
                }
                self.decide_in_turn(d, &mut turn);
            }
        }
    }

    /// "用 Redis 做缓存（＝缓存用 Redis，TTL 设 10 分钟）" … "TTL 改成 1 小时":
    /// a later decision about what only a restatement said (the user's own
    /// words name no TTL) makes that restatement stale; it goes, the
    /// user's words stay.
    fn forget_stale_echoes(&mut self, made: &[String]) {
        for new in made {
            let (polarity, body) = polarity_and_body(new);
            let head = head_terms(body);
            let kinds: Vec<&str> = quantities(body).iter().map(|q| q.kind).collect();
            // (an exception is no change: "朝練の日だけ前日の21時")
            let scoped = ["だけ", "以外", "例外", "除了", "only", "except"]
                .iter()
                .any(|w| body.to_lowercase().contains(w));
            if head.is_empty() || scoped {
                continue;
            }
            for line in self.decisions.iter_mut().filter(|l| !made.contains(l)) {
                let (own, echo) = split_echo(polarity_and_whole_body(line).1);
                if echo.is_empty() {
                    continue;
                }
                let (et, own_terms) = (terms(echo), terms(own));
                // (on it: a "don't", or a value of a kind it holds; not a
                // decision that only shares a word with it)
                let changes = polarity == Polarity::DontWant
                    || quantities(echo).iter().any(|q| kinds.contains(&q.kind));
                if changes
                    && head
                        .iter()
                        .any(|h| et.contains(h) && !own_terms.contains(h))
                {
                    let kept = line.len() - echo.len();
                    line.truncate(kept);
                }
            }
        }
    }

    /// "今日決まったことのまとめ：- DB は PostgreSQL 16 …", "目前确定的内容汇总如
    /// 下：- 采样间隔 60 秒 …", "recap for thursday: - …": a reply that lists
    /// what was decided, under a heading that says so, restates each
    /// decision with its subject; each item is decided as a listed one of
    /// the user's would be (replacing the earlier decision on its subject),
    /// except what it says is still pending or open.
    fn recapped(&mut self, sents: &[Sentence], decided: &[usize]) {
        let just_decided: Vec<String> = decided
            .iter()
            .filter_map(|&i| self.decisions.get(i))
            .flat_map(|d| terms(polarity_and_body(d).1))
            .collect();
        // (a table of verdicts recaps when the user's turn settled something
        // and one of its items is a thing already decided; else it weighs
        // what was asked for: "リージョンを比較してください" … "| 東京 |
        // レイテンシ最良 |")
        // (… or the line before it says it sums up: "最终确定如下：",
        // "では以下で確定とします。", "Where we landed:")
        // (read only for a reply that has such a table)
        let table_recaps = sents
            .iter()
            .position(|s| s.verdict)
            .is_some_and(|first_row| {
                let announced = first_row
                    .checked_sub(1)
                    .map(|i| sents[i].text.to_lowercase())
                    .is_some_and(|l| {
                        classify::has_any(&l, words("recap_openers"))
                            || classify::has_any(&l, words("recap_headings"))
                    });
                announced
                    || !decided.is_empty() && {
                        let decided_terms: Vec<String> =
                            self.decisions.iter().flat_map(|d| terms(d)).collect();
                        sents.iter().filter(|s| s.verdict).any(|s| {
                            let item = item_and_verdict(&s.text).map_or("", |(i, _)| i);
                            shared(&terms(item), &decided_terms) > 0
                        })
                    }
            });
        let settled = |s: &&Sentence| {
            let heading = s.heading.as_deref().unwrap_or("").to_lowercase();
            let l = s.text.to_lowercase();
            if s.verdict {
                return settled_row(s, table_recaps, &just_decided);
            }
            // (or a heading that is only the word: "## Decisions", "### 决定")
            // (… or a line that sums up, "ここまでの設定まとめ"; or the sentence
            // announcing the labelled part it is in, "今天确定的事项汇总如下：")
            let section = s.section.as_deref().unwrap_or("");
            let recap = super::text::names_a_recap(&heading)
                || super::text::says_it_recaps(section)
                || words("decided_headings").contains(&heading.trim());
            // (not what is still to decide, weighed, proposed or
            // rejected: "Decisions to make:", "待决定：", "- Maybe drop …",
            // "- Rejected: MongoDB"; not again what the user's turn just
            // decided, which a recap may state with an older value)
            recap
                && !s.tool_call
                && !classify::is_question(&s.text)
                && !classify::is_question(&heading)
                && !classify::is_deferral(&s.text)
                && !classify::has_any(&l, words("pending"))
                && !classify::has_any(&heading, words("pending"))
                && !classify::has_any(&heading, words("undecided_headings"))
                && !classify::has_any(&l, words("echo_hedges"))
                && !classify::has_any(&l, words("undecided_headings"))
                && shared(&head_terms(&s.text), &just_decided) == 0
        };
        let items: Vec<Decision> = sents
            .iter()
            .filter(settled)
            .filter_map(|s| match classify::listed_decision(s) {
                Some(UserKind::Decisions(ds)) => Some(ds),
                _ => None,
            })
            .flatten()
            .collect();
        // (one item under "Decision:" is the reply's own verdict)
        if items.len() < 2 {
            return;
        }
        let mut turn = Turn::default();
        for d in items {
            let made = turn.decided.len();
            self.decide_in_turn(d, &mut turn);
            self.list_made.extend(turn.decided[made..].iter().cloned());
        }
        self.list_made.clear();
    }

    /// "Loop B it is", "Two stoves, got it.", "好，口径定了：差额 ≤ 50 元自动
    /// 确认…", "reverted: offline = 3 missed hb (6 min).": the reply to a
    /// turn that decided something opens by saying back what was decided,
    /// with the subject and the value the user's own words left to the
    /// context ("let's do that one", "bump it to 12", "抽检比例可以"). That
    /// restatement goes on the decision it restates, in brackets after the
    /// user's words. Only the reply's first two sentences, only a
    /// statement, and never one that sets another value than the user did.
    fn echoed(&mut self, sents: &[Sentence], text: &str, context: &str, decided: &[usize]) {
        let live: Vec<usize> = decided
            .iter()
            .copied()
            .filter(|&i| {
                // (one restatement per decision; a long one needs none)
                self.decisions
                    .get(i)
                    .is_some_and(|d| d.len() <= classify::DECISION_BYTES)
            })
            .collect();
        // (a recap restates them all, item by item: `recapped`; a reply
        // opening with a heading, a list, a table or code restates nothing)
        let opening = text.trim_start();
        let markup = opening.starts_with(['#', '`', '|', '-', '*', '>', '['])
            || opening
                .split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if live.is_empty() || markup || sents.iter().any(|s| classify::listed_decision(s).is_some())
        {
            return;
        }
        // (what the conversation was about before the reply: the reply's own
        // sentences name nothing the decision could have meant)
        let context = terms(context);
        let decided_text = live
            .iter()
            .map(|&i| self.decisions[i].to_lowercase())
            .collect::<Vec<_>>()
            .join(" ");
        for s in sents.iter().filter(|s| !s.tool_call).take(2) {
            let echo = echo_of(&s.text);
            if echo.is_empty() {
                continue; // "Noted.", "Love it.": the restatement may follow
            }
            // (not what it announces: "Sketch of the Redis version:",
            // "Here's the hold, in the quote handler.")
            let announces = text
                .find(s.text.as_str())
                .map(|at| text[at + s.text.len()..].trim_start())
                .is_some_and(|after| after.starts_with([':', '：']))
                || {
                    // (an opener in English, anywhere in CJK: "整理如下")
                    let l = echo.to_lowercase();
                    words("announcements").iter().any(|a| {
                        if a.is_ascii() {
                            classify::starts_with_word(&l, a)
                        } else {
                            l.contains(a)
                        }
                    })
                };
            // ("I'll set the failover window to 120 seconds…": what a
            // reply commits to is `confirmed_changes`' to judge)
            // (… or says what the reply itself does: "I also bumped ESLint
            // to 9.2", "We moved the retro")
            let l = echo.to_lowercase();
            let commits = classify::opening_entry(&l, words("commitments")).is_some()
                || [
                    "i",
                    "we",
                    "i'm",
                    "we're",
                    "i've",
                    "we've",
                    "我",
                    "我们",
                    "私",
                    "こちら",
                ]
                .iter()
                .any(|w| classify::starts_with_word(&l, w));
            // (… or weighs, qualifies or offers a choice: "Retro moved to
            // Thursday since Tuesday clashes", "Either Tuesday or Thursday
            // works", "测试环境改成每周四部署"; a day the user did not name is
            // another value)
            let hedges = classify::has_any(&l, words("echo_hedges"))
                || words("day_names")
                    .iter()
                    .any(|d| classify::has(&l, d) && !classify::has(&decided_text, d));
            if announces
                || commits
                || hedges
                || classify::is_question(echo)
                || echo.contains(['?', '？'])
                || echo.ends_with([':', '：'])
                || classify::proposal_of(echo).is_some()
                // ("Fine, the felt can wait": what the turn put off)
                || classify::has(&l, "can wait")
            {
                return;
            }
            let et = terms(echo);
            let ev = number_tokens(echo);
            // ("Don't enable retries" … "Retries are enabled by default"):
            // a restatement says no where the decision does
            let negative = classify::says_no(&l) || classify::has_any(&l, words("negative_start"));
            let live: Vec<usize> = live
                .iter()
                .copied()
                .filter(|&i| {
                    (polarity_and_body(&self.decisions[i]).0 == Polarity::DontWant) == negative
                })
                .collect();
            let fit = |i: &usize| {
                let body = polarity_and_body(&self.decisions[*i]).1;
                let values = number_tokens(body);
                let shared_values = ev.iter().filter(|n| values.contains(n)).count();
                (shared(&et, &terms(body)) + 2 * shared_values, values, body)
            };
            let best = live.iter().max_by_key(|i| (fit(i).0, **i)).copied();
            let Some(i) = best else { return };
            let (score, values, body) = fit(&i);
            // (a decision naming nothing, "do that one", takes the
            // restatement of what the conversation was about)
            // (its own words: "do that one (ugh early but fine)" names
            // nothing in its brackets either)
            let own = subject::without_trailing_subject(body.split("; ").next().unwrap_or(body));
            let vague = needs_subject(own) || terms(own).len() <= 2;
            if score == 0 && !(vague && live.len() == 1 && shared(&et, &context) > 0) {
                return;
            }
            // ("make it 90" … "switched to 120": another value than the
            // user's is no restatement, and the user's word stands)
            if !values.is_empty() && !ev.is_empty() && !ev.iter().any(|n| values.contains(n)) {
                return;
            }
            let bt = terms(body);
            if et.iter().all(|t| bt.contains(t)) {
                return; // nothing the decision does not say already
            }
            let mut echo = clip(echo.trim_end_matches(['.', '。', '!', '！']), ECHO_BYTES);
            // in brackets, so that it stays one part with what it restates
            // (`without_revisited_part`): a later change of the value takes
            // it along
            if echo.matches(['(', '（']).count() != echo.matches([')', '）']).count() {
                echo.retain(|c| !"()（）".contains(c));
            }
            let line = &mut self.decisions[i];
            if echo.chars().any(is_cjk) {
                line.push_str(&format!("{}{echo}）", ECHO_MARKS[1]));
            } else {
                line.push_str(&format!("{}{echo})", ECHO_MARKS[0]));
            }
            return;
        }
    }

    fn push_focus(&mut self, item: &str) {
        let item = clip(item, FOCUS_BYTES);
        self.cur.focus.retain(|f| *f != item);
        self.cur.focus.insert(0, item);
        self.cur.focus.truncate(FOCUS_ITEMS);
    }

    /// The schema's bounds and the size budget. Beyond eight, decisions
    /// share entries (`pack_decisions`); beyond 24 they leave the list
    /// (one bound to a moment first, else the oldest), into the past
    /// discussion they belong to. Over the budget, what goes first
    /// is what is worth least per character: the identifiers of past
    /// discussions beyond ten, the weakest facts beyond the
    /// best six, the weakest facts of past discussions, the focus beyond two
    /// items, identifiers beyond ten, facts beyond three, the directions of
    /// past discussions and then their identifiers, whole
    /// past discussions (oldest first;
    /// Agenvoy shows them only while they are in its 24-record window,
    /// docs/agenvoy-format.md#how-agenvoy-uses-the-summary), the
    /// remaining facts, the focus and the identifiers, and decisions last,
    /// oldest first. (An identifier, a dozen characters naming its own
    /// subject, is worth more per character than most fact sentences; on
    /// the dev set, before the extractor's review fixes, keeping ten per
    /// discussion found 1,605 facts, three 1,593, six 1,600, sixteen 1,603.)
    fn bound(&mut self, max_chars: usize) {
        while self.decisions.len() > MAX_DECISIONS {
            // a decision bound to a moment ("run it tonight") goes before a
            // lasting one
            let one_off = self.decisions[..self.decisions.len() - 1]
                .iter()
                .position(|d| classify::has_any(&d.to_lowercase(), words("one_off")));
            let old = self.decisions.remove(one_off.unwrap_or(0));
            self.file_in_past(&old);
        }
        if self.past.len() > MAX_PAST_DISCUSSIONS {
            self.past.drain(..self.past.len() - MAX_PAST_DISCUSSIONS);
        }
        // (the size is measured once and again only after a drop: every
        // step below asks it first, and a summary within its budget — the
        // common case — needs no step)
        let size = |m: &Memory| json_chars(&m.to_json());
        let mut over = size(self) > max_chars;
        macro_rules! drop_while {
            // (a step that drops something and says whether it did)
            ($step:expr) => {
                while over && $step {
                    over = size(self) > max_chars;
                }
            };
            ($cond:expr, $drop:expr) => {
                while over && $cond {
                    $drop;
                    over = size(self) > max_chars;
                }
            };
        }
        drop_while!(self.trim_past_refs(MIN_REFS));
        drop_while!(self.cur.facts.len() > MIN_FACTS * 2, {
            let w = self.weakest_fact();
            self.cur.facts.remove(w);
        });
        drop_while!(self.trim_past_facts());
        // what the next turn may point at is worth more than a weak fact,
        // less than a strong one
        drop_while!(self.cur.focus.len() > 2, self.cur.focus.pop());
        drop_while!(
            self.cur.refs.len() > MIN_REFS,
            self.cur.refs.remove(refs::weakest(&self.cur.refs))
        );
        drop_while!(self.cur.facts.len() > MIN_FACTS, {
            let w = self.weakest_fact();
            self.cur.facts.remove(w);
        });
        // a past discussion reduced to its topic and best fact still says
        // what was discussed: its direction goes before the whole of it
        drop_while!(self.clear_past_direction());
        drop_while!(self.trim_past_refs(0));
        drop_while!(!self.past.is_empty(), self.past.remove(0));
        drop_while!(self.cur.facts.len() > 1, {
            let w = self.weakest_fact();
            self.cur.facts.remove(w);
        });
        drop_while!(!self.cur.focus.is_empty(), self.cur.focus.pop());
        drop_while!(
            !self.cur.refs.is_empty(),
            self.cur.refs.remove(refs::weakest(&self.cur.refs))
        );
        // (one measure says whether the filed decision must come back and,
        // when it stays filed, whether more must go)
        while over && self.decisions.len() > 1 {
            let old = self.decisions.remove(0);
            self.file_in_past(&old);
            over = size(self) > max_chars;
            if over {
                self.unfile(&old);
                over = size(self) > max_chars;
            }
        }
    }

    /// Drop the weakest identifier (`refs::weakest`) of the oldest past
    /// discussion holding more than `keep`; false when none does.
    fn trim_past_refs(&mut self, keep: usize) -> bool {
        for p in self.past.iter_mut() {
            let Some(Value::Array(items)) = p.get_mut("refs") else {
                continue;
            };
            if items.len() > keep {
                let texts: Vec<String> = items.iter().map(|x| str_of(Some(x))).collect();
                items.remove(refs::weakest(&texts));
                if items.is_empty() {
                    p.as_object_mut().expect("an entry").shift_remove("refs");
                }
                return true;
            }
        }
        false
    }

    /// The identifiers a record names join the discussion's, the newest
    /// last, within `REFS_BYTES`.
    fn add_refs(&mut self, text: &str) {
        for item in refs::named_in(text) {
            refs::merge(&mut self.cur.refs, item);
        }
        let bytes = |r: &[String]| r.iter().map(|x| x.len() + 3).sum::<usize>();
        while bytes(&self.cur.refs) > REFS_BYTES {
            self.cur.refs.remove(refs::weakest(&self.cur.refs));
        }
    }

    /// Drop the weakest fact of the oldest past discussion holding more
    /// than one, or its oldest filed decision; false when none is left.
    fn trim_past_facts(&mut self) -> bool {
        for p in self.past.iter_mut() {
            let desc = str_of(p.get("description"));
            let told = places_in(p.get("told"));
            let fs: Vec<(String, bool)> = (sentences(&desc).into_iter().enumerate())
                .map(|(i, s)| (s.text, told.contains(&i)))
                .collect();
            if fs.len() > 1 {
                let (kept, told) = best_facts(&fs, fs.len() - 1);
                // progress is measured in characters: a fact that splits
                // into two sentences when read back must not loop forever
                if kept.len() < desc.len() {
                    p["description"] = json!(kept);
                    if let Some(entry) = p.as_object_mut() {
                        entry.shift_remove("told");
                        if !told.is_empty() {
                            entry.insert("told".into(), json!(told));
                        }
                    }
                    return true;
                }
            }
        }
        false
    }

    /// Empty the direction of the oldest past discussion that has one;
    /// false when none has.
    fn clear_past_direction(&mut self) -> bool {
        // the questions an old discussion left open go before the
        // decisions filed with it
        // (the last of them: it runs to the next item, "不要：" as well)
        for p in self.past.iter_mut() {
            let d = str_of(p.get("direction"));
            let mut items = direction_items(&d);
            if let Some(at) = items.iter().rposition(|i| i.starts_with(OPEN_LABEL)) {
                items.remove(at);
                p["direction"] = json!(items.join(" "));
                return true;
            }
        }
        match self
            .past
            .iter_mut()
            .find(|p| !str_of(p.get("direction")).is_empty())
        {
            Some(p) => {
                p["direction"] = json!("");
                true
            }
            None => false,
        }
    }

    /// A decision leaving the list is kept in the past discussion it
    /// belongs to, in its direction, with its prefix.
    fn file_in_past(&mut self, line: &str) {
        if self.past.is_empty() {
            return;
        }
        let lt = terms(line);
        let best = (0..self.past.len())
            .max_by_key(|&i| {
                let p = &self.past[i];
                let text = format!(
                    "{} {} {}",
                    str_of(p.get("topic")),
                    str_of(p.get("description")),
                    str_of(p.get("direction"))
                );
                (shared(&terms(&text), &lt), std::cmp::Reverse(i))
            })
            .expect("not empty");
        // a decision of the current discussion is no part of a past one
        let p = &self.past[best];
        let past_text = format!(
            "{} {} {}",
            str_of(p.get("topic")),
            str_of(p.get("description")),
            str_of(p.get("direction"))
        );
        let c = &self.cur;
        let current = format!("{} {} {}", c.topic, c.facts.join(" "), c.direction);
        if shared(&terms(&past_text), &lt) <= shared(&terms(&current), &lt) {
            return;
        }
        let p = &mut self.past[best];
        let mut direction = str_of(p.get("direction"));
        if direction.len() + line.len() > PAST_TEXT_BYTES {
            return;
        }
        if !direction.is_empty() {
            direction.push(' ');
        }
        direction.push_str(line);
        p["direction"] = json!(direction);
    }

    fn unfile(&mut self, line: &str) {
        for p in self.past.iter_mut() {
            let d = str_of(p.get("direction"));
            if let Some(i) = d.rfind(line) {
                p["direction"] = json!(d[..i].trim_end());
            }
        }
    }
}

/// A label of three words at most that says no more than a thing's name:
/// not "legal got back", "next", "task".
fn names_a_thing(label: &str) -> bool {
    const NOT_NAMES: &[&str] = &[
        "got", "is", "are", "was", "were", "has", "have", "had", "said", "says", "back", "next",
        "task", "todo", "then", "now",
    ];
    let ws: Vec<String> = label.split_whitespace().map(str::to_lowercase).collect();
    ws.len() <= 3 && !ws.iter().any(|w| NOT_NAMES.contains(&w.as_str()))
}

/// The topic a formal sentence opens with ("Regarding transaction limits,
/// we will proceed with Option B" → "transaction limits"), up to the first
/// colon or comma: what the decision after it is about.
fn topic_of(lead: Option<&str>) -> Option<String> {
    const OPENERS: &[&str] = &[
        "regarding ",
        "as regards ",
        "as for ",
        "as to ",
        "concerning ",
        "with regard to ",
        "with respect to ",
        "in terms of ",
        "re: ",
        "re ",
    ];
    let lead = lead?.trim();
    let l = lead.to_lowercase();
    let opener = OPENERS.iter().find(|o| l.starts_with(*o))?;
    let rest = &lead[opener.len()..];
    let topic = rest.split([':', ',', ';']).next().unwrap_or("").trim();
    (!terms(topic).is_empty() && topic.split_whitespace().count() <= 8).then(|| topic.to_owned())
}

/// The part a decision is scoped to, from the words before it: "For
/// reporting-db" → "for reporting-db"; not a way of speaking ("In that
/// case", "On reflection", "For now").
fn scope_of(lead: Option<&str>) -> Option<String> {
    const DISCOURSE: &[&str] = &[
        "that case",
        "this case",
        "any case",
        "which case",
        "fact",
        "the meantime",
        "short",
        "general",
        "practice",
        "the end",
        "turn",
        "now",
        "the record",
        "example",
        "instance",
        "sure",
        "real",
        "addition",
        "particular",
        "principle",
    ];
    let l = lead?.trim().to_lowercase();
    let rest = ["for ", "on ", "in "]
        .iter()
        .find_map(|p| l.strip_prefix(p))?;
    let rest = rest.trim().trim_end_matches([',', ':']);
    (!DISCOURSE.contains(&rest) && !classify::has_any(&l, words("reconsider_cues"))).then_some(l)
}

/// An item the reply lists as not decided: a sentence opening with such a
/// label, or an item of a list headed by one.
fn open_item(s: &Sentence) -> Option<String> {
    let is_label = |label: &str| {
        let l = label
            .trim()
            .trim_matches(|c: char| "*#_ ".contains(c))
            .trim_end_matches([':', '：'])
            .trim_matches(|c: char| "*#_ ".contains(c))
            .to_lowercase();
        // ("目前共有三项待确认事项", "还挂着两件事" is no label; a short
        // CJK label ending in one is)
        words("open_labels").contains(&l.as_str())
            || l.chars().any(is_cjk)
                && l.chars().count() <= 16
                && words("open_labels")
                    .iter()
                    .any(|w| !w.is_ascii() && w.chars().count() >= 2 && l.ends_with(w))
    };
    // ("Open questions: none at this point", "待定：无")
    let nothing = |item: &str| {
        let l = item.trim().to_lowercase();
        [
            "none",
            "nothing",
            "n/a",
            "no ",
            "无",
            "没有",
            "なし",
            "特になし",
            "ありません",
        ]
        .iter()
        .any(|w| l.starts_with(w))
    };
    // "- タグ代の負担区分（購買部で確認中）", "汇率口径：待财务部王经理返回后确认",
    // "…awaits the Finance Director's decision": an item the reply says
    // waits on someone, whatever its heading
    let waits = |t: &str| {
        let l = t.to_lowercase();
        [
            "待ち）",
            "待ち)",
            "確認中",
            "照会中",
            "検討中",
            "相談中",
            "回答をお待ち",
            "連絡をお待ち",
            "返事をお待ち",
            "結果をお待ち",
            "判断をお待ち",
            "未決にしておきます",
            "保留にしておきます",
            "待ちとして",
            "待确认",
            "待定）",
            "等待",
            "awaits ",
            "awaiting ",
            "waiting on ",
            "waiting for ",
            "pending ",
            "is still with ",
        ]
        .iter()
        .any(|w| l.contains(w))
            && !classify::is_question(t)
    };
    // (the first item of a list may carry the label line with it)
    let text = match s.text.split_once([':', '：']) {
        Some((label, rest)) if is_label(label) => rest.trim(),
        _ if s.heading.as_deref().is_some_and(is_label) => s.text.trim(),
        _ if waits(&s.text) && !is_label(&s.text) && s.text.chars().count() <= 120 => s.text.trim(),
        _ => return None,
    };
    let named = if text.chars().any(is_cjk) {
        !terms(text).is_empty()
    } else {
        terms(text).len() >= 2
    };
    (named && !nothing(text)).then(|| text.to_owned())
}

/// Who commits and how, before the verb of a decision ("we shall …", "I'll
/// …"): no part of what is decided.
const COMMITTING_WORDS: [&str; 11] = [
    "we", "i", "we'll", "i'll", "shall", "will", "let's", "let", "us", "must", "should",
];

/// The formal Japanese acknowledgements, which may also close a sentence
/// ("412名（うち社内18名）、承知いたしました。").
const FORMAL_ACKNOWLEDGEMENTS: [&str; 3] = ["承知いたしました", "承知しました", "かしこまりました"];

/// What follows an acknowledgement that opens `sentence` before a pause
/// ("Understood; I'll keep …" → "I'll keep …"; not "行业…", "OK so the
/// logs say…").
fn after_acknowledgement(sentence: &str) -> Option<&str> {
    let t = sentence.trim();
    words("acknowledgements").iter().find_map(|a| {
        strip_prefix_lowercase(t, a)
            .filter(|rest| rest.chars().next().is_none_or(|c| !c.is_alphanumeric()))
            .map(|rest| rest.trim_start_matches(|c: char| !c.is_alphanumeric()))
    })
}

/// Does `sentence` close with a formal acknowledgement?
fn ends_in_acknowledgement(sentence: &str) -> bool {
    let e = sentence.trim().trim_end_matches(['。', '！', '.', '!']);
    FORMAL_ACKNOWLEDGEMENTS.iter().any(|a| e.ends_with(a))
}

/// A row of a reply's table of verdicts ("| 班制 | 改为四班三运转 |") is a
/// settled decision when the table recaps (`recapped`: after a question
/// such a table weighs options or reports results, "| Redis | 推荐 |", "|
/// 支付 | 不通过 |"), and its verdict neither weighs ("采用推奨", "strong
/// fit", "passed") nor puts off ("next week", "ask Sam", "再议"), nor
/// restates what the user's turn just said.
fn settled_row(s: &Sentence, recaps: bool, just_decided: &[String]) -> bool {
    let (item, verdict) = item_and_verdict(&s.text).unwrap_or(("", ""));
    let verdict = verdict.to_lowercase();
    recaps
        && !s.tool_call
        && verdict.chars().any(char::is_alphanumeric)
        // (nor the row of what is still open: "| 未定 | 受付締切、貸切プラン |")
        && !classify::has_any(&item.to_lowercase(), words("pending"))
        && !classify::is_question(&s.text)
        && !classify::is_deferral(&verdict)
        && !classify::has_any(&verdict, words("pending"))
        && !classify::has_any(&verdict, words("weighing_verdicts"))
        && classify::opening_entry(&verdict, words("pending_verdicts")).is_none()
        && shared(&head_terms(&s.text), just_decided) == 0
}

/// Does a reply's sentence acknowledge what was asked ("Understood.",
/// "承知いたしました。", "412名、承知いたしました。", "好的，已…")?
fn acknowledges(sentence: &str) -> bool {
    after_acknowledgement(sentence).is_some() || ends_in_acknowledgement(sentence)
}

/// A reply's sentence without the interjections around what it says
/// ("Nice, 2 canoes…", "Two stoves, got it.", "好，口径定了：以我方…",
/// "reverted: offline = 3 missed hb"): parts before or after a comma or
/// colon made only of them are cut; nothing is left of "Noted." or "Ha,
/// fair.".
fn echo_of(sentence: &str) -> &str {
    const MARKS: [char; 7] = [',', ':', '，', '、', '：', '!', '！'];
    let filler = |part: &str| {
        let p = part
            .trim()
            .trim_end_matches(['.', '。', '!', '！', '~', '～'])
            .trim()
            .to_lowercase();
        p.is_empty()
            || words("interjections").contains(&p.as_str())
            || !p.chars().any(char::is_alphanumeric)
    };
    let mut rest = sentence.trim();
    while let Some((i, c)) = rest.char_indices().find(|(_, c)| MARKS.contains(c)) {
        if !filler(&rest[..i]) {
            break;
        }
        rest = rest[i + c.len_utf8()..].trim_start();
    }
    while let Some((i, _)) = rest.char_indices().rev().find(|(_, c)| MARKS.contains(c)) {
        if !filler(rest[i..].trim_start_matches(MARKS)) {
            break;
        }
        rest = rest[..i].trim_end();
    }
    if filler(rest) {
        ""
    } else {
        rest
    }
}

/// What follows the acknowledgement in its sentence; nothing after one that
/// closes it; the whole sentence when it has none.
fn acknowledgement_rest(sentence: &str) -> &str {
    match after_acknowledgement(sentence) {
        Some(rest) => rest,
        None if ends_in_acknowledgement(sentence) => "",
        None => sentence.trim(),
    }
}

/// `text` without a prefix that lower-cases to `prefix` (which is lower
/// case), cut at a character boundary of `text` itself: lower-casing may
/// change a text's length ("K", "İ"), so no length of the lower-cased text
/// indexes the original.
fn strip_prefix_lowercase<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let mut lowered = String::new();
    for (i, c) in text.char_indices() {
        if lowered == prefix {
            return Some(&text[i..]);
        }
        if lowered.len() >= prefix.len() {
            return None;
        }
        lowered.extend(c.to_lowercase());
    }
    (lowered == prefix).then_some("")
}

/// `body` with `subject` added at its end, clipped, in the brackets of
/// the script the body ends in ("… (the daily cap)", "…（离线队列）").
fn with_trailing_subject(body: &str, subject: &str) -> String {
    let subject = clip(subject, SUBJECT_BYTES);
    if body.chars().last().is_some_and(is_cjk) {
        format!("{body}（{subject}）")
    } else {
        format!("{body} ({subject})")
    }
}

/// Where `text` states `value` whole ("1,500" in "$1,500", not in
/// "11,500" or "1,500.5").
fn value_at(text: &str, value: &str) -> Option<usize> {
    text.match_indices(value).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || ".,".contains(c))
            && contains_value(&text[i..], value)
    })
}

/// "make it 10" after "Either lower maxmemory (~10gb)": the words before
/// the reply's value with the same number and kind as the decision's `q`,
/// with that value as the reply gave it (a bare "10" was 10 GB).
fn reply_value_subject(ctx: &[String], body: &str, q: &Quantity) -> Option<String> {
    let digits = |t: &str| -> String {
        t.chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
            .filter(char::is_ascii_digit)
            .collect()
    };
    let n = digits(&body[q.start..q.end]);
    if n.is_empty() {
        return None;
    }
    ctx.iter().find_map(|item| {
        quantities(item)
            .into_iter()
            .filter(|x| x.kind == q.kind)
            .filter(|x| digits(&item[x.start..x.end]) == n)
            .find_map(|x| {
                // ("lower maxmemory (~10gb)": the value in brackets is the
                // words' own)
                let head = item[..x.start].trim_end_matches(['~', '≈', '(', '（', ' ']);
                let subject = subject_before(item, head.len())?;
                let subject = ["either ", "Either ", "or "]
                    .iter()
                    .find_map(|w| subject.strip_prefix(w))
                    .unwrap_or(&subject);
                Some(format!("{subject} {}", item[x.start..x.end].trim()))
            })
    })
}

/// `text` states `value`, however it spaces it ("5 %" holds "5%").
fn holds_value(text: &str, value: &str) -> bool {
    contains_value(text, value) || contains_value(&text.replace(' ', ""), &value.replace(' ', ""))
}

/// The units the values of a text are given in ("2000 条" → "条", "30
/// min" → "min"); bare numbers have none.
fn units_of(text: &str) -> Vec<String> {
    quantities(text)
        .iter()
        .map(|q| {
            let unit = text[q.start..q.end]
                .trim_start_matches(|c: char| c.is_ascii_digit() || ",. ".contains(c))
                .trim_end_matches(|c: char| !c.is_alphanumeric() && c != '%')
                .trim()
                .to_lowercase();
            if !unit.is_empty() || q.kind != "number" {
                return unit;
            }
            // "8 per shift", "25 posters": a count of things names them
            // after it
            let mut ws = text[q.end..].split_whitespace().map(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            });
            match ws.next() {
                Some(w) if w == "per" => ws.next().map(|x| format!("per {x}")).unwrap_or_default(),
                Some(w)
                    if w.len() >= 3
                        && w.chars().all(|c| c.is_ascii_alphabetic())
                        && !words("link_words").contains(&w.as_str())
                        && !words("stopwords").contains(&w.as_str()) =>
                {
                    w
                }
                _ => String::new(),
            }
        })
        .filter(|u| !u.is_empty() && !u.starts_with(|c: char| c.is_ascii_digit()))
        .collect()
}

/// The values a text states with their kind, bare numbers left out
/// ("10%", "2 weeks", "4 日"): what a later turn may quote or revisit.
fn stated_values(text: &str) -> Vec<(String, &'static str)> {
    quantities(text)
        .iter()
        .filter(|q| !matches!(q.kind, "number" | "label"))
        .map(|q| (text[q.start..q.end].trim().to_owned(), q.kind))
        .collect()
}

/// What the value a decision changes was for: the subject before the value
/// of `body` the turn quoted (`quoted`), else before the first one `also`
/// accepts ("1日の受付" of "1日の受付は30件でいこう" after "30件だと…").
fn changed_value_subject(
    body: &str,
    quoted: &str,
    also: impl Fn(&subject::Quantity) -> bool,
) -> Option<String> {
    let qs = quantities(body);
    qs.iter()
        .find(|q| holds_value(quoted, &body[q.start..q.end]))
        .or_else(|| qs.iter().find(|q| also(q)))
        .and_then(|q| subject_before(body, q.start))
}

/// A value with the name of what it sets: "时间上限就定 60 秒" → 时间上限就定,
/// 60, 秒.
struct Slot {
    name: String,
    value: String,
    unit: String,
}

/// The values of a text that fill a named slot. Dates, clock times,
/// versions and labels name moments and things, not settings; a bare
/// number counts only with a unit run into it ("96kbps").
fn value_slots(text: &str) -> Vec<Slot> {
    quantities(text)
        .iter()
        .filter(|q| !matches!(q.kind, "label" | "version" | "date" | "clock"))
        .filter_map(|q| {
            let raw = &text[q.start..q.end];
            let value: String = raw
                .chars()
                .take_while(|c| c.is_ascii_digit() || ".,".contains(*c))
                .collect();
            let unit = if q.kind == "number" {
                text[q.start + value.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .collect::<String>()
                    .to_lowercase()
            } else {
                units_of(raw).into_iter().next().unwrap_or_default()
            };
            if unit.is_empty() {
                return None;
            }
            let name = subject_before(text, q.start)?;
            Some(Slot { name, value, unit })
        })
        .collect()
}

/// The terms of `text` that name something: not the words that stand for
/// something named elsewhere ("the thing", "a test", "that option":
/// `placeholder_nouns`), which any two statements may share.
fn named_terms(text: &str) -> Vec<String> {
    terms(text)
        .into_iter()
        .filter(|t| !words("placeholder_nouns").contains(&t.as_str()))
        .collect()
}

/// Two slot names name one thing: a CJK run of two or more characters in
/// both ("上限提" and "时间上限就定"), or a name in both; not when each names
/// something the other lacks ("CPU 阈值", "磁盘阈值").
fn same_slot(a: &Slot, b: &Slot) -> bool {
    let (ta, tb) = (named_terms(&a.name), named_terms(&b.name));
    let latin =
        |t: &Vec<String>| -> Vec<String> { t.iter().filter(|x| x.is_ascii()).cloned().collect() };
    let (la, lb) = (latin(&ta), latin(&tb));
    let own = |x: &[String], y: &[String]| x.iter().any(|t| !y.contains(t));
    if !la.is_empty() && !lb.is_empty() && own(&la, &lb) && own(&lb, &la) {
        return false;
    }
    // (CJK words as written: the bigrams of `terms` leave out function
    // characters, and 上 of 上限 is one)
    let pairs = |s: &Slot| -> Vec<String> {
        let cs: Vec<char> = s.name.chars().collect();
        cs.windows(2)
            .filter(|w| w.iter().all(|&c| is_cjk(c) && !is_hiragana(c)))
            .map(|w| w.iter().collect())
            .collect()
    };
    // ("CPU 告警阈值" and "磁盘告警阈值", "接続タイムアウト" and "読み込みタイムア
    // ウト": each names a different thing before the word they share; "时间上
    // 限" and "上限" do not)
    let (pa, pb) = (pairs(a), pairs(b));
    let Some(common) = pa.iter().find(|p| pb.contains(p)) else {
        return shared(&la, &lb) > 0;
    };
    let modifier = |name: &str| -> String {
        let at = name.find(common.as_str()).unwrap_or(0);
        name[..at]
            .trim()
            .trim_end_matches(['の', '的', ' '])
            .to_lowercase()
    };
    let (ma, mb) = (modifier(&a.name), modifier(&b.name));
    ma.is_empty() || mb.is_empty() || ma == mb
}

/// A proposal as the answer to the question it follows: "<question>:
/// <proposal>", the question naming the subject.
fn answer_to(question: &str, proposal: &str) -> String {
    let q = clip(question.trim_end_matches(['?', '？']), SUBJECT_BYTES);
    let joint = if q.chars().last().is_some_and(is_cjk) {
        "："
    } else {
        ": "
    };
    clip(&format!("{q}{joint}{proposal}"), classify::DECISION_BYTES)
}

/// What a CJK decision opens with, up to its particle, value or verb
/// ("かき氷" of "かき氷は1杯200円にしとく", "图片" of "图片 800 太小了"): two
/// characters or more, one of them not hiragana, or nothing.
fn cjk_topic(text: &str) -> Option<String> {
    const STOPS: &str = "はをがもでにと就是还也都改用按要不先再把";
    let head: String = text
        .trim()
        .chars()
        .take_while(|&c| is_cjk(c) && !STOPS.contains(c))
        .collect();
    let head = head.split("やっぱ").next().unwrap_or("").to_owned();
    let named = head.chars().count() >= 2
        && head.chars().any(|c| !is_hiragana(c))
        && !words("cjk_pronouns").iter().any(|p| head.starts_with(p));
    named.then_some(head)
}

/// The amounts of a text with the character of their unit ("200円" →
/// (200, '円'); a bare "1200" has none).
fn cjk_amounts(text: &str) -> Vec<(String, Option<char>)> {
    let mut out = Vec::new();
    for n in number_tokens(text) {
        for (i, _) in text.match_indices(n) {
            if value_at(&text[i..], n) != Some(0) {
                continue;
            }
            // (not a particle: "16的" is "the 16 one", of anything)
            let unit = text[i + n.len()..]
                .chars()
                .next()
                .filter(|&c| is_cjk(c) && !is_kana(c) && !"的了吧就是也都".contains(c));
            out.push((n.to_owned(), unit));
        }
    }
    out
}

/// Do two CJK decisions open with the same topic and give it another
/// amount of the unit the old one gave it once, said as a change of mind
/// ("やっぱ", "改成", "还是") or with the same words between topic and
/// amount? ("かき氷は子ども用200円" is another price than "かき氷は大人用
/// 300円"; a bare number has no unit to tell its slot by: "第二批 86 人" is
/// not "第二批 5 月 30 日".)
/// Whether `new` sets, with a verb of change, the setting whose value
/// `old` gave: the words `new` names it by all stand before that value in
/// `old`, the two values are of one kind, and `old` gives one such value,
/// not the new one.
fn resets(new: &str, old: &str) -> bool {
    let l = new.to_lowercase();
    if l.len() != new.len() {
        return false;
    }
    // (the strict list, the verb right before the value: not "SLA 加到合同
    // 附件里，超过 4 小时要赔付")
    let Some((at, end)) = classify::first_listed(&l, 0, words("value_change_verbs")) else {
        return false;
    };
    let Some(value) = quantities(new)
        .into_iter()
        .find(|q| q.start >= end && !matches!(q.kind, "version" | "label"))
        .filter(|q| new[end..q.start].trim().is_empty())
    else {
        return false;
    };
    let Some(name) = subject_before(new, at) else {
        return false;
    };
    let name = terms(&name);
    let olds: Vec<_> = quantities(old)
        .into_iter()
        .filter(|q| q.kind == value.kind)
        .collect();
    let [was] = olds.as_slice() else {
        return false;
    };
    !name.is_empty()
        && name.len() <= 3
        && old[was.start..was.end].trim() != new[value.start..value.end].trim()
        && {
            let before = terms(&old[..was.start]);
            name.iter().all(|t| before.contains(t))
        }
}

fn same_topic_new_amount(new: &str, old: &str) -> bool {
    let (Some(topic), Some(old_topic)) = (cjk_topic(new), cjk_topic(old)) else {
        return false;
    };
    if topic != old_topic {
        return false;
    }
    // (the words after the topic, up to the first digit, particles aside)
    let between = |text: &str| -> String {
        text.trim()[topic.len()..]
            .chars()
            .take_while(|c| !c.is_ascii_digit())
            .filter(|c| !"はも就都、，, ".contains(*c))
            .collect()
    };
    let l = new.to_lowercase();
    // (やっぱ, 还是 are reconsider cues already)
    let changes_mind = ["改成", "改为", "改到", "变更", "変更"]
        .iter()
        .any(|w| new.contains(w))
        || classify::has_any(&l, words("reconsider_cues"));
    if !changes_mind && between(new) != between(old) {
        return false;
    }
    let olds = cjk_amounts(old);
    cjk_amounts(new).iter().any(|(n, unit)| {
        if unit.is_none() {
            return false;
        }
        let of_unit: Vec<&String> = olds
            .iter()
            .filter(|(_, u)| u == unit)
            .map(|(on, _)| on)
            .collect();
        matches!(of_unit.as_slice(), [on] if *on != n)
    })
}

/// Whether a decision's words name something a later reader can act on:
/// a number, an acronym, a Latin word of three letters or more that is no
/// bare verb, pronoun or stop word, or three CJK characters that are not particles (the same bar
/// the eval's annotations meet).
fn names_something(body: &str) -> bool {
    if body.chars().any(|c| c.is_ascii_digit()) {
        return true;
    }
    let latin = body
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_')
        .any(|w| {
            let acronym = w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase());
            let w = w.to_lowercase();
            acronym
                || w.chars().filter(char::is_ascii_alphabetic).count() >= 3
                    && !words("imperative_verbs").contains(&w.as_str())
                    && !words("pronouns").contains(&w.as_str())
                    && !words("stopwords").contains(&w.as_str())
        });
    latin || cjk_content_chars(body) >= 3
}

/// `word` is `verb` or its present form: "rotate", "rotates",
/// "rotating"; "drop", "dropping". (Not the past: "I updated the README"
/// reports what is done, and "update it" means what is left.)
fn is_form_of(word: &str, verb: &str) -> bool {
    if word == verb {
        return true;
    }
    let stem = verb.strip_suffix('e').unwrap_or(verb);
    let last = verb.chars().last().map(String::from).unwrap_or_default();
    let doubled = format!("{verb}{last}");
    [
        format!("{verb}s"),
        format!("{verb}es"),
        format!("{stem}ing"),
        format!("{doubled}ing"),
    ]
    .contains(&word.to_owned())
}

/// `s` opens with an order of three words or more: "Set the timeout to
/// 30s", "let's go with B", "please turn off the cache", "Set timeout to
/// 30s": an instruction (`classify::is_instruction`), then what its verb
/// acts on (an article or pronoun, a particle, a name, or a bare noun set
/// "to"/"at" something). Not a heading that starts with
/// a word that is also a verb ("Update from the vendor call", "Run times
/// per job", "Deploy notes for v2.4"), nor a label ("restart window:
/// nights"); a colon at its end is allowed.
fn orders(s: &str) -> bool {
    let s = s.trim().trim_end_matches(':');
    // (a time's colon is no label's: "Move the cron job to 02:00 UTC:")
    let label = s.char_indices().any(|(i, c)| {
        c == ':'
            && !(s[..i].ends_with(|c: char| c.is_ascii_digit())
                && s[i + 1..].starts_with(|c: char| c.is_ascii_digit()))
    });
    if label {
        return false;
    }
    let ws: Vec<&str> = s.split_whitespace().collect();
    let ws = match ws.first().map(|w| w.to_lowercase()).as_deref() {
        Some("please" | "let's" | "lets") => &ws[1..],
        _ => &ws[..],
    };
    let [_, object, third, ..] = ws else {
        return false;
    };
    let lower = object.to_lowercase();
    // (a name, "Use Redis for the session cache")
    let named = object.chars().next().is_some_and(char::is_uppercase)
        || object.chars().any(|c| c.is_ascii_digit() || c == '_');
    classify::is_instruction(&ws.join(" "))
        && (words("articles").contains(&lower.as_str())
            || words("pronouns").contains(&lower.as_str())
            || ["off", "out", "up", "down", "back", "over", "with", "to"].contains(&lower.as_str())
            || named
            || ["to", "at"].contains(third))
}

/// A piece of a sentence torn from its verb: "to prod" (of "ship it to
/// prod"), "above 1.2G", "Proposal:": a preposition first and no verb
/// after it, or a label.
fn is_torn_clause(body: &str) -> bool {
    let subject = subject::trailing_subject(body);
    let own = match subject {
        Some(s) => &body[..s.as_ptr() as usize - body.as_ptr() as usize],
        None => body,
    };
    let own = own.trim().trim_end_matches(['(', '（']).trim_end();
    // (a CJK clause ending in 、 or ： is the head its details join later;
    // an order ending in a colon is no label: "Set the timeout to 30s:",
    // "Let's go with option B:")
    if own.is_ascii() && own.ends_with(':') && !orders(own) {
        return true;
    }
    // (one that was given its subject answers it: "After the board
    // meeting (When should the announcement go out…)")
    if subject.is_some() {
        return false;
    }
    let l = own.to_lowercase();
    let mut ws = l
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()));
    let first = ws.next().unwrap_or("");
    // (not "after", "before", "from": "After the board meeting.", "From
    // now on every hotfix needs a second reviewer." decide)
    const PREPOSITIONS: &[&str] = &["to", "into", "above", "below", "than", "because"];
    PREPOSITIONS.contains(&first) && !ws.any(|w| words("imperative_verbs").contains(&w))
}

/// The versions a text gives a name: "clap 4.5" → ("clap", "4.5").
fn named_versions(text: &str) -> Vec<(String, String)> {
    static NAMED_VERSION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:^|[^\w.-])([A-Za-z][\w-]*[A-Za-z])[ @]v?(\d+\.\d+(?:\.\d+)*)(?-u:\b)")
            .unwrap()
    });
    NAMED_VERSION
        .captures_iter(text)
        .map(|c| (c[1].to_lowercase(), c[2].to_owned()))
        .collect()
}

/// `decisions` (oldest first) as at most `max` entries: while there are
/// too many, the oldest entry takes in the one after it, so the newest
/// decisions keep an entry each.
fn pack_decisions(decisions: &[String], max: usize) -> Vec<String> {
    let mut entries: Vec<String> = decisions.to_vec();
    let mut at = 0;
    while entries.len() > max {
        if at + 1 >= entries.len() {
            at = 0;
        }
        let next = entries.remove(at + 1);
        entries[at].push(DECISION_JOINT);
        entries[at].push_str(&next);
        at += 1;
    }
    entries
}

/// The decisions one entry holds (see `pack_decisions`): a joint followed
/// by a polarity prefix starts the next one.
fn unpack_decision(entry: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut rest = entry;
    loop {
        let next = rest.char_indices().find(|&(i, c)| {
            c == DECISION_JOINT && {
                let after = &rest[i + c.len_utf8()..];
                after.starts_with("要：") || after.starts_with("不要：")
            }
        });
        match next {
            Some((i, c)) => {
                parts.push(rest[..i].to_owned());
                rest = &rest[i + c.len_utf8()..];
            }
            None => {
                parts.push(rest.to_owned());
                return parts;
            }
        }
    }
}

/// A context item as the subject of a decision: the item itself (an
/// option, a question, the sentence a proposal rests on), without its
/// option label and question mark, clipped.
fn subject_phrase(item: &str) -> String {
    let text = match option_label_of_item(item) {
        Some(_) => item.split_once(") ").map_or(item, |x| x.1),
        None => item,
    };
    clip(text.trim_end_matches(['?', '？', '.', '。']), SUBJECT_BYTES)
}

/// Ordinal words and numerals with the option label they name.
const ORDINALS: [(&str, &str); 9] = [
    ("first", "1"),
    ("second", "2"),
    ("third", "3"),
    ("fourth", "4"),
    ("一", "1"),
    ("二", "2"),
    ("三", "3"),
    ("四", "4"),
    ("五", "5"),
];

/// The label of an option a user picks: "b", "B)", "option 2", "the
/// second", "第二种", "第 2 种", "2 つ目".
fn option_label(s: &str) -> Option<String> {
    let l: String = s
        .trim()
        .to_lowercase()
        .chars()
        .map(|c| circled_digit(c).unwrap_or(c))
        .collect();
    // "就按方案B", "按方案 2 来": the label after 方案
    if let Some(c) = l
        .split_once("方案")
        .and_then(|(_, r)| r.trim_start().chars().next())
        .filter(char::is_ascii_alphanumeric)
    {
        return Some(c.to_string());
    }
    let l = l
        .trim_start_matches("go with ")
        .trim_start_matches("pick ")
        .trim_start_matches("选择")
        .trim_start_matches('选')
        .trim_start()
        .trim_start_matches("option ")
        .trim_start_matches("use ");
    let first = l
        .split([' ', ',', '，', '.', ')', '、'])
        .next()
        .unwrap_or("");
    if first.len() == 1 && first.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Some(first.to_owned());
    }
    // "Bでいこ", "2番で", "A案にします", "3号吧": a lone label the particle
    // after it ends ("2段階" is no label)
    let mut cs = l.chars();
    if let (Some(c), Some(next)) = (cs.next(), cs.next()) {
        if c.is_ascii_alphanumeric() && "で案番がにをのっ、，。吧".contains(next) {
            return Some(c.to_string());
        }
    }
    // ("安いしBでいっか", "近いから2番で": after the reason given for it,
    // when the pick ends the sentence; not "少し2番に寄せたいけど…",
    // "…Cでいっか、いや やっぱBかな")
    for reason in ["いし", "だし", "から", "ので"] {
        if let Some((_, rest)) = l.split_once(reason) {
            let mut cs = rest.chars();
            if let (Some(c), Some(next)) = (cs.next(), cs.next()) {
                let tail: String = cs.collect();
                let tail = tail.trim_end_matches(['。', '！', '!', '.']);
                if c.is_ascii_alphanumeric()
                    && "で案番に".contains(next)
                    && tail.chars().count() <= 5
                    && !tail.ends_with("かな")
                    && !tail.contains(['、', '，', ','])
                {
                    return Some(c.to_string());
                }
            }
        }
    }
    for (w, n) in ORDINALS {
        if l.contains(&format!("第{w}"))
            || l.contains(&format!("方案{w}"))
            || l.starts_with(&format!("the {w}"))
        {
            return Some(n.to_owned());
        }
    }
    let digits: String = l
        .trim_start_matches(['第', '用'])
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    (!digits.is_empty() && (l.contains('第') || l.contains("つ目"))).then_some(digits)
}

/// The options of `focus` a statement picks by label: "option 2", "第二种",
/// "2 つ目", or in a short statement a lone letter or digit ("Go with B",
/// "Do 1 and 2", "b, with the marker").
fn option_refs<'a>(body: &str, focus: &'a [String]) -> Vec<&'a String> {
    let options: Vec<(&String, String)> = focus
        .iter()
        .filter_map(|o| option_label_of_item(o).map(|l| (o, l)))
        .collect();
    if options.is_empty() {
        return Vec::new();
    }
    let l = body.to_lowercase();
    let mut labels: Vec<String> = Vec::new();
    if let Some(one) = option_label(&l) {
        labels.push(one);
    }
    // lone letters and digits count in short Latin statements only ("2段階"
    // or "4 月" are no labels)
    let short = l.split_whitespace().count() <= 6 && !l.chars().any(is_cjk);
    let tokens: Vec<&str> = l
        .split(|c: char| c.is_whitespace() || ",.;:()".contains(c))
        .filter(|t| !t.is_empty())
        .collect();
    for (i, t) in tokens.iter().enumerate() {
        let after_option = i > 0 && tokens[i - 1] == "option";
        let lone = t.len() == 1 && t.chars().all(|c| c.is_ascii_alphanumeric());
        if lone && (short || after_option) && !labels.iter().any(|x| x == t) {
            labels.push((*t).to_owned());
        }
    }
    options
        .into_iter()
        .filter(|(_, ol)| labels.contains(ol))
        .map(|(o, _)| o)
        .collect()
}

/// The one option of `options` a sentence names by a lone label ("2 が安全
/// だと思います", "I'd take B, since …"): a letter or digit standing alone,
/// not part of a number, a version or a name.
fn named_option<'a>(body: &str, options: &'a [String]) -> Option<&'a String> {
    let labels: Vec<String> = body
        .split(|c: char| !(c.is_ascii_alphanumeric() || "._-:/%".contains(c)))
        // ("option 1: it removes …": a colon after the label ends it)
        .map(|t| t.trim_end_matches(':'))
        .filter(|t| t.len() == 1 && t.chars().all(|c| c.is_ascii_alphanumeric()))
        .map(str::to_lowercase)
        .collect();
    let named: Vec<&String> = options
        .iter()
        .filter(|o| option_label_of_item(o).is_some_and(|l| labels.contains(&l)))
        .collect();
    match named.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// The user passes on an answer someone gave ("Priya says …", "県から返事
/// 来た"): a report of one, not a question, and not word that none has come
/// yet ("asked the vendor, no reply yet").
fn passes_on_answer(s: &str) -> bool {
    let l = s.to_lowercase();
    !classify::is_question(s)
        && classify::has_any(&l, words("answer_reports"))
        && !classify::has_any(&l, words("no_answer_yet"))
}

/// The person the user reports having talked to ("I have spoken with Dr.
/// Patel", "田中さんと話してきた", "表姐回我了"), lower-cased; none when the
/// talk has not happened or brought no answer yet ("I haven't talked to
/// Dana yet", "部長と話したい", "山田さんに確認しましたが、まだ分からない").
/// Talking to someone answers only what waited for them, so the caller
/// closes the questions that name them.
fn talked_to(s: &str) -> Option<String> {
    static EN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?i)\b(?:spoke|spoken|talked|checked|heard)\s+(?:with|to|from)\s+",
            r"(?:the\s+|our\s+|my\s+)?(?:(?:dr|mr|mrs|ms|prof)\.?\s+)?([a-z][\w'-]+)"
        ))
        .unwrap()
    });
    static JA: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"([^\s、。，,！!？?]{1,12}?)(?:さん|様|部長|課長|先生|くん|ちゃん)?",
            r"(?:と話(?:してきた|してきました|しました|せた)|に確認(?:しました|してきた))"
        ))
        .unwrap()
    });
    static ZH: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(\p{Han}{1,6}?)(?:回我了|回复我了)").unwrap());
    let l = s.to_lowercase();
    // (the sentence is scanned for "not yet" only once a talk is found)
    let person = [&EN, &JA, &ZH]
        .iter()
        .find_map(|re| re.captures(&l)?.get(1).map(|m| m.as_str().to_owned()))?;
    let not_yet = classify::has_any(&l, words("no_answer_yet"))
        || ["haven't", "have not", "hasn't", "has not", " yet", "まだ"]
            .iter()
            .any(|w| l.contains(w));
    if not_yet || classify::is_question(s) {
        return None;
    }
    // (the particle before a Japanese name is not part of it: "の田中";
    // "talked to them" names nobody)
    let person = person.trim_start_matches(is_hiragana).to_owned();
    let pronoun = words("pronouns").contains(&person.as_str())
        || ["him", "her", "you", "everyone"].contains(&person.as_str());
    (person.chars().count() >= 2 && !pronoun).then_some(person)
}

/// The label of an option as stored in the focus ("b) Last write wins…").
fn option_label_of_item(item: &str) -> Option<String> {
    let (label, _) = item.split_once(") ")?;
    (label.len() <= 2 && label.chars().all(|c| c.is_ascii_alphanumeric()))
        .then(|| label.to_lowercase())
}

/// The options a reply enumerates: lines starting with "1.", "2)", "a)",
/// "B." (or in bold), as "label) first sentence".
fn options_in(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut table_labels: Vec<String> = Vec::new();
    let mut in_fence = false;
    // the rows of a table whose first column is headed as a choice's ("",
    // "#", "Option", "案"): a table of data ("| Grade | …", "| Node | …")
    // offers nothing
    let mut choice_table = false;
    // (the first cell of the row before: the header, at the row of dashes)
    let mut first_cell = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        // "| B | Saffron & Sage | $112 |": a table row whose first cell is
        // a label offers the thing its second cell names
        if let Some(row) = t.strip_prefix('|') {
            let cells: Vec<&str> = row
                .split('|')
                .map(|c| c.trim().trim_matches('*').trim())
                .collect();
            if cells.iter().all(|c| c.chars().all(|x| "-: ".contains(x))) {
                choice_table = [
                    "", "#", "no", "no.", "option", "options", "案", "方案", "选项", "番号",
                ]
                .contains(&first_cell.as_str());
                continue;
            }
            first_cell = cells.first().map_or(String::new(), |c| c.to_lowercase());
            // "| | B) Harvest Table | C) Olive & Ember |": options compared
            // side by side, labelled in the header
            let headed: Vec<(String, &str)> = cells
                .iter()
                .filter_map(|c| {
                    let label = option_label_of_item(c).filter(|l| !l.is_empty())?;
                    let name = c.split_once(") ")?.1.trim();
                    (!name.is_empty()).then(|| (format!("{label}) "), name))
                })
                .collect();
            if headed.len() >= 2 {
                for (mark, name) in headed {
                    if !out.iter().any(|o| o.starts_with(&mark)) {
                        out.push(format!("{mark}{}", name.replace("**", "")));
                        table_labels.push(mark);
                    }
                }
                continue;
            }
            if let [label, name, ..] = cells.as_slice() {
                // (a letter or a number: "OS" or "DB" in a first column
                // is a row's name)
                let is_label = label.len() == 1 && label.chars().all(|c| c.is_ascii_alphanumeric())
                    || label.len() == 2 && label.chars().all(|c| c.is_ascii_digit());
                let mark = format!("{}) ", label.to_lowercase());
                // (an option a list already gave keeps its words)
                let known = out.iter().any(|o| o.starts_with(&mark));
                if choice_table && is_label && !known && !name.is_empty() {
                    out.push(format!("{mark}{}", name.replace("**", "")));
                    table_labels.push(mark);
                }
            }
            continue;
        }
        choice_table = false;
        let t = t.trim_start_matches("- ");
        // "- **B.** As A, plus …", "**2)** …": a label set in bold with its
        // mark inside the bold
        let bold_label;
        let t = match t.strip_prefix("**").and_then(|r| r.split_once("**")) {
            Some((inner, rest)) => {
                let label = inner.trim_end_matches(['.', ')', ':', '：', '）']);
                let is_label = (1..=2).contains(&label.len())
                    && label.chars().all(|c| c.is_ascii_alphanumeric());
                let marked = label.len() < inner.len();
                if is_label && marked && !rest.trim().is_empty() {
                    bold_label = format!("{label}) {}", rest.trim());
                    bold_label.as_str()
                } else if is_label && !marked {
                    // ("- **A** 15 per bag": a bare label in bold is read
                    // below by its bold)
                    t
                } else {
                    // ("- **A. `Idempotency-Key` ヘッダ**：…", "- **案B**: …":
                    // the bold runs past the label)
                    t.trim_start_matches("**")
                }
            }
            None => t.trim_start_matches("**"),
        };
        // "方案二：400 dpi 彩色", "Option B: …", "案1：…": a named option
        if let Some((label, rest)) = named_option_line(t) {
            out.push(format!("{label}) {rest}"));
            continue;
        }
        // "① 既製ブースをレンタル": a circled numeral
        if let Some(n) = t.chars().next().and_then(circled_digit) {
            let rest = t[t.chars().next().map_or(0, char::len_utf8)..].trim();
            if let Some(first) = sentences(rest).into_iter().next() {
                out.push(format!("{n}) {}", first.text.replace("**", "")));
            }
            continue;
        }
        // "(a) adaptive clearing", "1）周六去", "A: adaptive clearing": the
        // same label marked another way
        let owned;
        let t = {
            let inner = t.strip_prefix("**").unwrap_or(t);
            let inner = inner
                .strip_prefix('(')
                .or_else(|| inner.strip_prefix('（'))
                .unwrap_or(inner);
            let label: String = inner
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let after = &inner[label.len()..];
            // ("- **A** 每袋 15 元": a label set in bold is marked by the
            // bold alone)
            let bold = t.starts_with("**") && after.starts_with("**");
            let after = if bold { &after[2..] } else { after };
            let marked = ["）", ") ", ")", ": ", "："]
                .iter()
                .find_map(|m| after.strip_prefix(m))
                .or_else(|| after.strip_prefix(' ').filter(|_| bold));
            match marked {
                Some(rest) if (1..=2).contains(&label.len()) && !rest.trim().is_empty() => {
                    owned = format!("{label}) {}", rest.trim());
                    owned.as_str()
                }
                _ => t,
            }
        };
        let label: String = t
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if label.is_empty()
            || label.len() > 2
            || label.len() == 2 && !label.chars().all(|c| c.is_ascii_digit())
        {
            continue;
        }
        let rest = &t[label.len()..];
        // ("2. 24.04 の新しい AMI": after the mark and a space a number may
        // start the text; "1.5" is no label)
        let Some(rest) = rest
            .strip_prefix(". ")
            .or_else(|| rest.strip_prefix(") "))
            .or_else(|| {
                rest.strip_prefix(".")
                    .filter(|r| !r.starts_with(|c: char| c.is_ascii_digit()))
            })
            .filter(|r| !r.is_empty())
        else {
            continue;
        };
        let rest = rest.trim().trim_start_matches("**");
        let first = sentences(rest)
            .into_iter()
            .next()
            .map(|s| s.text)
            .unwrap_or_default();
        let first = first.replace("**", "");
        if !first.is_empty() {
            // (a list after a table that comments on its rows by their
            // labels: the row names the option)
            let mark = format!("{}) ", label.to_lowercase());
            if !table_labels.contains(&mark) {
                out.push(format!("{mark}{first}"));
            }
        }
    }
    if out.len() < 2 {
        return Vec::new();
    }
    out
}

/// ① → 1, up to ⑨.
fn circled_digit(c: char) -> Option<char> {
    let n = (c as u32).checked_sub('①' as u32)?;
    (n < 9).then(|| char::from_digit(n + 1, 10)).flatten()
}

/// "方案二：400 dpi 彩色" → ("2", "400 dpi 彩色"); "Option B: …" → ("b", …).
fn named_option_line(t: &str) -> Option<(String, String)> {
    let rest = ["方案", "选项", "案", "option ", "Option "]
        .iter()
        .find_map(|p| t.strip_prefix(p))?;
    let mut cs = rest.chars();
    let c = cs.next()?;
    let label = if c.is_ascii_alphanumeric() {
        c.to_ascii_lowercase().to_string()
    } else {
        let numeral = ORDINALS.iter().find(|(w, _)| w.chars().eq([c]))?;
        numeral.1.to_owned()
    };
    // ("**方案一**：…", "**Option A — adaptive clearing**: faster")
    let after = cs.as_str().trim_start_matches("**");
    let text = after
        .strip_prefix('：')
        .or_else(|| after.strip_prefix(": "))
        .or_else(|| after.strip_prefix(':'))
        .or_else(|| after.strip_prefix(" — "))
        .or_else(|| after.strip_prefix(" – "))
        .or_else(|| after.strip_prefix(" - "))?
        .trim();
    let first = sentences(text).into_iter().next().map(|s| s.text)?;
    (!first.is_empty()).then(|| (label, first.replace("**", "")))
}

/// `old` without the one part (a clause, or a detail after "; ") that `d`
/// revisits, and that part: the part holding a value of the kind `d` sets,
/// or, when `d` reconsiders `old` ("actually keep the take-home for …"),
/// the part naming its subject. None when that is not exactly one part,
/// or when the rest decides nothing on its own.
fn without_revisited_part(old: &str, d: &Decision, reconsidered: bool) -> Option<(String, String)> {
    let (polarity, body) = polarity_and_body(old);
    let japanese = body.chars().any(is_kana);
    let mut parts: Vec<&str> = Vec::new();
    let mut start = 0;
    for (i, c) in body.char_indices() {
        let sep = match c {
            '，' | '；' => true,
            '、' => japanese,
            ';' | ',' => body[i + 1..].starts_with(' '),
            _ => false,
        };
        // never inside a code span or parentheses
        let open = body[..i].matches('`').count() % 2 == 1
            || body[..i].matches(['(', '（']).count() > body[..i].matches([')', '）']).count();
        if sep && !open {
            parts.push(&body[start..i + c.len_utf8()]);
            start = i + c.len_utf8();
        }
    }
    parts.push(&body[start..]);
    if parts.len() < 2 {
        return None;
    }
    let kinds: Vec<&str> = quantities(&d.body).iter().map(|q| q.kind).collect();
    let head = head_terms(&d.body);
    let mut revisited: Vec<usize> = (0..parts.len())
        .filter(|&k| {
            quantities(parts[k]).iter().any(|q| kinds.contains(&q.kind))
                || reconsidered
                    && !head.is_empty()
                    && head.iter().all(|h| terms(parts[k]).contains(h))
        })
        .collect();
    // "本地留 7 天，90 天的放对象存储" … "本地还是留 14 天吧": of the parts
    // with a value of that kind, the one naming the same subject
    if revisited.len() > 1 {
        let named: Vec<usize> = revisited
            .iter()
            .copied()
            .filter(|&k| shared(&terms(parts[k]), &head) > 0)
            .collect();
        // … or the one holding the old value it quotes ("replicas 12 还是
        // 多了" of "max.poll.records 就 100，实例先扩到 12")
        let quoted: Vec<usize> = revisited
            .iter()
            .copied()
            .filter(|&k| {
                old_values(&d.body)
                    .iter()
                    .any(|n| contains_value(parts[k], n))
            })
            .collect();
        // … or the one filling the slot it names ("超时上限就定 50 秒" of
        // "跑完大概 40 秒，超时上限就定 50 秒" … "上限提到 90 秒")
        let new_slots = value_slots(&d.body);
        let slotted: Vec<usize> = revisited
            .iter()
            .copied()
            .filter(|&k| {
                value_slots(parts[k]).iter().any(|o| {
                    new_slots
                        .iter()
                        .any(|n| n.unit == o.unit && same_slot(n, o))
                })
            })
            .collect();
        if slotted.len() == 1 {
            revisited = slotted;
        } else if named.len() == 1 {
            revisited = named;
        } else if quoted.len() == 1 {
            revisited = quoted;
        }
    }
    // a "don't" of what the first part chose takes its details with it
    // ("じゃそれで（Colima…），vz 付きで" … "Colima やめよ")
    if d.polarity == Polarity::DontWant && revisited.first() == Some(&0) {
        return None;
    }
    match revisited.as_slice() {
        [k] => {
            let mut rest: String = parts
                .iter()
                .enumerate()
                .filter(|(i, _)| i != k)
                .map(|(_, p)| *p)
                .collect();
            rest = rest
                .trim()
                .trim_end_matches([',', '，', ';', '；', '、'])
                .trim_end()
                .to_owned();
            // what is left must still decide something ("我想了一下，" is not)
            let part = parts[*k]
                .trim()
                .trim_end_matches([',', '，', ';', '；', '、'])
                .trim_end()
                .to_owned();
            // (an adopted proposal need not read as an instruction: "まずは
            // この Redis に商品詳細を JSON で入れて")
            // ("max.poll.records 就 100": a named setting and its value)
            // ("試験するページ数ですが" is only the topic the part was about)
            let topic_only = ["ですが", "が", "は", "けど", "ので", "的话"]
                .iter()
                .any(|e| rest.ends_with(e));
            let decides = !topic_only
                && (!classify::decisions_in(&rest).is_empty()
                    || terms(&rest).len() >= 3
                    // ("90 天的放对象存储": a value and where it goes)
                    || terms(&rest).len() >= 2 && !quantities(&rest).is_empty()
                    || !subject::identifiers(&rest).is_empty() && !quantities(&rest).is_empty());
            (decides && !needs_subject(&rest))
                .then(|| (format!("{}{rest}", polarity.prefix()), part))
        }
        _ => None,
    }
}

/// The numbers a decision quotes besides the value it sets (its last):
/// "replicas 12 还是多了，…改回 8" quotes 12.
fn old_values(body: &str) -> Vec<&str> {
    let mut n = number_tokens(body);
    n.pop();
    n
}

/// The number at `at` is part of a name ("Route 53", "PostgreSQL 16",
/// "Windows 11"): a capitalised word right before it, not a setting a bare
/// number could change.
fn in_a_name(item: &str, at: usize) -> bool {
    let before = &item[..at];
    let Some(word) = before
        .strip_suffix(' ')
        .and_then(|b| b.split_whitespace().last())
    else {
        return false;
    };
    word.chars().next().is_some_and(char::is_uppercase) && word.chars().all(char::is_alphanumeric)
}

/// The thing `item` puts `verb` on, when it names one: "limit" of "bump
/// the limit", "timer" of "enable the timer"; not "bump it", not a
/// question asking whether to, not what it advises against ("I wouldn't
/// restart the database", "don't drop the table").
fn verb_on_a_thing(item: &str, verb: &str) -> Option<String> {
    if classify::is_question(item) {
        return None;
    }
    let ws: Vec<String> = item
        .split(|c: char| !c.is_alphanumeric() && !"'’-_.`".contains(c))
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_matches(['`', '.']).to_lowercase().replace('’', "'"))
        .collect();
    let negated = |before: &[String]| {
        before
            .iter()
            .any(|w| w.ends_with("n't") || ["not", "never", "avoid", "no"].contains(&w.as_str()))
    };
    (0..ws.len().saturating_sub(2)).find_map(|i| {
        let w = &ws[i..i + 3];
        let object = if words("articles").contains(&w[1].as_str()) {
            &w[2]
        } else {
            &w[1]
        };
        (is_form_of(&w[0], verb)
            && !negated(&ws[..i])
            && !words("pronouns").contains(&object.as_str())
            && !words("articles").contains(&object.as_str())
            && !words("link_words").contains(&object.as_str())
            && object.chars().any(char::is_alphabetic))
        .then(|| object.clone())
    })
}

/// "assign them", "ping her": a short instruction whose object is a
/// pronoun.
fn pronoun_object(body: &str) -> bool {
    let ws: Vec<String> = body.split_whitespace().map(|w| w.to_lowercase()).collect();
    ws.len() <= 3
        && ws
            .get(1)
            .is_some_and(|w| ["it", "them", "him", "her", "those"].contains(&w.as_str()))
}

/// A question that asks for information by a question word ("what",
/// "which", "when"), not whether to do something.
/// A question asking which course to take ("Which region?", "What
/// retention should we use?", "Who owns the runbooks?"), not how things are
/// ("What is the current p99 latency?", "Who wrote the auth module?").
fn asks_for_a_choice(q: &str) -> bool {
    let l = classify::strip_fillers(q).to_lowercase();
    let ws: Vec<&str> = l
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    // (the verb after the question word says which: "what is", "who
    // wrote", "what caused" ask how things are)
    let verb = ws.get(1).copied().unwrap_or("");
    if ws.first() == Some(&"which") {
        return true;
    }
    let state = [
        "is", "are", "was", "were", "did", "does", "do", "has", "have", "had", "wrote", "broke",
        "went", "took", "made", "happened", "'s",
    ];
    let asks_state = state.contains(&verb) && !l.contains("should") && !l.contains(" we ");
    let past = verb.len() > 4 && verb.ends_with("ed");
    !asks_state && !past
}

/// A statement that says what is not, or what was ("not on RDS yet", "Dana
/// left in 2023", "were last updated"): a report, not a choice.
fn says_not_or_was(s: &str) -> bool {
    let l = s.to_lowercase();
    let l = classify::NO_IDIOMS.iter().fold(l, |l, w| l.replace(w, ""));
    [
        "not",
        "no",
        "never",
        "isn't",
        "aren't",
        "wasn't",
        "don't",
        "doesn't",
        "didn't",
        "was",
        "were",
        "did",
        "left",
        "according",
        "yet",
    ]
    .iter()
    .any(|w| classify::has(&l, w))
}

/// The items of a past discussion's direction: what it opens with, then
/// each "Open: …", "要：…" and "不要：…" up to the next.
fn direction_items(direction: &str) -> Vec<&str> {
    let marks = |at: usize| {
        let rest = &direction[at..];
        rest.starts_with(OPEN_LABEL) || rest.starts_with("要：") || rest.starts_with("不要：")
    };
    let mut starts: Vec<usize> = direction
        .char_indices()
        .map(|(i, _)| i)
        .filter(|&i| marks(i) && (i == 0 || direction[..i].ends_with(' ')))
        .collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    starts.push(direction.len());
    starts
        .windows(2)
        .map(|w| direction[w[0]..w[1]].trim())
        .filter(|item| !item.is_empty())
        .collect()
}

/// A past discussion's direction without the "Open: " items `keep` rejects.
fn retain_open(direction: &str, keep: impl Fn(&str) -> bool) -> String {
    direction_items(direction)
        .into_iter()
        .filter(|item| item.strip_prefix(OPEN_LABEL).is_none_or(&keep))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `reply` opens with the yes or the no of a "A 不 A" question in
/// `q` ("会不会" → "会" / "不会", "要不要" → "要" / "不要" / "不用"), its
/// own clause ("不会，…", "要的。"), not a verb phrase ("不会用").
fn answers_a_not_a(q: &str, reply: &str) -> bool {
    const FORMS: &[(&str, &[&str])] = &[
        ("会不会", &["会", "不会"]),
        ("要不要", &["要", "不要", "不用", "不需要", "需要"]),
        ("是不是", &["是", "不是"]),
        ("能不能", &["能", "不能", "可以", "不行"]),
        ("可不可以", &["可以", "不可以", "不行"]),
        ("有没有", &["有", "没有"]),
        ("用不用", &["用", "不用"]),
        ("需不需要", &["需要", "不需要", "不用"]),
    ];
    let r = reply.trim_start();
    FORMS
        .iter()
        .filter(|(form, _)| q.contains(form))
        .any(|(_, answers)| {
            answers.iter().any(|a| {
                r.strip_prefix(a).is_some_and(|rest| {
                    rest.starts_with(['，', '。', '！', ',', '!', '.'])
                        || rest.starts_with("的")
                            && rest["的".len()..].starts_with(['，', '。', '！'])
                })
            })
        })
}

fn asks_what(q: &str) -> bool {
    let l = classify::strip_fillers(q).to_lowercase();
    words("question_words")
        .iter()
        .any(|w| classify::starts_with_word(&l, w) || !w.is_ascii() && l.contains(w))
}

/// A question that floats a course of action rather than asking for
/// information ("how about X?", "X に変えるのは？", "改成 X 怎么样？").
/// A clipped sentence that opens like a question: a question word, or an
/// auxiliary asking whether ("Do we…", "Should the…", "要不要…").
fn asks_or_offers(t: &str) -> bool {
    let l = t.to_lowercase();
    let first = l.split_whitespace().next().unwrap_or("");
    asks_what(t)
        || [
            "do", "does", "did", "should", "shall", "can", "could", "would", "will", "is", "are",
            "was", "were", "have", "has",
        ]
        .contains(&first)
        || ["要不要", "是否", "能不能", "可不可以"]
            .iter()
            .any(|w| t.contains(w))
}

fn floats_a_course(q: &str) -> bool {
    let t = q.trim().trim_end_matches(['?', '？']).trim_end();
    let l = t.to_lowercase();
    classify::is_question(q)
        && (classify::has_any(&l, words("user_proposal"))
            || ["のは", "のはどう", "怎么样", "如何", "行不行", "可以吗"]
                .iter()
                .any(|e| t.ends_with(e)))
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
    let (polarity, body) = polarity_and_whole_body(line);
    (polarity, split_echo(body).0)
}

/// The verb of a Chinese yes/no question ("token 要缓存吗", "IE11 还支持吗")
/// that `answer` negates ("不缓存", "IE11 不支持了"): two CJK characters
/// after 不/别/没 in the answer that the question holds.
fn negated_verb(question: &str, answer: &str) -> Option<String> {
    let q = question.trim_end_matches(['?', '？']).trim_end();
    let yes_no = q.ends_with('吗') || q.contains("要不要") || q.contains("是否");
    if !yes_no || answer.chars().count() > 12 {
        return None;
    }
    // (never "不过", "不是", "不一定", "不用改": a verb of the question's own,
    // right after the negation, with at most the question's subject or a
    // hedge before; and not a judgment of not doing it, "不加监控肯定不行",
    // nor a report, "没上传过")
    const HEDGES: [&str; 8] = ["我觉得", "我看", "还是", "那就", "就", "先", "暂时", "目前"];
    const JUDGED: [&str; 9] = [
        "肯定", "会", "就", "的话", "麻烦", "不行", "不好", "过", "吗",
    ];
    ["不", "别", "没"].iter().find_map(|neg| {
        let (before, after) = answer.split_once(neg)?;
        let before = before.trim();
        if !before.is_empty() && !question.contains(before) && !HEDGES.contains(&before) {
            return None;
        }
        // (the clause the "no" is in: "不重构，上线会有风险" gives its reason
        // after the comma)
        let after = after.split(['，', ',', '。']).next().unwrap_or("");
        let verb: String = after
            .chars()
            .take_while(|&c| is_cjk(c) && !is_kana(c))
            .take(2)
            .collect();
        // ("不加": a verb of one character, alone in its clause)
        let verb = if verb.chars().count() == 2 && !question.contains(&verb) {
            verb.chars().take(1).collect::<String>()
        } else {
            verb
        };
        let rest = after.get(verb.len()..).unwrap_or("");
        let aux = verb.starts_with([
            '是', '过', '错', '会', '能', '用', '要', '定', '行', '好', '对', '知', '一',
        ]);
        let whole = verb.chars().count() == 2 || rest.trim().is_empty();
        (!verb.is_empty()
            && whole
            && !aux
            && question.contains(&verb)
            && !JUDGED.iter().any(|w| rest.contains(w)))
        .then_some(verb)
    })
}

/// `body` with "A or B" narrowed to the one alternative `said` names
/// alone ("Plunge at 100 or 50" and "50 then" → "Plunge at 50"; "Export
/// as DXF or SVG" and "svg" → "Export as SVG").
fn narrowed_alternatives(body: &str, said: &str) -> Option<String> {
    static OR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)([\w.%/$-]+(?:\s[\w.%/$-]+)?)\s+or\s+([\w.%/$-]+(?:\s[\w.%/$-]+)?)")
            .unwrap()
    });
    if said.split_whitespace().count() > 4 || said == body {
        return None;
    }
    let said_words: Vec<String> = said
        .split(|c: char| c.is_whitespace() || ",.!;".contains(c))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let c = OR.captures(body)?;
    let last_word = |t: &str| t.split_whitespace().last().unwrap_or("").to_lowercase();
    let first_word = |t: &str| t.split_whitespace().next().unwrap_or("").to_lowercase();
    let (a, b) = (c.get(1)?, c.get(2)?);
    let names = |m: &regex::Match| {
        said_words.contains(&last_word(m.as_str())) || said_words.contains(&first_word(m.as_str()))
    };
    // ("at 100 or 50": the link word before the first stays)
    let link = a
        .as_str()
        .split_once(' ')
        .filter(|(w, _)| words("link_words").contains(&w.to_lowercase().as_str()))
        .map_or(String::new(), |(w, _)| format!("{w} "));
    let kept = match (names(&a), names(&b)) {
        (true, false) => a.as_str().to_owned(),
        (false, true) if b.as_str().contains(' ') => b.as_str().to_owned(),
        (false, true) => format!("{link}{}", b.as_str()),
        _ => return None,
    };
    // (only the words the two alternatives do not share: "100 or 50" of
    // "Plunge at 100 or 50")
    let whole = c.get(0)?;
    Some(format!(
        "{}{}{}",
        &body[..whole.start()],
        kept,
        &body[whole.end()..]
    ))
}

/// The polarity of a decision line and all its body, restatement included.
fn polarity_and_whole_body(line: &str) -> (Polarity, &str) {
    match line.strip_prefix(Polarity::DontWant.prefix()) {
        Some(b) => (Polarity::DontWant, b),
        None => (
            Polarity::Want,
            line.strip_prefix(Polarity::Want.prefix()).unwrap_or(line),
        ),
    }
}

/// A decision body as the user said it, and the reply's restatement after
/// (`echoed`): what later decisions are matched against, so that the
/// reply's words neither make it look like another subject nor make it
/// share one it does not have.
fn split_echo(body: &str) -> (&str, &str) {
    ECHO_MARKS
        .iter()
        .filter_map(|m| body.find(m))
        .min()
        .map_or((body, ""), |i| body.split_at(i))
}

/// Does the new decision replace an older one? The same statement; one
/// that names the old value it changes ("not 5", "10 s → 30 s"); or one on
/// the same subject: their heads (the object or topic, see
/// `subject::head_terms`) share a term. Two decisions that only share some
/// other word ("本番", "1.28", "lock") are about different things and both
/// stay.
/// A sentence that accepts what it names: "The 60 and 30 minute slots are
/// fine", "14 日で結構です", "30 分钟可以".
static ACCEPTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(?:is|are|sounds?|seems?|looks?)\s+(?:both\s+)?(?:fine|ok|okay|good|right|correct|acceptable)\b",
        r"|\b(?:works|agreed|approved)\b",
        r"|(?:で|は)(?:結構です|大丈夫です|問題(?:ありません|ございません))",
        r"|可以[。！!吧]?$"
    ))
    .unwrap()
});

/// The line `lines` holds when it holds exactly one: a name two lines
/// answer to picks neither.
fn only_one<'a>(mut lines: impl Iterator<Item = &'a String>) -> Option<String> {
    match (lines.next(), lines.next()) {
        (Some(one), None) => Some(one.clone()),
        _ => None,
    }
}

/// Whether `body` already names `subject` (a CJK one by its characters:
/// "上限" in "上限 5 件太少，改成 8 件").
fn names_already(body: &str, subject: &str) -> bool {
    shared(&terms(subject), &terms(body)) > 0
        || subject.chars().any(is_cjk) && body.contains(subject.trim())
}

/// What a decision line's value is for: its trailing subject, or the
/// phrase before its first value ("mobile release" of "Ship the mobile
/// release on March 3").
fn value_subject(body: &str) -> Option<String> {
    subject::trailing_subject(body)
        .map(|s| s.trim_end_matches([')', '）']).to_owned())
        .or_else(|| {
            quantities(body)
                .first()
                .and_then(|q| subject_before(body, q.start))
        })
}

/// Whether the decision line `old` set the value a change names as the
/// old one: it holds that value, once or twice, and not the new one; what
/// the value was said of, if anything, is what the line names ("误报率从
/// 30% 降到 5%" is not "灰度比例定 30%"), and so is what the change names
/// ("for the load test make it 3/12" is not of "cut the branch on 3/14"). A
/// bare number or count said of nothing ("we tried 4 tools, make it 6")
/// may be anything's.
fn set_the_value(c: &classify::ValueChange, old: &str) -> bool {
    let body = split_echo(polarity_and_body(old).1).0;
    let names = |s: &str| names_already(body, s);
    let said_of_it = match c.subject.as_deref() {
        Some(s) => names(s),
        None => !c.bare,
    };
    let of_its_kind = quantities(subject::without_trailing_subject(body))
        .iter()
        .filter(|q| q.kind == c.kind)
        .count();
    said_of_it
        && c.names.as_deref().is_none_or(names)
        && (1..=2).contains(&of_its_kind)
        && contains_value(body, &c.was)
        && !contains_value(body, &c.now)
}

fn replaces(d: &Decision, old: &str) -> bool {
    let (old_polarity, body) = polarity_and_body(old);
    if body.to_lowercase() == d.body.to_lowercase() {
        return true;
    }
    // "社内Wiki: Confluence" … "社内Wiki: なし": the verdict on the same item
    // of a recap, given again, is the one that stands
    let item = |b: &str| {
        item_and_verdict(b)
            .map(|(i, _)| i.trim().to_lowercase())
            .filter(|i| !i.is_empty() && i.chars().count() <= 40)
    };
    let own_item = item(&d.body);
    if d.lead.is_some() && own_item.is_some() && own_item == item(body) {
        return true;
    }
    // (a slot holds a value or two of its kind, not a schedule: "间隔 1
    // 秒、2 秒、4 秒、8 秒" is one, and "8 秒太长了，调成 3 秒" is about
    // another timeout)
    let one_of_its_kind = |v: &str| {
        let kind = quantities(v).first().map(|q| q.kind);
        kind.is_none_or(|k| {
            quantities(subject::without_trailing_subject(body))
                .iter()
                .filter(|q| q.kind == k)
                .count()
                <= 2
        })
    };
    if d.old_value
        .as_deref()
        .is_some_and(|v| contains_value(body, v) && one_of_its_kind(v))
    {
        return true;
    }
    // "Use JSON for the export" … "Switch the export to CSV": another value
    // for the slot a choice filled
    if let (Some((new_slot, new_value)), Some((old_slot, old_value))) =
        (subject::choice_slot(&d.body), subject::choice_slot(body))
    {
        // (the same slot, word for word: "the read timeout" is not "the
        // connect timeout", nor "user data backups" "the user data")
        let within = |a: &[String], b: &[String]| a.iter().all(|t| b.contains(t));
        // (after a word of reconsidering, one naming no more than the other:
        // "Memcached is enough for sessions" of "the session cache")
        // ("the export format" is "the export"; "the session cache" is
        // "sessions": what one adds is only a word for a setting or a store,
        // not "retention", "backups", "text")
        const GENERIC: [&str; 12] = [
            "format", "type", "kind", "mode", "option", "setting", "cache", "store", "storage",
            "backend", "layer", "engine",
        ];
        let adds_generic = |a: &[String], b: &[String]| {
            within(a, b)
                && b.iter()
                    .filter(|t| !a.contains(t))
                    .all(|t| GENERIC.contains(&t.as_str()))
        };
        let same_slot = adds_generic(&new_slot, &old_slot) || adds_generic(&old_slot, &new_slot);
        if same_slot && !new_value.iter().any(|t| old_value.contains(t)) {
            return true;
        }
    }
    // "先ほどの「毎日配送のまま」という方針は撤回", "scrap the "weekly digest"
    // idea": a "don't" that quotes the words of an earlier "do" takes it back
    if d.polarity == Polarity::DontWant && old_polarity == Polarity::Want {
        static QUOTED: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(r#"[「『“"]([^」』”"]{3,60})[」』”"]"#).unwrap());
        // (with a word of taking back: "in the email, don't say "Start free
        // trial"" is a rule for another place, not a retraction of the
        // button label)
        let said = if d.said.is_empty() { &d.body } else { &d.said };
        let l = said.to_lowercase();
        let takes_back = classify::removes(&l)
            || classify::has_any(&l, words("reconsider_cues"))
            || [
                "撤回",
                "取り消",
                "先ほど",
                "さっき",
                "刚才",
                "之前",
                "earlier",
                "idea",
                "plan",
                "withdraw",
                "retract",
            ]
            .iter()
            .any(|w| l.contains(w));
        let old_text = split_echo(body).0.to_lowercase();
        if takes_back
            && QUOTED
                .captures_iter(&l)
                .any(|c| old_text.contains(c[1].trim()))
        {
            return true;
        }
    }
    // "かき氷は1杯200円にしとく" … "かき氷やっぱ300円にしよ": the same
    // topic, another amount of the same unit
    if d.polarity == old_polarity && same_topic_new_amount(&d.body, split_echo(body).0) {
        return true;
    }
    // "…かき氷300円は高いって言われた" … "250円にする": the sentence it was
    // said after quotes the amount an old decision gave, and it gives
    // another of the same unit
    // (a statement about the old decision's topic: "8点集合的话，早饭几点
    // 吃？" asks about another thing, "ラムネ300円は高い" is about ラムネ)
    let old_topic = cjk_topic(split_echo(body).0);
    if let Some(quoted) = subject::trailing_subject(&d.body).filter(|q| {
        !classify::is_question(q) && old_topic.as_ref().is_some_and(|t| q.contains(t.as_str()))
    }) {
        let own = cjk_amounts(subject::without_trailing_subject(&d.body));
        let olds = cjk_amounts(split_echo(body).0);
        let revisits = cjk_amounts(quoted).iter().any(|(v, unit)| {
            unit.is_some()
                && own.iter().any(|(n, u)| u == unit && n != v)
                && matches!(
                    olds.iter().filter(|(_, u)| u == unit).collect::<Vec<_>>().as_slice(),
                    [(ov, _)] if ov == v
                )
        });
        if revisits && d.polarity == old_polarity {
            return true;
        }
    }
    // "pin clap 4.4.18" after "use clap 4.5 with derive": one name, another
    // version
    let old_versions = named_versions(body);
    if named_versions(&d.body)
        .iter()
        .any(|(name, v)| old_versions.iter().any(|(n, ov)| n == name && ov != v))
    {
        return true;
    }
    // "for reporting-db, forget the replication": scoped to what the old
    // one does not name, it is an exception to it
    if scope_of(d.lead.as_deref()).is_some_and(|l| shared(&terms(&l), &terms(body)) == 0) {
        return false;
    }
    // ("no avif for the hero banners" of "thumbnail format: avif", "no
    // Postgres for the analytics events" of "use Postgres for the order
    // data": a "for" naming what the old one does not is an exception)
    // (not a reason or a time: ", for cost reasons", "for the time being")
    let for_scope = |t: &str| {
        let l = t.to_lowercase();
        l.split_once(" for ")
            .filter(|(before, after)| {
                !before.trim_end().ends_with(',')
                    && ![
                        "the time being",
                        "now",
                        "reason",
                        "the reason",
                        "cost",
                        "performance",
                        "safety",
                        "security",
                        "the lts",
                        "support",
                        "compatibility",
                        "simplicity",
                        "a while",
                        "a bit",
                    ]
                    .iter()
                    .any(|w| after.starts_with(w))
            })
            .map(|(_, r)| terms(r))
            .unwrap_or_default()
    };
    // (not a scope of everything: "binpack for everything", "for now")
    const UNIVERSAL: &[&str] = &[
        "everything",
        "all",
        "anything",
        "everyone",
        "everybody",
        "every",
        "now",
        "good",
        "ever",
        "rest",
        "both",
        "each",
    ];
    let scope = for_scope(split_echo(subject::without_trailing_subject(&d.body)).0);
    if !scope.is_empty()
        && !UNIVERSAL
            .iter()
            .flat_map(|w| terms(w))
            .any(|u| scope.contains(&u))
        && shared(&scope, &terms(split_echo(body).0)) == 0
    {
        return false;
    }
    let generic = |t: &String| words("placeholder_nouns").contains(&t.as_str());
    let new_head: Vec<String> = head_terms(&d.body)
        .into_iter()
        .filter(|t| !generic(t))
        .collect();
    // ("不要：the raffle (do a raffle at the exit)": what a don't took back
    // is no part of its subject; "keep the exit table" is about another
    // thing)
    let old_head_text = if old_polarity == Polarity::DontWant {
        subject::without_trailing_subject(body)
    } else {
        body
    };
    let old_head: Vec<String> = head_terms(old_head_text)
        .into_iter()
        .filter(|t| !generic(t))
        .collect();
    // the same subject: their heads share a term and one names no more
    // than the other ("no backups of the scratch volumes" is an exception
    // to "nightly backups to the eu-west bucket", not its reversal)
    let contains = |head: &[String], text: &str| {
        let t = terms(text);
        head.iter().all(|h| t.contains(h))
    };
    // A CJK head is character pairs, one of which may straddle two words
    // ("假超" of "请假超过" and of "病假超过"): the subjects are the same
    // when the heads open alike
    let cjk = |h: &[String]| h.first().is_some_and(|t| t.chars().any(is_cjk));
    let open_alike = !cjk(&new_head) || !cjk(&old_head) || new_head.first() == old_head.first();
    // ("ゴミ集積所、4台にしたい" … "ゴミのとこは白黒でいいや", "timer: make
    // it the 5th" … "enable the timer": a "do" about the same thing that
    // gives no value of a kind the old "do" gave sets another of its
    // settings. A bare new number may be of the old value's kind
    // ("broadcast 1024 行" … "broadcast 那个容量改成 256"); a value said in
    // words is a value ("Keep logs for 30 days" … "Keep logs forever", "run
    // it right after the deploy"); and a change said anywhere in the
    // sentence or in the one before it still changes: "Scratch that, …",
    // "I changed my mind. …", "Move the backup to …", "試験のページ数について
    // 変更させてください".)
    let value_kinds = |t: &str| -> Vec<&'static str> {
        quantities(subject::without_trailing_subject(t))
            .iter()
            .map(|q| q.kind)
            .filter(|k| !matches!(*k, "version" | "label"))
            .collect()
    };
    // (asked last: most old decisions share no head with the new one)
    let another_setting = || {
        let old_kinds = value_kinds(split_echo(body).0);
        // (the sentence before counts when it only reconsiders, not when
        // it made the old decision with its own word of change: "CPU 1.3
        // 倍有点保守，改成 1.2 吧。CPU limit 不设可以")
        let old_terms = terms(subject::without_trailing_subject(split_echo(body).0));
        let before = d
            .before
            .as_deref()
            .filter(|b| {
                old_terms.is_empty() || shared(&terms(b), &old_terms) * 5 < old_terms.len() * 4
            })
            .unwrap_or("");
        let said = format!(
            "{} {}",
            before,
            if d.said.is_empty() { &d.body } else { &d.said }
        )
        .to_lowercase();
        // (stems, found inside words: "changed", "moved", "修改")
        const CHANGE_STEMS: [&str; 10] = [
            "change", "move", "switch", "instead", "変え", "変更", "ずら", "改", "换", "调整",
        ];
        d.polarity == Polarity::Want
            && old_polarity == Polarity::Want
            && !d.reverses
            && !old_kinds.is_empty()
            && !value_kinds(&d.body)
                .iter()
                .any(|k| *k == "number" || old_kinds.contains(k))
            && !classify::has_any(&said, words("word_values"))
            && !classify::has_any(&said, words("reconsider_cues"))
            && !classify::has_any(&said, words("change_verbs"))
            && !CHANGE_STEMS.iter().any(|w| said.contains(w))
    };
    if shared(&new_head, &old_head) > 0
        && open_alike
        && (contains(&new_head, body) || contains(&old_head, &d.body))
        && !another_setting()
    {
        return true;
    }
    // "no avif" after "format: avif", "不要：mqtt, scrap it" after "the
    // poller publishes to MQTT": a "don't" whose object is a name or two
    // that a short earlier "do" settled on takes it back
    if d.polarity == Polarity::DontWant && old_polarity == Polarity::Want {
        let own = split_echo(subject::without_trailing_subject(&d.body)).0;
        let object = own
            .split([',', ';', '，', '；', '、', '(', '（', ':', '：'])
            .next()
            .unwrap_or("")
            .trim();
        let named: Vec<String> = terms(object).into_iter().filter(|t| !generic(t)).collect();
        let old_own = split_echo(body).0;
        let old_terms = terms(old_own);
        // (a name: written with a capital or a digit somewhere ("MQTT",
        // "Lambda", "R2"), or the value a label set ("format: avif"); not
        // a word like "the cost")
        let written_as_name = |text: &str, t: &str| {
            text.split(|c: char| !c.is_ascii_alphanumeric() && !"-_.".contains(c))
                .any(|w| {
                    w.eq_ignore_ascii_case(t)
                        && w.chars()
                            .any(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
                })
        };
        let a_name = |t: &String| {
            t.is_ascii()
                && t.len() >= 2
                && (written_as_name(old_own, t)
                    || written_as_name(own, t)
                    || old_own
                        .to_lowercase()
                        .split(": ")
                        .skip(1)
                        .any(|v| v.split([' ', ',', ';']).next() == Some(t.as_str())))
        };
        // (not a name only put off: "we'll discuss Kafka later"; not a line
        // of several parts, "Notify on-call via PagerDuty, and post a
        // summary to Slack", where "no Slack" takes back only its part)
        let said = if d.said.is_empty() { &d.body } else { &d.said };
        let deferred = ["later", "next week", "like ", "since ", "after "]
            .iter()
            .any(|w| said.to_lowercase().contains(w));
        if (1..=2).contains(&named.len())
            && !deferred
            && old_terms.len() <= 4
            && named.iter().all(|t| a_name(t) && old_terms.contains(t))
        {
            return true;
        }
    }
    // "drop fork-ts-checker" takes back the decision that added it
    let verb = d
        .body
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_lowercase();
    let removes = words("removal_verbs")
        .iter()
        .any(|v| verb == *v || !v.is_ascii() && d.body.starts_with(v));
    if removes
        && !new_head.is_empty()
        && new_head.iter().all(|t| terms(body).contains(t))
        && new_head
            .iter()
            .any(|t| !t.chars().all(char::is_alphabetic) || t.len() >= 6)
    {
        return true;
    }
    // "drop the 7-day thing on debug": what the verb takes away, every
    // word of it but placeholders, one of them specific, named by the old
    // decision
    let object: Vec<String> = terms(d.body.split_once(' ').map_or("", |x| x.1))
        .into_iter()
        .filter(|t| !generic(t))
        .collect();
    if removes
        && !object.is_empty()
        && object.iter().all(|t| terms(body).contains(t))
        && object
            .iter()
            .any(|t| t.chars().any(|c| c.is_ascii_digit()) || t.len() >= 6)
    {
        return true;
    }
    // "木曜は棚卸しがあるので、金曜にずらして", "push the cutover to Friday":
    // a move of what an earlier decision names replaces it
    let l = d.body.to_lowercase();
    // ("Ship date moves to Monday": "move" moves things, but to a day it
    // moves a date)
    static MOVED_IN_TIME: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"\b(?:moves?|moved|push(?:es|ed)?|slips?|slipped)\s+(?:back\s+)?to\s+(?:next\s+|the\s+)?",
            r"(?:(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?|jan(?:uary)?|feb(?:ruary)?|march|mar|april|apr|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|\d)"
        ))
        .unwrap()
    });
    // (a move replaces a decision that set a time: "Use Postgres for the
    // billing service" is no date "The billing review is moved to Friday"
    // moves)
    static TIME: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\d|\b(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?|today|tomorrow|tonight|week|month|quarter|jan(?:uary)?|feb(?:ruary)?|march|april|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|[周週曜月日号点時]")
            .unwrap()
    });
    // (what both name is the thing moved, not a word of time: "1時間前倒
    // しして21:00開始" moves the maintenance, not "ロック時間の30分")
    let time_word = |t: &str| {
        t.chars()
            .all(|c| c.is_ascii_digit() || "時間分秒日月年周週号點点前后後半毎每天".contains(c))
    };
    if (classify::has_any(&l, words("shift_verbs")) || MOVED_IN_TIME.is_match(&l))
        && TIME.is_match(subject::without_trailing_subject(body))
        && terms(&d.body)
            .iter()
            .filter(|t| !generic(t) && !time_word(t))
            .any(|t| terms(body).contains(t))
    {
        return true;
    }
    // "Stop building 3.8 wheels." … "Keep 3.8 until their migration": to
    // keep what a "don't" named takes the "don't" back
    let keeps = [
        "keep ",
        "stay ",
        "retain ",
        "继续",
        "保留",
        "残す",
        "残して",
        "続け",
    ]
    .iter()
    .any(|k| l.starts_with(k) || !k.is_ascii() && l.contains(k));
    if keeps && d.polarity == Polarity::Want && old_polarity == Polarity::DontWant {
        // names and values, not CJK character pairs ("版本" is in both
        // "ring 的版本" and "保留一个版本")
        let names = |text: &str| {
            let mut t: Vec<String> = terms(text).into_iter().filter(|t| t.is_ascii()).collect();
            t.extend(number_tokens(text).into_iter().map(str::to_owned));
            t
        };
        let new_names: Vec<String> = names(&d.body)
            .into_iter()
            .filter(|t| !words("imperative_verbs").contains(&t.as_str()))
            .collect();
        if shared(&new_names, &names(old_head_text)) > 0 {
            return true;
        }
    }
    // "unfreeze", "unpin": the verb takes back the decision its stem names
    let first = d
        .body
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_lowercase();
    if let Some(stem) = first.strip_prefix("un").filter(|s| s.len() >= 3) {
        if terms(body).iter().any(|t| t == stem) {
            return true;
        }
    }
    // "not yet for lb-portal-old" takes back "turn off TLS 1.0 on
    // lb-portal-old": a "don't" whose subject the old "do" names
    // (an identifier, or a short "not yet for X"; "no backups of the
    // scratch volumes" only narrows "nightly backups")
    let short = d.body.split_whitespace().count() <= 4;
    d.polarity == Polarity::DontWant
        && old_polarity == Polarity::Want
        && !new_head.is_empty()
        && new_head.iter().all(|t| terms(body).contains(t))
        && new_head
            .iter()
            .any(|t| !t.chars().all(char::is_alphabetic) || short && t.len() >= 6)
}

/// The new decision only repeats an older one of the same polarity: no
/// reversal, and no term or number the older one lacks.
fn restates(d: &Decision, dt: &[String], old: &str) -> bool {
    let (old_polarity, body) = polarity_and_body(old);
    // a reconsidering decision is judged on what was said, not on the
    // subject the summary added ("sun 01:00 instead" does not restate "sat
    // 01:00 then (Quietest are Sat and Sun, 01:00 to 03:00 UTC)"); a pick
    // among what the subject names ("那就 otter") still restates
    let reconsiders = classify::has_any(&d.said.to_lowercase(), words("reconsider_cues"));
    let body = if reconsiders {
        subject::without_trailing_subject(body)
    } else {
        body
    };
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
