//! `search` on a copy of the fixture root: FTS5 + ToriiDB substring for
//! keywords, vectors from a real embeddings server on 127.0.0.1.

use crate::common::*;

use serde_json::{json, Value};

fn search(root: &std::path::Path, args: &[&str]) -> (Value, String) {
    let out = sessionctl(root)
        .arg("search")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
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

/// A recent message Agenvoy wrote to ToriiDB but not (yet) to the archive.
fn recent_unarchived(root: &std::path::Path) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(root.join(".store/db_1/record.aof"))
        .unwrap();
    let value =
        json!({"role":"user","content":"Is LOGROTATE running from cron.daily?"}).to_string();
    writeln!(
        f,
        "{}",
        json!({"ts":1796220500,"cmd":"SET","key":"tui-alice:1764547400000000000","value":value})
    )
    .unwrap();
}

#[test]
fn keyword_finds_the_archive_and_recent_torii_messages() {
    let root = fixture_copy();
    let r = root.path();
    recent_unarchived(r);
    let (v, _) = search(r, &["logrotate", "--by", "keyword"]);
    assert!(v["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["by"] == "keyword"));
    let results = v["results"].as_array().unwrap();
    let sources: Vec<(&str, &str)> = results
        .iter()
        .map(|x| {
            (
                x["source"].as_str().unwrap(),
                x["session"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(sources.contains(&("archive", "tui-alice")), "{sources:?}");
    assert!(sources.contains(&("torii", "tui-alice")), "{sources:?}");
    // the archived message is not listed twice though db1 holds it too
    let keys: Vec<i64> = results
        .iter()
        .map(|x| x["send_at"].as_str().unwrap().parse::<i64>().unwrap())
        .collect();
    assert_eq!(keys.len(), 2, "{keys:?}");
    let torii = results.iter().find(|x| x["source"] == "torii").unwrap();
    assert_eq!(
        torii["send_at"], "1764547400000000000",
        "nanoseconds as a string"
    );
    assert_eq!(torii["role"], "user");
    assert!(torii["text"].as_str().unwrap().contains("cron.daily"));
}

#[test]
fn fts_operators_in_the_query_are_text() {
    let root = fixture_copy();
    for q in ["\"a\" OR", "NEAR(", "*", "rotate*", "a:b", "(", "'", "AND"] {
        let (v, _) = search(root.path(), &[q, "--by", "keyword"]);
        assert!(v["results"].is_array(), "{q}");
    }
    let out = sessionctl(root.path())
        .args(["search", "NEAR(", "--fts", "--by", "keyword"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(64),
        "raw FTS5 syntax errors are usage errors"
    );
    let (v, _) = search(root.path(), &["rotat*", "--fts", "--by", "keyword"]);
    // "rotate" twice in the archive; "logrotate" does not start with "rotat"
    assert_eq!(v["results"].as_array().unwrap().len(), 2);
}

#[test]
fn filters_by_session_role_and_age() {
    let root = fixture_copy();
    let r = root.path();
    let (v, _) = search(r, &["failures", "--by", "keyword"]);
    assert_eq!(v["results"][0]["session"], "discord-9001");
    let (v, _) = search(r, &["failures", "tui-alice", "--by", "keyword"]);
    assert!(v["results"].as_array().unwrap().is_empty());
    let (v, _) = search(r, &["rotate", "--by", "keyword", "--role", "user"]);
    assert!(v["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| x["role"] == "user"));
    // the fixture's messages are a year old
    let (v, _) = search(r, &["rotate", "--by", "keyword", "--since", "7d"]);
    assert!(v["results"].as_array().unwrap().is_empty());
    let out = sessionctl(r)
        .args(["search", "x", "../etc"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
}

#[test]
fn semantic_search_ranks_by_vector_with_a_real_embeddings_server() {
    let root = fixture_copy();
    let r = root.path();
    let server = TestServer::start(|req, _| {
        let body: Value = serde_json::from_str(&req.body).unwrap();
        assert_eq!(
            body["dimensions"], 4,
            "the dimension of the store's vectors"
        );
        Reply::json(
            200,
            json!({"data":[{"embedding":[0.59, 0.81, 0.0, 0.0]}]}).to_string(),
        )
    });
    let out = sessionctl(r)
        .env("SESSIONCTL_EMBED_BASE_URL", &server.url)
        .args(["search", "nightly log rotation", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out);
    assert!(v["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["by"] == "semantic"));
    let first = &v["results"][0];
    assert_eq!(first["session"], "tui-alice");
    assert_eq!(first["send_at"], "1764547200000000000");
    assert_eq!(first["relevance"], 1.0);
    assert!(first["score"].as_f64().unwrap() > 0.99);
    assert_eq!(first["source"], "torii");
    assert_eq!(server.hits(), 1);
}

#[test]
fn without_an_embedder_the_default_searches_by_keyword_quietly() {
    let root = fixture_copy();
    // the default works offline: keyword search, no warning
    let (v, err) = search(root.path(), &["logrotate"]);
    assert!(v["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["by"] == "keyword"));
    assert!(err.is_empty(), "{err}");
    assert!(!v["results"].as_array().unwrap().is_empty());
    // asking for meaning explicitly says why it cannot
    let (v, err) = search(root.path(), &["logrotate", "--by", "semantic"]);
    assert!(err.contains("no embedder"), "{err}");
    assert!(v["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["by"] == "keyword"));
}

#[test]
fn words_are_all_required_and_a_quoted_phrase_is_one_term() {
    let root = fixture_copy();
    let r = root.path();
    let count = |q: &str| {
        search(r, &[q, "--by", "keyword"]).0["results"]
            .as_array()
            .unwrap()
            .len()
    };
    // "rotate" and "nginx" occur together in one message; each alone in more
    let both = count("rotate nginx");
    assert_eq!(both, 1, "all words, in any order");
    assert!(count("rotate") > both && count("nginx") >= both);
    assert_eq!(count("nginx rotate"), both);
    assert_eq!(count("\"rotate the nginx\""), 1);
    assert_eq!(count("\"nginx the rotate\""), 0, "a phrase keeps its order");
    // relevance is useful, not 0.000: the best hit is 1.0
    let (v, _) = search(r, &["rotate", "--by", "keyword"]);
    assert_eq!(v["results"][0]["relevance"], 1.0);
}

#[test]
fn offline_never_asks_the_embedder() {
    let root = fixture_copy();
    let server = TestServer::start(|_, _| Reply::json(500, "{}"));
    let out = sessionctl(root.path())
        .env("SESSIONCTL_EMBED_BASE_URL", &server.url)
        .args(["--offline", "search", "nightly log rotation", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(server.hits(), 0, "--offline means no request at all");
}

/// The embedding request goes through the tool's one HTTP client: it says
/// who it is, and a 503 (a server loading its model) is tried again, as a
/// chat turn is, instead of failing the search.
#[test]
fn the_embedder_retries_a_busy_server_and_says_who_it_is() {
    let root = fixture_copy();
    let server = TestServer::start(|_, n| {
        if n == 1 {
            Reply {
                headers: vec![("Retry-After".into(), "0".into())],
                ..Reply::json(503, "loading")
            }
        } else {
            Reply::json(
                200,
                json!({"data":[{"embedding":[0.59, 0.81, 0.0, 0.0]}]}).to_string(),
            )
        }
    });
    let out = sessionctl(root.path())
        .env("SESSIONCTL_EMBED_BASE_URL", &server.url)
        .args(["search", "nightly log rotation", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json_of(&out)["results"][0]["by"], "semantic");
    let reqs = server.requests.lock().unwrap();
    assert_eq!(reqs.len(), 2, "one retry after the 503");
    let agent = reqs[1].header("user-agent").unwrap_or_default();
    assert!(agent.starts_with("sessionctl/"), "{agent:?}");
}
