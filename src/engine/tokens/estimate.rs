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
//! - punctuation: one token per `PUNCT_BYTES` characters of a run, at least
//!   one; a single symbol right before a word rides with it (`.rs`, `(self`);
//! - whitespace: a run of spaces or tabs that is not a single separator
//!   space, and a run holding line breaks, one token each;
//! - CJK, Hangul and Kana: one token per character (o200k merges common
//!   pairs, so this over-counts Chinese by ~10 % and Japanese by ~20 %);
//! - other symbols (emoji, math, typographic quotes): one token each.
//!
//! Calibrated on `tests/data/token_samples/` (tests/it/tokens.rs holds every
//! kind to ≥ 0.90× and ≤ 1.6× of the exact count).

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
    let mut halves = 0;
    let mut prev = None;
    let mut i = 0;
    while i < text.len() {
        let (class, n) = class_at(text, i);
        let (end, cost) = match class {
            Class::Digit => digit_run(text, i, digits),
            Class::Lower | Class::Upper => word(text, i, class),
            Class::Space | Class::Break => whitespace_run(text, i, class, prev),
            Class::Punct => punct_run(text, i),
            Class::Cjk => (i + n, 2),
            // emoji and rare symbols are two tokens, common ones one
            Class::Symbol => (i + n, n.max(2)),
        };
        halves += cost;
        prev = Some(class);
        i = end;
    }
    halves.div_ceil(2)
}

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

/// `[Upper]*[Lower]*`: a lower→upper step starts a new word.
fn word(text: &str, start: usize, first: Class) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut seen_lower = first == Class::Lower;
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
        i += n;
    }
    (i, 2 * word_tokens(i - start))
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

/// One token per two characters of a run, at least one; a lone symbol
/// right before a word (not after a space, which it would carry) joins it.
fn punct_run(text: &str, start: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut i = start;
    while i < bytes.len() && bytes[i].is_ascii_punctuation() {
        i += 1;
    }
    let run = i - start;
    let after_space = start > 0 && bytes[start - 1] == b' ';
    let before_word = i < bytes.len() && is_word(class_at(text, i).0);
    let halves = if run == 1 && !after_space && before_word {
        1
    } else {
        run + 1
    };
    (i, halves)
}
