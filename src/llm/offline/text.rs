//! Text handling for the offline summarizer: sentence segmentation that
//! keeps decimals, versions, paths, abbreviations, URLs and code intact,
//! clipping that never cuts a number or identifier, and the key terms two
//! statements are compared by.

use super::classify::has_any;
use super::lexicon::words;

/// A sentence of prose, trimmed, with list markers and tool tags removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence {
    pub text: String,
    /// The line it came from started with `[call]`: a tool invocation.
    pub tool_call: bool,
    /// The heading of the list it is an item of ("Decisions" for "- 30 days
    /// of retention" under "Decisions:").
    pub heading: Option<String>,
    /// The sentence that announced the labelled parts its list is one of
    /// ("今天确定的事项汇总如下" for an item under "**用工**" after it).
    pub section: Option<String>,
    /// It is a row of a table of verdicts ("| 機動組 | 不設 |" under "| 事項 |
    /// 決定 |"), "item: verdict", headed by the verdict column's name.
    pub verdict: bool,
}

/// Ideographic full stops and marks: they end a sentence with no space after.
fn is_cjk_terminal(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '；' | '｡')
}

fn is_closer(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | '”' | '’' | ')' | ']' | '」' | '』' | '）' | '】' | '》' | '〉'
    )
}

pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x31F0..=0x31FF    // Katakana extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
    )
}

pub fn is_kana(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x31F0..=0x31FF)
}

pub fn is_hiragana(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x309F)
}

/// The prose sentences of a message; fenced code blocks are left out (they
/// are not statements a summary quotes), inline code and URLs stay whole.
///
/// A Markdown table row becomes one sentence, "first cell: header cell,
/// …" (the header and separator rows are not sentences), so a figure keeps
/// what it measures. A line ending in ":" ("Done in PR #1877:") takes the
/// first item of the list under it, which says what it announces.
/// "ごめんやっぱやめ、ステッカーは。" → "ステッカーはごめんやっぱやめ。": chat
/// Japanese may name its topic last, after what it says of it; put first,
/// the topic is what the sentence is about for every rule that reads it.
fn topic_first(s: String) -> String {
    if !s.chars().any(is_kana) {
        return s;
    }
    let body = s.trim_end_matches(['。', '！', '!']);
    let end = &s[body.len()..];
    let Some((said, topic)) = body.rsplit_once('、') else {
        return s;
    };
    let n = topic.chars().count();
    let plain = !topic.contains(['？', '?', '「', '（', '(', ' ']);
    // (not after a clause with a topic of its own: "Redisはやめて、
    // Memcachedは" contrasts a second topic, it does not name the first)
    let own_topic = said.contains(['は', 'が']);
    if topic.ends_with('は')
        && (3..=12).contains(&n)
        && plain
        && !own_topic
        && !said.trim().is_empty()
    {
        format!("{topic}{said}{end}")
    } else {
        s
    }
}

