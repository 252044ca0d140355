//! What a kill leaves half done is not built upon: `trash restore` refuses
//! a session an interrupted import began (or whose rows and keys outlived
//! its folder) as `import` does; an interrupted undo is what plain `undo`
//! completes, and no other write goes to the sessions it is restoring; a
//! bundle folder an interrupted export left is a failure of `import DIR`,
//! and a rerun of the export completes it.

use crate::common::*;

use std::path::{Path, PathBuf};
use std::process::Output;

fn run(root: &Path, args: &[&str]) -> Output {
    sessionctl(root)
        .env("SESSIONCTL_OFFLINE", "1")
        .args(args)
        .output()
        .unwrap()
}

fn killed_at(root: &Path, n: usize, args: &[&str]) -> Output {
    sessionctl(root)
        .env("SESSIONCTL_OFFLINE", "1")
        .env("SESSIONCTL_KILL_AT", n.to_string())
        .args(args)
        .output()
        .unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "failed ({:?}): {}{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        err(o)
    );
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The bundles of every fixture session, in `out`.
fn export_all(out: &Path) -> PathBuf {
    let src = fixture_copy();
    let x = out.join("exp");
    ok(&run(src.path(), &["export", "--all", "-o", p(&x)]));
    x
}

fn trash_entries(root: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root.join("sessions/.Trash"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && !n.contains("stores"))
        .collect();
    v.sort();
    v
}

/// Archived messages of `id`; none before the archive has its tables.
fn rows(root: &Path, id: &str) -> i64 {
    if !root.join(".store/history.db").exists() {
        return 0;
    }
    sqlite(root)
        .query_row(
            "SELECT COUNT(*) FROM messages WHERE session_id = ?1",
            [id],
            |r| r.get(0),
        )
        .unwrap_or(0)
}

fn staged(root: &Path, id: &str) -> bool {
    root.join(format!("sessions/.{id}.import")).exists()
}

/// Import `bundle` killed at the first step after which the session's
/// archive rows are written while its folder is still staged.
fn import_killed_with_rows_written(root: &Path, bundle: &Path, id: &str) -> String {
    for n in 1..200 {
        let scratch = tempfile::tempdir().unwrap();
        let r = scratch.path().join("r");
        copy_tree(root, &r);
        let o = killed_at(&r, n, &["import", p(bundle), "--yes"]);
        assert!(!o.status.success(), "import passed step {n} without a kill");
        if staged(&r, id) && rows(&r, id) > 0 {
            std::fs::remove_dir_all(root).unwrap();
            copy_tree(&r, root);
            let log = std::fs::read_to_string(root.join(".sessionctl/oplog.jsonl")).unwrap();
            let op: serde_json::Value = serde_json::from_str(
                log.lines()
                    .rev()
                    .find(|l| l.contains("\"import\""))
                    .unwrap(),
            )
            .unwrap();
            return op["id"].as_str().unwrap().to_owned();
        }
    }
    panic!("no kill left the rows written and the folder staged");
}

#[test]
fn trash_restore_of_a_removed_session_refuses_one_an_interrupted_import_began() {
    let tmp = tempfile::tempdir().unwrap();
    let x = export_all(tmp.path());
    let root = tmp.path().join("root");
    std::fs::create_dir_all(root.join("sessions")).unwrap();
    let bundle = x.join("discord-9001");
    ok(&run(&root, &["import", p(&bundle), "--yes"]));
    ok(&run(&root, &["remove", "discord-9001", "--yes"]));
    let entry = trash_entries(&root).pop().unwrap();
    let op = import_killed_with_rows_written(&root, &bundle, "discord-9001");
    let rows = archive_count(&root, "discord-9001");
    let before = snapshot(&root.join("sessions"));

    let o = run(&root, &["trash", "restore", &entry, "--yes"]);
    assert_eq!(o.status.code(), Some(64), "{}", err(&o));
    assert!(err(&o).contains(&op), "names the import: {}", err(&o));
    assert!(
        err(&o).contains(&format!("sessionctl undo {op}")),
        "{}",
        err(&o)
    );
    assert_eq!(
        archive_count(&root, "discord-9001"),
        rows,
        "no message archived twice"
    );
    assert_eq!(snapshot(&root.join("sessions")), before);
    // the import can still complete
    ok(&run(&root, &["import", p(&bundle), "--yes"]));
    assert_eq!(archive_count(&root, "discord-9001"), rows);
}

