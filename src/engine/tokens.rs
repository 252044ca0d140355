//! Token estimation for what Agenvoy would send for a session.
//!
//! Heuristic used here (agenvoy-behaviour.md §14.1): CJK, Hangul and Kana
//! code points count one token each; all other text counts one token per
//! four bytes (rounded up); every message adds a fixed overhead for its role
//! and framing. Agenvoy itself counts runes, which overstates English about
//! four-fold; this estimate is closer while staying conservative for CJK.

use crate::store::history::Record;

/// Tokens a chat API spends per message on role and framing.
pub const MESSAGE_OVERHEAD: usize = 4;

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

/// Estimated tokens of a piece of text.
pub fn estimate_text(text: &str) -> usize {
    let mut cjk = 0usize;
    let mut other_bytes = 0usize;
    for c in text.chars() {
        if is_cjk(c) {
            cjk += 1;
        } else {
            other_bytes += c.len_utf8();
        }
    }
    cjk + other_bytes.div_ceil(4)
}

/// Length in bytes of the `sendAt: YYYY-MM-DD HH:MM:SS, sender: NAME` line
/// Agenvoy puts in front of each record's text when it sends it.
fn prefix_line_len(r: &Record) -> usize {
    let mut len = 0;
    if r.send_at != 0 {
        len += "sendAt: YYYY-MM-DD HH:MM:SS".len();
    }
    if !r.sender.is_empty() {
        len += if len > 0 { 2 } else { 0 } + "sender: ".len() + r.sender.len();
    }
    if len > 0 {
        len + 1
    } else {
        0
    }
}

/// One record as a message: its prefix line, text and framing.
pub fn estimate_record(r: &Record) -> usize {
    MESSAGE_OVERHEAD + prefix_line_len(r).div_ceil(4) + estimate_text(&r.text())
}

pub fn estimate_records(records: &[Record]) -> usize {
    records.iter().map(estimate_record).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_counts_per_char_and_latin_per_four_bytes() {
        assert_eq!(estimate_text(""), 0);
        assert_eq!(estimate_text("abcd"), 1);
        assert_eq!(estimate_text("abcde"), 2);
        assert_eq!(estimate_text("要：日本語"), 5);
        assert_eq!(estimate_text("한국어 ok"), 3 + 1);
    }

    #[test]
    fn records_include_prefix_and_overhead() {
        let r: Record =
            serde_json::from_str(r#"{"role":"user","content":"abcd","sendAt":1,"sender":"alice"}"#)
                .unwrap();
        // prefix "sendAt: …, sender: alice\n" = 27 + 2 + 8 + 5 + 1 = 43 bytes → 11
        assert_eq!(estimate_record(&r), MESSAGE_OVERHEAD + 11 + 1);
    }
}