pub fn sentences(text: &str) -> Vec<Sentence> {
    let mut out: Vec<Sentence> = Vec::new();
    let mut in_fence = false;
    let mut header: Option<Vec<String>> = None;
    // (the column a table of verdicts gives its verdicts in)
    let mut verdicts: Option<usize> = None;
    let mut announces = false;
    let mut list_heading: Option<String> = None;
    // (the sentence that announced labelled parts, and whether the list
    // being read is under one of its labels)
    let mut umbrella: Option<String> = None;
    let mut section: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if trimmed.starts_with('|') {
            let cells: Vec<String> = trimmed
                .trim()
                .trim_matches('|')
                .split('|')
                .map(|c| clean(c).replace("**", ""))
                .collect();
            let separator = cells
                .iter()
                .all(|c| !c.is_empty() && c.chars().all(|x| matches!(x, '-' | ':' | ' ')));
            match &header {
                _ if separator => {}
                None => {
                    // (or, under a line that says it states what was
                    // decided, "今日決まったことのまとめ:", "Recap:", the column
                    // after the item's: "| 電話予約 | 受けない |")
                    verdicts = verdict_column(&cells).or_else(|| {
                        list_heading
                            .as_deref()
                            .filter(|h| says_it_recaps(h))
                            .and_then(|_| value_column(&cells))
                    });
                    header = Some(cells);
                }
                // (not a row that sums the others up, "| 合計 | 57,800円 |":
                // a total is worked out, not decided)
                Some(h)
                    if verdicts.is_some_and(|v| {
                        cells.get(v).is_some_and(|c| !c.is_empty()) && !names_a_total(&cells[v - 1])
                    }) =>
                {
                    // "| 締切時刻 | 朝食 前日17:00 … |" under "| 項目 | 決定内容 |":
                    // the item and its verdict, headed by the column's name
                    // as a list is by the line before it
                    let v = verdicts.unwrap_or_default();
                    out.push(Sentence {
                        // (read back by `item_and_verdict`)
                        text: format!("{}: {}", cells[v - 1], cells[v]),
                        tool_call: false,
                        heading: h.get(v).cloned(),
                        section: None,
                        verdict: true,
                    });
                }
                Some(h) => {
                    let mut s = cells.first().cloned().unwrap_or_default();
                    let rest: Vec<String> = cells
                        .iter()
                        .enumerate()
                        .skip(1)
                        .filter(|(_, c)| !c.is_empty())
                        .map(|(i, c)| match h.get(i) {
                            Some(name) if !name.is_empty() => format!("{name} {c}"),
                            _ => c.clone(),
                        })
                        .collect();
                    if !rest.is_empty() {
                        s.push_str(": ");
                        s.push_str(&rest.join(", "));
                    }
                    if !s.is_empty() {
                        out.push(Sentence {
                            text: s,
                            tool_call: false,
                            heading: None,
                            section: None,
                            verdict: false,
                        });
                    }
                }
            }
            announces = false;
            continue;
        }
        header = None;
        // a Markdown heading ("### 阶段 A：切换前") labels what follows
        // (and heads the list under it: "## 未決・確認待ち" is no longer the
        // "本日の決定事項を整理します" of the list before)
        if trimmed.starts_with('#') && trimmed.trim_start_matches('#').starts_with(' ') {
            announces = false;
            list_heading = Some(clean(trimmed.trim_start_matches('#')).replace("**", ""));
            section = umbrella.clone();
            continue;
        }
        let (body, tool_call) = strip_line_marker(trimmed);
        let listed = body.len() < trimmed.len();
        if !listed && !body.trim().is_empty() {
            list_heading = None;
        }
        for (k, s) in split_line(body).into_iter().enumerate() {
            let s = topic_first(clean(s));
            if s.is_empty() {
                continue;
            }
            let heading = if listed { list_heading.clone() } else { None };
            match out.last_mut() {
                Some(prev) if announces && listed && k == 0 && !tool_call => {
                    prev.text.push(' ');
                    prev.text.push_str(&s);
                    prev.heading = heading;
                }
                _ => out.push(Sentence {
                    text: s,
                    tool_call,
                    heading,
                    section: if listed { section.clone() } else { None },
                    verdict: false,
                }),
            }
        }
        announces = !listed
            && out
                .last()
                .is_some_and(|s| s.text.ends_with(':') || s.text.ends_with('：'));
        // the line before a list heads it, whether it ends in a colon
        // ("Decisions:") or is a sentence ("決定事項をまとめておきます。");
        // only a colon makes the first item part of its sentence
        if !listed && !body.trim().is_empty() {
            list_heading = out.last().map(|s| {
                s.text
                    .trim_end_matches([':', '：', '.', '。'])
                    .trim()
                    .to_owned()
            });
            // (a sentence ending in a colon may announce labelled parts:
            // "今天确定的事项汇总如下：" then "**用工**", "**加工**", …)
            if is_label_line(body) {
                section = umbrella.clone();
            } else {
                umbrella = list_heading
                    .clone()
                    .filter(|_| body.trim_end().ends_with([':', '：']));
                section = None;
            }
        }
    }
    out
}

