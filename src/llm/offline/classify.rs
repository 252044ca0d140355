//! What a sentence is, by explicit markers only (lexicon.txt): a decision
//! and its polarity, an open question, an approval of the assistant's
//! proposal, small talk, or something else (which may still hold a fact).
//! Precision first: a statement becomes binding only when it says so.

use std::sync::LazyLock;

use regex::Regex;

use super::lexicon::words;
use super::text::{clip, is_cjk, is_kana};

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
}

impl Decision {
    pub fn line(&self) -> String {
        format!("{}{}", self.polarity.prefix(), self.body)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserKind {
    Decisions(Vec<Decision>),
    /// A question to settle, a pending item or a proposal.
    Open(String),
    /// "yes, do that", "LGTM, merge it": `rest` is what follows the marker.
    Approval {
        strong: bool,
        rest: String,
    },
    SmallTalk,
    Other,
}

fn lower(s: &str) -> String {
    s.to_lowercase()
}

/// Does `hay` (lower-cased) contain `word`? ASCII words match at word
/// boundaries, CJK ones anywhere.
pub fn has(hay: &str, word: &str) -> bool {
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

pub fn has_any(hay: &str, list: &[&str]) -> bool {
    list.iter().any(|w| has(hay, w))
}

/// `l` (lower-cased) starts with the word `w`.
pub fn starts_with_word(l: &str, w: &str) -> bool {
    l.strip_prefix(w).is_some_and(|rest| {
        rest.is_empty() || !w.is_ascii() || rest.starts_with(|c: char| !c.is_alphanumeric())
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

fn is_small_talk(s: &str) -> bool {
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
    t.ends_with('?') || t.ends_with('？') || t.ends_with('吗') || t.ends_with("か。")
}

/// A number and its unit, as a value a reversal names.
const VALUE: &str = r"(\d[\d.,]*(?:\s?(?:ms|µs|us|ns|s|sec|secs|seconds?|mins?|minutes?|h|hrs?|hours?|d|days?|weeks?|gb|mb|kb|tb|gib|mib|kib|%|qps|rps|x)\b)?)";
/// "not 5", "instead of 10 s".
static NOT_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"(?i)\b(?:not|instead of|rather than)\s+{VALUE}")).unwrap()
});
/// "10 s → 30 s".
static ARROW_VALUE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"(?i){VALUE}\s*(?:→|->|=>)\s*\S")).unwrap());
/// "Friday, not Thursday", "instead of Redis".
static NOT_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:,\s*not|\binstead of|\brather than)\s+([\w#.-]*\w)").unwrap()
});

/// Classify one user sentence.
pub fn user_sentence(s: &str) -> UserKind {
    let l = lower(s);
    if is_small_talk(s) {
        return UserKind::SmallTalk;
    }
    if has_any(&l, words("pending")) || has_any(&l, words("user_proposal")) && !is_approval(&l) {
        return UserKind::Open(s.to_owned());
    }
    if is_question(s) {
        if has_any(&l, words("deciding")) || !has_any(&l, words("informational")) {
            return UserKind::Open(s.to_owned());
        }
        return UserKind::Other;
    }
    if let Some((strong, rest)) = approval(s) {
        return UserKind::Approval { strong, rest };
    }
    let decisions = decisions_in(s);
    if decisions.is_empty() {
        UserKind::Other
    } else {
        UserKind::Decisions(decisions)
    }
}

fn is_approval(l: &str) -> bool {
    let all = words("strong_approvals")
        .iter()
        .chain(words("weak_approvals"));
    all.clone().any(|a| starts_with_word(l, a))
}

/// An approval marker at the start of the sentence, and what follows it.
fn approval(s: &str) -> Option<(bool, String)> {
    let l = lower(s.trim());
    let strong = words("strong_approvals")
        .iter()
        .find(|a| starts_with_word(&l, a));
    let weak = words("weak_approvals")
        .iter()
        .find(|a| starts_with_word(&l, a));
    let (is_strong, marker) = match (strong, weak) {
        (Some(a), _) => (true, *a),
        (None, Some(a)) => (false, *a),
        _ => return None,
    };
    let rest = strip_fillers(&s.trim()[marker.len()..]);
    let rest = rest.trim_end_matches(['.', '!', '。', '！']);
    Some((is_strong, rest.trim().to_owned()))
}

/// Does the rest of an approval only point back at the proposal?
pub fn is_deictic(rest: &str) -> bool {
    let l = lower(rest.trim());
    l.is_empty() || words("deictic").contains(&l.as_str()) || is_small_talk(rest)
}

