//! Every failure a user sees says how to get past it: each exit kind, on
//! stderr (`  hint: …`) and in the JSON envelope's error entry (`hint`).

use crate::common::*;

use std::path::Path;

/// Run `args` twice, as text and with --json, expecting exit `code`; both
/// must carry a hint, and the same one.
fn hinted(root: &Path, env: &[(&str, &str)], args: &[&str], code: i32) -> String {
    let out = sessionctl(root)
        .envs(env.iter().copied())
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    let text_hint = stderr
        .lines()
        .find_map(|l| l.strip_prefix("  hint: "))
        .unwrap_or_else(|| panic!("{args:?} ({code}): no hint on stderr:\n{stderr}"))
        .to_owned();
    let out = sessionctl(root)
        .envs(env.iter().copied())
        .arg("--json")
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(code), "{args:?} --json");
    let v = json_of(&out);
    let entry = &v["errors"][0];
    assert_eq!(entry["code"], code, "{v}");
    let json_hint = entry["hint"]
        .as_str()
        .unwrap_or_else(|| panic!("{args:?} ({code}): no hint in JSON: {v}"));
    assert!(!json_hint.trim().is_empty(), "{v}");
    assert_eq!(json_hint, text_hint, "{args:?}");
    text_hint
}

#[test]
fn every_exit_kind_carries_a_hint_in_text_and_json() {
    let root = fixture_copy();
    let r = root.path();

    // 64: a request our code refuses (an id prefix matching two records)
    let lines = [
        r#"{"ts":1,"cmd":"SET","key":"a:1","value":"{\"id\":\"dup1\",\"tool_name\":\"a\"}","expire_at":4102444800}"#,
        r#"{"ts":1,"cmd":"SET","key":"a:2","value":"{\"id\":\"dup2\",\"tool_name\":\"a\"}","expire_at":4102444800}"#,
    ];
    let aof = r.join(".store/db_2/record.aof");
    let mut log = std::fs::read_to_string(&aof).unwrap();
    for l in lines {
        log.push_str(l);
        log.push('\n');
    }
    std::fs::write(&aof, log).unwrap();
    hinted(r, &[], &["errors", "show", "dup"], 64);

    // 65: a session's history.json that is not JSON: its own check is named
    std::fs::write(r.join("sessions/discord-9001/history.json"), "[{\"role\":").unwrap();
    let hint = hinted(r, &[], &["show", "discord-9001"], 65);
    assert!(hint.contains("sessionctl check discord-9001"), "{hint}");

    // 66: nothing by that name
    let hint = hinted(r, &[], &["show", "no-such-session"], 66);
    assert!(!hint.is_empty());

    // 69: a server that does not answer
    let hint = hinted(
        r,
        &[],
        &[
            "limits",
            "refresh",
            "--url",
            "http://127.0.0.1:9/table.json",
            "--yes",
        ],
        69,
    );
    assert!(hint.contains("network"), "{hint}");

    // 73: the disk fills during a write
    let hint = hinted(
        r,
        &[("SESSIONCTL_FAIL_ENOSPC", "reserve")],
        &["errors", "edit", "3f1c", "--action", "new", "--yes"],
        73,
    );
    assert!(hint.contains("disk"), "{hint}");

    // 75: another process holds the session
    std::fs::create_dir_all(r.join(".sessionctl/locks")).unwrap();
    let lock = std::fs::File::create(r.join(".sessionctl/locks/session-tui-alice.lock")).unwrap();
    lock.lock().unwrap();
    hinted(r, &[], &["remove", "tui-alice", "--yes"], 75);
}

#[test]
fn a_hint_set_where_the_error_is_made_wins_over_the_kinds() {
    let root = fixture_copy();
    let r = root.path();
    let hint = hinted(
        r,
        &[],
        &[
            "limits",
            "learn",
            "openai@gpt-4o",
            "--from-error",
            "no numbers here",
        ],
        65,
    );
    assert!(hint.contains("--input-tokens"), "{hint}");
}