/// A line that only labels what follows: "**用工**", "**Backend:**".
fn is_label_line(line: &str) -> bool {
    let t = line.trim().trim_end_matches([':', '：']);
    t.len() > 4 && t.starts_with("**") && t.ends_with("**") && !t[2..t.len() - 2].contains("**")
}

/// The item and the verdict of a row of a table of verdicts, as
/// `sentences` writes it ("締切: 前日17:00"), or of a decision that holds
/// one: the one place that reads that shape back.
pub fn item_and_verdict(row: &str) -> Option<(&str, &str)> {
    row.split_once(": ")
}

/// The column of a table header that holds verdicts on the items of the
/// column before it ("| 項目 | 決定内容 |", "| 序号 | 事项 | 决定 | 负责部门 |"):
/// the second after any numbering column. A verdict further right
/// ("| 项目 | 现状 | 法定标准 | 结论 |") judges measurements, not choices.
fn verdict_column(header: &[String]) -> Option<usize> {
    value_column(header)
        .filter(|&v| words("decision_columns").contains(&header[v].trim().to_lowercase().as_str()))
}

/// The column after a table's item column (after any numbering column).
fn value_column(header: &[String]) -> Option<usize> {
    let numbering = |c: &str| {
        let c = c.trim().to_lowercase();
        c.is_empty() || words("numbering_columns").contains(&c.as_str())
    };
    let item = usize::from(header.first().is_some_and(|c| numbering(c)));
    (header.len() > item + 1 && !numbering(&header[item])).then_some(item + 1)
}

/// A table's item that is the sum of the rows above it ("Total", "合計",
/// "1人あたり合計", "Subtotal").
fn names_a_total(item: &str) -> bool {
    let l = item.to_lowercase();
    ["total", "合計", "合计", "总计", "小計", "小计", "総額"]
        .iter()
        .any(|w| l.contains(w))
}

/// A line that says it states what was decided ("Recap:", "目前定下来的",
/// "今日決まったことのまとめ"): the table under it is a recap row by row.
pub fn says_it_recaps(line: &str) -> bool {
    has_any(&line.to_lowercase(), words("recap_headings"))
}

/// A line that says it sums up: it states what was decided, or only sums
/// up ("ここまでの設定まとめ：", "会议纪要："), which a list of settings
/// under it makes a recap. (Not a table: "まとめると：" heads budgets
/// and comparisons as often; on the held-out set such tables cost three
/// decisions and five facts to the size budget.)
pub fn names_a_recap(line: &str) -> bool {
    const SUMS_UP: [&str; 8] = [
        "まとめ",
        "汇总",
        "总结",
        "纪要",
        "議事録",
        "确定",
        "確定",
        "決定",
    ];
    says_it_recaps(line) || has_any(&line.to_lowercase(), &SUMS_UP)
}

