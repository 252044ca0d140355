//! A fast path for the one shape nearly every log line has: exactly what
//! ToriiDB (and we) write, `{"ts":N,"cmd":"C","key":"K"[,"value":"V"]
//! [,"expire_at":N][,"vector":"B"]}`, no whitespace, fields in that order,
//! key and vector without escapes. Such a line is read here without serde
//! and without touching the value's text beyond finding its end; any
//! other line (or anything unexpected) returns `None` and takes the exact
//! Go-rules parser, so both paths always agree (tested against it).

use std::borrow::Cow;

use super::aof::Line;

pub fn parse_meta(line: &[u8]) -> Option<Line<'_>> {
    let mut p = Cursor { s: line, i: 0 };
    p.lit(b"{\"ts\":")?;
    let ts = p.int()?;
    p.lit(b",\"cmd\":")?;
    let cmd = p.plain_str()?;
    p.lit(b",\"key\":")?;
    let key = p.plain_str()?;
    let mut l = Line {
        ts,
        cmd: Cow::Borrowed(cmd),
        key: Cow::Borrowed(key),
        ..Line::default()
    };
    if p.opt(b",\"value\":") {
        p.skip_str()?;
    }
    if p.opt(b",\"expire_at\":") {
        l.expire_at = Some(p.int()?);
    }
    if p.opt(b",\"vector\":") {
        l.vector = Cow::Borrowed(p.plain_str()?);
    }
    p.lit(b"}")?;
    (p.i == line.len()).then_some(l)
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn lit(&mut self, want: &[u8]) -> Option<()> {
        self.opt(want).then_some(())
    }

    fn opt(&mut self, want: &[u8]) -> bool {
        let hit = self.s[self.i..].starts_with(want);
        if hit {
            self.i += want.len();
        }
        hit
    }

    /// A JSON integer that fits an i64 (what Go's decoder takes for one).
    fn int(&mut self) -> Option<i64> {
        let start = self.i;
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        let digits = self.i;
        while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        let n = self.i - digits;
        // no digits, a leading zero, or a fraction/exponent: not ours
        // (and -0, which the exact parser reads as a float)
        if n == 0 || (n > 1 && self.s[digits] == b'0') || &self.s[start..self.i] == b"-0" {
            return None;
        }
        if matches!(self.s.get(self.i), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()?
            .parse()
            .ok()
    }

    /// A string without escapes or control characters, valid UTF-8.
    fn plain_str(&mut self) -> Option<&'a str> {
        self.lit(b"\"")?;
        let start = self.i;
        let run = special(&self.s[start..])?;
        if self.s[start + run] != b'"' {
            return None;
        }
        let text = std::str::from_utf8(&self.s[start..start + run]).ok()?;
        self.i = start + run + 1;
        Some(text)
    }

    /// Step over a string whose text is not needed, checking what makes a
    /// JSON string invalid: control characters and bad escapes. Invalid
    /// UTF-8 is fine (Go reads it as U+FFFD).
    fn skip_str(&mut self) -> Option<()> {
        self.lit(b"\"")?;
        loop {
            // Jump to the next quote, backslash or control character:
            // values are most of a line, so this is the hot loop.
            self.i += special(&self.s[self.i..])?;
            match self.s[self.i] {
                b'"' => {
                    self.i += 1;
                    return Some(());
                }
                b'\\' => match *self.s.get(self.i + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.i += 2,
                    b'u' => {
                        let hex = self.s.get(self.i + 2..self.i + 6)?;
                        if !hex.iter().all(u8::is_ascii_hexdigit) {
                            return None;
                        }
                        self.i += 6;
                    }
                    _ => return None,
                },
                // a control character: not valid inside a JSON string
                _ => return None,
            }
        }
    }
}

