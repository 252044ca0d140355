//! Exact BPE counts (o200k_base, cl100k_base), fast enough for listings.
//!
//! Counted with the `bpe-openai` crate: its counts equal tiktoken's
//! `encode_ordinary` (tests/it/tokens_bpe.rs checks random text against
//! tiktoken-rs, the unit tests the checked-in Python tiktoken vectors) at
//! ~5× tiktoken-rs's speed.
//!
//! A BPE spends most of its time in its pre-tokenizer regex, and a
//! chat history repeats the same words over and over. So the text is cut
//! into chunks at places that are always piece boundaries for both
//! encodings, and each short chunk's count is remembered per thread. The
//! sum is exactly `encode_ordinary(text).len()`: BPE never merges across a
//! piece boundary, and a chunk made of whole pieces is cut into the same
//! pieces on its own.
//!
//! Why the cuts are boundaries: in both patterns a piece holds whitespace
//! only as its first character (` word`, ` !=`), as a whole-whitespace
//! piece, or as line breaks closing a punctuation run (`;\n`). So a space
//! or tab right after a non-whitespace character always starts a piece.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use bpe_openai::Tokenizer;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    O200k,
    Cl100k,
}

/// Whether each encoding's tables were loaded (they cost ~200 ms and
/// ~100 MB; a listing of sessions that need no BPE must not load them).
static LOADED: [AtomicBool; 2] = [AtomicBool::new(false), AtomicBool::new(false)];

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::O200k => "o200k_base",
            Encoding::Cl100k => "cl100k_base",
        }
    }

    /// The encodings this process has loaded so far.
    pub fn loaded() -> Vec<Encoding> {
        [Encoding::O200k, Encoding::Cl100k]
            .into_iter()
            .filter(|e| LOADED[*e as usize].load(Ordering::Relaxed))
            .collect()
    }

    fn bpe(self) -> &'static Tokenizer {
        LOADED[self as usize].store(true, Ordering::Relaxed);
        match self {
            Encoding::O200k => bpe_openai::o200k_base(),
            Encoding::Cl100k => bpe_openai::cl100k_base(),
        }
    }
}

/// Chunks longer than this are counted, not remembered.
const MEMO_MAX_CHUNK: usize = 48;
/// A thread's memory is dropped when it holds this many chunks (a few MB).
const MEMO_MAX_ENTRIES: usize = 1 << 16;

/// FxHash: chunks are short and not adversarial.
type Memo = HashMap<Box<str>, u32, rustc_hash::FxBuildHasher>;

thread_local! {
    static MEMO: RefCell<[Memo; 2]> = RefCell::new(Default::default());
}

/// `encode_ordinary(text).len()`, computed chunk by chunk.
pub fn count(encoding: Encoding, text: &str) -> usize {
    let bpe = encoding.bpe();
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        let memo = &mut memo[encoding as usize];
        chunks(text)
            .map(|chunk| {
                if chunk.len() > MEMO_MAX_CHUNK {
                    return bpe.count(chunk);
                }
                if let Some(n) = memo.get(chunk) {
                    return *n as usize;
                }
                let n = bpe.count(chunk);
                if memo.len() >= MEMO_MAX_ENTRIES {
                    memo.clear();
                }
                memo.insert(chunk.into(), n as u32);
                n
            })
            .sum()
    })
}

/// `text` cut before every space or tab that follows a non-whitespace
/// character.
fn chunks(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut prev_solid = false;
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let b = bytes[i];
            let at = i;
            let solid = if b < 0x80 {
                i += 1;
                if (b == b' ' || b == b'\t') && prev_solid && at > start {
                    prev_solid = false;
                    let chunk = &text[start..at];
                    start = at;
                    return Some(chunk);
                }
                !b.is_ascii_whitespace()
            } else {
                let c = text[at..].chars().next().unwrap_or('\u{FFFD}');
                i += c.len_utf8();
                !c.is_whitespace()
            };
            prev_solid = solid;
        }
        (start < bytes.len()).then(|| {
            let chunk = &text[start..];
            start = bytes.len();
            chunk
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_text_and_cut_before_spaces() {
        let text = "fn main() {\n    let x = 1;\t// a  b\u{3000}c é d\n}";
        let parts: Vec<&str> = chunks(text).collect();
        assert_eq!(parts.concat(), text);
        assert_eq!(
            parts,
            [
                "fn",
                " main()",
                " {\n    let",
                " x",
                " =",
                " 1;",
                "\t//",
                " a",
                "  b\u{3000}c",
                " é",
                " d\n}"
            ]
        );
        assert_eq!(chunks("").count(), 0);
        assert_eq!(chunks("   ").collect::<Vec<_>>(), ["   "]);
    }

    proptest::proptest! {
        // BPE is slow in debug builds; the samples in tests/it/tokens.rs add real text
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn chunked_counts_equal_whole_counts(
            s in "([a-zA-Z]{1,6}|[0-9]{1,5}|[ \t]{1,3}|\r?\n|[.,;:!?'\"(){}<>/=_-]{1,3}|'s|\u{00a0}|\u{3000}|日本語|한국어|é|🎉){0,40}"
        ) {
            for enc in [Encoding::O200k, Encoding::Cl100k] {
                proptest::prop_assert_eq!(count(enc, &s), enc.bpe().count(s.as_str()), "{:?}", enc);
            }
        }
    }
}