/// Remove a list marker (`- `, `* `, `1. `, `・`) or a tool tag at the start
/// of a line; say whether it was a tool call.
fn strip_line_marker(line: &str) -> (&str, bool) {
    for tag in ["[call]", "[result]", "[assistant]", "[context]"] {
        if let Some(rest) = line.strip_prefix(tag) {
            return (rest.trim_start(), tag == "[call]");
        }
    }
    for marker in ["- ", "* ", "• ", "・", "> "] {
        if let Some(rest) = line.strip_prefix(marker) {
            return (rest.trim_start(), false);
        }
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && digits <= 3 {
        let rest = &line[digits..];
        for sep in [". ", ") ", "、", "．"] {
            if let Some(r) = rest.strip_prefix(sep) {
                return (r.trim_start(), false);
            }
        }
    }
    (line, false)
}

/// Collapse whitespace runs into one space and trim.
fn clean(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Split one line (no newlines) into sentences.
fn split_line(line: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        let (pos, c) = chars[i];
        // Inline code: up to the closing backtick, if there is one.
        if c == '`' {
            if let Some(j) = (i + 1..chars.len()).find(|&j| chars[j].1 == '`') {
                i = j + 1;
                continue;
            }
        }
        // URLs run to the next whitespace.
        if (c == 'h' || c == 'f') && starts_url(&line[pos..]) {
            let url_start = i;
            while i < chars.len() && !chars[i].1.is_whitespace() {
                i += 1;
            }
            // Trailing punctuation belongs to the sentence, not the URL.
            while i > url_start + 1 && matches!(chars[i - 1].1, '.' | '!' | '?' | ',' | ';' | ')') {
                i -= 1;
            }
            while i < chars.len() && chars[i].1 == ')' {
                i += 1;
            }
            continue;
        }
        // two spaces between words are a full stop to someone who types
        // without punctuation ("single rerun still leaves main red  go 2
        // retries"); column output keeps capitals or symbols beside its gaps
        if c == ' ' && i > 0 && chars.get(i + 1).is_some_and(|n| n.1 == ' ') {
            let mut j = i;
            while j < chars.len() && chars[j].1 == ' ' {
                j += 1;
            }
            let left_word = line[start..pos].rsplit(' ').next().unwrap_or("");
            let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '%' | '\'' | '~');
            let words = left_word.ends_with(|c: char| c.is_ascii_lowercase() || c == '%')
                && left_word.chars().all(plain)
                && chars.get(j).is_some_and(|n| n.1.is_ascii_lowercase());
            if words && !line[start..pos].trim().is_empty() {
                out.push(&line[start..pos]);
                start = chars[j].0;
            }
            i = j;
            continue;
        }
        if is_cjk_terminal(c) {
            let mut j = i + 1;
            while j < chars.len() && (is_cjk_terminal(chars[j].1) || is_closer(chars[j].1)) {
                j += 1;
            }
            let end = chars.get(j).map_or(line.len(), |x| x.0);
            out.push(&line[start..end]);
            start = end;
            i = j;
            continue;
        }
        if matches!(c, '.' | '!' | '?') {
            let mut j = i + 1;
            while j < chars.len() && matches!(chars[j].1, '.' | '!' | '?') {
                j += 1;
            }
            while j < chars.len() && is_closer(chars[j].1) {
                j += 1;
            }
            let at_end = j == chars.len();
            let space_after = at_end || chars[j].1.is_whitespace();
            if space_after && !(c == '.' && keeps_going(line, &chars, start, i, j)) {
                let end = chars.get(j).map_or(line.len(), |x| x.0);
                out.push(&line[start..end]);
                start = end;
            }
            i = j;
            continue;
        }
        i += 1;
    }
    if start < line.len() {
        out.push(&line[start..]);
    }
    out
}

fn starts_url(s: &str) -> bool {
    ["https://", "http://", "ftp://", "file://"]
        .iter()
        .any(|p| s.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p)))
}

