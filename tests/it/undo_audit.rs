//! Regressions for the audit of undo, the Trash and the archive: what a
//! prune took from an unfinished undo, what a kill left of a new archive,
//! what `check` promised after a killed compact, and what `log` called
//! undoable.

use crate::common::*;
use crate::undo_support::state;

use std::path::Path;

fn ok(r: &Path, args: &[&str]) -> std::process::Output {
    let out = sessionctl(r).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        stderr(&out)
    );
    out
}

/// A history.db SQLite created but a kill cut off before any table was
/// committed is no archive yet: every command takes it as absent, and a
/// writing one creates the schema in it.
#[test]
fn a_zero_byte_archive_is_taken_as_absent_not_as_bad_data() {
    let root = fixture_copy();
    let r = root.path();
    let db = r.join(".store/history.db");
    std::fs::write(&db, b"").unwrap();
    ok(r, &["sessions", "list"]);
    ok(r, &["show", "tui-alice"]);
    let c = sessionctl(r).args(["check"]).output().unwrap();
    assert_ne!(c.status.code(), Some(65), "{}", stderr(&c));
    ok(r, &["check", "--repair", "--yes"]);
    ok(r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
    assert!(
        std::fs::metadata(&db).unwrap().len() > 0,
        "the schema is in"
    );
    fts_integrity_ok(r);
    ok(r, &["undo", "--yes"]);
    assert!(r.join("sessions/tui-alice/history.json").exists());

    // a database with no table at all is no archive either
    let root = fixture_copy();
    let r = root.path();
    std::fs::remove_file(r.join(".store/history.db")).unwrap();
    rusqlite::Connection::open(r.join(".store/history.db"))
        .unwrap()
        .execute_batch("PRAGMA user_version = 7; VACUUM;")
        .unwrap();
    ok(r, &["sessions", "list"]);
    ok(
        r,
        &[
            "--offline",
            "compact",
            "tui-alice",
            "--budget",
            "300",
            "--yes",
        ],
    );
    fts_integrity_ok(r);
}

/// Real content that is not Agenvoy's archive stays bad data: nothing is
/// created over it.
#[test]
fn an_archive_with_other_tables_or_bytes_is_still_65() {
    let root = fixture_copy();
    let r = root.path();
    let db = r.join(".store/history.db");
    std::fs::remove_file(&db).unwrap();
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('mine');")
        .unwrap();
    let before = snapshot(r);
    for args in [
        &["reset", "tui-alice", "--mode", "all", "--yes"][..],
        &["sessions", "list"],
        &["check", "--repair", "--yes"],
    ] {
        let out = sessionctl(r).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(65), "{args:?}: {}", stderr(&out));
        let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
        assert!(said.contains("history.db"), "{args:?}: {said}");
    }
    assert_eq!(before, snapshot(r), "nothing was changed");
    // a few bytes that are not SQLite
    std::fs::write(&db, b"not a database").unwrap();
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
}

/// Killed at every durable step of a compact that creates the archive
/// (the root has none): the rerun completes, `check --repair` and `undo`
/// work, none of them calls the half-made file bad data.
#[test]
fn a_kill_while_the_archive_is_created_leaves_a_root_the_rerun_completes() {
    let base = fixture_copy();
    std::fs::remove_file(base.path().join(".store/history.db")).unwrap();
    let args = [
        "--offline",
        "compact",
        "tui-alice",
        "--budget",
        "300",
        "--yes",
    ];
    let mut in_schema = false;
    for n in 1.. {
        let t = tempfile::tempdir().unwrap();
        copy_tree(base.path(), t.path());
        let r = t.path();
        let killed = sessionctl(r)
            .env("SESSIONCTL_KILL_AT", n.to_string())
            .args(args)
            .output()
            .unwrap();
        if killed.status.success() {
            break;
        }
        assert!(
            stderr(&killed).contains("killed at durable step"),
            "{n}: {killed:?}"
        );
        let db = r.join(".store/history.db");
        if db.exists() && !has_messages_table(r) {
            in_schema = true;
        }
        let c = sessionctl(r).args(["check"]).output().unwrap();
        assert_ne!(c.status.code(), Some(65), "step {n}: {}", stderr(&c));
        ok(r, &args);
        fts_integrity_ok(r);
        for after in [&["check", "--repair", "--yes"][..], &["undo", "--yes"]] {
            let out = sessionctl(r).args(after).output().unwrap();
            assert_ne!(
                out.status.code(),
                Some(65),
                "step {n}, {after:?}: {}",
                stderr(&out)
            );
        }
        assert!(n < 200, "no end to the steps");
    }
    assert!(
        in_schema,
        "no kill landed between creating the file and its schema"
    );
}

