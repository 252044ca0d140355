//! Read-only commands and dry runs leave the root byte-identical — hidden
//! files, lock files and caches included — and this without `--offline`:
//! a stale window table is refreshed only by a write command or
//! `limits refresh`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{fixture_copy, sessionctl};

/// Every entry under `root` with its kind, bytes and permissions; nothing
/// is skipped.
fn everything(root: &Path) -> BTreeMap<PathBuf, (String, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, (String, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            use std::os::unix::fs::PermissionsExt;
            let kind = format!("{:o}", meta.permissions().mode());
            if meta.is_dir() {
                out.insert(rel, (kind, Vec::new()));
                walk(root, &path, out);
            } else {
                out.insert(rel, (kind, std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

fn assert_untouched(args: &[&str]) {
    let root = fixture_copy();
    let before = everything(root.path());
    let out = sessionctl(root.path())
        .args(args)
        .env("SESSIONCTL_LIMITS_URL", "http://127.0.0.1:9/unreachable")
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c == 0 || c == 1),
        "{args:?}: exit {:?}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let after = everything(root.path());
    let changed: Vec<_> = after
        .iter()
        .filter(|(p, v)| before.get(*p) != Some(v))
        .map(|(p, _)| p.display().to_string())
        .chain(
            before
                .keys()
                .filter(|p| !after.contains_key(*p))
                .map(|p| format!("{} (removed)", p.display())),
        )
        .collect();
    assert!(changed.is_empty(), "{args:?} changed {changed:?}");
}

#[test]
fn read_only_commands_write_nothing_under_the_root() {
    for args in [
        &["limits", "show"][..],
        &["limits", "show", "claude@claude-sonnet-4-5"],
        &["sessions", "list"],
        &["sessions", "list", "--json"],
        &["show", "tui-alice"],
        &["show", "tui-alice", "--json"],
        &["search", "nginx"],
        &["check"],
        &["errors", "list"],
        &["errors", "search", "permission"],
    ] {
        assert_untouched(args);
    }
}

#[test]
fn dry_runs_write_nothing_under_the_root() {
    for args in [
        &["compact", "--all", "--dry-run", "--budget", "200"][..],
        &["compact", "--all", "--dry-run"],
        &[
            "compact",
            "tui-alice",
            "--dry-run",
            "--for-model",
            "ollama@qwen3",
        ],
        &["reset", "--all", "--mode", "summary", "--dry-run"],
        &["reset", "tui-alice", "--mode", "all", "--dry-run"],
        &["remove", "--all", "--dry-run"],
        &["summarize", "--all", "--dry-run"],
        &["summarize", "tui-alice", "--rebuild", "--dry-run"],
        &["errors", "prune", "--dry-run"],
        &["check", "--repair", "--dry-run"],
    ] {
        assert_untouched(args);
    }
}

#[test]
fn check_repair_dry_run_names_the_repairs_and_makes_none() {
    let root = fixture_copy();
    let log = root.path().join(".store/db_1/record.aof");
    let mut bytes = std::fs::read(&log).unwrap();
    bytes.extend_from_slice(b"{\"cmd\":\"SET\",\"key\":\"torn");
    std::fs::write(&log, &bytes).unwrap();
    let before = everything(root.path());
    let out = sessionctl(root.path())
        .args(["check", "--repair", "--dry-run", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v = crate::common::json_of(&out);
    assert_eq!(v["dry_run"], true);
    let results = v["results"].as_array().unwrap();
    assert!(
        results
            .iter()
            .any(|f| f["repairable"] == true && f["repaired"] == false),
        "{v}"
    );
    assert_eq!(everything(root.path()), before);
    // The same without --dry-run repairs it (the cut line is kept beside
    // the log, so one finding about it stays open: exit 1).
    sessionctl(root.path())
        .args(["check", "--repair", "--yes"])
        .assert()
        .code(1);
    assert_ne!(everything(root.path()), before);
}

/// Our own caches may appear under `.sessionctl/` on a read (as rows.json
/// does once the files have settled): with logs big enough to keep their
/// ToriiDB index and every file taken as settled, reads and dry runs still
/// leave every file outside `.sessionctl/` byte-identical, and write
/// nothing inside it but those caches.
#[test]
fn reads_and_dry_runs_write_only_our_caches() {
    const CACHES: &[&str] = &["rows.json", "tokens.json", "torii-db1.idx", "torii-db2.idx"];
    for args in [
        &["sessions", "list", "--json"][..],
        &["show", "tui-alice"],
        &["search", "nginx"],
        &["search", "nginx", "--by", "keyword"],
        &["errors", "list"],
        &["compact", "--all", "--dry-run", "--budget", "200"],
        &["reset", "tui-alice", "--mode", "all", "--dry-run"],
        &["remove", "--all", "--dry-run"],
        &["errors", "prune", "--dry-run"],
    ] {
        let root = fixture_copy();
        let before = everything(root.path());
        let out = sessionctl(root.path())
            .args(args)
            .env("SESSIONCTL_LIMITS_URL", "http://127.0.0.1:9/unreachable")
            .env("SESSIONCTL_TORII_SNAPSHOT_MIN", "0")
            .env("SESSIONCTL_ROWS_SETTLED", "1")
            .output()
            .unwrap();
        assert!(
            out.status.code().is_some_and(|c| c == 0 || c == 1),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let after = everything(root.path());
        let mut wrote = Vec::new();
        for (p, v) in &after {
            if before.get(p) == Some(v) {
                continue;
            }
            let ours = p.parent() == Some(Path::new(".sessionctl"))
                && CACHES.iter().any(|c| p.file_name() == Some(c.as_ref()));
            assert!(
                ours || p == Path::new(".sessionctl"),
                "{args:?} changed {}",
                p.display()
            );
            wrote.push(p.clone());
        }
        assert!(
            before.keys().all(|p| after.contains_key(p)),
            "{args:?} removed something"
        );
        // a command that reads a log keeps its index
        if args[0] != "errors" {
            assert!(
                wrote.iter().any(|p| p.ends_with("torii-db1.idx")) || args.contains(&"--by"),
                "{args:?} kept no index: {wrote:?}"
            );
        }
    }
}