#[test]
fn trash_restore_as_refuses_an_id_an_interrupted_import_began() {
    let tmp = tempfile::tempdir().unwrap();
    let x = export_all(tmp.path());
    let root = tmp.path().join("root");
    std::fs::create_dir_all(root.join("sessions")).unwrap();
    let bundle = x.join("discord-9001");
    let op = import_killed_with_rows_written(&root, &bundle, "discord-9001");
    ok(&run(
        &root,
        &["import", p(&x.join("tui-alice")), "--as", "tmpx", "--yes"],
    ));
    ok(&run(&root, &["remove", "tmpx", "--yes"]));
    let entry = trash_entries(&root).pop().unwrap();
    let rows = archive_count(&root, "discord-9001");

    // import refuses the id; so does trash restore, the same way
    let o = run(
        &root,
        &[
            "import",
            p(&x.join("tui-alice-2")),
            "--as",
            "discord-9001",
            "--yes",
        ],
    );
    assert_eq!(o.status.code(), Some(64), "{}", err(&o));
    let o = run(
        &root,
        &["trash", "restore", &entry, "--as", "discord-9001", "--yes"],
    );
    assert_eq!(o.status.code(), Some(64), "{}", err(&o));
    assert!(err(&o).contains(&op), "names the import: {}", err(&o));
    assert_eq!(archive_count(&root, "discord-9001"), rows);
    assert!(!root.join("sessions/discord-9001").exists());
    assert!(root.join(format!("sessions/.Trash/{entry}")).exists());
    ok(&run(&root, &["import", p(&x), "--yes"]));
}

#[test]
fn trash_restore_refuses_a_session_whose_rows_outlived_its_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let x = export_all(tmp.path());
    let root = tmp.path().join("root");
    std::fs::create_dir_all(root.join("sessions")).unwrap();
    let bundle = x.join("discord-9001");
    ok(&run(&root, &["import", p(&bundle), "--yes"]));
    ok(&run(&root, &["remove", "discord-9001", "--yes"]));
    let entry = trash_entries(&root).pop().unwrap();
    import_killed_with_rows_written(&root, &bundle, "discord-9001");
    // its record closed and its staging gone: only the rows and keys say
    // the session exists
    let o = run(&root, &["check", "--repair", "--yes"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", err(&o));
    assert!(!staged(&root, "discord-9001"));
    let rows = archive_count(&root, "discord-9001");
    assert!(rows > 0);

    let o = run(&root, &["trash", "restore", &entry, "--yes"]);
    assert_eq!(o.status.code(), Some(64), "{}", err(&o));
    assert!(err(&o).contains("archive rows"), "{}", err(&o));
    assert!(
        err(&o).contains("sessionctl remove discord-9001"),
        "{}",
        err(&o)
    );
    assert_eq!(archive_count(&root, "discord-9001"), rows);
    // under another id it goes ahead
    ok(&run(
        &root,
        &["trash", "restore", &entry, "--as", "d2", "--yes"],
    ));
}

fn check_out(root: &Path) -> String {
    String::from_utf8_lossy(&run(root, &["check"]).stdout).into_owned()
}

fn records(root: &Path, id: &str) -> usize {
    let text = std::fs::read_to_string(root.join(format!("sessions/{id}/history.json")))
        .unwrap_or_default();
    serde_json::from_str::<Vec<serde_json::Value>>(&text).map_or(0, |v| v.len())
}

/// A fixture root where `undo` of a reset of tui-alice was killed midway
/// (the session only partly back); the interrupted undo's id.
fn interrupted_undo(root: &Path) -> String {
    for n in 1..200 {
        std::fs::remove_dir_all(root).ok();
        copy_fixture(root);
        ok(&run(
            root,
            &["reset", "tui-alice", "--mode", "all", "--yes"],
        ));
        let o = killed_at(root, n, &["undo", "--yes"]);
        assert!(!o.status.success(), "undo passed step {n} without a kill");
        let log = std::fs::read_to_string(root.join(".sessionctl/oplog.jsonl")).unwrap();
        let undo = log
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find(|v| v["undoes"].is_string());
        if let Some(u) = undo {
            if records(root, "tui-alice") == 0 && check_out(root).contains("incomplete-undo") {
                return u["id"].as_str().unwrap().to_owned();
            }
        }
    }
    panic!("no kill left the undo interrupted with the session not back");
}

#[test]
fn plain_undo_completes_an_interrupted_undo_a_later_write_came_after() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("r");
    let u = interrupted_undo(&root);
    let want = records(&fixture_root(), "tui-alice");
    // a write to another session: plain undo still completes the undo
    ok(&run(
        &root,
        &["reset", "tui-alice-2", "--mode", "all", "--yes"],
    ));
    let o = run(&root, &["--json", "undo", "--yes"]);
    ok(&o);
    assert_eq!(records(&root, "tui-alice"), want);
    assert_eq!(records(&root, "tui-alice-2"), 0, "the later reset stays");
    assert!(!check_out(&root).contains("incomplete-undo"));
    let log = std::fs::read_to_string(root.join(".sessionctl/oplog.jsonl")).unwrap();
    assert!(log.contains(&format!("\"id\":\"{u}\",")), "{log}");
    // the next undo is of the later reset
    ok(&run(&root, &["undo", "--yes"]));
    assert_eq!(
        records(&root, "tui-alice-2"),
        records(&fixture_root(), "tui-alice-2")
    );
}

