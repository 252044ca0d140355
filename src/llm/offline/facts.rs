//! What in a conversation is worth keeping as a fact, and how to name a
//! discussion: scores from explicit signals (a stated cause, measurements,
//! commit ids, file:line, issue numbers, warnings), values compared whole.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::classify::{self, has_any, starts_with_word};
use super::lexicon::words;
use super::text::{clip, is_cjk, numbers, terms};

/// Longest topic, in UTF-8 bytes.
const TOPIC_BYTES: usize = 72;

/// A count with what it counts: "412 tests", "11 findings", "16 コア",
/// "1,204 条" (the noun checked against the stop words in `counts`); in
/// Chinese and Japanese also glued to the word before it ("本文32ページ",
/// "会場で48部", "现在9只猫"), which a Latin name never is ("v2", "gp3").
static COUNT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(^|[^\w.\-#/]|[\p{Han}\p{Hiragana}\p{Katakana}])(\d[\d,]*(?:\.\d+)?)\s?([a-z][a-z-]{2,}|[\p{Katakana}ー]{2,}|\p{Han})",
    )
    .unwrap()
});

/// What a count glued to a CJK word may count: a counter word, so that a
/// phone number, a model ("小米14手机"), an age, a date, a chapter or a
/// floor number is none.
const CJK_COUNTERS: &str =
    "个只台人名件条张页部本冊册枚份次回位家间間套辆块元円种项項箱袋盒瓶片颗株头匹組组軒店杯碗斤层層节節场場题道架把双对门課课票单単床席区";

/// How many counts of things a sentence gives (see `COUNT`).
fn counts(s: &str) -> usize {
    COUNT
        .captures_iter(s)
        .filter(|c| {
            let noun = &c[3];
            let glued = c[1].chars().next().is_some_and(is_cjk);
            if glued && !noun.is_ascii() {
                let katakana = noun.chars().count() >= 2;
                let digits = c[2].chars().filter(char::is_ascii_digit).count();
                return &c[1] != "第" && digits <= 6 && (katakana || CJK_COUNTERS.contains(noun));
            }
            !noun.is_ascii()
                || !words("stopwords").contains(&noun)
                    && !words("link_words").contains(&noun)
                    && !words("time_words").contains(&noun)
        })
        .count()
}

static MEASURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\d[\d.,]*\s?(?:ms|µs|us|ns|sec|secs|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?|months?",
        r"|gib|mib|kib|gb|mb|kb|tb|bytes|qps|rps|lines?|runs?|entries|rows|files|sessions|queries|requests",
        r"|errors|failures|tokens|s|h|x|%)(?:[^A-Za-z]|$)",
        r"|\d\s?(?:分钟|小时|天|秒|分|時間|日|件|倍|行|条|台|次|周|週)",
        r"|\d[\d,]*\s(?:of|out of|in)\s\d",
    ))
    .unwrap()
});
/// Money: "1,200 USD", "$825", "2 万 1 千円", "1.04 万元".
static MONEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:usd|eur|gbp|jpy|cny|dollars?|euros?)(?-u:\b)|\d[\d,.]*\s?(?:万|千)?\s?(?:円|元))")
        .unwrap()
});
static FILE_LINE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\w\.[a-z]{1,5}:\d+").unwrap());
static ISSUE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[\s(])#\d{2,}(?-u:\b)").unwrap());
static COMMIT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u:\b)[0-9a-f]{7,40}(?-u:\b)").unwrap());
static PATH_OR_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+|(?-u:\b)\w+\.(?:rs|go|py|ts|js|toml|json|yaml|yml|md|sh|conf|log)(?-u:\b)|(?-u:\b)v?\d+\.\d+(?:\.\d+)?(?-u:\b)")
        .unwrap()
});

/// How much a sentence is worth keeping: a stated cause most, then
/// measurements, precise anchors (commit, file:line, #issue), paths and
/// versions (as much as a measurement: the environment a conversation
/// settles on is what a summary is asked for later), warnings, one-line
/// commands. Questions score nothing.
pub fn score(s: &str) -> u32 {
    // (the budget loop weighs every kept fact again after each drop, and a
    // summary is rebuilt per record: the same few dozen sentences are
    // scored over and over, so the scores are remembered per thread)
    // (as the token counter's chunk memo, engine/tokens/bpe.rs: FxHash,
    // the sentences are not adversarial; dropped whole when full)
    thread_local! {
        static SCORES: RefCell<HashMap<Box<str>, u32, rustc_hash::FxBuildHasher>> =
            RefCell::new(HashMap::default());
    }
    if let Some(known) = SCORES.with(|c| c.borrow().get(s).copied()) {
        return known;
    }
    let score = score_uncached(s);
    SCORES.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= SCORES_MAX_ENTRIES {
            c.clear();
        }
        c.insert(s.into(), score);
    });
    score
}

