//! What a statement is about: quantities with the kind of their unit, the
//! phrase a quantity belongs to ("max_conns" in "bump max_conns to 50",
//! "カナリアの観察時間" in "カナリアの観察時間は現在 5 分です"), the head
//! of a decision (its object or topic, which decides what a later decision
//! replaces), and whether a statement names a subject at all ("make it 35",
//! "add a test", "それは30分にしましょう" do not).

use std::sync::LazyLock;

use regex::Regex;

use super::classify::{lower, starts_with_word, strip_fillers};
use super::lexicon::words;
use super::text::{is_cjk, is_kana, terms};

/// A number with its unit, and what kind of value it is: two values of the
/// same kind can fill the same slot ("50" and "35" connections, "5 分" and
/// "30分"); a time of day never replaces a duration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quantity {
    pub start: usize,
    pub end: usize,
    pub kind: &'static str,
}

// (its word boundaries are ASCII ones: with a Unicode `\b` the regex
// crate leaves its DFA for a backtracker on any text holding a non-ASCII
// character, which was a fifth of the time summarizing a long session)
static QUANTITY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)(?:v?\d+\.\d+\.\d+)",                           // version
        r"|(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s\d{1,2}(?-u:\b))", // date
        r"|(?:\d{1,2}\s(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*(?-u:\b))",
        r"|(?:\d{1,2}\s?月\s?\d{1,2}\s?日)|(?:\d{4}-\d{2}-\d{2})",
        r"|(?:\d{1,2}:\d{2}(?::\d{2})?)",                 // clock
        r"|(?:\d{1,2}/\d{1,2}(?:/\d{2,4})?)",                 // date
        r"|(?:\d[\d,]*(?:\.\d+)?)\s?",                        // number, then a unit
        r"(?:(ms|µs|us|ns|s|sec|secs|seconds?|mins?|minutes?|h|hrs?|hours?|days?|d|weeks?|months?|years?",
        r"|gib|mib|kib|gb|mb|kb|tb|g|m|k|bytes|px",
        r"|%|x|qps|rps|iops",
        r"|分钟|分|秒|小时|時間|时|時|天|日|週間|周|週|か月|个月|ヶ月|年",
        r"|万|亿|億|千|件|条|张|页|号|台|个人|個人|名|人|個|个|回|次|倍|行|枚|桁)(?:[^A-Za-z]|$)|)",
    ))
    .unwrap()
});

fn unit_kind(unit: &str) -> &'static str {
    match unit.to_lowercase().as_str() {
        "" => "number",
        "ms" | "µs" | "us" | "ns" | "s" | "sec" | "secs" | "second" | "seconds" | "min"
        | "mins" | "minute" | "minutes" | "h" | "hr" | "hrs" | "hour" | "hours" | "分钟" | "分"
        | "秒" | "小时" | "時間" => "time",
        "d" | "day" | "days" | "week" | "weeks" | "month" | "months" | "year" | "years" | "天"
        | "日" | "週間" | "周" | "週" | "か月" | "个月" | "ヶ月" | "年" => "period",
        "gib" | "mib" | "kib" | "gb" | "mb" | "kb" | "tb" | "g" | "m" | "k" | "bytes" => "size",
        "%" => "percent",
        "时" | "時" => "hour",
        // (counts of different things fill different slots: "2回でいい" is
        // no change to "1人500円")
        "人" | "名" | "个人" | "個人" => "people",
        "回" | "次" => "times",
        "倍" | "x" => "ratio",
        _ => "count",
    }
}