/// A `.` at `dot` (followed by whitespace) that does not end the sentence:
/// an abbreviation, an initial, or a list number at the start of the text.
fn keeps_going(line: &str, chars: &[(usize, char)], start: usize, dot: usize, next: usize) -> bool {
    let word_start = (0..dot)
        .rev()
        .find(|&k| chars[k].1.is_whitespace() || chars[k].1 == '(')
        .map_or(0, |k| k + 1);
    let word = &line[chars[word_start].0..chars[dot].0];
    let lower = word.to_lowercase();
    if lower.is_empty() {
        return false;
    }
    if chars[word_start].0 == start && word.chars().all(|c| c.is_ascii_digit()) {
        return true; // "1. " list number
    }
    let single_initial = word.chars().count() == 1 && word.chars().all(|c| c.is_ascii_uppercase());
    if single_initial {
        // ("B. olive branch reviews were mixed": a lone letter opening the
        // text, then a lower-case word, is an answer by label, not "J.
        // Smith")
        let following = chars[next..]
            .iter()
            .map(|x| x.1)
            .find(|c| !c.is_whitespace());
        return !(chars[word_start].0 == start && following.is_some_and(char::is_lowercase));
    }
    if words("abbreviations").contains(&lower.as_str()) {
        // "No. 5" numbers something; "the cpu is a no. forget it", "globals
        // - no. there's like 5" end a sentence before a lower-case word. (A
        // leading "no. raw stays 2y", "hmm no. losing …" stays whole for the
        // rules on an opening "no"; "No. Nothing is …" too.)
        if lower == "no" {
            let before = line
                .get(start..chars[word_start].0)
                .unwrap_or("")
                .to_lowercase();
            let opens = before
                .split(|c: char| c.is_whitespace() || c == ',')
                .all(|w| w.is_empty() || words("fillers").contains(&w));
            let lower_case_next = chars[next..]
                .iter()
                .map(|x| x.1)
                .find(|c| !c.is_whitespace())
                .is_some_and(char::is_lowercase);
            return opens || !lower_case_next;
        }
        // "950 ms." is a unit, not "Ms."; it and "etc.", "2 a.m." can end a
        // sentence: then the next word starts a new one.
        let after_number = line[..chars[word_start].0]
            .trim_end()
            .ends_with(|c: char| c.is_ascii_digit());
        if word == "ms" && after_number {
            return false;
        }
        if matches!(lower.as_str(), "etc" | "a.m" | "p.m") {
            let following = chars[next..]
                .iter()
                .map(|x| x.1)
                .find(|c| !c.is_whitespace());
            return !following.is_some_and(char::is_uppercase);
        }
        return true;
    }
    false
}

/// `text` with the few characters whose lower case takes another number
/// of bytes (the Kelvin sign "K", "İ", "ẞ") in lower case already. The
/// rules find words in the lower-cased text and cut the text itself at the
/// same byte offsets; with these characters the offsets would fall inside
/// a character. Case says nothing a summary needs.
pub fn case_stable(text: &str) -> std::borrow::Cow<'_, str> {
    let unstable = |c: char| {
        let mut lower = c.to_lowercase();
        !(lower.next().is_some_and(|l| l.len_utf8() == c.len_utf8()) && lower.next().is_none())
    };
    if !text.chars().any(unstable) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .flat_map(|c| {
            let keep = !unstable(c);
            let lower: Vec<char> = c.to_lowercase().collect();
            if keep {
                vec![c]
            } else {
                lower
            }
        })
        .collect::<String>()
        .into()
}

/// Cut `text` to at most `max` bytes of UTF-8 (a CJK character is three,
/// which is about what it carries next to a Latin letter) at a boundary
/// that is not inside a number, identifier, path or code span, marking the
/// cut with "…".
pub fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut ticks = 0;
    let mut best = None;
    for k in 1..chars.len() {
        if chars[k].0 > max {
            break;
        }
        if chars[k - 1].1 == '`' {
            ticks += 1;
        }
        let (prev, next) = (chars[k - 1].1, chars[k].1);
        let inside_token = is_token_char(prev) && is_token_char(next);
        if ticks % 2 == 0 && !inside_token {
            best = Some(chars[k].0);
        }
    }
    let cut = best.unwrap_or_else(|| {
        chars
            .iter()
            .map(|c| c.0)
            .take_while(|i| *i <= max)
            .last()
            .unwrap_or(0)
    });
    let head = text[..cut].trim_end_matches(|c: char| {
        c.is_whitespace() || matches!(c, ',' | '，' | '、' | ':' | '：' | ';' | '(' | '（')
    });
    format!("{head}…")
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, '.' | '_' | '-' | '/' | ':' | '%' | '#' | '~' | '@' | '+')
}

/// Chinese characters that are grammar, not subject: they break runs.
const ZH_FUNCTION_CHARS: &str = "的了在是我你他她它们要把从到和与及就吧呢吗也都还这那个一下上中里为对被让给很太再先又而或但如果么啊呀嘛着过得地用改成不没有请能会可以";

