//! What a sentence is, by explicit markers only (lexicon.txt): a decision
//! and its polarity, an open question, an approval of the assistant's
//! proposal, small talk, or something else (which may still hold a fact).
//! Precision first: a statement becomes binding only when it says so.

use std::sync::LazyLock;

use regex::Regex;

use super::lexicon::words;
use super::text::{clip, is_cjk, is_kana, item_and_verdict};

/// Longest decision line, in UTF-8 bytes.
pub const DECISION_BYTES: usize = 130;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Polarity {
    Want,
    DontWant,
}

impl Polarity {
    pub fn prefix(self) -> &'static str {
        match self {
            Polarity::Want => "要：",
            Polarity::DontWant => "不要：",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub polarity: Polarity,
    /// Normalised text without the prefix.
    pub body: String,
    /// The statement says it changes an earlier one ("instead", "not 5",
    /// "10 s → 30 s", 改成, ではなく).
    pub reverses: bool,
    /// The value it replaces, when it names one ("5", "10 s", "Thursday").
    pub old_value: Option<String>,
    /// The words as said, before normalising ("No exceptions").
    pub said: String,
    /// What the sentence said before the decision, when it names its
    /// subject there ("For the 312 small ones, …, don't e-mail them").
    pub lead: Option<String>,
    /// Said without a verb ("canary 5% for 30 min"): a decision only as a
    /// reply, not as the request that opens a discussion.
    pub verbless: bool,
    /// The sentence before it in the same turn, when it reconsiders ("wed
    /// is the finance close. thu 02:00 instead"): what it sets aside.
    pub before: Option<String>,
    /// All the turn said before it.
    pub earlier: Option<String>,
}

impl Decision {
    /// The value it changes and the one it sets, when its words or the
    /// turn before them name both (see `value_then_change`).
    pub fn value_change(&self) -> Option<ValueChange> {
        let said = if self.said.is_empty() {
            &self.body
        } else {
            &self.said
        };
        value_then_change(self.earlier.as_deref().unwrap_or(""), said)
    }

    /// A decision with no reversal, said as `body`.
    pub fn plain(polarity: Polarity, body: String) -> Decision {
        Decision {
            polarity,
            said: body.clone(),
            body,
            reverses: false,
            old_value: None,
            lead: None,
            verbless: false,
            before: None,
            earlier: None,
        }
    }

    pub fn line(&self) -> String {
        format!("{}{}", self.polarity.prefix(), self.body)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserKind {
    Decisions(Vec<Decision>),
    /// A question to settle, a pending item or a proposal.
    Open(String),
    /// A decision put off ("let's decide that after the postmortem", "Park
    /// it", "下周再说"): what it puts off is itself or what came before it.
    Defer(String),
    /// "yes, do that", "LGTM, merge it": `rest` is what follows the marker.
    Approval {
        strong: bool,
        rest: String,
    },
    /// "nah", "no thanks", "这个算了", "それはナシで": a no to what was just
    /// proposed; `rest` is what follows the marker ("nah, air blast").
    Rejection(String),
    SmallTalk,
    Other,
}

/// "no" in these says nothing is ruled out ("Redis, no doubt").
pub const NO_IDIOMS: [&str; 6] = [
    "no doubt",
    "no question",
    "no problem",
    "no worries",
    "no kidding",
    "no questions asked",
];

pub fn lower(s: &str) -> String {
    s.to_lowercase()
}

/// Does `hay` (lower-cased) contain `word`? ASCII words match at word
/// boundaries, CJK ones anywhere.
pub fn has(hay: &str, word: &str) -> bool {
    // ("我还是算了一下成本": 算了 followed by 一下, 一遍, 出… is "worked
    // out", no letting go)
    if word.ends_with("算了") {
        return hay.match_indices(word).any(|(start, _)| {
            !hay[start + word.len()..]
                .starts_with(['一', '下', '遍', '出', '过', '个', '账', '清', '完'])
        });
    }
    if word.ends_with("なし") {
        return hay
            .match_indices(word)
            .any(|(start, _)| !is_story_word(&hay[..start], &hay[start..]));
    }
    if !word.is_ascii() {
        return hay.contains(word);
    }
    let bytes = hay.as_bytes();
    hay.match_indices(word).any(|(start, _)| {
        let end = start + word.len();
        (start == 0 || !bytes[start - 1].is_ascii_alphanumeric())
            && (end == hay.len() || !bytes[end].is_ascii_alphanumeric())
    })
}

/// Is the なし (none) at `at` part of おはなし (a story, "おはなし会") instead?
/// Only the honorific お says so: a "none" goes on in many ways
/// ("なしにして", "なしで", "なしが良い", "なし一択").
fn is_story_word(before: &str, at: &str) -> bool {
    at.starts_with('は') && before.ends_with('お')
}

pub fn has_any(hay: &str, list: &[&str]) -> bool {
    list.iter().any(|w| has(hay, w))
}

/// `l` (lower-cased) opens with a "no" ("don't", "skip", 别) or holds one
/// ("we won't", 不做, しない).
pub fn says_no(l: &str) -> bool {
    words("negative_start")
        .iter()
        .any(|n| starts_with_word(l, n))
        || has_any(l, words("negative_markers"))
}

/// The entry of `list` that `l` (lower-cased) opens with: a whole word for
/// a Latin entry, any start for a CJK one ("i'll …", "已将…").
pub fn opening_entry<'a>(l: &str, list: &[&'a str]) -> Option<&'a str> {
    list.iter()
        .find(|c| starts_with_word(l, c) || !c.is_ascii() && l.starts_with(**c))
        .copied()
}

/// `l` (lower-cased) starts with the word `w`.
pub fn starts_with_word(l: &str, w: &str) -> bool {
    l.strip_prefix(w).is_some_and(|rest| {
        rest.is_empty() || !w.is_ascii() || rest.starts_with(|c: char| !c.is_alphanumeric())
    })
}

/// The text with leading marks and spaces removed, "and" kept.
/// Where the earliest of `list` starts and ends in `l[from..]` (lower
/// case), an ASCII entry only as a whole word ("make it", not inside
/// "remake it"; "改成" anywhere).
pub fn first_listed<'a>(
    l: &str,
    from: usize,
    list: impl IntoIterator<Item = &'a &'a str>,
) -> Option<(usize, usize)> {
    list.into_iter()
        .filter_map(|v| {
            l[from..]
                .match_indices(*v)
                .find(|(i, _)| !v.is_ascii() || starts_with_word(&l[from + *i..], v))
                .map(|(i, _)| (from + i, from + i + v.len()))
        })
        .min()
}

/// Signs written before an amount ("$300", "￥200").
const CURRENCY: [char; 5] = ['$', '€', '£', '¥', '￥'];

fn strip_fillers_keep_and(s: &str) -> &str {
    s.trim_start_matches(|c: char| {
        c.is_whitespace() || [',', '，', ':', '：', '-', '—'].contains(&c)
    })
}

/// Strip leading fillers ("and", "ok", "好的"), separators and marks.
pub fn strip_fillers(s: &str) -> &str {
    const MARKS: &[char] = &[',', '，', '、', ':', '：', '-', '—', '–', '!', '！', '.'];
    let mut s = s.trim();
    loop {
        let before = s;
        s = s.trim_start_matches(|c: char| c.is_whitespace() || MARKS.contains(&c));
        let l = lower(s);
        if let Some(f) = words("fillers").iter().find(|f| starts_with_word(&l, f)) {
            s = &s[f.len()..];
        } else if let Some(f) = words("cjk_fillers").iter().find(|f| s.starts_with(*f)) {
            s = &s[f.len()..];
        }
        if s == before {
            return s;
        }
    }
}

pub fn is_small_talk(s: &str) -> bool {
    let l = lower(s.trim_end_matches(|c: char| !c.is_alphanumeric() && !is_cjk(c)));
    let l = l.trim_start_matches(|c: char| !c.is_alphanumeric());
    let talk = words("small_talk");
    l.is_empty()
        || talk.iter().any(|t| {
            l == *t
                || l.strip_prefix(t).is_some_and(|rest| {
                    let rest = rest.trim_start_matches(|c: char| !c.is_alphanumeric());
                    rest.is_empty() || talk.contains(&rest)
                })
        })
}

/// A greeting opens a conversation; other small talk answers a reply.
pub fn is_greeting(s: &str) -> bool {
    let l = lower(s);
    words("greetings").iter().any(|g| starts_with_word(&l, g))
}

/// The user says the subject changes.
pub fn says_new_topic(s: &str) -> bool {
    has_any(&lower(s), words("new_topic"))
}

pub fn is_question(s: &str) -> bool {
    let t = s.trim_end_matches(['"', '\'', ')', '」', '）']);
    t.ends_with('?')
        || t.ends_with('？')
        || t.ends_with('吗')
        // ("Bでいっか。" is "B will do, then": a question to oneself that
        // answers itself)
        || t.ends_with("か。") && !t.ends_with("いっか。")
        || bare_question(t)
        || cjk_question(t)
}

/// Questions CJK text asks without a question mark: a question ending
/// ("…どうしましょう", "…ますか", "那这个呢", "怎么办"). (Not "A 还是 B":
/// 还是 is as often "still" or "rather" — "3 天以内还是只要直属上级批".)
fn cjk_question(t: &str) -> bool {
    let t = t.trim_end_matches(['。', '.', ' ']);
    if !t.chars().any(is_cjk) {
        return false;
    }
    const ENDINGS: &[&str] = &[
        "どうしましょう",
        "どうします",
        "ますか",
        "でしょうか",
        "ですか",
        "呢",
        "怎么办",
        "怎么弄",
        "怎么定",
        "怎么处理",
        "咋办",
        "咋整",
        // casual Japanese asks what to do without a mark
        "どうしよ",
        "どうしよう",
        "どうしようかな",
        "どうする",
        "どうしたらいい",
        "どうすればいい",
    ];
    ENDINGS.iter().any(|e| t.ends_with(e)) || asks_advice_zh(t)
}

/// "你觉得用啥搭比较好", "数据放哪里合适": a Chinese clause asking for advice
/// without a question mark, a question word in it and a word of asking or
/// of weighing around it; not "用什么都行" (anything will do).
fn asks_advice_zh(t: &str) -> bool {
    if t.chars().any(super::text::is_kana) {
        return false;
    }
    let clause = t.rsplit(['，', ',', '。', ' ']).next().unwrap_or(t);
    const ASKING: [&str; 7] = [
        "你觉得",
        "您觉得",
        "你看",
        "您看",
        "你说",
        "你建议",
        "您建议",
    ];
    const WEIGHING: [&str; 5] = ["比较好", "更好", "最好", "合适", "好呢"];
    let asks = ASKING.iter().any(|w| clause.starts_with(w))
        || WEIGHING.iter().any(|w| clause.ends_with(w));
    asks && ["啥", "什么", "哪", "怎么", "怎样", "多少", "几", "谁"]
        .iter()
        .any(|q| {
            clause
                .match_indices(q)
                .any(|(i, _)| !clause[i + q.len()..].starts_with(['都', '也']))
        })
}

/// "who owns it", "where's the config": terse chat leaves out the question
/// mark; a short lower-case clause led by a question word still asks.
fn bare_question(t: &str) -> bool {
    let ws: Vec<&str> = t.split_whitespace().collect();
    let first = ws.first().map_or("", |w| w.split('\'').next().unwrap_or(w));
    ws.len() >= 2
        && ws.len() <= 8
        && t.is_ascii()
        && !t.contains([',', '.', '!', ':', ';'])
        && t.starts_with(|c: char| c.is_ascii_lowercase())
        && ["who", "what", "where", "which", "when", "why", "how"].contains(&first)
        && !["how about", "what if", "when done"]
            .iter()
            .any(|p| t.starts_with(p))
}

/// A number and its unit, as a value a reversal names.
const VALUE: &str = r"(\d[\d.,]*(?:\s?(?:ms|µs|us|ns|s|sec|secs|seconds?|mins?|minutes?|h|hrs?|hours?|d|days?|weeks?|gb|mb|kb|tb|gib|mib|kib|%|qps|rps|x)\b)?)";
/// "not 5", "instead of 10 s".
static NOT_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"(?i)\b(?:not|instead of|rather than)\s+{VALUE}")).unwrap()
});
/// "40 ページではなく 25 ページに", "不是 4 日，是 5 日": the old value, with
/// its counter.
static CJK_NOT_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(\d[\d.,]*\s?[^\s\d、。，,]{0,3}?)\s?(?:ではなく|じゃなくて|じゃなく)",
        r"|(?:而不是|不是)\s?(\d[\d.,]*\s?[^\s\d、。，,]{0,2})"
    ))
    .unwrap()
});
/// "10 s → 30 s".
static ARROW_VALUE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"(?i){VALUE}\s*(?:→|->|=>)\s*\S")).unwrap());
/// "Friday, not Thursday", "instead of Redis".
static NOT_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:,\s*not|\binstead of|\brather than)\s+(?:(?:the|a|an|our|your|their|this|that|my)\s+)?([\w#.-]*\w)").unwrap()
});

/// "Let us move on to equipment", "moving on to the rota": the agenda of
/// the talk, not a decision in it; "i said we'll see", "he said fire code
/// is fine": what was said to someone else is a report (not "Finance says
/// use the new vendor", a ruling passed on).
fn is_agenda_or_said(l: &str) -> bool {
    let t = lower(strip_fillers(l));
    let t = t.trim_end_matches(['.', '!', '。']);
    // (the agenda alone: "Moving on, set the timeout to 30s" and "move on
    // to the next item: freeze the schema" go on to decide)
    let agenda = [
        "let's move on to",
        "let us move on to",
        "moving on to",
        "move on to",
    ]
    .iter()
    .find_map(|a| t.strip_prefix(a))
    .is_some_and(|rest| {
        !rest.contains([',', ':', ';', '—']) && rest.split_whitespace().count() <= 5
    });
    let mut ws = t.split_whitespace();
    let (who, verb) = (ws.next().unwrap_or(""), ws.next().unwrap_or(""));
    // (someone else's words; "I said no, we're going with Redis" is the
    // speaker's own decision)
    agenda
        || ["he", "she", "they"].contains(&who)
            && ["said", "told", "replied", "answered"].contains(&verb)
}

/// Terse chat's orders without a subject: "add: netops patch calendar"
/// (a verb of change as a label, the thing after it). Not a label that
/// announces news ("update: no budget…"), a changelog line, a doubt or a
/// question.
fn terse_order(s: &str) -> Option<Decision> {
    static VERB_LABEL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(add|drop|remove|rename|pin|bump|enable|disable)\s*:\s+(\S.*)$").unwrap()
    });
    // "_compat_argparse.py yes delete", "legacy/export_v1 no": a file or
    // name the reply asked about, answered by its own yes or no
    // (a no only alone or before its reason: not "api.example.com no
    // response at all", "deploy.sh no longer exists")
    static NAMED_ANSWER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^`?([\w.-]*[._/][\w./-]+)`?\s*:?\s+(?:(yes|yep|y|ok)\b[,.]?\s*([a-z][a-z ]{0,30})?|(no|nope|nah)(?:[,.;]\s*\S.*)?)$").unwrap()
    });
    // "logging not in this PR": a thing left out of this change
    static NOT_IN_THIS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^([\w./-]+(?:\s[\w./-]+)?)\s+not\s+in\s+this\s+(?:pr|release|sprint|version)\b",
        )
        .unwrap()
    });
    let t = s.trim().trim_end_matches(['.', '!']);
    let l = lower(t);
    if is_question(s) || l.contains('?') {
        return None;
    }
    if let Some(c) = NOT_IN_THIS.captures(&l) {
        let thing = c.get(1)?.as_str();
        if !["is", "are", "was", "it", "that", "this"]
            .iter()
            .any(|w| thing.split_whitespace().any(|x| x == *w))
        {
            let mut d = Decision::plain(Polarity::DontWant, t.to_owned());
            d.said = t.to_owned();
            return Some(d);
        }
    }
    if let Some(c) = NAMED_ANSWER.captures(t) {
        let name = c.get(1)?.as_str();
        let verb = c.get(3).map_or("", |m| m.as_str().trim());
        let no = c.get(4).is_some();
        // (what follows a yes is a verb, or nothing: not "yes please",
        // "ok thanks", "yes looks right")
        let first = verb.split_whitespace().next().unwrap_or("");
        let acts = ["imperative_verbs", "choice_verbs", "removal_verbs"]
            .iter()
            .any(|list| words(list).contains(&first));
        if !no && !verb.is_empty() && !acts {
            return None;
        }
        // (what follows a no is its reason: "tools/gen.sh no, ops still
        // runs it")
        let body = if verb.is_empty() || no {
            name.to_owned()
        } else {
            format!("{verb} {name}")
        };
        let polarity = if no {
            Polarity::DontWant
        } else {
            Polarity::Want
        };
        let mut d = Decision::plain(polarity, body);
        d.said = t.to_owned();
        return Some(d);
    }
    if let Some(d) = thing_then_verdict(t) {
        return Some(d);
    }
    let c = VERB_LABEL.captures(&l)?;
    let verb = c.get(1)?.as_str();
    let rest_l = c.get(2)?.as_str();
    // (not a changelog line, a doubt or a negation: "add: dark mode
    // (merged yesterday)", "remove: legacy API — done in #4512", "pin: not
    // needed anymore", "drop: maybe later")
    static ISSUE_REF: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"#\d").unwrap());
    if rest_l.contains(['(', '—'])
        || ISSUE_REF.is_match(rest_l)
        || [
            "merged",
            "done",
            "shipped",
            "released",
            "yesterday",
            "not ",
            "don't",
            "no ",
            "maybe",
            "probably",
            "or ",
            "later",
            "can't",
            "how",
            "what",
            "which",
        ]
        .iter()
        .any(|w| rest_l.contains(w))
    {
        return None;
    }
    let rest = &t[c.get(2)?.start()..];
    let removal = words("removal_verbs").contains(&verb);
    let (polarity, body) = if removal {
        (Polarity::DontWant, rest.to_owned())
    } else {
        (Polarity::Want, format!("{verb} {rest}"))
    };
    let mut d = Decision::plain(polarity, body);
    d.said = t.to_owned();
    Some(d)
}

/// Terse chat's verdict on a thing the reply offered, the thing first:
/// "alpine nope, musl + psycopg = pain", "tiered storage nah", "rollup
/// forever yes, its tiny", "filename fine", "desk stays", "old printer
/// goes". The thing is one to three plain words, lower case (a sentence's
/// subject, "that sounds good yes", "we do no", is not a thing); a verdict
/// comes alone or before its reason ("cache no longer warms" is no
/// verdict).
fn thing_then_verdict(t: &str) -> Option<Decision> {
    static VERDICT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^([a-z0-9][\w.+#/-]*(?:\s[\w.+#/-]+){0,2})\s+(yes|yep|fine|for sure|stays|nope|nah|no|goes)(?:\s*[,;:—]\s*(\S.*))?$")
            .unwrap()
    });
    // (besides the lexicon's pronouns and fillers, checked below: "that",
    // "ok", "fine", "also" …)
    const NOT_THINGS: &[&str] = &[
        "i",
        "we",
        "you",
        "is",
        "are",
        "was",
        "were",
        "be",
        "do",
        "does",
        "did",
        "sounds",
        "looks",
        "seems",
        "right",
        "cool",
        "thanks",
        "say",
        "said",
        "answer",
        "the",
        "a",
        "an",
        "my",
        "our",
        "not",
        "maybe",
        "probably",
        "still",
        "all",
        "rest",
        "otherwise",
        "else",
        "everything",
        "lol",
    ];
    let c = VERDICT.captures(t)?;
    let thing = c.get(1)?.as_str();
    // (an option's letter, "b no", is the options' to read)
    if thing.chars().count() < 2
        || thing.split_whitespace().any(|w| {
            NOT_THINGS.contains(&w)
                || words("pronouns").contains(&w)
                || words("fillers").contains(&w)
                || !w.chars().any(|c| c.is_ascii_alphabetic())
        })
    {
        return None;
    }
    // (a yes keeps its words, "cleanup workflow yes"; a no keeps the
    // reason it gives: "alpine (been there, musl + psycopg = pain)")
    let yes = !matches!(c.get(2)?.as_str(), "nope" | "nah" | "no" | "goes");
    let (polarity, body) = match (yes, c.get(3)) {
        (true, _) => (Polarity::Want, t.to_owned()),
        (false, Some(why)) => (Polarity::DontWant, format!("{thing} ({})", why.as_str())),
        (false, None) => (Polarity::DontWant, thing.to_owned()),
    };
    let mut d = Decision::plain(polarity, body);
    d.said = t.to_owned();
    Some(d)
}

/// Classify one user sentence.
/// A sentence that only says the one before it is settled ("That's final,
/// I'll tell Marco myself.", "就这么定了。"): it decides what it seals.
pub fn seals_the_last(s: &str) -> bool {
    let l = lower(strip_fillers(s));
    let l = l.trim_end_matches(|c: char| !c.is_alphanumeric() && !is_cjk(c));
    words("seals").iter().any(|w| {
        l.strip_prefix(w).is_some_and(|rest| {
            rest.is_empty()
                || rest.starts_with([',', '，', ';', '、', '。', '.', '!', '！'])
                // ("これで確定です")
                || w.chars().any(is_cjk) && rest.chars().all(super::text::is_hiragana)
        })
    })
}

/// "partitioning not now, next quarter maybe", "slo burn rate - next
/// sprint, not now": a thing named and put off is not wanted now, a
/// decision said with its "not now" ("partitioning not now"); a bare "not
/// now" answers a proposal, and a question or a clause with a verb before
/// it says more than that.
fn not_now(s: &str) -> Option<String> {
    let t = s.trim().trim_end_matches(['.', '!', '。']);
    let l = lower(t);
    let at = l.find("not now")?;
    let after = &l[at + "not now".len()..];
    if is_question(s) || after.starts_with(|c: char| c.is_alphanumeric()) {
        return None;
    }
    let head = t[..at].trim_end_matches([' ', ',', '-', '—', '–', ':']);
    // (what is put off comes first: "X - next sprint, not now")
    let thing = head
        .split([',', '—', '–'])
        .next()
        .unwrap_or("")
        .split(" - ")
        .next()
        .unwrap_or("")
        .trim();
    let ws: Vec<&str> = thing.split_whitespace().collect();
    let said = strip_fillers(thing);
    let verb = ws.iter().any(|w| {
        let w = lower(w);
        words("imperative_verbs").contains(&w.as_str())
            || [
                "is", "are", "was", "be", "i", "we", "it", "that", "this", "do", "does", "maybe",
            ]
            .contains(&w.as_str())
    });
    (!said.is_empty()
        && ws.len() <= 4
        && !verb
        && !super::text::terms(said).is_empty()
        && !is_approval(&lower(said)))
    .then(|| format!("{said} not now"))
}

