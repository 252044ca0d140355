//! `compact --for-model`: the session moves to the new model for real
//! (config.json), and the rewritten task histories tell the new model the
//! truth about whether the user was already answered.

use crate::common::*;

use std::path::Path;

const CONFIG: &str =
    r#"{"theme":"dark","model":"claude@claude-sonnet-4-5","limits":{"max_history_messages":24}}"#;

/// tui-alice with a richer config.json and a second task history that
/// stops before any reply (a tool result is its last message).
fn root() -> tempfile::TempDir {
    let root = fixture_copy();
    let s = root.path().join("sessions/tui-alice");
    std::fs::write(s.join("config.json"), CONFIG).unwrap();
    let unanswered = serde_json::json!([
        {"role": "user", "content": "Is the disk full?"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c9", "type": "function",
            "function": {"name": "run_command", "arguments": "{\"command\":\"df -h\"}"}}]},
        {"role": "tool", "tool_call_id": "c9", "content": "/dev/sda1  98%"}
    ]);
    std::fs::write(s.join("history/7a2b.json"), unanswered.to_string()).unwrap();
    root
}

fn compact(root: &Path, extra: &[&str]) -> std::process::Output {
    sessionctl(root)
        .args([
            "--offline",
            "compact",
            "tui-alice",
            "--for-model",
            "ollama@qwen3",
            "--json",
        ])
        .args(extra)
        .output()
        .unwrap()
}

fn read(root: &Path, file: &str) -> String {
    std::fs::read_to_string(root.join("sessions/tui-alice").join(file)).unwrap()
}

/// The text the new model gets in place of a task's tool calls.
fn converted_text(root: &Path, task: &str) -> String {
    let msgs: serde_json::Value = serde_json::from_str(&read(root, task)).unwrap();
    let msgs = msgs.as_array().unwrap();
    assert!(
        msgs.iter().all(|m| m.get("tool_calls").is_none()),
        "{task} still has tool calls"
    );
    msgs.last().unwrap()["content"].as_str().unwrap().to_owned()
}

#[test]
fn for_model_moves_config_json_to_the_new_model() {
    let root = root();
    let r = root.path();

    let out = compact(r, &["--dry-run"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = one(&out);
    assert_eq!(
        v["model_switch"],
        serde_json::json!({"from": "claude@claude-sonnet-4-5", "to": "ollama@qwen3", "applied": false})
    );
    assert_eq!(read(r, "config.json"), CONFIG, "a dry run changes nothing");

    let out = compact(r, &["--yes"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(one(&out)["model_switch"]["applied"], true);
    assert_eq!(
        read(r, "config.json"),
        r#"{"theme":"dark","model":"ollama@qwen3","limits":{"max_history_messages":24}}"#,
        "only the model changes; the other fields keep their order"
    );

    // done: a rerun has nothing to do and switches nothing
    let out = compact(r, &["--yes"]);
    let v = one(&out);
    assert!(v.get("model_switch").is_none(), "{v}");
    assert_eq!(v["stages"], serde_json::json!([]));

    // a session with nothing to rewrite keeps its model
    let out = sessionctl(r)
        .args([
            "--offline",
            "compact",
            "tui-alice-2",
            "--for-model",
            "ollama@qwen3",
            "--yes",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(one(&out).get("model_switch").is_none());
    assert_eq!(
        std::fs::read_to_string(r.join("sessions/tui-alice-2/config.json")).unwrap(),
        std::fs::read_to_string(fixture_root().join("sessions/tui-alice-2/config.json")).unwrap()
    );
}

#[test]
fn the_converted_history_says_whether_the_user_was_answered() {
    let root = root();
    let r = root.path();
    assert!(compact(r, &["--yes"]).status.success());

    // 5e1f.json ends with the assistant's reply, which is now in the text
    let answered = converted_text(r, "history/5e1f.json");
    assert!(answered.contains("The rule rotates weekly"), "{answered}");
    assert!(answered.contains("already been answered"), "{answered}");
    assert!(!answered.contains("not been replied to"), "{answered}");

    // 7a2b.json stops at a tool result: the user is still waiting
    let waiting = converted_text(r, "history/7a2b.json");
    assert!(
        waiting.contains("User has not been replied to yet"),
        "{waiting}"
    );
    assert!(!waiting.contains("already been answered"), "{waiting}");
}

#[test]
fn an_interrupted_switch_is_finished_by_a_rerun() {
    let root = root();
    let r = root.path();
    let out = sessionctl(r)
        .env("SESSIONCTL_FAILPOINT", "compact-after-trash")
        .args([
            "--offline",
            "compact",
            "tui-alice",
            "--for-model",
            "ollama@qwen3",
            "--yes",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success(), "the failpoint was not reached");
    // the model is switched first; Agenvoy can run the old histories itself
    assert!(read(r, "config.json").contains(r#""model":"ollama@qwen3""#));
    assert!(read(r, "history/5e1f.json").contains("tool_calls"));

    let out = compact(r, &["--yes"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    converted_text(r, "history/5e1f.json");
    assert!(read(r, "config.json").contains(r#""model":"ollama@qwen3""#));
}
