//! What scripts and cron rely on: one JSON shape whatever the number of
//! sessions, and a batch that goes on past a bad session.

use crate::common::*;

use serde_json::Value;

/// The envelope's keys, whatever the command did.
fn shape(v: &Value) -> Vec<String> {
    let mut keys: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    keys
}

#[test]
fn the_json_shape_is_the_same_for_0_1_and_n_sessions() {
    let envelope = [
        "command", "dry_run", "errors", "ok", "results", "schema", "warnings",
    ];
    let cases: &[&[&str]] = &[
        &["reset", "--mode", "all", "--dry-run"],
        &["remove", "--dry-run"],
        &["summarize", "--dry-run"],
        &["--offline", "compact", "--dry-run"],
        &["sessions", "list"],
    ];
    for base in cases {
        for targets in [
            &["--all", "--match", "nobody-*"][..],
            &["--all", "--match", "tui-alice-2"],
            &["--all"],
        ] {
            let root = fixture_copy();
            let mut args: Vec<&str> = base.to_vec();
            // `sessions list` takes filters but no --all
            args.extend(
                targets
                    .iter()
                    .filter(|t| base[0] != "sessions" || **t != "--all"),
            );
            args.push("--json");
            let out = sessionctl(root.path()).args(&args).output().unwrap();
            assert!(out.status.success(), "{args:?}: {}", stderr(&out));
            let v = json_of(&out);
            assert_eq!(shape(&v), envelope, "{args:?}: {v}");
            assert!(
                v["results"].is_array() && v["errors"].is_array(),
                "{args:?}"
            );
            let n = v["results"].as_array().unwrap().len();
            let want = match targets.len() {
                3 if targets[2] == "nobody-*" => 0,
                3 => 1,
                _ => 3,
            };
            assert_eq!(n, want, "{args:?}: {v}");
        }
    }
}

/// One corrupt session among many: the others are done, the bad one is
/// reported in `errors`, and the exit code is 65 at the end.
#[test]
fn a_corrupt_session_does_not_stop_the_batch() {
    for args in [
        &["summarize", "--all", "--json"][..],
        &["reset", "--all", "--mode", "summary", "--yes", "--json"],
    ] {
        let root = fixture_copy();
        let r = root.path();
        std::fs::write(r.join("sessions/discord-9001/history.json"), b"[{\"role\":").unwrap();
        let out = sessionctl(r).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(65), "{args:?}: {}", stderr(&out));
        let v = json_of(&out);
        assert_eq!(v["ok"], false);
        let errors = v["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 1, "{v}");
        assert_eq!(errors[0]["session"], "discord-9001");
        assert_eq!(errors[0]["code"], 65);
        assert!(errors[0]["file"]
            .as_str()
            .unwrap()
            .ends_with("history.json"));
        let done: Vec<&str> = v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["session"].as_str().unwrap())
            .collect();
        assert_eq!(done, ["tui-alice", "tui-alice-2"], "{args:?}");
        if args[0] == "reset" {
            assert_eq!(archive_count(r, "tui-alice"), 0, "the others were reset");
            assert!(r.join("sessions/discord-9001/history.json").exists());
        }
    }
}

/// An unknown session named among known ones is its own error (66); the
/// rest are done.
#[test]
fn an_unknown_session_is_reported_and_the_rest_are_done() {
    let root = fixture_copy();
    let r = root.path();
    let out = sessionctl(r)
        .args([
            "reset",
            "tui-alice",
            "nobody",
            "--mode",
            "all",
            "--yes",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(66), "{}", stderr(&out));
    let v = json_of(&out);
    assert_eq!(v["errors"][0]["session"], "nobody");
    assert_eq!(v["results"][0]["session"], "tui-alice");
    assert_eq!(archive_count(r, "tui-alice"), 0);
}

/// A dry run reports what the real run then does, number for number.
#[test]
fn a_dry_run_is_the_real_runs_report() {
    for args in [
        &["reset", "tui-alice", "discord-9001", "--mode", "all"][..],
        &["reset", "tui-alice", "--mode", "summary"],
        &["remove", "tui-alice-2", "discord-9001"],
    ] {
        let root = fixture_copy();
        let r = root.path();
        let before = snapshot(r);
        let dry = sessionctl(r)
            .args(args)
            .args(["--dry-run", "--json"])
            .output()
            .unwrap();
        assert!(dry.status.success(), "{}", stderr(&dry));
        assert_eq!(before, snapshot(r), "{args:?}: a dry run writes nothing");
        let real = sessionctl(r)
            .args(args)
            .args(["--yes", "--json"])
            .output()
            .unwrap();
        assert!(real.status.success(), "{}", stderr(&real));
        let strip = |out: &std::process::Output| -> Vec<Value> {
            results(out)
                .into_iter()
                .map(|mut x| {
                    let o = x.as_object_mut().unwrap();
                    o.remove("dry_run");
                    o.remove("trash");
                    x
                })
                .collect()
        };
        assert_eq!(strip(&dry), strip(&real), "{args:?}");
    }
}

/// --log appends one parseable NDJSON line per run, and a no-op run over
/// many sessions stays one short line.
#[test]
fn the_run_log_is_one_ndjson_line_per_run() {
    let root = fixture_copy();
    let r = root.path();
    let log = r.join("no-home/.local/state/sessionctl/runs.log");
    for args in [
        &["--offline", "compact", "--all", "--yes"][..],
        &["reset", "tui-alice", "--mode", "all", "--yes"],
        &["show", "nobody"],
    ] {
        sessionctl(r)
            .arg("--log")
            .arg(&log)
            .args(args)
            .output()
            .unwrap();
    }
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0]["exit"], 0);
    assert!(lines[0]["changed"].as_array().unwrap().is_empty());
    assert_eq!(lines[1]["command"], "reset");
    assert_eq!(lines[1]["changed"], serde_json::json!(["tui-alice"]));
    assert_eq!(lines[2]["exit"], 66);
    assert_eq!(lines[2]["failed"][0]["code"], 66);
    assert!(lines.iter().all(|l| l["time"].as_str().is_some()));
}