pub fn user_sentence(s: &str) -> UserKind {
    let l = lower(s);
    if is_small_talk(s) {
        return UserKind::SmallTalk;
    }
    // "情報システム課の武田と申します": a name given; "遅い気がします": a
    // feeling (both end like a decision, in します)
    // (not a sentence ending in ので: "Redis はやめたいので。" softens a
    // decision as often as it gives a reason)
    if s.chars().any(is_kana) {
        let t = s.trim().trim_end_matches(['。', '！', '.']);
        // (not "議事録は私がします": who will do it is a decision)
        const NO_DECISION: [&str; 7] = [
            "と申します",
            "気がします",
            "感じがします",
            "予感がします",
            "匂いがします",
            "においがします",
            "音がします",
        ];
        if NO_DECISION.iter().any(|e| t.ends_with(e)) {
            return UserKind::Other;
        }
    }
    if let Some(thing) = not_now(s) {
        return UserKind::Decisions(vec![Decision::plain(Polarity::DontWant, thing)]);
    }
    // "later", "next week", "あとで" alone: the offer on the table waits
    let bare = lower(s.trim().trim_end_matches(['.', '!', '。', '！']));
    if is_deferral(s) || words("deferral_times").contains(&bare.as_str()) && bare != "first" {
        return UserKind::Defer(s.to_owned());
    }
    if has_any(&l, words("pending")) || has_any(&l, words("user_proposal")) && !is_approval(&l) {
        return UserKind::Open(s.to_owned());
    }
    if is_agenda_or_said(&l) {
        return UserKind::Other;
    }
    // (a question about one still asks: "if we ever move to buildkite does
    // any of this carry over"; a rule for it is a decision: "if we ever see
    // errors over 5%, roll back", "someday 1 year, but 30 days for now")
    if has_any(&l, words("hypotheticals")) && !is_question(s) && !l.contains([',', ';']) {
        return UserKind::SmallTalk;
    }
    if let Some(d) = terse_order(s) {
        return UserKind::Decisions(vec![d]);
    }
    // "ご提案の内容で進めていただけますでしょうか", "淘汰策略就按你说的改": a
    // request (even one put as a question) that takes what was proposed,
    // unless it asks about it ("ご提案の内容はどういう意味ですか")
    if names_the_proposal(s) && !has_any(&l, words("question_words")) {
        return UserKind::Approval {
            strong: true,
            rest: String::new(),
        };
    }
    // "weighted or hard flip": alternatives without a verb ask which, with
    // or without the question mark terse chat leaves out
    if !is_question(s) && has(&l, "or") && s.split_whitespace().count() <= 6 && no_verb(&l) {
        return UserKind::Open(s.to_owned());
    }
    // "dns ttl on api.shopfront.io?", "health check on new lb?": a noun
    // phrase of something's attribute wants to know its value, not whether
    // to act ("backfill window?" may ask which to choose)
    if is_question(s)
        && !has(&l, "or")
        && no_verb(&l)
        && has_any(&l, &["on", "of", "for", "in", "at"])
        && !has_any(&l, words("deciding"))
        && !has_any(&l, words("strong_deciding"))
        && !is_instruction(s.trim_end_matches(['?', '？']))
    {
        return UserKind::Other;
    }
    // "ベトナム語も含めていただけますでしょうか": a polite request to act is
    // an instruction, not a question ("教えていただけますか" asks to be told)
    // ("それで進めてください": a request that only points back approves)
    if let Some((strong, rest)) = approval(s).filter(|(_, r)| !r.is_empty() && is_deictic(r)) {
        return UserKind::Approval { strong, rest };
    }
    if let Some(act) = polite_request(s) {
        // ("音声案内は、切っておいていただけますでしょうか": a request to
        // switch off or take out is a "don't" of what it names)
        let mut d = match polite_removal(&act) {
            Some(thing) => Decision::plain(Polarity::DontWant, thing),
            None => Decision::plain(Polarity::Want, normalize(Polarity::Want, &act)),
        };
        d.said = act;
        return UserKind::Decisions(vec![d]);
    }
    if is_question(s) {
        let body = lower(strip_fillers(s));
        let asks_what = words("question_words")
            .iter()
            .any(|w| starts_with_word(&body, w) || !w.is_ascii() && body.starts_with(w));
        let deciding = has_any(&l, words("strong_deciding"))
            || !asks_what && has_any(&l, words("deciding"))
            || !asks_what && !has_any(&l, words("informational"));
        return if deciding {
            UserKind::Open(s.to_owned())
        } else {
            UserKind::Other
        };
    }
    // "Yes to a photograph per door", "No to the QR tags": the yes names
    // what it takes, so it decides without the reply
    if let Some(ds) = stated_decision(s) {
        return UserKind::Decisions(ds);
    }
    if let Some(rest) = rejection(s) {
        return UserKind::Rejection(rest);
    }
    if let Some((strong, rest)) = approval(s) {
        return UserKind::Approval { strong, rest };
    }
    if deictic_acceptance(s.trim().trim_end_matches(['。', '！', '!', '.'])) {
        return UserKind::Approval {
            strong: true,
            rest: String::new(),
        };
    }
    // "Fail open, yes.", "首月免收机时费，就这么办。", "每户最多 3 位，就这样": what
    // the sentence states, sealed by an approval after it
    let trimmed = s.trim().trim_end_matches(['.', '!', '。', '！', '；', ';']);
    if let Some(rest) = sealed_by_approval(trimmed) {
        return UserKind::Approval { strong: true, rest };
    }
    // "外部 API は、…使わない契約なら OK とのことです": a report of what
    // someone said, its "don't" is theirs
    let bare = s.trim().trim_end_matches(['。', '.', '！', '!']);
    if words("hearsay_endings").iter().any(|e| bare.ends_with(e)) {
        return UserKind::Other;
    }
    // "Go with Postgres, the index details are up to you": the clause that
    // hands a choice over decides nothing, nor does the bound it sets
    // ("你看着定一个吧，别太短就行"); the clauses beside it still may
    if has_any(&l, words("delegations")) {
        let kept: String = clauses(s)
            .into_iter()
            .filter(|c| {
                let t = c.trim().trim_end_matches(['，', ',', '。', '.', '、']);
                !has_any(&lower(c), words("delegations"))
                    && !["就行", "就好", "就可以", "即可"]
                        .iter()
                        .any(|e| t.ends_with(e))
            })
            .collect();
        let kept = kept.trim().trim_end_matches(['，', ',', '、']);
        if super::text::terms(kept).is_empty() {
            return UserKind::Other;
        }
        return user_sentence(kept);
    }
    let decisions = decisions_in(s);
    if decisions.is_empty() {
        if let Some(d) = terse_decision(s).or_else(|| formal_decision(s)) {
            return UserKind::Decisions(vec![d]);
        }
        if has_any(&l, words("uncertain")) {
            return UserKind::Open(s.to_owned());
        }
        UserKind::Other
    } else {
        UserKind::Decisions(decisions)
    }
}

/// A whole sentence whose frame settles what it names: a yes or no to a
/// thing ("Yes to a photograph per door", "No to the stamps, yes to the
/// receipts"), a noun phrase concluded by "then" ("A three-year term with
/// a one-year extension (3 + 1), then"), a named person given a role
/// ("Daniel remains the owner overall"; not "Sam will handle it", which
/// adverbs and tools say as often as people).
fn stated_decision(s: &str) -> Option<Vec<Decision>> {
    static YES_NO_TO: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)^(yes|no)\s+to\s+(\S.*)$").unwrap());
    static THEN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^(?:(?:so|ok|okay|right|fine),?\s+)?(\S.{0,120}?)(,?)\s+then(?:,?\s+i\s+(?:guess|suppose))?$")
            .unwrap()
    });
    static PERSON_TASK: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"^([A-Z][a-z]+(?:\s+[A-Z][\w'-]+)?)(?:,\s+[^,]{2,60},)?\s+",
            r"(?:remains|will be|is to be)\s+(?:the\s+|our\s+)?(?:[\w-]+\s+)?(?:owner|lead|contact|sponsor|approver|coordinator|chair)\b"
        ))
        .unwrap()
    });
    const NOT_NAMES: &[&str] = &[
        "The",
        "This",
        "That",
        "These",
        "Those",
        "It",
        "We",
        "I",
        "You",
        "They",
        "He",
        "She",
        "There",
        "Our",
        "Your",
        "Their",
        "Everyone",
        "Nobody",
        "Someone",
        "Anyone",
        "Each",
        "Every",
        "One",
        "Somebody",
        "Everybody",
        "Which",
        "What",
        "Who",
        "Then",
        "Also",
        "Hopefully",
        "Usually",
        "Maybe",
        "Probably",
        "Perhaps",
        "Sometimes",
        "Eventually",
        "Ideally",
        "Normally",
        "Otherwise",
        "If",
        "When",
        "Or",
        "Only",
        "Now",
    ];
    let t = s.trim().trim_end_matches(['.', '!']).trim();
    if !t.is_ascii() && !t.chars().all(|c| !is_cjk(c)) || is_question(t) {
        return None;
    }
    let said = |p: Polarity, body: &str| {
        let mut d = Decision::plain(p, normalize(p, body));
        d.said = t.to_owned();
        (!d.body.is_empty()).then_some(d)
    };
    // ("No to the stamps, yes to the receipts": two answers; the search is
    // ASCII-lowercased so that its byte offsets hold in `body`)
    // (not "Yes to some extent", "No to be fair")
    let idiom = ["to some extent", "to a degree", "to be ", "to that"]
        .iter()
        .any(|w| lower(t).contains(w));
    if let Some(c) = YES_NO_TO.captures(t).filter(|_| !idiom) {
        let mut out = Vec::new();
        let mut rest = c[0].to_owned();
        let mut yes = c[1].eq_ignore_ascii_case("yes");
        loop {
            let body = rest.split_once(' ').map_or("", |x| x.1).trim_start();
            let body = body.strip_prefix("to ").unwrap_or(body);
            let next = [", yes to ", ", no to ", "; yes to ", "; no to "]
                .iter()
                .filter_map(|m| body.to_ascii_lowercase().find(m).map(|i| (i, *m)))
                .min();
            let p = if yes {
                Polarity::Want
            } else {
                Polarity::DontWant
            };
            match next {
                Some((i, m)) => {
                    out.extend(said(p, &body[..i]));
                    yes = m.contains("yes");
                    rest = body[i + 2..].to_owned();
                }
                None => {
                    out.extend(said(p, body));
                    break;
                }
            }
        }
        return (!out.is_empty()).then_some(out);
    }
    if let Some(c) = THEN.captures(t) {
        let head = &c[1];
        // (a noun phrase that names something: "Postgres, then", "Two vans
        // on Saturdays, then"; not "we can talk about it later, then", a
        // "no", or a goodbye)
        let h = lower(head);
        const CLAUSE_WORDS: &[&str] = &[
            "we", "i", "you", "it", "they", "is", "are", "was", "can", "will", "would", "should",
            "let's", "talk", "see", "me",
        ];
        const CLOSINGS: &[&str] = &[
            "good night",
            "bye",
            "thanks",
            "thank you",
            "cheers",
            "see you",
        ];
        // (a capital after the first word: the first has one anyway)
        let names = head.chars().any(|c| c.is_ascii_digit())
            || head
                .split_whitespace()
                .skip(1)
                .any(|w| w.chars().next().is_some_and(char::is_uppercase));
        let negative = ["no", "not", "without", "never", "none"]
            .iter()
            .any(|w| starts_with_word(&h, w));
        // ("so 10 min off then i guess", "70 then": without the comma, a
        // short phrase with a value; not "and then", "back then", "by then")
        let comma = !c[2].is_empty();
        let bare_ok = comma
            || head.chars().any(|c| c.is_ascii_digit())
                && h.split_whitespace().count() <= 5
                && !["back ", "since ", "until ", "by ", "till "]
                    .iter()
                    .any(|w| h.starts_with(w))
                && !h.split_whitespace().next_back().is_some_and(|w| {
                    [
                        "and", "since", "back", "until", "by", "even", "just", "only", "till",
                    ]
                    .contains(&w)
                });
        return (h.split_whitespace().count() <= 12
            && bare_ok
            && names
            && !negative
            && !has_any(&h, CLAUSE_WORDS)
            && !CLOSINGS.iter().any(|w| h.contains(w)))
        .then(|| said(Polarity::Want, head).map(|d| vec![d]))
        .flatten();
    }
    if let Some(c) = PERSON_TASK.captures(t) {
        let first = c[1].split_whitespace().next().unwrap_or("");
        if !NOT_NAMES.contains(&first) {
            return said(Polarity::Want, t).map(|d| vec![d]);
        }
    }
    None
}

/// A no to what was just proposed, said on its own or before a comma
/// ("nah, air blast", "不用了，我们自己开车", "それはナシで"), and what
/// follows it. Not a "no" that corrects a value ("no, make it 30" decides
/// for itself) nor one that answers a question of fact.
fn rejection(s: &str) -> Option<String> {
    const MARKERS: &[&str] = &[
        "not now",
        "not right now",
        "not for now",
        "no thanks",
        "no thank you",
        "nope",
        "nah",
        "no",
        "pass",
        "skip it",
        "skip that",
        "let's not",
        "no need",
        "不用了",
        "不用",
        "算了",
        "这个算了",
        "这个就算了",
        "那就算了",
        "这个不要",
        "不要了",
        "不了",
        "不搞了",
        "这个不搞了",
        "先不要",
        "pass掉",
        "それはナシで",
        "それはなしで",
        "それはナシ",
        "それはなし",
        "ナシで",
        "なしで",
        "ナシ",
        "なし",
        "いらない",
        "いらないです",
        "要らない",
        "やめとこう",
        "やめとく",
        "やめましょう",
        "やめておきます",
        "それはいいや",
        "いいや",
        "見送ります",
    ];
    let t = s.trim().trim_end_matches(['.', '!', '。', '！', '~', '～']);
    let l = lower(t);
    // ("hmm no. losing the stats is a dealbreaker", "no. raw stays 2y": a
    // "no" closed by a full stop the splitter kept, a lower-case sentence
    // after it: the no, then that sentence read on its own)
    let plain = strip_fillers(t);
    if let Some(after) = MARKERS.iter().find_map(|m| {
        let head = plain.get(..m.len())?;
        (head.to_lowercase() == *m)
            .then(|| plain[m.len()..].strip_prefix(". "))
            .flatten()
            // (not "No. Nothing gets denied automatically": a capital
            // after "No." is the splitter's abbreviation, one sentence;
            // "no. 10s then" gives a value with its unit, "No. 5" none)
            .filter(|after| {
                after.starts_with(|c: char| c.is_lowercase())
                    || after.starts_with(|c: char| c.is_ascii_digit())
                        && after
                            .split_whitespace()
                            .next()
                            .is_some_and(|w| w.chars().any(|c| c.is_alphabetic()))
            })
    }) {
        return Some(after.trim().to_owned());
    }
    let (marker, rest) = MARKERS.iter().find_map(|m| {
        let rest = l.strip_prefix(m)?;
        let whole = rest.is_empty();
        let paused = rest.starts_with([',', '，', '、', ';', '；', '—', '-', ' ']);
        // ("no, make it 30", "no 5%": a value that corrects decides for
        // itself; "no idea", "no problem" are no rejection)
        // ("不用 RabbitMQ" is "don't use RabbitMQ": a pause is punctuation)
        (whole || paused && !rest.starts_with(' ')).then_some((*m, rest))
    })?;
    let _ = rest;
    // (markers are lower-case ASCII or CJK: the same length in `t`)
    let rest = t[marker.len()..]
        .trim_start_matches([',', '，', '、', ';', '；', '—', '-', ' '])
        .trim();
    if rest.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    // ("算了，不搞第三方了，还是自研": a let-go that opens a reversal is the
    // reversal's cue, the sentence decides as said)
    if !rest.is_empty() && has_any(&lower(marker), words("reversal_cues")) {
        return None;
    }
    Some(rest.to_owned())
}

/// "その前提で問題ございません", "その条件付きで OK です": a Japanese yes to
/// what was proposed, named only by a demonstrative.
fn deictic_acceptance(t: &str) -> bool {
    let t = t.trim_end_matches(['よ', 'ね', 'わ']).trim_end();
    ["その", "それ", "この", "これ", "そちら"]
        .iter()
        .any(|p| strip_fillers(t).starts_with(p))
        && t.chars().count() <= 20
        && [
            "で OK",
            "でOK",
            "で OK です",
            "でOKです",
            "で結構です",
            "で問題ございません",
            "で問題ありません",
            "で大丈夫です",
            "でいい",
            "でいいです",
        ]
        .iter()
        .any(|e| t.ends_with(e))
}

/// What a sentence states before a closing clause that is an approval and
/// nothing else ("首月免收机时费，就这么办" → 首月免收机时费, "Fail open, yes" →
/// Fail open).
fn sealed_by_approval(sentence: &str) -> Option<String> {
    // "CPU limit なしも了解です": a Japanese approval after も or は
    // ("待機5分、それで結構です", "コードの仕様は、その内容で結構です": what
    // the sentence names, sealed by "that is fine")
    if sentence.chars().any(is_kana) {
        for a in [
            "それで結構です",
            "その内容で結構です",
            "それで問題ありません",
            "その内容で問題ありません",
            "それでお願いします",
            "その内容でお願いします",
        ] {
            if let Some(rest) = sentence
                .strip_suffix(a)
                .map(|r| r.trim_end_matches(['、', '，', ' ']))
                .map(|r| r.strip_suffix('は').unwrap_or(r).trim())
                .filter(|r| {
                    super::text::cjk_content_chars(r) >= 2 || r.chars().any(|c| c.is_ascii_digit())
                })
            {
                return Some(rest.to_owned());
            }
        }
        for a in [
            "了解です",
            "了解しました",
            "承知しました",
            "問題ありません",
            "大丈夫です",
        ] {
            if let Some(rest) = sentence
                .strip_suffix(a)
                .and_then(|r| r.strip_suffix(['も', 'は']))
                .map(str::trim)
                .filter(|r| !r.is_empty() && !r.contains(['、', '，']))
            {
                return Some(rest.to_owned());
            }
        }
    }
    // ("The cache gets wiped on every run, yeah", "老板说预算要砍一半，同意",
    // "这个问题我再想想，就这样": a yes after a fact confirms the fact; only
    // words that settle a course seal one, 可以 among them: "夜班归属上班日，
    // 可以")
    if let Some((rest, last)) = sentence.rsplit_once(['，', '、']) {
        let last = last.trim().trim_end_matches(['吧', '啊', '。', '！']);
        let rest = rest.trim();
        let l = lower(rest);
        let seals = words("settling_words").contains(&last);
        if seals
            && !rest.is_empty()
            && !is_question(rest)
            && !is_approval(&l)
            && !is_deferral(rest)
            && !has_any(&l, words("pending"))
            && !words("hearsay_endings").iter().any(|e| rest.ends_with(e))
            && !has_any(&l, &["说", "said", "says", "想想", "考虑"])
        {
            return Some(rest.to_owned());
        }
    }
    // "Fail open, yes."
    ["yes", "agreed", "good", "fine"]
        .iter()
        .find_map(|a| {
            lower(sentence)
                .strip_suffix(&format!(", {a}"))
                .map(|r| r.len())
        })
        .map(|n| sentence[..n].trim().to_owned())
        .filter(|r| !r.is_empty())
}

/// The change a polite Japanese request asks for ("ベトナム語も含めて" of
/// "ベトナム語も含めていただけますでしょうか"); a request for work or a
/// favour is none.
fn polite_request(s: &str) -> Option<String> {
    let t = s.trim().trim_end_matches(['。', '？', '?']);
    const ENDINGS: &[&str] = &[
        "いただくことは可能でしょうか",
        "いただくことは可能ですか",
        "いただくことはできますでしょうか",
        "いただくことはできますか",
        "いただけますでしょうか",
        "いただけますか",
        "いただけませんか",
        "もらえますか",
        "もらえませんか",
        "くれますか",
    ];
    let act = ENDINGS.iter().find_map(|e| t.strip_suffix(e))?;
    // the clause giving the reason is no part of the act; a date or a
    // scope is ("検証期間中のみ、デバッグのため、…に変更して" keeps
    // "検証期間中のみ"; "から" may be "from", so only ため and ので)
    let act = without_reason_clauses(act);
    // ("また、コーディネーターと協議いたしまして、同時受注上限はやはり2件にさ
    // せて": a long request is its last clause, the words before it say how
    // it came about)
    let act = match act.rsplit_once('、') {
        Some((_, last)) if act.chars().count() > 40 => last,
        _ => act.as_str(),
    };
    // only a change to what is built ("含めて", "外して", "増やして"); asking
    // for work or a favour ("書いて", "読み上げて", "待って") decides nothing
    const CHANGES: &[&str] = &[
        "含めて",
        "加えて",
        "入れて",
        "追加して",
        "変えて",
        "変更して",
        "統一して",
        "対応して",
        "使って",
        "残して",
        "増やして",
        "減らして",
        "抑えて",
        "にして",
        "にさせて",
        "前倒しして",
        "延長して",
        "短縮して",
        "設定して",
        "切り替えて",
        // (not "読み上げて": a value raised to)
        "に上げて",
        "まで上げて",
        "に下げて",
        "まで下げて",
        // (taking back, moving in time, fixing in place; switching off and
        // taking out are `POLITE_REMOVALS`)
        "戻して",
        "早めて",
        "遅らせて",
        "ずらして",
        "延ばして",
        "固定して",
        "限定して",
        "揃えて",
    ];
    let change = done_ahead(act);
    let changes = CHANGES.iter().chain(POLITE_REMOVALS);
    (act.chars().count() <= 40 && changes.into_iter().any(|v| change.ends_with(v)))
        .then(|| act.to_owned())
}

/// "切っておいて" (done ahead) as the verb before おいて, "切って".
fn done_ahead(act: &str) -> &str {
    act.strip_suffix("おいて")
        .filter(|v| v.ends_with(['て', 'で']))
        .unwrap_or(act)
}

/// The verbs of a polite request that switch off or take out.
const POLITE_REMOVALS: &[&str] = &[
    "切って",
    "消して",
    "削除して",
    "停止して",
    "廃止して",
    "無効化して",
    "無効にして",
    "オフにして",
    "外して",
    "除いて",
    "止めて",
    "やめて",
];

/// What a polite request to switch off or take out names ("音声案内" of
/// "音声案内は、切っておいて"), when it names something.
fn polite_removal(act: &str) -> Option<String> {
    let thing = POLITE_REMOVALS
        .iter()
        .find_map(|v| done_ahead(act).strip_suffix(v))?;
    let thing = thing
        .trim_end_matches(['、', '，', ' '])
        .trim_end_matches(['を', 'は', 'も'])
        .trim_end_matches(['、', '，', ' ']);
    (super::text::cjk_content_chars(thing) >= 2 || thing.chars().any(|c| c.is_ascii_alphanumeric()))
        .then(|| thing.to_owned())
}

/// The text without its clauses ending in "ため、" or "ので、".
fn without_reason_clauses(text: &str) -> String {
    let mut out = String::new();
    for clause in text.split_inclusive('、') {
        if !(clause.ends_with("ため、") || clause.ends_with("ので、")) {
            out.push_str(clause);
        }
    }
    out
}

fn is_approval(l: &str) -> bool {
    let all = words("strong_approvals")
        .iter()
        .chain(words("weak_approvals"));
    all.clone().any(|a| starts_with_approval(l, a))
}

/// A short label the sentence opens with and what follows it: "Lows: we'll
/// look at them after …", "The weekend thing — let's decide that later".
pub fn leading_label(s: &str) -> Option<(&str, &str)> {
    [": ", " — ", " – ", " - "]
        .iter()
        .filter_map(|m| s.split_once(m))
        .min_by_key(|(label, _)| label.len())
        .filter(|(label, _)| label.split_whitespace().count() <= 4)
}