fn has_messages_table(r: &Path) -> bool {
    let c = rusqlite::Connection::open_with_flags(
        r.join(".store/history.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    c.query_row(
        "SELECT COUNT(*) FROM sqlite_master WHERE name = 'messages'",
        [],
        |x| x.get::<_, i64>(0),
    )
    .map(|n| n > 0)
    .unwrap_or(false)
}

/// `trash prune` an hour from now: everything there is then over a second
/// old.
fn prune_later(r: &Path, extra: &[&str]) -> std::process::Output {
    let out = sessionctl(r)
        .env("SESSIONCTL_NOW", an_hour_from_now())
        .args(["trash", "prune", "--older-than", "1s", "--yes", "--json"])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

fn pruned_names(out: &std::process::Output) -> Vec<String> {
    results(out)
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_owned())
        .collect()
}

fn warnings(out: &std::process::Output) -> Vec<String> {
    json_of(out)["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_owned())
        .collect()
}

/// An undo killed midway still needs the reset's Trash entry and its own
/// snapshot: a prune keeps both (and says why, in a dry run too), so the
/// rerun of undo puts everything back.
#[test]
fn prune_keeps_what_an_unfinished_undo_still_needs() {
    let root = fixture_copy();
    let r = root.path();
    let before = state(r);
    ok(r, &["reset", "tui-alice", "--mode", "summary", "--yes"]);
    let killed = sessionctl(r)
        .env("SESSIONCTL_FAILPOINT", "restore-after-archive")
        .args(["undo", "--yes"])
        .output()
        .unwrap();
    assert!(stderr(&killed).contains("failpoint"), "{killed:?}");
    let dry = sessionctl(r)
        .env("SESSIONCTL_NOW", an_hour_from_now())
        .args([
            "trash",
            "prune",
            "--older-than",
            "1s",
            "--dry-run",
            "--json",
        ])
        .output()
        .unwrap();
    let out = prune_later(r, &[]);
    assert_eq!(
        pruned_names(&dry),
        pruned_names(&out),
        "the dry run is the run"
    );
    assert_eq!(warnings(&dry), warnings(&out));
    assert!(pruned_names(&out).is_empty(), "{:?}", pruned_names(&out));
    let kept = warnings(&out);
    assert!(
        kept.iter()
            .any(|w| w.contains("tui-alice_") && w.contains("undo")),
        "the entry is reported as kept, with the reason: {kept:?}"
    );
    assert!(
        kept.iter().any(|w| w.contains(".sessionctl/ops/")),
        "{kept:?}"
    );
    ok(r, &["undo", "--yes"]);
    assert_eq!(state(r), before, "the rerun of undo put everything back");
    // once it finished, nothing is needed any more
    let out = prune_later(r, &[]);
    assert!(warnings(&out).is_empty(), "{:?}", warnings(&out));
}

/// A trash restore killed midway: the entry it consumes stays in the Trash
/// through a prune, and its rerun completes the restore.
#[test]
fn prune_keeps_the_entry_an_unfinished_trash_restore_consumes() {
    let root = fixture_copy();
    let r = root.path();
    let before = state(r);
    ok(r, &["remove", "discord-9001", "--yes"]);
    let entry = std::fs::read_dir(r.join("sessions/.Trash"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.starts_with("discord-9001_"))
        .unwrap();
    let killed = sessionctl(r)
        .env("SESSIONCTL_FAILPOINT", "restore-after-archive")
        .args(["trash", "restore", &entry, "--yes"])
        .output()
        .unwrap();
    assert!(stderr(&killed).contains("failpoint"), "{killed:?}");
    let out = prune_later(r, &[]);
    assert!(
        !pruned_names(&out).contains(&entry),
        "{:?}",
        pruned_names(&out)
    );
    assert!(
        warnings(&out)
            .iter()
            .any(|w| w.contains(&entry) && w.contains("trash restore")),
        "{:?}",
        warnings(&out)
    );
    ok(r, &["trash", "restore", &entry, "--yes"]);
    assert_eq!(state(r), before);
}

/// `--keep-last` keeps an entry, and with it what its operation kept
/// besides (a reset --mode summary's summary pre-image): the entry's undo
/// still works after the prune.
#[test]
fn prune_keep_last_keeps_the_pre_images_of_the_entries_it_keeps() {
    let root = fixture_copy();
    let r = root.path();
    let before = state(r);
    ok(r, &["reset", "tui-alice", "--mode", "summary", "--yes"]);
    let log = results(&ok(r, &["log", "--json"]));
    let op = log[0]["id"].as_str().unwrap().to_owned();
    assert!(r.join(".sessionctl/ops").join(&op).exists());
    let out = prune_later(r, &["--keep-last", "1"]);
    assert!(pruned_names(&out).is_empty(), "{:?}", pruned_names(&out));
    assert!(
        r.join(".sessionctl/ops").join(&op).exists(),
        "the summary pre-image of the kept entry's operation stays"
    );
    assert!(
        warnings(&out).iter().any(|w| w.contains(&op)),
        "{:?}",
        warnings(&out)
    );
    ok(r, &["undo", "--yes"]);
    assert_eq!(state(r), before);
}

/// For every operation `log --json` lists, `undoable` is exactly whether
/// `undo ID --force --dry-run` would go ahead (a later change to the same
/// session is what `--force` is for; nothing else may differ).
fn log_agrees_with_undo(r: &Path) {
    let log = results(&ok(r, &["log", "--json", "--limit", "1000"]));
    assert!(!log.is_empty());
    for o in &log {
        let id = o["id"].as_str().unwrap();
        let out = sessionctl(r)
            .args(["undo", id, "--force", "--dry-run", "--json"])
            .output()
            .unwrap();
        assert_eq!(
            o["undoable"] == true,
            out.status.success(),
            "log says {} for {id} ({}), undo exits {:?}: {}",
            o["undoable"],
            o["command"],
            out.status.code(),
            stderr(&out)
        );
    }
}

/// An operation a crash left `done:false` whose pre-images are gone (a
/// prune before the fix above took them, or a hand): `log` said "yes",
/// undo refused. And a removed session whose id is taken again: undo
/// refuses to restore over it, so `log` must not offer it either.
#[test]
fn log_calls_undoable_exactly_what_undo_would_reverse() {
    let root = fixture_copy();
    let r = root.path();
    let killed = sessionctl(r)
        .env("SESSIONCTL_FAILPOINT", "reset-after-file")
        .args(["reset", "tui-alice", "--mode", "summary", "--yes"])
        .output()
        .unwrap();
    assert!(stderr(&killed).contains("failpoint"), "{killed:?}");
    let log = results(&ok(r, &["log", "--json"]));
    assert_eq!(log[0]["done"], false);
    let op = log[0]["id"].as_str().unwrap().to_owned();
    log_agrees_with_undo(r);
    // what it kept is gone
    std::fs::remove_dir_all(r.join(".sessionctl/ops").join(&op)).unwrap();
    log_agrees_with_undo(r);
    let table = String::from_utf8_lossy(&ok(r, &["log"]).stdout).into_owned();
    let row = table.lines().find(|l| l.starts_with(&op)).unwrap();
    assert!(row.contains("no: "), "{row}");

    let root = fixture_copy();
    let r = root.path();
    ok(r, &["remove", "discord-9001", "--yes"]);
    ok(r, &["summarize", "tui-alice", "--yes"]);
    log_agrees_with_undo(r);
    // Agenvoy starts a new conversation under the same id
    std::fs::create_dir_all(r.join("sessions/discord-9001")).unwrap();
    std::fs::write(r.join("sessions/discord-9001/history.json"), "[]").unwrap();
    log_agrees_with_undo(r);
}

/// tui-alice with 40 long exchanges and a task history of six tool steps:
/// a compact to a small budget trims history.json, deletes db1 keys,
/// archives records and folds tool steps.
fn long_session(r: &Path) {
    use serde_json::json;
    let mut records = Vec::new();
    for i in 0..40i64 {
        let t = 1_800_000_000_000_000_000 + i * 10_000_000_000;
        records.push(json!({"role":"user","content":format!("question {i} {}", "words ".repeat(30)),"sendAt":t}));
        records.push(json!({"role":"assistant","content":format!("answer {i} {}", "more words ".repeat(40)),"sendAt":t + 1}));
    }
    std::fs::write(
        r.join("sessions/tui-alice/history.json"),
        serde_json::to_vec_pretty(&records).unwrap(),
    )
    .unwrap();
    let mut task = vec![json!({"role":"user","content":"q"})];
    for k in 0..6 {
        task.push(json!({"role":"assistant","content":"","tool_calls":[{"id":format!("c{k}"),"type":"function","function":{"name":"read_file","arguments":"{}"}}]}));
        task.push(json!({"role":"tool","tool_call_id":format!("c{k}"),"content":"x".repeat(3000)}));
    }
    std::fs::write(
        r.join("sessions/tui-alice/history/5e1f.json"),
        serde_json::to_vec(&task).unwrap(),
    )
    .unwrap();
}

const COMPACT: &[&str] = &[
    "--offline",
    "compact",
    "tui-alice",
    "--budget",
    "1500",
    "--yes",
];

/// `check`'s findings of interrupted work.
fn incomplete(r: &Path) -> Vec<serde_json::Value> {
    let out = sessionctl(r).args(["check", "--json"]).output().unwrap();
    json_of(&out)["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"].as_str().unwrap().starts_with("incomplete"))
        .cloned()
        .collect()
}

/// Where `check` names `undo` as the way back, `undo` goes ahead.
fn check_promises_only_what_undo_does(r: &Path, what: &str) {
    for f in incomplete(r) {
        let detail = f["detail"].as_str().unwrap();
        let Some(rest) = detail.split("`sessionctl undo ").nth(1) else {
            continue;
        };
        let id = rest.split('`').next().unwrap();
        let id = id.split_whitespace().next().unwrap_or(id);
        let out = sessionctl(r)
            .args(["undo", id, "--dry-run", "--json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{what}: check says {detail:?}, undo says {}",
            json_of(&out)["errors"]
        );
    }
}

/// A compact killed after the archive's commit: `check` names what
/// completes it (its rerun), not an undo that has nothing to undo; the
/// rerun completes it and closes its record; one undo then goes back to
/// where the interrupted run started.
#[test]
fn a_killed_compact_is_completed_by_its_rerun_and_check_says_so() {
    let root = fixture_copy();
    let r = root.path();
    long_session(r);
    let before = state(r);
    let killed = sessionctl(r)
        .env("SESSIONCTL_FAILPOINT", "compact-after-archive")
        .args(COMPACT)
        .output()
        .unwrap();
    assert!(stderr(&killed).contains("failpoint"), "{killed:?}");
    let op = results(&ok(r, &["log", "--json"]))[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let found = incomplete(r);
    assert!(!found.is_empty(), "check reports the interrupted compact");
    check_promises_only_what_undo_does(r, "compact-after-archive");
    assert!(
        found
            .iter()
            .any(|f| f["detail"].as_str().unwrap().contains("compact tui-alice")),
        "check names the rerun: {found:?}"
    );
    let dry = ok(r, &[COMPACT, &["--dry-run", "--json"]].concat());
    assert_eq!(one(&dry)["completes"], op.as_str(), "the dry run says so");
    let rerun = ok(r, &[COMPACT, &["--json"]].concat());
    assert_eq!(one(&rerun)["completes"], op.as_str());
    assert!(incomplete(r).is_empty(), "{:?}", incomplete(r));
    let log = results(&ok(r, &["log", "--json"]));
    assert!(log.iter().all(|o| o["done"] == true), "{log:?}");
    assert_eq!(log[0]["undoable"], true);
    ok(r, &["undo", "--yes"]);
    assert_eq!(state(r), before, "one undo goes back to before the kill");
    fts_integrity_ok(r);
}

/// The same at every durable step of the compact.
#[test]
fn a_compact_killed_at_any_step_is_completed_by_its_rerun() {
    let base = fixture_copy();
    long_session(base.path());
    let before = state(base.path());
    let mut kills = 0;
    for n in 1.. {
        let t = tempfile::tempdir().unwrap();
        copy_tree(base.path(), t.path());
        let r = t.path();
        let killed = sessionctl(r)
            .env("SESSIONCTL_KILL_AT", n.to_string())
            .args(COMPACT)
            .output()
            .unwrap();
        if killed.status.success() {
            break;
        }
        assert!(
            stderr(&killed).contains("killed at durable step"),
            "{n}: {killed:?}"
        );
        kills += 1;
        let what = format!("killed at step {n}");
        check_promises_only_what_undo_does(r, &what);
        ok(r, COMPACT);
        assert!(incomplete(r).is_empty(), "{what}: {:?}", incomplete(r));
        ok(r, &["undo", "--yes"]);
        assert!(
            state(r) == before,
            "{what}: undo after the rerun is not the start"
        );
        fts_integrity_ok(r);
        logs_are_toriidb_readable(r);
        assert!(n < 300, "no end to the steps");
    }
    assert!(kills > 10, "{kills}");
}

/// `check --repair` closes the killed compact's record, but the session
/// stays half compacted: `check` goes on reporting that, naming the
/// compact that completes it, until one does; a compact killed while it
/// completes another is completed in turn.
#[test]
fn a_half_compacted_session_is_reported_until_a_compact_completes_it() {
    let root = fixture_copy();
    let r = root.path();
    long_session(r);
    let before = state(r);
    let killed = sessionctl(r)
        .env("SESSIONCTL_FAILPOINT", "compact-after-torii")
        .args(COMPACT)
        .output()
        .unwrap();
    assert!(stderr(&killed).contains("failpoint"), "{killed:?}");
    let c = sessionctl(r)
        .args(["check", "--repair", "--yes"])
        .output()
        .unwrap();
    assert_ne!(c.status.code(), Some(65), "{}", stderr(&c));
    let found = incomplete(r);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["kind"], "incomplete-compact");
    assert_eq!(found[0]["session"], "tui-alice");
    assert!(found[0]["detail"]
        .as_str()
        .unwrap()
        .contains("compact tui-alice"));
    // another command line, killed while it completes it
    let all = ["--offline", "compact", "--all", "--budget", "1500", "--yes"];
    let killed = sessionctl(r)
        .env("SESSIONCTL_FAILPOINT", "compact-after-history")
        .args(all)
        .output()
        .unwrap();
    assert!(stderr(&killed).contains("failpoint"), "{killed:?}");
    assert!(!incomplete(r).is_empty());
    check_promises_only_what_undo_does(r, "the second kill");
    ok(r, &all);
    assert!(incomplete(r).is_empty(), "{:?}", incomplete(r));
    loop {
        let out = sessionctl(r).args(["undo", "--yes"]).output().unwrap();
        if out.status.code() == Some(64) {
            break;
        }
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(
        state(r),
        before,
        "undo goes back to before the first compact"
    );
}
