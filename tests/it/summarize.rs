//! `summarize`: the offline summarizer (golden files) and the OpenAI /
//! Anthropic backends against a real HTTP server on 127.0.0.1.

use crate::common::*;

use std::time::Duration;

use serde_json::{json, Value};

fn summary(root: &std::path::Path, id: &str) -> Value {
    serde_json::from_slice(
        &std::fs::read(root.join(format!("sessions/{id}/summary.json"))).unwrap(),
    )
    .unwrap()
}

fn cursor(root: &std::path::Path, id: &str) -> Option<String> {
    let bytes = std::fs::read(root.join(format!("sessions/{id}/summary.meta.json"))).ok()?;
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    v["last_message_time"].as_str().map(str::to_owned)
}

/// Replace tui-alice's history with `n` exchanges a minute apart (UTC),
/// archived as Agenvoy archives every record it appends.
fn long_history(root: &std::path::Path, n: usize) {
    let mut records = Vec::new();
    for i in 0..n {
        let t = 1_764_547_200_000_000_000i64 + (i as i64) * 60_000_000_000;
        let topic = [
            "nginx log rotation",
            "postgres backups",
            "disk alerts",
            "certificate renewal",
        ][i / 3 % 4];
        records.push(json!({"role":"user","content":format!("About {topic}: step {i}. Always keep a copy of the config before changing it."),"sendAt":t,"sender":"alice"}));
        records.push(json!({"role":"assistant","content":format!("For {topic}, step {i}: run the check first. Then apply the change."),"sendAt":t + 5_000_000_000i64}));
    }
    std::fs::write(
        root.join("sessions/tui-alice/history.json"),
        serde_json::to_vec_pretty(&records).unwrap(),
    )
    .unwrap();
    archive_as_agenvoy(root, "tui-alice", &records);
    std::fs::remove_file(root.join("sessions/tui-alice/summary.meta.json")).ok();
    std::fs::remove_file(root.join("sessions/tui-alice/summary.json")).ok();
}

/// The session's archive rows are exactly `records`, in order.
fn archive_as_agenvoy(root: &std::path::Path, session: &str, records: &[Value]) {
    sqlite(root)
        .execute("DELETE FROM messages WHERE session_id = ?1", [session])
        .unwrap();
    archive_records(root, session, records);
}

const GOOD: &str = r#"{"key_decisions":["要：keep 14 days"],"past_discussions":[],"current_discussion":{"topic":"logs","description":"d","perspectives":"","direction":"x"}}"#;

fn openai_reply(text: &str) -> Reply {
    Reply::json(
        200,
        json!({"choices":[{"message":{"role":"assistant","content":text}}]}).to_string(),
    )
}

