//! Go's `path.Match`, which ToriiDB's `Keys(pattern)` uses: `*` and `?` never
//! match `/`, `[...]`/`[^...]` classes, `\` escapes, and a malformed pattern
//! matches nothing (ToriiDB returns an empty list rather than an error).

/// Go's `path.ErrBadPattern`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadPattern;

/// Whether `name` matches `pattern`; `Err(BadPattern)` for a malformed pattern.
pub fn path_match(pattern: &str, name: &str) -> Result<bool, BadPattern> {
    let mut pattern = pattern;
    let mut name = name;
    'outer: while !pattern.is_empty() {
        let (star, chunk, rest) = scan_chunk(pattern);
        pattern = rest;
        if star && chunk.is_empty() {
            // A trailing star matches the rest unless it holds a '/'.
            return Ok(!name.contains('/'));
        }
        let (t, ok, err) = match_chunk(chunk, name);
        // The last chunk must consume the whole name.
        if ok && (t.is_empty() || !pattern.is_empty()) {
            name = t;
            continue;
        }
        if err {
            return Err(BadPattern);
        }
        if star {
            // Try skipping i+1 bytes of name, never across '/'.
            let bytes = name.as_bytes();
            let mut i = 0;
            while i < bytes.len() && bytes[i] != b'/' {
                if !name.is_char_boundary(i + 1) {
                    i += 1;
                    continue;
                }
                let (t, ok, err) = match_chunk(chunk, &name[i + 1..]);
                if ok {
                    if pattern.is_empty() && !t.is_empty() {
                        i += 1;
                        continue;
                    }
                    name = t;
                    continue 'outer;
                }
                if err {
                    return Err(BadPattern);
                }
                i += 1;
            }
        }
        // Before failing, make sure the rest of the pattern is well formed.
        while !pattern.is_empty() {
            let (_, chunk, rest) = scan_chunk(pattern);
            pattern = rest;
            if match_chunk(chunk, "").2 {
                return Err(BadPattern);
            }
        }
        return Ok(false);
    }
    Ok(name.is_empty())
}

/// Split off the next chunk: leading stars, then text up to the next
/// unescaped, unbracketed star.
fn scan_chunk(pattern: &str) -> (bool, &str, &str) {
    let mut p = pattern;
    let mut star = false;
    while let Some(rest) = p.strip_prefix('*') {
        p = rest;
        star = true;
    }
    let bytes = p.as_bytes();
    let mut in_range = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            // Skip the escaped byte (a trailing '\' is caught by match_chunk).
            b'\\' if i + 1 < bytes.len() => i += 1,
            b'[' => in_range = true,
            b']' => in_range = false,
            b'*' if !in_range => break,
            _ => {}
        }
        i += 1;
    }
    (star, &p[..i], &p[i..])
}

/// Match `chunk` against the start of `s`. Returns (rest of s, matched,
/// malformed-pattern). Like Go, it keeps validating the chunk after a
/// mismatch so bad patterns are always reported.
fn match_chunk<'a>(chunk: &str, s: &'a str) -> (&'a str, bool, bool) {
    let mut chunk = chunk;
    let mut s = s;
    let mut failed = false;
    while !chunk.is_empty() {
        if !failed && s.is_empty() {
            failed = true;
        }
        let c0 = chunk.as_bytes()[0];
        match c0 {
            b'[' => {
                let mut r = '\0';
                if !failed {
                    let mut it = s.chars();
                    r = it.next().unwrap();
                    s = &s[r.len_utf8()..];
                }
                chunk = &chunk[1..];
                let negated = chunk.starts_with('^');
                if negated {
                    chunk = &chunk[1..];
                }
                let mut matched = false;
                let mut nrange = 0;
                loop {
                    if !chunk.is_empty() && chunk.as_bytes()[0] == b']' && nrange > 0 {
                        chunk = &chunk[1..];
                        break;
                    }
                    let Some((lo, rest)) = get_esc(chunk) else {
                        return ("", false, true);
                    };
                    chunk = rest;
                    let mut hi = lo;
                    if chunk.starts_with('-') {
                        let Some((h, rest)) = get_esc(&chunk[1..]) else {
                            return ("", false, true);
                        };
                        hi = h;
                        chunk = rest;
                    }
                    if lo <= r && r <= hi {
                        matched = true;
                    }
                    nrange += 1;
                }
                if matched == negated {
                    failed = true;
                }
            }
            b'?' => {
                if !failed {
                    let r = s.chars().next().unwrap();
                    if r == '/' {
                        failed = true;
                    }
                    s = &s[r.len_utf8()..];
                }
                chunk = &chunk[1..];
            }
            b'\\' => {
                chunk = &chunk[1..];
                if chunk.is_empty() {
                    return ("", false, true);
                }
                let c = chunk.chars().next().unwrap();
                if !failed {
                    if s.starts_with(c) {
                        s = &s[c.len_utf8()..];
                    } else {
                        failed = true;
                    }
                }
                chunk = &chunk[c.len_utf8()..];
            }
            _ => {
                let c = chunk.chars().next().unwrap();
                if !failed {
                    if s.starts_with(c) {
                        s = &s[c.len_utf8()..];
                    } else {
                        failed = true;
                    }
                }
                chunk = &chunk[c.len_utf8()..];
            }
        }
    }
    if failed {
        return ("", false, false);
    }
    (s, true, false)
}

