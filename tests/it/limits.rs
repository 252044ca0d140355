//! `limits` against a real HTTP server on 127.0.0.1 serving each source's
//! format, plus errors, slow answers and the retry-after rule.

use crate::common::*;

use std::time::Duration;

const AGENVOY_TABLE: &str = r#"{"claude":{"claude-sonnet-4-5":{"in":180000,"out":64000}},
  "openai":{"gpt-4o":{"in":128000,"out":16384}},"deepseek":{"deepseek-flash":{"in":64000}}}"#;

fn cache(root: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(root.join(".sessionctl/limits.json")).unwrap()).unwrap()
}

/// A write command: only these refresh a stale table (`limits show` and
/// dry runs read it as it is).
fn write(root: &std::path::Path) {
    let out = sessionctl(root)
        .args(["compact", "--all", "--yes", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

fn show(root: &std::path::Path, agents: &[&str], offline: bool) -> serde_json::Value {
    let mut cmd = sessionctl(root);
    cmd.args(["limits", "show", "--json"]).args(agents);
    if offline {
        cmd.arg("--offline");
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json_of(&out)
}

#[test]
fn refresh_replaces_the_cache_and_show_resolves_from_it() {
    let server = TestServer::start(|_, _| Reply::json(200, AGENVOY_TABLE));
    let root = fixture_copy();
    let r = root.path();
    // 180000 is below the built-in 200000: a shrink, applied only with --yes
    let out = sessionctl(r)
        .args(["limits", "refresh", "--url", &server.url, "--json", "--yes"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(v["source"], "agenvoy");
    assert_eq!(v["models"], 3);
    let changed: Vec<&str> = v["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["model"].as_str().unwrap())
        .collect();
    assert!(
        changed.contains(&"claude-sonnet-4-5"),
        "180000 differs from the built-in 200000"
    );

    let c = cache(r);
    assert_eq!(c["source"], "agenvoy");
    assert_eq!(c["table"]["claude"]["claude-sonnet-4-5"]["in"], 180000);
    assert!(c["fetched_at"].is_string());

    let v = show(
        r,
        &[
            "claude@claude-sonnet-4-5",
            "deepseek@deepseek-flash",
            "someone@unknown-model",
        ],
        true,
    );
    let l = v["results"].as_array().unwrap();
    assert_eq!(l[0]["window"], 180000);
    assert_eq!(l[0]["source"], "table");
    assert_eq!(l[0]["budget"], 144000);
    assert_eq!(l[0]["vendor"], "claude");
    assert!(l[0]["fetched_at"].is_string());
    assert_eq!(
        l[1]["source"], "fixed",
        "deepseek-flash is fixed, whatever the table says"
    );
    assert_eq!(l[1]["window"], 1048576);
    assert_eq!(l[2]["source"], "fallback");
    assert_eq!(l[2]["window"], 128000);
    assert_eq!(server.hits(), 1, "a fresh cache is not fetched again");
}

#[test]
fn bad_answers_never_replace_a_good_cache() {
    let root = fixture_copy();
    let r = root.path();
    let good = TestServer::start(|_, _| Reply::json(200, AGENVOY_TABLE));
    assert!(sessionctl(r)
        .args(["limits", "refresh", "--url", &good.url])
        .output()
        .unwrap()
        .status
        .success());
    let table_before = cache(r)["table"].clone();

    let cases: Vec<(Reply, i32)> = vec![
        (Reply::json(500, "oops"), 69),
        (Reply::json(404, ""), 69),
        (Reply::json(200, ""), 65),
        (Reply::json(200, &AGENVOY_TABLE[..40]), 65),
        (Reply::json(200, "<html>maintenance</html>"), 65),
        (Reply::json(200, "{}"), 65),
        (Reply::json(200, r#"{"openai":["gpt-4o"]}"#), 65),
    ];
    for (reply, code) in cases {
        let body = reply.body.clone();
        let status = reply.status;
        let reply = std::sync::Mutex::new(Some(reply));
        let server = TestServer::start(move |_, _| {
            reply.lock().unwrap().take().unwrap_or(Reply::json(500, ""))
        });
        let out = sessionctl(r)
            .args(["limits", "refresh", "--url", &server.url])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(code),
            "HTTP {status} {:?}: {}",
            String::from_utf8_lossy(&body),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stderr).contains(&server.url));
        assert_eq!(cache(r)["table"], table_before, "the good table is kept");
    }
}

#[test]
fn a_slow_source_times_out_with_69() {
    let server = TestServer::start(|_, _| Reply {
        delay: Duration::from_secs(4),
        ..Reply::json(200, AGENVOY_TABLE)
    });
    let root = fixture_copy();
    let started = std::time::Instant::now();
    let out = sessionctl(root.path())
        .args(["limits", "refresh", "--url", &server.url, "--timeout", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(69));
    assert!(String::from_utf8_lossy(&out.stderr).contains("timed out"));
    assert!(started.elapsed() < Duration::from_secs(4));
}

#[test]
fn a_stale_cache_refreshes_itself_once_and_a_failure_waits_five_minutes() {
    let root = fixture_copy();
    let r = root.path();
    let failing = TestServer::start(|_, _| Reply::json(503, "down"));
    // a cache fetched two hours ago from the failing source
    let mut c: serde_json::Value = serde_json::from_str(&format!(
        r#"{{"source":"agenvoy","url":"{}","fetched_at":"{}","retry_after":null,
            "table":{{"claude":{{"claude-sonnet-4-5":{{"in":150000}}}}}}}}"#,
        failing.url,
        sessionctl::timefmt::rfc3339(chrono::Utc::now() - chrono::Duration::hours(2))
    ))
    .unwrap();
    std::fs::create_dir_all(r.join(".sessionctl")).unwrap();
    std::fs::write(r.join(".sessionctl/limits.json"), c.to_string()).unwrap();

    write(r);
    let v = show(r, &["claude@claude-sonnet-4-5"], false);
    assert_eq!(v["results"][0]["window"], 150000, "the stale table serves");
    assert_eq!(failing.hits(), 1);
    let after = cache(r);
    let retry: chrono::DateTime<chrono::Utc> =
        after["retry_after"].as_str().unwrap().parse().unwrap();
    let wait = retry - chrono::Utc::now();
    assert!(
        wait > chrono::Duration::minutes(4) && wait <= chrono::Duration::minutes(5),
        "{wait}"
    );
    assert_eq!(after["table"], c["table"]);

    // no fetch before retry_after
    write(r);
    assert_eq!(failing.hits(), 1);

    // once it has passed (and the source is back), the next command refreshes
    let healthy = TestServer::start(|_, _| Reply::json(200, AGENVOY_TABLE));
    c["url"] = healthy.url.clone().into();
    c["retry_after"] =
        sessionctl::timefmt::rfc3339(chrono::Utc::now() - chrono::Duration::seconds(1)).into();
    std::fs::write(r.join(".sessionctl/limits.json"), c.to_string()).unwrap();
    write(r);
    let v = show(r, &["claude@claude-sonnet-4-5"], false);
    assert_eq!(v["results"][0]["window"], 180000);
    assert_eq!(healthy.hits(), 1);
    assert!(cache(r)["retry_after"].is_null());
}

#[test]
fn offline_never_fetches() {
    let server = TestServer::start(|_, _| Reply::json(200, AGENVOY_TABLE));
    let root = fixture_copy();
    let r = root.path();
    std::fs::create_dir_all(r.join(".sessionctl")).unwrap();
    std::fs::write(
        r.join(".sessionctl/limits.json"),
        format!(r#"{{"source":"agenvoy","url":"{}","fetched_at":null,"retry_after":null,"table":{{}}}}"#, server.url),
    )
    .unwrap();
    // (a model the built-in table does not know either, which an empty
    // cached table falls back to)
    let v = show(r, &["claude@claude-opus-9"], true);
    assert_eq!(v["results"][0]["source"], "fallback");
    assert_eq!(server.hits(), 0);
    let out = sessionctl(r)
        .args(["limits", "refresh", "--offline"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
}

#[test]
fn every_source_maps_to_vendor_keys() {
    let litellm = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/litellm_excerpt.json"
    ))
    .unwrap();
    let server = TestServer::start(move |req, _| match req.path.as_str() {
        "/litellm.json" => Reply::json(200, litellm.clone()),
        "/api.json" => Reply::json(
            200,
            r#"{"anthropic":{"models":{"claude-sonnet-4-5":{"limit":{"context":200000,"output":64000}}}},
                "google":{"models":{"gemini-2.5-pro":{"limit":{"context":1048576}}}}}"#,
        ),
        "/api/v1/models" => Reply::json(
            200,
            r#"{"data":[{"id":"anthropic/claude-3.7-sonnet","context_length":190000},{"id":"x-ai/grok-4","context_length":256000}]}"#,
        ),
        "/models" => {
            if req.header("authorization") != Some("Bearer tok-123") {
                return Reply::json(401, "no token");
            }
            Reply::json(
                200,
                r#"{"data":[{"id":"gpt-5","capabilities":{"type":"chat","limits":{"max_prompt_tokens":128000,"max_context_window_tokens":264000}}}]}"#,
            )
        }
        _ => Reply::json(404, ""),
    });
    let root = fixture_copy();
    let r = root.path();
    let refresh = |source: &str, path: &str| {
        let out = sessionctl(r)
            .env("COPILOT_TOKEN", "tok-123")
            .args([
                "limits",
                "refresh",
                "--yes",
                "--source",
                source,
                "--url",
                &format!("{}{path}", server.url),
            ])
            .args(if source == "copilot" {
                &["--token-env", "COPILOT_TOKEN"][..]
            } else {
                &[]
            })
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{source}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };

    refresh("litellm", "/litellm.json");
    let v = show(r, &["openai@gpt-4o", "gemini@gemini-2.5-pro"], true);
    assert_eq!(v["results"][0]["window"], 128000);
    assert_eq!(v["results"][1]["window"], 1048576);
    assert_eq!(cache(r)["source"], "litellm");

    refresh("models.dev", "/api.json");
    assert_eq!(
        show(r, &["claude@claude-sonnet-4-5"], true)["results"][0]["window"],
        200000
    );

    refresh("openrouter", "/api/v1/models");
    let v = show(
        r,
        &[
            "openrouter@anthropic/claude-3.7-sonnet",
            "openrouter@x-ai/grok-4",
        ],
        true,
    );
    assert_eq!(v["results"][0]["window"], 190000);
    assert_eq!(v["results"][1]["vendor"], "grok");

    refresh("copilot", "/models");
    let v = show(r, &["copilot@gpt-5"], true);
    assert_eq!(
        (
            v["results"][0]["window"].as_u64(),
            v["results"][0]["source"].as_str()
        ),
        (Some(128000), Some("copilot"))
    );
    // the Copilot refresh did not replace the vendor table
    assert_eq!(cache(r)["source"], "openrouter");
    let seen = server.requests.lock().unwrap();
    let copilot = seen.iter().find(|q| q.path == "/models").unwrap();
    assert_eq!(copilot.header("editor-version"), Some("vscode/1.95.0"));
}

#[test]
fn learn_stores_smaller_limits_only() {
    let root = fixture_copy();
    let r = root.path();
    let out = sessionctl(r)
        .args(["limits", "learn", "claude@claude-sonnet-4-5", "--json", "--offline", "--from-error"])
        .arg("input length and `max_tokens` exceed context limit: 187254 + 20000 > 200000, decrease input length")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(
        (v["learned"].as_u64(), v["stored"].as_bool()),
        (Some(180000), Some(true))
    );
    assert_eq!(v["budget"], 144000);
    let s = show(r, &[], true);
    let alice = s["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["agent"] == "claude@claude-sonnet-4-5")
        .unwrap();
    assert_eq!(
        alice["source"], "learned",
        "sessions' models are shown by default"
    );

    // a larger value is not stored
    let out = sessionctl(r)
        .args([
            "limits",
            "learn",
            "claude@claude-sonnet-4-5",
            "--json",
            "--from-error",
            "-",
        ])
        .write_stdin("prompt is too long: 210312 tokens > 190000 maximum")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(one(&out)["stored"], false);
}

#[test]
fn learn_without_a_limit_is_65_and_stores_nothing() {
    let root = fixture_copy();
    let r = root.path();
    let out = sessionctl(r)
        .args([
            "limits",
            "learn",
            "openai@gpt-4o",
            "--from-error",
            "rate limit reached for requests",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65));
    assert!(!r.join(".sessionctl/limits.json").exists());
}
