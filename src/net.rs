//! The one HTTP client: every request the tool makes (to Agenvoy's
//! daemon, an LLM, an embedding server, a window table) is built here, with
//! one user agent, the same timeouts, one body cap and one retry rule.
//! Remote text is made safe to print here too. Failures are `Unavailable`
//! (exit 69) so scripts can tell "network" from "bad data".

use std::io::Read;
use std::time::Duration;

use reqwest::blocking::{Client, RequestBuilder};
use reqwest::StatusCode;

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

const USER_AGENT: &str = concat!("sessionctl/", env!("CARGO_PKG_VERSION"));

/// Whom a client talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peer {
    /// Agenvoy's daemon on this machine: a proxy from the environment
    /// must never see its traffic, and a redirect must not take a write
    /// somewhere else.
    Loopback,
    /// An LLM, embedding server or table on the network.
    Remote,
}

/// The tool's HTTP client. `timeout` bounds a whole request; connecting
/// gets at most 5 s of it, so a dead host fails fast.
pub fn client(timeout: Duration, peer: Peer) -> Result<Client> {
    let mut builder = Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(5)))
        .user_agent(USER_AGENT);
    if peer == Peer::Loopback {
        builder = builder
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none());
    }
    builder
        .build()
        .map_err(|e| Error::unavailable(format!("cannot build an HTTP client: {e}")))
}

/// An answer, its body read under `MAX_BODY`.
pub struct Answer {
    pub status: StatusCode,
    pub body: Vec<u8>,
    /// `Retry-After` in seconds, when the server gave one.
    retry_after: Option<u64>,
}

impl Answer {
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.body)
    }
}

/// A request that got no answer at all.
#[derive(Debug)]
pub struct NoAnswer {
    pub timed_out: bool,
    pub error: reqwest::Error,
}

/// Send a request that is safe to repeat (a GET, an embedding, a chat
/// turn: the server keeps nothing of it), trying again on what a later
/// try may fix — a connection that failed (not one that timed out: that
/// would only wait as long again), 429 and 5xx — up to `retries` more
/// times, after `backoff`. `final_answer` marks an answer that must not be
/// retried even so (an LLM's context-length error sent as a 5xx). Writes
/// to the daemon never come here: repeating one could apply it twice.
pub fn send_idempotent(
    retries: u32,
    what: &str,
    request: impl Fn() -> RequestBuilder,
    final_answer: impl Fn(&Answer) -> bool,
) -> Result<std::result::Result<Answer, NoAnswer>> {
    let mut attempt = 0;
    loop {
        let resp = match request().send() {
            Ok(r) => r,
            Err(e) if attempt < retries && !e.is_timeout() => {
                attempt += 1;
                std::thread::sleep(backoff(attempt, None));
                continue;
            }
            Err(e) => {
                return Ok(Err(NoAnswer {
                    timed_out: e.is_timeout(),
                    error: e,
                }))
            }
        };
        let status = resp.status();
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        let answer = Answer {
            status,
            body: read_body(resp, what)?,
            retry_after,
        };
        let transient = status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error();
        if transient && attempt < retries && !final_answer(&answer) {
            attempt += 1;
            std::thread::sleep(backoff(attempt, answer.retry_after));
            continue;
        }
        return Ok(Ok(answer));
    }
}

/// Exponential backoff (1 s, 2 s, 4 s …, at most 30 s), or what the server
/// asked for in `Retry-After` (at most two minutes).
pub fn backoff(attempt: u32, retry_after: Option<u64>) -> Duration {
    match retry_after {
        Some(s) => Duration::from_secs(s.min(120)),
        None => Duration::from_secs((1u64 << (attempt.max(1) - 1).min(5)).min(30)),
    }
}

/// GET a JSON table (the window limits). Not retried: a read command
/// refreshes a stale table on its way and must not wait out a backoff; a
/// failure keeps the cached table and is tried again five minutes later.
pub fn get(url: &str, timeout: Duration, bearer: Option<&str>) -> Result<Vec<u8>> {
    let client = client(timeout, Peer::Remote)?;
    let what = format!("GET {url}");
    let request = || {
        let req = client.get(url).header("Accept", "application/json");
        match bearer {
            Some(token) => req
                .bearer_auth(token)
                .header("Editor-Version", "vscode/1.95.0"),
            None => req,
        }
    };
    let answer = send_idempotent(0, &what, request, |_| false)?.map_err(|no| {
        let why = if no.timed_out {
            "timed out"
        } else {
            "unreachable"
        };
        Error::unavailable(format!("{what}: {why}: {}", no.error))
            .with_hint("check the network, or pass --offline to use the cached table")
    })?;
    if !answer.status.is_success() {
        return Err(Error::unavailable(format!(
            "{what}: HTTP {}",
            answer.status
        )));
    }
    Ok(answer.body)
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
