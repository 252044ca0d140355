//! `export` → `import` moves a session between roots with every tier
//! intact; a bundle changed after export is refused (65).

use crate::common::*;

use std::path::Path;

/// One session's tiers, comparable across roots: files byte for byte,
/// archive rows without their ids (a multiset), start_at, db1 entries.
type Rows = Vec<(i64, String, String, String)>;
type Entries = Vec<(String, String, i64, Option<i64>, Option<String>)>;
type Files = Vec<(std::path::PathBuf, Vec<u8>)>;
type Tiers = (Files, Rows, Option<i64>, Entries);
/// How a test changes a bundle after export.
type Tamper = (&'static str, fn(&Path));

fn tiers(r: &Path, id: &str) -> Tiers {
    let files = snapshot(&r.join("sessions").join(id)).into_iter().collect();
    let c = sqlite(r);
    let mut rows: Rows = c
        .prepare("SELECT send_at, role, content, sender FROM messages WHERE session_id = ?1")
        .unwrap()
        .query_map([id], |x| Ok((x.get(0)?, x.get(1)?, x.get(2)?, x.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    rows.sort();
    let start = c
        .query_row(
            "SELECT start_at FROM session_meta WHERE session_id = ?1",
            [id],
            |x| x.get(0),
        )
        .ok();
    let mut entries: Entries = db(r, 1)
        .all()
        .filter(|(k, _)| k.starts_with(&format!("{id}:")))
        .map(|(k, e)| {
            (
                k.to_owned(),
                e.value.clone(),
                e.created_at,
                e.expire_at,
                e.vector.clone(),
            )
        })
        .collect();
    entries.sort();
    (files, rows, start, entries)
}

fn empty_root() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join("sessions")).unwrap();
    d
}

fn ok(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn export_then_import_into_an_empty_root_keeps_every_tier() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let before = snapshot(src.path());
    ok(&sessionctl(src.path())
        .args(["export", "tui-alice", "discord-9001", "-o"])
        .arg(out.path())
        .output()
        .unwrap());
    assert_eq!(snapshot(src.path()), before, "export changes nothing");
    let dst = empty_root();
    for id in ["tui-alice", "discord-9001"] {
        let o = sessionctl(dst.path())
            .args(["import", "--yes", "--json"])
            .arg(out.path().join(id))
            .output()
            .unwrap();
        ok(&o);
        assert_eq!(one(&o)["session"], id);
        assert_eq!(tiers(dst.path(), id), tiers(src.path(), id), "{id}");
    }
    fts_integrity_ok(dst.path());
    logs_are_toriidb_readable(dst.path());
    let log = results(
        &sessionctl(dst.path())
            .args(["log", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(log[0]["command"], "import");

    // importing again is refused; under another id it works
    let again = sessionctl(dst.path())
        .args(["import", "--yes"])
        .arg(out.path().join("tui-alice"))
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(64));
    ok(&sessionctl(dst.path())
        .args(["import", "--yes", "--as", "tui-bob"])
        .arg(out.path().join("tui-alice"))
        .output()
        .unwrap());
    assert_eq!(archive_count(dst.path(), "tui-bob"), 4);
    assert_eq!(
        db1_keys(dst.path())
            .iter()
            .filter(|k| k.starts_with("tui-bob:"))
            .count(),
        4
    );
}

#[test]
fn a_tampered_bundle_is_refused_with_65_and_nothing_is_written() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    ok(&sessionctl(src.path())
        .args(["export", "tui-alice", "-o"])
        .arg(out.path())
        .output()
        .unwrap());
    let b = out.path().join("tui-alice");
    let tamper: [Tamper; 3] = [
        ("a file changed", |b| {
            std::fs::write(b.join("history.json"), "[]").unwrap()
        }),
        ("a row changed", |b| {
            let p = b.join(".sessionctl/archive.jsonl");
            let t = std::fs::read_to_string(&p)
                .unwrap()
                .replacen("assistant", "user", 1);
            std::fs::write(p, t).unwrap()
        }),
        ("a file added", |b| {
            std::fs::write(b.join("extra.txt"), "x").unwrap()
        }),
    ];
    for (what, change) in tamper {
        let copy = tempfile::tempdir().unwrap();
        copy_tree(&b, copy.path());
        change(copy.path());
        let dst = empty_root();
        let before = snapshot(dst.path());
        let o = sessionctl(dst.path())
            .args(["import", "--yes"])
            .arg(copy.path())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(65), "{what}");
        assert_eq!(snapshot(dst.path()), before, "{what}: nothing written");
    }
}

#[test]
fn an_import_killed_midway_completes_when_run_again() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    ok(&sessionctl(src.path())
        .args(["export", "tui-alice", "-o"])
        .arg(out.path())
        .output()
        .unwrap());
    let dst = empty_root();
    for fp in ["import-after-files", "import-after-torii"] {
        let o = sessionctl(dst.path())
            .env("SESSIONCTL_FAILPOINT", fp)
            .args(["import", "--yes"])
            .arg(out.path().join("tui-alice"))
            .output()
            .unwrap();
        assert!(!o.status.success(), "{fp}");
        assert!(!dst.path().join("sessions/tui-alice").exists());
    }
    ok(&sessionctl(dst.path())
        .args(["import", "--yes"])
        .arg(out.path().join("tui-alice"))
        .output()
        .unwrap());
    assert_eq!(
        tiers(dst.path(), "tui-alice"),
        tiers(src.path(), "tui-alice")
    );
    assert!(!dst.path().join("sessions/.tui-alice.import").exists());
}

/// A tar file of bundles carries sessions between machines as one file.
#[test]
fn export_to_a_tar_then_import_it_keeps_every_tier() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let tar = out.path().join("move.tar");
    let before = snapshot(src.path());
    // a folder named like a session beside the tar is no conflict
    std::fs::create_dir(out.path().join("tui-alice")).unwrap();
    let dry = sessionctl(src.path())
        .args(["export", "tui-alice", "discord-9001", "--dry-run", "-o"])
        .arg(&tar)
        .output()
        .unwrap();
    ok(&dry);
    assert!(!tar.exists(), "a dry run writes no tar");
    ok(&sessionctl(src.path())
        .args(["export", "tui-alice", "discord-9001", "--json", "-o"])
        .arg(&tar)
        .output()
        .unwrap());
    assert_eq!(snapshot(src.path()), before, "export changes nothing");
    let mut left: Vec<_> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    left.sort();
    assert_eq!(
        left,
        vec![
            std::ffi::OsString::from("move.tar"),
            std::ffi::OsString::from("tui-alice")
        ],
        "no staging left"
    );

    // never overwritten
    let again = sessionctl(src.path())
        .args(["export", "tui-alice", "-o"])
        .arg(&tar)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(64));
    // nor written where it would be taken for a session
    let inside = sessionctl(src.path())
        .args(["export", "tui-alice", "-o"])
        .arg(src.path().join("sessions/x.tar"))
        .output()
        .unwrap();
    assert_eq!(inside.status.code(), Some(64));
    assert_eq!(
        snapshot(src.path()),
        before,
        "nothing written under sessions/"
    );

    let dst = empty_root();
    let plan = sessionctl(dst.path())
        .args(["import", "--dry-run", "--json"])
        .arg(&tar)
        .output()
        .unwrap();
    ok(&plan);
    assert_eq!(results(&plan).len(), 2);
    assert!(
        !dst.path().join(".sessionctl").exists(),
        "a dry run writes nothing"
    );
    let o = sessionctl(dst.path())
        .args(["import", "--yes", "--json"])
        .arg(&tar)
        .output()
        .unwrap();
    ok(&o);
    for id in ["tui-alice", "discord-9001"] {
        assert_eq!(tiers(dst.path(), id), tiers(src.path(), id), "{id}");
    }
    fts_integrity_ok(dst.path());
    logs_are_toriidb_readable(dst.path());

    // two sessions cannot take one --as; importing again is refused per session
    let renamed = sessionctl(dst.path())
        .args(["import", "--yes", "--as", "x"])
        .arg(&tar)
        .output()
        .unwrap();
    assert_eq!(renamed.status.code(), Some(64));
    let twice = sessionctl(dst.path())
        .args(["import", "--yes", "--json"])
        .arg(&tar)
        .output()
        .unwrap();
    assert_eq!(twice.status.code(), Some(64));
    assert_eq!(json_of(&twice)["errors"].as_array().unwrap().len(), 2);

    // and undo takes both away again
    ok(&sessionctl(dst.path())
        .args(["undo", "--yes"])
        .output()
        .unwrap());
    assert!(!dst.path().join("sessions/tui-alice").exists());
    assert_eq!(archive_count(dst.path(), "tui-alice"), 0);
}

