//! The way back — import, undo, trash restore — attacked as an outside
//! audit did: hostile bundles, bundles with a bad part, an undo racing
//! another write, an undo over a record Agenvoy rewrote, a kill at every
//! durable step (each fsync, rename and SQLite commit), and a migration to
//! a new root as the README tells it.

use std::path::Path;

use crate::common::*;
use crate::undo_support::state;

fn run(r: &Path, args: &[&str]) -> std::process::Output {
    sessionctl(r).args(args).output().unwrap()
}

fn ok(r: &Path, args: &[&str]) -> std::process::Output {
    let out = run(r, args);
    assert!(
        out.status.success(),
        "{args:?}: exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Every file under the root, ours included: a refused write must leave
/// not even a lock file, an oplog line or a staging folder behind.
fn everything(r: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            let rel = p.strip_prefix(base).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            if meta.is_dir() {
                out.push((format!("{rel}/"), Vec::new()));
                walk(base, &p, out);
            } else {
                out.push((rel, std::fs::read(&p).unwrap_or_default()));
            }
        }
    }
    let mut out = Vec::new();
    walk(r, r, &mut out);
    out
}

/// Rewrite a bundle's manifest so its checksums match its files again, as
/// anyone can (sha256 is not a signature).
fn reseal(bundle: &Path) {
    let mpath = bundle.join(".sessionctl/manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&mpath).unwrap()).unwrap();
    for f in m["files"].as_array_mut().unwrap() {
        let p = bundle.join(f["path"].as_str().unwrap());
        let bytes = std::fs::read(&p).unwrap();
        f["size"] = bytes.len().into();
        f["sha256"] = sessionctl::store::bundle::sha256_hex(&bytes).into();
    }
    std::fs::write(&mpath, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
}

fn export_alice(r: &Path, out: &Path) -> std::path::PathBuf {
    ok(r, &["export", "tui-alice", "-o", out.to_str().unwrap()]);
    out.join("tui-alice")
}

fn append(path: &Path, text: &str) {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
}

/// A SET line for another session's key, in ToriiDB's format.
const HIJACK: &str = "{\"cmd\":\"SET\",\"key\":\"discord-9001:1764600000000000000\",\"value\":\"{\\\"role\\\":\\\"user\\\",\\\"content\\\":\\\"HIJACKED\\\"}\",\"ts\":1764600000}\n";

#[test]
fn a_bundle_cannot_write_another_sessions_keys_or_rows() {
    let root = fixture_copy();
    let r = root.path();
    let out = tempfile::tempdir().unwrap();
    let b = export_alice(r, out.path());
    append(&b.join(".sessionctl/torii-db1.jsonl"), HIJACK);
    reseal(&b);
    let before = everything(r);
    let o = run(
        r,
        &["import", b.to_str().unwrap(), "--as", "newid", "--yes"],
    );
    assert_eq!(o.status.code(), Some(65), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("discord-9001:1764600000000000000"),
        "the error names the foreign key: {o:?}"
    );
    assert!(everything(r) == before, "a refused import changes nothing");
    let found = ok(r, &["search", "HIJACKED", "--by", "keyword", "--json"]);
    assert!(results(&found).is_empty());

    // an archive row of another session, likewise
    let out2 = tempfile::tempdir().unwrap();
    let b = export_alice(r, out2.path());
    let rows = b.join(".sessionctl/archive.jsonl");
    let text = std::fs::read_to_string(&rows).unwrap();
    let first = text
        .lines()
        .next()
        .unwrap()
        .replace("\"tui-alice\"", "\"discord-9001\"");
    append(&rows, &format!("{first}\n"));
    reseal(&b);
    let o = run(
        r,
        &["import", b.to_str().unwrap(), "--as", "newid", "--yes"],
    );
    assert_eq!(o.status.code(), Some(65), "{o:?}");
    assert!(everything(r) == before);
}

#[test]
fn a_trash_entry_cannot_write_another_sessions_keys() {
    let root = fixture_copy();
    let r = root.path();
    ok(r, &["remove", "tui-alice", "--yes"]);
    let entry = std::fs::read_dir(r.join("sessions/.Trash"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("tui-alice_")
        })
        .unwrap();
    let part = entry.join(".sessionctl/torii-db1.jsonl");
    assert!(part.exists(), "remove keeps the keys in the entry");
    append(&part, HIJACK);
    reseal(&entry);
    let before = everything(r);
    let name = entry.file_name().unwrap().to_str().unwrap().to_owned();
    let o = run(r, &["trash", "restore", &name, "--yes"]);
    assert_eq!(o.status.code(), Some(65), "{o:?}");
    assert!(everything(r) == before, "a refused restore changes nothing");
    // nor through undo, which reads the same entry
    let o = run(r, &["undo", "--yes"]);
    assert_eq!(o.status.code(), Some(65), "{o:?}");
    assert!(everything(r) == before);
}

/// Each bad part, with checksums that match: 65 and the root byte for byte
/// as it was (no archive rows, no staging folder, no oplog record).
#[test]
fn an_import_with_a_bad_part_is_refused_before_the_first_write() {
    let root = fixture_copy();
    let r = root.path();
    let long_value = "x".repeat(70 * 1024);
    let cases: Vec<(&str, &str, String)> = vec![
        ("torn line", "torii-db1.jsonl", "{\"cmd\":\"SET\",\"key\":\"tui-alice:1\",\"val".into()),
        (
            "a line split by a raw newline",
            "torii-db1.jsonl",
            "{\"cmd\":\"SET\",\"key\":\"tui-alice:2\",\"value\":\"a\nb\",\"ts\":1}\n".into(),
        ),
        (
            "a DEL line",
            "torii-db1.jsonl",
            "{\"cmd\":\"DEL\",\"key\":\"tui-alice:1764547310000000000\",\"ts\":1}\n".into(),
        ),
        (
            "a 70 KB line",
            "torii-db1.jsonl",
            format!(
                "{{\"cmd\":\"SET\",\"key\":\"tui-alice:3\",\"value\":\"{long_value}\",\"ts\":1}}\n"
            ),
        ),
        (
            "a wrong-typed archive row",
            "archive.jsonl",
            "{\"id\":\"seven\",\"session_id\":\"tui-alice\",\"send_at\":1,\"role\":\"user\",\"content\":\"x\",\"sender\":\"\"}\n".into(),
        ),
    ];
    for (what, part, line) in cases {
        let out = tempfile::tempdir().unwrap();
        let b = export_alice(r, out.path());
        append(&b.join(".sessionctl").join(part), &line);
        reseal(&b);
        let before = everything(r);
        let o = run(r, &["import", b.to_str().unwrap(), "--as", "copy", "--yes"]);
        assert_eq!(o.status.code(), Some(65), "{what}: {o:?}");
        assert!(everything(r) == before, "{what}: the root changed");
        // and a rerun says the same, with the root still as it was
        let o = run(r, &["import", b.to_str().unwrap(), "--as", "copy", "--yes"]);
        assert_eq!(o.status.code(), Some(65), "{what}: {o:?}");
        assert!(everything(r) == before, "{what}: the root changed on rerun");
    }
}

#[test]
fn a_tar_import_unpacks_privately_inside_the_root_and_leaves_nothing() {
    let root = fixture_copy();
    let r = root.path();
    let out = tempfile::tempdir().unwrap();
    let tar = out.path().join("s.tar");
    ok(r, &["export", "tui-alice", "-o", tar.to_str().unwrap()]);
    let other = tempfile::tempdir().unwrap();
    let o = other.path();
    copy_fixture(o);
    // a dry run leaves nothing behind, its staging included
    let before = everything(o);
    ok(
        o,
        &["import", tar.to_str().unwrap(), "--as", "copy", "--dry-run"],
    );
    assert!(everything(o) == before);
    ok(
        o,
        &["import", tar.to_str().unwrap(), "--as", "copy", "--yes"],
    );
    let staging = o.join(".sessionctl/tmp");
    let left: Vec<_> = std::fs::read_dir(&staging)
        .map(|rd| rd.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "unpacked bundles are removed: {left:?}");
}

/// An operation between its first oplog line and its first session line
/// is running, not finished with nothing to undo: undo says "retry" (75).
#[test]
fn undo_while_another_write_runs_is_a_retry() {
    let root = fixture_copy();
    let r = root.path();
    ok(r, &["reset", "tui-alice", "--mode", "summary", "--yes"]);
    let dr = sessionctl::store::layout::DataRoot::open(r).unwrap();
    // another sessionctl has begun an operation and holds its lock
    let journal = sessionctl::store::oplog::Journal::new(
        &dr,
        sessionctl::store::oplog::Intent::of("compact"),
    );
    journal.begin().unwrap();
    let o = run(r, &["undo", "--yes"]);
    assert_eq!(o.status.code(), Some(75), "{o:?}");
    let o = run(r, &["undo", "--dry-run"]);
    assert_eq!(o.status.code(), Some(75), "{o:?}");
    // and check does not call it incomplete while it runs
    let c = run(r, &["check", "--json"]);
    assert!(
        !String::from_utf8_lossy(&c.stdout).contains("incomplete"),
        "{c:?}"
    );
    journal.finish(&[], true).unwrap();
    let reset = results(&ok(r, &["log", "--json"]))
        .into_iter()
        .find(|o| o["command"] == "reset")
        .unwrap();
    ok(r, &["undo", reset["id"].as_str().unwrap(), "--yes"]);
}

fn db2_line(key: &str, value: &str, expire_at: i64) -> String {
    let v = serde_json::to_string(value).unwrap();
    format!("{{\"cmd\":\"SET\",\"key\":{},\"value\":{v},\"ts\":1764600000,\"expire_at\":{expire_at}}}\n", serde_json::to_string(key).unwrap())
}

#[test]
fn undo_of_errors_edit_refuses_to_overwrite_what_agenvoy_wrote_since() {
    let root = fixture_copy();
    let r = root.path();
    ok(
        r,
        &[
            "errors",
            "edit",
            "3f1c",
            "--action",
            "retry with 120s",
            "--yes",
        ],
    );
    // undo's dry run says what it writes back: one record
    let dry = ok(r, &["undo", "--dry-run", "--json"]);
    assert_eq!(results(&dry)[0]["torii_keys"], 1, "{dry:?}");
    // Agenvoy rewrites the record afterwards (its dashboard edit)
    let db2 = db(r, 2);
    let (key, e) = db2
        .all()
        .find(|(_, e)| e.value.contains("retry with 120s"))
        .map(|(k, e)| (k.to_owned(), e.clone()))
        .unwrap();
    let rewritten = e.value.replace("retry with 120s", "retry with 300s");
    append(
        &r.join(".store/db_2/record.aof"),
        &db2_line(&key, &rewritten, e.expire_at.unwrap()),
    );
    let before = everything(r);
    let o = run(r, &["undo", "--yes"]);
    assert_eq!(o.status.code(), Some(64), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--force"),
        "{o:?}"
    );
    assert!(everything(r) == before, "nothing overwritten");
    ok(r, &["undo", "--force", "--yes"]);
    let now = db(r, 2);
    assert!(now
        .entry(&key)
        .unwrap()
        .unwrap()
        .value
        .contains("retry with timeout 90s"));
}

#[test]
fn undo_dry_run_of_errors_prune_counts_every_record() {
    let root = fixture_copy();
    let r = root.path();
    // three expired records to prune
    let aof = r.join(".store/db_2/record.aof");
    for i in 0..3 {
        let v = serde_json::json!({"id": format!("{i:064x}"), "timestamp": 1, "tool_name": "t",
            "keywords": [], "symptom": "s", "action": "a", "outcome": "resolved"});
        append(
            &aof,
            &db2_line(&format!("t:{}", 1000 + i), &v.to_string(), 1),
        );
    }
    let p = ok(r, &["errors", "prune", "--expired", "--yes", "--json"]);
    assert_eq!(results(&p).len(), 3, "{p:?}");
    let dry = ok(r, &["undo", "--dry-run", "--json"]);
    let n: u64 = results(&dry)
        .iter()
        .map(|x| x["torii_keys"].as_u64().unwrap())
        .sum();
    assert_eq!(n, 3, "{dry:?}");
}

/// Whether `check` sees an operation left unfinished.
fn incomplete(r: &Path) -> bool {
    let out = run(r, &["check", "--json"]);
    String::from_utf8_lossy(&out.stdout).contains("incomplete")
}

/// Kill `args` at its every durable step in turn; after each kill a rerun
/// completes the command, and the state is the uninterrupted run's.
fn killed_at_every_step(prepare: &dyn Fn(&Path), args: &[&str]) -> usize {
    let base = tempfile::tempdir().unwrap();
    copy_fixture(base.path());
    prepare(base.path());
    killed_at_every_step_of(base.path(), args)
}

/// `killed_at_every_step` on a root prepared by the caller (copied for
/// each run).
fn killed_at_every_step_of(base: &Path, args: &[&str]) -> usize {
    let expected = {
        let t = tempfile::tempdir().unwrap();
        copy_tree(base, t.path());
        ok(t.path(), args);
        state(t.path())
    };
    let mut kills = 0;
    for n in 1.. {
        let t = tempfile::tempdir().unwrap();
        copy_tree(base, t.path());
        let o = sessionctl(t.path())
            .env("SESSIONCTL_KILL_AT", n.to_string())
            .args(args)
            .output()
            .unwrap();
        if o.status.success() {
            break; // fewer steps than n: it ran to the end
        }
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("killed at durable step"),
            "{args:?} at step {n} failed instead of being killed: {o:?}"
        );
        kills += 1;
        // killed at the last step, when its record was already written:
        // it had finished, and a rerun would be another command
        let finished = !incomplete(t.path()) && state(t.path()) == expected;
        if !finished {
            ok(t.path(), args);
            assert!(
                state(t.path()) == expected,
                "{args:?}: killed at step {n}, the rerun left another state"
            );
            assert!(
                !incomplete(t.path()),
                "{args:?}: killed at step {n}, the rerun left its operation open"
            );
        }
        fts_integrity_ok(t.path());
        logs_are_toriidb_readable(t.path());
        assert!(n < 400, "{args:?}: no end to the steps");
    }
    kills
}

#[test]
fn undo_killed_at_any_step_completes_on_rerun() {
    let kills = killed_at_every_step(
        &|r| {
            ok(r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
        },
        &["undo", "--yes"],
    );
    assert!(kills > 10, "the undo was killed at {kills} steps only");
    let kills = killed_at_every_step(
        &|r| {
            ok(
                r,
                &[
                    "compact",
                    "tui-alice",
                    "--max-bytes",
                    "200",
                    "--keep-last",
                    "1",
                    "--yes",
                ],
            );
        },
        &["undo", "--yes"],
    );
    assert!(kills > 5, "{kills}");
}

#[test]
fn trash_restore_killed_at_any_step_completes_on_rerun() {
    let base = tempfile::tempdir().unwrap();
    let r = base.path();
    copy_fixture(r);
    ok(r, &["remove", "discord-9001", "--yes"]);
    let entry = std::fs::read_dir(r.join("sessions/.Trash"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.starts_with("discord-9001_"))
        .unwrap();
    let kills = killed_at_every_step_of(r, &["trash", "restore", &entry, "--yes"]);
    assert!(kills > 5, "{kills}");
}

#[test]
fn import_killed_at_any_step_completes_on_rerun() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    ok(
        src.path(),
        &["export", "tui-alice", "-o", out.path().to_str().unwrap()],
    );
    let bundle = out.path().join("tui-alice");
    let bundle = bundle.to_str().unwrap();
    let kills = killed_at_every_step(&|_| {}, &["import", bundle, "--as", "moved", "--yes"]);
    assert!(kills > 5, "{kills}");
}

/// The sessionctl lines of README's "Moving to another machine" block.
fn readme_migration() -> Vec<Vec<String>> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split("\n## Moving to another machine\n")
        .nth(1)
        .expect("README has the section");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the section has a sh block");
    block
        .lines()
        .filter(|l| l.starts_with("sessionctl "))
        .map(|l| {
            l.split_whitespace()
                .skip(1)
                .map(|w| w.trim_matches('"').to_owned())
                .collect()
        })
        .collect()
}

/// README "Moving to another machine", run as written.
#[test]
fn migration_to_a_new_root_as_the_readme_tells_it() {
    let old = fixture_copy();
    let o = old.path();
    let work = tempfile::tempdir().unwrap();
    let n = work.path().join("new-machine/agenvoy");
    let script = readme_migration();
    assert!(script.len() >= 3, "{script:?}");
    for line in &script {
        let args: Vec<String> = line
            .iter()
            .map(|w| {
                w.replace("$OLD", o.to_str().unwrap())
                    .replace("$NEW", n.to_str().unwrap())
            })
            .collect();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sessionctl"))
            .args(&args)
            .current_dir(work.path())
            .env_clear()
            .env("TZ", "UTC")
            .env("HOME", work.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        if args.iter().any(|a| a == "--dry-run") {
            assert!(!n.exists(), "a dry run makes no root");
        }
    }
    // every tier came along, the error memory included
    for id in ["tui-alice", "tui-alice-2", "discord-9001"] {
        assert_eq!(archive_count(o, id), archive_count(&n, id), "{id}");
        assert_eq!(
            snapshot(&o.join("sessions").join(id)),
            snapshot(&n.join("sessions").join(id)),
            "{id}"
        );
    }
    let keys = |r: &Path, i: u8| {
        let mut k: Vec<String> = db(r, i).all().map(|(k, _)| k.to_owned()).collect();
        k.sort();
        k
    };
    assert_eq!(keys(o, 1), keys(&n, 1));
    assert_eq!(keys(o, 2), keys(&n, 2));
    fts_integrity_ok(&n);
    // without --yes and no terminal, nothing is made
    let elsewhere = work.path().join("other-root");
    let tar = work.path().join("agenvoy-sessions.tar");
    let refused = run(&elsewhere, &["import", tar.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(64), "{refused:?}");
    assert!(!elsewhere.exists(), "nothing made before the confirmation");
    // importing it again is refused, never overwritten
    let again = run(&n, &["import", tar.to_str().unwrap(), "--yes"]);
    assert_eq!(again.status.code(), Some(64), "{again:?}");
    // and the whole import is one undoable operation
    ok(&n, &["undo", "--yes"]);
    let listed = ok(&n, &["sessions", "list", "--json"]);
    assert!(results(&listed).is_empty());
    assert!(
        db(&n, 2).all().next().is_none(),
        "the merged error records went too"
    );
}

/// An undo that hits a full disk (a real tmpfs; root only) stops with 73;
/// its operation stays open (check reports it) and, once there is room, a
/// rerun of `undo` completes it: every tier as before the reset. Tried
/// with the disk full at every few KiB of free room, so the undo stops at
/// one step or another of its way.
#[test]
fn an_undo_stopped_by_a_full_disk_completes_when_run_again() {
    let Some(fs) = Tmpfs::mount("8m") else {
        eprintln!("skipped: mounting a tmpfs needs root");
        return;
    };
    let mut stopped = 0;
    for leave_kib in (0..96).step_by(4) {
        let r = fs.dir.path().join(format!("root{leave_kib}"));
        copy_fixture(&r);
        let before = state(&r);
        ok(&r, &["reset", "tui-alice", "--mode", "all", "--yes"]);
        // fill the disk, then give back `leave_kib`
        let filler = fs.dir.path().join("filler");
        {
            use std::io::Write;
            let mut f = std::fs::File::create(&filler).unwrap();
            let chunk = vec![0u8; 64 * 1024];
            while f.write_all(&chunk).is_ok() {}
            let _ = f.sync_all();
            let len = f.metadata().unwrap().len();
            f.set_len(len.saturating_sub(leave_kib * 1024)).unwrap();
        }
        let o = run(&r, &["undo", "--yes"]);
        std::fs::remove_file(&filler).unwrap();
        match o.status.code() {
            Some(0) => {
                assert!(
                    state(&r) == before,
                    "{leave_kib} KiB free: undo left another state"
                );
            }
            Some(73) => {
                stopped += 1;
                // stopped once it had begun (its record written): open
                let begun = results(&ok(&r, &["log", "--json"]))
                    .iter()
                    .any(|op| op["command"] == "undo");
                if begun {
                    let c = run(&r, &["check"]);
                    assert_eq!(c.status.code(), Some(1), "{leave_kib} KiB: {c:?}");
                    assert!(String::from_utf8_lossy(&c.stdout).contains("incomplete-undo"));
                }
                ok(&r, &["undo", "--yes"]);
                assert!(
                    state(&r) == before,
                    "{leave_kib} KiB free: the rerun of undo left another state"
                );
                assert!(!incomplete(&r), "{leave_kib} KiB: the undo stayed open");
            }
            other => panic!("{leave_kib} KiB free: undo exited {other:?}: {o:?}"),
        }
        std::fs::remove_dir_all(&r).unwrap();
    }
    eprintln!("the undo stopped on a full disk at {stopped} fill levels");
    assert!(stopped > 0, "the disk never filled up mid-undo");
}

/// A tar import killed midway leaves what it unpacked in the root's own
/// state, private (0700); `check` names it and `--repair` removes it, as
/// does the next import.
#[test]
fn what_a_killed_tar_import_unpacked_is_found_and_removed() {
    use std::os::unix::fs::PermissionsExt;
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let tar = out.path().join("s.tar");
    let tar = tar.to_str().unwrap();
    ok(src.path(), &["export", "--all", "-o", tar]);
    let root = fixture_copy();
    let r = root.path();
    let killed = sessionctl(r)
        .env("SESSIONCTL_KILL_AT", "1")
        .args(["import", tar, "--as", "x", "--yes"])
        .output()
        .unwrap();
    // --as with a tar of three sessions is refused before any write: use one
    assert_eq!(killed.status.code(), Some(64), "{killed:?}");
    let one = out.path().join("one.tar");
    ok(
        src.path(),
        &["export", "tui-alice", "-o", one.to_str().unwrap()],
    );
    let killed = sessionctl(r)
        .env("SESSIONCTL_KILL_AT", "1")
        .args(["import", one.to_str().unwrap(), "--as", "x", "--yes"])
        .output()
        .unwrap();
    assert!(!killed.status.success(), "{killed:?}");
    let left: Vec<_> = std::fs::read_dir(r.join(".sessionctl/tmp"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
    let mode = std::fs::metadata(&left[0]).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "unpacked conversations are private");
    let c = run(r, &["check"]);
    assert!(
        String::from_utf8_lossy(&c.stdout).contains("leftover-import-unpack"),
        "{c:?}"
    );
    ok(r, &["check", "--repair", "--yes"]);
    assert!(!left[0].exists());
    // the next import clears one too
    let killed = sessionctl(r)
        .env("SESSIONCTL_KILL_AT", "1")
        .args(["import", one.to_str().unwrap(), "--as", "y", "--yes"])
        .output()
        .unwrap();
    assert!(!killed.status.success());
    ok(r, &["import", one.to_str().unwrap(), "--as", "z", "--yes"]);
    assert_eq!(
        std::fs::read_dir(r.join(".sessionctl/tmp"))
            .unwrap()
            .count(),
        0
    );
}