/// A decision put off: a deferral phrase ("park it", "下周再说", "後で決め"),
/// or a deciding verb with a later time ("let's decide that after the
/// postmortem", "let's not decide today").
pub fn is_deferral(s: &str) -> bool {
    // (a clause of its own: "Priya owns the runbook, asking her")
    if s.split([',', ';', '，', '；']).any(asks_someone) || puts_off_deciding(s) {
        return true;
    }
    let l = lower(s);
    if leaves_open(&l, false) {
        return true;
    }
    // 保留 is "on hold" in Japanese, "keep" in Chinese
    let japanese = s.chars().any(is_kana);
    // "2 人で確認してからやるルールにします": a step after another, decided
    // now; a deferral decides later (…してから決めます)
    let decides_now = japanese
        && words("ja_decision_endings")
            .iter()
            .any(|e| s.trim().trim_end_matches(['。', '！']).ends_with(e))
        && ![
            "決め",
            "考え",
            "判断",
            "検討",
            "相談",
            "保留",
            "後で",
            "てからに",
            "改めて",
            "あらためて",
        ]
        .iter()
        .any(|v| s.contains(v));
    if !decides_now
        && words("deferrals")
            .iter()
            .any(|w| has(&l, w) && (japanese || *w != "保留"))
    {
        return true;
    }
    has_any(&l, words("deferral_verbs")) && has_any(&l, words("deferral_times")) && {
        // "check" and "see" defer only when they are the verb of the
        // sentence (after a label: "Lows: we'll look at them after …")
        let body = lower(strip_fillers(s));
        let body = match leading_label(&body) {
            Some((_, rest)) => rest.to_owned(),
            None => body,
        };
        // (after the lead naming what waits: "As for the seating plan, we
        // shall return to it once …")
        let body = match ["as for ", "regarding ", "as to ", "as regards "]
            .iter()
            .find(|l| body.starts_with(*l))
            .and_then(|_| body.split_once(", "))
        {
            Some((_, rest)) => rest.to_owned(),
            None => body,
        };
        // (after the choice it puts off: "atlantis vs GHA, decide w/ Priya
        // next sprint", "Atlantis or GHA, we will decide …")
        let body = match body.split_once(", ") {
            Some((choice, rest)) if names_options(choice) => rest.to_owned(),
            _ => body,
        };
        let lead = [
            "let's",
            "let us",
            "let me",
            "we'll",
            "we will",
            "we shall",
            "i'll",
            "i will",
            "i shall",
            "i need to",
            "i have to",
        ];
        // the lead puts off only when its verb does ("let's decide that
        // later"; not "let's go with it and revisit next month", a
        // decision with a date to look at it again)
        let defers_after = |clause: &str, w: &str| {
            starts_with_word(clause, w) && {
                let rest = clause[w.len()..].trim_start();
                let rest = ["not ", "just ", "first ", "also "]
                    .iter()
                    .fold(rest, |r, p| r.strip_prefix(p).unwrap_or(r));
                words("deferral_verbs")
                    .iter()
                    .any(|v| starts_with_word(rest, v))
            }
        };
        // "Whether we …, let's leave that for after 5.0": a later clause
        // may lead with "let's" ("not yet for X, I'll talk to Acme first"
        // decides, then says why)
        let later_lets = body
            .split(", ")
            .skip(1)
            .any(|c| defers_after(c, "let's") || defers_after(c, "let us"));
        // ("the roof felt I'll decide next month": the thing put off named
        // first, a few words without a verb)
        let topic_first = lead.iter().any(|w| {
            body.find(&format!(" {w} ")).is_some_and(|at| {
                let head = &body[..at];
                // (straight into the subject: "not yet for X, I'll talk to
                // Acme first" decides, then says why)
                head.split_whitespace().count() <= 4
                    && !head.contains([',', ';', ':', '—'])
                    && is_fragment(head)
                    && defers_after(&body[at + 1..], w)
            })
        });
        later_lets
            || topic_first
            || lead.iter().any(|w| defers_after(&body, w))
            || words("deferral_verbs")
                .iter()
                .any(|v| starts_with_word(&body, v))
            || has(&body, "not decide")
            || has(&body, "not deciding")
    }
}

/// The sentence's verb is "decide" itself, not yet done: "decide w/ sre
/// tmrw", "pm owner decide at standup tmrw", "値上げ幅は来月の理事会で決定
/// します", "結果を見て判断", "決めるのはそのあとで", "分摊的事等财务领导定",
/// "待议：SAP 对接", "課長にご確認中", "maintenance window で決めさせて
/// ください". What it settles is when or by whom;
/// the thing itself stays open. Not a decision made ("we decided",
/// "会議で決定した通り", "就这么定"), one handed over or asked about ("you
/// decide", "let the scheduler decide which node runs it", "do you want to
/// decide on Vitest"), a pick ("A案で決めさせていただきます"), nor a
/// sentence that decides first and leaves a part open after it ("going
/// with Postgres, ops will decide instance size next week",
/// "QR方式で進めたいと思いますが、システムは確認中です").
fn puts_off_deciding(s: &str) -> bool {
    english_decide_later(s) || japanese_decide_later(s) || chinese_wait_for(s)
}

fn english_decide_later(s: &str) -> bool {
    // the deciding verb with the meeting or the time it waits for
    static DECIDE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?i)\bdecide\b[^.;,!?:—]{0,30}?(?:",
            r"\b(?:at|in|after|during)\s+(?:the\s+|our\s+|next\s+|tmrw'?s?\s+|tomorrow'?s?\s+)?",
            r"(?:standup|stand-up|sync|retro|review|planning|meeting|1:1|huddle)",
            r"|\b(?:tmrw|tomorrow|tonight|later|eod|eow|next\s+(?:week|wk|sprint|month|time)",
            r"|monday|tuesday|wednesday|thursday|friday|mon|tue|tues|wed|thu|thurs|fri)\b)"
        ))
        .unwrap()
    });
    static NOT_YET: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:let'?s\s+not|don't|dont|do not)\s+decide\s+(?:yet|today|now|that now|this now|it now)\b")
            .unwrap()
    });
    static HANDED_OVER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:you|u|ya|y'all)\s+(?:can\s+|could\s+|should\s+|want\s+to\s+|wanna\s+)?decide\b")
            .unwrap()
    });
    // (in the sentence's first clause: a label before it is no decision,
    // "receipts: decide w/ the front desk team monday")
    // (each position checked against the one first break: a long line
    // with many matches stays linear)
    let first_break = s.find([',', ';', '—']).unwrap_or(s.len());
    let first_clause = |at: usize| at <= first_break;
    // (a rule for who decides when, "Reviewers decide during review
    // whether a PR merges", "PMs decide at planning": a plural before it)
    let rule = |at: usize| {
        let prev = s[..at].split_whitespace().next_back().map(lower);
        prev.is_some_and(|w| {
            w.ends_with('s') && !["let's", "lets", "us", "its"].contains(&w.as_str())
        })
    };
    let put_off = DECIDE
        .find_iter(s)
        .any(|m| first_clause(m.start()) && !rule(m.start()));
    let not_yet = NOT_YET.find_iter(s).any(|m| first_clause(m.start()));
    // (the sentence-wide checks only for a sentence that may put off: this
    // runs on every sentence of a conversation)
    if !put_off && !not_yet || is_question(s) || HANDED_OVER.is_match(s) {
        return false;
    }
    let l = lower(s);
    // (deciding now or done: "I'd rather decide today than later", "no
    // point deciding in the meeting, picking GCP now", "we were able to
    // decide in the sync", "whatever we decide at the retro, the freeze
    // stays")
    let decided = has(&l, "now")
        || has(&l, "than")
        || ["whatever", "able to", "had to", "were", "was"]
            .iter()
            .any(|w| has(&l, w));
    put_off && !decided || not_yet
}

fn japanese_decide_later(s: &str) -> bool {
    // deciding at a named meeting or once something is seen (理事会で決定
    // します, 時間見てから決めたい, 結果を見て判断), "決めるのはそのあとで",
    // "決めるのは急がなくていい"
    static DECIDE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?:総会|理事会|委員会|役員会|部会|朝会|例会|運営会|会議|定例|ミーティング|MTG|打ち合わせ|当日|window)",
            r"\s?で(?:決め|決定|判断)|見て(?:から)?(?:判断|決め)"
        ))
        .unwrap()
    });
    // (only a form still to come: not "決定した通り", "決めてあります",
    // "決定事項", "判断の結果")
    const TO_COME: [&str; 13] = [
        "る",
        "させて",
        "ます",
        "たい",
        "よう",
        "ましょう",
        "します",
        "する",
        "しよう",
        "しましょう",
        "したい",
        "予定",
        "いたします",
    ];
    static AFTERWARDS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"決めるのは(?:その)?(?:あと|後|来週|明日|今度|急がなく)").unwrap()
    });
    // still being checked, as the sentence's own first clause: not after a
    // decision ("…方式で進めたいと思いますが、受付システムは確認中です",
    // "Postgres 確定、インスタンスサイズは確認中"), nor a check done
    // ("確認中だった件、OK が出たので…", "検討中の案はすべて却下")
    static PENDING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:確認中|検討中|確認待ち|返事待ち|回答待ち)(?:だった|の案)?").unwrap()
    });
    // (the positions below only for a sentence with a match: this runs on
    // every sentence of a conversation)
    if !DECIDE.is_match(s) && !PENDING.is_match(s) {
        return AFTERWARDS.is_match(s);
    }
    // (where the first decision or "but" is and where the last "but" is,
    // found once: a long line with many matches stays linear)
    const BUT: [&str; 6] = ["が、", "けれど", "けど", "でも", "ですが", "したが"];
    // (ものの, "although", counts only before a pending part)
    const DECIDED: [&str; 6] = ["ものの", "確定", "決定", "決まり", "で進め", "でいき"];
    let decided_at = BUT.iter().chain(&DECIDED).filter_map(|w| s.find(w)).min();
    let last_but = BUT.iter().filter_map(|w| s.rfind(w)).max();
    // (the form ends its clause: not "決定する事項", "決める必要はない",
    // "判断する仕組み"; and nothing was decided before it, "DB は Postgres
    // で確定。サイズは…")
    let ends = |rest: &str| {
        rest.is_empty()
            || rest.starts_with(['。', '！', '!', '（', '(', '）', ')', '、', '，', '」'])
            || ["って", "ね", "よ", "ください", "いただ", "もら"]
                .iter()
                .any(|e| rest.starts_with(e))
    };
    let later = DECIDE.find_iter(s).any(|m| {
        let after = s[m.end()..].trim_start();
        let to_come = ends(after)
            || TO_COME.iter().any(|e| {
                after
                    .strip_prefix(e)
                    .is_some_and(|rest| ends(rest.trim_start()))
            });
        to_come && decided_at.is_none_or(|at| at >= m.start())
    });
    let pending = PENDING.find_iter(s).any(|m| {
        // (not a noun or "while": "確認中のチケット", "確認中に原因が分かった",
        // "検討中でしたが", "検討中ではなく")
        let rest = &s[m.end()..];
        let done = m.as_str().ends_with("だった")
            || m.as_str().ends_with("の案")
            || ["の", "に", "でした", "では", "はやめ"]
                .iter()
                .any(|w| rest.starts_with(w) && !rest.starts_with("のまま"));
        let decided_first = decided_at.is_some_and(|at| at < m.start());
        // ("システムは確認中ですが、受付はQR方式で進めます": a "but" after it
        // goes on to decide)
        let decides_after = last_but.is_some_and(|at| at >= m.end());
        !done && !decided_first && !decides_after
    });
    later || AFTERWARDS.is_match(s) || pending
}

fn chinese_wait_for(s: &str) -> bool {
    // 待议, 再议; 等 as the verb "wait for" someone who will decide:
    // "分摊的事等财务领导定", "这个得等王经理确认" (not 等 of 等级, 等待,
    // 二等座, nor "etc.": "北京上海等城市确定为首批试点"; not the wait given
    // up, "不用等老板批了")
    static ZH: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"待议|再议|待讨论|等[^、，,。；;等]{1,10}?(?:定|决定|拍板|确认|答复|回复|批)")
            .unwrap()
    });
    ZH.find_iter(s).any(|m| {
        if m.as_str().starts_with(['待', '再']) {
            return true;
        }
        let mut before = s[..m.start()].chars().rev();
        let prev = before.next();
        let prev2 = before.next();
        // (要, 需, 在 only after 还 or 得: "还要等", "还在等"; not a design,
        // "接口要等对方回复才返回"; nor the wait given up, "不需要等领导批")
        let verb_place = match prev {
            None => true,
            Some(c) if "要需在".contains(c) => prev2.is_some_and(|p| "还得".contains(p)),
            // (a space on both sides, "Savings Plans 等 prod 稳定": waiting
            // for a thing named in Latin; not "MySQL 等数据库", "etc.")
            Some(' ') => m.as_str()['等'.len_utf8()..].starts_with(' '),
            Some(c) => "，,。；;：:得还事就再都也我你他她们个".contains(c),
        };
        let given_up = prev.is_some_and(|c| "不无没".contains(c))
            || prev2.is_some_and(|c| "不无没".contains(c));
        let next = m.as_str()['等'.len_utf8()..].chars().next();
        let word = next.is_some_and(|c| "待候宽级級於于额同比奖座保不了下会价分量距".contains(c));
        // ("等他确认完就上线": what is done once they answer is decided)
        // (a few characters on, so that a long line stays linear)
        let rest: String = s[m.end()..]
            .chars()
            .take_while(|c| !"，,。；;".contains(*c))
            .take(20)
            .collect();
        let then_acts = ["就", "直接", "才", "过了", "完了", "好了"]
            .iter()
            .any(|w| rest.contains(w));
        verb_place && !given_up && !word && !then_acts
    })
}

/// A few words naming options and nothing else: "atlantis vs GHA",
/// "Postgres or MySQL".
fn names_options(clause: &str) -> bool {
    clause.split_whitespace().count() <= 5
        && [" vs ", " vs. ", " versus ", " or "]
            .iter()
            .any(|m| clause.contains(m))
}

/// The user will ask someone else first, and says nothing more: "asking
/// her", "ill ask him tonight and get back to u", "gotta ask finance
/// first", "ask Lena after" (the assistant asks no one, so an "ask" with
/// only a person and a time after it is the user's own errand, and what
/// it waits for stays open). Not a request with what to ask for ("ask
/// suppliers to price it", "ask for 99.95%", "ask that photos be
/// allowed"), which decides what the request says.
fn asks_someone(s: &str) -> bool {
    static ASK: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?i)^(?:(?:i'll|ill|i will|i'm|im|i am|let me|lemme|gotta|got to|need to|have to|",
            r"will|i shall|going to|gonna|just|first|then|so)\s+)*",
            r"(?:ask|asking|asked)\s+(\S+)(.*)$"
        ))
        .unwrap()
    });
    let said = strip_fillers(s)
        .trim()
        .trim_end_matches(['.', '!', '?', '…']);
    let Some(c) = ASK.captures(said) else {
        return false;
    };
    let who = c[1].trim_end_matches([',', ';', ':']);
    // a person by name: capitalised where the user wrote it ("Lena"), or
    // "my/our/the" and a role ("the landlord")
    let named = who.starts_with(char::is_uppercase)
        && who.chars().all(|ch| ch.is_alphabetic() || ch == '\'');
    let who = lower(who);
    let rest = lower(c[2].trim());
    let (who, rest) = match who.as_str() {
        "my" | "our" | "the" => match rest.split_once(char::is_whitespace) {
            Some((role, more)) => (role.trim_end_matches([',', ';', ':']), more.trim()),
            None => (rest.as_str(), ""),
        },
        _ => (who.as_str(), rest.as_str()),
    };
    (named || words("asked_people").contains(&who))
        && rest
            .split(|ch: char| !ch.is_alphanumeric() && ch != '\'')
            .filter(|w| !w.is_empty())
            .all(|w| words("after_asking").contains(&w) || words("day_names").contains(&w))
}

/// An item of a list under a decision heading ("Decisions:\n- 30 days of
/// retention"): a decision, a "don't" when it says no.
pub fn listed_decision(s: &super::text::Sentence) -> Option<UserKind> {
    // "| 机动组 | 不设，… |" under "| 事项 | 决定 |": a row of a table's
    // verdicts, one decision, saying no when its verdict does
    if s.verdict {
        let verdict = lower(item_and_verdict(&s.text).map_or("", |(_, v)| v));
        // (a word of its own: "取消" of "取消，改为人工", not of "取消按钮放左边";
        // "no" of "no (not needed)", not of "No-code tool")
        let opens_with_no = opening_entry(&verdict, words("negative_verdicts")).is_some_and(|w| {
            verdict[w.len()..]
                .chars()
                .next()
                .is_none_or(|c| c.is_whitespace() || "，,、;；:：(（。.!！)）".contains(c))
        });
        let no = says_no(&verdict) || opens_with_no;
        let polarity = if no {
            Polarity::DontWant
        } else {
            Polarity::Want
        };
        let mut d = Decision::plain(polarity, s.text.clone());
        d.lead = s.heading.clone();
        return Some(UserKind::Decisions(vec![d]));
    }
    let heading = lower(s.heading.as_deref()?);
    let heading = heading.trim();
    // "Decisions", "We decided", "決定事項をまとめておきます": a short line
    // that names them
    let names_decisions = |line: &str| {
        let short = line.chars().count() <= 40;
        words("decision_headings").iter().any(|h| {
            line == *h
                || line.ends_with(h)
                || short && (line.starts_with(h) || !h.is_ascii() && line.contains(h))
        })
    };
    // (or the sentence that announced the labelled parts it is one of,
    // "今天确定的事项汇总如下：" over "**加工**", unless its label says the
    // part is still open, "**待跟进**")
    let section = lower(s.section.as_deref().unwrap_or(""));
    let in_decided_part = names_decisions(section.trim())
        && !has_any(heading, words("undecided_headings"))
        && !has_any(heading, words("pending"));
    if !names_decisions(heading) && !super::text::names_a_recap(heading) && !in_decided_part {
        return None;
    }
    // the heading itself may lead the first item's text
    let text = s
        .text
        .split_once(':')
        .or_else(|| s.text.split_once('：'))
        .filter(|(h, _)| lower(h).trim() == heading)
        .map_or(s.text.as_str(), |(_, rest)| rest.trim());
    // each item stands alone: the heading leads it
    let with_heading = |mut d: Decision| {
        d.lead = Some(s.heading.clone().unwrap_or_default());
        d
    };
    let stated = decisions_in(text);
    if !stated.is_empty() {
        return Some(UserKind::Decisions(
            stated.into_iter().map(with_heading).collect(),
        ));
    }
    let polarity = if says_no(&lower(text)) {
        Polarity::DontWant
    } else {
        Polarity::Want
    };
    Some(UserKind::Decisions(vec![with_heading(Decision::plain(
        polarity,
        normalize(polarity, text),
    ))]))
}

/// A sentence without a verb of its own: no auxiliary, no copula, no
/// personal pronoun ("ElastiCache, small instance, sliding window with the
/// Lua script", "canary 5% for 30 min"). Latin text only.
pub fn is_fragment(s: &str) -> bool {
    if s.chars().any(is_cjk) || is_question(s) {
        return false;
    }
    const VERBISH: &[&str] = &[
        "is", "are", "was", "were", "be", "been", "has", "have", "had", "will", "would", "can",
        "could", "should", "does", "did", "do", "i", "we", "you", "they", "he", "she", "it", "i'm",
        "we're", "it's", "that's", "there's", "isn't", "aren't", "don't", "doesn't", "didn't",
        "won't", "can't", "need", "needs", "want", "wants", "says", "said", "takes", "took", "got",
        "went", "looks", "seems", "works", "came", "thats", "its", "whats", "theres", "im",
        "feels",
    ];
    let ws: Vec<String> = lower(s)
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_owned()
        })
        .collect();
    let contraction = |w: &String| {
        w.split_once('\'').is_some_and(|(a, _)| {
            ["i", "we", "you", "they", "he", "she", "it", "that", "there"].contains(&a)
        })
    };
    !ws.is_empty()
        && ws.len() <= 12
        && !ws
            .iter()
            .any(|w| VERBISH.contains(&w.as_str()) || contraction(w))
        && !ws
            .iter()
            .any(|w| w.len() > 4 && w.ends_with("ed") && !w.ends_with("eed"))
}

/// A decision said without a verb: "Label: a noun phrase with a value"
/// ("And time off: a free morning after any night with more than 2 pages"),
/// or in terse chat a lower-case phrase with a value ("prod tomorrow 10:00
/// UTC", "canary 5% for 30 min").
fn terse_decision(s: &str) -> Option<Decision> {
    let t = s.trim().trim_end_matches(['.', '!']);
    // a number of its own, not one inside a name ("pg-replica-2")
    // ("cutover fri": in terse chat a day is the value of a plan)
    let has_value = |x: &str| {
        x.split(|c: char| c.is_whitespace() || "(),;".contains(c))
            .any(|w| {
                w.starts_with(|c: char| c.is_ascii_digit())
                    || label_free_day(&lower(w.trim_end_matches(['.', '!'])))
            })
    };
    let (label, np) = match t.split_once(": ") {
        Some((label, np)) if label.split_whitespace().count() <= 4 => (Some(label), np),
        _ => (None, t),
    };
    // "step 32" says nothing; "a free morning after any night with more
    // than 2 pages" does
    let content = super::text::terms(np)
        .into_iter()
        .filter(|t| {
            !t.starts_with(|c: char| c.is_ascii_digit())
                && !words("placeholder_nouns").contains(&t.as_str())
                && !words("time_words").contains(&t.as_str())
        })
        .count();
    let l = lower(np);
    if !is_fragment(np)
        || reports_lack(&l)
        || reports_state(&l)
        || reports_event(&l)
        || !has_value(np)
        || np.split_whitespace().count() < 2
        || content < 2 && label.is_some()
    {
        return None;
    }
    let lowercase_start = t.chars().next().is_some_and(|c| c.is_lowercase());
    if label.is_none() && !lowercase_start {
        return None;
    }
    let mut d = Decision::plain(Polarity::Want, normalize(Polarity::Want, np));
    d.lead = label
        .map(|l| strip_fillers(l).to_owned())
        .filter(|l| !l.is_empty());
    d.verbless = true;
    Some(d)
}

/// A decision in the formal register: agreed ("We agree that
/// participants served should count unique individuals"), an obligation
/// ("Program leads are to see only their own program's data"), or work
/// handed to someone ("Please ask Finance to create it read-only"). Not a
/// prediction agreed with ("…will be hard to migrate"), a question ("Who
/// is to approve…"), blame ("Users are to blame") or a request to be told
/// ("Tell me how to configure…").
fn formal_decision(s: &str) -> Option<Decision> {
    static AGREED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?i)^(?:.*\b(?:we|i)\s+(?:also\s+)?(?:agree|have agreed|confirm|can confirm|have decided|decided)",
            r"|it is agreed)\s+that\s+(.+)$"
        ))
        .unwrap()
    });
    static OBLIGED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)^[\w' -]{2,60}?\b(?:is|are) to ([a-z]+)\b").unwrap());
    static MODAL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:should|must|shall|is to|are to|needs? to)\b").unwrap()
    });
    static HANDED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^(?:please\s+)?(?:ask|tell|have)\s+([\w' -]{1,30}?)\s+to\s+[a-z].+$")
            .unwrap()
    });
    // "Support for IE11 will be discontinued", "The nightly job may be
    // decommissioned": what is to be taken away, said in the passive
    static REMOVED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?i)^(?:the\s+)?([\w' ./-]{2,60}?)\s+(?:will|shall|should|is to|are to|is going to|are going to)\s+be\s+",
            r"(?:removed|discontinued|decommissioned|retired|dropped|deprecated|withdrawn|cancell?ed|disabled|deleted|phased out|switched off|turned off)\b"
        ))
        .unwrap()
    });
    // "The launch is postponed to 10 March", "Priya will take ownership of
    // the migration": a date moved, an owner named; a plan approved
    static SETTLED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?i)^[\w' ./-]{2,60}?\s+(?:(?:is|are|will be)\s+(?:postponed|moved|rescheduled|brought forward|pushed back|deferred)\s+(?:to|until|by)\s",
            r"|(?:will|shall|is to)\s+(?:take ownership of|take over|be responsible for|own|lead)\s",
            // ("The three-wave plan is approved as you set it out", "Items 1
            // and 2 are agreed"; not "is approved by the vendor", a report)
            r"|(?:is|are)\s+(?:hereby\s+)?(?:approved|agreed|accepted)(?:\s+as\b|[:;,]|$))"
        ))
        .unwrap()
    });
    let t = s.trim().trim_end_matches(['.', '!']);
    let l = lower(t);
    if !t.is_ascii() || is_question(t) || asks_by_word(&l) {
        return None;
    }
    // (not a report of a rule: "Section 4 says personal data shall be
    // deleted after 30 days")
    let reported = has_any(
        &l,
        &[
            "says",
            "said",
            "states",
            "stated",
            "requires",
            "according",
            "mentions",
            "notes that",
            "writes",
            "thinks",
            "believes",
            "heard",
            "apparently",
            "by the vendor",
        ],
    );
    // (nor what nobody does: "Nothing will be removed")
    let nobody = ["nothing", "nobody", "no one", "none", "no "]
        .iter()
        .any(|w| l.starts_with(w));
    if let Some(c) = REMOVED.captures(t).filter(|_| !reported && !nobody) {
        let mut d = Decision::plain(Polarity::DontWant, c[1].trim().to_owned());
        d.said = t.to_owned();
        return Some(d);
    }
    if SETTLED.is_match(t) && !reported && !nobody && !has_any(&l, &["not", "never"]) {
        let mut d = Decision::plain(Polarity::Want, normalize(Polarity::Want, t));
        d.said = t.to_owned();
        return Some(d);
    }
    let obliged = OBLIGED
        .captures(t)
        .is_some_and(|c| !["be", "blame"].contains(&lower(&c[1]).as_str()));
    let handed = HANDED.captures(t).is_some_and(|c| {
        let who = lower(&c[1]);
        let first = who.split_whitespace().next().unwrap_or("");
        !["me", "us", "you"].contains(&first)
    });
    let body = if let Some(c) = AGREED.captures(t).filter(|c| MODAL.is_match(&c[1])) {
        c[1].to_owned()
    } else if obliged || handed {
        t.to_owned()
    } else {
        return None;
    };
    let mut d = Decision::plain(Polarity::Want, normalize(Polarity::Want, &body));
    d.said = t.to_owned();
    (!d.body.is_empty()).then_some(d)
}

