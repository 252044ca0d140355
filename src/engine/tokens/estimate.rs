//! The token estimate for models we cannot count exactly.
//!
//! It follows the pre-tokenizer that BPE tokenizers of the GPT-4 family
//! (o200k, cl100k, Llama 3, Qwen, DeepSeek V3) run before merging: text is
//! cut into pieces (a word with at most one leading space or symbol, a run
//! of digits, a run of punctuation, a run of whitespace), and a piece is
//! rarely merged with its neighbours. So the estimate counts pieces, and
//! charges long pieces by length:
//!
//! - a word: one token up to `WORD_BYTES` bytes, then one per
//!   `WORD_EXTRA_BYTES` more; a word ends where a lower-case letter is
//!   followed by an upper-case one (`camelCase` is two pieces) and at a
//!   digit (`c38bac` is three);
//! - digits: one token per digit, or per group of up to three
//!   (`Digits::Groups3`: o200k, cl100k, Llama 3, DeepSeek V3);
//! - punctuation: one token for a run of one symbol, 1.5 for two or three
//!   (the common ones, `":"`, `},{`, `->`, are one token, rarer ones two),
//!   then one per two more characters; a single symbol right before a word
//!   rides with it (`.rs`, `(self`);
//! - whitespace: a run of spaces or tabs that is not a single separator
//!   space, and a run holding line breaks, one token each;
//! - CJK, Hangul and Kana: one token per character (o200k merges common
//!   pairs, so this over-counts Chinese by ~10 % and Japanese by ~20 %);
//! - other symbols (emoji, math, typographic quotes): one token for two
//!   bytes of UTF-8, and a quarter more (an emoji is 2.5: o200k has most as
//!   one token, Llama 3 spends three on their four bytes);
//! - machine-made runs such as base64, whose letter pieces are random
//!   letters: about one token per two letters (see `opaque_extra`).
//!
//! Calibrated on `tests/data/token_samples/` and held there
//! (tests/it/tokens.rs) to at least 0.90× of every public tokenizer of the
//! families each counter stands for, and to 0.99–1.22× of o200k.

/// How a tokenizer cuts runs of digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Digits {
    /// Every digit is a token (Qwen 2/3, DeepSeek V1, Gemma/Gemini,
    /// Llama 2, Mistral; and the safe guess when the tokenizer is unknown).
    Each,
    /// Groups of up to three from the left (`\p{N}{1,3}`).
    Groups3,
}

const WORD_BYTES: usize = 8;
const WORD_EXTRA_BYTES: usize = 5;

pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF      // Hangul Jamo
        | 0x2E80..=0x2FDF    // CJK radicals
        | 0x3000..=0x303F    // CJK symbols and punctuation
        | 0x3040..=0x30FF    // Hiragana, Katakana
        | 0x3130..=0x318F    // Hangul compatibility Jamo
        | 0x31F0..=0x31FF    // Katakana extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF00..=0xFFEF    // half- and full-width forms
        | 0x20000..=0x3134F  // CJK extensions B–G
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Digit,
    Lower,
    Upper,
    Space,
    Break,
    Punct,
    Cjk,
    Symbol,
}

/// Classes of the ASCII bytes, so the common case is one table lookup.
const ASCII: [Class; 128] = {
    let mut t = [Class::Space; 128]; // control characters: like spaces
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = match c {
            b'0'..=b'9' => Class::Digit,
            b'a'..=b'z' => Class::Lower,
            b'A'..=b'Z' => Class::Upper,
            b'\n' | b'\r' => Class::Break,
            _ if c.is_ascii_punctuation() => Class::Punct,
            _ => Class::Space,
        };
        b += 1;
    }
    t
};

/// The class of the character at `i` and its length in bytes.
#[inline]
fn class_at(text: &str, i: usize) -> (Class, usize) {
    let b = text.as_bytes()[i];
    if b < 0x80 {
        return (ASCII[b as usize], 1);
    }
    let c = text[i..].chars().next().unwrap_or('\u{FFFD}');
    let class = if is_cjk(c) {
        Class::Cjk
    } else if c.is_lowercase() {
        Class::Lower
    } else if c.is_alphabetic() {
        Class::Upper
    } else if c.is_whitespace() {
        Class::Space
    } else {
        Class::Symbol
    };
    (class, c.len_utf8())
}

