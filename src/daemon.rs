//! Agenvoy's daemon API (docs/agenvoy-format.md#daemon-api): while the daemon of a root runs, it
//! owns the ToriiDB logs (it rewrites them from memory on exit), so writes
//! go through it instead of the files. Loopback only.
//!
//! Every answer is mapped to one error with an exit code: 404 "session not
//! found" → 66, 400 → 64, 500 and other statuses → 69 with the daemon's
//! message, a timeout or a refused connection → 69, an answer that is not
//! the documented JSON → 65. 429 and 503 are retried with backoff, then 75.

use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};

use crate::error::{Error, Result};
use crate::store::layout::DataRoot;
use crate::store::runtime;

/// Where `agenvoy --daemon` listens.
pub const DEFAULT_URL: &str = "http://127.0.0.1:17989";
/// The daemon's own limit is twice its send timeout.
pub const DEFAULT_TIMEOUT_SECS: u64 = 600;
/// Requests in flight at once, over a batch.
pub const CONCURRENCY: usize = 2;
/// What of the daemon's own words (an error message, an unexpected
/// answer) an error shows, at most.
const SHOWN_CHARS: usize = 300;
const ATTEMPTS: u32 = 4;
const BACKOFF: Duration = Duration::from_millis(100);

/// How writes reach the stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Via {
    /// The daemon when this root's daemon is alive and answering, else the files
    #[default]
    Auto,
    /// The files (refused with 75 while Agenvoy runs)
    Files,
    /// The daemon (69 when it cannot be reached)
    Daemon,
}

/// The daemon's answer to a memory request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Done {
    /// Messages (compact), records (summary) or keys (reset) affected.
    Count(u64),
    /// An older daemon accepted a background compaction: no count.
    Started,
}

#[derive(Debug, Clone)]
pub struct Daemon {
    base: String,
    addr: SocketAddr,
    client: reqwest::blocking::Client,
}

/// Refuse anything but a loopback http(s) URL (64).
fn loopback(url: &str) -> Result<(String, SocketAddr)> {
    let refuse = |why: &str| {
        Error::usage(format!("daemon URL {url:?}: {why}"))
            .with_hint("the daemon API is loopback only: use 127.0.0.1, ::1 or localhost")
    };
    let parsed = reqwest::Url::parse(url).map_err(|e| refuse(&e.to_string()))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(refuse("not an http URL"));
    }
    let host = parsed.host_str().unwrap_or("");
    let ip: Option<std::net::IpAddr> = host.trim_matches(['[', ']']).parse().ok();
    let host_ok = host.eq_ignore_ascii_case("localhost") || ip.is_some_and(|ip| ip.is_loopback());
    if !host_ok || !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(refuse("not a loopback address"));
    }
    let port = parsed.port_or_known_default().unwrap_or(80);
    let addr = match ip {
        Some(ip) => SocketAddr::from((ip, port)),
        None => ("localhost", port)
            .to_socket_addrs()
            .ok()
            .and_then(|mut a| a.find(|a| a.ip().is_loopback()))
            .ok_or_else(|| refuse("localhost does not resolve to a loopback address"))?,
    };
    Ok((url.trim_end_matches('/').to_owned(), addr))
}

impl Daemon {
    pub fn new(url: &str, timeout: Duration) -> Result<Daemon> {
        let (base, addr) = loopback(url)?;
        let client = crate::net::client(timeout, crate::net::Peer::Loopback)?;
        Ok(Daemon { base, addr, client })
    }

    pub fn url(&self) -> &str {
        &self.base
    }

    /// Whether something accepts connections at the daemon's address.
    pub fn answers(&self) -> bool {
        TcpStream::connect_timeout(&self.addr, Duration::from_secs(2)).is_ok()
    }