/// One possibly escaped character of a bracket class.
fn get_esc(chunk: &str) -> Option<(char, &str)> {
    let first = chunk.chars().next()?;
    if first == '-' || first == ']' {
        return None;
    }
    let mut chunk = chunk;
    if first == '\\' {
        chunk = &chunk[1..];
        if chunk.is_empty() {
            return None;
        }
    }
    let r = chunk.chars().next()?;
    let rest = &chunk[r.len_utf8()..];
    if rest.is_empty() {
        // Go rejects a class that runs off the end of the pattern.
        return None;
    }
    Some((r, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, n: &str) -> Result<bool, BadPattern> {
        path_match(p, n)
    }

    #[test]
    fn toriidb_probe_cases() {
        // docs/agenvoy-format.md#toriidb-keys, checked against ToriiDB itself
        assert_eq!(m("sid:*", "sid:"), Ok(true));
        assert_eq!(m("sid:*", "sid:1"), Ok(true));
        assert_eq!(m("sid:*", "sid:2:x"), Ok(true));
        assert_eq!(m("sid:*", "sid:a/b"), Ok(false));
        assert_eq!(m("*", "cli-abc/x:1"), Ok(false));
        assert_eq!(m("s\\*d:*", "s*d:1"), Ok(true));
        assert_eq!(m("s\\*d:*", "sxd:1"), Ok(false));
        assert_eq!(m("[bad", "b"), Err(BadPattern));
        assert_eq!(m("**", "abc"), Ok(true));
    }

    #[test]
    fn go_path_match_table() {
        // Cases from Go's path/match_test.go
        let cases: &[(&str, &str, Result<bool, BadPattern>)] = &[
            ("abc", "abc", Ok(true)),
            ("*", "abc", Ok(true)),
            ("*c", "abc", Ok(true)),
            ("a*", "a", Ok(true)),
            ("a*", "abc", Ok(true)),
            ("a*", "ab/c", Ok(false)),
            ("a*/b", "abc/b", Ok(true)),
            ("a*/b", "a/c/b", Ok(false)),
            ("a*b*c*d*e*/f", "axbxcxdxe/f", Ok(true)),
            ("a*b*c*d*e*/f", "axbxcxdxexxx/f", Ok(true)),
            ("a*b*c*d*e*/f", "axbxcxdxe/xxx/f", Ok(false)),
            ("a*b*c*d*e*/f", "axbxcxdxexxx/fff", Ok(false)),
            ("a*b?c*x", "abxbbxdbxebxczzx", Ok(true)),
            ("a*b?c*x", "abxbbxdbxebxczzy", Ok(false)),
            ("ab[c]", "abc", Ok(true)),
            ("ab[b-d]", "abc", Ok(true)),
            ("ab[e-g]", "abc", Ok(false)),
            ("ab[^c]", "abc", Ok(false)),
            ("ab[^b-d]", "abc", Ok(false)),
            ("ab[^e-g]", "abc", Ok(true)),
            ("a\\*b", "a*b", Ok(true)),
            ("a\\*b", "ab", Ok(false)),
            ("a?b", "a☺b", Ok(true)),
            ("a[^a]b", "a☺b", Ok(true)),
            ("a???b", "a☺b", Ok(false)),
            ("a[^a][^a][^a]b", "a☺b", Ok(false)),
            ("[a-ζ]*", "α", Ok(true)),
            ("*[a-ζ]", "A", Ok(false)),
            ("a?b", "a/b", Ok(false)),
            ("a*b", "a/b", Ok(false)),
            ("[\\]a]", "]", Ok(true)),
            ("[\\-]", "-", Ok(true)),
            ("[x\\-]", "x", Ok(true)),
            ("[x\\-]", "-", Ok(true)),
            ("[x\\-]", "z", Ok(false)),
            ("[\\-x]", "x", Ok(true)),
            ("[\\-x]", "-", Ok(true)),
            ("[\\-x]", "a", Ok(false)),
            ("[]a]", "]", Err(BadPattern)),
            ("[-]", "-", Err(BadPattern)),
            ("[x-]", "x", Err(BadPattern)),
            ("[x-]", "-", Err(BadPattern)),
            ("[x-]", "z", Err(BadPattern)),
            ("[-x]", "x", Err(BadPattern)),
            ("[-x]", "-", Err(BadPattern)),
            ("[-x]", "a", Err(BadPattern)),
            ("\\", "a", Err(BadPattern)),
            ("[a-b-c]", "a", Err(BadPattern)),
            ("[", "a", Err(BadPattern)),
            ("[^", "a", Err(BadPattern)),
            ("[^bc", "a", Err(BadPattern)),
            ("a[", "a", Err(BadPattern)),
            ("a[", "ab", Err(BadPattern)),
            ("ad[", "ab", Err(BadPattern)),
            ("*x", "xxx", Ok(true)),
            ("a/*/b", "a/x/b", Ok(true)),
        ];
        for (p, n, want) in cases {
            assert_eq!(m(p, n), *want, "Match({p:?}, {n:?})");
        }
    }
}