/// The quantities of `text`, not those inside identifiers ("fs4", "v2",
/// "gp3", "1.28" as a version is a "version").
pub fn quantities(text: &str) -> Vec<Quantity> {
    let mut out = Vec::new();
    for c in QUANTITY.captures_iter(text) {
        let m = c.get(0).unwrap();
        let before = text[..m.start()].chars().next_back();
        // "#1179", "pg-2", "v2": part of a name, not a value
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || "_.-#".contains(b)) {
            continue;
        }
        let s = m.as_str();
        // the number-and-unit alternative matched: "30 seconds", "500 MB"
        // are a time and a size, not a date like "12 Mar"
        let unit = c.get(1).map(|u| u.as_str()).filter(|u| !u.is_empty());
        // "7f3a9c2", "3a": a number running into letters is an identifier
        if c.get(1).is_some_and(|u| u.as_str().is_empty())
            && text[m.start()..]
                .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',')
                .starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        {
            continue;
        }
        let kind = if let Some(u) = unit {
            unit_kind(u)
        } else if s.contains('月')
            || s.starts_with(|c: char| c.is_ascii_alphabetic() && !matches!(c, 'v' | 'V'))
            || s.split(' ')
                .nth(1)
                .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()) && w.len() >= 3)
            || s.len() == 10 && s.matches('-').count() == 2
        {
            "date"
        } else if s.matches('.').count() >= 2 && !s.contains(' ') {
            "version"
        } else if s.contains(':') && !s.contains(' ') && s.len() <= 8 {
            "clock"
        } else if s.contains('/') {
            "date"
        } else if let Some(u) = c.get(1) {
            unit_kind(u.as_str())
        } else {
            "number"
        };
        // "option 4", "recommendations 1 and 3", "第 2 案": a label names
        // an item of a list, it is no value to fill a slot with
        let kind = if kind == "number" && labels_an_item(&text[..m.start()]) {
            "label"
        } else {
            kind
        };
        let number_only = s.trim_end_matches(|c: char| !c.is_ascii_digit());
        let kind = if kind == "number"
            && number_only.matches('.').count() >= 1
            && {
                // "1.28", "4.4.18": versions, not amounts
                let after = &text[m.end()..];
                !after.starts_with(|c: char| c.is_ascii_digit())
            }
            && (number_only.matches('.').count() >= 2 || text[..m.start()].ends_with('v'))
        {
            "version"
        } else {
            kind
        };
        // the unit group consumed one character after the unit: give it back
        let end = match c.get(1) {
            _ if matches!(kind, "date" | "clock") => m.end(),
            Some(u) if !u.as_str().is_empty() => u.end(),
            _ => m.start() + number_only.len(),
        };
        // "1 日あたり", "per day", "每天": a rate, not a value of its own
        let after = text[end..].trim_start();
        let before = lower(text[..m.start()].trim_end());
        let rate = ["あたり", "当たり", "毎", "/"]
            .iter()
            .any(|r| after.starts_with(r))
            || ["per", "every", "each", "每", "a"]
                .iter()
                .any(|r| before.ends_with(r) && (r.len() > 1 || before.ends_with(" a")));
        if rate {
            continue;
        }
        out.push(Quantity {
            start: m.start(),
            end,
            kind,
        });
    }
    out
}

/// Does the text before a number end with the name of a list item
/// ("option", "recommendations 1 and", "案", "第")?
fn labels_an_item(before: &str) -> bool {
    let l = lower(before.trim_end());
    if ["案", "第", "方案", "选项", "オプション"]
        .iter()
        .any(|w| l.ends_with(w))
    {
        return true;
    }
    let ws: Vec<&str> = l.split_whitespace().rev().take(4).collect();
    for w in ws {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '#');
        if words("item_labels").contains(&w) {
            return true;
        }
        let joins = ["and", "or", "&", ""].contains(&w) || w.chars().all(|c| c.is_ascii_digit());
        if !joins {
            return false;
        }
    }
    false
}

/// Words that end the phrase before a value ("to", "at", "is") and words
/// that are no subject ("it", "currently").
fn is_link_word(w: &str) -> bool {
    words("link_words").contains(&w)
}

/// The phrase a quantity belongs to: the words before it in its clause,
/// without the verb, the linking words and the articles ("bump max_conns to
/// 50" → "max_conns"); in Japanese the topic before は/が/を, in Chinese the
/// object after 把 or what precedes the verb. `None` when nothing is left
/// or only a pronoun.
pub fn subject_before(text: &str, at: usize) -> Option<String> {
    let head = &text[..at];
    let start = head
        .char_indices()
        .rev()
        .find(|&(i, c)| {
            matches!(
                c,
                '.' | ';' | '(' | '。' | '；' | '，' | '、' | '：' | '（' | '\n' | '|'
            ) || c == ',' && head[i + 1..].starts_with(' ')
                || c == ':' && head[i + 1..].starts_with(' ')
        })
        .map_or(0, |(i, c)| i + c.len_utf8());
    let clause = head[start..].trim();
    let phrase = if clause.chars().any(is_cjk) {
        cjk_subject(clause)
    } else {
        latin_subject(clause)
    }?;
    let phrase = phrase.trim().to_owned();
    // ("上限": two kanji name a setting though 上 is a function character
    // to `terms`)
    // (not an adverb and a verb: "先存 300 张" names no setting)
    let named = !terms(&phrase).is_empty()
        || phrase.chars().filter(|&c| is_cjk(c) && !is_kana(c)).count() >= 2
            && !phrase.starts_with(['先', '就', '也', '只', '都', '再', '还', '又', '要']);
    let meaningful = named && !words("pronouns").contains(&lower(&phrase).as_str());
    meaningful.then_some(phrase)
}