    /// `POST /v1/session/:id/memory`: `action` is compact, summary or reset
    /// (with `mode`). An older daemon without the route gets compact on its
    /// old endpoint; summary and reset are refused (75).
    pub fn memory(&self, session: &str, action: &str, mode: Option<&str>) -> Result<Done> {
        let mut body = json!({ "action": action });
        if let Some(m) = mode {
            body["mode"] = json!(m);
        }
        let path = format!("/v1/session/{}/memory", segment(session));
        match self.call(reqwest::Method::POST, &path, Some(&body)) {
            Err(Failure::NoRoute) if action == "compact" => self.legacy_compact(session),
            Err(Failure::NoRoute) => Err(Error::busy(format!(
                "the Agenvoy daemon at {} has no memory endpoint: it cannot {action}",
                self.base
            ))
            .with_hint("upgrade Agenvoy, or stop it and retry with --via files")),
            Err(Failure::Error(e)) => Err(e),
            Ok(v) => {
                let field = if action == "summary" {
                    "count"
                } else {
                    "removed"
                };
                match (v.get("ok"), v.get(field).and_then(Value::as_u64)) {
                    (Some(Value::Bool(true)), Some(n)) => Ok(Done::Count(n)),
                    _ => Err(self.shape(&path, &format!("no \"ok\":true and \"{field}\" count"))),
                }
            }
        }
    }

    /// Agenvoy before the memory endpoint (v0.32.x): 202, runs in the
    /// background, no result.
    fn legacy_compact(&self, session: &str) -> Result<Done> {
        let path = format!("/v1/session/{}/compact", segment(session));
        let v = self
            .call(reqwest::Method::POST, &path, None)
            .map_err(|f| f.into_error(&self.base, &path))?;
        match v.get("ok") {
            Some(Value::Bool(true)) => Ok(Done::Started),
            _ => Err(self.shape(&path, "no \"ok\":true")),
        }
    }

    /// `DELETE /v1/session`: the session's keys, rows and folder.
    pub fn delete_session(&self, session: &str) -> Result<()> {
        let path = "/v1/session";
        let v = self
            .call(
                reqwest::Method::DELETE,
                path,
                Some(&json!({ "session_id": session })),
            )
            .map_err(|f| f.into_error(&self.base, path))?;
        self.ok(path, &v)
    }

    /// `GET /v1/torii/error`: the error memory's records, as listed.
    pub fn error_records(&self, query: &[(&str, String)]) -> Result<Vec<Value>> {
        let mut path = "/v1/torii/error".to_owned();
        let pairs: Vec<String> = query
            .iter()
            .map(|(k, v)| format!("{k}={}", segment(v)))
            .collect();
        if !pairs.is_empty() {
            path = format!("{path}?{}", pairs.join("&"));
        }
        let v = self
            .call(reqwest::Method::GET, &path, None)
            .map_err(|f| f.into_error(&self.base, &path))?;
        match v.get("records") {
            Some(Value::Array(list)) if list.iter().all(Value::is_object) => Ok(list.clone()),
            _ => Err(self.shape(&path, "no \"records\" list")),
        }
    }

    /// `PATCH /v1/torii/error`: a record's action; its TTL is kept.
    pub fn patch_error(&self, id: &str, action: &str) -> Result<()> {
        let path = "/v1/torii/error";
        let v = self
            .call(
                reqwest::Method::PATCH,
                path,
                Some(&json!({ "id": id, "action": action })),
            )
            .map_err(|f| f.into_error(&self.base, path))?;
        self.ok(path, &v)
    }

    fn ok(&self, path: &str, v: &Value) -> Result<()> {
        match v.get("ok") {
            Some(Value::Bool(true)) => Ok(()),
            _ => Err(self.shape(path, "no \"ok\":true")),
        }
    }

    /// An answer that is not what the API documents (65).
    fn shape(&self, path: &str, what: &str) -> Error {
        Error::data(
            PathBuf::from(format!("{}{path}", self.base)),
            format!("the Agenvoy daemon's answer is not the documented JSON: {what}"),
        )
        .with_hint("is something other than Agenvoy's daemon listening there? see --daemon-url")
    }