fn word_tokens(bytes: usize) -> usize {
    1 + bytes.saturating_sub(WORD_BYTES).div_ceil(WORD_EXTRA_BYTES)
}

fn is_word(c: Class) -> bool {
    matches!(c, Class::Lower | Class::Upper)
}

/// The estimated token count of `text`. Counted in half tokens: a single
/// symbol that joins the next word (`/session`, `.com`) costs half.
pub fn estimate(text: &str, digits: Digits) -> usize {
    let bytes = text.as_bytes();
    let mut halves = 0;
    let mut prev = None;
    // The run of base64 characters the piece is in (see `opaque_extra`):
    // where it started, and whether one of its letter pieces started with
    // a capital.
    let (mut run_start, mut capital) = (0, false);
    let mut i = 0;
    while i < text.len() {
        let (class, n) = class_at(text, i);
        // each arm says whether the piece continues a run of base64
        let (end, cost, base64) = match class {
            Class::Digit => {
                let (end, cost) = digit_run(text, i, digits);
                (end, cost, true)
            }
            Class::Lower => {
                let w = word(text, i, class);
                (w.end, w.halves, w.ascii)
            }
            Class::Upper => {
                let w = word(text, i, class);
                capital |= w.ascii;
                (w.end, w.halves, w.ascii)
            }
            Class::Punct => {
                let (end, cost) = punct_run(text, i);
                let base64 = bytes[i..end]
                    .iter()
                    .all(|b| matches!(b, b'+' | b'/' | b'=' | b'-' | b'_'));
                (end, cost, base64)
            }
            Class::Space | Class::Break => {
                let (end, cost) = whitespace_run(text, i, class, prev);
                (end, cost, false)
            }
            Class::Cjk => (i + n, 2, false),
            // emoji and rare symbols are two tokens, common ones one
            Class::Symbol => (i + n, n.max(2) + n / 4, false),
        };
        if !base64 {
            if capital && i - run_start >= OPAQUE_MIN_RUN {
                halves += opaque_extra(&bytes[run_start..i]);
            }
            capital = false;
            run_start = end;
        }
        halves += cost;
        prev = Some(class);
        i = end;
    }
    if capital && text.len() - run_start >= OPAQUE_MIN_RUN {
        halves += opaque_extra(&bytes[run_start..]);
    }
    halves.div_ceil(2)
}

/// What a run of base64 characters (letters, digits, `+/=-_`) adds to the
/// cost of its pieces as words, in halves: nothing unless it is opaque,
/// machine-made text such as base64, whose letter pieces are random letters
/// no vocabulary holds. BPE finds most pairs of letters in its vocabulary
/// but few longer strings, so such a piece of n letters costs about
/// (n + 1) / 2 tokens, where a word of the same length is one (o200k and
/// cl100k on random base64: 1.0, 1.2, 2.0, 2.4 and 3.0 tokens for pieces
/// of 1 to 5 letters; every tokenizer we measured spends a token per 1.4
/// characters of base64).
///
/// Opaque: at least `OPAQUE_MIN_RUN` characters whose letters are of both
/// cases (each at least a quarter of them), changing case at least every
/// third letter, and which either have few vowels (at most 30 % of the
/// letters; random letters have 19 %, English words 35–45 %) or many digits
/// (8 % of the characters; base64 has 16 %). Prose, paths, `SCREAMING_CASE`
/// and lower-case hex fail the case tests; `camelCase` names fail the vowel
/// and digit tests (on identifiers made of random English words and
/// acronyms, 1 in 20 passes; random base64 fails 1 time in 10 at 24
/// characters, 1 in 300 at 76). Lower-case hex needs no such help: its
/// short letter pieces already cost what a tokenizer charges.
///
/// The estimate reads a run once as words; only a long run with a capital
/// in it is read a second time, here.
fn opaque_extra(run: &[u8]) -> usize {
    let (mut upper, mut lower, mut digits, mut vowels, mut changes) = (0, 0, 0, 0, 0);
    let mut last_upper = None;
    // the letter piece (`[Upper]*[Lower]*`, as `word` cuts it) being read,
    // and what the finished ones cost as opaque beyond their cost as words
    let (mut piece, mut extra) = (0, 0);
    let mut close = |piece: &mut usize| {
        if *piece > 0 {
            extra += (*piece + 1).saturating_sub(2 * word_tokens(*piece));
            *piece = 0;
        }
    };
    for &b in run {
        if !b.is_ascii_alphabetic() {
            digits += usize::from(b.is_ascii_digit());
            close(&mut piece);
            continue;
        }
        let is_upper = b.is_ascii_uppercase();
        if is_upper {
            upper += 1;
        } else {
            lower += 1;
        }
        if matches!(b.to_ascii_lowercase(), b'a' | b'e' | b'i' | b'o' | b'u') {
            vowels += 1;
        }
        if last_upper == Some(false) && is_upper {
            close(&mut piece);
        }
        if last_upper.is_some_and(|u| u != is_upper) {
            changes += 1;
        }
        // digits and symbols between letters do not count as a change
        last_upper = Some(is_upper);
        piece += 1;
    }
    close(&mut piece);
    let letters = upper + lower;
    let opaque = upper * 4 >= letters
        && lower * 4 >= letters
        && changes * 3 >= letters
        && (vowels * 10 <= letters * 3 || digits * 100 >= run.len() * 8);
    if opaque {
        extra
    } else {
        0
    }
}

