//! Plain HTTP GETs for tables the tool fetches (window limits). Failures are
//! `Unavailable` (exit 69) so scripts can tell "network" from "bad data".

use std::io::Read;
use std::time::Duration;

use crate::error::{Error, Result};

/// Bodies larger than this are refused rather than buffered.
const MAX_BODY: u64 = 64 * 1024 * 1024;

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
    let mut body = Vec::new();
    resp.take(MAX_BODY + 1)
        .read_to_end(&mut body)
        .map_err(|e| Error::unavailable(format!("GET {url}: reading the answer: {e}")))?;
    if body.len() as u64 > MAX_BODY {
        return Err(Error::unavailable(format!(
            "GET {url}: answer larger than {MAX_BODY} bytes"
        )));
    }
    Ok(body)
}