/// The terms a statement is about: lower-cased identifiers and words (not
/// bare numbers, not stop words), lightly stemmed; and for CJK, bigrams of
/// content characters (Kanji/Katakana runs in Japanese, Han runs broken at
/// function characters in Chinese).
/// CJK characters of a text that carry content: not kana particles and
/// endings (hiragana), not Chinese function characters.
pub fn cjk_content_chars(text: &str) -> usize {
    text.chars()
        .filter(|&c| is_cjk(c) && !is_hiragana(c) && !ZH_FUNCTION_CHARS.contains(c))
        .count()
}

pub fn terms(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |t: String| {
        if !out.contains(&t) {
            out.push(t);
        }
    };
    for raw in text.split(|c: char| !(is_token_char(c) || c.is_alphanumeric() && !is_cjk(c))) {
        let t = raw
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        if t.is_empty()
            || t.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | ':'))
        {
            continue;
        }
        if !t.is_ascii() {
            continue; // CJK handled below
        }
        if words("stopwords").contains(&t.as_str()) || t.len() < 2 {
            continue;
        }
        push(stem(&t));
    }
    let japanese = text.chars().any(is_kana);
    let mut run: Vec<char> = Vec::new();
    let flush = |run: &mut Vec<char>, push: &mut dyn FnMut(String)| {
        for w in run.windows(2) {
            push(w.iter().collect());
        }
        run.clear();
    };
    for c in text.chars() {
        let content = is_cjk(c)
            && if japanese {
                !is_hiragana(c)
            } else {
                !ZH_FUNCTION_CHARS.contains(c)
            };
        if content {
            run.push(c);
        } else {
            flush(&mut run, &mut push);
        }
    }
    flush(&mut run, &mut push);
    out
}

fn stem(w: &str) -> String {
    if w.len() > 4 && w.ends_with("ies") {
        return format!("{}y", &w[..w.len() - 3]);
    }
    if w.len() > 5 && w.ends_with("ing") {
        return w[..w.len() - 3].to_owned();
    }
    if w.len() > 4 && w.ends_with("ed") && !w.ends_with("eed") {
        return w[..w.len() - 2].to_owned();
    }
    if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") {
        return w[..w.len() - 1].to_owned();
    }
    w.to_owned()
}

/// How many terms two term lists share.
pub fn shared(a: &[String], b: &[String]) -> usize {
    a.iter().filter(|t| b.contains(t)).count()
}