/// A clause led by a question word ("who is to approve…").
fn asks_by_word(l: &str) -> bool {
    [
        "who", "what", "which", "when", "where", "why", "how", "whether",
    ]
    .iter()
    .any(|w| starts_with_word(strip_fillers(l), w))
}

/// A short Latin phrase with no auxiliary, copula, pronoun or modal:
/// terse chat's noun phrases ("weighted or hard flip", "health check on
/// new lb?").
fn no_verb(l: &str) -> bool {
    const VERBISH: &[&str] = &[
        "is", "are", "was", "were", "be", "been", "has", "have", "had", "will", "would", "can",
        "could", "should", "shall", "does", "did", "do", "i", "we", "you", "they", "he", "she",
        "it", "my", "our", "need", "want", "let's", "should", "must", "may",
    ];
    let ws: Vec<&str> = l
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''))
        .collect();
    l.is_ascii()
        && !ws.is_empty()
        && ws.len() <= 8
        && !ws.iter().any(|w| VERBISH.contains(w) || w.contains('\''))
}

/// `clause` gives a value of the kind the negative `text` named.
fn replaces_value(text: &str, clause: &str) -> bool {
    use super::subject::quantities;
    let kinds: Vec<&str> = quantities(text)
        .iter()
        .map(|q| q.kind)
        .filter(|k| !matches!(*k, "number" | "label"))
        .collect();
    let l = lower(clause);
    !kinds.is_empty()
        && quantities(clause).iter().any(|q| kinds.contains(&q.kind))
        && !words("negative_start")
            .iter()
            .any(|n| starts_with_word(strip_fillers(&l), n))
        && !has_any(&l, words("negative_markers"))
}

/// A day named in terse chat ("fri", "tomorrow"): a time word that is a
/// day, not "next" or "later".
fn label_free_day(w: &str) -> bool {
    const DAYS: &[&str] = &[
        "mon",
        "tue",
        "tues",
        "wed",
        "thu",
        "thur",
        "thurs",
        "fri",
        "sat",
        "sun",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "today",
        "tomorrow",
        "tonight",
        "tmrw",
    ];
    DAYS.contains(&w)
}

/// "No retries.", "and no retries after all": what a verbless fragment
/// rules out (the words after "no"), for the caller to check against what
/// is on the table.
pub fn rules_out(s: &str) -> Option<String> {
    if !is_fragment(s) {
        return None;
    }
    let t = s.trim().trim_end_matches(['.', '!']);
    let l = lower(t);
    let mut rest = l.as_str();
    for c in ["and ", "so ", "but ", "also ", "then "] {
        if let Some(r) = rest.strip_prefix(c) {
            rest = r;
            break;
        }
    }
    let rest = rest.strip_prefix("no ")?;
    let start = t.len() - rest.len();
    let np = t[start..].trim();
    np.starts_with(|c: char| c.is_alphabetic())
        .then(|| np.to_owned())
        .filter(|np| !super::text::terms(np).is_empty())
}

/// The statement names a requirement ("… are must-haves", "必须…"). (Only
/// asked of a clause that is no "don't" and no expectation: see
/// `clause_polarity`.)
fn is_requirement(l: &str) -> bool {
    // ("Section 4 says personal data shall be deleted": a rule quoted is
    // no rule set)
    let quoted = has_any(l, &["says", "said", "states", "stated", "according to"]);
    !quoted
        && (has_any(l, words("requirement_markers"))
            || PASSIVE_ORDER.is_match(l)
            || formal_rule(l, false))
}

/// "It shall not receive new features" orders that something not be done;
/// "I shall not be available" does not.
fn shall_not_order(l: &str) -> bool {
    static SHALL_NOT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\bshall not (\w+)").unwrap());
    SHALL_NOT.captures_iter(l).any(|c| &c[1] != "be") || formal_rule(l, true)
}

/// The formal register's rules of a thing, not of a person: "alcohol shall
/// not be reimbursable", "the per diem shall be $80", "the effective date is
/// to be April 1" (`negative`: only the first kind). Not "I shall be in
/// London", "we shall not be available", nor what is still to settle: "the
/// venue is to be decided", "is to be expected".
fn formal_rule(l: &str, negative: bool) -> bool {
    static SHALL_BE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\b(\w+) shall (not )?be (\S+)").unwrap());
    static TO_BE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\b(\w+) (?:is|are) (not )?to be (\S+)").unwrap());
    // (nor a question put as a statement: "it is unclear what is to be
    // made of the figures")
    const NOT_THINGS: [&str; 13] = [
        "i", "we", "you", "he", "she", "they", "what", "which", "who", "how", "where", "when",
        "whether",
    ];
    const UNSETTLED: [&str; 14] = [
        "decided",
        "determined",
        "confirmed",
        "expected",
        "seen",
        "announced",
        "discussed",
        "agreed",
        "confused",
        "found",
        "noted",
        "hoped",
        "continued",
        "reviewed",
    ];
    [&*SHALL_BE, &*TO_BE].iter().any(|re| {
        re.captures_iter(l).any(|c| {
            let next = c[3].trim_end_matches(|ch: char| !ch.is_alphanumeric());
            !NOT_THINGS.contains(&&c[1])
                && c.get(2).is_some() == negative
                && !UNSETTLED.contains(&next)
                && !l.trim_end().ends_with('?')
        })
    })
}

/// "The old server should be kept read-only", "logs must be encrypted", "the
/// target is to be set at 14 days": a modal with a passive says what is to
/// be done to something.
static PASSIVE_ORDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\b(?:should|must|shall|needs to|has to|have to)(?: not)? be (?:\w+ed|kept|set|run|put|made|done|shut|split|frozen|written|rewritten|taken|moved)\b",
        r"|\b(?:is|are) to be (?:set|kept|moved|removed|changed|raised|lowered|reduced|increased|extended|replaced|disabled|enabled|deleted|archived|retired|added|included|excluded)\b"
    ))
    .unwrap()
});

/// "Please revise the postdoc to $60,000", "kindly budget 60 hours": after
/// "please" comes a verb, whichever; one that asks to be told, to wait or to
/// be helped settles nothing ("please note", "please let me know").
fn please_verb(clause: &str) -> bool {
    const AUX: &[&str] = &[
        "is", "are", "was", "were", "be", "has", "have", "will", "can",
    ];
    const NOT_SETTLING: &[&str] = &[
        "note",
        "see",
        "let",
        "bear",
        "remember",
        "feel",
        "advise",
        "confirm",
        "find",
        "consider",
        "understand",
        "wait",
        "hold",
        "help",
        "send",
        "share",
        "ask",
        "reply",
        "respond",
        "answer",
        "ignore",
        "forgive",
        "excuse",
        "stand",
        "don't",
        "do",
        "tell",
        "check",
        // (work asked of the assistant, and set phrases)
        "write",
        "rewrite",
        "translate",
        "clarify",
        "provide",
        "generate",
        "read",
        "forward",
        "prepare",
        "suggest",
        "recommend",
        "propose",
        "outline",
        "elaborate",
        "expand",
        "continue",
        "proceed",
        "go",
        "enjoy",
        "welcome",
        "accept",
        "god",
        "try",
        "think",
        "give",
        "make",
        "repeat",
        "summarise",
        "summarize",
        "remind",
    ];
    let mut l = lower(clause.trim_start_matches(|c: char| !c.is_alphanumeric()));
    const PLEASE: [&str; 4] = ["please ", "kindly ", "pls ", "plz "];
    // ("…capped at $60,000, so please revise the postdoc to $60,000": the
    // words that link it to the reason before come off first)
    while !PLEASE.iter().any(|p| l.starts_with(p)) {
        let Some(f) = words("fillers").iter().find(|f| starts_with_word(&l, f)) else {
            break;
        };
        l = l[f.len()..]
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .to_owned();
    }
    let Some(rest) = PLEASE.iter().find_map(|p| l.strip_prefix(p)) else {
        return false;
    };
    let verb = rest.split_whitespace().next().unwrap_or("");
    !verb.is_empty()
        && verb.chars().all(|c| c.is_ascii_lowercase())
        && !AUX.contains(&verb)
        && !NOT_SETTLING.contains(&verb)
        && !words("request_verbs")
            .iter()
            .any(|v| starts_with_word(rest, v))
        && !words("pronouns").contains(&verb)
        && !words("articles").contains(&verb)
        && rest.split_whitespace().count() >= 2
        // (a value it sets: "revise the postdoc to $60,000", "budget 60
        // hours"; without one, "please take a look", "please decide which is
        // better", "please sign the form" ask for work)
        && (rest.contains(|c: char| c.is_ascii_digit())
            || ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
                .iter()
                .any(|n| rest.split_whitespace().any(|w| w == *n)))
        && !["calculate", "convert", "estimate", "compute", "count", "rank", "evaluate", "round"]
            .contains(&verb)
        && !l.trim_end().ends_with('?')
}

/// A clause that instructs: it starts with an imperative verb not followed
/// by a copula or auxiliary ("Add the index", not "Log retention is 30
/// days"); in Chinese it starts with a verb of instruction; in Japanese it
/// ends in a form that decides or asks (〜にします, 〜してください, 〜に戻して,
/// a short "X で").
pub(crate) fn is_instruction(body: &str) -> bool {
    let l = lower(body.trim());
    // a request to show or explain something decides nothing
    let start = lower(strip_fillers(body));
    // ("take a look at the logs", "have a look": a request to look)
    if [
        "take a look",
        "have a look",
        "take a peek",
        "take a quick look",
    ]
    .iter()
    .any(|p| start.starts_with(p))
    {
        return false;
    }
    if words("request_verbs")
        .iter()
        .any(|v| starts_with_word(&start, v) || !v.is_ascii() && l.contains(v))
    {
        return false;
    }
    let mut ws = l.split_whitespace();
    let first = ws
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '+');
    let second = ws
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_alphanumeric());
    const AUX: &[&str] = &[
        "is", "are", "was", "were", "has", "have", "had", "will", "would", "can", "could",
        "should", "does", "did", "seems", "looks", "means", "takes", "needs", "isn't", "aren't",
        "wasn't",
    ];
    // "run 8812", "step 3", "PR 5120": a noun with its number
    let numbered = [
        "run", "build", "step", "job", "release", "test", "page", "cut",
    ]
    .contains(&first)
        && second.starts_with(|c: char| c.is_ascii_digit() || c == '#');
    // (a word that is a noun as often as a verb gives an order only with
    // its object or place after it, "stay on dynamo", "post the results",
    // "rent 3 from Westside", and no verb later: not "stay tuned", "rent
    // went up", "post title needs work", "stay at the ryokan was amazing")
    // (read only for those words: every sentence passes here)
    let reads_as_order = || {
        let takes_object = second.starts_with(|c: char| c.is_ascii_digit())
            || [
                "the", "a", "an", "it", "them", "this", "that", "these", "those", "on", "with",
                "in", "at", "to", "our", "my", "your", "all", "both", "everyone", "him", "her",
            ]
            .contains(&second);
        // (in its own clause: "stay on dynamo, we can revisit later" orders)
        let later_verb = l
            .split([',', ';', '.', '!'])
            .next()
            .unwrap_or("")
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .skip(2)
            .any(|w| AUX.contains(&w) || ["went", "got", "came", "closes", "expired"].contains(&w));
        takes_object && !later_verb
    };
    let homograph = ["stay", "post", "rent", "invite"].contains(&first);
    // ("change of plan", "use of X": the verb is a noun)
    if words("imperative_verbs").contains(&first)
        && !AUX.contains(&second)
        && second != "of"
        && !numbered
        && !l.ends_with('?')
        && (!homograph || reads_as_order())
    {
        return true;
    }
    if first == "rate" && second == "limit" {
        return true;
    }
    // "assign them", "page him": in a clause of two or three words, a word
    // before an object pronoun is a verb, whichever; not one of feeling or
    // knowing ("love it") nor a report ("fixed it")
    const NOT_ORDERS: &[&str] = &[
        "love", "like", "hate", "get", "got", "see", "saw", "know", "knew", "need", "want", "mean",
        "have", "had", "did", "made", "read", "heard", "feel", "found", "thought",
    ];
    let n = l.split_whitespace().count();
    if (2..=3).contains(&n)
        && !l.ends_with('?')
        && first
            .chars()
            .all(|c| c.is_ascii_lowercase() || c == '_' || c == '-')
        && ["it", "them", "those", "him", "her"].contains(&second)
        && !AUX.contains(&first)
        && !NOT_ORDERS.contains(&first)
        && !words("pronouns").contains(&first)
        && !first.ends_with("ed")
    {
        return true;
    }
    // "For REQ-118 keep the onsite loop at four interviews": a scope, then
    // the instruction
    if matches!(first, "for" | "on" | "in") && !l.ends_with('?') {
        let verb = body.split_whitespace().skip(2).take(4).find(|w| {
            words("imperative_verbs")
                .contains(&lower(w.trim_matches(|c: char| !c.is_alphanumeric())).as_str())
        });
        if let Some(w) = verb {
            let at = w.as_ptr() as usize - body.as_ptr() as usize;
            return is_instruction(&body[at..]);
        }
    }
    // a clause inside a sentence keeps its comma ("阈值还是 150 ms 吧，…")
    let t = body
        .trim()
        .trim_end_matches(['。', '！', '!', '.', '，', ','])
        .trim_end();
    if t.chars().any(is_kana) {
        // a clause joined by 、 ends there ("回答のトーンは丁寧語で、絵文字は…");
        // one giving a figure describes ("問い合わせは約 1 万 2 千件で、…"),
        // as does one with a subject in が ("ほとんどが学生で、…": what is,
        // where a pick names only its topic, "回答のトーンは丁寧語で"); not
        // who takes a role ("私が担当で、", "鈴木さんが司会で、", "A社が第一候補で、")
        let joined = t.ends_with('、');
        let t = t.trim_end_matches('、').trim_end();
        let describes = joined && (t.chars().any(|c| c.is_ascii_digit()) || ga_describes(t));
        // "締め切りは木曜20時でいいよ", "Redis は replica 1 で OK": the
        // particle that closes casual speech is not part of the ending
        // ("リアクションにしよ": よ may be the volitional's own, kept below)
        let spoken = t;
        let t = t
            .trim_end_matches(['よ', 'ね', 'わ', 'ー', '～', '〜'])
            .trim_end();
        if deictic_acceptance(t) {
            return false;
        }
        // "…を四半期ごとにやりたいです", "…に投稿してほしい": a wish for what
        // is built; not one to know, ask or be told ("確認したい", "教えて
        // ほしい")
        let wish = ["たいです", "たい", "たいと思います", "たいと存じます", "てほしい", "てほしいです"]
            .iter()
            .any(|e| t.ends_with(e))
            && ![
                "知りたい", "聞きたい", "確認したい", "相談したい", "教えて", "見たい", "分かりたい",
                "わかりたい", "説明して", "聞いてみたい", "試したい", "考えたい", "検討したい",
            ]
            .iter()
            .any(|w| t.contains(w))
            // (a goal the conversation opens with is no decision: "バックア
            // ップ方針を見直したいです", "カリキュラムを組みたいです")
            && ![
                "決めたい", "決め直したい", "見直したい", "組みたい", "自動化したい", "整理したい",
                "揃えたい", "ようにしたい", "ようにしておきたい", "しておきたい", "作りたい",
                "移したい", "改善したい", "ちゃんとしたい",
            ]
            .iter()
            .any(|w| t.contains(w))
            && t.chars().count() <= 60
            && !is_question(t);
        if wish {
            return true;
        }
        // "…ので", "…から", "…ため": a reason, not a decision
        // ("寝室兼用なんで": …なので, said casually)
        if ["ので", "なんで", "から", "ため", "けど", "が"]
            .iter()
            .any(|e| t.ends_with(e))
        {
            return false;
        }
        // "今回は DigiCert で更新": a verbal noun after its particle, the
        // terse form of 〜で更新します
        let chars: Vec<char> = t.chars().collect();
        let terse = chars.len() >= 3
            && chars[chars.len() - 2..]
                .iter()
                .all(|c| is_cjk(*c) && !is_kana(*c))
            && matches!(chars[chars.len() - 3], 'で' | 'に' | 'を')
            && !is_question(t);
        return words("ja_decision_endings").iter().any(|e| {
            lower(t).ends_with(e)
                    // (not a question of which: "何にしよ", "どれにしよ")
                    || spoken.ends_with(e)
                        && e.ends_with('よ')
                        && !["何", "どれ", "どこ", "いつ", "誰"].iter().any(|q| t.contains(q))
        }) || t.ends_with('で') && short_ja(t) && !describes
            || terse;
    }
    if t.chars().any(is_cjk) {
        let start = strip_fillers(t);
        // "用的是 serde_json" describes, "用 serde_json" instructs
        let descriptive = |rest: &str| {
            rest.starts_with([
                '的', '了', '着', '过', '是', '于', '来', '户', '不', '求', '么', '始',
            ])
        };
        // "运营先只给只读权限", "events 只迁最近 90 天": a topic, then an
        // adverb of instruction, then the verb
        let mut starts = vec![start];
        // ("iOS 也明天上午放出去": an adverb, then when, then the verb)
        const ADVERBS: [&str; 8] = ["先", "只", "就", "都", "也", "单独", "统一", "一律"];
        const WHEN: [&str; 11] = [
            "明天",
            "今天",
            "今晚",
            "后天",
            "上午",
            "下午",
            "晚上",
            "周末",
            "下周",
            "下个月",
            "下次",
        ];
        // a clause that opens with a past time reports: "上个月有两次司机…被
        // 查到", "前天删掉了测试数据" are no orders
        const PAST: [&str; 9] = [
            "上个月",
            "上周",
            "上次",
            "昨天",
            "前天",
            "去年",
            "刚才",
            "之前",
            "以前",
        ];
        if PAST.iter().any(|p| start.starts_with(p)) {
            return false;
        }
        for adverb in ADVERBS {
            if let Some((i, _)) = start.match_indices(adverb).next() {
                if i > 0 && start[..i].chars().count() <= 12 {
                    starts.push(&start[i..]);
                }
            }
        }
        let imperative = |v: &&str| {
            starts.iter().any(|s| {
                let mut rest = *s;
                while let Some(r) = ADVERBS
                    .iter()
                    .chain(WHEN.iter())
                    .find_map(|a| rest.strip_prefix(a))
                {
                    rest = r.trim_start();
                }
                // "列一动就要骂人": 就要 says what will happen
                let will = *v == "要" && s.contains("就要");
                rest.strip_prefix(v).is_some_and(|r| !descriptive(r)) && !will
            })
        };
        if words("zh_imperatives").iter().any(imperative) {
            return true;
        }
        // "回收商只处理隔断和文件柜", "旧椅子全部带走": a topic, then an adverb
        // that narrows or covers all, then any verb says what is to be done
        // to it (not "只有两台", "只会用 Excel", "全部丢了": a state, an
        // ability, a past)
        const SCOPE: [&str; 5] = ["只", "全部", "全都", "统一", "一律"];
        const STATES: [char; 15] = [
            '有', '是', '会', '能', '可', '要', '在', '没', '不', '剩', '够', '支', '想', '来',
            '认',
        ];
        // (a person or a thing pointed at does it, as a habit or a fact:
        // "他只吃素", "老板只看结果", "这个函数只处理字符串")
        const AGENTS: [&str; 14] = [
            "我", "你", "他", "她", "它", "大家", "老板", "客户", "用户", "领导", "这个", "那个",
            "这", "那",
        ];
        // (a topic that wishes, fears or reports is no topic: "想统一做个
        // SDK", "他说只…")
        const NO_TOPIC: [&str; 7] = ["想", "希望", "打算", "担心", "觉得", "说", "准备"];
        let scoped = SCOPE.iter().any(|a| {
            start.match_indices(a).any(|(i, _)| {
                let topic = &start[..i];
                if NO_TOPIC.iter().any(|w| topic.contains(w))
                    || AGENTS.iter().any(|w| topic.starts_with(w))
                {
                    return false;
                }
                let verb = start[i + a.len()..].chars().next();
                (1..=8).contains(&topic.chars().count())
                    && topic
                        .chars()
                        .all(|c| is_cjk(c) && !is_kana(c) || c.is_ascii_alphanumeric())
                    && verb.is_some_and(|c| is_cjk(c) && !is_kana(c) && !STATES.contains(&c))
            })
        }) && !start.contains(['了', '过', '着', '？', '?']);
        if scoped {
            return true;
        }
        // "本地留 7 天": a verb setting a value ("调 40", "留 7 天")
        // (not 要/都/先…: "上传要 1 分多钟" says how long it takes)
        const NOT_SETTING: [&str; 10] = [
            "要", "都", "先", "按", "上", "下", "别", "不要", "不用", "走",
        ];
        let sets_value = words("zh_verbs")
            .iter()
            .filter(|v| !NOT_SETTING.contains(v))
            .any(|v| {
                t.match_indices(v).any(|(i, _)| {
                    let rest = t[i + v.len()..].trim_start();
                    !t[..i].ends_with('已')
                        && !t[..i].ends_with("已经")
                        && rest.starts_with(|c: char| c.is_ascii_digit())
                })
            });
        if sets_value && !t.ends_with('了') && !is_question(t) {
            return true;
        }
        // "先在 staging 上演练一次": "first, …" orders a step
        // (also after a topic: "安卓先发", as the adverbs above)
        if starts.iter().any(|st| {
            st.strip_prefix('先')
                .is_some_and(|r| !descriptive(r) && !r.starts_with(['不', '别']))
        }) {
            return true;
        }
        // a verb of decision inside: "日志级别马上改回 INFO", not "已经改成了"
        let inside = words("zh_decision_verbs").iter().any(|v| {
            t.match_indices(v).any(|(i, _)| {
                let before = &t[..i];
                let rest = &t[i + v.len()..];
                // a one-character verb instructs only with an object ("用
                // Canal", not "切换当晚要用")
                // "定了" reports a decision only with what was decided ("定了：
                // 10 分钟"), not "社区那边改版定了"
                let needs_object = v.chars().count() == 1 || v.ends_with('了');
                let after = rest.trim_start_matches(['：', ':', ' ']);
                // "定了：" at the end of a clause: the next clause says what
                let object = !needs_object
                    || after.starts_with(|c: char| c.is_alphanumeric() || c == '`')
                    || after.is_empty() && (rest.starts_with('：') || rest.starts_with(':'));
                !before.ends_with('已')
                    && !before.ends_with("已经")
                    && !descriptive(rest)
                    && !rest.starts_with("户")
                    && object
            })
        });
        return inside && !t.contains("已经") && !t.ends_with('了')
            || t.ends_with('吧') && !t.ends_with("好吧");
    }
    false
}

