//! Exporting entries as the SET lines ToriiDB's compaction writes
//! (`Entry::compacted_line`), for pre-images and the Trash.
//!
//! Nearly every log line already has the shape ToriiDB writes (see
//! `fastline`), and its value and vector texts are then the compacted
//! line's texts too, up to how the value's escapes are spelled. So a
//! line of that shape is turned into its compacted line by copying those
//! texts (re-spelling the few escapes serde_json writes differently),
//! without decoding the value into a string, the vector into bytes, and
//! serialising both again. Anything else — another shape, invalid UTF-8,
//! surrogate escapes, a vector in a form only Go's decoder takes — is
//! decoded and serialised as before. Both paths give the same bytes
//! (tested against each other).

use std::io::Write as _;
use std::ops::Range;

use super::{Db, Slot, ENTRY_BATCH};
use crate::error::Result;

impl Db {
    /// The compacted line of each of `keys` that exists, in the order
    /// given, handed to `f` one line ('\n' included) at a time.
    pub fn for_each_compacted_line<K: AsRef<str>>(
        &self,
        keys: &[K],
        mut f: impl FnMut(&[u8]) -> Result<()>,
    ) -> Result<()> {
        let mut buf = Vec::new();
        for batch in keys.chunks(ENTRY_BATCH) {
            buf.clear();
            let slots = self.present(batch);
            let mut lines: Vec<Range<usize>> = vec![0..0; slots.len()];
            self.each_line(&slots, |i, key, s, line| {
                let start = buf.len();
                push_compacted(s, key, line, &mut buf);
                lines[i] = start..buf.len();
                Ok(())
            })?;
            for r in lines {
                f(&buf[r])?;
            }
        }
        Ok(())
    }
}

/// Append the compacted line of `slot` (stored under `key`, read from
/// `line`) to `out`: copied from the line when it has the written shape,
/// decoded and serialised otherwise.
fn push_compacted(slot: &Slot, key: &str, line: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    if push_copied(slot, key, line, out).is_none() {
        out.truncate(start);
        out.extend_from_slice(&slot.decode(line).compacted_line(key));
    }
}

/// The copying path; `None` (with `out` partly written) where it does not
/// apply.
fn push_copied(slot: &Slot, key: &str, line: &[u8], out: &mut Vec<u8>) -> Option<()> {
    let (value, vector) = written_shape(line)?;
    // ts, key and expiry are the slot's (what `Slot::decode` gives the
    // entry); `compacted_line` writes them the way serde_json does.
    write!(
        out,
        "{{\"ts\":{},\"cmd\":\"SET\",\"key\":",
        slot.created_at()
    )
    .ok()?;
    serde_json::to_writer(&mut *out, key).ok()?;
    if !value.is_empty() {
        out.extend_from_slice(b",\"value\":\"");
        push_respelled(value, out)?;
        out.push(b'"');
    }
    if let Some(t) = slot.expire_at() {
        write!(out, ",\"expire_at\":{t}").ok()?;
    }
    if slot.has_vector() {
        // kept as written only when it is canonical base64 (what
        // `godecode::stored_vector` keeps as is)
        if vector.is_empty() || !is_standard_base64(vector) {
            return None;
        }
        out.extend_from_slice(b",\"vector\":\"");
        out.extend_from_slice(vector);
        out.push(b'"');
    }
    out.extend_from_slice(b"}\n");
    Some(())
}

/// The raw value and vector texts (between their quotes; empty when
/// absent) of a SET line in exactly the shape ToriiDB writes:
/// `{"ts":N,"cmd":"SET","key":"K"[,"value":"V"][,"expire_at":N][,"vector":"B"]}`.
/// The line was accepted by replay, so only the shape is checked here:
/// with each field once, in this order, its texts are the ones Go reads.
fn written_shape(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let rest = line.strip_prefix(b"{\"ts\":")?;
    let rest = skip_int(rest)?.strip_prefix(b",\"cmd\":\"SET\",\"key\":\"")?;
    let mut rest = &rest[string_end(rest)? + 1..];
    let mut value: &[u8] = b"";
    if let Some(r) = rest.strip_prefix(b",\"value\":\"") {
        let end = string_end(r)?;
        (value, rest) = (&r[..end], &r[end + 1..]);
    }
    if let Some(r) = rest.strip_prefix(b",\"expire_at\":") {
        rest = skip_int(r)?;
    }
    let mut vector: &[u8] = b"";
    if let Some(r) = rest.strip_prefix(b",\"vector\":\"") {
        let end = string_end(r)?;
        (vector, rest) = (&r[..end], &r[end + 1..]);
    }
    (rest == b"}").then_some((value, vector))
}