/// Build a tar whose entries are written raw, so names a well-behaved
/// builder refuses (`..`, absolute) can be tried.
fn raw_tar(entries: &[(&str, tar::EntryType, &[u8], &str)]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, kind, data, link) in entries {
        let mut h = tar::Header::new_gnu();
        let raw = &mut h.as_old_mut().name;
        raw.fill(0);
        raw[..name.len()].copy_from_slice(name.as_bytes());
        h.set_entry_type(*kind);
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        if !link.is_empty() {
            let l = &mut h.as_old_mut().linkname;
            l[..link.len()].copy_from_slice(link.as_bytes());
        }
        h.set_cksum();
        b.append(&h, *data).unwrap();
    }
    b.into_inner().unwrap()
}

#[test]
fn a_hostile_or_tampered_tar_is_refused_with_65_and_nothing_is_written() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let good = out.path().join("good.tar");
    ok(&sessionctl(src.path())
        .args(["export", "tui-alice", "-o"])
        .arg(&good)
        .output()
        .unwrap());
    let bytes = std::fs::read(&good).unwrap();
    // one byte of history.json's content changed inside the tar
    let mut tampered = bytes.clone();
    let at = tampered
        .windows(9)
        .position(|w| w == b"\"content\"")
        .expect("a record in the tar");
    tampered[at + 12] ^= 0x20;
    let outside = out.path().join("outside");
    let file = tar::EntryType::Regular;
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("a tampered file", tampered),
        ("a truncated tar", bytes[..bytes.len() / 3].to_vec()),
        (
            "not a tar",
            b"hello, this is not a tar file at all".repeat(40),
        ),
        ("a path with ..", raw_tar(&[("../outside", file, b"x", "")])),
        (
            "an absolute path",
            raw_tar(&[(outside.to_str().unwrap(), file, b"x", "")]),
        ),
        (
            "a hard link",
            raw_tar(&[
                ("s/a", file, b"x", ""),
                ("s/b", tar::EntryType::Link, b"", "/etc/passwd"),
            ]),
        ),
        ("a fifo", raw_tar(&[("s/p", tar::EntryType::Fifo, b"", "")])),
        (
            "a duplicate entry",
            raw_tar(&[("s/a", file, b"x", ""), ("s/a", file, b"y", "")]),
        ),
        (
            "a link out, then a file through it",
            raw_tar(&[
                (
                    "s/l",
                    tar::EntryType::Symlink,
                    b"",
                    out.path().to_str().unwrap(),
                ),
                ("s/l/outside", file, b"x", ""),
            ]),
        ),
        ("no bundle", raw_tar(&[("s/a", file, b"x", "")])),
    ];
    for (what, tar_bytes) in cases {
        let t = out.path().join("case.tar");
        std::fs::write(&t, tar_bytes).unwrap();
        let dst = empty_root();
        let before = snapshot(dst.path());
        let o = sessionctl(dst.path())
            .args(["import", "--yes"])
            .arg(&t)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(65),
            "{what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(snapshot(dst.path()), before, "{what}: nothing written");
        assert!(!outside.exists(), "{what}: nothing written outside");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            err.lines().next().map(|l| l.contains("case.tar")),
            Some(true),
            "{what}: {err}"
        );
    }
}