/// The decisions a sentence states, one per run of clauses of the same
/// polarity (so "不用 YAML 了，改成 TOML" is two).
pub fn decisions_in(s: &str) -> Vec<Decision> {
    let old_value = [&*NOT_VALUE, &*ARROW_VALUE, &*NOT_WORD]
        .iter()
        .find_map(|re| re.captures(s))
        .map(|c| c[1].trim().to_owned());
    let reverses = old_value.is_some() || has_any(&lower(s), words("reversal_cues"));
    let mut runs: Vec<(Polarity, String)> = Vec::new();
    for clause in clauses(s) {
        match (clause_polarity(clause), runs.last_mut()) {
            (Some(p), Some((q, text))) if *q == p => text.push_str(clause),
            (Some(p), _) => runs.push((p, clause.to_owned())),
            (None, Some((_, text))) if is_detail(clause) => text.push_str(clause),
            (None, _) => {} // a reason, or words before the decision
        }
    }
    runs.into_iter()
        .map(|(p, text)| Decision {
            polarity: p,
            body: normalize(p, &text),
            reverses,
            old_value: old_value.clone(),
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
    let mut out = Vec::new();
    let mut start = 0;
    let mut ticks = 0;
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        if c == '`' {
            ticks += 1;
        }
        let sep = match c {
            '，' | '；' => true,
            ',' | ';' => chars.get(k + 1).is_some_and(|n| n.1 == ' '),
            _ => false,
        };
        if sep && ticks % 2 == 0 {
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

fn clause_polarity(clause: &str) -> Option<Polarity> {
    let body = strip_fillers(clause);
    let l = lower(body);
    let japanese = body.chars().any(is_kana);
    let negative = words("negative_start")
        .iter()
        .any(|n| starts_with_word(&l, n))
        || has_any(&l, words("negative_markers"))
            && !(japanese && l.contains("しないと"))
            && !l.contains("要不要");
    if negative {
        return Some(Polarity::DontWant);
    }
    let positive = words("choice_verbs").iter().any(|v| starts_with_word(&l, v))
        || has_any(&l, words("decision_markers"))
        || ARROW_VALUE.is_match(body)
        // 保留 is "keep" in Chinese but "on hold" in Japanese
        || !japanese && body.contains("保留") && !body.contains("保留意见");
    positive.then_some(Polarity::Want)
}

/// One line: fillers, the words of polarity ("let's", "don't", 不要,
/// 〜しないでください) and trailing punctuation removed; cut at a word
/// boundary.
fn normalize(p: Polarity, text: &str) -> String {
    let mut s = strip_fillers(text).to_owned();
    let strip_lead = |s: &mut String, list: &[&str]| {
        let l = lower(s);
        if let Some(w) = list.iter().find(|w| starts_with_word(&l, w)) {
            *s = s[w.len()..].trim_start().to_owned();
        }
    };
    match p {
        Polarity::Want => strip_lead(&mut s, &["let's", "let us", "we'll", "we will", "i prefer"]),
        Polarity::DontWant => {
            strip_lead(&mut s, &["let's not", "we won't", "we will not"]);
            strip_lead(&mut s, words("negative_start"));
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
            ];
            if let Some((i, suffix)) = SUFFIXES.iter().find_map(|x| s.find(x).map(|i| (i, *x))) {
                s = format!("{}{}", &s[..i], &s[i + suffix.len()..]);
            }
        }
    }
    let mut s = s.trim().to_owned();
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

/// An assistant sentence that proposes a course of action, reduced to the
/// action ("I suggest we keep X" → "keep X").
pub fn proposal(s: &str) -> Option<String> {
    if !has_any(&lower(s), words("assistant_proposal")) {
        return None;
    }
    let mut body = strip_fillers(s).to_owned();
    const LEADS: &[&str] = &[
        "i suggest that we ",
        "i suggest we ",
        "i suggest ",
        "i'd suggest ",
        "i recommend that we ",
        "i recommend we ",
        "i recommend ",
        "i'd recommend ",
        "i propose that we ",
        "i propose we ",
        "i propose ",
        "我建议",
        "建议",
    ];
    if let Some(lead) = LEADS.iter().find(|l| lower(&body).starts_with(*l)) {
        body = body[lead.len()..].to_owned();
    }
    Some(clip(
        body.trim_end_matches(['.', '。', '!', '！']).trim(),
        DECISION_BYTES,
    ))
}

#[cfg(test)]
mod tests;