/// A thread's remembered scores are dropped when it holds this many (a
/// long session keeps a few hundred facts in play).
const SCORES_MAX_ENTRIES: usize = 4096;

fn score_uncached(s: &str) -> u32 {
    let l = s.to_lowercase();
    if classify::is_question(s) || s.chars().count() < 12 {
        return 0;
    }
    let mut score = 0;
    if words("root_cause").iter().any(|m| l.contains(m)) {
        score += 4;
    } else if has_any(&l, words("cause")) {
        score += 1;
    }
    // values: measurements, money, dates and times, counts with a unit
    let units = super::subject::quantities(s)
        .iter()
        .filter(|q| !matches!(q.kind, "number" | "version" | "label"))
        .count();
    let money = MONEY.find_iter(s).count();
    score += match MEASURE.find_iter(s).count().max(units).max(counts(s)) + money {
        0 => 0,
        1 => 2,
        _ => 3,
    };
    let commit = COMMIT.find_iter(&l).any(|m| {
        let t = m.as_str();
        t.chars().any(|c| c.is_ascii_digit()) && t.chars().any(|c| c.is_ascii_alphabetic())
    });
    let mut anchored = false;
    if commit || FILE_LINE.is_match(s) {
        score += 3;
        anchored = true;
    }
    if ISSUE.is_match(s) {
        score += 2;
        anchored = true;
    }
    if !FILE_LINE.is_match(s) && PATH_OR_VERSION.is_match(s) {
        score += 2;
        anchored = true;
    }
    // a name of something specific: `pgxpool`, lb-api-1, 8u151,
    // cert-expiry-check
    if !super::subject::identifiers(s).is_empty() {
        score += if anchored { 1 } else { 2 };
    }
    if words("warnings").iter().any(|m| l.contains(m)) {
        score += 2;
    }
    if s.len() > 2 && s.starts_with('`') && s.ends_with('`') {
        score += 2; // a command shown on its own
    }
    score
}

/// A fact as it is kept: the sentence, or when it is longer than `max`
/// bytes the clauses that carry its values (the best one, widened by its
/// neighbours while it fits, the one before first: it names the subject).
pub fn fact_text(sentence: &str, max: usize) -> String {
    if sentence.len() <= max {
        return sentence.to_owned();
    }
    let parts = fact_clauses(sentence);
    if parts.len() < 2 {
        return clip(sentence, max);
    }
    let best = (0..parts.len())
        .max_by_key(|&i| (score(parts[i]) + measures(parts[i]), std::cmp::Reverse(i)))
        .expect("not empty");
    let (mut a, mut b) = (best, best + 1);
    let len = |a: usize, b: usize| parts[a..b].iter().map(|p| p.len()).sum::<usize>();
    loop {
        if a > 0 && len(a - 1, b) <= max {
            a -= 1;
        } else if b < parts.len() && len(a, b + 1) <= max {
            b += 1;
        } else {
            break;
        }
    }
    let text: String = parts[a..b].concat();
    let text = text
        .trim()
        .trim_end_matches([',', ';', '，', '；', ':', '：', '、'])
        .trim();
    clip(text, max)
}

/// How many values and identifiers a clause holds.
fn measures(s: &str) -> u32 {
    (MEASURE.find_iter(s).count() + COMMIT.find_iter(s).count()) as u32
}

/// Clauses with their separators, never split inside a code span or a
/// number ("10,000").
fn fact_clauses(s: &str) -> Vec<&str> {
    classify::split_clauses(s, |c, next, after| match c {
        '，' | '；' | '、' => true,
        ';' | ':' => next == Some(' '),
        ',' => next == Some(' ') && after.is_some_and(|n| !n.is_ascii_digit()),
        _ => false,
    })
}

