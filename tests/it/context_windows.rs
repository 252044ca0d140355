//! Which window each agent gets: spellings of model names, refreshes that
//! merge instead of replace and never shrink silently, Copilot's prompt
//! caps, local runtimes' num_ctx, and warnings when the window is a guess.

use crate::common::*;

use std::path::Path;

fn data(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    )
    .unwrap()
}

/// LiteLLM's table as it is served: both checked-in excerpts in one object.
fn litellm_table() -> Vec<u8> {
    let mut all: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&data("litellm_excerpt.json")).unwrap();
    let copilot: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&data("litellm_copilot_excerpt.json")).unwrap();
    all.extend(copilot);
    serde_json::to_vec(&all).unwrap()
}

fn run(root: &Path, args: &[&str]) -> (serde_json::Value, String) {
    let out = sessionctl(root).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        json_of(&out),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `limits show --offline --json AGENTS…`: (window, source, origin) each.
fn windows(root: &Path, agents: &[&str]) -> Vec<(u64, String, String)> {
    let mut args = vec!["limits", "show", "--offline", "--json"];
    args.extend(agents);
    let (v, _) = run(root, &args);
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["window"].as_u64().unwrap(),
                l["source"].as_str().unwrap().to_owned(),
                l["origin"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

fn cache(root: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(root.join(".sessionctl/limits.json")).unwrap()).unwrap()
}

fn set_config(root: &Path, session: &str, config: serde_json::Value) {
    std::fs::write(
        root.join(format!("sessions/{session}/config.json")),
        config.to_string(),
    )
    .unwrap();
}

#[test]
fn dotted_and_dated_model_ids_find_their_entry() {
    let root = fixture_copy();
    let r = root.path();
    let got = windows(
        r,
        &[
            "openrouter@anthropic/claude-opus-4.7",
            "openrouter@anthropic/claude-sonnet-4.5",
            "openrouter@anthropic/claude-3.7-sonnet:thinking",
            "openrouter@anthropic/claude-haiku-4.5",
            "claude@claude-sonnet-4-5-20250929",
            "openrouter@google/gemini-2.5-pro",
        ],
    );
    let want = [
        (1_000_000, "as claude-opus-4-7, builtin"),
        (200_000, "as claude-sonnet-4-5, builtin"),
        (200_000, "as claude-3.7-sonnet, builtin"),
        (200_000, "as claude-haiku-4-5, builtin"),
        (200_000, "as claude-sonnet-4-5, builtin"),
        (1_048_576, "builtin"),
    ];
    for (g, w) in got.iter().zip(want) {
        assert_eq!((g.0, g.1.as_str(), g.2.as_str()), (w.0, "table", w.1));
    }

    // models only LiteLLM knows, under OpenRouter's spelling
    let server = TestServer::start(|_, _| Reply::json(200, litellm_table()));
    run(
        r,
        &[
            "limits",
            "refresh",
            "--source",
            "litellm",
            "--url",
            &server.url,
            "--json",
        ],
    );
    let got = windows(
        r,
        &[
            "openrouter@anthropic/claude-opus-4.8",
            "openrouter@anthropic/claude-sonnet-4.6",
        ],
    );
    assert_eq!(
        got[0],
        (
            1_000_000,
            "table".into(),
            "as claude-opus-4-8, litellm".into()
        )
    );
    assert_eq!(got[1].0, 1_000_000);
}

const PARTIAL: &str = r#"{"claude":{"claude-sonnet-4-5":{"in":150000}},
  "openai":{"gpt-5":{"in":400000},"gpt-9":{"in":900000}},"gemini":{"gemini-2.5-flash":{"in":1048576}}}"#;

#[test]
fn a_refresh_keeps_what_the_source_lacks_and_never_shrinks_silently() {
    let server = TestServer::start(|_, _| Reply::json(200, PARTIAL));
    let root = fixture_copy();
    let r = root.path();
    let refresh = |extra: &[&str]| {
        let mut args = vec!["limits", "refresh", "--url", &server.url, "--json"];
        args.extend(extra);
        let (v, stderr) = run(r, &args);
        assert_eq!(v["command"], "limits refresh");
        let mut report = v["results"][0].clone();
        report["dry_run"] = v["dry_run"].clone();
        (report, stderr)
    };

    // --dry-run: the diff, nothing written
    let (v, _) = refresh(&["--dry-run"]);
    assert_eq!(v["dry_run"], true);
    assert_eq!(v["shrinks"][0]["model"], "claude-sonnet-4-5");
    assert_eq!(
        (
            v["shrinks"][0]["old"].as_u64(),
            v["shrinks"][0]["new"].as_u64()
        ),
        (Some(200_000), Some(150_000))
    );
    assert_eq!(v["shrinks_applied"], false);
    let changed: Vec<&str> = v["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["model"].as_str().unwrap())
        .collect();
    assert_eq!(changed, ["gpt-5", "gpt-9"]);
    assert!(!r.join(".sessionctl").exists(), "a dry run writes nothing");

    // no terminal, no --yes: grow and add, keep the larger value, say so
    let (v, stderr) = refresh(&[]);
    assert_eq!(v["shrinks_applied"], false);
    assert!(v["kept"].as_u64().unwrap() > 10, "{v}");
    assert!(
        stderr.contains("kept the larger window of 1 model(s)"),
        "{stderr}"
    );
    let c = cache(r);
    assert_eq!(c["table"]["claude"]["claude-sonnet-4-5"]["in"], 200_000);
    assert_eq!(c["table"]["openai"]["gpt-5"]["in"], 400_000);
    assert_eq!(c["table"]["openai"]["gpt-5"]["from"], "agenvoy");
    let got = windows(
        r,
        &[
            "gemini@gemini-2.5-pro",
            "claude@claude-sonnet-4",
            "claude@claude-sonnet-4-5",
            "openai@gpt-9",
        ],
    );
    let got: Vec<(u64, &str)> = got.iter().map(|g| (g.0, g.1.as_str())).collect();
    assert_eq!(
        got,
        [
            (1_048_576, "table"),
            (200_000, "table"),
            (200_000, "table"),
            (900_000, "table")
        ],
        "models the source lacks keep their built-in window"
    );

    // --yes: the shrink is applied
    let (v, _) = refresh(&["--yes"]);
    assert_eq!(v["shrinks_applied"], true);
    assert_eq!(
        cache(r)["table"]["claude"]["claude-sonnet-4-5"]["in"],
        150_000
    );
    assert_eq!(windows(r, &["claude@claude-sonnet-4-5"])[0].0, 150_000);
}

#[test]
fn a_cache_that_lost_built_in_entries_still_finds_them() {
    // written by an older sessionctl, whose refresh replaced the table
    let root = fixture_copy();
    let r = root.path();
    std::fs::create_dir_all(r.join(".sessionctl")).unwrap();
    std::fs::write(
        r.join(".sessionctl/limits.json"),
        r#"{"source":"agenvoy","url":null,"fetched_at":null,"retry_after":null,
            "table":{"gemini":{"gemini-2.5-flash":{"in":1048576}}}}"#,
    )
    .unwrap();
    assert_eq!(
        windows(r, &["gemini@gemini-2.5-pro", "claude@claude-sonnet-4"]),
        [
            (1_048_576, "table".into(), "builtin".into()),
            (200_000, "table".into(), "builtin".into())
        ]
    );
}

#[test]
fn an_automatic_refresh_never_shrinks_and_warns_once() {
    let server = TestServer::start(|_, _| Reply::json(200, PARTIAL));
    let root = fixture_copy();
    let r = root.path();
    let stale = |c: &mut serde_json::Value| {
        c["fetched_at"] =
            sessionctl::timefmt::rfc3339(chrono::Utc::now() - chrono::Duration::hours(2)).into();
    };
    let mut c = serde_json::json!({
        "source": "agenvoy", "url": server.url, "retry_after": null,
        "table": {"claude": {"claude-sonnet-4-5": {"in": 200000}, "claude-sonnet-4": {"in": 200000}}}
    });
    stale(&mut c);
    std::fs::create_dir_all(r.join(".sessionctl")).unwrap();
    std::fs::write(r.join(".sessionctl/limits.json"), c.to_string()).unwrap();

    // Only a write command refreshes a stale table (limits show reads it
    // as it is); compact with nothing to do is such a command.
    let show = || {
        let out = sessionctl(r)
            .args(["compact", "--all", "--yes", "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let (v, _) = run(r, &["limits", "show", "--json", "claude@claude-sonnet-4-5"]);
        (v, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (v, stderr) = show();
    assert_eq!(v["results"][0]["window"], 200_000);
    assert!(
        stderr.contains("offers smaller windows for 1 model(s)"),
        "{stderr}"
    );
    assert!(
        v["warnings"][0]
            .as_str()
            .unwrap()
            .contains("claude/claude-sonnet-4-5 200000 → 150000"),
        "{v}"
    );
    let mut c = cache(r);
    assert_eq!(
        c["table"]["claude"]["claude-sonnet-4"]["in"], 200_000,
        "kept"
    );
    assert_eq!(c["table"]["openai"]["gpt-5"]["in"], 400_000, "grown");

    // the next automatic refresh offers the same: no second warning
    stale(&mut c);
    std::fs::write(r.join(".sessionctl/limits.json"), c.to_string()).unwrap();
    let (_, stderr) = show();
    assert!(!stderr.contains("smaller windows"), "{stderr}");
    assert_eq!(server.hits(), 2);
}

#[test]
fn copilot_agents_get_copilots_prompt_caps() {
    let root = fixture_copy();
    let r = root.path();
    // built in: Copilot caps gpt-4o prompts at 64K (OpenAI's own window is 128K)
    assert_eq!(
        windows(r, &["copilot@gpt-4o", "openai@gpt-4o"]),
        [
            (64_000, "table".into(), "builtin".into()),
            (128_000, "table".into(), "builtin".into())
        ]
    );

    // LiteLLM's github_copilot/* entries
    let server = TestServer::start(move |req, _| match req.path.as_str() {
        "/litellm.json" => Reply::json(200, litellm_table()),
        "/models" => Reply::json(
            200,
            r#"{"data":[{"id":"gpt-4o","capabilities":{"type":"chat","limits":{"max_prompt_tokens":60000,"max_context_window_tokens":128000}}},
                        {"id":"claude-sonnet-4.5","capabilities":{"type":"chat","limits":{"max_context_window_tokens":144000}}}]}"#,
        ),
        _ => Reply::json(404, ""),
    });
    let litellm = format!("{}/litellm.json", server.url);
    run(
        r,
        &[
            "limits", "refresh", "--source", "litellm", "--url", &litellm, "--json",
        ],
    );
    let got = windows(
        r,
        &[
            "copilot@gpt-4o",
            "copilot@gpt-5.4",
            "copilot@claude-sonnet-4-6",
        ],
    );
    assert_eq!(got[0], (64_000, "table".into(), "litellm".into()));
    assert_eq!(got[1], (272_000, "table".into(), "litellm".into()));
    assert_eq!(
        got[2],
        (
            200_000,
            "table".into(),
            "as claude-sonnet-4.6, litellm".into()
        )
    );
    // the built-in `ollama` table holds cloud tags only; a local model's
    // window is its num_ctx, never one a fetched table brings
    let cached = cache(r);
    let ollama = cached["table"]["ollama"].as_object().unwrap();
    assert!(
        ollama.values().all(|m| m.get("from").is_none()),
        "{ollama:?}"
    );

    // Copilot's own /models: max_prompt_tokens wins over the whole window
    let models = format!("{}/models", server.url);
    let out = sessionctl(r)
        .env("TOK", "t")
        .args([
            "limits",
            "refresh",
            "--source",
            "copilot",
            "--token-env",
            "TOK",
        ])
        .args(["--url", &models])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = windows(r, &["copilot@gpt-4o", "copilot@claude-sonnet-4-5"]);
    assert_eq!(got[0], (60_000, "copilot".into(), "copilot /models".into()));
    assert_eq!(
        got[1],
        (
            144_000,
            "copilot".into(),
            "as claude-sonnet-4.5, copilot /models".into()
        )
    );
}

#[test]
fn local_runtimes_use_the_sessions_num_ctx_or_a_small_default() {
    let root = fixture_copy();
    let r = root.path();
    set_config(
        r,
        "tui-alice",
        serde_json::json!({"model": "ollama@qwen3:8b", "options": {"num_ctx": 32768}, "theme": "dark"}),
    );
    set_config(
        r,
        "tui-alice-2",
        serde_json::json!({"model": "compat@my-llama", "base_url": "http://127.0.0.1:8080/v1",
                           "limits": {"max_history_messages": 24, "num_ctx": 16384}}),
    );
    set_config(
        r,
        "discord-9001",
        serde_json::json!({"model": "ollama@qwen3:8b"}),
    );
    let (v, stderr) = run(r, &["limits", "show", "--offline", "--json"]);
    let rows = v["results"].as_array().unwrap();
    let row = |session: &str| {
        rows.iter()
            .find(|l| {
                l["sessions"]
                    .as_array()
                    .is_some_and(|s| s.iter().any(|x| x == session))
            })
            .unwrap()
    };
    let alice = row("tui-alice");
    assert_eq!(
        (&alice["window"], &alice["source"], &alice["origin"]),
        (
            &serde_json::json!(32768),
            &serde_json::json!("session-config"),
            &serde_json::json!("config.json options.num_ctx")
        )
    );
    assert_eq!(row("tui-alice-2")["window"], 16384);
    assert_eq!(row("tui-alice-2")["origin"], "config.json limits.num_ctx");
    let discord = row("discord-9001");
    assert_eq!(
        (&discord["window"], &discord["source"]),
        (
            &serde_json::json!(4096),
            &serde_json::json!("local-default")
        )
    );
    assert!(stderr.contains("no context size configured"), "{stderr}");
    assert_eq!(v["warnings"].as_array().unwrap().len(), 1);

    // the other shapes; compat on a remote server has no local default; a
    // cloud model's window is not a num_ctx
    for (config, want) in [
        (
            serde_json::json!({"model": "ollama@x", "num_ctx": 8192}),
            (8192, "session-config"),
        ),
        (
            serde_json::json!({"model": "llamacpp@x", "n_ctx": 12288}),
            (12288, "session-config"),
        ),
        (
            serde_json::json!({"model": "lmstudio@x"}),
            (4096, "local-default"),
        ),
        (
            serde_json::json!({"model": "compat@x", "base_url": "http://localhost:11434/v1"}),
            (4096, "local-default"),
        ),
        (
            serde_json::json!({"model": "compat@x", "base_url": "https://api.example.com/v1", "num_ctx": 8192}),
            (8192, "session-config"),
        ),
        (
            serde_json::json!({"model": "compat@x", "base_url": "https://api.example.com/v1"}),
            (128_000, "fallback"),
        ),
        (
            serde_json::json!({"model": "claude@claude-sonnet-4-5", "num_ctx": 8192}),
            (200_000, "table"),
        ),
    ] {
        set_config(r, "tui-alice-2", config.clone());
        let (v, _) = run(r, &["limits", "show", "--offline", "--json"]);
        let l = v["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["sessions"][0] == "tui-alice-2")
            .unwrap()
            .clone();
        assert_eq!(
            (l["window"].as_u64().unwrap(), l["source"].as_str().unwrap()),
            want,
            "{config}"
        );
    }

    // compact budgets with the session's num_ctx
    let (v, _) = run(
        r,
        &["--offline", "compact", "tui-alice", "--dry-run", "--json"],
    );
    let v = &v["results"][0];
    assert_eq!(
        (&v["window_source"], &v["budget"]),
        (
            &serde_json::json!("session-config"),
            &serde_json::json!(26214)
        )
    );

    // a num_ctx that is no number is bad data, named
    set_config(
        r,
        "tui-alice",
        serde_json::json!({"model": "ollama@qwen3", "options": {"num_ctx": "big"}}),
    );
    let out = sessionctl(r)
        .args(["--offline", "compact", "tui-alice", "--dry-run"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("tui-alice/config.json") && stderr.contains("options.num_ctx"),
        "{stderr}"
    );
}

#[test]
fn guessed_windows_are_said_out_loud() {
    let root = fixture_copy();
    let r = root.path();
    let (v, stderr) = run(r, &["limits", "show", "--offline", "--json", "foo@bar"]);
    assert_eq!(v["results"][0]["source"], "fallback");
    assert!(v["results"][0]["warning"]
        .as_str()
        .unwrap()
        .contains("unknown model"));
    assert_eq!(v["warnings"].as_array().unwrap().len(), 1);
    assert!(
        stderr.contains("warning: foo@bar: unknown model"),
        "{stderr}"
    );

    let (v, stderr) = run(
        r,
        &[
            "--offline",
            "compact",
            "tui-alice",
            "--for-model",
            "bogus",
            "--dry-run",
            "--json",
        ],
    );
    let v = &v["results"][0];
    assert_eq!(v["window_source"], "fallback");
    assert!(v["warnings"][0]
        .as_str()
        .unwrap()
        .contains("bogus: unknown model"));
    assert_eq!(stderr.matches("unknown model").count(), 1, "{stderr}");

    // a known model: no warning
    let (v, stderr) = run(
        r,
        &[
            "limits",
            "show",
            "--offline",
            "--json",
            "claude@claude-sonnet-4-5",
        ],
    );
    assert!(
        v["warnings"].as_array().is_some_and(|w| w.is_empty()) && !stderr.contains("warning"),
        "{stderr}"
    );
}

/// A pseudo-terminal: the slave end as a child's stdin, the master end to
/// type into.
fn pty() -> (std::fs::File, std::fs::File) {
    use std::os::fd::FromRawFd;
    // SAFETY: plain libc calls on a fresh descriptor; each result is checked.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "posix_openpt");
        assert_eq!(libc::grantpt(master), 0);
        assert_eq!(libc::unlockpt(master), 0);
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(master, name.as_mut_ptr(), name.len()), 0);
        let path = std::ffi::CStr::from_ptr(name.as_ptr())
            .to_str()
            .unwrap()
            .to_owned();
        let slave = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .unwrap();
        (std::fs::File::from_raw_fd(master), slave)
    }
}

#[test]
fn on_a_terminal_a_shrink_is_asked_about() {
    use std::io::Write;
    let server = TestServer::start(|_, _| Reply::json(200, PARTIAL));
    for (answer, applied, window) in [("n\n", false, 200_000), ("y\n", true, 150_000)] {
        let root = fixture_copy();
        let r = root.path();
        let (mut master, slave) = pty();
        master.write_all(answer.as_bytes()).unwrap();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("sessionctl"))
            .env("TZ", "UTC")
            .args(["--root"])
            .arg(r)
            .args(["limits", "refresh", "--json", "--url", &server.url])
            .stdin(slave)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("claude/claude-sonnet-4-5 200000 → 150000")
                && stderr.contains("Apply the smaller windows"),
            "{stderr}"
        );
        assert!(!stderr.contains("no terminal"), "{stderr}");
        let v = one(&out); // the question went to stderr
        assert_eq!(v["shrinks_applied"], applied, "{answer:?}");
        assert_eq!(windows(r, &["claude@claude-sonnet-4-5"])[0].0, window);
    }
}

#[test]
fn ollama_cloud_tags_get_the_models_full_window() {
    let root = fixture_copy();
    let r = root.path();
    let got = windows(
        r,
        &[
            "ollama@gpt-oss:120b-cloud",
            "ollama@qwen3-coder:480b-cloud",
            "ollama@glm-4.6:cloud",
            "ollama@deepseek-v3.1:671b-cloud",
            "ollama@gpt-oss:20b",
            "ollama@brand-new-model:cloud",
        ],
    );
    assert_eq!(
        got[0],
        (131_072, "table".into(), "as gpt-oss, builtin".into())
    );
    assert_eq!(got[1].0, 262_144, "{:?}", got[1]);
    assert_eq!(got[2].0, 202_752, "{:?}", got[2]);
    assert_eq!(got[3].0, 163_840, "{:?}", got[3]);
    // the same model run locally has the local default
    assert_eq!(got[4].0, 4_096, "{:?}", got[4]);
    assert_eq!(got[4].1, "local-default");
    // an unknown cloud model is not a local one either: the fallback (every
    // known cloud window is larger)
    assert_eq!(got[5], (128_000, "fallback".into(), "unknown model".into()));

    // a session's num_ctx does not shrink a cloud model: Ollama ignores it
    set_config(
        r,
        "tui-alice",
        serde_json::json!({"model": "ollama@qwen3-coder:480b-cloud", "options": {"num_ctx": 8192}}),
    );
    let (v, _) = run(r, &["--offline", "sessions", "list", "--json"]);
    let alice = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session"] == "tui-alice")
        .unwrap()
        .clone();
    assert_eq!(alice["budget"]["window"], 262_144, "{alice}");
    assert_eq!(alice["budget"]["window_source"], "table", "{alice}");
}

#[test]
fn a_fallback_is_never_larger_than_a_known_window_of_the_family() {
    let root = fixture_copy();
    let r = root.path();
    let got = windows(
        r,
        &[
            "openrouter@qwen/qwen-max",
            "openrouter@qwen/qwen-max-2025-01-25",
            "openrouter@qwen/qwen-next-thing",
        ],
    );
    assert_eq!(got[0], (32_768, "table".into(), "builtin".into()));
    assert_eq!(
        got[1].0, 32_768,
        "a dated snapshot of qwen-max: {:?}",
        got[1]
    );
    assert_eq!(
        got[2],
        (
            32_768,
            "family-fallback".into(),
            "smallest known qwen window, qwen-max".into()
        ),
        "not 128K while Qwen-Max has 32K"
    );
    let (v, stderr) = run(
        r,
        &[
            "limits",
            "show",
            "--offline",
            "--json",
            "openrouter@qwen/qwen-next-thing",
        ],
    );
    assert!(
        v["results"][0]["warning"]
            .as_str()
            .unwrap()
            .contains("smallest known qwen window"),
        "{v}"
    );
    assert!(
        stderr.contains("warning: openrouter@qwen/qwen-next-thing"),
        "{stderr}"
    );

    // a fetched table that knows a smaller model of the family lowers it
    let server = TestServer::start(|_, _| {
        Reply::json(
            200,
            r#"{"data":[{"id":"qwen/qwen-tiny","context_length":8192},
                        {"id":"anthropic/claude-sonnet-4.5","context_length":200000}]}"#,
        )
    });
    run(
        r,
        &[
            "limits",
            "refresh",
            "--source",
            "openrouter",
            "--url",
            &server.url,
            "--yes",
            "--json",
        ],
    );
    let got = windows(
        r,
        &[
            "openrouter@qwen/qwen-next-thing",
            "openrouter@anthropic/claude-x",
        ],
    );
    assert_eq!(got[0].0, 8_192, "{:?}", got[0]);
    // a family whose smallest window is above 128K keeps the 128K fallback
    assert_eq!(got[1], (128_000, "fallback".into(), "unknown model".into()));
}