fn latin_subject(clause: &str) -> Option<String> {
    let mut ws: Vec<&str> = clause.split_whitespace().collect();
    // (a sign before the value is part of it: "limit to $1,500", "~ 40")
    while ws.last().is_some_and(|w| {
        let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
        bare.is_empty() || is_link_word(&lower(bare))
    }) {
        ws.pop();
    }
    // keep the last words up to a link word ("the pool of ord-1 at" → "the
    // pool of ord-1" stays whole; "raise it to" leaves nothing)
    let mut out: Vec<&str> = Vec::new();
    for (k, w) in ws.iter().enumerate().rev() {
        let l = lower(w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_'));
        // the verb of an instruction starts it ("bump max_conns to"); a
        // noun elsewhere may look like a verb ("the retry budget is")
        let verb = k == 0 && words("imperative_verbs").contains(&l.as_str());
        if is_link_word(&l) || verb {
            break;
        }
        out.push(w);
        if out.len() == 4 {
            break;
        }
    }
    out.reverse();
    while out
        .first()
        .is_some_and(|w| words("articles").contains(&lower(w).as_str()))
    {
        out.remove(0);
    }
    (!out.is_empty()).then(|| out.join(" "))
}

fn cjk_subject(clause: &str) -> Option<String> {
    let mut s = clause.trim();
    if let Some(i) = s.rfind('把') {
        s = s[i + '把'.len_utf8()..].trim();
    }
    let japanese = s.chars().any(is_kana);
    if japanese {
        // the topic or subject: before the last は/が/を
        if let Some(i) = s.rfind(['は', 'が', 'を']) {
            s = &s[..i];
        }
    }
    loop {
        let t = s.trim();
        let stripped = words("cjk_trailing")
            .iter()
            .find_map(|w| t.strip_suffix(w))
            .unwrap_or(t);
        if stripped == s {
            break;
        }
        s = stripped;
    }
    let s = strip_fillers(s.trim());
    // the last few words, or the last run of CJK characters
    let tail: String = s
        .split_whitespace()
        .rev()
        .take(3)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join(" ");
    let tail = if tail.chars().count() > 24 {
        tail.chars().skip(tail.chars().count() - 24).collect()
    } else {
        tail
    };
    (!tail.is_empty()).then_some(tail)
}

/// The head of a decision: the terms of what it is about. A subject in
/// parentheses at the end (added from the context) wins; then the object of
/// the leading verb ("bump max_conns to 50" → max_conns, "switch to fd-lock"
/// → fd-lock), the topic of a Japanese sentence (before は/を/が), or the
/// words before a Chinese verb; else its first two terms.
pub fn head_terms(body: &str) -> Vec<String> {
    if let Some(s) = trailing_subject(body) {
        // the head of the subject, not all its words
        let t = head_terms(s.trim_end_matches([')', '）']));
        if !t.is_empty() {
            return t;
        }
    }
    let body = strip_fillers(body);
    let t = if body.chars().any(is_cjk) {
        cjk_head(body)
    } else {
        latin_head(body)
    };
    if !t.is_empty() {
        return t;
    }
    terms(body).into_iter().take(2).collect()
}

/// The subject added in parentheses at the end of a decision.
pub fn trailing_subject(body: &str) -> Option<&str> {
    let b = body.trim_end();
    let (open, close) = if b.ends_with('）') {
        ('（', '）')
    } else if b.ends_with(')') {
        ('(', ')')
    } else {
        return None;
    };
    let inner_end = b.len() - close.len_utf8();
    let i = b[..inner_end].rfind(open)?;
    Some(&b[i + open.len_utf8()..inner_end])
}

/// What a decision said before the subject added to it ("make it 35" of
/// "make it 35 (max_conns)"); all of it when it has none.
pub fn without_trailing_subject(body: &str) -> &str {
    match trailing_subject(body) {
        // the subject is a slice of the body without its closing bracket:
        // cut where it starts
        Some(s) => {
            body[..s.as_ptr() as usize - body.as_ptr() as usize].trim_end_matches(['(', '（', ' '])
        }
        None => body,
    }
}

/// "pausing", "using", "dropping": the -ing form of a verb of change, as
/// a "don't" puts it ("forget pausing the recon job"), is that verb.
fn gerund_of_a_verb(w: &str) -> bool {
    let Some(stem) = w.strip_suffix("ing").filter(|s| s.len() >= 2) else {
        return false;
    };
    let verbs = words("imperative_verbs");
    let undoubled = stem
        .chars()
        .last()
        .filter(|&c| stem.ends_with(&format!("{c}{c}")))
        .map(|_| &stem[..stem.len() - 1]);
    verbs.contains(&stem)
        || verbs.contains(&format!("{stem}e").as_str())
        || undoubled.is_some_and(|s| verbs.contains(&s))
}

fn latin_head(body: &str) -> Vec<String> {
    let ws: Vec<String> = body
        .split_whitespace()
        .map(|w| lower(w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '-')))
        .collect();
    let mut i = 0;
    // the verb, and the particle of a phrasal verb ("switch to", "go back to");
    // a negation and a preposition with nothing before them ("not yet for
    // lb-portal-old" is about lb-portal-old)
    const LEADING: &[&str] = &["not", "yet", "no", "never", "for", "on", "about", "with"];
    while i < ws.len()
        && (words("imperative_verbs").contains(&ws[i].as_str())
            || i == 0 && gerund_of_a_verb(&ws[i])
            || words("verb_particles").contains(&ws[i].as_str())
            || LEADING.contains(&ws[i].as_str()))
    {
        i += 1;
    }
    // the object, and a second one after "and" ("pin clap 4.4.18 and MSRV
    // back to 1.70"); a value in between is skipped
    let mut out = Vec::new();
    let mut prev_and = false;
    let mut after_number = false;
    for w in &ws[i.min(ws.len())..] {
        if w.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            after_number = true;
            continue;
        }
        // the unit of a value ("7 days", "14 days") says no subject
        if std::mem::take(&mut after_number) || words("time_words").contains(&w.as_str()) {
            continue;
        }
        if w == "and" {
            prev_and = true;
            continue;
        }
        // "backups of the scratch volumes": the complement narrows the head
        if w == "of" && !out.is_empty() {
            prev_and = true;
            continue;
        }
        if is_link_word(w) {
            break;
        }
        let t = terms(w);
        if t.is_empty() {
            if prev_and && !words("articles").contains(&w.as_str()) {
                break;
            }
            continue;
        }
        out.extend(t);
        prev_and = false;
        if out.len() >= 4 {
            break;
        }
    }
    out
}

