//! The two places where Go's decoders accept what Rust's reject, so that
//! we read a ToriiDB log to exactly the state ToriiDB reads it to:
//!
//! - `encoding/json` strings: an invalid UTF-8 byte becomes one U+FFFD
//!   each (Go's `utf8.DecodeRune` reports width 1), and a `\u` escape of a
//!   surrogate that is not the high half of a valid pair becomes U+FFFD.
//!   serde_json rejects both.
//! - `base64.StdEncoding`: non-zero padding bits are allowed, and '\r' and
//!   '\n' anywhere in the input are skipped.

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::Engine as _;

/// `line` with every JSON string rewritten to what Go decodes it to, in
/// JSON syntax serde_json accepts, or `None` when there is nothing to
/// rewrite. Bytes outside strings are left alone: invalid UTF-8 there is
/// a syntax error for Go as for serde_json.
pub fn go_strings(line: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(line.len() + 16);
    let mut changed = false;
    let mut in_string = false;
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        if !in_string {
            in_string = b == b'"';
            out.push(b);
            i += 1;
            continue;
        }
        match b {
            b'"' => {
                in_string = false;
                out.push(b);
                i += 1;
            }
            b'\\' if line.get(i + 1) == Some(&b'u') => {
                let (bytes, used) = unicode_escape(&line[i..]);
                changed |= bytes != &line[i..i + used];
                out.extend_from_slice(bytes);
                i += used;
            }
            b'\\' => {
                let end = (i + 2).min(line.len());
                out.extend_from_slice(&line[i..end]);
                i = end;
            }
            0x80.. => {
                let end = line[i..]
                    .iter()
                    .position(|b| b.is_ascii())
                    .map_or(line.len(), |n| i + n);
                changed |= push_go_utf8(&line[i..end], &mut out);
                i = end;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    changed.then_some(out)
}

const REPLACEMENT_ESCAPE: &[u8] = b"\\uFFFD";

/// One `\uXXXX` escape at the start of `s` (which begins with `\u`), as Go's
/// `unquote` reads it: a high surrogate followed by an escaped low one is a
/// pair and kept; any other surrogate becomes U+FFFD. Returns the bytes to
/// write and how many input bytes they stand for. A malformed escape is
/// kept as it is, for serde_json to reject as Go does.
fn unicode_escape(s: &[u8]) -> (&[u8], usize) {
    let Some(first) = hex4(s) else {
        return (&s[..2], 2);
    };
    if !(0xD800..0xE000).contains(&first) {
        return (&s[..6], 6);
    }
    let pair = (0xD800..0xDC00).contains(&first)
        && hex4(&s[6..]).is_some_and(|second| (0xDC00..0xE000).contains(&second));
    if pair {
        (&s[..12], 12)
    } else {
        (REPLACEMENT_ESCAPE, 6)
    }
}

/// The code unit of a `\uXXXX` escape at the start of `s`.
fn hex4(s: &[u8]) -> Option<u32> {
    let digits = s.strip_prefix(b"\\u")?.get(..4)?;
    let text = std::str::from_utf8(digits).ok()?;
    if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(text, 16).ok()
}

/// Copy non-ASCII bytes, each invalid byte as one U+FFFD. Rust splits
/// invalid input into maximal subparts (`E2 82` is one error) where Go
/// sees one error per byte (a truncated lead byte, then a stray
/// continuation byte): so each invalid *byte* is replaced. Returns whether
/// anything was replaced.
fn push_go_utf8(bytes: &[u8], out: &mut Vec<u8>) -> bool {
    let mut replaced = false;
    for chunk in bytes.utf8_chunks() {
        out.extend_from_slice(chunk.valid().as_bytes());
        for _ in chunk.invalid() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
            replaced = true;
        }
    }
    replaced
}

/// Go's `base64.StdEncoding`: padded standard alphabet, non-zero bits in
/// the last symbol accepted.
const GO_STD: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_allow_trailing_bits(true),
);

/// Decode a vector as ToriiDB's `decodeVector` does (`StdEncoding`, which
/// skips '\r' and '\n'), or `None` where it fails.
pub fn go_base64(s: &str) -> Option<Vec<u8>> {
    if s.contains(['\r', '\n']) {
        let kept: String = s.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
        GO_STD.decode(kept).ok()
    } else {
        GO_STD.decode(s).ok()
    }
}