#[test]
fn a_write_to_a_session_an_interrupted_undo_is_putting_back_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("r");
    let u = interrupted_undo(&root);
    // check names exactly what completes it
    assert!(
        check_out(&root).contains(&format!("`sessionctl undo {u}` completes it")),
        "{}",
        check_out(&root)
    );
    let before = snapshot(&root.join("sessions"));
    let o = run(&root, &["remove", "tui-alice", "--yes"]);
    assert_eq!(o.status.code(), Some(64), "{}", err(&o));
    assert!(
        err(&o).contains(&format!("sessionctl undo {u}")),
        "{}",
        err(&o)
    );
    assert_eq!(snapshot(&root.join("sessions")), before);
    // plain undo completes it; then the write goes ahead
    ok(&run(&root, &["undo", "--yes"]));
    assert_eq!(
        records(&root, "tui-alice"),
        records(&fixture_root(), "tui-alice")
    );
    assert!(!check_out(&root).contains("incomplete"));
    ok(&run(&root, &["remove", "tui-alice", "--yes"]));
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// `export --all -o <out>/x` of a fixture copy killed at the first step
/// that leaves a bundle folder begun and not sealed; the source root.
fn export_killed_midway(out: &Path) -> tempfile::TempDir {
    for n in 1..200 {
        let src = fixture_copy();
        let x = out.join("x");
        std::fs::remove_dir_all(&x).ok();
        let o = killed_at(src.path(), n, &["export", "--all", "-o", p(&x)]);
        assert!(!o.status.success(), "export passed step {n} without a kill");
        let sealed = |d: &Path| d.join(".sessionctl/manifest.json").exists();
        let unsealed = x.exists()
            && names(&x).iter().any(|b| !sealed(&x.join(b)))
            && names(&x).iter().any(|b| sealed(&x.join(b)));
        if unsealed {
            return src;
        }
    }
    panic!("no kill left a bundle begun beside a sealed one");
}

fn errors_of(o: &Output) -> Vec<serde_json::Value> {
    json_of(o)["errors"].as_array().cloned().unwrap_or_default()
}

