//! Lines that outgrow ToriiDB's limit once Agenvoy's exit rewrites the log,
//! odd files (FIFOs) where the configuration points, daemon replies that
//! never end or carry terminal escapes, and restores that write mirror
//! files in bulk.

use crate::common::*;

use serde_json::{json, Value};

/// The length of `line` once ToriiDB rewrites it: Go's `json.Marshal` of
/// the record (ts, cmd, key, value, expire_at, vector), which escapes `<`,
/// `>`, `&`, U+2028, U+2029 and control characters as `\u00XX`. Written
/// here from Go's rules, apart from the code under test.
fn go_rewritten_len(line: &[u8]) -> usize {
    fn quoted(s: &str) -> usize {
        2 + s
            .chars()
            .map(|c| match c {
                '"' | '\\' | '\n' | '\r' | '\t' => 2,
                '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => 6,
                c if (c as u32) < 0x20 => 6,
                c => c.len_utf8(),
            })
            .sum::<usize>()
    }
    let v: Value = serde_json::from_slice(line).unwrap();
    let mut n = format!("{{\"ts\":{},\"cmd\":\"SET\",\"key\":}}", v["ts"]).len();
    n += quoted(v["key"].as_str().unwrap());
    if let Some(s) = v["value"].as_str().filter(|s| !s.is_empty()) {
        n += ",\"value\":".len() + quoted(s);
    }
    if let Some(x) = v.get("expire_at") {
        n += ",\"expire_at\":".len() + x.to_string().len();
    }
    if let Some(s) = v["vector"].as_str().filter(|s| !s.is_empty()) {
        n += ",\"vector\":".len() + quoted(s);
    }
    n
}

/// Every line of every log stays within 65,535 bytes after ToriiDB's
/// rewrite too.
fn logs_survive_a_rewrite(root: &std::path::Path) {
    for i in 0..16 {
        let Ok(bytes) = std::fs::read(root.join(format!(".store/db_{i}/record.aof"))) else {
            continue;
        };
        for line in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let len = go_rewritten_len(line);
            assert!(len <= 65_535, "db_{i}: a line becomes {len} bytes");
        }
    }
}

const ERROR_KEY: &str = "fetch_page:1764547200111111111";

#[test]
fn errors_edit_refuses_a_record_that_toriidbs_rewrite_would_make_too_long() {
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    // 11,000 `<`: an 11 KB line as we write it, 66 KB once Go escapes them
    let action = "<".repeat(11_000);
    let out = sessionctl(r)
        .args(["errors", "edit", "3f1c", "--action", &action, "--yes"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(65), "{err}");
    assert!(err.contains(ERROR_KEY), "names the key: {err}");
    let len: usize = err
        .split_once("-byte line")
        .and_then(|(head, _)| head.rsplit(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("names the measured length: {err}"));
    assert!((66_000..67_000).contains(&len), "{len}");
    assert_eq!(before, snapshot(r), "nothing written");

    // mixed text the way a real edit grows: within the limit after the
    // rewrite, it is written, and every line still fits once rewritten
    let action = "a <b> & c \u{2028} ".repeat(1_500);
    let out = sessionctl(r)
        .args(["errors", "edit", "3f1c", "--action", &action, "--yes"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    logs_survive_a_rewrite(r);
}

fn check(root: &std::path::Path, extra: &[&str]) -> (Option<i32>, Value) {
    let out = sessionctl(root)
        .args(["check", "--json"])
        .args(extra)
        .output()
        .unwrap();
    (out.status.code(), json_of(&out))
}

#[test]
fn check_reports_records_that_would_outgrow_the_limit_and_repair_sets_them_aside() {
    let root = fixture_copy();
    let r = root.path();
    let value = json!({"id": "77aa", "timestamp": 1764600000, "tool_name": "fetch_page",
        "keywords": ["fetch_page"], "symptom": "<".repeat(11_000), "action": "x"})
    .to_string();
    let line = json!({"ts": 1796220417, "cmd": "SET", "key": "fetch_page:1764600000000000077",
        "value": value, "expire_at": 4102444800i64})
    .to_string();
    assert!(line.len() < 12_000 && go_rewritten_len(line.as_bytes()) > 65_535);
    let aof = r.join(".store/db_2/record.aof");
    let mut log = std::fs::read(&aof).unwrap();
    log.extend_from_slice(line.as_bytes());
    log.push(b'\n');
    std::fs::write(&aof, &log).unwrap();

    let (code, v) = check(r, &[]);
    assert_eq!(code, Some(1), "{v}");
    let found: Vec<&Value> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "torii-outgrows-rewrite")
        .collect();
    assert_eq!(found.len(), 1, "{v}");
    let detail = found[0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("fetch_page:1764600000000000077"),
        "{detail}"
    );
    assert!(
        detail.contains(&go_rewritten_len(line.as_bytes()).to_string()),
        "{detail}"
    );
    assert_eq!(found[0]["repairable"], true);

    let (_, v) = check(r, &["--repair", "--yes"]);
    assert!(
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["kind"] == "torii-outgrows-rewrite" && f["repaired"] == true),
        "{v}"
    );
    logs_survive_a_rewrite(r);
    let (code, v) = check(r, &[]);
    assert_eq!(code, Some(0), "{v}");
    // the record is kept beside the log, not lost
    let kept = std::fs::read_dir(r.join(".store/db_2"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".oversize"))
        .expect("set aside");
    assert!(std::fs::read_to_string(kept).unwrap().contains("77aa"));
}