/// Whether a SET has a vector ToriiDB keeps (`Ok(true)`), none
/// (`Ok(false)`), or one it rejects with the record (`Err`): what
/// `stored_vector` decides, without keeping the text.
pub fn vector_present(b64: &str) -> Result<bool, ()> {
    if b64.is_empty() {
        return Ok(false);
    }
    // decoded into a reused buffer: replay checks one vector per line
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let standard = BUF.with(|buf| {
        let mut buf = buf.borrow_mut();
        buf.resize(b64.len() / 4 * 3 + 3, 0);
        base64::engine::general_purpose::STANDARD
            .decode_slice(b64, &mut buf[..])
            .ok()
    });
    let len = match standard {
        Some(n) => n,
        None => go_base64(b64).ok_or(())?.len(),
    };
    if len % 4 != 0 {
        return Err(());
    }
    Ok(len > 0)
}

/// The vector of a SET as ToriiDB holds it after `decodeVector`: `None`
/// for none (absent, empty, or decoding to no bytes), `Err` where ToriiDB
/// rejects the record. Stored in canonical base64 (what ToriiDB's
/// compaction re-encodes it to), so a vector Go accepts with non-zero
/// padding bits or line breaks is written back the way ToriiDB would.
pub fn stored_vector(b64: &str) -> Result<Option<String>, ()> {
    if b64.is_empty() {
        return Ok(None);
    }
    let standard = base64::engine::general_purpose::STANDARD;
    let (bytes, canonical) = match standard.decode(b64) {
        Ok(b) => (b, true),
        Err(_) => (go_base64(b64).ok_or(())?, false),
    };
    if bytes.len() % 4 != 0 {
        return Err(());
    }
    Ok(match (bytes.is_empty(), canonical) {
        (true, _) => None,
        (false, true) => Some(b64.to_owned()),
        (false, false) => Some(standard.encode(&bytes)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &[u8]) -> Vec<u8> {
        go_strings(line).unwrap_or_else(|| line.to_vec())
    }

    #[test]
    fn each_invalid_byte_is_one_replacement_as_in_go() {
        // Go: DecodeRune(E2 82 'a') = (RuneError, 1), then (RuneError, 1)
        // for the lone continuation byte 82: two U+FFFD. Rust's lossy
        // conversion would give one.
        assert_eq!(go(b"\"a\xe2\x82b\""), "\"a\u{FFFD}\u{FFFD}b\"".as_bytes());
        // FF is never valid: one each
        assert_eq!(go(b"\"\xff\xff\""), "\"\u{FFFD}\u{FFFD}\"".as_bytes());
        // an encoded surrogate (ED A0 80) is three invalid bytes to Go
        assert_eq!(
            go(b"\"\xed\xa0\x80\""),
            "\"\u{FFFD}\u{FFFD}\u{FFFD}\"".as_bytes()
        );
        // an overlong '/' (C0 AF): two
        assert_eq!(go(b"\"\xc0\xaf\""), "\"\u{FFFD}\u{FFFD}\"".as_bytes());
        // valid multi-byte text and a real U+FFFD stay as they are
        assert_eq!(go_strings("\"é\u{FFFD}中😀\"".as_bytes()), None);
        // outside strings nothing is touched (a syntax error for both)
        assert_eq!(go_strings(b"{\xff:1}"), None);
        // an escaped quote does not end the string
        assert_eq!(go(b"\"\\\"\xff\""), "\"\\\"\u{FFFD}\"".as_bytes().to_vec());
    }

    #[test]
    fn lone_surrogate_escapes_become_replacements_as_in_go() {
        let r = REPLACEMENT_ESCAPE;
        let cat = |parts: &[&[u8]]| parts.concat();
        assert_eq!(go(br#""\ud800""#), cat(&[b"\"", r, b"\""]));
        assert_eq!(go(br#""\udc00""#), cat(&[b"\"", r, b"\""]));
        // a high surrogate before a non-surrogate: U+FFFD, then the letter
        assert_eq!(go(br#""\ud800\u0041""#), cat(&[b"\"", r, br#"\u0041""#]));
        // high, high, low: the first is lone, the second pairs
        assert_eq!(
            go(br#""\uD800\uD83D\uDE00""#),
            cat(&[b"\"", r, br#"\uD83D\uDE00""#])
        );
        // a valid pair is kept
        assert_eq!(go_strings(br#""\ud83d\ude00""#), None);
        // a malformed escape is left for the parser to reject
        assert_eq!(go_strings(br#""\uZZ""#), None);
    }

    #[test]
    fn base64_as_go_std_encoding() {
        // "AB==" has non-zero padding bits: Go decodes it to [0x00]
        assert_eq!(go_base64("AB=="), Some(vec![0x00]));
        // Go skips '\r' and '\n' anywhere
        assert_eq!(go_base64("AA\r\nAA\nAA=="), go_base64("AAAAAA=="));
        assert_eq!(go_base64("\n"), Some(vec![]));
        // padding is still required, and nothing may follow it
        assert_eq!(go_base64("AAA"), None);
        assert_eq!(go_base64("AA==AA=="), None);
        assert_eq!(go_base64("!!!!"), None);
    }
}