/// Where the first byte of `s` that a plain run of JSON string text
/// cannot hold is: '"', '\\' or a control character (< 0x20). Eight
/// bytes at a time (SWAR): values run between escapes only a few dozen
/// bytes, too short for a `memchr2` call per run to pay off, and one
/// pass finds all three kinds at once.
fn special(s: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // The high bit of each byte of `x` below `n` (n <= 0x80). A borrow
    // only moves upward, so the lowest flagged byte is always a true one.
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let mut chunks = s.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let hit = below(x ^ (ONES * u64::from(b'"')), 1)
            | below(x ^ (ONES * u64::from(b'\\')), 1)
            | below(x, 0x20);
        if hit != 0 {
            return Some(at + (hit.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let rest = chunks.remainder();
    let p = rest
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
    Some(at + p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_the_written_shape_and_declines_the_rest() {
        let l = parse_meta(br#"{"ts":5,"cmd":"SET","key":"k:1","value":"{\"a\":\"\u003cb\"}","expire_at":0,"vector":"AAAAAA=="}"#).unwrap();
        assert_eq!(
            (l.ts, &*l.cmd, &*l.key, l.expire_at, &*l.vector),
            (5, "SET", "k:1", Some(0), "AAAAAA==")
        );
        assert_eq!(l.value, "", "the value is not read");
        for other in [
            &br#"{"ts":5,"cmd":"SET","key":"k","value":"v" }"#[..],
            br#"{"cmd":"SET","ts":5,"key":"k"}"#,
            br#"{"ts":05,"cmd":"SET","key":"k"}"#,
            br#"{"ts":5.0,"cmd":"SET","key":"k"}"#,
            br#"{"ts":5,"cmd":"SET","key":"k\u0041"}"#,
            br#"{"ts":5,"cmd":"SET","key":"k","value":"\x"}"#,
            br#"{"ts":5,"cmd":"SET","key":"k","value":null}"#,
            br#"{"ts":99999999999999999999,"cmd":"SET","key":"k"}"#,
            br#"{"ts":5,"cmd":"SET","key":"k","value":"v"}x"#,
            b"{\"ts\":5,\"cmd\":\"SET\",\"key\":\"k\xff\"}",
        ] {
            assert!(
                parse_meta(other).is_none(),
                "{}",
                String::from_utf8_lossy(other)
            );
        }
    }

    proptest! {
        /// The eight-at-a-time scan finds what a byte-by-byte one does,
        /// wherever in a word (or the tail) the byte falls.
        #[test]
        fn special_is_the_first_quote_backslash_or_control_byte(
            bytes in proptest::collection::vec(prop_oneof![
                4 => any::<u8>(),
                1 => Just(b'"'), 1 => Just(b'\\'), 1 => Just(0x1f), 1 => Just(0x20),
                1 => Just(0x7f), 1 => Just(0x80), 1 => Just(0x9f), 1 => Just(0xa0), 1 => Just(0xdc),
            ], 0..40),
            plain in 0usize..40,
        ) {
            let mut s = vec![b'a'; plain];
            s.extend(&bytes);
            let naive = s.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
            prop_assert_eq!(special(&s), naive);
        }

        /// Whatever the fast path reads, the exact parser reads the same.
        #[test]
        fn agrees_with_the_exact_parser(
            ts in prop_oneof![Just("5".to_owned()), Just("-0".to_owned()), Just("007".to_owned()), "-?[0-9]{1,20}"],
            key in "[a-z:\\\\\"\u{e9}]{0,6}",
            value in proptest::option::of("([a-z\"\u{2028}]|\\\\[\"\\\\/bfnrtux]|\\\\u[0-9a-fA-F]{4}|\\\\u[0-9g]{2}|[\u{1}\u{1f}])*"),
            expire in proptest::option::of("-?[0-9]{1,3}|1e3|0"),
            vector in proptest::option::of("[A-Za-z0-9+/=\\\\]{0,8}"),
            tail in prop_oneof![Just(""), Just(" "), Just(",\"x\":1")],
        ) {
            let mut line = format!(r#"{{"ts":{ts},"cmd":"SET","key":"{key}""#);
            if let Some(v) = value { line += &format!(r#","value":"{v}""#); }
            if let Some(x) = expire { line += &format!(r#","expire_at":{x}"#); }
            if let Some(v) = vector { line += &format!(r#","vector":"{v}""#); }
            line += tail;
            line += "}";
            let exact = super::super::aof::parse_meta_exact(line.as_bytes());
            if let Some(fast) = parse_meta(line.as_bytes()) {
                prop_assert_eq!(Ok(fast), exact, "{}", line);
            }
        }
    }
}
