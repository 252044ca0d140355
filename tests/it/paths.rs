//! Nothing outside the data root is followed, opened, created or moved;
//! special files never make a command hang; session ids of any valid
//! length fit in the file names we derive from them.

use crate::common::*;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

const RESET: &[&str] = &["reset", "tui-alice", "--mode", "all", "--yes"];
const REMOVE: &[&str] = &["remove", "tui-alice", "--yes"];
const COMPACT: &[&str] = &[
    "compact",
    "tui-alice",
    "--budget",
    "50",
    "--keep-last",
    "1",
    "--yes",
];
const EDIT: &[&str] = &["errors", "edit", "3f1c", "--action", "changed", "--yes"];
const REPAIR: &[&str] = &["check", "--repair", "--yes"];
const SUMMARIZE: &[&str] = &["summarize", "tui-alice", "--rebuild", "--yes"];

/// Run offline with a timeout: a command that blocks fails the test
/// instead of hanging it.
fn run(r: &Path, args: &[&str]) -> Output {
    sessionctl(r)
        .arg("--offline")
        .args(args)
        .timeout(Duration::from_secs(10))
        .output()
        .unwrap()
}

/// Two snapshots are equal; on failure, name the paths that differ.
fn same(before: &Snapshot, after: &Snapshot, what: &str) {
    let changed: Vec<_> = before
        .keys()
        .chain(after.keys())
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert!(changed.is_empty(), "{what} was modified: {changed:?}");
}

type Snapshot = std::collections::BTreeMap<PathBuf, Vec<u8>>;

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Put `root/rel` outside the root and leave a symlink to it in its place
/// (a folder is moved; a missing path becomes an empty folder outside).
/// The outside folder also holds a sentinel file.
fn link_out(r: &Path, rel: &str, outside: &Path) -> PathBuf {
    let inside = r.join(rel);
    let target = outside.join(rel.replace('/', "_"));
    if std::fs::symlink_metadata(&inside).is_ok() {
        std::fs::rename(&inside, &target).unwrap();
    } else {
        std::fs::create_dir_all(inside.parent().unwrap()).unwrap();
        std::fs::create_dir_all(&target).unwrap();
    }
    std::os::unix::fs::symlink(&target, &inside).unwrap();
    std::fs::write(outside.join("sentinel"), b"do not touch").unwrap();
    inside
}

/// The mirror folders (`db_N/xx/`) of both ToriiDB logs, linked out.
fn link_mirrors_out(r: &Path, outside: &Path) -> Vec<PathBuf> {
    let mut links = Vec::new();
    for db in ["db_1", "db_2"] {
        for e in std::fs::read_dir(r.join(".store").join(db)).unwrap() {
            let name = e.unwrap().file_name().into_string().unwrap();
            if name.len() == 2 {
                links.push(link_out(r, &format!(".store/{db}/{name}"), outside));
            }
        }
    }
    links
}

/// A fixture copy where check --repair has something to do: one of
/// tui-alice's records is missing from the archive.
fn root_with_work() -> tempfile::TempDir {
    let root = fixture_copy();
    sqlite(root.path())
        .execute(
            "DELETE FROM messages WHERE id = (SELECT MAX(id) FROM messages WHERE session_id='tui-alice')",
            [],
        )
        .unwrap();
    root
}

#[test]
fn a_symlink_out_of_the_root_is_refused_with_65_and_nothing_changes() {
    // which commands must refuse each link (they write through it, or read
    // through it before they write); the others may run, but must not
    // touch what is outside either
    let all: &[&[&str]] = &[RESET, REMOVE, COMPACT, EDIT, REPAIR, SUMMARIZE];
    let cases: &[(&str, &[&[&str]])] = &[
        (".store", all),
        ("sessions", &[RESET, REMOVE, COMPACT, REPAIR, SUMMARIZE]),
        ("sessions/.Trash", &[RESET, REMOVE, SUMMARIZE]),
        (".store/db_1/record.aof", &[RESET, REMOVE, COMPACT, REPAIR]),
        (".store/db_1", &[RESET, REMOVE, COMPACT, REPAIR]),
        (".store/db_2", &[EDIT, REPAIR]),
        (
            ".store/history.db",
            &[RESET, REMOVE, COMPACT, REPAIR, SUMMARIZE],
        ),
        (".sessionctl", all),
        (".sessionctl/locks", all),
        ("sessions/tui-alice/history", &[COMPACT, REPAIR]),
        ("mirrors", &[RESET, REMOVE, COMPACT, EDIT]),
    ];
    // each link on its own thread: 66 runs, mostly process start-up
    std::thread::scope(|scope| {
        for (rel, must_refuse) in cases {
            scope.spawn(move || refuses_link(rel, must_refuse, all));
        }
    });
}

