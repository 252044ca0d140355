//! While Agenvoy's daemon runs for the root, writes go through
//! its API. Each test starts a real HTTP server on 127.0.0.1 speaking the
//! daemon's protocol, makes "Agenvoy is running" real (a live process named
//! agenvoy whose pid is in runtime.uid), and checks the request the server
//! got (method, path, body) and that no file under the root changed.

use crate::common::*;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{json, Value};

/// A root whose daemon runs: the fixture, its pid in runtime.uid.
struct Running {
    root: tempfile::TempDir,
    _agenvoy: FakeProcess,
}

impl Running {
    fn new() -> Running {
        let root = fixture_copy();
        // a small window, so compact has work in tui-alice by default
        small_window(root.path(), "tui-alice");
        let agenvoy = FakeProcess::spawn("agenvoy", root.path(), root.path());
        agenvoy.write_runtime_uid(root.path());
        Running {
            root,
            _agenvoy: agenvoy,
        }
    }

    fn path(&self) -> &Path {
        self.root.path()
    }

    fn run(&self, server: &str, args: &[&str]) -> Output {
        sessionctl(self.path())
            .env("AGENVOY_DAEMON_URL", server)
            .arg("--offline")
            .args(args)
            .timeout(std::time::Duration::from_secs(30))
            .output()
            .unwrap()
    }
}

fn small_window(root: &Path, session: &str) {
    std::fs::write(
        root.join("sessions").join(session).join("config.json"),
        r#"{"model":"ollama@qwen3","options":{"num_ctx":256}}"#,
    )
    .unwrap();
}

/// A daemon answering every request with `status` and `body` (JSON).
fn daemon(status: u16, body: &'static str) -> TestServer {
    TestServer::start(move |_, _| Reply::json(status, body))
}

fn seen(server: &TestServer) -> Vec<(String, String, Value)> {
    server
        .requests
        .lock()
        .unwrap()
        .iter()
        .map(|r| {
            let body = serde_json::from_str(&r.body).unwrap_or(Value::Null);
            (r.method.clone(), r.path.clone(), body)
        })
        .collect()
}

/// The tree without the Trash: what the daemon path may never change.
fn outside_trash(root: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut s = snapshot(root);
    s.retain(|p, _| !p.starts_with("sessions/.Trash"));
    s
}