fn skip_int(s: &[u8]) -> Option<&[u8]> {
    let digits = s.strip_prefix(b"-").unwrap_or(s);
    let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    (n > 0).then(|| &digits[n..])
}

/// Where the string whose text starts `s` ends (its closing quote).
fn string_end(s: &[u8]) -> Option<usize> {
    let mut i = 0;
    loop {
        i += memchr::memchr2(b'"', b'\\', &s[i..])?;
        if s[i] == b'"' {
            return Some(i);
        }
        i += 2;
    }
}

/// Append `raw` (a JSON string's text) spelled as serde_json writes the
/// string it decodes to: escapes serde_json also writes are copied, any
/// other escape (`\/`, `\u003c`, `\u0008`…) is replaced by what serde_json
/// writes for its character. `None` where decoding needs Go's own rules
/// (invalid UTF-8, surrogate escapes) or the text is not a JSON string's.
fn push_respelled(raw: &[u8], out: &mut Vec<u8>) -> Option<()> {
    std::str::from_utf8(raw).ok()?;
    let mut i = 0;
    loop {
        let run = memchr::memchr(b'\\', &raw[i..]).unwrap_or(raw.len() - i);
        let plain = &raw[i..i + run];
        // vectorised: a raw control character is not JSON
        if plain.iter().fold(false, |bad, &b| bad | (b < 0x20)) {
            return None;
        }
        out.extend_from_slice(plain);
        i += run;
        if i == raw.len() {
            return Some(());
        }
        match *raw.get(i + 1)? {
            b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => {
                out.extend_from_slice(&raw[i..i + 2]);
                i += 2;
            }
            b'/' => {
                out.push(b'/');
                i += 2;
            }
            b'u' => {
                let hex = raw.get(i + 2..i + 6)?;
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                let code = u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
                // a surrogate: Go pairs or replaces it; the decoder decides
                push_char(char::from_u32(code)?, out);
                i += 6;
            }
            _ => return None,
        }
    }
}

/// One character as serde_json writes it inside a string.
fn push_char(c: char, out: &mut Vec<u8>) {
    match c {
        '"' => out.extend_from_slice(b"\\\""),
        '\\' => out.extend_from_slice(b"\\\\"),
        '\u{8}' => out.extend_from_slice(b"\\b"),
        '\u{c}' => out.extend_from_slice(b"\\f"),
        '\n' => out.extend_from_slice(b"\\n"),
        '\r' => out.extend_from_slice(b"\\r"),
        '\t' => out.extend_from_slice(b"\\t"),
        c if (c as u32) < 0x20 => {
            let _ = write!(out, "\\u{:04x}", c as u32);
        }
        c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
    }
}