fn cjk_head(body: &str) -> Vec<String> {
    let japanese = body.chars().any(is_kana);
    let cut = if japanese {
        body.find(['は', 'を', 'が']).or_else(|| body.find('に'))
    } else {
        words("zh_verbs")
            .iter()
            .filter_map(|v| body.find(v))
            .filter(|&i| i > 0)
            .min()
    };
    let part = cut.map_or(body, |i| &body[..i]);
    // the first clause, and in "X 的 Y" / "XのY" the head noun Y
    let part = part.split(['，', '、', ',', '。']).next().unwrap_or(part);
    let part = match part.rfind(if japanese { 'の' } else { '的' }) {
        Some(i) if !terms(&part[i + 3..]).is_empty() => &part[i + 3..],
        _ => part,
    };
    let t = terms(part);
    if t.is_empty() && japanese {
        // "ECDSA で", "m7i.xlarge で": the thing chosen is the head
        return terms(body.split(['で', 'に']).next().unwrap_or(body));
    }
    t
}

/// Does the statement name what it is about? Not when its only words are a
/// verb, pronouns, values and placeholder nouns ("make it 35", "add a
/// test", "do the same there", "それは30分にしましょう", "调到12G").
pub fn needs_subject(body: &str) -> bool {
    // "skip #1179 for now": a reference names its thing
    if trailing_subject(body).is_some() || body.split_whitespace().any(is_reference) {
        return false;
    }
    let l = lower(strip_fillers(body));
    let pronoun = l
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .any(|w| words("pronouns").contains(&w))
        || words("cjk_pronouns").iter().any(|p| l.contains(p));
    let content: Vec<String> = terms(&l)
        .into_iter()
        .filter(|t| {
            !words("imperative_verbs").contains(&t.as_str())
                && !words("placeholder_nouns").contains(&t.as_str())
                && !words("time_words").contains(&t.as_str())
                && !t.starts_with(|c: char| c.is_ascii_digit())
                && !words("pronouns").contains(&t.as_str())
                // ("use 3,200 rather than 4,000": the old value names nothing)
                && !["rather", "instead", "than", "not"].contains(&t.as_str())
        })
        .collect();
    let latin_words = l
        .split_whitespace()
        .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        .count();
    // (a word and its whole number, "retries 1", "timeout 300", name the
    // setting: the word as said, "retries" is no order to retry; not a
    // value alone, "10s", nor a version, "pgcrypto 1.3"; asked last)
    let setting_and_value = || {
        let latin: Vec<&str> = l
            .split_whitespace()
            .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
            .collect();
        let [w] = latin[..] else {
            return false;
        };
        w.chars().count() >= 3
            && w.chars()
                .all(|c| c.is_ascii_alphabetic() || c == '-' || c == '_')
            && !l.contains(['.', ','])
            && !terms(w).is_empty()
            && !words("imperative_verbs").contains(&w)
            && !words("time_words").contains(&w)
            && !words("placeholder_nouns").contains(&w)
            && !words("pronouns").contains(&w)
            && !quantities(&l).is_empty()
    };
    // one word alone ("mandatory", "revert") decides nothing without its
    // subject; nor does a verb whose object is a pronoun ("set it
    // explicitly", "leave it at 10")
    let one_word = latin_words == 1 && !l.chars().any(is_cjk);
    // "抽選会はやめよう", "抽奖不搞": a thing of two or more characters
    // before its particle or negation names itself
    let topic_named = ["は", "を", "不搞", "不做", "不弄"].iter().any(|p| {
        l.split_once(p).is_some_and(|(head, _)| {
            let head = head.trim();
            head.chars().filter(|&c| is_cjk(c) && !is_kana(c)).count() >= 2
                && !words("cjk_pronouns").iter().any(|w| head.contains(w))
        })
    });
    if topic_named && !value_only(&l) {
        return false;
    }
    // "半天吧", "加上，必须填": a few CJK characters and nothing else name a
    // value or an act, not what it is for
    if latin_words == 0
        && !l.chars().any(|c| c.is_ascii_digit())
        && super::text::cjk_content_chars(&l) <= 3
    {
        return true;
    }
    if value_only(&l) {
        return true;
    }
    let mut ws = l.split_whitespace();
    let verb_it = ws
        .next()
        .is_some_and(|v| words("imperative_verbs").contains(&v))
        && ws
            .next()
            .is_some_and(|o| ["it", "them", "that", "this", "those"].contains(&o));
    if verb_it {
        return true;
    }
    (content.is_empty() || one_word || pronoun && content.len() <= 1 && latin_words <= 8)
        && !setting_and_value()
}