/// Link `rel` out of a fresh root and run every command against it.
fn refuses_link(rel: &str, must_refuse: &[&[&str]], all: &[&[&str]]) {
    for args in all {
        let root = root_with_work();
        let r = &root.path().canonicalize().unwrap();
        let outside = tempfile::tempdir().unwrap();
        if rel == ".sessionctl/locks" {
            std::fs::create_dir_all(r.join(".sessionctl")).unwrap();
        }
        let links = if rel == "mirrors" {
            link_mirrors_out(r, outside.path())
        } else {
            vec![link_out(r, rel, outside.path())]
        };
        let (before, outside_before) = (snapshot(r), snapshot(outside.path()));
        let out = run(r, args);
        let what = format!("{rel} → outside, {args:?}: {}", text(&out));
        same(
            &outside_before,
            &snapshot(outside.path()),
            &format!("{what}: outside"),
        );
        let refused = out.status.code() == Some(65);
        if must_refuse.contains(args) {
            assert!(refused, "{what}: expected 65");
        }
        if refused {
            let msg = text(&out);
            assert!(
                links.iter().any(|l| msg.contains(&l.display().to_string()))
                    && msg.contains("outside the data root"),
                "{what}: the error must name the link"
            );
            same(&before, &snapshot(r), &format!("{what}: the root"));
        } else {
            assert!(out.status.code().is_some(), "{what}: killed (a hang?)");
        }
    }
}

#[test]
fn symlinks_that_stay_inside_the_root_are_followed() {
    let root = fixture_copy();
    let r = &root.path().canonicalize().unwrap();
    // the store lives in another folder of the root
    std::fs::rename(r.join(".store"), r.join("store-real")).unwrap();
    std::os::unix::fs::symlink("store-real", r.join(".store")).unwrap();
    let out = run(r, RESET);
    assert!(out.status.success(), "{}", text(&out));
    assert!(db1_keys(r).iter().all(|k| !k.starts_with("tui-alice:")));
    assert_eq!(archive_count(r, "tui-alice"), 0);
}

fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

#[test]
fn a_fifo_anywhere_we_open_is_refused_promptly_with_65() {
    for rel in [
        ".store/db_1/record.aof",
        ".store/history.db",
        ".sessionctl/locks/store.lock",
        ".sessionctl/locks/session-tui-alice.lock",
        "runtime.uid",
        "sessions/tui-alice/history.json",
    ] {
        let root = fixture_copy();
        let r = &root.path().canonicalize().unwrap();
        let p = r.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(&p);
        mkfifo(&p);
        let before = snapshot(r);
        let started = std::time::Instant::now();
        // `reset --mode all` moves history.json away unread (a FIFO too,
        // harmlessly); `--mode summary` must read it first.
        let args = if rel.ends_with("history.json") {
            &["reset", "tui-alice", "--mode", "summary", "--yes"][..]
        } else {
            RESET
        };
        let out = run(r, args);
        assert_eq!(out.status.code(), Some(65), "FIFO at {rel}: {}", text(&out));
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(
            text(&out).contains(&p.display().to_string()),
            "{rel}: {}",
            text(&out)
        );
        same(&before, &snapshot(r), &format!("FIFO at {rel}: the root"));
    }
}

#[test]
fn runtime_uid_linked_to_dev_zero_is_65_and_nothing_is_written() {
    use std::os::unix::process::CommandExt;
    let root = fixture_copy();
    let r = &root.path().canonicalize().unwrap();
    std::os::unix::fs::symlink("/dev/zero", r.join("runtime.uid")).unwrap();
    let before = snapshot(r);
    // Today's bug reads /dev/zero until memory runs out: cap the address
    // space so a regression fails fast instead of starving the machine.
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("sessionctl"));
    cmd.env_clear()
        .env("HOME", r.join("no-home"))
        .arg("--root")
        .arg(r)
        .args(RESET);
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 1 << 30,
                rlim_max: 1 << 30,
            };
            libc::setrlimit(libc::RLIMIT_AS, &lim);
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(65), "{}", text(&out));
    assert!(text(&out).contains("runtime.uid"), "{}", text(&out));
    same(&before, &snapshot(r), "the root");
}