/// Is Japanese text short enough to be a bare "X で" pick: at most 40
/// characters, a Latin name counting as one ("フォアグラウンドは
/// flutter_local_notifications のほうで").
fn short_ja(t: &str) -> bool {
    // (one name: two are a description, "本番は cluster_a で…staging は
    // project_b で")
    let names = t
        .split(|c: char| !(c.is_ascii_alphanumeric() || "_-.".contains(c)))
        .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        .count();
    if names > 1 {
        return t.chars().count() <= 40;
    }
    let mut n = 0;
    let mut in_word = false;
    for c in t.chars() {
        let latin = c.is_ascii_alphanumeric() || "_-.".contains(c);
        if !(latin && in_word) {
            n += 1;
        }
        in_word = latin;
    }
    n <= 40
}

/// `l` starts with the approval `a`, followed by a boundary: the end, a
/// mark or a space (so 承認は… or 可以考虑 are not approvals).
fn starts_with_approval(l: &str, a: &str) -> bool {
    if a.is_ascii() {
        return starts_with_word(l, a);
    }
    l.strip_prefix(a).is_some_and(|rest| {
        rest.is_empty()
            || rest.starts_with(|c: char| c.is_whitespace() || "，,。.！!、：:；;？?".contains(c))
    })
}

/// An approval marker at the start of the sentence, and what follows it.
fn approval(s: &str) -> Option<(bool, String)> {
    let l = lower(s.trim());
    let longest = |list: &'static [&'static str]| {
        list.iter()
            .filter(|a| starts_with_approval(&l, a))
            .max_by_key(|a| a.len())
    };
    let strong = longest(words("strong_approvals"));
    let weak = longest(words("weak_approvals"));
    let (is_strong, marker) = match (strong, weak) {
        (Some(a), _) => (true, *a),
        (None, Some(a)) => (false, *a),
        _ => return deictic_choice(s).then(|| (true, String::new())),
    };
    let rest = strip_fillers(&s.trim()[marker.len()..]);
    let rest = rest.trim_end_matches(['.', '!', '。', '！']);
    Some((is_strong, rest.trim().to_owned()))
}

/// Does the rest of an approval only point back at the proposal?
pub fn is_deictic(rest: &str) -> bool {
    let l = lower(rest.trim());
    l.is_empty()
        || words("deictic").contains(&l.as_str())
        || is_small_talk(rest)
        || deictic_choice(rest)
        || verb_on_pronoun(&l)
        || names_the_proposal(rest)
}

/// "let's roll with that", "go for it", "ship that one": a few words whose
/// object is a pronoun name nothing the proposal did not, whatever the verb.
fn verb_on_pronoun(l: &str) -> bool {
    let mut l = l.trim_end_matches(['.', '!', '。', '！']).trim();
    for lead in [
        "let's ", "let us ", "we'll ", "we will ", "please ", "just ",
    ] {
        l = l.strip_prefix(lead).unwrap_or(l).trim_start();
    }
    let ws: Vec<&str> = l.split_whitespace().collect();
    let Some((last, before)) = ws.split_last() else {
        return false;
    };
    let last = if *last == "one" && before.last().is_some_and(|w| ["that", "this"].contains(w)) {
        "that"
    } else {
        last
    };
    !before.is_empty()
        && ws.len() <= 4
        && ["it", "that", "this", "them", "those"].contains(&last)
        && !words("pronouns").contains(&before[0])
        && !before
            .iter()
            .any(|w| w.chars().any(|c| c.is_ascii_digit() || "_-./`".contains(c)))
}

/// The sentence names the proposal itself ("ご提案の内容で進めてください",
/// "淘汰策略就按你说的改", "as you suggested") and adds no value or name
/// of its own: it takes what was proposed. ("排序规则按你说的显式写
/// utf8mb4_general_ci" says what it takes.)
pub fn names_the_proposal(s: &str) -> bool {
    let l = lower(s);
    let Some(r) = words("proposal_refs").iter().find(|r| has(&l, r)) else {
        return false;
    };
    let rest = l.replacen(r, " ", 1);
    !rest
        .chars()
        .any(|c| c.is_ascii_digit() || "_`/".contains(c))
        && super::text::terms(&rest).len() <= 4
}

/// "そのキー形式で", "この案でお願いします", "就这个吧": a short choice of
/// "that" names nothing of its own, so it takes what was just proposed.
fn deictic_choice(s: &str) -> bool {
    let t = strip_fillers(s)
        .trim()
        .trim_end_matches(['。', '！', '!', '.']);
    let points = [
        "その",
        "この",
        "それ",
        "これ",
        "这个",
        "那个",
        "就这个",
        "就那个",
    ]
    .iter()
    .any(|d| t.starts_with(d));
    let chooses = [
        "で",
        "でお願いします",
        "でいきましょう",
        "で行きましょう",
        "でいい",
        "吧",
        "来",
    ]
    .iter()
    .any(|e| t.ends_with(e));
    points && chooses && t.chars().count() <= 12 && !t.chars().any(|c| c.is_ascii_alphanumeric())
}

/// The decisions a sentence states, one per run of clauses of the same
/// polarity (so "不用 YAML 了，改成 TOML" is two).
/// "超 5 分钟那个不行，改成超 10 分钟才报", "from 20 to 40", "180 is too
/// tight, make it 240": the value said in a clause that rejects it, before
/// a verb that sets another of the same kind, is the value replaced. (A
/// value merely said before, "we had 3 outages, so make it 4 engineers",
/// is another thing's.)
fn value_before_change(s: &str) -> Option<String> {
    let l = lower(s);
    if l.len() != s.len() {
        return None; // (positions in `l` must be positions in `s`)
    }
    let qs = super::subject::quantities(s);
    let (verb_at, _) = first_listed(
        &l,
        0,
        words("change_verbs").iter().chain(words("value_verbs")),
    )?;
    let after: Vec<&str> = qs
        .iter()
        .filter(|q| q.start >= verb_at && !matches!(q.kind, "version" | "label"))
        .map(|q| q.kind)
        .collect();
    // what follows the value says it is wrong ("8 秒太长了", "180 is too
    // tight", "5 分钟那个不行"), not what follows another word ("3 个人
    // 不够", "100 people, too many", "30% 了，太好了", "4 tools")
    let rejected = |after: &str| {
        let after = past_rejection_links(after);
        words("value_rejections").iter().any(|w| {
            after
                .strip_prefix(w)
                .is_some_and(|r| !w.is_ascii() || !r.starts_with(|c: char| c.is_alphanumeric()))
        }) && !words("value_praise").iter().any(|w| after.starts_with(w))
    };
    if let Some(old) = qs
        .iter()
        .rev()
        .find(|q| q.end <= verb_at && after.contains(&q.kind))
    {
        if rejected(&l[old.end..verb_at]) {
            return Some(s[old.start..old.end].trim().to_owned());
        }
    }
    // (or after the new value, in a clause of its own that says nothing
    // else: "make it 150, 400 is pointless", not "make it 25, 10 is too few
    // per page", which is of another setting)
    let says_only_that = |after: &str| {
        let clause = after
            .split([',', '.', ';', '，', '。', '；'])
            .next()
            .unwrap_or("")
            .trim_start();
        let rest = past_rejection_links(clause);
        let Some(w) = words("value_rejections")
            .iter()
            .filter(|w| rest.starts_with(*w))
            .max_by_key(|w| w.len())
        else {
            return false;
        };
        let mut ws = rest[w.len()..].split_whitespace();
        // ("too much", "too few": the rejection's own word)
        if *w == "too" {
            ws.next();
        }
        let left: Vec<&str> = ws.collect();
        if clause.chars().any(is_cjk) {
            // ("400 太多了": what is left of a Chinese or Japanese one is
            // its ending)
            return left.concat().chars().count() <= 3;
        }
        left.iter()
            .all(|w| ["anyway", "lol", "honestly", "really", "tbh"].contains(w))
    };
    let mut later = qs.iter().filter(|q| q.start >= verb_at);
    let new = later.next()?;
    later
        .find(|q| {
            q.kind == new.kind
                && l[new.end..q.start].contains([',', '，', ';', '；'])
                && rejected(&l[q.end..])
                && says_only_that(&l[q.end..])
        })
        .map(|q| s[q.start..q.end].trim().to_owned())
}

/// A value a change names before its verb, and the one it sets after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueChange {
    pub was: String,
    pub now: String,
    pub kind: &'static str,
    /// What `was` was said of ("retention" of "retention 2 is tight"), when
    /// the words before it name something.
    pub subject: Option<String>,
    /// What the change names as its setting ("load test" of "for the load
    /// test make it 3/12"), when it names one before its verb.
    pub names: Option<String>,
    /// A bare number or a count ("2", "4 people"): ambiguous alone.
    pub bare: bool,
}

/// ("feb 14", "feb 21") of "feb 14 is inside it. ugh." + "make it feb 21":
/// the verb is in `said`, the old value of the same kind may be in what
/// the turn said `before` it (its last few sentences: a long turn stays
/// linear). Unlike `value_before_change` nothing need say the first is
/// wrong, so this alone is no reversal: only a decision that set the first
/// value is replaced by it.
pub fn value_then_change(before: &str, said: &str) -> Option<ValueChange> {
    const NEAR: usize = 300;
    let mut cut = before.len().saturating_sub(NEAR);
    while !before.is_char_boundary(cut) {
        cut += 1;
    }
    let s = format!("{} {said}", &before[cut..]);
    let l = lower(&s);
    if l.len() != s.len() {
        return None;
    }
    let from = s.len() - said.len();
    let qs = super::subject::quantities(&s);
    let settable = |q: &&super::subject::Quantity| !matches!(q.kind, "version" | "label");
    // (the verb right before the value: "make it feb 21", "改成 10 分钟";
    // not "we'll make it if QA signs off by march 2", "老王提到3月8日")
    let verb = first_listed(&l, from, words("value_change_verbs"));
    let pair = from_to(&s, from, &qs).or_else(|| {
        // ("14 だと…12 にしてください": the new value right before the
        // ending, the old one before that)
        let (new, old_before) = match verb {
            Some((at, end)) => {
                let new = qs.iter().filter(settable).find(|q| q.start >= end)?;
                let between = s[end..new.start].trim().trim_matches(CURRENCY);
                if !between.is_empty() {
                    return None;
                }
                (new, at)
            }
            None => {
                let at = words("value_endings")
                    .iter()
                    .filter_map(|e| l[from..].find(e).map(|i| from + i))
                    .min()?;
                let new = qs
                    .iter()
                    .filter(settable)
                    .rfind(|q| q.end <= at && s[q.end..at].trim().is_empty())?;
                (new, new.start)
            }
        };
        let old = qs
            .iter()
            .rev()
            .find(|q| q.end <= old_before && q.kind == new.kind)?;
        // (not the two ends of a range: "7-8", "10〜12 にして")
        let gap = s[old.end..new.start].trim();
        (!["", "-", "–", "—", "~", "〜", "～", "to", "から", "到", "至"].contains(&gap))
            .then_some((old, new))
    });
    let (old, new) = pair?;
    let gap = s[old.end..new.start].trim();
    // (a bare number is of the sentence it is in: "学生は1000円で！ … 会費
    // やっぱ高い … 1800にする" changes the fee, not the student price)
    let bare = matches!(old.kind, "number" | "count" | "people" | "times" | "ratio");
    if bare && gap.contains(['。', '！', '？', '\n']) {
        return None;
    }
    // The setting the change names: after the new value ("make it 15:00
    // for the 1:1"; "for now" names none), before the verb in the clause
    // after the old value ("for the load test make it 3/12"), or before the
    // value an ending follows ("ドキュメント公開は3月12日にしよう", unless it
    // holds the old value: "上限、5件だと少ないので8件に").
    let after = s[new.end..].trim_start();
    let names = match verb {
        Some(_)
            if lower(after).starts_with("for ")
                && ![
                    "now",
                    "the time being",
                    "a while",
                    "the moment",
                    "today",
                    "this week",
                ]
                .iter()
                .any(|w| lower(&after[4..]).starts_with(w)) =>
        {
            Some(
                after[4..]
                    .split([',', '.', ';', '，', '。', '；'])
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_owned(),
            )
        }
        Some((at, _)) => (at > old.end)
            .then(|| super::subject::subject_before(&s, at))
            .flatten(),
        None => super::subject::subject_before(&s, new.start)
            .filter(|n| !n.contains(s[old.start..old.end].trim())),
    }
    .map(|n| change_object(&n).to_owned());
    let text = |q: &super::subject::Quantity| s[q.start..q.end].trim().to_owned();
    (text(old) != text(new)).then(|| ValueChange {
        was: text(old),
        now: text(new),
        kind: new.kind,
        // ("上限、5件だと…": a topic set off by a comma)
        subject: super::subject::subject_before(&s, old.start)
            .or_else(|| {
                let head = s[..old.start].trim_end();
                let comma = head.strip_suffix(['、', ',', '，'])?;
                super::subject::subject_before(&s, comma.len())
            })
            .map(|subject| change_object(&subject).to_owned()),
        names,
        bare,
    })
}

/// What a Chinese change is of: the object after 将/把, without the 从
/// and the currency sign before the value ("建议将人工复核线从 $" → "人工复核线").
fn change_object(subject: &str) -> &str {
    let s = subject
        .trim_end()
        .trim_end_matches(CURRENCY)
        .trim_end()
        .trim_end_matches('从')
        .trim_end();
    match s.rfind(['将', '把']) {
        Some(i) if s.chars().any(is_cjk) => s[i + '将'.len_utf8()..].trim_start(),
        _ => s,
    }
}

/// A change said as from one value to another, not a range: "lower the
/// review line from $300 to $200" (a verb of change before "from"),
/// "将复核线从 $300 下调至 $200" (a verb before 至/到/为/成), "30分から60分に
/// 変更" (an ending after the new value). Both values in `s[from..]`.
fn from_to<'q>(
    s: &str,
    from: usize,
    qs: &'q [super::subject::Quantity],
) -> Option<(&'q super::subject::Quantity, &'q super::subject::Quantity)> {
    const EN_VERBS: [&str; 16] = [
        "lower", "raise", "move", "change", "cut", "bump", "reduce", "increase", "push", "shift",
        "drop", "extend", "shorten", "decrease", "adjust", "update",
    ];
    const ZH_VERBS: [char; 9] = ['调', '改', '降', '提', '延', '缩', '减', '增', '推'];
    let settable: Vec<&super::subject::Quantity> = qs
        .iter()
        .filter(|q| q.start >= from && !matches!(q.kind, "version" | "label"))
        .collect();
    settable.windows(2).find_map(|w| {
        let (a, b) = (w[0], w[1]);
        if a.kind != b.kind {
            return None;
        }
        let before = s[..a.start]
            .trim_end()
            .trim_end_matches(CURRENCY)
            .trim_end();
        let gap = s[a.end..b.start].trim().trim_end_matches(CURRENCY).trim();
        let clause_start = before
            .rfind(['.', ';', ',', '。', '；', '，', '\n'])
            .map_or(0, |i| {
                i + before[i..].chars().next().map_or(1, char::len_utf8)
            });
        let clause = lower(&before[clause_start..]);
        // (the clause's own verb, leading it: not "Pause OS updates from
        // 22:00", "Send push notifications from 08:00")
        let leading = clause
            .split_whitespace()
            .find(|w| !["please", "pls", "so", "then", "just", "ok", "let's", "lets"].contains(w));
        let english = clause.ends_with(" from")
            && ["to", "->", "→"].contains(&gap)
            && leading.is_some_and(|w| EN_VERBS.contains(&w));
        let chinese = before.ends_with('从')
            && gap.ends_with(['至', '到', '为', '成'])
            && gap.chars().count() <= 5
            && gap.contains(ZH_VERBS);
        let japanese = gap == "から"
            && words("value_endings")
                .iter()
                .any(|e| s[b.end..].trim_start().starts_with(e));
        (english || chinese || japanese).then_some((a, b))
    })
}

/// `after` without the words that link a value to its rejection ("是",
/// "那个", "is", "a bit": "8 秒那个太长", "180 is a bit tight").
fn past_rejection_links(after: &str) -> &str {
    let mut rest = after.trim_start();
    while let Some(r) = words("rejection_links").iter().find_map(|w| {
        rest.strip_prefix(w)
            .filter(|r| !w.is_ascii() || r.starts_with(' '))
    }) {
        rest = r.trim_start();
    }
    rest
}

pub fn decisions_in(s: &str) -> Vec<Decision> {
    // (a CJK correction gives the new value after the old one: "40 ページ
    // ではなく 25 ページ"; "不是 5 个人不够，是排班有问题" names no new value
    // and corrects no decision)
    let cjk_correction = CJK_NOT_VALUE
        .captures(s)
        .filter(|c| s[c.get(0).map_or(0, |m| m.end())..].contains(|ch: char| ch.is_ascii_digit()));
    let old_value = [&*NOT_VALUE, &*ARROW_VALUE, &*NOT_WORD]
        .iter()
        .find_map(|re| re.captures(s))
        .or(cjk_correction)
        .and_then(|c| c.get(1).or_else(|| c.get(2)))
        .map(|m| m.as_str().trim().trim_end_matches([',', '.']).to_owned())
        .or_else(|| value_before_change(s));
    let reverses = old_value.is_some() || has_any(&lower(s), words("reversal_cues"));
    let mut runs: Vec<(Polarity, String)> = Vec::new();
    let mut lead = String::new();
    let mut turned_down = false;
    // (once per sentence: a line of thousands of clauses stays linear)
    let whole = lower(s);
    let reason = whole.split_once("no:").map_or("", |(_, r)| r.trim_start());
    for clause in clauses(s) {
        // "The smoothing window, no: riders already complain …": a bare
        // "no" turns down the phrase before it; what follows is the reason
        let c = lower(clause.trim());
        let bare_no = c.trim_end_matches(['.', '!']) == "no" || c.starts_with("no:");
        // (not "Honestly, no.", "Staging, no: it is still down": a thing
        // named, not an adverb or a state)
        let named = lead.trim().trim_end_matches([',', ':']);
        const ADVERBS: [&str; 9] = [
            "honestly",
            "frankly",
            "really",
            "seriously",
            "actually",
            "basically",
            "personally",
            "sadly",
            "unfortunately",
        ];
        let a_thing = is_fragment(named)
            && !ADVERBS.contains(&named.to_lowercase().as_str())
            && !["it is still", "it's still", "still", "waiting", "not yet"]
                .iter()
                .any(|w| reason.starts_with(w));
        if bare_no
            && a_thing
            && runs.is_empty()
            && (1..=6).contains(&lead.split_whitespace().count())
        {
            runs.push((Polarity::DontWant, std::mem::take(&mut lead)));
            turned_down = true;
            continue;
        }
        // ("The budget, no: still waiting on finance": a "no" about a
        // state turns nothing down, and what follows is its reason)
        if bare_no && runs.is_empty() && c.starts_with("no:") {
            lead.clear();
            turned_down = true;
            continue;
        }
        if turned_down && clause_polarity(clause).is_none() {
            continue;
        }
        match (clause_polarity(clause), runs.last_mut()) {
            (Some(p), Some((q, text))) if *q == p => text.push_str(clause),
            (Some(p), _) => runs.push((p, clause.to_owned())),
            // "やっぱ 5% はなし、まず 1% から", "no 5%, 1% first": after a
            // "don't" naming a value, a value of the same kind is what
            // takes its place
            (None, Some((Polarity::DontWant, text))) if replaces_value(text, clause) => {
                runs.push((Polarity::Want, clause.to_owned()))
            }
            // "算了，不搞第三方了，还是自研": after a CJK "don't", a clause
            // naming what is done instead
            (None, Some((Polarity::DontWant, text)))
                if !has_any(&lower(text), words("leave_alone"))
                    && ["还是", "改用", "换成", "就用", "改成", "改为"]
                        .iter()
                        .any(|w| strip_fillers(clause).starts_with(w)) =>
            {
                runs.push((Polarity::Want, clause.to_owned()))
            }
            // "forget SAML, we go with OIDC": after a removal, the choice
            // that follows is what takes its place
            (None, Some((Polarity::DontWant, text)))
                if removes(&lower(strip_fillers(text))) && {
                    let c = lower(strip_fillers(clause));
                    let c = ["we ", "we'll ", "and ", "instead "]
                        .iter()
                        .fold(c.as_str(), |c, p| c.strip_prefix(p).unwrap_or(c))
                        .to_owned();
                    words("choice_verbs")
                        .iter()
                        .any(|v| starts_with_word(&c, v))
                } =>
            {
                runs.push((Polarity::Want, clause.to_owned()))
            }
            // "Scratch blue-green, canary is safer here": after a removal,
            // what the clause says is better takes its place
            (None, Some((Polarity::DontWant, text)))
                if removes(&lower(strip_fillers(text)))
                    && has_any(&lower(clause), words("preference_markers")) =>
            {
                runs.push((Polarity::Want, clause.to_owned()))
            }
            (None, Some((_, text))) if is_detail(clause) => text.push_str(clause),
            // "Final answer: beta in five weeks": what a label announces is
            // the decision
            (None, Some((_, text)))
                if text.trim_end().ends_with([':', '：'])
                    && text.split_whitespace().count() <= 3 =>
            {
                text.push_str(clause)
            }
            (None, Some(_)) => {}                  // a reason
            (None, None) => lead.push_str(clause), // words before the decision
        }
    }
    // "Actually, Tuesday, not Monday.": a correction naming the old value
    if runs.is_empty() && old_value.is_some() && s.split_whitespace().count() <= 8 {
        let text = strip_fillers(s).trim_end_matches(['.', '!']).to_owned();
        if !text.is_empty() {
            runs.push((Polarity::Want, text));
            lead.clear(); // the whole sentence is the decision
        }
    }
    // "For H1: server-side revocation on logout, and cut the lifetime to
    // 24h": the words after the label belong to the decision that "and"
    // continues
    if let Some((p, text)) = runs.first_mut() {
        let and = ["and ", "以及", "并且", "还有"]
            .iter()
            .any(|a| lower(strip_fillers_keep_and(text)).starts_with(a));
        if and && !lead.is_empty() {
            let cut = lead
                .rfind(": ")
                .map(|i| i + 2)
                .or_else(|| lead.rfind('：').map(|i| i + '：'.len_utf8()));
            let (label, np) = match cut {
                Some(i) => (lead[..i].to_owned(), lead[i..].to_owned()),
                None => (String::new(), lead.clone()),
            };
            if !np.trim().is_empty() {
                *text = format!("{np}{text}");
                lead = label;
                let _ = p;
            }
        }
    }
    let mut lead = lead
        .trim()
        .trim_end_matches([',', '，', ':', '：', ';', '、'])
        .trim()
        .to_owned();
    // "3 回聞き返しても分からなければ切り替え、という感じで": a decision said
    // only by its hedge takes the words before it. In Chinese and Japanese
    // the clauses before the decision carry its subject or are steps of it
    // ("`Reserve` は冪等じゃないので、リトライ対象から外して", "田中さんを入れて、
    // 5 人の交代にします", "events 只迁最近 90 天，老数据归档到 S3"): a short
    // lead stays with the decision rather than being lost.
    if let Some((_, text)) = runs.first_mut() {
        let cjk_lead = lead.chars().any(is_cjk)
            && !is_question(&lead)
            && lead.chars().count() <= 40
            && !lead.contains('\n');
        if !lead.is_empty() && (super::text::terms(strip_fillers(text)).is_empty() || cjk_lead) {
            let sep = if lead.chars().any(is_kana) {
                "、"
            } else if lead.chars().any(is_cjk) {
                "，"
            } else {
                ", "
            };
            *text = format!("{lead}{sep}{}", text.trim_start());
            lead.clear();
        }
    }
    // "エピペンの情報は一覧表には載せず、教職員用の緊急対応名簿で管理": the
    // topic the sentence opens with is the subject of each part it splits
    // into
    if runs.len() > 1 && s.chars().any(is_kana) {
        let first = strip_fillers(&runs[0].1).to_owned();
        if let Some(topic) = first
            .split_once('は')
            .map(|(t, _)| t.trim())
            // (a value is no topic: "5% はなし、まず 1% から")
            .filter(|t| {
                (2..=16).contains(&t.chars().count())
                    && !t.contains(['、', '，'])
                    && !t.chars().any(|c| c.is_ascii_digit())
            })
            .map(str::to_owned)
        {
            // (a part with a topic of its own keeps it: "絵文字は使わないで")
            for (_, text) in runs.iter_mut().skip(1) {
                if !text.contains(&topic) && !text.contains(['は', 'が', 'を']) {
                    let t = text.trim_end_matches(['。', '！', '.', '!']).to_owned();
                    *text = format!("{t}（{topic}）");
                }
            }
        }
    }
    runs.into_iter()
        .map(|(p, text)| Decision {
            polarity: p,
            body: normalize(p, &text),
            reverses,
            old_value: old_value.clone(),
            said: text
                .trim()
                .trim_end_matches(['.', '。', '!', '！'])
                .to_owned(),
            lead: (!lead.is_empty()).then(|| lead.clone()),
            verbless: false,
            before: None,
            earlier: None,
        })
        .filter(|d| !d.body.is_empty())
        .collect()
}