#[test]
fn limits_show_says_where_each_window_came_from() {
    let root = fixture_copy();
    let r = root.path();
    run(
        r,
        &[
            "limits",
            "learn",
            "openai@gpt-4o",
            "--offline",
            "--json",
            "--from-error",
            "This model's maximum context length is 100000 tokens. However, your messages resulted in 140000 tokens.",
        ],
    );
    let agents = [
        "openai@gpt-4o",
        "claude@claude-opus-4.7",
        "openrouter@qwen/qwen-next-thing",
        "ollama@qwen3:8b",
        "someone@something",
        "deepseek@deepseek-flash",
    ];
    let mut args = vec!["limits", "show", "--offline", "--json"];
    args.extend(agents);
    let (v, _) = run(r, &args);
    let origins: Vec<(String, String)> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["source"].as_str().unwrap().to_owned(),
                w["origin"]
                    .as_str()
                    .expect("every window says where it came from")
                    .to_owned(),
            )
        })
        .collect();
    assert_eq!(origins[0].0, "learned");
    assert!(
        origins[0].1.starts_with("learned 20") && origins[0].1.ends_with("from an overflow error"),
        "{origins:?}"
    );
    assert_eq!(
        origins[1],
        ("table".into(), "as claude-opus-4-7, builtin".into())
    );
    assert_eq!(
        origins[2],
        (
            "family-fallback".into(),
            "smallest known qwen window, qwen-max".into()
        )
    );
    assert_eq!(
        origins[3],
        (
            "local-default".into(),
            "local runtime without num_ctx".into()
        )
    );
    assert_eq!(origins[4], ("fallback".into(), "unknown model".into()));
    assert_eq!(
        origins[5],
        ("fixed".into(), "fixed for deepseek-flash".into())
    );

    // a session's num_ctx, through the listing by sessions
    set_config(
        r,
        "tui-alice",
        serde_json::json!({"model": "ollama@qwen3:8b", "options": {"num_ctx": 32768}}),
    );
    let (v, _) = run(r, &["limits", "show", "--offline", "--json"]);
    let local = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["agent"] == "ollama@qwen3:8b")
        .unwrap()
        .clone();
    assert_eq!(
        (local["source"].as_str(), local["origin"].as_str()),
        (Some("session-config"), Some("config.json options.num_ctx")),
        "{local}"
    );

    // the text says the same, whole on a wide terminal
    let mut args = vec!["limits", "show", "--offline"];
    args.extend(agents);
    let out = sessionctl(r)
        .env("COLUMNS", "200")
        .args(&args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for said in [
        "learned: learned 20",
        "table: as claude-opus-4-7, builtin",
        "family-fallback: smallest known qwen window, qwen-max",
        "local-default: local runtime without num_ctx",
        "fallback: unknown model",
    ] {
        assert!(text.contains(said), "{said}:\n{text}");
    }
}