/// Whether `b64` decodes with the standard padded alphabet (into a reused
/// buffer: one check per exported line).
fn is_standard_base64(b64: &[u8]) -> bool {
    use base64::Engine as _;
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUF.with(|buf| {
        let mut buf = buf.borrow_mut();
        buf.resize(b64.len() / 4 * 3 + 3, 0);
        base64::engine::general_purpose::STANDARD
            .decode_slice(b64, &mut buf[..])
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::super::{aof, godecode};
    use super::*;
    use proptest::prelude::*;

    /// The slot replay makes of `line` (`None` where replay skips it).
    fn slot_of(line: &[u8], created_at: i64) -> Option<Slot> {
        let l = aof::parse(line).ok()?;
        let has_vector = godecode::vector_present(&l.vector).ok()?;
        Some(Slot::from_log(
            (0, line.len() as u32),
            created_at,
            l.expire_at,
            has_vector,
        ))
    }

    fn both(line: &[u8], key: &str) -> Option<(Vec<u8>, Vec<u8>)> {
        let slot = slot_of(line, 42)?;
        let mut copied = Vec::new();
        push_compacted(&slot, key, line, &mut copied);
        Some((copied, slot.decode(line).compacted_line(key)))
    }

    #[test]
    fn copies_the_written_shape_and_respells_other_escapes() {
        let line = br#"{"ts":7,"cmd":"SET","key":"s:1","value":"a\u003cb\/c\u0008\u001f\n\"","expire_at":9,"vector":"AAAAAA=="}"#;
        let mut out = Vec::new();
        let slot = slot_of(line, 5).unwrap();
        assert!(push_copied(&slot, "s:1", line, &mut out).is_some());
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"ts\":5,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"a<b/c\\b\\u001f\\n\\\"\",\"expire_at\":9,\"vector\":\"AAAAAA==\"}\n"
        );
        for (line, why) in [
            (
                &br#"{"ts":7,"cmd":"SET","key":"k","value":"\ud83d\ude00"}"#[..],
                "surrogates",
            ),
            (
                b"{\"ts\":7,\"cmd\":\"SET\",\"key\":\"k\",\"value\":\"a\xffb\"}",
                "invalid UTF-8",
            ),
            (
                br#"{"ts":7,"cmd":"SET","key":"k","vector":"AAAAAA==","value":"v"}"#,
                "order",
            ),
            (
                br#"{"ts":7,"cmd":"SET","key":"k","vector":"AAAAAB=="}"#,
                "Go-only base64",
            ),
        ] {
            let slot = slot_of(line, 5).unwrap();
            assert!(
                push_copied(&slot, "k", line, &mut Vec::new()).is_none(),
                "{why}"
            );
            let (copied, decoded) = both(line, "k").unwrap();
            assert_eq!(copied, decoded, "{why}");
        }
    }

    proptest! {
        /// Whatever the line, both paths write the same bytes.
        #[test]
        fn copying_agrees_with_decoding(
            ts in prop_oneof![Just("5".to_owned()), Just("-3".to_owned()), "[0-9]{1,19}"],
            key in "[a-z:\u{e9}]{0,5}|[a-z]\\\\\"[a-z]|k\\\\u00e9",
            value in proptest::option::of(proptest::collection::vec(prop_oneof![
                8 => "[a-z <&\u{2028}\u{e9}\u{1F600}]",
                3 => "\\\\[\"\\\\/bfnrt]",
                2 => "\\\\u[0-9a-fA-F]{4}",
                2 => "\\\\u00[01][0-9a-f]",
                1 => Just("\\ud83d\\ude00".to_owned()),
                1 => "\\\\u[dD][89a-fA-F][0-9a-f]{2}",
                1 => "\\\\[xu]|\\\\u[0-9g]{2}|[\"\u{1}\u{1f}]",
            ], 0..12).prop_map(|parts| parts.concat())),
            expire in proptest::option::of("-?[0-9]{1,3}|0"),
            vector in proptest::option::of(prop_oneof![
                Just("AAAAAA==".to_owned()), Just("AAAAAB==".to_owned()), Just("AAAA\\nAAAA".to_owned()),
                Just(String::new()), "[A-Za-z0-9+/]{0,3}(AAAA|A===|AA==)?"]),
            invalid in proptest::bool::weighted(0.1),
            tail in prop_oneof![Just(""), Just(""), Just(" "), Just(",\"x\":1")],
        ) {
            let mut line = format!(r#"{{"ts":{ts},"cmd":"SET","key":"{key}""#).into_bytes();
            if let Some(v) = value {
                line.extend_from_slice(br#","value":""#);
                line.extend_from_slice(v.as_bytes());
                if invalid {
                    line.push(0xff);
                }
                line.push(b'"');
            }
            if let Some(x) = expire { line.extend_from_slice(format!(r#","expire_at":{x}"#).as_bytes()); }
            if let Some(v) = vector { line.extend_from_slice(format!(r#","vector":"{v}""#).as_bytes()); }
            line.extend_from_slice(tail.as_bytes());
            line.push(b'}');
            let k = aof::parse(&line).map(|l| l.key.into_owned()).unwrap_or_default();
            if let Some((copied, decoded)) = both(&line, &k) {
                prop_assert_eq!(copied, decoded, "{}", String::from_utf8_lossy(&line));
            }
        }
    }
}