/// A clause after a decision that belongs to it: a short qualifier
/// ("compressed"), a value, an identifier or code, or a condition ("but
/// only…", "unless…", "如果…"). Other clauses are reasons ("it would only
/// hide the bug") and are left out.
fn is_detail(clause: &str) -> bool {
    let body = strip_fillers(clause);
    let l = lower(body);
    let short =
        body.split_whitespace().count() <= 3 && body.chars().filter(|c| is_cjk(*c)).count() <= 4;
    let identifier = |w: &str| {
        w.contains("::")
            || w.contains('_')
            || w.contains('/')
            || w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase())
    };
    short
        || is_fragment(body)
        || body.chars().any(|c| c.is_ascii_digit())
        || body.contains('`')
        || body.split_whitespace().any(identifier)
        || words("conditions")
            .iter()
            .any(|c| starts_with_word(&l, c) || !c.is_ascii() && l.contains(c))
}

/// Clauses with their trailing separator (so joining them gives the text);
/// never split inside a code span.
fn clauses(s: &str) -> Vec<&str> {
    // in Japanese 、 separates clauses; in Chinese it separates list items
    let japanese = s.chars().any(is_kana);
    let parts = split_clauses(s, |c, next, _| match c {
        '，' | '；' | '：' => true,
        '、' => japanese,
        ',' | ';' | ':' => next == Some(' '),
        _ => false,
    });
    // "那算了 咖啡不卖了 麻烦 先把饼干搞好": casual CJK chat pauses with a
    // space where writing would put a comma
    let parts: Vec<&str> = parts.into_iter().flat_map(split_at_cjk_spaces).collect();
    // "The retention period, however, should be 7 years": a connective set
    // off by commas does not part the subject from its verb
    let parts = join_connectives(s, parts);
    if !japanese {
        return parts;
    }
    // "focus-trap-react はやめて native の <dialog> に切り替えたい", "画像やめ
    // てテキストにする": what is dropped and what takes its place are two
    // clauses, whether or not a 、 parts them
    let mut out = Vec::new();
    for p in parts {
        match p.find("やめて") {
            Some(i)
                if !p[i + "やめて".len()..]
                    .trim_start_matches(['、', ' '])
                    .trim()
                    .is_empty() =>
            {
                let cut = i + "やめて".len();
                out.push(&p[..cut]);
                out.push(&p[cut..]);
            }
            _ => out.push(p),
        }
    }
    out
}

/// `s` cut after each character `is_sep(c, next, after_next)` accepts,
/// outside code spans; the pieces keep their separators, so joining them
/// gives `s` back.
/// Clauses of `s` with a lone connective ("however,", "though,") joined to
/// the clauses on both sides of it.
fn join_connectives<'a>(s: &'a str, parts: Vec<&'a str>) -> Vec<&'a str> {
    const CONNECTIVES: &[&str] = &[
        "however",
        "though",
        "therefore",
        "then",
        "in turn",
        "in fact",
        "of course",
    ];
    let lone = |p: &str| {
        let w = p.trim().trim_end_matches(',').to_lowercase();
        CONNECTIVES.contains(&w.as_str())
    };
    let mut out: Vec<&'a str> = Vec::new();
    let mut k = 0;
    while k < parts.len() {
        // (only between a subject and its verb: "I must, however, withdraw
        // the shuttle" is a modal, then what it does)
        let verb_follows = parts.get(k + 1).is_some_and(|n| {
            let n = n.trim_start().to_lowercase();
            [
                "should ", "must ", "shall ", "will ", "is ", "are ", "needs ", "has to ",
                "have to ",
            ]
            .iter()
            .any(|v| n.starts_with(v))
        });
        if lone(parts[k]) && !out.is_empty() && verb_follows {
            // the parts are consecutive slices of `s`: one slice spans them
            let prev = out.pop().unwrap();
            let start = prev.as_ptr() as usize - s.as_ptr() as usize;
            let next = parts[k + 1];
            let end = next.as_ptr() as usize - s.as_ptr() as usize + next.len();
            out.push(&s[start..end]);
            k += 2;
        } else {
            out.push(parts[k]);
            k += 1;
        }
    }
    out
}

/// `s` cut after each run of spaces that has a CJK character on both sides.
fn split_at_cjk_spaces(s: &str) -> Vec<&str> {
    let japanese = s.chars().any(is_kana);
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    let mut iter = s.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        if c == ' ' || c == '\u{3000}' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, n)) = iter.peek() {
                if n == ' ' || n == '\u{3000}' {
                    end = j + n.len_utf8();
                    iter.next();
                } else {
                    break;
                }
            }
            let next = iter.peek().map(|&(_, n)| n);
            // (not after a word that needs what follows: "别 用Redis", "不打算
            // 上云", "把 日志")
            let before = s[start..i].trim_end();
            const NEEDS_MORE: &[&str] = &[
                "不", "别", "没", "要", "用", "想", "打算", "必要", "会", "能", "可以", "应该",
                "得", "把", "被", "给", "让", "在", "的", "和", "与", "跟", "对", "向", "从", "到",
                "还", "也", "就", "都", "先", "再", "又", "很", "太", "最", "更", "是",
            ];
            let open = NEEDS_MORE.iter().any(|w| before.ends_with(w));
            // (a modal particle closes a Chinese clause before a name or a
            // figure too: "那还是电信吧 300M够用了"; not 了, which ends a verb
            // as often as a clause, "选了 Redis", nor a place, 酒吧 网吧)
            let closed = !japanese
                && before.ends_with(['吧', '啊', '呀', '呢', '嘛', '啦', '哈'])
                && !["酒吧", "网吧", "贴吧", "氧吧", "水吧"]
                    .iter()
                    .any(|w| before.ends_with(w))
                && next.is_some_and(|n| n.is_ascii_alphanumeric());
            if prev.is_some_and(is_cjk) && (next.is_some_and(is_cjk) || closed) && !open {
                out.push(&s[start..end]);
                start = end;
            }
            continue;
        }
        prev = Some(c);
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

pub(super) fn split_clauses(
    s: &str,
    is_sep: impl Fn(char, Option<char>, Option<char>) -> bool,
) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut ticks = 0;
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        if c == '`' {
            ticks += 1;
        }
        let next = chars.get(k + 1).map(|n| n.1);
        let after = chars.get(k + 2).map(|n| n.1);
        if ticks % 2 == 0 && is_sep(c, next, after) {
            let end = i + c.len_utf8();
            out.push(&s[start..end]);
            start = end;
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// A Japanese clause of a thing, then none of it: "セカンドユニは今回なし",
/// "CPU limit なし", "ロンTはナシで", "持ち込みはなしにします",
/// "今回はナシでお願いします", "ロンTはナシでいきましょう", "ゲストのやつ
/// やっぱナシで".
static JA_NONE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        // (ナシ only after a particle, a pause or an adverb of changing one's
        // mind: not 洋ナシ, 異常ナシ, ハナシ)
        r"(?:(?:は[^、。は]{0,8}|^[^、。は]{1,20})(?:なし|無し)|(?:は|、|\s|今回|やっぱり?|もう)ナシ)",
        r"(?:で(?:お願い(?:します|いたします|致します)|いきましょう|いこう|行きましょう|行こう|いいです|いい)?|に(?:します|しよう|しましょう|してください|して)?)?[よねな]?[！!。]*$"
    ))
    .unwrap()
});

/// A clause closing on a verb of taking away: "弹窗还是去掉吧", "旧的导出按钮
/// 删掉", "その方針は撤回ということでお願いいたします".
static CJK_TAKE_AWAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?:去掉|删掉|撤掉|撤回|撤销|删除)(?:吧|啊)?[。！!，,]?$",
        r"|(?:は|を)(?:撤回|取り消し)(?:します|しましょう|してください|させてください|して|で|ということで(?:お願い(?:します|いたします))?)[。！!]?$"
    ))
    .unwrap()
});

/// A Chinese clause closing on 太 + an adjective ("改动太大", "太贵了").
static ZH_TOO_MUCH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"太\p{Han}{1,2}了?(?:吧|啊)?[，。！,.!]?\s*$").unwrap());

/// A Chinese clause that reports what happens or has happened: a time
/// taken ("每次都要 3 分钟", "跑要 48 秒", "每次都要等半个小时审批"),
/// something done already ("上游已经校验过", "已经合进 main 了"), or off
/// and on ("时不时挂"). Not a rule with a limit ("要 3 天内完成"), nor a
/// "no longer" ("已经不用了"). (一直, 总是, 经常 and 正在 say how a rule
/// holds as often as how things go: "一直用 A 方案就行", "以后总是先写测试",
/// "正在用的那台先别动"; a helper's review found 10 such decisions lost.)
fn zh_reports(body: &str) -> bool {
    static DONE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"已经[^不没，。,]*(?:了|过)|时不时").unwrap());
    static TAKES: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"要(?:等)?\s*[0-9一二三四五六七八九十两几半好][0-9一二三四五六七八九十百几.]*\s*",
            r"(?:个)?多?(?:个)?\s*(?:秒|分钟|分|小时|钟头|天|周|个月)(.?)"
        ))
        .unwrap()
    });
    let takes_time = TAKES.captures_iter(body).any(|c| {
        let next = c.get(1).map_or("", |m| m.as_str());
        !["内", "以", "之", "前", "后"].contains(&next)
    });
    takes_time || DONE.is_match(body)
}

/// 就/先/也 不, or a thing then 不, a verb and 了 closing a clause: "就不签
/// 了", "先不搞了", "外包不找了" (not a modal, a state or a symptom gone:
/// "就不会错了", "也不够了", "页面不卡了", "查询就不慢了"; not what a person or
/// a shop will or won't do: "他不来了", "对面那家店不开了"). After a Latin
/// name only a verb of doing: "non_idempotent 不加了", not "bug 不复现了".
static ZH_NOT_ANYMORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:[就先也]不[^会能是在好对错多少够到行了太大小该再敢怕变卡慢快崩报涨飙哭催见响亮疼痛闪抖掉干\P{Han}]|^[^我你他她它咱大\P{Han}]\p{Han}{1,7}不[^会能是在好对错多少够到行了太大小该再敢怕变卡慢快崩报涨飙哭催见响亮疼痛闪抖掉干开来去走\P{Han}]|^[A-Za-z][\w.\-]*\s*不[加传装做接用上搞推发改换升买配写建])\p{Han}?了(?:吧|啊)?[，。！,.!]?\s*$").unwrap()
});

fn clause_polarity(clause: &str) -> Option<Polarity> {
    let body = strip_fillers(clause);
    let l = lower(body);
    // ("Redis, no doubt.": an idiom of "no" says yes)
    if NO_IDIOMS.iter().any(|w| starts_with_word(l.trim(), w)) {
        return None;
    }
    let japanese = body.chars().any(is_kana);
    // "leave staging as is": nothing changes there
    let left_alone = starts_with_word(&l, "leave")
        && ["as is", "as it is", "alone", "unchanged", "untouched"]
            .iter()
            .any(|w| l.contains(w));
    // "update:", "fix:": a verb as a label, what follows it is the
    // sentence ("Decided:" still says what it is)
    let t = l.trim();
    if t.strip_suffix(':')
        .is_some_and(|w| words("imperative_verbs").contains(&w))
    {
        return None;
    }
    if reports_lack(&l) {
        return None;
    }
    // "改动太大", "规则太多了": a judgement, the reason beside a decision
    if !japanese && ZH_TOO_MUCH.is_match(body) && !body.contains("不要") && !body.contains('别')
    {
        return None;
    }
    if !japanese && zh_reports(body) && !has_any(body, words("zh_settling")) {
        return None;
    }
    // 别的 / 别人 / 别处 are "other", not "don't"
    let l_neg = ["别的", "别人", "别处", "别家"]
        .iter()
        .fold(l.clone(), |t, w| t.replace(w, "其他"));
    // "池子保持 10 不动": a value kept as it is, a "do" ("先别动" with no
    // value is a don't of changing it)
    let keeps_value =
        ["保持", "维持"].iter().any(|k| l.contains(k)) && l.contains(|c: char| c.is_ascii_digit());
    let l_neg = if keeps_value {
        l_neg.replace("不动", "").replace("不变", "")
    } else {
        l_neg
    };
    // "pull-cord calls should not be tiered": a passive order not to
    // ("… are to be removed from automatic reorder": an order to take
    // something away rules it out; not a policy of removing, "leavers
    // should be removed within five days", which is a "do")
    let policy = l.contains(|c: char| c.is_ascii_digit())
        || [" within ", " after ", " once ", " when ", " every "]
            .iter()
            .any(|w| l.contains(w));
    let negative_order = PASSIVE_ORDER.find(&l).is_some_and(|m| {
        let m = m.as_str();
        m.contains(" not be ")
            || !policy
                && ["removed", "deleted", "disabled", "retired", "excluded"]
                    .iter()
                    .any(|v| m.ends_with(v))
    }) || shall_not_order(&l);
    // ("not to be confused with", "should not be affected": what is, or
    // is expected, not what is to be done)
    let expected = l.contains("not to be confused") || has_any(&l, words("expected_states"));
    if expected {
        return None;
    }
    // "备用的框架协议就不签了", "转化奖励先不搞了": no longer to be done
    let not_anymore = !japanese && ZH_NOT_ANYMORE.is_match(body);
    // "接驳车算了", "农家乐就算了，太远": a thing, then let it go
    let zh_let_go = !japanese && {
        let t = body
            .trim()
            .trim_end_matches(['。', '！', '!', '.', '，', ',', '吧', '啦'])
            .trim_end();
        t.strip_suffix("算了").is_some_and(|head| {
            let head = head.trim_end_matches(['就', '也', ' ']);
            super::text::cjk_content_chars(head) >= 2
                || head.chars().any(|c| c.is_ascii_alphabetic())
        })
    };
    // "セカンドユニは今回なし！": a thing, then none of it
    let ja_none = japanese && JA_NONE.is_match(body.trim());
    // "弹窗还是去掉吧", "加班餐补贴先撤回", "その方針は撤回ということで": a verb
    // of taking away that closes the clause (not a feature named by it,
    // "撤销和重做", "取り消し機能", nor a report, "我已经撤回了")
    let takes_away = CJK_TAKE_AWAY.is_match(body.trim());
    // "Pass on the raffle this year" (not "pass on the increase to
    // customers", "pass it on")
    let passes = starts_with_word(&l, "pass on") && !l.contains(" to ");
    // "graviton no, half our images are amd64 only": a thing, then no
    let latin_no = !japanese && {
        let t = l.trim().trim_end_matches([',', '.', '!', ';']);
        t.strip_suffix(" no").is_some_and(|head| {
            let last = head.split_whitespace().last().unwrap_or("");
            !head.is_empty()
                && ![
                    "is", "was", "are", "say", "says", "said", "answer", "the", "a",
                ]
                .contains(&last)
        })
    };
    // "学年ごとの色分けは行わず、": a clause ending in the negative
    // continuative leaves it out
    let ja_without = japanese && {
        let t = body.trim_end_matches(['、', '，', ',', ' ']);
        // (not まず "first", 必ず "always"; not "without": 気にせず, 無理せず,
        // 後回しにせず, 書かずに)
        t.ends_with('ず')
            && t.chars().count() >= 3
            && t.contains(['は', 'を'])
            && ![
                "まず",
                "必ず",
                "気にせず",
                "無理せず",
                "にせず",
                "迷わず",
                "忘れず",
                "焦らず",
                "構わず",
                "遠慮せず",
            ]
            .iter()
            .any(|e| t.ends_with(e))
    };
    // (read once: its frames give either polarity)
    let framed = construction(clause, body, &l, japanese);
    let negative = left_alone
        || framed == Some(Polarity::DontWant)
        || takes_away
        || passes
        || zh_let_go
        || negative_order
        || not_anymore
        || ja_none
        || latin_no
        || ja_without
        || removes(&l)
        || words("negative_start")
            .iter()
            .any(|n| starts_with_word(&l_neg, n))
        || has_any(&l_neg, words("negative_markers"))
            && !(japanese && l.contains("しないと"))
            && !l.contains("要不要");
    if negative {
        return Some(Polarity::DontWant);
    }
    // "Postgres it is.", "7 days is fine", "30 s works"
    let t = l.trim().trim_end_matches(['.', '!', ',', ';']);
    // ("The 5 working day deadline is acceptable, as are the exception
    // rules", "Proposal (ii) is approved", "The limits you suggested are
    // acceptable": the formal register's yes to what it names)
    let it_is = t.ends_with(" it is")
        || [
            " is fine",
            " is ok",
            " works",
            " is good",
            " works for me",
            " sounds good",
            " are fine",
            " is acceptable",
            " are acceptable",
            " is agreed",
            " are agreed",
            " is approved",
            " are approved",
            " is fine too",
            " is fine as proposed",
            " is acceptable as proposed",
            " is approved as proposed",
            " is correct",
            " are correct",
            " are both fine",
            " are both acceptable",
            " is appropriate",
            " are appropriate",
            " is reasonable",
            " are reasonable",
        ]
        .iter()
        .any(|e| t.ends_with(e) && t.len() > e.len() + 1)
        // (not how a thing works, whether it is fine: "I'd like to
        // understand how the cache works", "not sure whether 30 s works")
        && !has_any(
            t,
            &[
                "how", "why", "whether", "understand", "know", "wonder", "explain", "see if",
                // (a state reported: "the old endpoint still works", "I
                // doubt the retry logic works", "none of these works")
                "still", "doubt", "don't think", "none", "neither", "if", "once", "assuming",
            ],
        )
        // ("is correct" of a setting with its value: "The frozen threshold of
        // 0°F is correct"; not a yes to a question of fact, "Your
        // understanding is correct", nor a doubt, "None of the figures are
        // correct", "I'm not sure the rate is correct")
        && !(t.ends_with(" correct")
            && (!t.contains(|c: char| c.is_ascii_digit())
                || ["none", "neither", "not sure", "your", "whether", "if ", "doubt", "not "]
                    .iter()
                    .any(|w| t.contains(w))));
    // "红色 2 天可以", "60 秒可以", "静默那个行": a value or a thing, then
    // the word that accepts it
    let cjk_it_is = !japanese && body.chars().any(is_cjk) && {
        let t = body
            .trim_end_matches(['。', '！', '.', '!', '吧', '啊'])
            .trim_end();
        words("zh_acceptances").iter().any(|e| {
            // (行 alone only after a pause or 就/也/都/个: not 不行, 进行, 执行)
            let bare_xing = *e == "行";
            t.strip_suffix(e).is_some_and(|head| {
                // ("我明天可以": who is free; "周二周三都行": either will do)
                if head.starts_with(['我', '你', '他', '她', '咱']) || head.ends_with('都') {
                    return false;
                }
                if bare_xing
                    && !head
                        .chars()
                        .next_back()
                        .is_some_and(|c| "就也都个，, ".contains(c) || c.is_ascii_alphanumeric())
                {
                    return false;
                }
                let head = head.trim_end_matches(['就', '也', '都', '，', ' ']).trim();
                // ("uv 可以", "Redis 可以": a name, then the yes)
                head.chars().any(|c| c.is_ascii_digit())
                    || super::text::cjk_content_chars(head) >= 2
                    || head.len() >= 2
                        && head
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            })
        })
    };
    let positive = it_is
        || cjk_it_is
        || framed == Some(Polarity::Want)
        || words("choice_verbs").iter().any(|v| {
            let l = speaker_removed(&l);
            starts_with_word(l, v) && !l[v.len()..].trim_start().starts_with("of ")
        })
        || is_instruction(body)
        || please_verb(clause)
        || is_requirement(&l)
        || has_any(&without_predictions(&l), words("decision_markers"))
        || ARROW_VALUE.is_match(body)
        || stays_as_set(&l)
        // 保留 is "keep" in Chinese but "on hold" in Japanese
        || !japanese && body.contains("保留") && !body.contains("保留意见");
    positive.then_some(Polarity::Want)
}