// What an outside audit of `import` found: each bundle below is what
// someone else could hand over, its manifest resealed to match (a sha256
// is no signature). A refused import leaves every byte of the root as it
// was, `.sessionctl/` included.

/// Every entry under a root, ours included, links as their text.
fn dump(r: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = rd.map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            let rel = p.strip_prefix(base).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            if meta.file_type().is_symlink() {
                let t = std::fs::read_link(&p).unwrap();
                out.push((
                    format!("{rel} ->"),
                    t.as_os_str().as_encoded_bytes().to_vec(),
                ));
            } else if meta.is_dir() {
                out.push((format!("{rel}/"), Vec::new()));
                walk(base, &p, out);
            } else if meta.is_file() {
                out.push((rel, std::fs::read(&p).unwrap()));
            } else {
                out.push((format!("{rel} (special)"), Vec::new()));
            }
        }
    }
    let mut out = Vec::new();
    walk(r, r, &mut out);
    out
}

/// Make a bundle's manifest list its files and links as they are now.
pub(crate) fn reseal(b: &Path) {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<serde_json::Value>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(base).unwrap().to_str().unwrap().to_owned();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            if meta.file_type().is_symlink() {
                let t = std::fs::read_link(&p).unwrap();
                let t = t.to_str().unwrap();
                out.push(serde_json::json!({"path": rel, "size": 0,
                    "sha256": sessionctl::store::bundle::sha256_hex(t.as_bytes()), "symlink": t}));
            } else if meta.is_dir() {
                walk(base, &p, out);
            } else if meta.is_file() && rel != ".sessionctl/manifest.json" {
                let bytes = std::fs::read(&p).unwrap();
                out.push(serde_json::json!({"path": rel, "size": bytes.len(),
                    "sha256": sessionctl::store::bundle::sha256_hex(&bytes)}));
            }
        }
    }
    let mpath = b.join(".sessionctl/manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&mpath).unwrap()).unwrap();
    let mut files = Vec::new();
    walk(b, b, &mut files);
    files.sort_by(|x, y| x["path"].as_str().cmp(&y["path"].as_str()));
    m["files"] = files.into();
    std::fs::write(&mpath, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
}

/// Export session `id` of `src` into a fresh folder under `out`.
fn exported(src: &Path, out: &Path, id: &str) -> std::path::PathBuf {
    let dir = tempfile::Builder::new().tempdir_in(out).unwrap().keep();
    ok(&sessionctl(src)
        .args(["export", id, "-o"])
        .arg(&dir)
        .output()
        .unwrap());
    dir.join(id)
}

fn import(dst: &Path, bundle: &Path, extra: &[&str]) -> std::process::Output {
    sessionctl(dst)
        .arg("import")
        .arg(bundle)
        .args(extra)
        .arg("--yes")
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `import` refuses the bundle with `code`, its error naming `names`, and
/// the root stays byte for byte as it was.
fn refused(dst: &Path, bundle: &Path, extra: &[&str], code: i32, names: &str) {
    let before = dump(dst);
    let o = import(dst, bundle, extra);
    assert_eq!(o.status.code(), Some(code), "{bundle:?}: {}", stderr(&o));
    let first = stderr(&o).lines().next().unwrap_or_default().to_owned();
    assert!(first.contains(names), "the error names {names}: {first}");
    assert!(dump(dst) == before, "{bundle:?}: the root changed");
}

fn tar_of(bundle: &Path, tar: &Path) {
    let mut b = tar::Builder::new(std::fs::File::create(tar).unwrap());
    b.follow_symlinks(false);
    b.append_dir_all(bundle.file_name().unwrap(), bundle)
        .unwrap();
    b.into_inner().unwrap();
}

#[test]
fn links_that_chain_through_another_link_out_of_the_session_are_refused() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    std::fs::write(
        out.path().join("victim.json"),
        r#"[{"role":"user","content":"a file outside the root","sendAt":1}]"#,
    )
    .unwrap();
    type Links = &'static [(&'static str, &'static str)];
    let cases: [(&str, Links); 3] = [
        (
            "up three folders, then out",
            &[
                ("x/y/z/up", "../../.."),
                ("history.json", "x/y/z/up/../../../victim.json"),
            ],
        ),
        (
            "the session folder itself, then into another session",
            &[
                ("d", "."),
                ("history.json", "d/../discord-9001/history.json"),
            ],
        ),
        (
            "a store part",
            &[(".sessionctl/archive.jsonl", "../history/x.json")],
        ),
    ];
    for (what, links) in cases {
        let b = exported(src.path(), out.path(), "tui-alice");
        for (at, to) in links {
            let at = b.join(at);
            let _ = std::fs::remove_file(&at);
            std::fs::create_dir_all(at.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(to, &at).unwrap();
        }
        reseal(&b);
        let dst = fixture_copy();
        refused(dst.path(), &b, &["--as", "newid"], 65, "symbolic link");
        // the same bundle carried in a tar
        let tar = b.with_extension("tar");
        tar_of(&b, &tar);
        refused(dst.path(), &tar, &["--as", "newid"], 65, ".tar");
        assert!(
            !dst.path().join("sessions/newid").exists(),
            "{what}: nothing imported"
        );
    }
}

#[test]
fn a_fifo_in_a_bundle_is_refused_by_name() {
    use std::os::unix::ffi::OsStrExt;
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let b = exported(src.path(), out.path(), "tui-alice");
    std::fs::create_dir(b.join("history")).ok();
    let fifo = b.join("history/pipe");
    let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    reseal(&b);
    let dst = empty_root();
    refused(dst.path(), &b, &[], 65, "history/pipe");
}

#[test]
fn a_bundle_whose_history_is_not_valid_json_is_refused() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let b = exported(src.path(), out.path(), "tui-alice");
    let h = b.join("history.json");
    let text = std::fs::read(&h).unwrap();
    std::fs::write(&h, &text[..text.len() / 2]).unwrap();
    reseal(&b);
    let dst = empty_root();
    refused(dst.path(), &b, &[], 65, "history.json");
}

#[test]
fn a_bundle_whose_session_meta_names_another_session_is_refused() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let b = exported(src.path(), out.path(), "tui-alice");
    let meta = b.join(".sessionctl/session_meta.json");
    let text = std::fs::read_to_string(&meta).unwrap();
    assert!(text.contains("\"tui-alice\""), "{text}");
    std::fs::write(&meta, text.replace("\"tui-alice\"", "\"discord-9001\"")).unwrap();
    reseal(&b);
    let dst = fixture_copy();
    refused(dst.path(), &b, &["--as", "copy"], 65, "session_meta.json");
    let dst = empty_root();
    refused(dst.path(), &b, &[], 65, "session_meta.json");
}

