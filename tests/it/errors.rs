//! `errors` on a copy of the fixture store (ToriiDB db 2), with embeddings
//! from a real HTTP server on 127.0.0.1.

use crate::common::*;

use serde_json::{json, Value};

fn append_db2(root: &std::path::Path, lines: &[Value]) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(root.join(".store/db_2/record.aof"))
        .unwrap();
    for l in lines {
        writeln!(f, "{l}").unwrap();
    }
}

fn record(id: &str, tool: &str, outcome: &str, symptom: &str) -> String {
    json!({"id": id, "timestamp": 1764600000, "tool_name": tool, "keywords": [tool, "error_type:other"],
           "symptom": symptom, "action": "do something", "outcome": outcome})
    .to_string()
}

fn b64(v: &[f32]) -> String {
    sessionctl::llm::embed::to_base64(v)
}

#[test]
fn list_shows_the_live_records_in_agenvoys_shape() {
    let root = fixture_copy();
    let out = sessionctl(root.path())
        .args(["errors", "list", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let errs = results(&out);
    assert_eq!(errs.len(), 2);
    assert_eq!(
        errs[0]["key"], "run_command:1764550000222222222",
        "newest first"
    );
    assert_eq!(errs[1]["id"], "3f1c");
    assert_eq!(errs[1]["cause"], "slow upstream");
    assert_eq!(errs[1]["expire_at"], 4102444800i64);
    assert_eq!(errs[1]["expires_at"], "2100-01-01T00:00:00Z");
    assert_eq!(errs[1]["keywords"][2], "error_type:timeout");
    let only = sessionctl(root.path())
        .args(["errors", "list", "--tool", "fetch_page", "--json"])
        .output()
        .unwrap();
    assert_eq!(results(&only).len(), 1);
}

/// Replays a log with ToriiDB's rules, independently of our reader: lines
/// split on '\n', invalid JSON skipped, SET replaces value/expire/vector.
fn toriidb_replay(log: &[u8]) -> std::collections::BTreeMap<String, (String, Option<i64>)> {
    let mut state = std::collections::BTreeMap::new();
    for line in log.split(|b| *b == b'\n') {
        let Ok(v) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        let key = v["key"].as_str().unwrap_or("").to_owned();
        match v["cmd"].as_str() {
            Some("SET") => {
                state.insert(
                    key,
                    (
                        v["value"].as_str().unwrap_or("").to_owned(),
                        v["expire_at"].as_i64(),
                    ),
                );
            }
            Some("DEL") => {
                state.remove(&key);
            }
            _ => {}
        }
    }
    state
}

#[test]
fn edit_rewrites_the_action_and_keeps_the_ttl_byte_for_byte() {
    let root = fixture_copy();
    let r = root.path();
    let aof = r.join(".store/db_2/record.aof");
    // a torn last line first: our record must not be glued to it
    let mut log = std::fs::read(&aof).unwrap();
    log.extend_from_slice(br#"{"ts":1,"cmd":"SET","key":"x:1","value":"to"#);
    std::fs::write(&aof, &log).unwrap();

    let out = sessionctl(r)
        .args([
            "errors",
            "edit",
            "3f1c",
            "--action",
            "retry with timeout 120s",
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
    let text = std::fs::read_to_string(&aof).unwrap();
    let last = text.lines().last().unwrap();
    assert!(
        last.contains(r#""key":"fetch_page:1764547200111111111""#),
        "{last}"
    );
    assert!(
        last.ends_with(r#","expire_at":4102444800}"#),
        "the TTL is kept exactly: {last}"
    );

    for state in [
        toriidb_replay(text.as_bytes()),
        db(r, 2)
            .all()
            .map(|(k, e)| (k.to_owned(), (e.value.clone(), e.expire_at)))
            .collect(),
    ] {
        let (value, expire) = &state["fetch_page:1764547200111111111"];
        let v: Value = serde_json::from_str(value).unwrap();
        assert_eq!(v["action"], "retry with timeout 120s");
        assert_eq!(v["cause"], "slow upstream", "other fields untouched");
        assert_eq!(*expire, Some(4102444800));
    }
    // the mirror file follows
    let d2 = db(r, 2);
    let mirror: Value = serde_json::from_slice(
        &std::fs::read(d2.mirror_path("fetch_page:1764547200111111111")).unwrap(),
    )
    .unwrap();
    assert!(mirror["value"]
        .as_str()
        .unwrap()
        .contains("retry with timeout 120s"));
    assert_eq!(mirror["expire_at"], 4102444800i64);
    logs_are_toriidb_readable(r);

    // --touch restarts the 90-day TTL instead
    let out = sessionctl(r)
        .args(["errors", "edit", "3f1c", "--touch", "--yes", "--json"])
        .output()
        .unwrap();
    let exp = one(&out)["expire_at"].as_i64().unwrap();
    let now = chrono::Utc::now().timestamp();
    assert!((exp - (now + 7_776_000)).abs() < 10);
}

#[test]
fn edit_refuses_without_yes_or_while_agenvoy_runs_and_never_writes_an_unreadable_line() {
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    let out = sessionctl(r)
        .args(["errors", "edit", "3f1c", "--action", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let daemon = FakeProcess::spawn("agenvoy", r, r);
    daemon.write_runtime_uid(r);
    let out = sessionctl(r)
        .args([
            "errors", "edit", "3f1c", "--action", "x", "--yes", "--via", "files",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(75));
    drop(daemon);
    std::fs::remove_file(r.join("runtime.uid")).unwrap();
    let huge = "y".repeat(70_000);
    let out = sessionctl(r)
        .args(["errors", "edit", "3f1c", "--action", &huge, "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65));
    assert!(String::from_utf8_lossy(&out.stderr).contains("65,535"));
    assert_eq!(before, snapshot(r));
}

#[test]
fn show_accepts_unique_id_prefixes_and_lists_ambiguous_ones() {
    let root = fixture_copy();
    let r = root.path();
    append_db2(
        r,
        &[
            json!({"ts":1,"cmd":"SET","key":"read_file:1764600000000000001","value":record("3f9e","read_file","resolved","x"),"expire_at":4102444800i64}),
        ],
    );
    let out = sessionctl(r)
        .args(["errors", "show", "3f1", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v = one(&out);
    assert_eq!(v["key"], "fetch_page:1764547200111111111");
    assert_eq!(v["has_vector"], false);
    assert!(v["ttl_seconds"].as_i64().unwrap() > 0);
    let out = sessionctl(r)
        .args(["errors", "show", "3f"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("3f1c") && err.contains("3f9e"), "{err}");
    let out = sessionctl(r)
        .args(["errors", "show", "zz"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(66));
}

#[test]
fn prune_removes_exactly_expired_and_unresolved_records() {
    let root = fixture_copy();
    let r = root.path();
    append_db2(
        r,
        &[
            json!({"ts":1,"cmd":"SET","key":"read_file:1764600000000000001","value":record("aa01","read_file","resolved","old"),"expire_at":1700000000}),
            json!({"ts":1,"cmd":"SET","key":"run_command:1764600000000000002","value":record("aa02","run_command","failed","bad"),"expire_at":4102444800i64}),
            json!({"ts":1,"cmd":"SET","key":"run_command:1764600000000000003","value":record("aa03","run_command","abandoned","bad"),"expire_at":4102444800i64}),
        ],
    );
    let out = sessionctl(r)
        .args(["errors", "prune", "--dry-run", "--json"])
        .output()
        .unwrap();
    let v = results(&out);
    let reasons = |r: &str| v.iter().filter(|p| p["reason"] == r).count();
    assert_eq!((reasons("expired"), reasons("not-resolved")), (1, 2));
    assert!(v.iter().all(|p| p["dry_run"] == true));
    let out = sessionctl(r)
        .args(["errors", "prune", "--not-resolved", "--yes", "--json"])
        .output()
        .unwrap();
    assert_eq!(results(&out).len(), 2);
    let out = sessionctl(r)
        .args(["errors", "prune", "--yes", "--json"])
        .output()
        .unwrap();
    assert_eq!(results(&out).len(), 1);
    let left: Vec<String> = db(r, 2).all().map(|(k, _)| k.to_owned()).collect();
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(left.contains(&"fetch_page:1764547200111111111".to_string()));
}

#[test]
fn keyword_search_is_agenvoys_related_errors() {
    let root = fixture_copy();
    let r = root.path();
    let search = |q: &str, extra: &[&str]| -> Vec<String> {
        let out = sessionctl(r)
            .args(["errors", "search", q, "--json"])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        results(&out)
            .iter()
            .map(|e| e["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(search("PERMISSION", &[]), ["9a2b"]);
    assert_eq!(search("upstream", &[]), ["3f1c"], "cause is searched");
    // a keyword contained in the query matches too
    assert_eq!(search("got a timeout while fetching", &[]), ["3f1c"]);
    assert!(search("permission", &["--tool", "fetch_page"]).is_empty());
}

#[test]
fn semantic_search_against_a_real_embeddings_server() {
    let root = fixture_copy();
    let r = root.path();
    // give both records 4-dim vectors
    let d2 = db(r, 2);
    let mut lines = Vec::new();
    for (key, vec) in [
        ("fetch_page:1764547200111111111", [1.0f32, 0.0, 0.0, 0.0]),
        ("run_command:1764550000222222222", [0.0, 1.0, 0.0, 0.0]),
    ] {
        let e = d2.get(key).unwrap();
        lines.push(json!({"ts":1,"cmd":"SET","key":key,"value":e.value,"expire_at":4102444800i64,"vector":b64(&vec)}));
    }
    append_db2(r, &lines);
    let server = TestServer::start(|req, _| {
        let body: Value = serde_json::from_str(&req.body).unwrap();
        assert_eq!(body["model"], "text-embedding-3-small");
        assert_eq!(body["dimensions"], 4, "the store's dimension");
        Reply::json(
            200,
            json!({"data":[{"embedding":[0.9, 0.1, 0.0, 0.0]}]}).to_string(),
        )
    });
    let out = sessionctl(r)
        .env("SESSIONCTL_EMBED_BASE_URL", &server.url)
        .args([
            "errors",
            "search",
            "slow page loads",
            "--by",
            "semantic",
            "--json",
            "--touch-hits",
            "--yes",
            "--limit",
            "1",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = results(&out);
    assert_eq!(v[0]["by"], "semantic");
    assert_eq!(v[0]["id"], "3f1c");
    assert!(v[0]["score"].as_f64().unwrap() > 0.99);
    assert_eq!(v[0]["touched"], true);
    assert_eq!(server.hits(), 1);
    let q = &server.requests.lock().unwrap()[0];
    assert_eq!(q.path, "/v1/embeddings");
    // the hit's TTL was refreshed with an EXPIRE line
    let text = std::fs::read_to_string(r.join(".store/db_2/record.aof")).unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(
        (last["cmd"].as_str(), last["key"].as_str()),
        (Some("EXPIRE"), Some("fetch_page:1764547200111111111"))
    );

    // a query ToriiDB already embedded needs no server at all
    let key =
        sessionctl::llm::embed::Embedder::cache_key("text-embedding-3-small", 4, "shell errors");
    let cached =
        json!({"v": b64(&[0.1, 0.9, 0.0, 0.0]), "d": 4, "m": "text-embedding-3-small"}).to_string();
    append_db2(r, &[json!({"ts":1,"cmd":"SET","key":key,"value":cached})]);
    let out = sessionctl(r)
        .args([
            "errors",
            "search",
            "shell errors",
            "--by",
            "semantic",
            "--json",
        ])
        .output()
        .unwrap();
    let v = results(&out);
    assert_eq!(v[0]["by"], "semantic");
    assert_eq!(v[0]["id"], "9a2b");

    // no embedder, no cache: a notice and a keyword search
    let out = sessionctl(r)
        .args([
            "errors",
            "search",
            "permission",
            "--by",
            "semantic",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no embedder"));
    assert_eq!(results(&out)[0]["by"], "keyword");
}

#[test]
fn edit_re_embeds_when_an_embedder_is_configured() {
    let root = fixture_copy();
    let r = root.path();
    let server = TestServer::start(|req, _| {
        let body: Value = serde_json::from_str(&req.body).unwrap();
        assert!(
            body["input"].as_str().unwrap().contains("retry later"),
            "the exact new value is embedded"
        );
        Reply::json(
            200,
            json!({"data":[{"embedding": vec![0.5f32; 256]}]}).to_string(),
        )
    });
    let out = sessionctl(r)
        .env("SESSIONCTL_EMBED_BASE_URL", &server.url)
        .args([
            "errors",
            "edit",
            "9a2b",
            "--action",
            "retry later",
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
    assert_eq!(one(&out)["vector"], "re-embedded");
    let e = db(r, 2)
        .get("run_command:1764550000222222222")
        .unwrap()
        .clone();
    assert_eq!(e.vector_f32().unwrap().len(), 256);
}

#[test]
fn writes_say_so_and_ask_and_an_empty_fix_is_refused() {
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    // --touch-hits writes: without a terminal it needs --yes
    let out = sessionctl(r)
        .args(["errors", "search", "permission", "--touch-hits"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--yes"));
    // blanking the fix is refused
    let out = sessionctl(r)
        .args(["errors", "edit", "9a2b", "--action", "  ", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert_eq!(before, snapshot(r), "nothing written");
    // errors commands keep no trash: no --purge that promises one
    let out = sessionctl(r)
        .args(["errors", "prune", "--purge", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    // a touch says what it did
    let out = sessionctl(r)
        .args(["errors", "search", "permission", "--touch-hits", "--yes"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("refreshed the TTL of 1 record(s)"));
}

#[test]
fn listed_ids_are_the_shortest_unique_prefixes() {
    let root = fixture_copy();
    let r = root.path();
    // 15 records whose ids share their first 8 characters
    let lines: Vec<Value> = (0..15)
        .map(|i| {
            json!({"ts":1,"cmd":"SET","key":format!("read_file:17646{i:014}"),
                   "value":record(&format!("00000000{i:02x}ff"),"read_file","resolved","s"),
                   "expire_at":4102444800i64})
        })
        .collect();
    append_db2(r, &lines);
    let out = sessionctl(r).args(["errors", "list"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let shown: Vec<&str> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(shown.len(), 17, "{text}");
    assert!(shown.contains(&"0000000003"), "{text}");
    assert!(shown.contains(&"3f1c"), "short ids stay whole: {text}");
    // every id shown can be typed back
    for id in shown {
        let out = sessionctl(r).args(["errors", "show", id]).output().unwrap();
        assert!(
            out.status.success(),
            "{id}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // an ambiguous prefix names at most 10 and counts the rest
    let out = sessionctl(r)
        .args(["errors", "show", "00000000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("matches 15 records") && err.contains("and 5 more"),
        "{err}"
    );
}

/// `--limit`, a filter or the default that hides expired records list a
/// few records; the ids shown must still be unique among all of them, or
/// `errors show` rejects what `errors list` printed.
#[test]
fn ids_shown_by_a_short_list_are_unique_among_all_records() {
    let root = fixture_copy();
    let r = root.path();
    // 133 records; the five newest have ids whose first 8 characters differ
    // among them but each is shared by 25 older ones, some expired, some of
    // another tool
    let mut lines = Vec::new();
    for i in 0..133u64 {
        let group = i % 5;
        let newest = i >= 128;
        let id = if newest {
            format!("c0ffee0{group}{:056x}", 0xfu64)
        } else {
            format!("c0ffee0{group}{:056x}", i + 0x100)
        };
        let tool = if i % 3 == 0 {
            "fetch_page"
        } else {
            "write_file"
        };
        let expire = if i % 4 == 0 {
            1_700_000_000i64
        } else {
            4_102_444_800
        };
        lines.push(json!({"ts":1,"cmd":"SET","key":format!("{tool}:17646{i:014}"),
                          "value":json!({"id": id, "timestamp": 1_764_600_000u64 + i, "tool_name": tool,
                                         "keywords": [tool], "symptom": "s", "action": "a", "outcome": "resolved"}).to_string(),
                          "expire_at": expire}));
    }
    append_db2(r, &lines);
    let shown_ids = |args: &[&str]| -> Vec<String> {
        let out = sessionctl(r)
            .args(["errors", "list"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .skip(1)
            .filter_map(|l| l.split('\t').next().map(str::to_owned))
            .collect()
    };
    for args in [
        &["--limit", "5"][..],
        &["--tool", "write_file", "--limit", "3"],
        &["--sort", "tool", "--limit", "7"],
        &[],
    ] {
        let shown = shown_ids(args);
        assert!(!shown.is_empty(), "{args:?}");
        for id in &shown {
            let out = sessionctl(r).args(["errors", "show", id]).output().unwrap();
            assert!(
                out.status.success(),
                "{args:?}: {id} is rejected: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    let newest = shown_ids(&["--limit", "5"]);
    assert!(
        newest.iter().all(|id| id.len() > 8 && id.len() < 64),
        "unique among all 133, not among the 5: {newest:?}"
    );
}

/// `errors list --json` prints each record as a whole `serde_json::Value`
/// parse of its stored value reads it (the listed fields, non-strings as
/// empty, the last duplicate winning, a record serde_json rejects
/// skipped), in the order and with the filters of the options, byte for
/// byte: the listing is streamed from borrowed decoding, this oracle is not.
#[test]
fn list_json_is_each_record_as_a_whole_value_parse_reads_it() {
    let root = fixture_copy();
    let r = root.path();
    let set = |key: &str, value: &str, expire_at: Option<i64>| {
        let mut l = json!({"ts": 1764600000, "cmd": "SET", "key": key, "value": value});
        if let Some(t) = expire_at {
            l["expire_at"] = t.into();
        }
        l
    };
    append_db2(
        r,
        &[
            set(
                "a:1",
                r#"{"id":"a1","tool_name":"Fetch","keywords":["Timeout",7,"x\"y"],"symptom":"tab\there é \u263a","action":"a","outcome":"resolved","timestamp":1764600000}"#,
                Some(4102444800),
            ),
            set(
                "a:2",
                r#"{"id":"a2","id":"a2b","tool_name":"fetch","keywords":"timeout","symptom":null,"cause":{"deep":[1,{"x":2}]},"outcome":"Failed","timestamp":1764600000}"#,
                None,
            ),
            set(
                "b:3",
                r#"{"id":"b3","tool_name":"run","keywords":[["timeout"]],"symptom":"s","action":true,"outcome":"resolved","timestamp":1.5,"extra":[1,2]}"#,
                Some(4000000000),
            ),
            set(
                "b:4",
                r#"{"id":"b4","tool_name":"run","timestamp":-5,"outcome":"resolved","unknown":"\u00e9\/"}"#,
                Some(4000000000),
            ),
            set(
                "c:5",
                r#"{"id":"c5","tool_name":"zed","timestamp":9223372036854775808,"outcome":"resolved"}"#,
                None,
            ),
            set("c:6", r#"{"id":"c6","other":1e400}"#, None),
            set("c:7", r#"["not","a","record"]"#, None),
            set(
                "c:8",
                r#"{"id":"c8","tool_name":"old","keywords":["timeout"],"outcome":"resolved","timestamp":1700000000}"#,
                Some(1000),
            ),
        ],
    );
    let log = std::fs::read(r.join(".store/db_2/record.aof")).unwrap();
    let now = chrono::Utc::now().timestamp();
    let rfc = |s: i64| {
        chrono::DateTime::from_timestamp(s, 0)
            .unwrap()
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    };
    // (sort key, expire_at, record as listed) of every record that parses
    let records: Vec<(Value, Option<i64>)> = toriidb_replay(&log)
        .into_iter()
        .filter(|(k, _)| !k.starts_with("__torii:"))
        .filter_map(|(key, (value, expire_at))| {
            let Ok(Value::Object(m)) = serde_json::from_str::<Value>(&value) else {
                return None;
            };
            let text = |f: &str| m.get(f).and_then(Value::as_str).unwrap_or("").to_owned();
            let keywords: Vec<Value> = m
                .get("keywords")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter(|k| k.is_string()).cloned().collect())
                .unwrap_or_default();
            let ts = m.get("timestamp").and_then(Value::as_i64);
            let item = json!({
                "key": key, "id": text("id"), "tool_name": text("tool_name"), "keywords": keywords,
                "symptom": text("symptom"), "cause": text("cause"), "action": text("action"),
                "outcome": text("outcome"), "timestamp": ts.unwrap_or(0),
                "recorded_at": ts.filter(|t| *t != 0).map(rfc), "expire_at": expire_at,
                "expires_at": expire_at.map(rfc),
            });
            Some((item, expire_at))
        })
        .collect();
    let expected = |args: &[&str]| -> String {
        let has = |a: &str| args.contains(&a);
        let opt = |a: &str| args.iter().position(|x| *x == a).map(|i| args[i + 1]);
        let mut items: Vec<&(Value, Option<i64>)> = records
            .iter()
            .filter(|(_, e)| has("--expired") || e.is_none_or(|e| e > now))
            .filter(|(i, _)| {
                opt("--tool")
                    .is_none_or(|t| i["tool_name"].as_str().unwrap().eq_ignore_ascii_case(t))
            })
            .filter(|(i, _)| {
                opt("--keyword").is_none_or(|k| {
                    let k = k.to_lowercase();
                    i["keywords"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|kw| kw.as_str().unwrap().to_lowercase().contains(&k))
                })
            })
            .collect();
        let key = |i: &Value| i["key"].as_str().unwrap().to_owned();
        let ts = |i: &Value| i["timestamp"].as_i64().unwrap();
        match opt("--sort").unwrap_or("age") {
            "tool" => items.sort_by(|(a, _), (b, _)| {
                a["tool_name"]
                    .as_str()
                    .cmp(&b["tool_name"].as_str())
                    .then(ts(b).cmp(&ts(a)))
                    .then(key(b).cmp(&key(a)))
            }),
            "expires" => items.sort_by(|(a, ea), (b, eb)| {
                ea.unwrap_or(i64::MAX)
                    .cmp(&eb.unwrap_or(i64::MAX))
                    .then(key(b).cmp(&key(a)))
            }),
            _ => items.sort_by(|(a, _), (b, _)| ts(b).cmp(&ts(a)).then(key(b).cmp(&key(a)))),
        }
        if let Some(n) = opt("--limit") {
            items.truncate(n.parse().unwrap());
        }
        let results: Vec<&Value> = items.iter().map(|(i, _)| i).collect();
        let envelope = json!({"schema": 1, "command": "errors list", "ok": true, "dry_run": false,
                              "results": results, "errors": [], "warnings": []});
        format!("{envelope}\n")
    };
    for args in [
        &[][..],
        &["--expired"],
        &["--sort", "tool", "--expired"],
        &["--sort", "expires"],
        &["--sort", "tool", "--limit", "3"],
        // a limited list reads the records that made the cut back at the end
        &["--limit", "0"],
        &["--limit", "1"],
        &["--limit", "2", "--expired"],
        &["--sort", "expires", "--limit", "2"],
        &["--keyword", "timeout", "--limit", "1", "--expired"],
        &["--limit", "1000"],
        &["--keyword", "TIMEOUT", "--expired"],
        &["--tool", "FETCH", "--sort", "expires"],
    ] {
        let out = sessionctl(r)
            .args(["errors", "list", "--json"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            expected(args),
            "{args:?}"
        );
    }
}