/// Give session `to` a copy of `from`'s folder, archive rows and db1 keys.
fn clone_session(r: &Path, from: &str, to: &str) {
    copy_tree(&r.join("sessions").join(from), &r.join("sessions").join(to));
    sqlite(r)
        .execute(
            "INSERT INTO messages(session_id, send_at, role, content, sender)
             SELECT ?2, send_at, role, content, sender FROM messages WHERE session_id = ?1",
            [from, to],
        )
        .unwrap();
    let db = db(r, 1);
    let mut lines = String::new();
    for key in db.session_keys(from, sessionctl::store::torii::now_unix()) {
        let e = db.get(&key).unwrap();
        let new_key = key.replacen(from, to, 1);
        lines.push_str(&String::from_utf8(e.compacted_line(&new_key)).unwrap());
    }
    use std::io::Write;
    std::fs::OpenOptions::new()
        .append(true)
        .open(r.join(".store/db_1/record.aof"))
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
}

/// The trash entry whose recorded session id is `id`.
fn trash_entry_of(r: &Path, id: &str) -> Option<PathBuf> {
    std::fs::read_dir(r.join("sessions/.Trash"))
        .ok()?
        .map(|e| e.unwrap().path())
        .find(|t| std::fs::read_to_string(t.join(".sessionctl/session-id")).is_ok_and(|s| s == id))
}

#[test]
fn a_255_byte_session_id_goes_through_reset_remove_and_compact() {
    let long = format!("tui-{}", "x".repeat(251));
    assert_eq!(long.len(), 255);
    for args in [
        &["reset", &long, "--mode", "all", "--yes", "--json"][..],
        &["remove", &long, "--yes", "--json"],
        &[
            "compact",
            &long,
            "--budget",
            "50",
            "--keep-last",
            "1",
            "--yes",
            "--json",
        ],
    ] {
        let root = fixture_copy();
        let r = &root.path().canonicalize().unwrap();
        clone_session(r, "tui-alice", &long);
        let history = std::fs::read(r.join("sessions").join(&long).join("history.json")).unwrap();
        let out = run(r, args);
        assert!(out.status.success(), "{}: {}", args[0], text(&out));
        let v = one(&out);
        match args[0] {
            "compact" => assert!(v["removed_records"].as_u64().unwrap() > 0, "{v}"),
            _ => {
                assert_eq!(archive_count(r, &long), 0);
                assert!(db1_keys(r).iter().all(|k| !k.starts_with(&long)));
                let entry = trash_entry_of(r, &long).expect("the trash entry records the id");
                assert_eq!(Path::new(v["trash"].as_str().unwrap()), entry);
                assert_eq!(std::fs::read(entry.join("history.json")).unwrap(), history);
            }
        }
    }
}

#[test]
fn a_session_link_inside_the_root_is_not_said_to_link_out_of_it() {
    let root = fixture_copy();
    let r = root.path();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("tui-alice", r.join("sessions/linked")).unwrap();
    std::os::unix::fs::symlink(outside.path(), r.join("sessions/outlink")).unwrap();
    for args in [&["sessions", "list"][..], &["check"][..]] {
        let said = text(&run(r, args));
        for line in said.lines().filter(|l| l.contains("sessions/linked")) {
            assert!(!line.contains("out of the data root"), "{args:?}: {line}");
            assert!(line.contains("inside the data root"), "{args:?}: {line}");
            assert!(line.contains("sessions/tui-alice"), "{args:?}: {line}");
        }
        for line in said.lines().filter(|l| l.contains("sessions/outlink")) {
            assert!(line.contains("out of the data root"), "{args:?}: {line}");
        }
    }
    let said = text(&run(r, &["sessions", "list"]));
    assert!(said.contains("sessions/linked"), "{said}");
    assert!(said.contains("sessions/outlink"), "{said}");
}