/// "那改成 15 分钟吧", "75% にしよう", "还是改回 300 秒": in CJK text, a
/// verb of change and a value with nothing else name the value, not what
/// it is for.
fn value_only(l: &str) -> bool {
    if !l.chars().any(is_cjk) {
        return false;
    }
    let qs = quantities(l);
    if qs.is_empty() {
        return false;
    }
    let mut rest = l.to_owned();
    for q in qs.iter().rev() {
        rest.replace_range(q.start..q.end, " ");
    }
    for w in words("value_verbs")
        .iter()
        .chain(words("change_verbs"))
        .chain(words("value_fillers"))
        .chain(words("cjk_fillers"))
        .chain(words("cjk_pronouns"))
    {
        rest = rest.replace(w, " ");
    }
    !rest.chars().any(|c| c.is_alphanumeric() && !is_cjk(c))
        && super::text::cjk_content_chars(&rest) == 0
}

/// "#1179": an issue or pull request, a thing of its own.
fn is_reference(w: &str) -> bool {
    w.strip_prefix('#')
        .is_some_and(|n| n.len() >= 2 && n.chars().all(|c| c.is_ascii_digit()))
}

/// Identifier-like tokens in order of appearance: code spans, then tokens
/// with `_`, `.`, `/`, `::` or `-` between letters, or letters and digits.
pub fn identifiers(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('`') {
        let after = &rest[i + 1..];
        let Some(j) = after.find('`') else { break };
        let span = after[..j].trim();
        if !span.is_empty() && span.chars().count() <= 40 && !out.iter().any(|x| x == span) {
            out.push(span.to_owned());
        }
        rest = &after[j + 1..];
    }
    for w in
        text.split(|c: char| c.is_whitespace() || "()[]{}\"'`,;:。，、（）「」：；！？".contains(c))
    {
        let w = w.trim_end_matches(['.', '!', '?']);
        let letters = w.chars().filter(|c| c.is_ascii_alphabetic()).count();
        let joined = w.contains('_')
            || w.contains("::")
            || w.contains('/') && letters >= 2
            || w.contains('.') && letters >= 2 && w.len() >= 5
            || w.contains('-') && letters >= 3 && !w.starts_with('-')
            || letters >= 1 && w.chars().any(|c| c.is_ascii_digit()) && w.len() >= 3
            || is_reference(w);
        if joined
            && w.is_ascii()
            && w.len() <= 40
            && !w.starts_with("http")
            && !out.iter().any(|x| x.contains(w))
        {
            out.push(w.to_owned());
        }
    }
    out
}

/// Does `body` start with one of the verbs of a choice ("use", "switch to",
/// "go back to", 用, 改用, にします…)? Those replace an earlier choice when
/// they say "instead".
pub fn is_choice(body: &str) -> bool {
    let l = lower(strip_fillers(body));
    words("choice_frames")
        .iter()
        .any(|v| starts_with_word(&l, v) || !v.is_ascii() && l.contains(v))
}