#[test]
fn a_record_toriidbs_rewrite_would_outgrow_is_refused_before_the_first_write() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let b = exported(src.path(), out.path(), "tui-alice");
    // 12,000 '<': a 12 KB line here, 72 KB once Go's encoder writes each
    // as \u003c
    let value = serde_json::json!({"role": "user", "content": "<".repeat(12_000)}).to_string();
    let line = serde_json::json!({"cmd": "SET", "key": "tui-alice:1764600000000000001",
        "value": value, "ts": 1764600000});
    let part = b.join(".sessionctl/torii-db1.jsonl");
    let mut text = std::fs::read_to_string(&part).unwrap();
    text.push_str(&format!("{line}\n"));
    std::fs::write(&part, text).unwrap();
    reseal(&b);
    let dst = fixture_copy();
    refused(dst.path(), &b, &["--as", "copy"], 65, "torii-db1.jsonl");
}

/// Import `bundle` into `root`, killed once its rows and keys are written
/// (its files still staged).
fn import_killed_after_torii(root: &Path, bundle: &Path) {
    let o = sessionctl(root)
        .env("SESSIONCTL_FAILPOINT", "import-after-torii")
        .arg("import")
        .arg(bundle)
        .arg("--yes")
        .output()
        .unwrap();
    assert!(!o.status.success());
}

