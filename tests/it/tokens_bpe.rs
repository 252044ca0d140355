//! The exact counters (`Counter::O200k`, `Counter::Cl100k`, which count with
//! the `bpe-openai` crate) against tiktoken-rs's `encode_ordinary` on random
//! text: ASCII, code-like punctuation, digits, CJK, emoji, combining marks,
//! whitespace runs of every kind and text decoded lossily from invalid UTF-8.
//! The checked-in vectors are covered by the unit test in
//! `src/engine/tokens/mod.rs` and the samples by `tests/it/tokens.rs`.

use proptest::prelude::*;
use sessionctl::engine::tokens::Counter;

fn tiktoken(counter: Counter, text: &str) -> usize {
    match counter {
        Counter::O200k => tiktoken_rs::o200k_base_singleton()
            .encode_ordinary(text)
            .len(),
        Counter::Cl100k => tiktoken_rs::cl100k_base_singleton()
            .encode_ordinary(text)
            .len(),
        _ => unreachable!(),
    }
}

fn assert_same(text: &str) -> Result<(), TestCaseError> {
    for c in [Counter::O200k, Counter::Cl100k] {
        prop_assert_eq!(c.count(text), tiktoken(c, text), "{:?} {:?}", c, text);
    }
    Ok(())
}

/// Pieces that sit on the pre-tokenizers' edges: contractions, letter-case
/// changes, digit runs, whitespace before and after line breaks.
const PIECE: &str = "([a-zA-Z]{1,8}|[A-Z][a-z]{1,4}|[0-9]{1,7}|'s|'T|'ll|'RE|[ \t]{1,4}|\u{a0}|\u{3000}|\u{2028}|\r|\n|\r\n|\n\n  |[.,;:!?'\"(){}<>/=_\\-*#@$%^&|~`+\\[\\]\\\\]{1,4}|日本語の|中文字|한국어|ひらがな|カタカナ|é|e\u{301}|ñ|ß|ΑΒγ|Привет|مرحبا|🎉|👍🏽|👨‍👩‍👧|\u{FFFD}|\u{200d}|\u{0}|\u{7f}){0,60}";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn exact_counts_equal_tiktoken_on_mixed_pieces(s in PIECE) {
        assert_same(&s)?;
    }

    #[test]
    fn exact_counts_equal_tiktoken_on_any_text(s in "\\PC{0,120}") {
        assert_same(&s)?;
    }

    #[test]
    fn exact_counts_equal_tiktoken_on_whitespace_runs(s in "[ \t\r\n\u{a0}\u{3000}\u{b}\u{c}a1.]{0,40}") {
        assert_same(&s)?;
    }

    #[test]
    fn exact_counts_equal_tiktoken_on_lossy_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        assert_same(&String::from_utf8_lossy(&bytes))?;
    }
}