/// The topic a turn names before what it says of it: "And thinking about
/// the daily cap again: 2 hours will kill group projects", "also exif:
/// right now we keep all of it", "关于节假日排班：…", "検索の件ですが、…".
/// A decision of that turn that names nothing ("Make it 3", "yes do that")
/// is about it. None when the label is a verb ("update:"), a question, or
/// longer than a short noun phrase.
pub fn topic_label(sentence: &str) -> Option<String> {
    let s = sentence.trim();
    let cut = |label: &str| -> Option<String> {
        let label = label.trim().trim_end_matches([',', '，', '、']);
        let mut l = label.to_lowercase();
        // the words that lead to the topic, not the topic
        const LEADS: &[&str] = &[
            "and",
            "also",
            "ok",
            "okay",
            "so",
            "now",
            "then",
            "next",
            "one more",
            "thinking about",
            "about",
            "regarding",
            "re",
            "as for",
            "on",
            "for",
            "back to",
            "the question of",
        ];
        loop {
            let before = l.len();
            for w in LEADS {
                if let Some(rest) = l.strip_prefix(w) {
                    if rest.starts_with([' ', ',']) {
                        l = rest.trim_start_matches([' ', ',']).to_owned();
                    }
                }
            }
            if l.len() == before {
                break;
            }
        }
        // (lower-casing keeps the byte length of the letters it changes
        // here: the leads and endings are ASCII)
        let start = label.len().saturating_sub(l.len());
        let mut end = label.len();
        for w in [" again", " itself", " too", " as well"] {
            if let Some(rest) = l.strip_suffix(w) {
                l = rest.to_owned();
                end -= w.len();
            }
        }
        let kept = label.get(start..end).unwrap_or(&l).trim().to_owned();
        let words_n = kept.split_whitespace().count();
        let cjk = kept.chars().filter(|c| is_cjk(*c)).count();
        let is_verb = words("imperative_verbs").contains(&l.as_str());
        // ("Quick status: the backlog is cleared": a kind of message, not
        // what it is about)
        const META: &[&str] = &[
            "status",
            "quick status",
            "update",
            "quick update",
            "fyi",
            "note",
            "context",
            "background",
            "summary",
            "recap",
            "question",
            "quick question",
            "heads up",
            "good news",
            "bad news",
            "problem",
            "issue",
            "edit",
            "ps",
            "reminder",
            "thing",
            "point",
            "more thing",
        ];
        // ("The other problem:", "One more thing:")
        let bare = ["the ", "one ", "another "]
            .iter()
            .fold(l.as_str(), |t, p| t.strip_prefix(p).unwrap_or(t));
        let bare = bare.strip_prefix("other ").unwrap_or(bare);
        let is_meta = META.contains(&bare);
        let asks = super::classify::is_question(&kept)
            || super::classify::has_any(&l, words("question_words"));
        (!kept.is_empty()
            && !is_verb
            && !is_meta
            && !asks
            && words_n <= 5
            && cjk <= 12
            && !terms(&kept).is_empty())
        .then_some(kept)
    };
    if let Some((label, rest)) = s.split_once(": ").or_else(|| s.split_once('：')) {
        if !rest.trim().is_empty() || s.ends_with(':') {
            return cut(label);
        }
    }
    for (open, close) in [("关于", "，"), ("至于", "，")] {
        if let Some(rest) = s.strip_prefix(open) {
            if let Some((label, _)) = rest.split_once(close) {
                return cut(label);
            }
        }
    }
    // "and on honeycrisp, talked to the crew leads … make it 34": a word
    // that leads to a topic, then a comma (without the lead, "fine, do it"
    // is no topic; "about 20, …" and "on monday, …" say how many and when)
    let l = s.to_lowercase();
    let bare = super::classify::strip_fillers(&l);
    if ["on ", "as for ", "re ", "regarding ", "about "]
        .iter()
        .any(|w| bare.starts_with(w))
    {
        if let Some((label, _)) = s.split_once(", ") {
            let topic = super::classify::strip_fillers(&label.to_lowercase()).to_owned();
            let last = topic.split_whitespace().last().unwrap_or("");
            let when_or_how_many = topic
                .split_whitespace()
                .nth(1)
                .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()))
                || words("time_words").contains(&last)
                || super::classify::has_any(&topic, words("reconsider_cues"));
            // ("on average, it takes 40 s", "about time", "on the other
            // hand", "as for me": idioms, no topic)
            let idiom = words("lead_idioms").contains(&topic.as_str());
            if !when_or_how_many && !idiom {
                return cut(label);
            }
        }
    }
    // "私教的话，就按 55%", "储值卡这块，先不做" (not "如果…的话", a
    // condition, nor "周末的话，我没空", "大概 50 人的话，放不下": a time or
    // an amount is no topic)
    for close in ["的话，", "这块，", "这一块，"] {
        if let Some((label, _)) = s.split_once(close) {
            let condition = ["如果", "要是", "假如", "万一", "若"]
                .iter()
                .any(|w| label.starts_with(w));
            let when_or_how_many = label.contains(|c: char| c.is_ascii_digit())
                || super::classify::has_any(label, words("zh_time_words"));
            if !condition && !when_or_how_many {
                return cut(label);
            }
        }
    }
    for marker in [
        "の件ですが、",
        "についてですが、",
        "につきましては、",
        "については、",
        "ですが、",
    ] {
        if let Some((label, _)) = s.split_once(marker) {
            return cut(label);
        }
    }
    None
}