fn run(root: &std::path::Path, server: &TestServer, args: &[&str]) -> std::process::Output {
    sessionctl(root)
        .env("SESSIONCTL_LLM_BASE_URL", &server.url)
        .env("SESSIONCTL_LLM_MODEL", "test-model")
        .env("SESSIONCTL_LLM_API_KEY", "sk-secret-123")
        .arg("summarize")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn offline_golden_on_the_fixture_sessions() {
    let root = fixture_copy();
    let r = root.path();
    let out = sessionctl(r)
        .args(["summarize", "--all", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = results(&out);
    let alice = v.iter().find(|x| x["session"] == "tui-alice").unwrap();
    assert_eq!(alice["count"], 2, "the cursor sits after the second record");
    assert_eq!(alice["summarizer"], "offline");
    assert_eq!(alice["cursor"], "2025-12-01 00:01:50");
    for id in ["tui-alice", "discord-9001", "tui-alice-2"] {
        insta::assert_snapshot!(
            format!("offline_{id}"),
            serde_json::to_string_pretty(&summary(r, id)).unwrap()
        );
    }
    // useful, not filler: "keep 14 days of them, compressed" restates the
    // decision Agenvoy already recorded, so it is not added a second time
    let alice = summary(r, "tui-alice");
    assert_eq!(
        alice["key_decisions"],
        json!(["要：nightly logrotate, 14 days, compressed"])
    );
    assert!(alice["current_discussion"]["direction"]
        .as_str()
        .unwrap()
        .contains("rotate 14"));
    let discord = summary(r, "discord-9001");
    assert!(discord["current_discussion"]["direction"]
        .as_str()
        .unwrap()
        .contains("fetch_page"));
    assert!(sessionctl::store::summary::is_valid(
        discord.as_object().unwrap()
    ));
}

#[test]
fn offline_golden_on_a_long_session_is_deterministic() {
    let mut outputs = Vec::new();
    for _ in 0..2 {
        let root = fixture_copy();
        long_history(root.path(), 40);
        let out = sessionctl(root.path())
            .args(["summarize", "tui-alice", "--chunk-chars", "1500", "--json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = one(&out);
        assert_eq!(v["count"], 80);
        assert!(v["chunks"].as_u64().unwrap() > 3);
        outputs.push(std::fs::read(root.path().join("sessions/tui-alice/summary.json")).unwrap());
    }
    assert_eq!(outputs[0], outputs[1], "same input, byte-identical output");
    let s: Value = serde_json::from_slice(&outputs[0]).unwrap();
    assert!(s["past_discussions"].as_array().unwrap().len() <= 8);
    assert!(s["key_decisions"].as_array().unwrap().len() <= 8);
    insta::assert_snapshot!(
        "offline_long_session",
        String::from_utf8(outputs[0].clone()).unwrap()
    );
}

#[test]
fn openai_backend_sends_what_we_expect_and_writes_the_reply() {
    let server =
        TestServer::start(|_, _| openai_reply(&format!("Sure.\n<summary>{GOOD}</summary>")));
    let root = fixture_copy();
    let r = root.path();
    let out = run(
        r,
        &server,
        &["tui-alice", "--summarizer", "openai", "--json"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(one(&out)["count"], 2);
    assert_eq!(
        summary(r, "tui-alice")["key_decisions"][0],
        "要：keep 14 days"
    );
    assert_eq!(
        cursor(r, "tui-alice").as_deref(),
        Some("2025-12-01 00:01:50")
    );
    let reqs = server.requests.lock().unwrap();
    assert_eq!(reqs.len(), 1);
    let q = &reqs[0];
    assert_eq!(
        (q.method.as_str(), q.path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(q.header("authorization"), Some("Bearer sk-secret-123"));
    let body: Value = serde_json::from_str(&q.body).unwrap();
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(body["messages"][1]["role"], "user");
    let user = body["messages"][1]["content"].as_str().unwrap();
    assert!(
        user.contains("[user] (2025-12-01 00:01:40) And keep 14 days of them, compressed."),
        "{user}"
    );
    assert!(
        !user.contains("How do I rotate"),
        "records before the cursor are not sent again"
    );
}

#[test]
fn anthropic_backend_wire_format() {
    let server = TestServer::start(|_, _| {
        Reply::json(
            200,
            json!({"content":[{"type":"text","text":format!("```json\n{GOOD}\n```")}]}).to_string(),
        )
    });
    let root = fixture_copy();
    let out = run(
        root.path(),
        &server,
        &["tui-alice", "--summarizer", "anthropic"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reqs = server.requests.lock().unwrap();
    let q = &reqs[0];
    assert_eq!(q.path, "/v1/messages");
    assert_eq!(q.header("x-api-key"), Some("sk-secret-123"));
    assert_eq!(q.header("anthropic-version"), Some("2023-06-01"));
    let body: Value = serde_json::from_str(&q.body).unwrap();
    assert!(body["system"].as_str().unwrap().contains("key_decisions"));
    assert_eq!(body["messages"][0]["role"], "user");
    assert!(body["max_tokens"].as_u64().unwrap() > 0);
    assert_eq!(
        summary(root.path(), "tui-alice")["current_discussion"]["topic"],
        "logs"
    );
}

#[test]
fn a_malformed_reply_is_repaired_once_then_fails_without_touching_the_summary() {
    // first bad, then good: succeeds with a repair request
    let server = TestServer::start(|_, n| {
        if n == 1 {
            openai_reply("I think the summary is fine.")
        } else {
            openai_reply(GOOD)
        }
    });
    let root = fixture_copy();
    let out = run(
        root.path(),
        &server,
        &["tui-alice", "--summarizer", "openai"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reqs = server.requests.lock().unwrap();
    assert_eq!(reqs.len(), 2);
    assert!(reqs[1].body.contains("was not a valid summary"));
    drop(reqs);

    // always bad: exit 65, the reply kept, summary.json and cursor unchanged
    let server = TestServer::start(|_, _| openai_reply("{\"oops\": true}"));
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    let kept = r.join("failed-reply.txt");
    let out = run(
        r,
        &server,
        &[
            "tui-alice",
            "--summarizer",
            "openai",
            "--keep-failed",
            kept.to_str().unwrap(),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(65),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "{\"oops\": true}");
    std::fs::remove_file(&kept).unwrap();
    assert_eq!(before, snapshot(r));
}

#[test]
fn rate_limits_are_retried_honouring_retry_after() {
    let server = TestServer::start(|_, n| {
        if n == 1 {
            let mut r = Reply::json(429, r#"{"error":{"message":"Rate limit reached"}}"#);
            r.headers.push(("Retry-After".into(), "1".into()));
            r
        } else {
            openai_reply(GOOD)
        }
    });
    let root = fixture_copy();
    let started = std::time::Instant::now();
    let out = run(
        root.path(),
        &server,
        &["tui-alice", "--summarizer", "openai"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(server.hits(), 2);
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After was honoured"
    );
}

#[test]
fn a_context_length_error_halves_the_chunk_and_teaches_the_limit() {
    let server = TestServer::start(|req, _| {
        let records = req.body.matches("[user]").count() + req.body.matches("[assistant]").count();
        if records > 2 {
            Reply::json(
                400,
                r#"{"error":{"message":"This model's maximum context length is 4096 tokens. However, your messages resulted in 5000 tokens.","code":"context_length_exceeded"}}"#,
            )
        } else {
            openai_reply(GOOD)
        }
    });
    let root = fixture_copy();
    let r = root.path();
    long_history(r, 3);
    let out = run(
        r,
        &server,
        &["tui-alice", "--summarizer", "openai", "--json"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(v["count"], 6);
    assert_eq!(v["chunks"], 3, "6 records in pairs after halving");
    let limits: Value =
        serde_json::from_slice(&std::fs::read(r.join(".sessionctl/limits.json")).unwrap()).unwrap();
    assert_eq!(limits["learned"]["openai@test-model"]["limit"], 4096);
    // what the run learned is part of it: undo forgets it with the merge
    let undo = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
    assert!(
        undo.status.success(),
        "{}",
        String::from_utf8_lossy(&undo.stderr)
    );
    let limits: Value =
        serde_json::from_slice(&std::fs::read(r.join(".sessionctl/limits.json")).unwrap()).unwrap();
    assert!(limits["learned"]["openai@test-model"].is_null(), "{limits}");
}

#[test]
fn a_hanging_server_times_out_with_69() {
    let server = TestServer::start(|_, _| Reply {
        delay: Duration::from_secs(5),
        ..openai_reply(GOOD)
    });
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    let started = std::time::Instant::now();
    let out = run(
        r,
        &server,
        &["tui-alice", "--summarizer", "openai", "--llm-timeout", "1"],
    );
    assert_eq!(
        out.status.code(),
        Some(69),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("timed out") && err.contains(&server.url),
        "{err}"
    );
    assert_eq!(before, snapshot(r));
}

#[test]
fn a_failure_on_chunk_two_keeps_chunk_one_and_a_rerun_continues() {
    let root = fixture_copy();
    let r = root.path();
    long_history(r, 6); // 12 records
    let chunk = ["--chunk-chars", "300"];
    let failing = TestServer::start(|_, n| {
        if n == 1 {
            openai_reply(GOOD)
        } else {
            Reply::json(400, r#"{"error":{"message":"bad request"}}"#)
        }
    });
    let mut args = vec!["tui-alice", "--summarizer", "openai"];
    args.extend(chunk);
    let out = run(r, &failing, &args);
    assert_eq!(
        out.status.code(),
        Some(69),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("a rerun continues"));
    let after_one = cursor(r, "tui-alice").expect("chunk 1 moved the cursor");
    assert_eq!(
        summary(r, "tui-alice")["key_decisions"][0],
        "要：keep 14 days"
    );

    let good = TestServer::start(|_, _| openai_reply(GOOD));
    let mut args = vec!["tui-alice", "--summarizer", "openai", "--json"];
    args.extend(chunk);
    let out = run(r, &good, &args);
    assert!(out.status.success());
    let v = one(&out);
    assert_eq!(v["cursor_before"], after_one.as_str());
    let first = v["count"].as_u64().unwrap();
    assert!(
        first > 0 && first < 12,
        "only what chunk 1 did not merge: {first}"
    );
    assert_eq!(v["cursor"], "2025-12-01 00:05:05");
    // every record was merged exactly once over the two runs
    let first_run: u64 = 12 - first;
    assert_eq!(first_run + first, 12);
}

#[test]
fn the_api_key_is_never_printed() {
    let server =
        TestServer::start(|_, _| Reply::json(401, r#"{"error":"invalid key sk-secret-123"}"#));
    let root = fixture_copy();
    let out = sessionctl(root.path())
        .env("SESSIONCTL_LLM_BASE_URL", &server.url)
        .env("SESSIONCTL_LLM_API_KEY", "sk-secret-123")
        .args([
            "-v",
            "summarize",
            "tui-alice",
            "--summarizer",
            "openai",
            "--llm-model",
            "m",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(69));
    let err = String::from_utf8_lossy(&out.stderr);
    // the server echoed it back; we must not pass on more than the status line
    assert!(
        err.contains("openai backend at") && err.contains("401"),
        "{err}"
    );
    assert!(!err.contains("sk-secret-123"), "{err}");
}

#[test]
fn remote_summarizers_need_a_model() {
    let root = fixture_copy();
    let out = sessionctl(root.path())
        .args(["summarize", "tui-alice", "--summarizer", "openai"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
}

#[test]
fn reset_summary_refreshes_first_and_aborts_when_that_fails() {
    // a failing backend: nothing is cleared
    let server =
        TestServer::start(|_, _| Reply::json(400, r#"{"error":{"message":"model not found"}}"#));
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    let out = sessionctl(r)
        .env("SESSIONCTL_LLM_BASE_URL", &server.url)
        .args([
            "reset",
            "tui-alice",
            "--mode",
            "summary",
            "--yes",
            "--summarizer",
            "openai",
            "--llm-model",
            "m",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(69));
    assert!(String::from_utf8_lossy(&out.stderr).contains("summary refresh failed; reset aborted"));
    assert_eq!(before, snapshot(r), "nothing cleared");
    assert_eq!(archive_count(r, "tui-alice"), 4);

    // offline: the two records after the cursor are merged, then the reset runs
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "summary", "--yes"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        cursor(r, "tui-alice").as_deref(),
        Some("2025-12-01 00:01:50")
    );
    assert!(summary(r, "tui-alice")["key_decisions"]
        .to_string()
        .contains("14 days"));
    assert!(!r.join("sessions/tui-alice/history.json").exists());
}

#[test]
fn compact_fold_merges_what_leaves_into_the_summary() {
    let root = fixture_copy();
    let r = root.path();
    long_history(r, 30);
    let out = sessionctl(r)
        .args([
            "--offline",
            "compact",
            "tui-alice",
            "--budget",
            "600",
            "--fold",
            "--yes",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(v["stages"][0]["stage"], "fold");
    let removed = v["removed_records"].as_u64().unwrap();
    assert!(removed > 0);
    assert_eq!(
        v["stages"][0]["removed"].as_u64(),
        Some(removed),
        "every removed record was folded"
    );
    // the cursor sits on the last removed record, so a summarize run later
    // merges only what is still in history.json
    let kept: Vec<Value> =
        serde_json::from_slice(&std::fs::read(r.join("sessions/tui-alice/history.json")).unwrap())
            .unwrap();
    let s = summary(r, "tui-alice");
    assert!(sessionctl::store::summary::is_valid(s.as_object().unwrap()));
    let out = sessionctl(r)
        .args(["summarize", "tui-alice", "--json", "--dry-run"])
        .output()
        .unwrap();
    assert_eq!(one(&out)["count"].as_u64(), Some(kept.len() as u64));
}

/// The recipe for a local model (an Ollama, here a loopback fake speaking
/// the same OpenAI-compatible API): `--base-url …/v1 --model NAME`. The
/// request names the model, carries Agenvoy's summary schema in the system
/// prompt and the character budget of the conversation merged so far in
/// the user message; the reply is what summary.json becomes.
#[test]
fn a_local_model_gets_the_schema_and_the_budget_and_its_reply_is_applied() {
    const REPLY: &str = r#"{"key_decisions":["要：keep a copy of every config before changing it","不要：skip the check"],"past_discussions":[{"topic":"nginx log rotation","description":"Rotation steps were walked through.","direction":"Done.","last_discussed":"2025-12-01 00:10"}],"current_discussion":{"topic":"postgres backups","description":"Steps 60 to 89.","perspectives":"","direction":"Run the check first, then apply the change."}}"#;
    let server =
        TestServer::start(|_, _| openai_reply(&format!("Here it is.\n<summary>{REPLY}</summary>")));
    let root = fixture_copy();
    let r = root.path();
    long_history(r, 90);
    let history: Vec<Value> =
        serde_json::from_slice(&std::fs::read(r.join("sessions/tui-alice/history.json")).unwrap())
            .unwrap();
    let source: usize = history
        .iter()
        .map(|h| h["content"].as_str().unwrap().chars().count())
        .sum();
    let base_url = format!("{}/v1", server.url);
    let out = sessionctl(r)
        .args([
            "summarize",
            "tui-alice",
            "--summarizer",
            "openai",
            "--base-url",
            &base_url,
            "--model",
            "qwen3:8b",
            "--chunk-chars",
            "1000000",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(one(&out)["count"], 180);
    let reqs = server.requests.lock().unwrap();
    assert_eq!(reqs.len(), 1, "one chunk");
    let q = &reqs[0];
    assert_eq!(
        (q.method.as_str(), q.path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(q.header("authorization"), None, "no key was configured");
    let body: Value = serde_json::from_str(&q.body).unwrap();
    assert_eq!(body["model"], "qwen3:8b");
    let system = body["messages"][0]["content"].as_str().unwrap();
    for part in [
        "key_decisions",
        "要：",
        "不要：",
        "A reversal replaces the old entry",
        "past_discussions",
        "last_discussed",
        "YYYY-MM-DD HH:mm",
        "current_discussion",
        "perspectives",
        "At most 8",
        "<summary>",
    ] {
        assert!(
            system.contains(part),
            "{part:?} not in the system prompt: {system}"
        );
    }
    // the budget: a fifth of the conversation, 2,000 to 4,000 characters
    let user = body["messages"][1]["content"].as_str().unwrap();
    let budget = sessionctl::llm::summary_budget(Some(source));
    assert!(
        (2_000..4_000).contains(&budget),
        "the fixture is in the 'fifth' range: {budget} for {source}"
    );
    assert!(
        user.contains(&format!("under {budget} characters")),
        "the budget {budget} is not in the request: {}",
        &user[user.len().saturating_sub(400)..]
    );
    assert!(user.contains("[user] (2025-12-01 00:00:00) About nginx log rotation: step 0."));
    drop(reqs);
    let written = summary(r, "tui-alice");
    assert_eq!(written, serde_json::from_str::<Value>(REPLY).unwrap());
}

/// `--model` is the recipe's spelling of `--llm-model`; both at once is a
/// usage error, not a silent choice.
#[test]
fn model_and_llm_model_conflict() {
    let root = fixture_copy();
    let out = sessionctl(root.path())
        .args([
            "summarize",
            "tui-alice",
            "--summarizer",
            "openai",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--model",
            "a",
            "--llm-model",
            "b",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(64),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