#[test]
fn compact_goes_through_the_daemon() {
    let env = Running::new();
    let r = env.path();
    let server = daemon(200, r#"{"ok":true,"action":"compact","removed":7}"#);
    let before = snapshot(r);
    let out = env.run(&server.url, &["compact", "tui-alice", "--yes", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = one(&out);
    assert_eq!(v["via"], "daemon", "{v}");
    assert_eq!(v["removed_records"], 7);
    assert_eq!(
        seen(&server),
        [(
            "POST".into(),
            "/v1/session/tui-alice/memory".into(),
            json!({"action": "compact"})
        )]
    );
    assert_eq!(before, snapshot(r), "the daemon owns the files");
}

#[test]
fn an_older_daemon_compacts_in_the_background_and_refuses_summary() {
    let env = Running::new();
    let r = env.path();
    let server = TestServer::start(|req, _| {
        if req.path.ends_with("/compact") {
            Reply::json(202, r#"{"ok":true,"started":true}"#)
        } else {
            let mut reply = Reply::json(404, "404 page not found");
            reply.headers = vec![("Content-Type".into(), "text/plain".into())];
            reply
        }
    });
    let before = snapshot(r);
    let out = env.run(&server.url, &["compact", "tui-alice", "--yes", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = one(&out);
    assert_eq!((&v["started"], &v["via"]), (&json!(true), &json!("daemon")));
    let paths: Vec<String> = seen(&server).into_iter().map(|s| s.1).collect();
    assert_eq!(
        paths,
        [
            "/v1/session/tui-alice/memory",
            "/v1/session/tui-alice/compact"
        ]
    );

    let out = env.run(&server.url, &["summarize", "tui-alice"]);
    assert_eq!(out.status.code(), Some(75), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no memory endpoint"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("--via files"), "{}", stderr(&out));
    assert_eq!(before, snapshot(r));
}

#[test]
fn summarize_goes_through_the_daemon() {
    let env = Running::new();
    let r = env.path();
    let server = daemon(200, r#"{"ok":true,"action":"summary","count":2}"#);
    let before = snapshot(r);
    let out = env.run(&server.url, &["summarize", "tui-alice", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = one(&out);
    assert_eq!((&v["count"], &v["via"]), (&json!(2), &json!("daemon")));
    assert_eq!(
        seen(&server),
        [(
            "POST".into(),
            "/v1/session/tui-alice/memory".into(),
            json!({"action": "summary"})
        )]
    );
    assert_eq!(before, snapshot(r));
}

#[test]
fn reset_through_the_daemon_keeps_what_it_deletes_in_the_trash() {
    let env = Running::new();
    let r = env.path();
    let server = daemon(200, r#"{"ok":true,"action":"reset","removed":5}"#);
    let history = std::fs::read(r.join("sessions/tui-alice/history.json")).unwrap();
    let before = outside_trash(r);
    let out = env.run(
        &server.url,
        &["reset", "tui-alice", "--mode", "all", "--yes", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = one(&out);
    assert_eq!(
        (&v["via"], &v["removed_torii_keys"]),
        (&json!("daemon"), &json!(5))
    );
    assert_eq!(
        seen(&server),
        [(
            "POST".into(),
            "/v1/session/tui-alice/memory".into(),
            json!({"action": "reset", "mode": "all"})
        )]
    );
    assert_eq!(before, outside_trash(r), "only the Trash gained");
    let trash = PathBuf::from(v["trash"].as_str().unwrap());
    assert!(trash.starts_with(r.join("sessions/.Trash")));
    assert_eq!(std::fs::read(trash.join("history.json")).unwrap(), history);
    assert!(trash.join("summary.json").exists(), "--mode all takes it");
    let rows = std::fs::read_to_string(trash.join("archive.jsonl")).unwrap();
    assert_eq!(rows.lines().count() as i64, archive_count(r, "tui-alice"));
    let keys = std::fs::read_to_string(trash.join("torii-db1.jsonl")).unwrap();
    let live = db1_keys(r)
        .iter()
        .filter(|k| k.starts_with("tui-alice:"))
        .count();
    assert_eq!(keys.lines().count(), live);
    assert_sealed_and_logged(r, "tui-alice", "reset");
}

/// The entry a daemon write kept is a bundle `undo` can restore once
/// Agenvoy is stopped, and the operation log says where it is.
fn assert_sealed_and_logged(r: &std::path::Path, session: &str, kind: &str) {
    let out = sessionctl(r)
        .args(["trash", "list", "--json"])
        .output()
        .unwrap();
    let entries = results(&out);
    let e = entries
        .iter()
        .find(|e| e["session"] == session)
        .unwrap_or_else(|| panic!("no entry of {session}: {entries:?}"));
    assert_eq!(
        (&e["kind"], &e["restorable"]),
        (&json!(kind), &json!(true)),
        "{e}"
    );
    let out = sessionctl(r).args(["log", "--json"]).output().unwrap();
    let ops = results(&out);
    assert_eq!(ops[0]["sessions"][0]["session"], session, "{ops:?}");
    assert!(ops[0]["sessions"][0]["kept"].is_string(), "{ops:?}");
}

#[test]
fn remove_through_the_daemon_keeps_the_folder_in_the_trash() {
    let env = Running::new();
    let r = env.path();
    let server = daemon(200, r#"{"ok":true}"#);
    let before = outside_trash(r);
    let out = env.run(&server.url, &["remove", "tui-alice-2", "--yes", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = one(&out);
    assert_eq!(v["via"], "daemon");
    assert_eq!(
        seen(&server),
        [(
            "DELETE".into(),
            "/v1/session".into(),
            json!({"session_id": "tui-alice-2"})
        )]
    );
    assert_eq!(before, outside_trash(r));
    let trash = PathBuf::from(v["trash"].as_str().unwrap());
    for name in ["history.json", "config.json"] {
        assert_eq!(
            std::fs::read(trash.join(name)).unwrap(),
            std::fs::read(r.join("sessions/tui-alice-2").join(name)).unwrap(),
            "{name}"
        );
    }
    assert!(trash.join(".sessionctl/torii-db1.jsonl").exists());
    assert_sealed_and_logged(r, "tui-alice-2", "remove");
}

#[test]
fn errors_edit_and_list_go_through_the_daemon() {
    let env = Running::new();
    let r = env.path();
    let server = TestServer::start(|req, _| match req.method.as_str() {
        "PATCH" => Reply::json(200, r#"{"ok":true}"#),
        _ => Reply::json(
            200,
            r#"{"records":[{"id":"3f1c","timestamp":1,"tool_name":"read_file","keywords":["x"],"symptom":"s","cause":"","action":"a","outcome":"resolved"}]}"#,
        ),
    });
    let before = snapshot(r);
    let out = env.run(
        &server.url,
        &[
            "errors",
            "edit",
            "3f1c",
            "--action",
            "use sudo -n",
            "--yes",
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(one(&out)["via"], "daemon");
    let (method, path, body) = seen(&server).remove(0);
    assert_eq!(
        (method.as_str(), path.as_str()),
        ("PATCH", "/v1/torii/error")
    );
    assert_eq!(body["action"], "use sudo -n");
    assert!(body["id"].as_str().unwrap().starts_with("3f1c"), "{body}");

    // list reads the files unless --via daemon
    let out = env.run(&server.url, &["errors", "list", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(server.hits(), 1);
    let out = env.run(
        &server.url,
        &[
            "errors", "list", "--via", "daemon", "--limit", "500", "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(results(&out)[0]["id"], "3f1c");
    let (method, path, _) = seen(&server).remove(1);
    assert_eq!(
        (method.as_str(), path.as_str()),
        ("GET", "/v1/torii/error?limit=200")
    );
    assert_eq!(before, snapshot(r));
}

/// Every answer maps to one clear error and exit code; nothing changes.
#[test]
fn daemon_answers_map_to_exit_codes() {
    let env = Running::new();
    let r = env.path();
    let before = snapshot(r);
    let cases: [(u16, &'static str, i32, &str); 7] = [
        (
            404,
            r#"{"error":"session not found"}"#,
            66,
            "session not found",
        ),
        (
            400,
            r#"{"error":"session_id is required"}"#,
            64,
            "session_id is required",
        ),
        (
            500,
            r#"{"error":"torii: disk full"}"#,
            69,
            "torii: disk full",
        ),
        (
            403,
            r#"{"error":{"message":"localhost only","type":"forbidden"}}"#,
            69,
            "localhost only",
        ),
        (
            200,
            "<html><body>hello</body></html>",
            65,
            "not the documented JSON",
        ),
        (200, r#"{"ok":true,"action":"compact"}"#, 65, "removed"),
        (429, r#"{"error":"slow down"}"#, 75, "busy"),
    ];
    for (status, body, code, said) in cases {
        let server = daemon(status, body);
        let out = env.run(&server.url, &["compact", "tui-alice", "--yes"]);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{status} {body}: {}",
            stderr(&out)
        );
        assert!(stderr(&out).contains(said), "{status}: {}", stderr(&out));
        let want_hits = if status == 429 { 4 } else { 1 };
        assert_eq!(server.hits(), want_hits, "{status}: retried only 429/503");
        assert_eq!(before, snapshot(r), "{status}");
    }

    // 503 then 200: retried with backoff, and done
    let server = TestServer::start(|_, n| match n {
        1 => Reply::json(503, r#"{"error":"busy"}"#),
        _ => Reply::json(200, r#"{"ok":true,"action":"compact","removed":1}"#),
    });
    let out = env.run(&server.url, &["compact", "tui-alice", "--yes", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(server.hits(), 2);

    // no answer within --timeout
    let server = TestServer::start(|_, _| {
        let mut reply = Reply::json(200, r#"{"ok":true,"action":"compact","removed":1}"#);
        reply.delay = std::time::Duration::from_secs(3);
        reply
    });
    let out = env.run(
        &server.url,
        &["compact", "tui-alice", "--yes", "--timeout", "1"],
    );
    assert_eq!(out.status.code(), Some(69), "{}", stderr(&out));
    assert!(stderr(&out).contains("timed out"), "{}", stderr(&out));
}

/// One session failing does not stop the others; the worst code wins.
#[test]
fn a_failing_session_does_not_stop_the_batch() {
    let env = Running::new();
    let r = env.path();
    // a second session with work: a copy of tui-alice
    copy_tree(&r.join("sessions/tui-alice"), &r.join("sessions/tui-bob"));
    let server = TestServer::start(|req, _| {
        if req.path.contains("tui-bob") {
            Reply::json(500, r#"{"error":"boom"}"#)
        } else {
            Reply::json(200, r#"{"ok":true,"action":"compact","removed":3}"#)
        }
    });
    let out = env.run(&server.url, &["compact", "--all", "--yes", "--json"]);
    assert_eq!(out.status.code(), Some(69), "{}", stderr(&out));
    let v = json_of(&out);
    assert_eq!(v["errors"][0]["session"], "tui-bob", "{v}");
    let done: Vec<&Value> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["via"] == "daemon")
        .collect();
    assert_eq!(done.len(), 1, "{v}");
    assert_eq!(done[0]["session"], "tui-alice");
}

/// A closed port on 127.0.0.1.
fn nothing_listening() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://{}", l.local_addr().unwrap())
}

#[test]
fn a_live_daemon_pid_that_does_not_answer_is_69_never_the_files() {
    let env = Running::new();
    let r = env.path();
    let before = snapshot(r);
    for args in [
        &["compact", "tui-alice", "--yes"][..],
        &["reset", "tui-alice", "--mode", "all", "--yes"],
        &["summarize", "tui-alice"],
    ] {
        let out = env.run(&nothing_listening(), args);
        assert_eq!(out.status.code(), Some(69), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("alive"), "{}", stderr(&out));
        assert!(stderr(&out).contains("hint"), "{}", stderr(&out));
    }
    assert_eq!(before, snapshot(r));
    // --via daemon with nothing there is 69 too, even with no daemon pid
    let root = fixture_copy();
    let out = sessionctl(root.path())
        .env("AGENVOY_DAEMON_URL", nothing_listening())
        .args(["remove", "tui-alice", "--yes", "--via", "daemon"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(69), "{}", stderr(&out));
}

#[test]
fn auto_uses_the_files_when_no_daemon_runs() {
    let server = daemon(200, r#"{"ok":true,"action":"reset","removed":1}"#);
    // no runtime.uid
    let root = fixture_copy();
    let r = root.path();
    let out = sessionctl(r)
        .env("AGENVOY_DAEMON_URL", &server.url)
        .args(["reset", "tui-alice", "--mode", "all", "--yes", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(one(&out).get("via").is_none());
    assert!(!r.join("sessions/tui-alice/history.json").exists());
    // a dead pid in runtime.uid
    let root = fixture_copy();
    let r = root.path();
    let dead = FakeProcess::spawn("agenvoy", r, r);
    dead.write_runtime_uid(r);
    drop(dead);
    let out = sessionctl(r)
        .env("AGENVOY_DAEMON_URL", &server.url)
        .args(["reset", "tui-alice", "--mode", "all", "--yes", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!r.join("sessions/tui-alice/history.json").exists());
    assert_eq!(server.hits(), 0);
}

#[test]
fn what_the_daemon_cannot_honour_is_refused_with_75() {
    let env = Running::new();
    let r = env.path();
    let server = daemon(200, r#"{"ok":true}"#);
    let before = snapshot(r);
    for (args, option) in [
        (
            &["compact", "tui-alice", "--budget", "100", "--yes"][..],
            "--budget",
        ),
        (&["compact", "tui-alice", "--fold", "--yes"], "--fold"),
        (
            &["compact", "tui-alice", "--for-model", "ollama@x", "--yes"],
            "--for-model",
        ),
        (
            &["reset", "tui-alice", "--mode", "all", "--purge", "--yes"],
            "--purge",
        ),
        (&["remove", "tui-alice", "--purge", "--yes"], "--purge"),
        (
            &["summarize", "tui-alice", "--rebuild", "--yes"],
            "--rebuild",
        ),
        (&["errors", "edit", "3f1c", "--touch", "--yes"], "--touch"),
    ] {
        let out = env.run(&server.url, args);
        assert_eq!(out.status.code(), Some(75), "{args:?}: {}", stderr(&out));
        let said = stderr(&out);
        assert!(
            said.contains(option) && said.contains("--via files"),
            "{said}"
        );
    }
    assert_eq!(server.hits(), 0);
    assert_eq!(before, snapshot(r));
}

#[test]
fn only_loopback_daemon_urls_are_accepted() {
    let env = Running::new();
    for url in [
        "http://10.0.0.1:17989",
        "http://example.com",
        "file:///tmp/x",
    ] {
        let out = env.run(url, &["compact", "tui-alice", "--yes"]);
        assert_eq!(out.status.code(), Some(64), "{url}: {}", stderr(&out));
        assert!(stderr(&out).contains("loopback"), "{}", stderr(&out));
    }
}

#[test]
fn a_dry_run_through_the_daemon_is_planned_from_the_files() {
    let env = Running::new();
    let r = env.path();
    let server = daemon(200, r#"{"ok":true}"#);
    let before = snapshot(r);
    for args in [
        &["reset", "tui-alice", "--mode", "all", "--dry-run", "--json"][..],
        &["compact", "tui-alice", "--dry-run", "--json"],
        &["summarize", "tui-alice", "--dry-run", "--json"],
    ] {
        let out = env.run(&server.url, args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("decides the exact numbers"),
            "{}",
            stderr(&out)
        );
        assert_eq!(one(&out)["dry_run"], true);
    }
    assert_eq!(server.hits(), 0);
    assert_eq!(before, snapshot(r));
}

#[test]
fn read_commands_say_in_verbose_that_agenvoy_runs() {
    let env = Running::new();
    let out = sessionctl(env.path())
        .args(["-v", "sessions", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("mid-update"), "{}", stderr(&out));
}