    /// One request, 429/503 retried with backoff; a 2xx answer's JSON.
    fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> std::result::Result<Value, Failure> {
        let url = format!("{}{path}", self.base);
        let what = format!("{method} {url}");
        let mut delay = BACKOFF;
        for attempt in 1..=ATTEMPTS {
            let mut req = self
                .client
                .request(method.clone(), &url)
                .header("Accept", "application/json");
            if let Some(b) = body {
                req = req
                    .header("Content-Type", "application/json")
                    .body(b.to_string());
            }
            let resp = req.send().map_err(|e| transport(&what, &e))?;
            let status = resp.status().as_u16();
            let text = crate::net::read_body(resp, &what).map_err(Failure::Error)?;
            let text = String::from_utf8_lossy(&text);
            if matches!(status, 429 | 503) && attempt < ATTEMPTS {
                std::thread::sleep(delay);
                delay *= 2;
                continue;
            }
            return answer(&what, &url, status, &text);
        }
        unreachable!("the last attempt returns")
    }
}

/// Why a request did not give a 2xx answer.
enum Failure {
    /// gin's plain-text `404 page not found`: an older daemon.
    NoRoute,
    Error(Error),
}

impl Failure {
    fn into_error(self, base: &str, path: &str) -> Error {
        match self {
            Failure::Error(e) => e,
            Failure::NoRoute => Error::busy(format!(
                "the Agenvoy daemon at {base} has no {path} endpoint"
            ))
            .with_hint("upgrade Agenvoy, or stop it and retry with --via files"),
        }
    }
}

fn transport(what: &str, e: &reqwest::Error) -> Failure {
    let why = if e.is_timeout() {
        "timed out (see --timeout)"
    } else if e.is_connect() {
        "connection refused"
    } else {
        "failed"
    };
    Failure::Error(
        Error::unavailable(format!("{what}: {why}: {e}"))
            .with_hint("is `agenvoy --daemon` running and healthy? see --daemon-url and --timeout"),
    )
}

/// Map a status and body to the JSON answer or one error.
fn answer(what: &str, url: &str, status: u16, text: &str) -> std::result::Result<Value, Failure> {
    let json: Option<Value> = serde_json::from_str(text).ok();
    // the daemon's words reach a terminal: bounded, controls escaped
    let message = json.as_ref().and_then(|v| v.get("error")).map(|e| match e {
        Value::String(s) => s.clone(),
        other => other
            .get("message")
            .and_then(Value::as_str)
            .map_or_else(|| other.to_string(), str::to_owned),
    });
    let message = message.map(|m| crate::net::printable(&m, SHOWN_CHARS));
    let said = |m: &Option<String>| m.clone().unwrap_or_else(|| short(text));
    let err = match status {
        200..=299 => {
            return match json {
                Some(v @ Value::Object(_)) => Ok(v),
                _ => Err(Failure::Error(
                    Error::data(
                        PathBuf::from(url),
                        format!("the Agenvoy daemon's answer is not the documented JSON: {status} with no JSON object"),
                    )
                    .with_hint("is something other than Agenvoy's daemon listening there? see --daemon-url"),
                )),
            };
        }
        404 if message.is_none() && text.trim() == "404 page not found" => {
            return Err(Failure::NoRoute)
        }
        404 => Error::no_input(format!("{what}: 404 {}", said(&message)))
            .with_hint("`sessionctl sessions list` shows the sessions under this root"),
        400 => Error::usage(format!(
            "{what}: the daemon refused the request: {}",
            said(&message)
        )),
        429 | 503 => Error::busy(format!(
            "{what}: the daemon is busy ({status}): {}",
            said(&message)
        ))
        .with_hint("retry later"),
        403 => Error::unavailable(format!("{what}: 403 {}", said(&message)))
            .with_hint("the daemon accepts loopback callers only"),
        _ => Error::unavailable(format!("{what}: {status} {}", said(&message)))
            .with_hint("see Agenvoy's daemon log"),
    };
    Err(Failure::Error(err))
}

/// The first line of a body, bounded and safe to print, for an error
/// message.
fn short(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    if line.is_empty() {
        "(empty answer)".into()
    } else {
        crate::net::printable(line, SHOWN_CHARS)
    }
}