/// "raw stays 2y", "cross region fill stays off", "the formal review remains
/// at 60 days", "unit tests must stay strict": a thing kept as it is set is
/// a decision (not a reading that holds, "memory stays flat", "lag stays
/// high", nor "it stays open if the page errors").
fn stays_as_set(l: &str) -> bool {
    static STAYS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^[\w`.\-/ ]{1,40}?\s(?:stays|stay|remains|remain)\s+(\S[^,;]*)").unwrap()
    });
    const READINGS: [&str; 24] = [
        "flat",
        "high",
        "low",
        "red",
        "green",
        "stuck",
        "up",
        "down",
        "open",
        "empty",
        "full",
        "around",
        "above",
        "below",
        "steady",
        "stable",
        "unsettled",
        "unclear",
        "unresolved",
        "undecided",
        "unknown",
        "pending",
        "an",
        "a",
    ];
    // (a habit, an open matter or the speaker is no setting: "the tablets
    // often stay in airplane mode", "one matter remains unsettled", "I will
    // remain the budget holder")
    const HABITS: [&str; 10] = [
        "often",
        "usually",
        "always",
        "sometimes",
        "normally",
        "mostly",
        "generally",
        "matter",
        "question",
        "issue",
    ];
    let l = l.trim();
    STAYS.captures(l).is_some_and(|c| {
        let subject = &l[..c.get(1).map_or(0, |m| m.start())];
        let complement = c[1].trim();
        let first = complement.split_whitespace().next().unwrap_or("");
        // (the thing kept, not a reading: "memory stays flat")
        !subject.trim().is_empty()
            && !READINGS.contains(&first)
            && !subject
                .split_whitespace()
                .any(|w| HABITS.contains(&w) || w == "i")
            // (nor a condition, or a state explained: "stays on overnight
            // anyway because of the backups")
            && ![
                "if", "when", "until", "while", "anyway", "because", "already", "due to",
            ]
            .iter()
            .any(|w| has(l, w))
    })
}

/// `l` without its "we'll be wrecked", "I'll be late": a "will be" and
/// a state foretells, it does not decide as "we'll use" or "we'll be
/// using" does.
fn without_predictions(l: &str) -> std::borrow::Cow<'_, str> {
    static WILL_BE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(?:we'll|we will|i'll|i will|it'll|it will) be ([a-z]+)").unwrap()
    });
    WILL_BE.replace_all(l, |c: &regex::Captures| {
        if c[1].ends_with("ing") {
            c[0].to_owned()
        } else {
            String::new()
        }
    })
}

/// Chinese directives by their grammar rather than their verbs: "请调整为
/// 30%" (请 before a verb of change), "双轨运行同意上述方案", "Google Form
/// 可以" (a thing, then a yes), "由心内一病区试点" (who does it), "补货频次按
/// 每周二、周五两次执行" (by what rule), "只印后四位就行" (that much is
/// enough), and their negatives, "员工就别领新人券了", "外卖不给积分" (a thing,
/// then a "don't" or a "not" of a verb of giving, counting or taking in).
/// The caller has ruled out questions, hedges and reports of the past.
fn zh_directive(body: &str) -> Option<Polarity> {
    static THING_THEN_NOT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"^[^，,。；;]*?[\p{Han}A-Za-z0-9)）]{2,}[^，,。；;]*?",
            r"(?:就|也|都|一律|统一|绝对)?",
            r"(?:别|不许|不得|不能再|绝对不能|不(?:给|扣|纳入|加|收|送|发|领|补|计|退|印|带|放|开放|接入|提供|保留|同步|导入|通知|予|接受|存|填)(?:\p{Han}|$))"
        ))
        .unwrap()
    });
    let t = body.trim_end_matches(['。', '！', '!', '，', ',', '；', ' ']);
    // (a question without its mark, "是不是由IT部门负责", "由谁负责"; a hedge,
    // "应该没问题"; what has long been so, "一直由小李负责" (what was, "之前",
    // the caller's PAST rules out); comfort and reminders, "别担心", "别忘了备份")
    const NOT_SETTLED: &[&str] = &[
        "是不是",
        "谁",
        "哪",
        "什么",
        "怎么",
        "吗",
        "不清楚",
        "还是",
        "应该",
        "估计",
        "可能",
        "大概",
        "好像",
        "一直",
        "向来",
        "过去",
        "随便",
        "都可以",
        "担心",
        "别急",
        "别客气",
        "别着急",
        "别忘",
        "别介意",
        "没反应",
        "报错",
        "失败",
        "同意没",
        "同意不",
        "么",
        "不一定",
        "八成",
        "只要",
        "会同意",
        "没同意",
        "计费",
        "收费",
        "别慌",
        "别当真",
    ];
    // (nor what someone else says or thinks: "ChatGPT 说加个索引就行")
    let reported = ["觉得", "说", "规定", "认为", "听说", "据", "刚"]
        .iter()
        .any(|w| t.contains(w));
    if reported || NOT_SETTLED.iter().any(|w| t.contains(w)) {
        return None;
    }
    // "请调整为 30%", "请按 $200 更新" (not "请问", "请帮我整理", "请解释")
    if let Some(rest) = t.strip_prefix('请') {
        // (asking verbs that open the request, "请问", "请帮我…", or "请教一下";
        // and requests for work wherever they stand, "请帮我整理", "请把…列出来")
        const ASKS_FIRST: &[&str] = &["问", "教", "帮", "告诉", "解释"];
        const ASKS_ANYWHERE: &[&str] = &[
            "说明", "介绍", "列", "分析", "看", "查", "确认", "提供", "给出", "整理", "写", "输出",
            "生成", "评估", "核实", "稍等", "回复", "补充",
        ];
        const CHANGES: &[&str] = &[
            "调整",
            "改",
            "设",
            "定为",
            "按",
            "更新",
            "保持",
            "维持",
            "取消",
            "删除",
            "去掉",
            "增加",
            "加上",
            "下调",
            "上调",
            "调到",
            "调至",
            "统一",
            "使用",
            "采用",
            "换成",
            "暂停",
            "停止",
            "关闭",
            "开启",
            "保留",
            "移除",
            "替换",
            "延长",
            "缩短",
            "提前",
            "推迟",
            "限制",
            "控制在",
        ];
        let asks = ASKS_FIRST
            .iter()
            .any(|a| rest.starts_with(a) || rest.contains(&format!("{a}一下")))
            || ASKS_ANYWHERE.iter().any(|a| rest.contains(a));
        return (!asks && CHANGES.iter().any(|c| rest.contains(c))).then_some(Polarity::Want);
    }
    let person = ["我", "你", "他", "她", "大家", "用户", "客户", "对方"]
        .iter()
        .any(|p| t.starts_with(p));
    // (a thing named in Latin letters counts: "Kafka 就别上了")
    let content = super::text::cjk_content_chars(t)
        + 2 * t
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| w.len() >= 2 && w.chars().any(|c| c.is_ascii_alphabetic()))
            .count();
    if person || content < 3 {
        return None;
    }
    // (别 is "other" in 别人, 别的, and part of 分别, 特别, 级别…)
    let plain = [
        "别人", "别的", "别处", "别家", "分别", "特别", "区别", "类别", "级别", "个别", "识别",
        "告别", "差别", "性别", "别名",
    ]
    .iter()
    .fold(t.to_owned(), |t, w| t.replace(w, "其他"));
    // (not a question without its mark, "算不算"; what someone thinks, says
    // or rules, "公司规定…不得"; what another party refuses, "供应商不给退款")
    let asks = t
        .chars()
        .collect::<Vec<_>>()
        .windows(3)
        .any(|w| w[1] == '不' && w[0] == w[2]);
    let party = [
        "供应商",
        "银行",
        "隔壁",
        "其他",
        "上游",
        "下游",
        "对方",
        "客户",
        "用户",
        "他们",
        "她们",
        "人家",
        "团队",
        "公司",
        "平台",
        "政府",
        "学校",
        "医院",
        "厂家",
        "物业",
    ]
    .iter()
    .any(|w| plain.contains(w));
    if THING_THEN_NOT.is_match(&plain) && !t.ends_with("不行") && !asks && !party {
        return Some(Polarity::DontWant);
    }
    // (the rest of a proposal, "其余规则同意", "其余按您的建议执行", is the
    // proposal's to say)
    if [
        "其余", "其他", "其它", "以上", "上述", "剩下", "剩余", "别的",
    ]
    .iter()
    .any(|w| t.starts_with(w))
    {
        return None;
    }
    // "双轨运行同意上述方案", "不自动通过也同意" (not 不同意, 没同意, 同意了 —
    // a report)
    if let Some(i) = t.find("同意") {
        let before = &t[..i];
        if !before.ends_with(['不', '没']) && !t.ends_with('了') && !before.is_empty() {
            return Some(Polarity::Want);
        }
    }
    // "Google Form 可以", "只印后四位就行" (not "可以试试", "也可以吧": a
    // doubt; not "没问题", "就好": how things are)
    // ("WAL 和批量写那个 OK": the Latin yes of mixed chat)
    // (as a word: not the "ok" that ends "notebook")
    for yes in ["可以", "就行", "即可", "就够了", "OK", "ok"] {
        if let Some(head) = t.strip_suffix(yes) {
            if yes.is_ascii() && head.ends_with(|c: char| c.is_ascii_alphanumeric()) {
                continue;
            }
            let head = head.trim_end();
            if super::text::cjk_content_chars(head) >= 2
                || head.chars().filter(|c| c.is_ascii_alphanumeric()).count() >= 2
            {
                return Some(Polarity::Want);
            }
        }
    }
    // "app-logs 7 天够了", "2 个 slot 够了": a value said to be enough is
    // the value chosen (not "应该够了", "受够了": no value)
    for enough in ["足够了", "够了", "足够"] {
        if let Some(head) = t.strip_suffix(enough) {
            // (not a complaint: "都等了2小时了够了", "今天开了5个会够了")
            if head.contains(|c: char| c.is_ascii_digit())
                && !head.ends_with(['不', '没', '能'])
                && !head.contains('了')
            {
                return Some(Polarity::Want);
            }
        }
    }
    // "由心内一病区试点", "管理员由该病区总务护士兼任" (not 由于, "because")
    if let Some(i) = t.find('由') {
        let after = &t[i + '由'.len_utf8()..];
        const DOES: &[&str] = &[
            "负责", "兼任", "试点", "执行", "承担", "审批", "处理", "发起", "维护", "管理", "对接",
            "牵头", "担任", "统一", "出面", "跟进", "审核", "会签", "签字",
        ];
        if !after.starts_with('于') && DOES.iter().any(|d| after.contains(d)) {
            return Some(Polarity::Want);
        }
    }
    // "补货频次按每周二、周五两次执行", "服务器按您的方案" (not 按钮, 按键, 按下,
    // 按时: a button, a key, on time)
    if let Some(i) = t.find('按') {
        let after = &t[i + '按'.len_utf8()..];
        const BY_RULE_ENDS: &[&str] = &[
            "执行", "处理", "来", "走", "算", "计", "收", "发", "办", "抽检", "更新", "进行",
            "方案", "说的", "这个", "上述", "安排",
        ];
        if !["钮", "键", "下", "时", "照片"]
            .iter()
            .any(|w| after.starts_with(w))
            && BY_RULE_ENDS.iter().any(|e| after.contains(e))
        {
            return Some(Polarity::Want);
        }
    }
    None
}

/// Grammatical frames that settle something whatever the words in them:
/// a setting given a value by a modal ("The retention period should be 7
/// years"), a yes or no to a thing ("Yes to a photograph per door"), a
/// stated preference ("We would rather not go through a full tender"), a
/// value then the word that takes it ("50k rows fine"); in Chinese the
/// copula or choice that assigns ("并发数拟调整为100", "项目负责人为刘洋",
/// "供应商选第二个", "那就两批"), a subject given a value ("内审改到4月13日")
/// and "not for now" (暂不纳入); in Japanese a thing let go ("GitHubはいいや"),
/// an intent to do ("SDカードごとバックアップとっとく") and "X でいい". None
/// fire on a question, a condition, a report or a guess (如果, 据说, said,
/// probably…), what is or was (目前, 上周…), or a pronoun for the subject:
/// an adversarial review of 447 probes found each of those (git log).
fn construction(clause: &str, body: &str, l: &str, japanese: bool) -> Option<Polarity> {
    static MODAL_VALUE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"^(?:the\s+|our\s+|each\s+|every\s+)?([a-z][\w' ./-]{1,50}?),?(?:\s+however,?|\s+then,?|\s+therefore,?)?",
            r"\s+(?:should|must|shall|will need to|needs to)\s+(?:be|move to|change to|be moved to|be set to|be changed to)\s+(?:at\s+|to\s+)?(\S*\d\S*)((?:\s+\S+){0,4})$"
        ))
        .unwrap()
    });
    static YES_NO_TO: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(yes|no)\s+to\s+(?:the\s+|a\s+|an\s+)?\w").unwrap());
    static PREFER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"\b(?:we|i)(?:'d|\s+would)\s+(?:(prefer|rather)\s+(not\s+)?|(prefer)\s+)(?:to\s+)?\w",
        )
        .unwrap()
    });
    static ZH_ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"^[^，,。？?！!]{0,12}?(?:([\p{Han}A-Za-z0-9_]{2,})(?:拟|就|也|统一|暂定|初定)?",
            r"(?:(?:调整|修改|设置|设定|确定|改|定|明确|规定)为|拟为)|(?:负责|联系|审批|主持|对接|经办|牵头)人为)([^了什何止]\S*)"
        ))
        .unwrap()
    });
    static ZH_PICK: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^[^，,。？?！!]{0,12}?([\p{Han}A-Za-z0-9_]{2,}?)(?:就|也|还是|先|统一|都)?选(?:用)?([^项型手购哪什几谁了错中好过的修课举出址择\s]\S*)").unwrap()
    });
    static ZH_NOT_NOW: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:暂|暂时|暂且|先)不(?:[^是会能用要太够行好错对确清知方在同支]|用[^户])")
            .unwrap()
    });
    static JA_LET_GO: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\S.{0,24}?は(?:いいや|いらない|要らない|いらん|なしで|無しで)(?:[。！!、]|$)")
            .unwrap()
    });
    static JA_WILL_DO: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?:は|を|で|ごと)[^、。がもとば]{1,20}(?:っとく|ておく|しとく|っておく)[。！!]?$",
        )
        .unwrap()
    });
    static JA_FINE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"でいい(?:けど|よ|や)?[。！!、]?$").unwrap());
    let t = l
        .trim()
        .trim_end_matches(['.', '!', ',', ';', '。', '！', '、', '，']);
    if t.is_empty() || is_question(body) {
        return None;
    }
    const PAST: &[&str] = &[
        "目前",
        "当前",
        "现在",
        "现有",
        "原来",
        "之前",
        "去年",
        "已经",
        "原本",
        "现行",
        "一般",
        "通常",
        "默认",
        "以前",
        "上次",
        "上周",
        "昨天",
        "前天",
        "上个月",
        "之后",
        "当时",
        "当初",
    ];
    // (a condition, a report or a guess decides nothing: "如果…的话",
    // "if the tests pass", "according to the vendor")
    const HEDGES: &[&str] = &[
        "如果",
        "假如",
        "要是",
        "的话",
        "的时候",
        "据说",
        "听说",
        "表示",
        "被",
        "if ",
        "unless ",
        "according",
        "said",
        "says",
        "expect",
        "probably",
        "likely",
        "maybe",
        "hopefully",
        "写的是",
        "写着",
        "personally",
        "honestly",
        "to some extent",
        "to be clear",
        "to be honest",
    ];
    if HEDGES.iter().any(|w| l.contains(w)) {
        return None;
    }
    if japanese {
        if JA_LET_GO.is_match(t) {
            return Some(Polarity::DontWant);
        }
        // (not a condition, a habit, how a thing behaves, a step of
        // deliberation, or a removal, which the negative rules read)
        let will_do = JA_WILL_DO.is_match(t)
            && ![
                "たら",
                "と思",
                "毎日",
                "普段",
                "いつも",
                "自動で",
                "勝手に",
                "これは",
                "それは",
                "あれは",
                "彼は",
                "彼女は",
                "システムは",
                "アプリは",
            ]
            .iter()
            .any(|w| t.contains(w))
            && ![
                "相談する",
                "検討する",
                "確認する",
                "連絡する",
                "考える",
                "聞いてみる",
            ]
            .iter()
            .any(|v| t.ends_with(v))
            && !["消", "削除", "外", "やめ", "止め"]
                .iter()
                .any(|w| t.contains(w));
        let fine = JA_FINE.is_match(t) && !t.contains("でもいい") && !t.contains("どれ");
        return (will_do || fine).then_some(Polarity::Want);
    }
    if body.chars().any(is_cjk) {
        if PAST.iter().any(|w| body.contains(w)) {
            return None;
        }
        // (not a person's state: "我暂时不确定")
        let person = ["我", "你", "他", "她", "大家", "用户", "客户", "对方", "该"]
            .iter()
            .any(|p| body.trim_start().starts_with(p));
        if ZH_NOT_NOW.is_match(body) && !person {
            return Some(Polarity::DontWant);
        }
        let assigns = ZH_ASSIGN.captures(body).is_some_and(|c| {
            // (not 因为, 认为, 作为…, nor a measure: 约为, 多数为, 均为, 分别为)
            const NOT_SUBJECT_END: &str = "因作认成以行更较最视称极甚颇广大此约均别主即占";
            let subject = c.get(1).map_or("", |m| m.as_str());
            // (not "为此", "为这事": for a reason; not done, "设置为30秒了")
            let value = c.get(2).map_or("", |m| m.as_str());
            let done = value
                .split(['，', ',', '。'])
                .next()
                .is_some_and(|v| v.ends_with('了'));
            !value.starts_with(['此', '这', '那'])
                && !done
                && !subject
                    .chars()
                    .last()
                    .is_some_and(|ch| NOT_SUBJECT_END.contains(ch))
                && !["多数", "少数", "半数"]
                    .iter()
                    .any(|w| subject.ends_with(w))
                && !["我", "你", "他", "她", "它", "这", "那"]
                    .iter()
                    .any(|p| subject.starts_with(p))
        });
        // "内审改到4月13日", "超时调成 30 秒": a subject, then a verb that gives
        // it a value, then the value
        let sets_value = words("value_verbs")
            .iter()
            .chain(words("shift_verbs"))
            .filter(|v| !v.is_ascii() && !v.chars().any(is_kana))
            .any(|v| {
                body.find(v).is_some_and(|i| {
                    let (head, tail) = (&body[..i], &body[i + v.len()..]);
                    (super::text::cjk_content_chars(head) >= 2
                        || head.trim().chars().any(|c| c.is_ascii_alphabetic()))
                        && !tail.trim().is_empty()
                        // (what was done: "机器设成了 UTC+6", "超时设置为30秒了")
                        && !tail.starts_with(['了', '过'])
                        && !tail
                            .split(['，', ',', '。'])
                            .next()
                            .is_some_and(|v| v.trim_end().ends_with('了'))
                        && !head.contains(['吗', '？', '?'])
                        // (not a question without its mark, a wish, what
                        // someone did or said: "能不能改到…", "客户希望…",
                        // "PM 刚刚改成…")
                        && ![
                            "能不能", "是否", "多少", "怎么", "什么", "哪", "几", "希望", "想",
                            "打算", "说", "刚", "已",
                        ]
                        .iter()
                        .any(|w| body.contains(w))
                        && head
                            .split_once('把')
                            .is_none_or(|(agent, _)| {
                                let a = agent.trim();
                                a.is_empty() || ["我们", "咱们", "先", "就", "还是"].contains(&a)
                            })
                })
            });
        // "供应商选第二个", "城市选杭州" (not a tick box, 勾选; not what others
        // choose, "大部分用户选择免费版")
        let picks = ZH_PICK.captures(body).is_some_and(|c| {
            let subject = &c[1];
            !subject
                .chars()
                .last()
                .is_some_and(|ch| "勾挑筛候可人首精入评备优初".contains(ch))
                && ![
                    "用户",
                    "大家",
                    "客户",
                    "很多人",
                    "大部分",
                    "他们",
                    "别人",
                    "同事",
                    "人们",
                ]
                .iter()
                .any(|w| subject.contains(w))
        });
        // (那就 is also a filler, so the body is read as it was said; a bare
        // value, "那就 5 分钟", answers what was asked, and the answer's own
        // rule gives it its subject; "那就说明", "那就是" conclude)
        let raw = clause.trim_start();
        let rest = raw.strip_prefix("那就").unwrap_or("").trim_start();
        let then_so = raw.starts_with("那就")
            && super::text::cjk_content_chars(rest) >= 2
            && !rest.starts_with(|c: char| c.is_ascii_digit())
            && !["说明", "是"].iter().any(|w| rest.starts_with(w));
        if let Some(p) = zh_directive(body.trim()) {
            return Some(p);
        }
        return (assigns || sets_value || picks || then_so).then_some(Polarity::Want);
    }
    // "show cancelled ones greyed out instead", "list them by date
    // instead": how the product shows a thing, changed (not "check the
    // logs instead", "explain it instead": requests to the assistant)
    if let Some(head) = t.strip_suffix(" instead") {
        let ws: Vec<&str> = head.split_whitespace().collect();
        let verb = ws.first().copied().unwrap_or("");
        let object = ws.get(1).copied().unwrap_or("");
        const HOW: &[&str] = &[
            "in",
            "as",
            "by",
            "with",
            "first",
            "last",
            "greyed",
            "grayed",
            "sorted",
            "hidden",
            "collapsed",
            "separately",
        ];
        let how = ws
            .iter()
            .skip(2)
            .any(|w| HOW.contains(w) || w.ends_with("ly"));
        if ["show", "list", "display", "sort", "hide"].contains(&verb)
            && !["me", "us", "you", "what", "how", "where", "why"].contains(&object)
            && how
        {
            return Some(Polarity::Want);
        }
    }
    if let Some(c) = YES_NO_TO.captures(t) {
        return Some(if &c[1] == "yes" {
            Polarity::Want
        } else {
            Polarity::DontWant
        });
    }
    if let Some(c) = PREFER.captures(t) {
        // (a wish about the past or a doubt: "we would have preferred", "not
        // sure we'd prefer it")
        if [
            "would have",
            "whether",
            "not sure",
            "chose",
            "rather not say",
            "rather not comment",
        ]
        .iter()
        .any(|w| t.contains(w))
            || asks_by_word(t)
        {
            return None;
        }
        // ("I would prefer to drop it" leaves the polarity to what "it" is)
        // (from the start of the last character matched, which may be
        // wider than a byte: "I'd prefer évian")
        let end = c.get(0).map_or(0, |m| m.end());
        let start = t[..end].char_indices().last().map_or(0, |(i, _)| i);
        let rest = &t[start..];
        let verb = rest.split_whitespace().next().unwrap_or("");
        if words("removal_verbs").contains(&verb) && !removes(rest) {
            return None;
        }
        let avoids = verb == "avoid";
        return Some(if c.get(2).is_some() || removes(rest) || avoids {
            Polarity::DontWant
        } else {
            Polarity::Want
        });
    }
    // "The retention period should be 7 years": the value closes the clause
    // (not a forecast, "The results should be 5% better than last year")
    if let Some(c) = MODAL_VALUE.captures(t) {
        let subject = c[1].split_whitespace().next().unwrap_or("");
        // ("should" also forecasts: "The train should be at 7:40"; it sets
        // only a setting: a period, a limit, a deadline)
        const SETTINGS: &[&str] = &[
            "period",
            "deadline",
            "limit",
            "timeout",
            "threshold",
            "interval",
            "size",
            "retention",
            "cap",
            "budget",
            "window",
            "cut-off",
            "cutoff",
            "quota",
            "minimum",
            "maximum",
            "max",
            "min",
            "rate",
            "price",
            "fee",
            "duration",
            "version",
            "port",
            "count",
            "term",
            "notice",
            "frequency",
            "ttl",
            "delay",
            "length",
            "capacity",
        ];
        // (an amount of money per something a line should be is set, not
        // foretold: "Materials and supplies should be $18,000 per year",
        // "The Pro tier should be $19 per seat"; not "The bill should be $85
        // roughly", "The payment should be $1,343 at that rate")
        let money = c[2].starts_with(['$', '€', '£', '¥'])
            && (c[3].trim_start().starts_with("per ") || c[2].contains('/'));
        let modal_sets = !t.contains(" should ")
            || money
            || c[1]
                .split_whitespace()
                .last()
                .is_some_and(|w| SETTINGS.contains(&w.trim_end_matches(',')));
        const COMPARATIVES: &[&str] = &[
            "better", "worse", "higher", "lower", "faster", "slower", "more", "less", "than",
            "fewer", "bigger", "smaller", "cheaper",
        ];
        let compares = c[3].split_whitespace().any(|w| COMPARATIVES.contains(&w));
        if !words("pronouns").contains(&subject)
            && ![
                "it",
                "this",
                "that",
                "which",
                "everything",
                "results",
                "result",
            ]
            .contains(&subject)
            && !compares
            && modal_sets
        {
            return Some(Polarity::Want);
        }
    }
    // "50k rows fine", "pin 16.4 yes": a value, then the word that takes it
    // (a state, "staging deploy ok", is a report)
    for accept in [" fine", " yes", " ok", " okay"] {
        if let Some(head) = t.strip_suffix(accept) {
            let ws: Vec<&str> = head.split_whitespace().collect();
            let copula = ws
                .iter()
                .any(|w| ["is", "are", "was", "were", "be", "did", "hope"].contains(w));
            if (2..=6).contains(&ws.len())
                && head.chars().any(|c| c.is_ascii_digit())
                && !copula
                && !head.contains(',')
            {
                return Some(Polarity::Want);
            }
        }
    }
    None
}

/// "no budget for extra workers this quarter", "no time for that today":
/// what is lacking is a constraint reported, not a choice ("no retries").
/// "lag draining, p95 0.4s", "raw obs getting big", "was ~0.3s before":
/// a terse phrase that tells how something is going or was is a report of
/// a measurement, not a value chosen: a verb of change right after the
/// subject, or was/were/been. (Not any word in -ing: "rolling update",
/// "rate limiting 100 req/min", "standup moving to 9:30" set things.)
fn reports_state(l: &str) -> bool {
    let ws: Vec<&str> = l
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .collect();
    let progressive = ws
        .iter()
        .skip(1)
        .take(2)
        .any(|w| words("changing_verbs").contains(w));
    progressive || ws.iter().any(|w| ["was", "were", "been"].contains(w))
}

/// "nightly backup eats the first 20 min", "license renewal starts tue",
/// "replica lag hit 12s at peak": a subject and a finite verb report what
/// happens or happened. The verb is a word in -s after the first, followed
/// by what follows a verb and never a plural noun (an object, an -ing
/// form, a particle, a day); or an irregular past form.
fn reports_event(l: &str) -> bool {
    let ws: Vec<&str> = l
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_'))
        .collect();
    let verb_in_s = |w: &str| {
        w.len() > 3
            && w.ends_with('s')
            && !["ss", "us", "is", "ys"].iter().any(|e| w.ends_with(e))
            && w.chars().all(|c| c.is_ascii_lowercase())
    };
    // ("digs back 6 months"; not "workers back to 4", a value set)
    let particle = |next: &str, then: &str| {
        ["back", "up", "off", "away", "down"].contains(&next) && then != "to"
    };
    let after_verb = |next: &str, then: &str| {
        words("object_words").contains(&next)
            || next.len() > 5 && next.ends_with("ing")
            || label_free_day(next)
            || particle(next, then)
    };
    ws.iter().skip(1).any(|w| words("past_verbs").contains(w))
        || (1..ws.len().saturating_sub(1)).any(|i| {
            verb_in_s(ws[i]) && after_verb(ws[i + 1], ws.get(i + 2).copied().unwrap_or(""))
        })
}

/// "no budget left", "No new vendor is needed", "no errors in the logs",
/// "no id-columns configured": a "no" that says what there is not, a
/// report, not a ruling out.
fn reports_lack(l: &str) -> bool {
    // ("no time limit on the quiz", "no people data leaves the EU" ban
    // something: the noun is part of a longer name)
    strip_fillers(l).strip_prefix("no ").is_some_and(|rest| {
        let ws: Vec<&str> = rest
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .collect();
        let noun = ws.first().copied().unwrap_or("");
        let next = ws.get(1).copied().unwrap_or("");
        let scarce = words("resource_nouns").contains(&noun)
            && ["", "for", "to", "this", "left", "right", "yet", "now"].contains(&next);
        // (a noun phrase of up to three words, then a passive or a place
        // of finding: "is needed", "are required", "in the logs",
        // "configured", "found")
        let existential = (1..=3).any(|k| {
            let after = ws.get(k).copied().unwrap_or("");
            let then = ws.get(k + 1).copied().unwrap_or("");
            ["is", "are", "was", "were"].contains(&after) && words("lack_passives").contains(&then)
                || after == "in"
                    && ["the", "our", "any"].contains(&then)
                    && ws
                        .get(k + 2)
                        .is_some_and(|w| words("lack_places").contains(w))
                || words("lack_findings").contains(&after)
        });
        scarce || existential
    })
}

/// "Drop it", "kill avif", "scrap the waitlist": a verb that takes
/// something away, first in its clause, rules out what it names, as "no
/// waitlist" does. Not when it moves a value ("drop the TTL to 5 min"),
/// sets a policy of removing ("delete old backups after 30 days") or the
/// clause asks ("remove it?").
/// A lower-case clause without the speaker's "I must" or "we shall" before
/// its verb ("I must, however, withdraw the night-time arrangement", "we
/// shall proceed with the disposable tags"): the speaker's own "do".
fn speaker_removed(l: &str) -> &str {
    static SPEAKER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"^(?:i|we)(?:'ll|'d| must| will| shall| should| have to| need to| would like to",
            r"| want to| are going to| am going to| can)(?:,? however,)?\s+"
        ))
        .unwrap()
    });
    SPEAKER.find(l).map_or(l, |m| &l[m.end()..])
}

pub fn removes(l: &str) -> bool {
    let l = l.trim();
    let l = speaker_removed(l);
    let mut ws = l
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''));
    let verb = ws.next().unwrap_or("");
    // "drop it" leaves the polarity to what "it" was ("drop it" of a fee
    // rules it out, of a ban lifts it); "delete wins" is a noun
    let object = ws.next().unwrap_or("");
    const NOT_OBJECTS: &[&str] = &[
        "it", "them", "that", "this", "those", "these", "wins", "is", "was", "works", "goes",
        "beats", "happens", "takes", "will", "would", "should", "can", "must",
    ];
    words("removal_verbs")
        .iter()
        .any(|v| v.is_ascii() && *v != "unfreeze" && *v == verb)
        && !object.is_empty()
        && !NOT_OBJECTS.contains(&object)
        && !l.ends_with('?')
        // "delete old backups after 30 days", "drop partitions older than
        // a year": a policy of removing is a "do", as is "drop the TTL to
        // 5 min"; "drop Sarah a message", "forget X for a second" remove
        // nothing
        && !l.contains(|c: char| c.is_ascii_digit())
        && ![
            " a message", " a line", " a note", " an email", " a mail", "for a second",
            "for a moment", "for a minute",
        ]
        .iter()
        .any(|w| l.contains(w))
        && ![
            " to ", " by ", " from ", " after ", " before ", " older than ", " every ", " when ",
            " if ", " once ", " unless ",
        ]
        .iter()
        .any(|w| l.contains(w))
}

/// One line: fillers, the words of polarity ("let's", "don't", 不要,
/// 〜しないでください) and trailing punctuation removed; cut at a word
/// boundary.
/// The text without an opening clause that tells how the speaker came to
/// the decision ("我刚跟老公商量了一下，NAS还是算了"): what is ruled out is
/// in what follows it.
fn without_deliberation(text: &str) -> &str {
    const DELIBERATING: [&str; 8] = ["想", "商量", "考虑", "讨论", "问", "研究", "合计", "琢磨"];
    let t = text.trim_start();
    let Some((first, rest)) = t.split_once('，') else {
        return text;
    };
    let narrates = (first.starts_with('我') || first.starts_with("刚"))
        && first.contains('了')
        && DELIBERATING.iter().any(|v| first.contains(v))
        && first.chars().count() <= 16;
    if narrates && !rest.trim().is_empty() {
        rest.trim_start()
    } else {
        text
    }
}

fn normalize(p: Polarity, text: &str) -> String {
    // (only before a "don't": what it rules out is in the clause after;
    // a "do" keeps its whole sentence, "我想了想这个方案的风险，还是先上灰度")
    let text = match p {
        Polarity::DontWant => without_deliberation(text),
        Polarity::Want => text,
    };
    let mut s = strip_fillers(text).to_owned();
    let strip_lead = |s: &mut String, list: &[&str]| {
        let l = lower(s);
        if let Some(w) = list.iter().find(|w| starts_with_word(&l, w)) {
            // (not the mark after the word: "no. 5 is the one")
            *s = s[w.len()..]
                .trim_start_matches(['.', ',', ':', ';', ' '])
                .to_owned();
        }
    };
    match p {
        Polarity::Want => strip_lead(&mut s, &["let's", "let us", "we'll", "we will", "i prefer"]),
        Polarity::DontWant => {
            // "drop the waitlist" rules out the waitlist; "never delete
            // anything silently" rules out deleting
            let removal = removes(&lower(&s));
            strip_lead(&mut s, &["let's not", "we won't", "we will not"]);
            strip_lead(&mut s, words("negative_start"));
            if removal {
                strip_lead(&mut s, words("removal_verbs"));
                strip_lead(&mut s, &["about"]);
            }
            const SUFFIXES: &[&str] = &[
                "はしないでください",
                "をしないでください",
                "しないでください",
                "はしないで",
                "しないで",
                "はやめましょう",
                "はやめてください",
                "は使わないでください",
                "は不要です",
                "就算了",
                "还是算了",
                "也算了",
                "算了",
            ];
            if let Some((i, suffix)) = SUFFIXES.iter().find_map(|x| s.find(x).map(|i| (i, *x))) {
                s = format!("{}{}", &s[..i], &s[i + suffix.len()..]);
            }
        }
    }
    // (a lead stripped of its only words leaves its comma: "那算了，咖啡不卖了")
    let mut s = s
        .trim()
        .trim_start_matches(|c: char| c.is_whitespace() || "，,、；;".contains(c))
        .to_owned();
    loop {
        let t = s.trim_end_matches(|c: char| c.is_whitespace() || ".!。！，,;；".contains(c));
        let t = ["after all", "吧", "了", "啊"]
            .iter()
            .find_map(|w| t.strip_suffix(w))
            .unwrap_or(t)
            .to_owned();
        if t == s {
            break;
        }
        s = t;
    }
    clip(&s, DECISION_BYTES)
}

/// What an assistant sentence proposes: the action, and whether it advises
/// against it ("I would not do it now"). `deictic`: the action is only
/// pointed at ("I'd do that", "I recommend b)"), the previous sentence or
/// the option says what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    pub body: String,
    pub against: bool,
    pub deictic: bool,
}

/// "…を取るのはどう？", "…にするのでいい？", "…跑一次比较稳，你看怎么样？":
/// a course put as a question in plain speech; what comes before the
/// asking tail is the course.
fn plain_offer(s: &str) -> Option<&str> {
    let t = s.trim().trim_end_matches(['?', '？']).trim_end();
    // (longest first: "で進めてよいですか" before "でよいですか")
    const TAILS: &[&str] = &[
        "のはどうかな",
        "のはどう",
        "でどう",
        "で進めてよろしいでしょうか",
        "で進めてよろしいですか",
        "で進めてもよいですか",
        "で進めてよいですか",
        "で進めてもいいですか",
        "で進めていいですか",
        "でよろしいでしょうか",
        "でよろしいですか",
        "でよいでしょうか",
        "でよいですか",
        "でいいでしょうか",
        "でいいですか",
        "で大丈夫ですか",
        "で問題ないですか",
        "のでいい",
        "でいい",
        "可以吗",
        "行吗",
        "你看怎么样",
        "怎么样",
        "你看如何",
        "如何",
        "好不好",
        "行不行",
    ];
    let tail = TAILS.iter().find(|x| t.ends_with(*x))?;
    let course = t[..t.len() - tail.len()].trim_end_matches([',', '，', '、', ' ']);
    // ("打ち合わせは何時からでいい？" asks which)
    if words("question_words")
        .iter()
        .any(|w| !w.is_ascii() && course.contains(w))
    {
        return None;
    }
    (course.chars().count() >= 4).then_some(course)
}

/// "バージョンも 2.319.1 に上げますか？": a yes/no question about an action
/// the speaker would take (a verb after its object or goal particle), not a
/// question word's ("保持は何日にしますか？").
fn japanese_offer(s: &str) -> bool {
    let t = s.trim().trim_end_matches(['?', '？']).trim_end();
    t.ends_with("ますか")
        && (t.contains('を') || t.contains('に'))
        && !words("question_words")
            .iter()
            .any(|w| !w.is_ascii() && t.contains(w))
        && !["どちら", "どれ", "いくつ", "いくら"]
            .iter()
            .any(|w| t.contains(w))
}

pub fn proposal(s: &str) -> Option<String> {
    proposal_of(s).map(|p| p.body)
}

/// An assistant sentence that proposes a course of action, reduced to the
/// action ("I suggest we keep X" → "keep X"); or an offer put as a
/// question ("Modify volume to gp3 …, like replica 1?", "要不要…？").
pub fn proposal_of(s: &str) -> Option<Proposal> {
    let l = lower(s);
    // ("Kerf compensation 0.1 mm?", "超时 30 秒？": a setting and a value
    // put as a question offers the value)
    let value_offer = {
        let t = s.trim().trim_end_matches(['?', '？']);
        let n = t.split_whitespace().count();
        (2..=6).contains(&n)
            && !t.chars().any(is_cjk)
            && t.split_whitespace()
                .any(|w| w.starts_with(|c: char| c.is_ascii_digit()))
            && !asks_by_word(&l)
            && !has(&l, "or")
            && no_verb(&l)
    };
    let offer = is_question(s)
        && (is_instruction(s.trim_end_matches(['?', '？']))
            || l.contains("要不要")
            || japanese_offer(s)
            || plain_offer(s).is_some()
            || value_offer);
    // "A narrower fix: add X to Y instead of reverting."
    let labelled = s
        .split_once(": ")
        .filter(|(label, _)| label.split_whitespace().count() <= 4 && !label.contains('`'))
        .is_some_and(|(_, rest)| is_instruction(rest) && !is_question(rest));
    if !has_any(&l, words("assistant_proposal")) && !offer && !labelled {
        return None;
    }
    let mut body = strip_fillers(s).to_owned();
    const LEADS: &[&str] = &[
        "i suggest that we ",
        "i suggest we ",
        "i suggest ",
        "i'd suggest ",
        "i would suggest ",
        "i recommend that we ",
        "i recommend we ",
        "i recommend ",
        "i'd recommend ",
        "i would recommend ",
        "i propose that we ",
        "i propose we ",
        "i propose ",
        "my recommendation: ",
        "suggest: ",
        "recommend: ",
        "recommended: ",
        "suggestion: ",
        "proposal: ",
        "a common choice is ",
        "the usual choice is ",
        "my recommendation is to ",
        "my recommendation is ",
        "i'd go with ",
        "i would go with ",
        "i think we should ",
        "how about we ",
        "how about ",
        "we could ",
        "you could ",
        "my vote would be ",
        "my vote is ",
        "我觉得",
        "i'd lean towards ",
        "i lean towards ",
        "i'd rather ",
        "i'd ",
        "i would ",
        // an offer put as a question: what follows is the action
        "do you want me to ",
        "want me to ",
        "shall i ",
        "should i ",
        "我建议",
        "我倾向",
        "建议",
    ];
    // "For the async export, I'd write …": the words before the lead say
    // what the proposal is about, keep them; "I have not run it yet, and I
    // would run it tonight": what comes before is no part of it
    let lb = lower(&body);
    if let Some((i, lead)) = LEADS
        .iter()
        .filter_map(|lead| lb.find(lead).map(|i| (i, *lead)))
        .filter(|(i, _)| {
            let before = lb[..*i].trim_end();
            *i == 0
                || before.ends_with(',')
                || before.ends_with('，')
                || before.ends_with(';')
                || before.ends_with(':')
                || before.ends_with(" and")
                || before.ends_with(" so")
        })
        .min_by_key(|(i, _)| *i)
    {
        let before = body[..i]
            .trim_end()
            .trim_end_matches(" and")
            .trim_end_matches(" so");
        let topic = ["for ", "as for ", "about ", "on ", "in "]
            .iter()
            .any(|p| lower(before).starts_with(p))
            && before.split_whitespace().count() <= 7
            // "If it stays above 2% for an hour, we should roll back": the
            // condition is part of the course
            || words("conditions")
                .iter()
                .chain(&["once", "after", "before"])
                .any(|c| starts_with_word(&lower(before), c));
        body = if topic {
            format!("{} {}", before, &body[i + lead.len()..])
        } else {
            body[i + lead.len()..].to_owned()
        };
    }
    // "我建议这样：请假超过 3 天走两级", "我的建议：病假超过 3 天…": what
    // follows the colon is the proposal, the words before it only point at
    // it or label it
    if let Some((head, rest)) = body.split_once(['：', ':']) {
        // "第二条，我的建议：…": the label is the head's last clause
        let head = lower(head.rsplit(['，', ',']).next().unwrap_or(head).trim());
        let label = [
            "这样",
            "如下",
            "以下",
            "下面这样",
            "我的建议",
            "建议",
            "我的想法",
            "こう",
            "以下の通り",
            "提案",
            "私の提案",
            "おすすめ",
            "this",
            "the following",
            "as follows",
            "my suggestion",
            "suggestion",
            "my proposal",
            "proposal",
            "my recommendation",
            "recommendation",
        ];
        if label.contains(&head.as_str()) && !rest.trim().is_empty() {
            body = rest.trim().to_owned();
        }
    }
    let mut body = body
        .trim_end_matches(['.', '。', '!', '！', '?', '？'])
        .trim()
        .to_owned();
    // "…を設定するのがよいと思います", "`minAvailable: 2` を提案します": the action
    const JA_TAILS: &[&str] = &[
        "のがよいと思います",
        "がよいと思います",
        "のがいいと思います",
        "がいいと思います",
        "が妥当だと思います",
        "が妥当です",
        "が妥当だと思う",
        "が妥当",
        // (not "ほうがいい": "調べておいたほうがいい" without it reads as done)
        "のがいいと思う",
        "がいいと思う",
        "のが安全だと思います",
        "をおすすめします",
        "がおすすめです",
        "を提案します",
        "しておきましょうか",
        "しましょうか",
        "ましょうか",
        "にしてはいかがでしょうか",
        "のはいかがでしょうか",
        "ではいかがでしょうか",
        "はいかがでしょうか",
        "のはいかがでしょう",
        "のはどうでしょう",
        "はどうでしょうか",
    ];
    // "…に上げますか": the offer says what it would do
    if japanese_offer(s) {
        body.truncate(body.len() - "か".len());
    } else if let Some(course) = plain_offer(&body) {
        body = course.to_owned();
    }
    if let Some(t) = JA_TAILS.iter().find(|t| body.ends_with(*t)) {
        // ("調べておいたほうがいいと思う": without "ほうがいい" it would read
        // as done)
        let advice = ["ほう", "方"]
            .iter()
            .any(|h| body[..body.len() - t.len()].ends_with(h));
        let cut = if advice {
            ["と思います", "と思う"]
                .iter()
                .find(|e| body.ends_with(*e))
                .map_or(0, |e| e.len())
        } else {
            t.len()
        };
        body.truncate(body.len() - cut);
        body = body.trim_end().to_owned();
    }
    let lb = lower(&body);
    // advice against says so at its start ("not do it now", "不建议…"); a
    // "not" later ("…, which the handler does not do", "webpack 5 does not
    // support …") does not turn the proposal around
    let start: Vec<&str> = lb
        .split([',', '，', ';', '；', ':', '：'])
        .next()
        .unwrap_or("")
        .split_whitespace()
        .take(3)
        .collect();
    let against = start
        .iter()
        .any(|w| ["not", "never", "don't", "wouldn't", "shouldn't"].contains(w))
        || ["不建议", "不要", "不用", "别"]
            .iter()
            .any(|n| lb.replace("要不要", "").starts_with(n))
        // (in the last clause: "チェックしないと投稿できないようにする" is
        // a condition, not advice against)
        || {
            let last = lb.rsplit(['、', '，']).next().unwrap_or(&lb);
            ["しない", "見送", "やめ"]
                .iter()
                .any(|n| last.match_indices(n).any(|(i, _)| !last[i..].starts_with("しないと")))
        };
    // "not do it before the Q3 freeze": the verb's object points back
    let points_back = {
        let first: Vec<&str> = lb
            .split([',', ';'])
            .next()
            .unwrap_or("")
            .split_whitespace()
            .filter(|w| *w != "not")
            .collect();
        let object = |o: &str| {
            ["it", "that", "this", "so", "them"]
                .contains(&o.trim_matches(|c: char| !c.is_alphanumeric()))
        };
        // "add it", "set it up": a verb whose only object is a pronoun names
        // nothing of its own, whichever verb it is
        matches!(first.as_slice(), [v, o, ..] if ["do", "go", "take", "try", "start", "ship", "merge", "keep"].contains(v)
            && object(o))
            || matches!(first.as_slice(), [v, o] | [v, o, _] if !words("pronouns").contains(v) && object(o))
    };
    let deictic = points_back || {
        let stripped: String = lb
            .split_whitespace()
            .filter(|w| {
                ![
                    "not", "do", "go", "with", "take", "now", "though", "for", "also", "as", "well",
                ]
                .contains(w)
            })
            .collect::<Vec<_>>()
            .join(" ");
        let stripped = stripped.trim_matches(|c: char| !c.is_alphanumeric());
        stripped.is_empty()
            || ["it", "that", "this", "so", "both", "it now", "that now"].contains(&stripped)
            || stripped.len() <= 3
                && stripped
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == ')')
            // "それでお願いします" points back; "その場合、プールを 20 本に
            // …" only opens with a connective and says what it proposes
            || words("cjk_pronouns").iter().any(|p| body.starts_with(p))
                && super::text::terms(&body).len() <= 3
    };
    Some(Proposal {
        body: clip(&body, DECISION_BYTES),
        against,
        deictic,
    })
}