fn check_says(r: &Path) -> String {
    let o = sessionctl(r).arg("check").output().unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_session_id_of_255_bytes_imports_and_its_staging_is_cleaned() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let b = exported(src.path(), out.path(), "tui-alice");
    for long in ["l".repeat(248), "é".repeat(127) + "x"] {
        assert!(long.len() >= 248 && long.len() <= 255);
        let dst = empty_root();
        let d = dst.path();
        ok(&import(d, &b, &["--as", &long]));
        assert_eq!(archive_count(d, &long), 4);
        assert!(d.join("sessions").join(&long).join("history.json").exists());
        // killed with its files staged: a rerun completes it
        let again = empty_root();
        let a = again.path();
        let o = sessionctl(a)
            .env("SESSIONCTL_FAILPOINT", "import-after-files")
            .arg("import")
            .arg(&b)
            .args(["--as", &long, "--yes"])
            .output()
            .unwrap();
        assert!(!o.status.success());
        assert!(check_says(a).contains("leftover-import-staging"));
        ok(&import(a, &b, &["--as", &long]));
        assert_eq!(tiers(a, &long), tiers(d, &long));
        let names: Vec<_> = std::fs::read_dir(a.join("sessions"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from(&long)]);
        // and check --repair removes a staging folder nobody can continue
        let third = empty_root();
        let t = third.path();
        let o = sessionctl(t)
            .env("SESSIONCTL_FAILPOINT", "import-after-files")
            .arg("import")
            .arg(&b)
            .args(["--as", &long, "--yes"])
            .output()
            .unwrap();
        assert!(!o.status.success());
        ok(&sessionctl(t)
            .args(["check", "--repair", "--yes"])
            .output()
            .unwrap());
        assert_eq!(std::fs::read_dir(t.join("sessions")).unwrap().count(), 0);
    }
}