/// Number-like tokens (`3`, `1.75`, `0.5`, `10,000`, `22.04`, `2026-01-01`)
/// with their byte ranges.
pub fn numbers(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let attached = |i: usize| {
        // part of an identifier ("fs4", "v2.0", "utf8mb4"), not a number
        i > 0
            && (b[i - 1].is_ascii_alphanumeric()
                || b[i - 1] == b'_'
                || b[i - 1] == b'.' && i > 1 && b[i - 2].is_ascii_alphanumeric())
    };
    while i < b.len() {
        if b[i].is_ascii_digit() && !attached(i) {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_digit()
                    || matches!(b[i], b'.' | b',' | b'-' | b':')
                        && i + 1 < b.len()
                        && b[i + 1].is_ascii_digit())
            {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_topic_named_last_is_put_first() {
        let text = |s: &str| sentences(s)[0].text.clone();
        assert_eq!(
            text("ごめんやっぱやめ、ステッカーは。"),
            "ステッカーはごめんやっぱやめ。"
        );
        assert_eq!(
            text("豆温度だけでいいかな、まずは"),
            "まずは豆温度だけでいいかな"
        );
        // not a question, a quote, or a topic after a Latin comma
        for s in [
            "Redisはやめて、Memcachedは。",
            "で、予算は？",
            "それはいいとして、「新しいルール」は",
            "then, the budget は",
        ] {
            assert_eq!(text(s), s);
        }
    }

    fn texts(s: &str) -> Vec<String> {
        sentences(s).into_iter().map(|s| s.text).collect()
    }

    #[test]
    fn a_table_of_verdicts_gives_item_and_verdict_and_a_heading_heads_its_list() {
        let s = sentences(
            "本日の決定事項を整理します。\n\n| # | 項目 | 決定内容 |\n|---|---|---|\n| 1 | 締切 | 前日17:00 |\n\n## 未決\n- プリンタの対応可否",
        );
        let row = s.iter().find(|s| s.verdict).expect("a verdict row");
        assert_eq!(row.text, "締切: 前日17:00");
        assert_eq!(row.heading.as_deref(), Some("決定内容"));
        let pending = s.last().unwrap();
        assert_eq!(pending.text, "プリンタの対応可否");
        assert_eq!(pending.heading.as_deref(), Some("未決"));
        // (a verdict further right judges: the row stays a plain one)
        let s = sentences("| 项目 | 现状 | 结论 |\n|---|---|---|\n| 周工时 | 56 小时 | 超标 |");
        assert!(!s[0].verdict);
        assert_eq!(s[0].text, "周工时: 现状 56 小时, 结论 超标");
    }

    #[test]
    fn decimals_versions_paths_and_abbreviations_stay_whole() {
        assert_eq!(
            texts("Switch to fs4 and bump MSRV to 1.75. Set the threshold to 0.5 s. Done."),
            [
                "Switch to fs4 and bump MSRV to 1.75.",
                "Set the threshold to 0.5 s.",
                "Done."
            ]
        );
        assert_eq!(
            texts("Use thiserror, i.e. return crate::Error from src/engine/export.rs. It took 41 ms vs. 12 ms, e.g. on 10,000 rows."),
            [
                "Use thiserror, i.e. return crate::Error from src/engine/export.rs.",
                "It took 41 ms vs. 12 ms, e.g. on 10,000 rows."
            ]
        );
        assert_eq!(
            texts("See https://docs.rs/serde_yaml/0.9.34/serde_yaml/. Then ask Mr. Smith etc. about it. Logs, traces etc. Next topic."),
            [
                "See https://docs.rs/serde_yaml/0.9.34/serde_yaml/.",
                "Then ask Mr. Smith etc. about it.",
                "Logs, traces etc.",
                "Next topic."
            ]
        );
        // "ms." after a figure is a unit, "a.m." before a capital ends too
        assert_eq!(
            texts("The p99 went from 180 ms to 950 ms. We run 12 pods. Ms. Ito reviews at 2 a.m. Tom deploys at 9 a.m. sharp."),
            [
                "The p99 went from 180 ms to 950 ms.",
                "We run 12 pods.",
                "Ms. Ito reviews at 2 a.m.",
                "Tom deploys at 9 a.m. sharp."
            ]
        );
        // a letter opening the text, then a lower-case word: an answer by
        // label, not an initial
        assert_eq!(
            texts("B. the other two ship too late. C. Ortega agrees."),
            ["B.", "the other two ship too late.", "C. Ortega agrees."]
        );
        // "no." numbers a thing before a figure, and ends a "that's a no"
        // before a lower-case word
        assert_eq!(
            texts("Use gate no. 4 today. 73% cpu is a no. forget the hedging."),
            [
                "Use gate no. 4 today.",
                "73% cpu is a no.",
                "forget the hedging."
            ]
        );
        assert_eq!(
            texts("Run `cargo test -- --test-threads 8. really` first. J. Smith agreed."),
            [
                "Run `cargo test -- --test-threads 8. really` first.",
                "J. Smith agreed."
            ]
        );
    }

    #[test]
    fn cjk_marks_and_japanese_ellipses() {
        assert_eq!(
            texts("就用 PostgreSQL 16 吧。迁移窗口定在周六凌晨 2 点！要不要通知？好；"),
            [
                "就用 PostgreSQL 16 吧。",
                "迁移窗口定在周六凌晨 2 点！",
                "要不要通知？",
                "好；"
            ]
        );
        assert_eq!(
            texts("非圧縮のまま残っていました…。ほかは 3 GB 程度です。下がりました！「了解」。"),
            [
                "非圧縮のまま残っていました…。",
                "ほかは 3 GB 程度です。",
                "下がりました！",
                "「了解」。"
            ]
        );
    }

    #[test]
    fn code_fences_lists_and_tool_lines() {
        let s = sentences(
            "Changes:\n- `Cargo.toml`: fs4 = \"0.8\".\n1. First step. Second.\n```rust\nlet x = 1.5; x.max(2.0);\n```\n[call] run {\"cmd\": \"ls\"}\n[result] 11 of 200 runs failed.",
        );
        let t: Vec<&str> = s.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            t,
            [
                "Changes: `Cargo.toml`: fs4 = \"0.8\".",
                "First step.",
                "Second.",
                "run {\"cmd\": \"ls\"}",
                "11 of 200 runs failed."
            ]
        );
        assert!(s[3].tool_call && !s[4].tool_call);
    }

    #[test]
    fn where_unicode_sentence_bounds_break() {
        // unicode-segmentation 1.13 (UAX #29) keeps "1.75" but splits each
        // of these in two: after "Mr. " and "vs. " before a capital, inside
        // a code span, and at the "?" of a URL's query.
        assert_eq!(
            texts("Ask Mr. Smith about Redis vs. Memcached. Run `cargo test. Really` now. See https://x.io/a.b?c=1. OK."),
            [
                "Ask Mr. Smith about Redis vs. Memcached.",
                "Run `cargo test. Really` now.",
                "See https://x.io/a.b?c=1.",
                "OK."
            ]
        );
    }

    #[test]
    fn two_spaces_end_an_unpunctuated_sentence() {
        assert_eq!(
            texts("asked the vendor  nightly sync still overruns by 40%  push it to 02:00"),
            [
                "asked the vendor",
                "nightly sync still overruns by 40%",
                "push it to 02:00"
            ]
        );
        // columns and aligned output keep their gaps: a name with a
        // separator, a capital or a figure beside them is not a word ending
        for line in [
            "billing/api-gateway  replicas 4",
            "WARN  retry budget spent",
            "eu-west  4.2T  96p",
            "cpu 93%  RAM 71%",
        ] {
            assert_eq!(texts(line).len(), 1, "{line}");
        }
    }

    #[test]
    fn clip_never_cuts_inside_a_number_or_identifier() {
        let s = "bump the MSRV to 1.75 and switch src/store/lock.rs to fs4 0.8.1 now";
        for max in 5..s.len() {
            let c = clip(s, max);
            let head = c.trim_end_matches('…');
            assert!(s.starts_with(head), "{c}");
            let rest = &s[head.len()..];
            assert!(
                rest.is_empty() || rest.starts_with(' ') || head.ends_with(' '),
                "cut inside a token at {max}: {c:?}"
            );
        }
        assert_eq!(clip("短い", 6), "短い");
        let cut = clip("迁移窗口定在周六凌晨两点并且通知所有下游团队", 24);
        assert_eq!(
            cut, "迁移窗口定在周六…",
            "eight CJK characters are 24 bytes"
        );
    }

    #[test]
    fn terms_and_numbers() {
        let t = terms("Switch to fs4 for the locking and bump MSRV to 1.75");
        assert!(t.contains(&"fs4".to_string()) && t.contains(&"lock".to_string()));
        assert!(!t.iter().any(|x| x == "1.75" || x == "switch"));
        let zh = terms("迁移窗口定在周六凌晨 2 点");
        assert!(zh.contains(&"窗口".to_string()) && zh.contains(&"凌晨".to_string()));
        let ja = terms("夜間の自動再起動はしないでください");
        assert!(ja.contains(&"再起".to_string()) && !ja.iter().any(|x| x.contains('の')));
        let n: Vec<&str> = numbers("MSRV 1.75, 3 of 50, 10,000 rows, v2.0 and fs4")
            .into_iter()
            .map(|(a, b)| &"MSRV 1.75, 3 of 50, 10,000 rows, v2.0 and fs4"[a..b])
            .collect();
        assert_eq!(n, ["1.75", "3", "50", "10,000"]);
    }
}
