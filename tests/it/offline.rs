//! `--offline` means no outbound request of any kind: every command that
//! could reach a server (embedder, window table, summarizer) is run with
//! one configured and listening on 127.0.0.1, and the server must see
//! nothing.

use crate::common::*;

fn server() -> TestServer {
    TestServer::start(|_, _| {
        Reply::json(
            200,
            r#"{"data":[{"embedding":[0.59,0.81,0.0,0.0]}],"claude":{"claude-sonnet-4-5":{"in":1000}}}"#,
        )
    })
}

fn run(root: &std::path::Path, server: &TestServer, args: &[&str]) -> std::process::Output {
    sessionctl(root)
        .env("SESSIONCTL_EMBED_BASE_URL", &server.url)
        .env("SESSIONCTL_LLM_BASE_URL", &server.url)
        .env("SESSIONCTL_LLM_MODEL", "m")
        .arg("--offline")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn no_command_asks_a_server_when_offline() {
    let server = server();
    let root = fixture_copy();
    let r = root.path();
    // A window table two hours old whose source is our server: any write
    // command would refresh it when online.
    std::fs::create_dir_all(r.join(".sessionctl")).unwrap();
    std::fs::write(
        r.join(".sessionctl/limits.json"),
        format!(
            r#"{{"source":"agenvoy","url":"{}","fetched_at":"{}","retry_after":null,"table":{{}}}}"#,
            server.url,
            sessionctl::timefmt::rfc3339(chrono::Utc::now() - chrono::Duration::hours(2))
        ),
    )
    .unwrap();
    for args in [
        &["search", "nightly log rotation", "--by", "semantic"][..],
        &["search", "nightly log rotation"],
        &["errors", "search", "permission", "--by", "semantic"],
        &["compact", "--all", "--yes"],
        &[
            "errors",
            "edit",
            "3f1c",
            "--action",
            "retry with a timeout",
            "--yes",
        ],
        &["summarize", "--all", "--yes"],
    ] {
        let out = run(r, &server, args);
        assert!(
            out.status.code().is_some_and(|c| c <= 1),
            "{args:?}: {out:?}"
        );
        assert_eq!(server.hits(), 0, "{args:?} made a request");
    }
}

#[test]
fn a_remote_summarizer_is_refused_not_replaced() {
    let server = server();
    let root = fixture_copy();
    let before = snapshot(root.path());
    let out = run(
        root.path(),
        &server,
        &["summarize", "--all", "--summarizer", "openai", "--yes"],
    );
    assert_eq!(out.status.code(), Some(64), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--offline"));
    assert_eq!(server.hits(), 0);
    assert_eq!(snapshot(root.path()), before);
}
