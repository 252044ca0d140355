//! Regressions for the data-safety audit: what compact, reset,
//! remove and check did wrong, attacked the way the audit attacked it.

use crate::common::*;

use std::path::Path;

use serde_json::{json, Value};

fn write_history(root: &Path, session: &str, records: &[Value]) {
    std::fs::write(
        root.join("sessions").join(session).join("history.json"),
        serde_json::to_vec_pretty(records).unwrap(),
    )
    .unwrap();
}

/// Every archived content of a session, as a sorted multiset.
fn archived(root: &Path, session: &str) -> Vec<(i64, String, String)> {
    let db = sqlite(root);
    let mut stmt = db
        .prepare("SELECT send_at, role, content FROM messages WHERE session_id = ?1")
        .unwrap();
    let mut rows: Vec<(i64, String, String)> = stmt
        .query_map([session], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    rows.sort();
    rows
}

/// A long conversation in tui-alice whose first exchanges hold `content`s
/// that look like Agenvoy's legacy prefix lines; nothing of it archived.
fn prefix_looking_history(root: &Path) -> Vec<Value> {
    let odd = [
        "sender: alice\nthe real question",
        "sendAt: 2025-01-01 00:00:00, sender: bob",
        "channelId: 42\n第二行：日本語と中文\nthird line",
        "sender:",
        "sendAt: yes — this is how I start my notes\n\nand more",
    ];
    let mut records = Vec::new();
    for i in 0..60i64 {
        let t = 1_800_000_000_000_000_000 + i * 10_000_000_000;
        let user = match odd.get(i as usize) {
            Some(s) => (*s).to_owned(),
            None => format!("question {i} {}", "words ".repeat(30)),
        };
        records.push(json!({"role":"user","content":user,"sendAt":t}));
        let reply = odd.get((i as usize + 2) % 7).map_or_else(
            || format!("answer {i} {}", "more ".repeat(40)),
            |s| s.to_string(),
        );
        records.push(json!({"role":"assistant","content":reply,"sendAt":t + 1}));
    }
    write_history(root, "tui-alice", &records);
    sqlite(root)
        .execute("DELETE FROM messages WHERE session_id = 'tui-alice'", [])
        .unwrap();
    records
}

/// Item 1: a record whose content starts with `sender:`, `sendAt:` or
/// `channelId:` is archived byte-identical, never with its first line cut.
#[test]
fn compact_archives_prefix_looking_content_verbatim() {
    let root = fixture_copy();
    let r = root.path();
    let records = prefix_looking_history(r);
    let out = sessionctl(r)
        .args([
            "--offline",
            "compact",
            "tui-alice",
            "--budget",
            "1500",
            "--yes",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let removed = one(&out)["removed_records"].as_u64().unwrap() as usize;
    assert!(removed > 10, "the odd records must leave history.json");
    let rows = archived(r, "tui-alice");
    for rec in &records[..removed] {
        let want = (
            rec["sendAt"].as_i64().unwrap(),
            rec["role"].as_str().unwrap().to_owned(),
            rec["content"].as_str().unwrap().to_owned(),
        );
        assert!(rows.contains(&want), "not archived verbatim: {want:?}");
    }
}

/// Item 10b: two identical records without a sendAt are two messages: both
/// reach the archive, and a rerun adds nothing.
#[test]
fn identical_records_without_send_at_keep_their_multiplicity() {
    let root = fixture_copy();
    let r = root.path();
    let mut records = Vec::new();
    for i in 0..30 {
        // Agenvoy's duplicate saves: the same exchange twice, no times
        let q = if i < 4 {
            "same question".to_owned()
        } else {
            format!("q{i} {}", "w ".repeat(60))
        };
        let a = if i < 4 {
            "same answer".to_owned()
        } else {
            format!("a{i} {}", "x ".repeat(60))
        };
        records.push(json!({"role":"user","content":q}));
        records.push(json!({"role":"assistant","content":a}));
    }
    write_history(r, "tui-alice", &records);
    sqlite(r)
        .execute("DELETE FROM messages WHERE session_id = 'tui-alice'", [])
        .unwrap();
    let out = sessionctl(r)
        .args([
            "--offline",
            "compact",
            "tui-alice",
            "--budget",
            "800",
            "--yes",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let removed = one(&out)["removed_records"].as_u64().unwrap() as usize;
    assert!(removed >= 8, "{removed}");
    let rows = archived(r, "tui-alice");
    let count = |text: &str| rows.iter().filter(|(_, _, c)| c == text).count();
    assert_eq!(count("same question"), 4, "{rows:?}");
    assert_eq!(count("same answer"), 4);
    assert_eq!(rows.len(), removed);
    // check agrees: only the records still in history.json (never
    // archived in this test) are missing, each counted once
    let kept = records.len() - removed;
    let out = sessionctl(r)
        .args(["check", "tui-alice", "--json"])
        .output()
        .unwrap();
    let v = json_of(&out);
    let missing = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "missing-from-archive")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(
        missing["detail"],
        format!("{kept} of {kept} history record(s) are not in the archive")
    );
}

/// Item 10c: a compact killed at any step before it finishes leaves no
/// stale db1 key once the rerun is done.
#[test]
fn a_compact_killed_before_its_torii_deletes_completes_on_rerun() {
    for point in [
        "compact-after-history",
        "compact-after-archive",
        "compact-after-torii",
    ] {
        let root = fixture_copy();
        let r = root.path();
        let records = prefix_looking_history(r);
        // a db1 key per record, as Agenvoy writes them
        let mut aof = std::fs::OpenOptions::new()
            .append(true)
            .open(r.join(".store/db_1/record.aof"))
            .unwrap();
        for rec in &records {
            use std::io::Write;
            let line = json!({"ts":1796220417,"cmd":"SET","key":format!("tui-alice:{}", rec["sendAt"]),"value":"{}"});
            writeln!(aof, "{line}").unwrap();
        }
        drop(aof);
        let args = [
            "--offline",
            "compact",
            "tui-alice",
            "--budget",
            "1500",
            "--yes",
        ];
        let out = sessionctl(r)
            .env("SESSIONCTL_FAILPOINT", point)
            .args(args)
            .output()
            .unwrap();
        assert!(
            stderr(&out).contains("failpoint"),
            "{point} not reached: {}",
            stderr(&out)
        );
        let again = sessionctl(r).args(args).output().unwrap();
        assert!(again.status.success(), "{point}: {}", stderr(&again));
        let kept: Vec<Value> = serde_json::from_slice(
            &std::fs::read(r.join("sessions/tui-alice/history.json")).unwrap(),
        )
        .unwrap();
        let first = kept[0]["sendAt"].as_i64().unwrap();
        assert!(
            kept.len() < records.len(),
            "{point}: the rerun must compact"
        );
        let stale: Vec<String> = db1_keys(r)
            .into_iter()
            .filter(|k| {
                k.strip_prefix("tui-alice:")
                    .and_then(|n| n.parse::<i64>().ok())
                    .is_some_and(|n| n < first)
            })
            .collect();
        assert!(stale.is_empty(), "{point}: stale db1 keys {stale:?}");
    }
}

fn fold_heavy_task() -> Vec<Value> {
    let mut task = vec![json!({"role":"user","content":"what broke the deploy?"})];
    for k in 0..12 {
        task.push(json!({"role":"assistant","content":"","tool_calls":[{"id":format!("c{k}"),"type":"function","function":{"name":"read_file","arguments":format!("{{\"path\":\"/var/log/app{k}.log\"}}")}}]}));
        task.push(json!({"role":"tool","tool_call_id":format!("c{k}"),"content":format!("log {k}: {}", "line of output ".repeat(250))}));
    }
    task
}

/// Items 2 and 3: when folding old tool steps is not enough, the raw steps
/// go before the folded message; and everything that leaves a task history
/// is kept, as it was, in the session's trash entry (the dry run says so).
#[test]
fn task_history_trims_keep_the_folded_message_and_save_what_they_remove() {
    let root = fixture_copy();
    let r = root.path();
    let task = fold_heavy_task();
    let path = r.join("sessions/tui-alice/history/5e1f.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&task).unwrap()).unwrap();
    let original = std::fs::read(&path).unwrap();
    let before = snapshot(r);
    // 4500: folding leaves it just over the target (3,600), so one raw step must go
    let args = [
        "--offline",
        "compact",
        "tui-alice",
        "--budget",
        "4500",
        "--json",
    ];
    let dry = sessionctl(r).args(args).arg("--dry-run").output().unwrap();
    assert!(dry.status.success(), "{}", stderr(&dry));
    let dv = one(&dry);
    assert_eq!(dv["task_histories_saved"], json!(["5e1f.json"]), "{dv}");
    assert_eq!(before, snapshot(r), "a dry run writes nothing");

    let out = sessionctl(r).args(args).arg("--yes").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v = one(&out);
    let stages: Vec<&str> = v["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["stage"].as_str().unwrap())
        .collect();
    assert!(
        stages.contains(&"tools") && stages.contains(&"trim-tasks"),
        "{v}"
    );
    assert_eq!(v["stages"], dv["stages"], "the dry run is the plan");
    // the folded message survives the trim; raw steps went first
    let after: Vec<Value> = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert!(
        after.iter().any(|m| m["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("Prior tool findings"))),
        "the folded steps were dropped: {after:#?}"
    );
    // the task history as it was is in the trash, byte for byte
    let trash = std::path::PathBuf::from(v["trash"].as_str().expect("a trash entry"));
    assert!(trash.starts_with(r.join("sessions/.Trash")));
    assert_eq!(
        std::fs::read(trash.join("history/5e1f.json")).unwrap(),
        original
    );
}

/// Item 4: `remove` saves and deletes the archive rows in one transaction:
/// a row another writer adds meanwhile is either saved in the trash or
/// still in the archive, never lost.
#[test]
fn remove_never_deletes_a_row_it_did_not_save() {
    for round in 0..6 {
        let root = fixture_copy();
        let r = root.path().to_path_buf();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (r2, stop2) = (r.clone(), stop.clone());
        let writer = std::thread::spawn(move || {
            let db = sqlite(&r2);
            db.busy_timeout(std::time::Duration::from_secs(20)).unwrap();
            let mut n = 0i64;
            while !stop2.load(std::sync::atomic::Ordering::SeqCst) {
                db.execute(
                    "INSERT INTO messages (session_id, send_at, role, content, sender) VALUES ('tui-alice', ?1, 'user', ?2, '')",
                    rusqlite::params![1_900_000_000_000_000_000i64 + n, format!("late {n}")],
                )
                .unwrap();
                n += 1;
                // Agenvoy inserts a message at a time, not in a tight loop
                std::thread::sleep(std::time::Duration::from_micros(300));
            }
            n
        });
        std::thread::sleep(std::time::Duration::from_millis(30));
        let out = sessionctl(&r)
            .args(["remove", "tui-alice", "--yes", "--json"])
            .output()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(30));
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let written = writer.join().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let trash = std::path::PathBuf::from(one(&out)["trash"].as_str().unwrap());
        let saved = std::fs::read_to_string(trash.join(".sessionctl/archive.jsonl")).unwrap();
        let left = archived(&r, "tui-alice");
        for n in 0..written {
            let text = format!("late {n}");
            let in_trash = saved.contains(&format!("\"content\":\"{text}\""));
            let in_archive = left.iter().any(|(_, _, c)| *c == text);
            assert!(
                in_trash || in_archive,
                "round {round}: row {text:?} is lost"
            );
        }
    }
}

/// Item 13: a writer killed mid-transaction leaves a hot journal. Reading
/// commands still work, `check` reports it, `check --repair` clears it.
#[test]
fn a_hot_journal_does_not_stop_readers_and_check_repairs_it() {
    let live = fixture_copy();
    // A writer mid-transaction whose changes already reached the database
    // file (a small cache spills), copied as a kill would leave it: the
    // copy has a hot journal and nobody holds its lock.
    let root = tempfile::tempdir().unwrap();
    let saved = tempfile::tempdir().unwrap();
    {
        let db = sqlite(live.path());
        db.execute_batch("PRAGMA cache_size = 1; BEGIN IMMEDIATE;")
            .unwrap();
        for i in 0..400 {
            db.execute(
                "INSERT INTO messages (session_id, send_at, role, content) VALUES ('tui-alice', ?1, 'user', ?2)",
                rusqlite::params![i, "half-written ".repeat(40)],
            )
            .unwrap();
        }
        copy_tree(live.path(), root.path());
        copy_tree(live.path(), saved.path());
        db.execute_batch("ROLLBACK").unwrap();
    }
    let r = root.path();
    let journal = r.join(".store/history.db-journal");
    assert!(journal.exists(), "the copy has the journal");

    // check reports it without touching it
    let out = sessionctl(r).args(["check", "--json"]).output().unwrap();
    let v = json_of(&out);
    assert_eq!(out.status.code(), Some(1), "{v}");
    assert!(
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["kind"] == "archive-hot-journal"),
        "{v}"
    );
    assert!(journal.exists(), "check without --repair changes nothing");
    let out = sessionctl(r)
        .args(["check", "--repair", "--yes", "--json"])
        .output()
        .unwrap();
    assert!(
        json_of(&out)["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["kind"] == "archive-hot-journal" && f["repaired"] == true),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!journal.exists() || std::fs::metadata(&journal).unwrap().len() == 0);
    fts_integrity_ok(r);

    assert_eq!(
        archive_count(r, "tui-alice"),
        4,
        "the half-written rows are gone"
    );

    // on a second copy, plain readers work (SQLite rolls the journal back)
    let r = saved.path();
    for args in [
        &["sessions", "list", "--json"][..],
        &["show", "tui-alice", "--json"],
    ] {
        let out = sessionctl(r).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let list = results(&out);
        let alice = list.iter().find(|s| s["session"] == "tui-alice").unwrap();
        let archived = if args[0] == "show" {
            &alice["archive"]["messages"]
        } else {
            &alice["archived"]
        };
        assert_eq!(*archived, 4, "{alice}");
    }
    fts_integrity_ok(r);
}

/// Item 17: `check` is linear in records without a sendAt (20k records
/// took 16.9 s before).
#[test]
fn check_is_linear_in_records_without_send_at() {
    let root = fixture_copy();
    let r = root.path();
    let n = 20_000;
    let records: Vec<Value> = (0..n)
        .map(|i| json!({"role": if i % 2 == 0 {"user"} else {"assistant"}, "content": format!("message number {i}")}))
        .collect();
    write_history(r, "tui-alice", &records);
    {
        let mut db = sqlite(r);
        let tx = db.transaction().unwrap();
        for rec in &records {
            tx.execute(
                "INSERT INTO messages (session_id, send_at, role, content) VALUES ('tui-alice', 0, ?1, ?2)",
                rusqlite::params![rec["role"].as_str().unwrap(), rec["content"].as_str().unwrap()],
            )
            .unwrap();
        }
        tx.commit().unwrap();
    }
    let started = std::time::Instant::now();
    let out = sessionctl(r)
        .args(["check", "tui-alice", "--json"])
        .output()
        .unwrap();
    let took = started.elapsed();
    let v = json_of(&out);
    assert!(
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["kind"] != "missing-from-archive"),
        "{v}"
    );
    assert!(
        took < std::time::Duration::from_secs(4),
        "check took {took:?}"
    );
}