/// Runs shorter than this are never opaque: a short mixed-case name
/// (`iPhone`, `McDonald`, `XMLHttp`) is a word or two.
const OPAQUE_MIN_RUN: usize = 16;

/// Each piece below returns where it ends and what it costs in halves.
fn digit_run(text: &str, start: usize, digits: Digits) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut i = start;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let run = i - start;
    let tokens = match digits {
        Digits::Each => run,
        Digits::Groups3 => run.div_ceil(3),
    };
    (i, 2 * tokens)
}

/// A word piece: where it ends, its cost in halves, and whether it is all
/// ASCII.
struct Word {
    end: usize,
    halves: usize,
    ascii: bool,
}

/// `[Upper]*[Lower]*`: a lower→upper step starts a new word.
fn word(text: &str, start: usize, first: Class) -> Word {
    let bytes = text.as_bytes();
    let mut seen_lower = first == Class::Lower;
    let mut ascii = true;
    let mut i = start;
    while i < bytes.len() {
        if bytes[i].is_ascii_lowercase() {
            seen_lower = true;
            i += 1;
            continue;
        }
        let (c, n) = class_at(text, i);
        match c {
            _ if i == start => {}
            Class::Lower => seen_lower = true,
            Class::Upper if !seen_lower => {}
            _ => break,
        }
        ascii &= n == 1;
        i += n;
    }
    Word {
        end: i,
        halves: 2 * word_tokens(i - start),
        ascii,
    }
}

/// Line breaks right after punctuation belong to its piece; other breaks
/// are a piece; the spaces after the last break are one more, except a
/// single space that joins the next word or symbol (not digits).
fn whitespace_run(text: &str, start: usize, first: Class, prev: Option<Class>) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut last_break = (first == Class::Break).then_some(start);
    let mut i = start;
    while i < bytes.len() {
        let (c, n) = class_at(text, i);
        match c {
            Class::Space => {}
            Class::Break => last_break = Some(i),
            _ => break,
        }
        i += n;
    }
    let mut halves = 0;
    if let Some(b) = last_break {
        let only_breaks = bytes[start..=b].iter().all(|c| matches!(c, b'\n' | b'\r'));
        if !(prev == Some(Class::Punct) && only_breaks) {
            halves += 2;
        }
    }
    let tail = i - last_break.map_or(start, |b| b + 1);
    let joins_next = i < bytes.len() && class_at(text, i).0 != Class::Digit;
    if tail > 1 || (tail == 1 && !joins_next) {
        halves += 2;
    }
    (i, halves)
}

/// One token for one symbol, 1.5 for two or three, then one per two more
/// characters; a lone symbol right before a word (not after a space, which
/// it would carry) joins it.
fn punct_run(text: &str, start: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut i = start;
    while i < bytes.len() && bytes[i].is_ascii_punctuation() {
        i += 1;
    }
    let run = i - start;
    let after_space = start > 0 && bytes[start - 1] == b' ';
    let before_word = i < bytes.len() && is_word(class_at(text, i).0);
    let halves = match run {
        1 if !after_space && before_word => 1,
        3 => 3,
        _ => run + 1,
    };
    (i, halves)
}