#[test]
fn import_dir_fails_a_bundle_folder_an_interrupted_export_left_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    // the folder an export killed midway left
    export_killed_midway(tmp.path());
    let x = tmp.path().join("x");
    let dst = tmp.path().join("dst");
    let o = run(&dst, &["--json", "import", p(&x), "--yes"]);
    assert_eq!(o.status.code(), Some(65), "{}", err(&o));
    let errors = errors_of(&o);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0]["message"]
        .as_str()
        .unwrap()
        .contains("did not complete"));
    assert!(
        !json_of(&o)["results"].as_array().unwrap().is_empty(),
        "the others go on"
    );

    // a bundle folder with its sidecar and no manifest (as an export that
    // wrote in place left it) is failed by its name too
    let whole = tmp.path().join("whole");
    ok(&run(
        fixture_copy().path(),
        &["export", "--all", "-o", p(&whole)],
    ));
    std::fs::remove_file(whole.join("tui-alice/.sessionctl/manifest.json")).unwrap();
    let dst = tmp.path().join("dst2");
    let o = run(&dst, &["--json", "import", p(&whole), "--yes"]);
    assert_eq!(o.status.code(), Some(65), "{}", err(&o));
    let errors = errors_of(&o);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0]["session"]
        .as_str()
        .unwrap()
        .ends_with("tui-alice"));
    assert!(dst.join("sessions/tui-alice-2").exists());
    assert!(!dst.join("sessions/tui-alice").exists());
}

#[test]
fn a_rerun_of_an_interrupted_export_completes_it_and_never_overwrites_a_sealed_bundle() {
    let tmp = tempfile::tempdir().unwrap();
    let src = export_killed_midway(tmp.path());
    let x = tmp.path().join("x");
    ok(&run(src.path(), &["export", "--all", "-o", p(&x)]));
    assert_eq!(names(&x), ["discord-9001", "tui-alice", "tui-alice-2"]);
    let dst = tmp.path().join("dst");
    ok(&run(&dst, &["import", p(&x), "--yes"]));
    assert_eq!(
        names(&dst.join("sessions")),
        ["discord-9001", "tui-alice", "tui-alice-2"]
    );

    // an unsealed leftover at a bundle's own name is written again
    std::fs::remove_file(x.join("tui-alice/.sessionctl/manifest.json")).unwrap();
    ok(&run(src.path(), &["export", "--all", "-o", p(&x)]));
    assert!(x.join("tui-alice/.sessionctl/manifest.json").exists());

    // a sealed bundle of a session changed since stays as it is: refused
    let before = snapshot(&x);
    ok(&run(
        src.path(),
        &["reset", "tui-alice", "--mode", "all", "--yes"],
    ));
    let o = run(src.path(), &["export", "--all", "-o", p(&x)]);
    assert_eq!(o.status.code(), Some(64), "{}", err(&o));
    assert!(err(&o).contains("never overwrites"), "{}", err(&o));
    assert_eq!(snapshot(&x), before);
}

#[test]
fn import_reports_the_keys_and_rows_it_wrote_not_the_manifests_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let x = export_all(tmp.path());
    let b = tmp.path().join("b1");
    copy_tree(&x.join("discord-9001"), &b);
    // its db1 part emptied, the manifest's counts left as they were
    std::fs::write(b.join(".sessionctl/torii-db1.jsonl"), "").unwrap();
    crate::bundle::reseal(&b);
    let dst = tmp.path().join("dst");
    let o = run(&dst, &["--json", "import", p(&b), "--as", "x1", "--yes"]);
    ok(&o);
    let r = &json_of(&o)["results"][0];
    assert_eq!(r["torii_keys"], 0, "{r}");
    assert!(db1_keys(&dst).iter().all(|k| !k.starts_with("x1:")));
    assert_eq!(r["archive_rows"].as_i64().unwrap(), rows(&dst, "x1"));
}

