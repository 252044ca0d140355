//! HTTP bodies read under one cap, remote text made safe to print, and
//! plain GETs for tables the tool fetches (window limits). Failures are
//! `Unavailable` (exit 69) so scripts can tell "network" from "bad data".

use std::io::Read;
use std::time::Duration;

use crate::error::{Error, Result};

/// The most any HTTP answer may hold (the daemon's, an LLM's, a fetched
/// table): the largest real one, LiteLLM's model-window table, is under
/// 2 MiB. A server that keeps sending is cut off here, not buffered.
pub const MAX_BODY: u64 = 32 * 1024 * 1024;

/// Read an answer's body, stopping at `MAX_BODY`: a body that goes on
/// (an endless chunked reply) is refused (69) once it passes the cap, so
/// memory stays bounded whatever the server sends. `what` names the
/// request in the error.
pub fn read_body(mut resp: impl Read, what: &str) -> Result<Vec<u8>> {
    // In pieces of a fixed size, joined at the end: a growing buffer would
    // double (and copy) its way past the cap, holding up to three times it.
    const PIECE: usize = 1 << 20;
    let mut pieces: Vec<Vec<u8>> = Vec::new();
    let mut total = 0u64;
    loop {
        let mut piece = Vec::with_capacity(PIECE);
        let n = (&mut resp)
            .take(PIECE as u64)
            .read_to_end(&mut piece)
            .map_err(|e| Error::unavailable(format!("{what}: reading the answer: {e}")))?;
        total += n as u64;
        if total > MAX_BODY {
            return Err(Error::unavailable(format!(
                "{what}: the answer is larger than {} MiB; stopped reading it",
                MAX_BODY >> 20
            ))
            .with_hint("is the server misbehaving? nothing was changed by this answer"));
        }
        pieces.push(piece);
        if n < PIECE {
            break; // the end of the answer
        }
    }
    Ok(if pieces.len() == 1 {
        pieces.pop().expect("one piece")
    } else {
        pieces.concat()
    })
}

/// Text a server sent, made safe to print in an error: at most `max`
/// characters (the rest cut, marked `…`), and control characters — escape
/// sequences that would recolour, retitle or rewrite the terminal, line
/// breaks, bidirectional overrides — shown as escapes (`\u{1b}`, `\n`).
pub fn printable(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for c in text.chars() {
        let bidi = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        let piece: String = if c.is_control() || bidi {
            c.escape_debug().collect()
        } else {
            c.to_string()
        };
        let n = piece.chars().count();
        if shown + n > max.saturating_sub(1) {
            out.push('…');
            return out;
        }
        out.push_str(&piece);
        shown += n;
    }
    out
}

pub fn get(url: &str, timeout: Duration, bearer: Option<&str>) -> Result<Vec<u8>> {
    let client = reqwest::blocking::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(5)))
        .user_agent(concat!("sessionctl/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| Error::unavailable(format!("GET {url}: cannot build an HTTP client: {e}")))?;
    let mut req = client.get(url).header("Accept", "application/json");
    if let Some(token) = bearer {
        req = req
            .bearer_auth(token)
            .header("Editor-Version", "vscode/1.95.0");
    }
    let resp = req.send().map_err(|e| {
        let why = if e.is_timeout() {
            "timed out"
        } else {
            "unreachable"
        };
        Error::unavailable(format!("GET {url}: {why}: {e}"))
            .with_hint("check the network, or pass --offline to use the cached table")
    })?;
    let status = resp.status();
    if !status.is_success() {
        return Err(Error::unavailable(format!("GET {url}: HTTP {status}")));
    }
    read_body(resp, &format!("GET {url}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_text_is_bounded_and_has_no_control_characters() {
        let hostile = "\u{1b}[31mred\u{1b}]0;title\u{7}\r\nnext\u{202e}evil\u{9b}2J\u{7f}";
        let p = printable(hostile, 300);
        assert!(!p.chars().any(|c| c.is_control()), "{p:?}");
        assert!(
            p.contains("\\u{1b}[31mred") && p.contains("\\r\\nnext"),
            "{p}"
        );
        assert!(p.contains("\\u{202e}evil"), "{p}");
        let long = printable(&"é\u{1b}".repeat(1000), 300);
        assert!(
            long.chars().count() <= 300 && long.ends_with('…'),
            "{}",
            long.len()
        );
        assert_eq!(printable("plain 会话", 300), "plain 会话");
        // an escape is never cut in half
        let edge = printable(&format!("{}\u{1b}", "x".repeat(297)), 300);
        assert!(edge.ends_with("x…"), "{edge}");
    }

    #[test]
    fn a_body_over_the_cap_is_refused_after_reading_just_past_it() {
        let endless = std::io::repeat(b' ');
        let err = read_body(endless, "GET x").unwrap_err();
        assert_eq!(err.exit_code(), crate::error::exit::UNAVAILABLE);
        assert!(err.to_string().contains("larger than 32 MiB"), "{err}");
        let body = read_body(&b"{\"ok\":true}"[..], "GET x").unwrap();
        assert_eq!(body, b"{\"ok\":true}");
        // a body of several pieces comes back whole; the cap itself is fine
        let big: Vec<u8> = (0..(3 << 20) + 5).map(|i| (i % 251) as u8).collect();
        assert_eq!(read_body(&big[..], "GET x").unwrap(), big);
        assert!(read_body(&b""[..], "GET x").unwrap().is_empty());
        let at_cap = std::io::repeat(b'x').take(MAX_BODY);
        assert_eq!(read_body(at_cap, "GET x").unwrap().len() as u64, MAX_BODY);
    }
}