/// The oplog operations, newest first.
fn ops(r: &Path) -> Vec<serde_json::Value> {
    results(&sessionctl(r).args(["log", "--json"]).output().unwrap())
}

/// Another machine's conversation under the same id: another bundle of
/// `tui-alice`.
fn other_alice(out: &Path) -> std::path::PathBuf {
    let other = fixture_copy();
    std::fs::write(
        other.path().join("sessions/tui-alice/history.json"),
        r#"[{"role":"user","content":"another machine's alice","sendAt":1764547310000000001}]"#,
    )
    .unwrap();
    exported(other.path(), out, "tui-alice")
}

#[test]
fn an_interrupted_import_is_continued_only_by_the_same_bundle() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let mine = exported(src.path(), out.path(), "tui-alice");
    let theirs = other_alice(out.path());
    let discord = exported(src.path(), out.path(), "discord-9001");
    let dst = empty_root();
    let d = dst.path();
    // killed with its rows and keys written, its files still staged
    import_killed_after_torii(d, &mine);
    let first = ops(d)[0]["id"].as_str().unwrap().to_owned();
    assert_eq!(ops(d)[0]["done"], false);

    // another bundle of the session is refused, never mixed into it
    refused(d, &theirs, &[], 64, "tui-alice");
    assert!(
        check_says(d).contains(&first),
        "still reported as incomplete"
    );

    // an unrelated import is an operation of its own
    ok(&import(d, &discord, &[]));
    let log = ops(d);
    assert_eq!(log.len(), 2, "{log:?}");
    assert_ne!(log[0]["id"], first.as_str());
    assert!(log[0]["argv"].to_string().contains("discord-9001"));
    assert_eq!(log[0]["done"], true);
    assert_eq!(log[1]["done"], false, "the interrupted one stays open");

    // the same bundle completes it, under its own record
    ok(&import(d, &mine, &[]));
    assert_eq!(tiers(d, "tui-alice"), tiers(src.path(), "tui-alice"));
    let log = ops(d);
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(log.iter().all(|op| op["done"] == true), "{log:?}");
    assert!(!check_says(d).contains("incomplete"));
}