/// Every value and identifier of `fact` is in the facts already kept: it
/// says nothing new.
pub fn adds_nothing(fact: &str, kept: &[String]) -> bool {
    let nums = number_tokens(fact);
    let ids: Vec<String> = super::subject::identifiers(fact);
    if nums.is_empty() && ids.is_empty() {
        return false;
    }
    let all = kept.join("\n");
    nums.iter().all(|n| contains_value(&all, n)) && ids.iter().all(|i| all.contains(i.as_str()))
}

/// The sentence names a commit, a file:line, an issue, a path or a version.
pub fn has_anchor(s: &str) -> bool {
    let l = s.to_lowercase();
    COMMIT.find_iter(&l).any(|m| {
        let t = m.as_str();
        t.chars().any(|c| c.is_ascii_digit()) && t.chars().any(|c| c.is_ascii_alphabetic())
    }) || FILE_LINE.is_match(s)
        || ISSUE.is_match(s)
        || PATH_OR_VERSION.is_match(s)
}

/// Fenced code blocks of a single short line: the commands an answer
/// hands over ("sudo ss -ltnp …"), worth keeping verbatim.
pub fn one_line_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut block: Option<Vec<&str>> = None;
    for line in text.lines().map(str::trim) {
        if line.starts_with("```") || line.starts_with("~~~") {
            match block.take() {
                Some(lines) => match lines.as_slice() {
                    [one] if one.chars().count() <= 80 => out.push(format!("`{one}`")),
                    _ => {}
                },
                None => block = Some(Vec::new()),
            }
        } else if let Some(lines) = &mut block {
            if !line.is_empty() {
                lines.push(line);
            }
        }
    }
    out
}

/// A reply line that reports what was done ("Updated …", "已提交 …").
pub fn is_status(s: &str) -> bool {
    let l = s.to_lowercase();
    s.chars().count() >= 12 && words("status").iter().any(|m| classify::has(&l, m))
}

/// "ちょっと相談させて", "can you help me": a sentence that asks for help
/// or to be heard, and names nothing it is about.
pub fn only_asks_to_talk(sentence: &str) -> bool {
    let mut rest = sentence.to_lowercase();
    for w in words("request_verbs").iter().chain(words("topic_leads")) {
        if !w.is_ascii() {
            rest = rest.replace(w, " ");
        } else if starts_with_word(rest.trim_start(), w) {
            rest = rest.trim_start()[w.len()..].to_owned();
        }
    }
    terms(&rest).is_empty()
}

/// A short topic from the sentence that opened the discussion: request
/// words left out, the first clause when it says enough on its own (six
/// CJK characters or three words), cut at a word boundary.
pub fn topic_of(sentence: &str) -> String {
    let mut s = classify::strip_fillers(sentence);
    while let Some(lead) = words("topic_leads")
        .iter()
        .find(|w| starts_with_word(&s.to_lowercase(), w))
    {
        s = classify::strip_fillers(&s[lead.len()..]);
    }
    let weight =
        |p: &str| p.chars().filter(|c| is_cjk(*c)).count() + 2 * p.split_whitespace().count();
    let clause_end = s
        .char_indices()
        .find(|&(i, c)| {
            (c == '，' || c == ',' && s[i + 1..].starts_with(' ')) && weight(&s[..i]) >= 6
        })
        .map_or(s.len(), |(i, _)| i);
    let end = |c: char| c.is_whitespace() || ".!?。！？:：,".contains(c);
    let mut s = s[..clause_end].trim_end_matches(end);
    for tail in [" please", " thanks", "吧"] {
        s = s.strip_suffix(tail).unwrap_or(s).trim_end_matches(end);
    }
    clip(s, TOPIC_BYTES)
}

/// `value` ("5", "10 s", "Thursday") occurs in `text` whole, not as part of
/// "15", "5.5" or "Thursdays".
pub fn contains_value(text: &str, value: &str) -> bool {
    text.match_indices(value).any(|(start, _)| {
        let end = start + value.len();
        let before = text[..start].chars().next_back();
        let after: Vec<char> = text[end..].chars().take(2).collect();
        let before_ok = !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '.');
        let after_ok = match after.as_slice() {
            [c, ..] if c.is_ascii_alphanumeric() => false,
            ['.' | ',', d, ..] if d.is_ascii_digit() => false,
            _ => true,
        };
        before_ok && after_ok
    })
}

/// The number tokens of `text` ("1.75", "10,000"; not "fs4" or "v2.0").
pub fn number_tokens(text: &str) -> Vec<&str> {
    numbers(text)
        .into_iter()
        .map(|(a, b)| &text[a..b])
        .collect()
}