/// A path segment or query value, percent-encoded (RFC 3986 unreserved
/// characters stay as they are).
fn segment(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Which backend a write uses, decided once per run.
pub enum Backend {
    Files,
    Daemon(Daemon),
}

/// `--via`: `files` as always; `daemon` must reach it (69); `auto` uses the
/// daemon when this root's daemon pid is alive, and then it must answer
/// (69): never a silent fall back to the files while Agenvoy runs.
pub fn choose(root: &DataRoot, via: Via, url: &str, timeout: Duration) -> Result<Backend> {
    loopback(url)?;
    let pid = match via {
        Via::Files => return Ok(Backend::Files),
        // runtime.uid that cannot be read safely: the files backend refuses
        // to write (65) unless forced, as it always did
        Via::Auto => match runtime::live_daemon(root) {
            Ok(Some(pid)) => Some(pid),
            Ok(None) | Err(_) => return Ok(Backend::Files),
        },
        Via::Daemon => runtime::live_daemon(root).ok().flatten(),
    };
    let daemon = Daemon::new(url, timeout)?;
    if daemon.answers() {
        return Ok(Backend::Daemon(daemon));
    }
    let who = match pid {
        Some(pid) => format!("Agenvoy's daemon (pid {pid}, runtime.uid) is alive but"),
        None => "no Agenvoy daemon runs for this root and".into(),
    };
    Err(
        Error::unavailable(format!("{who} nothing answers at {}", daemon.url())).with_hint(
            match pid {
                Some(_) => "pass --daemon-url (or AGENVOY_DAEMON_URL) if it listens elsewhere, or stop Agenvoy and use --via files",
                None => "start `agenvoy --daemon`, or use --via files",
            },
        ),
    )
}

/// Run `f` over `items` with at most `CONCURRENCY` at once; results in order.
pub fn bounded<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<R>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..CONCURRENCY.min(items.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                *slots[i].lock().expect("not poisoned") = Some(r);
            });
        }
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .expect("not poisoned")
                .expect("every item ran")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_urls_are_accepted() {
        for ok in [
            "http://127.0.0.1:17989",
            "http://[::1]:9/",
            "http://localhost:1",
            "http://127.0.0.2:5",
        ] {
            assert!(loopback(ok).is_ok(), "{ok}");
        }
        for bad in [
            "http://10.0.0.1:17989",
            "http://example.com",
            "ftp://127.0.0.1",
            "http://u:p@127.0.0.1",
            "127.0.0.1:17989",
            "http://0.0.0.0:1",
        ] {
            let e = loopback(bad).unwrap_err();
            assert_eq!(e.exit_code(), crate::error::exit::USAGE, "{bad}");
        }
    }

    #[test]
    fn at_most_two_requests_run_at_once_and_results_keep_their_order() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let (now, peak) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let items: Vec<usize> = (0..8).collect();
        let out = bounded(&items, |i| {
            let n = now.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(n, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(10));
            now.fetch_sub(1, Ordering::SeqCst);
            i * 10
        });
        assert_eq!(out, (0..8).map(|i| i * 10).collect::<Vec<_>>());
        assert_eq!(peak.load(Ordering::SeqCst), CONCURRENCY);
    }

    #[test]
    fn statuses_map_to_exit_codes() {
        use crate::error::exit;
        let code = |status, body: &str| match answer("X", "u", status, body) {
            Ok(_) => exit::OK,
            Err(Failure::NoRoute) => -1,
            Err(Failure::Error(e)) => e.exit_code(),
        };
        assert_eq!(code(200, r#"{"ok":true}"#), exit::OK);
        assert_eq!(code(200, "<html>"), exit::DATA);
        assert_eq!(code(200, "[1]"), exit::DATA);
        assert_eq!(code(404, "404 page not found"), -1);
        assert_eq!(
            code(404, r#"{"error":"session not found"}"#),
            exit::NO_INPUT
        );
        assert_eq!(
            code(400, r#"{"error":"session_id is required"}"#),
            exit::USAGE
        );
        assert_eq!(code(500, r#"{"error":"boom"}"#), exit::UNAVAILABLE);
        assert_eq!(code(503, ""), exit::TEMP_FAIL);
        assert_eq!(
            code(
                403,
                r#"{"error":{"message":"localhost only","type":"forbidden"}}"#
            ),
            exit::UNAVAILABLE
        );
    }
}