#[test]
fn a_session_an_interrupted_import_put_in_place_is_not_claimed_by_another_bundle() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let mine = exported(src.path(), out.path(), "tui-alice");
    let theirs = other_alice(out.path());
    // killed after the session was renamed into place, before its record
    // was closed
    let mut found = None;
    for n in 1..200 {
        let dst = empty_root();
        let o = sessionctl(dst.path())
            .env("SESSIONCTL_KILL_AT", n.to_string())
            .arg("import")
            .arg(&mine)
            .arg("--yes")
            .output()
            .unwrap();
        assert!(!o.status.success(), "the last step passed without a kill");
        if dst.path().join("sessions/tui-alice").exists()
            && check_says(dst.path()).contains("incomplete")
        {
            found = Some(dst);
            break;
        }
    }
    let dst = found.expect("a kill after the rename");
    let d = dst.path();
    refused(d, &theirs, &[], 64, "tui-alice");
    assert!(check_says(d).contains("incomplete"));
    assert_eq!(tiers(d, "tui-alice"), tiers(src.path(), "tui-alice"));
    // the same bundle closes it
    ok(&import(d, &mine, &[]));
    assert!(!check_says(d).contains("incomplete"));
    assert_eq!(tiers(d, "tui-alice"), tiers(src.path(), "tui-alice"));
}

#[test]
fn check_repair_cleans_up_after_an_import_that_cannot_be_continued() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let mine = exported(src.path(), out.path(), "tui-alice");
    let dst = empty_root();
    let d = dst.path();
    import_killed_after_torii(d, &mine);
    let said = check_says(d);
    assert!(said.contains("leftover-import-staging"), "{said}");
    // the rows and keys it wrote stay (reported, and not --repair's to
    // delete), so check still exits 1
    let o = sessionctl(d)
        .args(["check", "--repair", "--yes"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("orphan-archive-rows"));
    let hidden: Vec<_> = std::fs::read_dir(d.join("sessions"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(hidden.is_empty(), "{hidden:?}");
    // what it wrote to the stores is taken back by undo; then it imports
    let op = ops(d)
        .into_iter()
        .find(|o| o["command"] == "import")
        .unwrap();
    ok(&sessionctl(d)
        .args(["undo", op["id"].as_str().unwrap(), "--yes"])
        .output()
        .unwrap());
    ok(&import(d, &mine, &[]));
    assert_eq!(tiers(d, "tui-alice"), tiers(src.path(), "tui-alice"));
    assert!(!check_says(d).contains("incomplete"));
}

#[test]
fn a_trash_reset_entry_imports_without_its_store_parts_among_the_files() {
    let src = fixture_copy();
    let s = src.path();
    ok(&sessionctl(s)
        .args(["reset", "tui-alice", "--mode", "all", "--yes"])
        .output()
        .unwrap());
    let entry = std::fs::read_dir(s.join("sessions/.Trash"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("tui-alice_")
        })
        .unwrap();
    for part in ["archive.jsonl", "session_meta.json", "torii-db1.jsonl"] {
        assert!(
            entry.join(part).exists(),
            "a reset entry keeps {part} at its top"
        );
    }
    let dst = empty_root();
    let d = dst.path();
    ok(&import(d, &entry, &[]));
    let folder = d.join("sessions/tui-alice");
    for part in ["archive.jsonl", "session_meta.json", "torii-db1.jsonl"] {
        assert!(!folder.join(part).exists(), "{part} is no session file");
    }
    assert!(folder.join("history.json").exists());
    assert_eq!(archive_count(d, "tui-alice"), 4);
    assert_eq!(
        db1_keys(d)
            .iter()
            .filter(|k| k.starts_with("tui-alice:"))
            .count(),
        4
    );
}

#[test]
fn export_all_of_a_root_without_sessions_imports_as_zero_sessions() {
    let src = empty_root();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("none");
    let tar = out.path().join("none.tar");
    for to in [&dir, &tar] {
        let o = sessionctl(src.path())
            .args(["export", "--all", "--json", "-o"])
            .arg(to)
            .output()
            .unwrap();
        ok(&o);
        assert!(results(&o).is_empty());
        assert!(to.exists(), "{to:?} is written, empty");
        let dst = empty_root();
        let o = sessionctl(dst.path())
            .args(["import", "--yes", "--json"])
            .arg(to)
            .output()
            .unwrap();
        ok(&o);
        assert!(results(&o).is_empty());
        assert_eq!(json_of(&o)["ok"], true);
    }
}

#[test]
fn a_link_in_place_of_the_staging_folder_is_reported_and_repair_deletes_only_the_link() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let b = exported(src.path(), out.path(), "tui-alice");
    // what the link points to: a folder outside the root, and one inside
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("keep.txt"), "not the root's").unwrap();
    let dst = empty_root();
    let d = dst.path();
    std::fs::create_dir(d.join("inside")).unwrap();
    std::fs::write(d.join("inside/keep.txt"), "the root's").unwrap();
    for (id, target) in [
        ("zz", outside.path().to_path_buf()),
        ("yy", d.join("inside")),
    ] {
        let link = d.join("sessions").join(format!(".{id}.import"));
        std::os::unix::fs::symlink(&target, &link).unwrap();
        refused(d, &b, &["--as", id], 64, &format!(".{id}.import"));
        let o = import(d, &b, &["--as", id]);
        assert!(
            stderr(&o).contains("check --repair` removes it"),
            "{}",
            stderr(&o)
        );
        let said = check_says(d);
        assert!(said.contains("leftover-import-staging"), "{said}");
        assert!(said.contains(&format!(".{id}.import")), "{said}");
        ok(&sessionctl(d)
            .args(["check", "--repair", "--yes"])
            .output()
            .unwrap());
        assert!(
            std::fs::symlink_metadata(&link).is_err(),
            "the link is deleted"
        );
        assert!(target.join("keep.txt").exists(), "never what it points to");
        assert!(!check_says(d).contains("leftover-import-staging"));
        ok(&import(d, &b, &["--as", id]));
        assert!(d.join("sessions").join(id).join("history.json").exists());
    }
    assert_eq!(
        std::fs::read_to_string(outside.path().join("keep.txt")).unwrap(),
        "not the root's"
    );
}

