//! `errors edit`, `errors prune` and `limits forget` as plan/apply: a dry
//! run reports what the real run then does, field for field, and writes
//! nothing.

use crate::common::*;

use serde_json::{json, Value};

fn run(root: &std::path::Path, args: &[&str]) -> std::process::Output {
    let out = sessionctl(root)
        .arg("--offline")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn without_dry_run(out: &std::process::Output) -> Vec<Value> {
    results(out)
        .into_iter()
        .map(|mut x| {
            x.as_object_mut().unwrap().remove("dry_run");
            x
        })
        .collect()
}

/// Dry run, then the real run, on the same root: same results.
fn dry_then_real(root: &std::path::Path, args: &[&str]) -> Vec<Value> {
    let before = snapshot(root);
    let dry = run(root, &[args, &["--dry-run"]].concat());
    assert_eq!(before, snapshot(root), "{args:?}: a dry run writes nothing");
    let real = run(root, &[args, &["--yes"]].concat());
    let (mut dry, real_rows) = (without_dry_run(&dry), without_dry_run(&real));
    // `--touch` counts the TTL from "now": the two runs may fall either
    // side of a second, which is the only difference allowed.
    for (d, r) in dry.iter_mut().zip(&real_rows) {
        if let (Some(a), Some(b)) = (d["expire_at"].as_i64(), r["expire_at"].as_i64()) {
            if (b - a).abs() <= 2 {
                d["expire_at"] = r["expire_at"].clone();
            }
        }
    }
    assert_eq!(dry, real_rows, "{args:?}");
    results(&real)
}

#[test]
fn an_edit_dry_run_is_the_real_runs_report() {
    let root = fixture_copy();
    let r = root.path();
    // a changed value without an embedder: the record has no vector after
    let done = dry_then_real(r, &["errors", "edit", "3f1c", "--action", "retry twice"]);
    assert_eq!(done[0]["vector"], "none");
    // an unchanged value
    let done = dry_then_real(r, &["errors", "edit", "3f1c", "--touch"]);
    assert_eq!(done[0]["vector"], "none");
    assert_eq!(done[0]["action"], "retry twice");
}

#[test]
fn a_prune_dry_run_is_the_real_runs_report() {
    let root = fixture_copy();
    let r = root.path();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(r.join(".store/db_2/record.aof"))
        .unwrap();
    let value = json!({"id":"dead","timestamp":1,"tool_name":"t","keywords":[],"symptom":"s","action":"a","outcome":"failed"});
    let line = json!({"ts":1,"cmd":"SET","key":"t:1","value":value.to_string(),"expire_at":2});
    std::io::Write::write_all(&mut f, format!("{line}\n").as_bytes()).unwrap();
    let done = dry_then_real(r, &["errors", "prune"]);
    assert!(done.iter().any(|p| p["key"] == "t:1"), "{done:?}");
    let again = run(r, &["errors", "prune", "--dry-run"]);
    assert!(results(&again).is_empty(), "the real run removed them");
}

/// `limits forget --dry-run` is its plan: it reads the cache without the
/// lock, so it writes nothing, not even the lock file.
#[test]
fn a_forget_dry_run_takes_no_lock() {
    let root = fixture_copy();
    let r = root.path();
    run(
        r,
        &[
            "limits",
            "learn",
            "claude@claude-sonnet-4-5",
            "--from-error",
            "prompt is too long: 210312 tokens > 150000 maximum",
        ],
    );
    let lock = r.join(".sessionctl/locks/limits.lock");
    std::fs::remove_file(&lock).unwrap();
    let limits = std::fs::read(r.join(".sessionctl/limits.json")).unwrap();
    let dry = run(
        r,
        &["limits", "forget", "claude@claude-sonnet-4-5", "--dry-run"],
    );
    assert_eq!(one(&dry)["forgotten"], 150000);
    assert!(!lock.exists(), "a dry run leaves no lock file");
    assert_eq!(
        limits,
        std::fs::read(r.join(".sessionctl/limits.json")).unwrap()
    );
}

/// `limits refresh --dry-run` is the merge the real run writes, with or
/// without the smaller windows.
#[test]
fn a_refresh_dry_run_is_the_real_runs_report() {
    const TABLE: &str = r#"{"claude":{"claude-sonnet-4-5":{"in":180000,"out":64000}},
      "openai":{"gpt-4o":{"in":128000,"out":16384}},"brand":{"new-model":{"in":32000}}}"#;
    let server = TestServer::start(|_, _| Reply::json(200, TABLE));
    for yes in [&["--yes"][..], &[]] {
        let root = fixture_copy();
        let r = root.path();
        let refresh = |extra: &[&str]| {
            let out = sessionctl(r)
                .args(["limits", "refresh", "--url", &server.url, "--json"])
                .args(yes)
                .args(extra)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let mut v = one(&out);
            let o = v.as_object_mut().unwrap();
            o.remove("dry_run");
            o.remove("fetched_at");
            v
        };
        let limits = r.join(".sessionctl/limits.json");
        let before = std::fs::read(&limits).ok();
        let dry = refresh(&["--dry-run"]);
        assert_eq!(
            before,
            std::fs::read(&limits).ok(),
            "a dry run writes nothing"
        );
        let real = refresh(&[]);
        assert_eq!(dry, real, "{yes:?}");
        assert_eq!(real["shrinks_applied"], !yes.is_empty());
    }
}