/// What a choice is for and what it picks: "use JSON for the export" and
/// "switch the export to CSV" fill one slot (the export) with two values;
/// "Memcached is enough for sessions" fills the slot of "use Redis for the
/// session cache". Terms are singular ("sessions" and "session" match).
pub fn choice_slot(body: &str) -> Option<(Vec<String>, Vec<String>)> {
    static FOR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?i)^(?:use|go with|going with|pick|choose|adopt|stick with|stay with|switch to|move to|migrate to|standardi[sz]e on)\s+",
            r"(.+?)\s+for\s+(.+)$"
        ))
        .unwrap()
    });
    static TO: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)^(?:switch|change|move|migrate|convert|set)\s+(?:(?i:up)\s+)?(.+?)\s+(?:over to|to)\s+(.+)$",
        )
        .unwrap()
    });
    static ENOUGH: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^(.+?)\s+(?:is|are)\s+(?:enough|fine|better|safer|simpler|good enough)\s+for\s+(.+)$")
            .unwrap()
    });
    // "make the ledger MySQL": a name given to a thing (case matters: not
    // "make it fast")
    static MAKE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^(?i:make)\s+(?:(?i:the)\s+)?([a-z][\w-]*(?:\s[a-z][\w-]*)?)\s+([A-Z0-9][\w.+-]*)\b",
        )
        .unwrap()
    });
    // "Export should be CSV after all", "the ledger will use MySQL"
    static SHOULD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^(?:the\s+)?([\w-]+(?:\s[\w-]+)?)\s+(?:should|must|will|shall)\s+(?:be|use|stay on)\s+(.+)$")
            .unwrap()
    });
    let b = strip_fillers(without_trailing_subject(body))
        .trim()
        .trim_end_matches(['.', '!']);
    if b.chars().any(is_cjk) {
        return None;
    }
    // ("set up alerts to page …" is no setting; "… too", "also …" adds
    // to what was chosen, it chooses no other)
    let l = lower(b);
    if l.starts_with("set up ")
        || l.ends_with(" too")
        || l.ends_with(" as well")
        || l.starts_with("also ")
    {
        return None;
    }
    // (what "should be" names is a thing's name, not a state: "the build
    // should be green now", "Bob will be out")
    let named = |v: &str| {
        v.trim_start()
            .starts_with(|c: char| c.is_ascii_uppercase() || c.is_ascii_digit())
    };
    let (slot, value) = if let Some(c) = FOR.captures(b).or_else(|| ENOUGH.captures(b)) {
        (c[2].to_owned(), c[1].to_owned())
    } else if let Some(c) = TO
        .captures(b)
        .or_else(|| MAKE.captures(b))
        .or_else(|| SHOULD.captures(b).filter(|c| named(&c[2])))
    {
        (c[1].to_owned(), c[2].to_owned())
    } else {
        return None;
    };
    // ("CSV after all": the words of reconsidering are no part of it)
    let value = ["after all", "instead", "then", "for now"]
        .iter()
        .fold(value, |v, w| v.trim_end().trim_end_matches(w).to_owned());
    // (a time is no slot: "use SQLite for now")
    let singular = |s: &str| -> Vec<String> {
        terms(s)
            .into_iter()
            .filter(|t| !words("placeholder_nouns").contains(&t.as_str()))
            .filter(|t| !words("time_words").contains(&t.as_str()) && t != "being")
            .map(|t| match t.strip_suffix('s') {
                Some(r) if r.len() >= 3 && !r.ends_with('s') => r.to_owned(),
                _ => t,
            })
            .collect()
    };
    // (a clause after the value is its reason: "CSV, finance can't open it")
    let value = value.split([',', ';', '—', '–']).next().unwrap_or("");
    let (slot, value) = (singular(&slot), singular(value));
    (!slot.is_empty() && !value.is_empty()).then_some((slot, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(&str, &'static str)> {
        quantities(s)
            .into_iter()
            .map(|q| (&s[q.start..q.end], q.kind))
            .collect()
    }

    #[test]
    fn a_date_is_a_date_when_japanese_text_runs_on_from_it() {
        // (a Unicode word boundary saw no end between "12" and "日" or
        // "Mar" and "の", and read a period and a bare number)
        assert_eq!(kinds("リリースは Mar 12日に"), [("Mar 12", "date")]);
        assert_eq!(kinds("締切 12 Marの朝"), [("12 Mar", "date")]);
    }

    #[test]
    fn quantities_know_their_kind() {
        // a unit spelled out after a space is a unit, not a month ("12 Mar")
        assert_eq!(
            kinds("refresh at 30 seconds; 500 MB uploads; keep 90 days; 12 Mar"),
            [
                ("30 seconds", "time"),
                ("500 MB", "size"),
                ("90 days", "period"),
                ("12 Mar", "date")
            ]
        );
        assert_eq!(
            kinds("max_conns to 50, timeout 5 s, 80% for 5m at 21:00 on 3/14, June 30"),
            [
                ("50", "number"),
                ("5 s", "time"),
                ("80%", "percent"),
                ("5m", "size"),
                ("21:00", "clock"),
                ("3/14", "date"),
                ("June 30", "date")
            ]
        );
        assert_eq!(
            kinds("観察時間は現在 5 分です。12G に、30 日、2名、2 月 14 日"),
            [
                ("5 分", "time"),
                ("12G", "size"),
                ("30 日", "period"),
                ("2名", "people"),
                ("2 月 14 日", "date")
            ]
        );
        assert_eq!(
            kinds("fs4 and gp3, pgx v5.5.1, clap 4.4.18"),
            [("v5.5.1", "version"), ("4.4.18", "version")]
        );
    }

    #[test]
    fn the_subject_of_a_value_is_the_phrase_before_it() {
        let s = "Bump max_conns to 50 on both instances";
        assert_eq!(
            subject_before(s, s.find("50").unwrap()).as_deref(),
            Some("max_conns")
        );
        let s = "The canary observation time is currently 5 minutes.";
        assert_eq!(
            subject_before(s, s.find('5').unwrap()).as_deref(),
            Some("canary observation time")
        );
        let s = "カナリアの観察時間は現在 5 分です。";
        assert_eq!(
            subject_before(s, s.find('5').unwrap()).as_deref(),
            Some("カナリアの観察時間")
        );
        let s = "可以在线把 maxmemory 调到 12 GB";
        assert_eq!(
            subject_before(s, s.find("12").unwrap()).as_deref(),
            Some("maxmemory")
        );
        let s = "Make it 35";
        assert_eq!(subject_before(s, s.find("35").unwrap()), None);
    }

    #[test]
    fn heads_are_objects_and_topics_not_any_shared_word() {
        assert_eq!(
            head_terms("Bump max_conns to 50 on both instances"),
            ["max_conn"]
        );
        assert_eq!(head_terms("switch to fd-lock instead"), ["fd-lock"]);
        assert_eq!(head_terms("Make it 35 then (max_conns)"), ["max_conn"]);
        let friday = head_terms("金曜の15時以降は本番デプロイ禁止にしましょう");
        assert!(friday.contains(&"金曜".to_owned()) && !friday.contains(&"本番".to_owned()));
        assert_eq!(head_terms("承認は2名必須にします"), ["承認"]);
        assert!(head_terms("Keep the lock file next to state.db").contains(&"lock".to_owned()));
        assert!(!head_terms("Lock the CI toolchain to 1.79").contains(&"lock".to_owned()));
    }

    /// "forget pausing the recon job" is about what "pause the recon job"
    /// is about: the -ing form of a verb of change ("pausing", "stopping")
    /// opens no subject; a word that only ends like one ("string", "ring")
    /// is a noun.
    #[test]
    fn the_ing_form_of_a_verb_is_no_part_of_the_head() {
        assert_eq!(
            head_terms("pausing the recon job"),
            head_terms("pause the recon job")
        );
        assert_eq!(
            head_terms("stopping the mirror"),
            head_terms("stop the mirror")
        );
        for noun in ["string", "ring"] {
            let head = head_terms(&format!("{noun} buffer size"));
            assert_eq!(head.first(), terms(noun).first(), "{noun}");
        }
    }

    #[test]
    fn statements_without_a_subject_are_recognised() {
        for s in [
            "Make it 35 then",
            "Add a test",
            "do the same there",
            "それは30分にしましょう",
            "调到12G",
            "Add the index",
            "move it to 5",
            "2 then",
            "go 2",
            "fine 2",
            "ok 3",
            "use 5s",
            "pgcrypto 1.3",
        ] {
            assert!(needs_subject(s), "{s}");
        }
        for s in [
            "Bump max_conns to 50",
            "Enable sqlclosecheck in golangci-lint as well",
            "金曜の15時以降は本番デプロイ禁止にしましょう",
            "Make it 35 then (max_conns)",
            "use Redis for the cache",
            // a setting's word and its value
            "retries 1",
            "timeout 300",
        ] {
            assert!(!needs_subject(s), "{s}");
        }
    }

    #[test]
    fn identifiers_in_order() {
        assert_eq!(
            identifiers(
                "the leak in `internal/report/summary.go:142`, fix with rows.Close and max_conns"
            ),
            ["internal/report/summary.go:142", "rows.Close", "max_conns"]
        );
    }

    #[test]
    fn a_topic_label_is_the_noun_phrase_before_the_colon() {
        for (sentence, label) in [
            (
                "And thinking about the daily cap again: 2 hours is too little",
                "the daily cap",
            ),
            ("also exif: we keep all of it", "exif"),
            ("关于节假日排班，先按去年的来", "节假日排班"),
            (
                "and on the gate fee, spoke to the treasurer, 12 is too much",
                "the gate fee",
            ),
            ("as for the raffle, tickets stay at 2", "the raffle"),
            ("团体课的话，就按人头算", "团体课"),
            ("検索の件ですが、来週にします", "検索"),
            (
                "位置情報の取得につきましては、保留とさせてください",
                "位置情報の取得",
            ),
        ] {
            assert_eq!(topic_label(sentence).as_deref(), Some(label), "{sentence}");
        }
        // a verb, a question, a sentence: no label
        assert_eq!(topic_label("update: no budget this quarter"), None);
        assert_eq!(topic_label("How do we cut over: two weeks?"), None);
        assert_eq!(
            topic_label("I talked to the IAM team and they said this: no SAML"),
            None
        );
        assert_eq!(topic_label("no colon here"), None);
        // how many, when, a change of mind, a condition: no topic
        assert_eq!(topic_label("about 20, maybe 25 people"), None);
        assert_eq!(topic_label("on monday, we ship it"), None);
        assert_eq!(topic_label("on second thought, keep it"), None);
        assert_eq!(topic_label("如果下雨的话，就改到室内"), None);
        assert_eq!(topic_label("on average, it takes 40 seconds"), None);
        assert_eq!(topic_label("about time, honestly"), None);
        assert_eq!(topic_label("and on top of that, 2 more"), None);
        assert_eq!(topic_label("on the other hand, people paid 25"), None);
        assert_eq!(topic_label("周末的话，我没空"), None);
        assert_eq!(topic_label("大概 50 人的话，场地放不下"), None);
    }
}