/// Does the sentence only tell how things are or went ("I got roped into
/// being plot coordinator", "holiday peak is basically sold out", "the
/// funnel dashboards are all `where user_id in (...)`"), with nothing in it
/// that chooses: no verbless choice, no order, no modal of a course ("you
/// can add it after all", "I'll send the link"), no answer reported ("Marco
/// answered: …")? Latin text only.
pub fn only_tells(s: &str) -> bool {
    const COURSE: [&str; 17] = [
        "can",
        "could",
        "will",
        "should",
        "must",
        "shall",
        "let's",
        "lets",
        "need to",
        "needs to",
        "want to",
        "wants to",
        "going to",
        "gonna",
        "have to",
        "has to",
        "would like",
    ];
    // ("we are moving the whole thing to Lisbon": a plan in the present,
    // its verb straight after who does it; not "we're finally leaving
    // libsyn 😅", the news that opens a story)
    static PLAN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:we're|we are|i'm|i am|they're|they are) (?:\w+ing)\b").unwrap()
    });
    let l = lower(s);
    let first = l.split_whitespace().next().unwrap_or("");
    !s.chars().any(is_cjk)
        && !PLAN.is_match(l.trim())
        && !is_fragment(s)
        && !has_any(&l, &COURSE)
        && !l.contains("'ll ")
        && !words("imperative_verbs").contains(&first)
        && !has_any(&l, words("answer_reports"))
        && !has(&l, "answered")
        && !matches!(user_sentence(s), UserKind::Decisions(_))
}

/// Does the (lower-cased) sentence leave a question open: "keep the venue
/// as an open item", "leave both open for now"? A thing named before
/// "open until …" may be a setting ("keep the old endpoint open until the
/// migration is done", "leave port 22 open until Friday"), so it counts only
/// when `named_thing` says the speaker has no port or door to leave open: the
/// assistant, whose "I will leave termination for convenience open until
/// you have spoken to Oskar" waits on the user.
pub fn leaves_open(l: &str, named_thing: bool) -> bool {
    static AS_OPEN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(?:leave|leaving|keep|keeping|list|record|note)\b[^.;:!?]{1,60}?\bas (?:an )?open (?:item|question|point)").unwrap()
    });
    static PRONOUN_OPEN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(?:leave|leaving|keep|keeping) (?:it|them|both|that|this|those|these|the question|the decision) open\b").unwrap()
    });
    static THING_OPEN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(?:leave|leaving|keep|keeping)\b[^.;:!?]{1,60}?\bopen (?:until|till|for now|pending)").unwrap()
    });
    AS_OPEN.is_match(l) || PRONOUN_OPEN.is_match(l) || named_thing && THING_OPEN.is_match(l)
}

/// A Japanese clause with its subject in が says what is ("ほとんどがベトナ
/// ムの方で"), unless the subject is someone given a part or a thing ranked
/// ("私が担当で", "鈴木さんが司会で", "A社が第一候補で").
fn ga_describes(t: &str) -> bool {
    const WHO: [&str; 12] = [
        "私",
        "僕",
        "俺",
        "自分",
        "さん",
        "様",
        "くん",
        "君",
        "ちゃん",
        "社",
        "先生",
        "チーム",
    ];
    const PARTS: [&str; 10] = [
        "担当",
        "司会",
        "幹事",
        "候補",
        "係",
        "当番",
        "代理",
        "責任者",
        "窓口",
        "リーダー",
    ];
    t.split_once('が').is_some_and(|(subject, said)| {
        !WHO.iter().any(|w| subject.ends_with(w)) && !PARTS.iter().any(|p| said.contains(p))
    })
}

#[cfg(test)]
mod tests;