#[test]
fn a_tar_with_two_bundles_of_one_session_is_refused_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let x = export_all(tmp.path());
    let d = tmp.path().join("d2");
    copy_tree(&x.join("discord-9001"), &d.join("a"));
    copy_tree(&x.join("discord-9001"), &d.join("b"));
    let tar = tmp.path().join("d2.tar");
    let st = std::process::Command::new("tar")
        .arg("-C")
        .arg(&d)
        .arg("-cf")
        .arg(&tar)
        .args(["a", "b"])
        .status()
        .unwrap();
    assert!(st.success());
    let dst = tmp.path().join("dst");
    copy_fixture(&dst);
    ok(&run(&dst, &["remove", "discord-9001", "--yes"]));
    let before = snapshot(&dst);
    let o = run(&dst, &["import", p(&tar), "--yes"]);
    assert_eq!(o.status.code(), Some(65), "{}", err(&o));
    assert!(
        err(&o).contains("second bundle of session discord-9001"),
        "{}",
        err(&o)
    );
    assert!(err(&o).contains("nothing was imported"), "{}", err(&o));
    assert_eq!(snapshot(&dst), before);
    // a folder of them, the same
    let o = run(&dst, &["import", p(&d), "--yes"]);
    assert_eq!(o.status.code(), Some(65), "{}", err(&o));
    assert_eq!(snapshot(&dst), before);
}

#[test]
fn a_session_whose_id_ends_like_a_staging_folder_is_exported_into_a_tar() {
    let tmp = tempfile::tempdir().unwrap();
    let x = export_all(tmp.path());
    let src = tmp.path().join("src");
    std::fs::create_dir_all(src.join("sessions")).unwrap();
    ok(&run(
        &src,
        &[
            "import",
            p(&x.join("tui-alice")),
            "--as",
            "a.export",
            "--yes",
        ],
    ));
    let tar = tmp.path().join("all.tar");
    ok(&run(&src, &["export", "--all", "-o", p(&tar)]));
    let dst = tmp.path().join("dst");
    ok(&run(&dst, &["import", p(&tar), "--yes"]));
    assert_eq!(names(&dst.join("sessions")), ["a.export"]);
}

#[test]
fn trash_restore_of_an_entry_recording_an_invalid_id_is_a_data_error_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path().join("r");
    copy_fixture(&r);
    ok(&run(&r, &["remove", "discord-9001", "--yes"]));
    let [name] = &trash_entries(&r)[..] else {
        panic!("one entry")
    };
    let e = r.join("sessions/.Trash").join(name);
    // tampered as a whole: the id, its rows and keys, the manifest resealed
    std::fs::write(e.join(".sessionctl/session-id"), "../x").unwrap();
    std::fs::write(e.join(".sessionctl/archive.jsonl"), "").unwrap();
    std::fs::write(e.join(".sessionctl/torii-db1.jsonl"), "").unwrap();
    std::fs::write(
        e.join(".sessionctl/session_meta.json"),
        r#"{"session_id":"../x","start_at":1}"#,
    )
    .unwrap();
    let mpath = e.join(".sessionctl/manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&mpath).unwrap()).unwrap();
    m["session"] = "../x".into();
    std::fs::write(&mpath, serde_json::to_vec(&m).unwrap()).unwrap();
    crate::bundle::reseal(&e);
    let before = snapshot(&r);
    for extra in [&[][..], &["--as", "fine"][..], &["--dry-run"][..]] {
        let o = run(
            &r,
            &[&["trash", "restore", name.as_str(), "--yes"][..], extra].concat(),
        );
        assert_eq!(o.status.code(), Some(65), "{extra:?}: {}", err(&o));
        let first = err(&o).lines().next().unwrap_or_default().to_owned();
        assert!(
            first.contains(&format!("{name}/.sessionctl/session-id")),
            "{extra:?}: {first}"
        );
        assert_eq!(snapshot(&r), before, "{extra:?}: nothing is modified");
    }
    // only the manifest's id invalid: the manifest is named
    std::fs::write(e.join(".sessionctl/session-id"), "discord-9001").unwrap();
    crate::bundle::reseal(&e);
    let o = run(&r, &["trash", "restore", name.as_str(), "--yes"]);
    assert_eq!(o.status.code(), Some(65), "{}", err(&o));
    let first = err(&o).lines().next().unwrap_or_default().to_owned();
    assert!(first.contains(".sessionctl/manifest.json"), "{first}");
}