#[test]
fn a_session_bundle_whose_manifest_says_error_memory_is_refused() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let b = exported(src.path(), out.path(), "discord-9001");
    let mpath = b.join(".sessionctl/manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&mpath).unwrap()).unwrap();
    m["kind"] = "error-memory".into();
    std::fs::write(&mpath, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    reseal(&b);
    for root in [empty_root(), fixture_copy()] {
        let d = root.path();
        refused(d, &b, &["--as", "x6"], 65, "manifest.json");
        refused(d, &b, &[], 65, "manifest.json");
        let o = import(d, &b, &["--as", "x6"]);
        let said = stderr(&o);
        assert!(said.contains("says kind error-memory"), "{said}");
        assert!(said.contains("holds action.log"), "a session file: {said}");
    }
    // the same in a tar, named by the tar
    let tar = out.path().join("b6.tar");
    tar_of(&b, &tar);
    refused(empty_root().path(), &tar, &[], 65, "manifest.json");
}

#[test]
fn after_repair_closes_an_interrupted_import_check_points_its_orphans_to_its_undo() {
    let src = fixture_copy();
    let out = tempfile::tempdir().unwrap();
    let mine = exported(src.path(), out.path(), "tui-alice");
    let dst = empty_root();
    let d = dst.path();
    import_killed_after_torii(d, &mine);
    let op = ops(d)[0]["id"].as_str().unwrap().to_owned();
    let o = sessionctl(d)
        .args(["check", "--repair", "--yes"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(ops(d)[0]["done"], true, "closed by --repair");
    let o = sessionctl(d).args(["check", "--json"]).output().unwrap();
    let findings = results(&o);
    let undo = format!("sessionctl undo {op}");
    for kind in ["orphan-archive-rows", "torii-orphan-keys"] {
        let f = findings
            .iter()
            .find(|f| f["kind"] == kind)
            .unwrap_or_else(|| panic!("{kind}: {findings:?}"));
        let detail = f["detail"].as_str().unwrap();
        assert!(detail.contains(&undo), "{kind}: {detail}");
    }
    let table = check_says(d);
    assert!(table.contains(&undo), "{table}");
    // and the pointer is right: that undo leaves a clean root
    ok(&sessionctl(d).args(["undo", &op, "--yes"]).output().unwrap());
    let o = sessionctl(d).arg("check").output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}