/// A sentence that supposes rather than states: "If we had 100 users …",
/// "Suppose we grow to 200 seats", "Say we double it", "如果明年扩到 50 人",
/// "もし倍になったら", or what someone believes ("My colleague thinks we have
/// 60 seats").
pub fn supposes(sentence: &str) -> bool {
    let l = sentence.trim_start().to_lowercase();
    // (an English word stands alone: "if " opens, "iffy" does not)
    let opens = |w: &&str| match w.is_ascii() {
        true => l.starts_with(&format!("{w} ")),
        false => l.starts_with(*w),
    };
    let believes = |w: &&str| match w.is_ascii() {
        true => l.contains(&format!(" {w} ")),
        false => l.contains(*w),
    };
    words("supposition_leads").iter().any(opens)
        || has_any(&l, words("hypotheticals"))
        || words("belief_verbs").iter().any(believes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_measurements_and_anchors_score() {
        assert!(score("The root cause is a race: the flock is released before the rename.") >= 4);
        assert_eq!(
            score("It fails in roughly 3 of 50 runs."),
            3,
            "two measurements"
        );
        assert_eq!(score("It took 41 ms on average."), 2);
        // an anchor (a commit, file:line, a version) plus the name it is
        assert_eq!(score("I committed it as 9c1e4f2 today."), 4);
        assert_eq!(score("`src/engine/export.rs:88` calls `unwrap()` here."), 4);
        // (a version or a path, what a conversation's facts are made of,
        // weighs as much as a measurement)
        assert_eq!(
            score("不过要注意：serde_yaml 0.9.34 已经被作者标记为 deprecated。"),
            5
        );
        assert_eq!(score("python 3.11, we use httpx everywhere (0.27.0)."), 2);
        assert_eq!(
            score("The auth service listens on lb-api-1 and lb-api-2."),
            2
        );
        assert_eq!(score("Finance pays 1,200 USD a month for it."), 2);
        assert_eq!(score("What is the p99 latency in ms?"), 0);
        assert_eq!(score("Sure, I can look into that."), 0);
        // a count with what it counts is a measurement; a number before a
        // stop word or a time word is not
        assert_eq!(score("The suite has 637 specs in total."), 2);
        assert_eq!(score("ビルドサーバーは 32 コアです。"), 2);
        // (glued to the word before, as CJK text writes it; a Latin name
        // with a digit is still no count)
        assert_eq!(score("新刊はB5の漫画本で、本文32ページ＋表紙の予定。"), 2);
        assert_eq!(
            score("前回の春イベは既刊を60部刷って、会場で48部はけた。"),
            3
        );
        assert_eq!(score("我们店一共有9只猫，80来平。"), 3, "two counts");
        assert_eq!(score("We moved the gp3 volumes over today."), 2);
        // (glued, only a counter word counts: no phone number, model, age,
        // chapter or date)
        for chat in [
            "有问题可以打我电话13812345678找我。",
            "我用的是小米14手机，拍照还行。",
            "今天是我生日，我25岁了，好开心呀！",
            "昨日は第1章から第5章まで読みました。",
        ] {
            assert_eq!(score(chat), 0, "{chat}");
        }
        assert_eq!(score("We talked about it 2 and then left."), 0);
        assert_eq!(score("Let us revisit the plan in 2 next time."), 0);
    }

    #[test]
    fn topics_are_phrases_not_fragments() {
        assert_eq!(
            topic_of("Please review PR #412, which adds the `export` subcommand."),
            "review PR #412"
        );
        assert_eq!(
            topic_of("我们的 CLI 要支持 YAML 配置文件，现在 `Config` 结构在 src/config.rs。"),
            "我们的 CLI 要支持 YAML 配置文件"
        );
        assert_eq!(
            topic_of("Hi, can you help me with the backup job?"),
            "the backup job"
        );
    }

    #[test]
    fn values_match_whole() {
        assert!(contains_value("timeout 10 s, one retry", "10 s"));
        assert!(!contains_value("make it 10 minutes", "10 s"));
        assert!(!contains_value("15 minutes", "5"));
        assert!(!contains_value("5.5 minutes", "5"));
        assert!(contains_value("release on Thursday with #1187", "Thursday"));
        assert_eq!(number_tokens("fs4 0.8, v2.0 and 10,000"), ["0.8", "10,000"]);
    }
}
