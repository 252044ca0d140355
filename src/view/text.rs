//! Text measured as a terminal shows it: CJK and other wide characters take
//! two columns, combining marks none. Free text is cut with `…` to fit;
//! identifiers are never cut (the list wraps them instead).

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Columns `text` takes on a terminal.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// `text` on one line, at most `max` columns: whitespace runs (newlines
/// included) become one space, and what does not fit is cut with `…`.
pub fn fit(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    cut(&one_line, max)
}

/// `text` cut to at most `max` columns, ending in `…` when anything was
/// cut. A wide character that would straddle the edge is left out whole.
pub fn cut(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_owned();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// An identifier broken into pieces of at most `max` columns each (never
/// cut: every character is kept, on as many lines as it takes).
pub fn wrap_id(id: &str, max: usize) -> Vec<String> {
    let max = max.max(2);
    let mut lines = vec![String::new()];
    let mut used = 0;
    for c in id.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > max {
            lines.push(String::new());
            used = 0;
        }
        lines.last_mut().expect("one line at least").push(c);
        used += w;
    }
    lines
}

/// `text` on lines of at most `max` columns, broken at spaces; a word wider
/// than a line (an identifier, a run of CJK text, which has no spaces) is
/// broken between characters, never cut. Leading spaces are kept (they
/// indent); a wide character never straddles the edge.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let max = max.max(2);
    let indent = text.len() - text.trim_start_matches(' ').len();
    let body = &text[indent..];
    // continuation lines line up under the text of an indented bullet
    let bullet = ["- ", "• ", "* "].iter().any(|b| body.starts_with(b));
    let hang = indent + if bullet { 2 } else { 0 };
    let hang = if hang * 2 <= max { hang } else { 0 };
    let new_line = |lines: &mut Vec<String>| {
        lines.push(" ".repeat(hang));
        hang
    };
    let mut lines = vec![" ".repeat(indent.min(max - 1))];
    let mut used = indent.min(max - 1);
    let mut words = body.split(' ').peekable();
    while let Some(word) = words.next() {
        let w = width(word);
        if used > hang && w > max - used && w <= max - hang {
            used = new_line(&mut lines);
        }
        for c in word.chars() {
            let cw = c.width().unwrap_or(0);
            if used + cw > max {
                used = new_line(&mut lines);
            }
            lines.last_mut().expect("one line at least").push(c);
            used += cw;
        }
        if words.peek().is_some() {
            if used < max {
                lines.last_mut().expect("one line at least").push(' ');
                used += 1;
            } else {
                used = new_line(&mut lines);
            }
        }
    }
    for l in &mut lines {
        let kept = l.trim_end().len();
        l.truncate(kept);
    }
    lines
}

/// `text` padded with spaces to `cols` columns (left-aligned).
pub fn pad(text: &str, cols: usize) -> String {
    let w = width(text);
    let mut s = text.to_owned();
    s.extend(std::iter::repeat_n(' ', cols.saturating_sub(w)));
    s
}

/// `text` padded on the left to `cols` columns (right-aligned numbers).
pub fn pad_left(text: &str, cols: usize) -> String {
    let w = width(text);
    let mut s: String = std::iter::repeat_n(' ', cols.saturating_sub(w)).collect();
    s.push_str(text);
    s
}

/// Whether `id` is kept by the filter the user typed: a glob when it has
/// `*`, `?` or `[`, else a case-insensitive substring.
pub fn matches_filter(filter: &str, id: &str) -> bool {
    let filter = filter.trim();
    if filter.is_empty() {
        return true;
    }
    if filter.contains(['*', '?', '[']) {
        return crate::store::torii::glob::path_match(filter, id) == Ok(true);
    }
    id.to_lowercase().contains(&filter.to_lowercase())
}

/// `1.2 KiB → 800 B`, or one size when nothing changes.
pub fn size_change(before: u64, after: u64) -> String {
    use crate::output::bytes;
    if before == after {
        bytes(before)
    } else {
        format!("{} → {}", bytes(before), bytes(after))
    }
}

/// `1,234,567`
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Each session once, in the order first named (an operation notes a
/// session once per thing it kept).
pub fn distinct<'a>(ids: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = Vec::new();
    for id in ids {
        if !seen.contains(&id) {
            seen.push(id);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_count_twice_and_are_never_split() {
        assert_eq!(width("會話"), 4);
        assert_eq!(cut("會話摘要", 5), "會話…");
        assert_eq!(width(&cut("會話摘要", 5)), 5);
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("abcd", 3), "ab…");
        assert_eq!(fit("a\n  b", 10), "a b");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn identifiers_wrap_whole() {
        let lines = wrap_id("tui-會話-0123456789", 8);
        assert_eq!(lines.concat(), "tui-會話-0123456789");
        assert!(lines.iter().all(|l| width(l) <= 8), "{lines:?}");
    }

    #[test]
    fn wrapping_breaks_at_spaces_and_never_loses_a_character() {
        let text = "reset tui-a-very-long-session-identifier-0123456789 會話摘要會話摘要會話 now";
        for max in [2, 5, 10, 17, 40] {
            let lines = wrap(text, max);
            assert!(lines.iter().all(|l| width(l) <= max), "{max}: {lines:?}");
            assert_eq!(
                lines.concat().replace(' ', ""),
                text.replace(' ', ""),
                "{max}: {lines:?}"
            );
        }
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
        assert_eq!(wrap("  - item one", 8), ["  - item", "    one"]);
        assert_eq!(wrap("", 8), [""]);
    }

    #[test]
    fn filters_are_globs_or_substrings() {
        assert!(matches_filter("ALI", "tui-alice"));
        assert!(matches_filter("tui-*", "tui-alice"));
        assert!(!matches_filter("tui-?", "tui-alice"));
        assert!(!matches_filter("bob", "tui-alice"));
        assert!(matches_filter("", "x"));
    }
}
