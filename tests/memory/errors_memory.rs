//! `errors list --limit N` holds N listed records, not every record the
//! filter lets through (the aim: peak memory of errors list). Heap use is
//! measured with a counting allocator, so the test is exact, not timing-
//! or RSS-dependent.

use std::path::Path;

use crate::counting_alloc::{peak_of, SERIAL};
use clap::Parser;
use sessionctl::cli::Cli;

/// A root whose db2 log holds `n` error records shaped like Agenvoy's.
fn root_with_errors(root: &Path, n: usize) -> usize {
    std::fs::create_dir_all(root.join(".store/db_2")).unwrap();
    std::fs::create_dir_all(root.join("sessions")).unwrap();
    let mut log = String::new();
    let words = "the nginx config was not readable after the daily rotation ".repeat(4);
    for i in 0..n {
        let ts = 1_760_000_000 + i;
        let value = serde_json::json!({
            "id": format!("{i:064x}"), "timestamp": ts, "tool_name": "write_file",
            "keywords": ["write_file", "rotate logs", "error_type:timeout"],
            "symptom": words, "cause": words, "action": words, "outcome": "resolved",
        });
        let line = serde_json::json!({
            "ts": ts, "cmd": "SET", "key": format!("write_file:{ts}000000000"),
            "value": value.to_string(), "expire_at": 4_102_444_800i64,
        });
        log += &format!("{line}\n");
    }
    std::fs::write(root.join(".store/db_2/record.aof"), &log).unwrap();
    log.len()
}

fn list(root: &Path, args: &[&str]) -> Cli {
    let mut all = vec![
        "sessionctl",
        "--offline",
        "--quiet",
        "--root",
        root.to_str().unwrap(),
        "errors",
        "list",
    ];
    all.extend(args);
    Cli::try_parse_from(all).unwrap()
}

#[test]
fn a_limited_list_holds_the_listed_records_only() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let n = 5_000;
    let size = root_with_errors(dir.path(), n);
    let store = dir.path().join(".store");
    let replay = peak_of(|| drop(sessionctl::store::torii::Db::load(&store, 2).unwrap()));
    for args in [&["--json", "--limit", "5"][..], &["--limit", "5"]] {
        let listed = peak_of(|| {
            sessionctl::commands::run(list(dir.path(), args)).unwrap();
        });
        eprintln!("log {size}, replay peak {replay}, {args:?} peak {listed}");
        // Beyond the replay: the index it leaves, a sort key a record
        // (~200 bytes with the vectors that find them) and five records.
        // Making every record and cutting after the sort held the whole
        // output (~1.1x the log here) or every record decoded.
        assert!(
            listed <= replay + size / 4,
            "{args:?} peaked at {listed} bytes, the replay at {replay} (log {size} bytes)"
        );
    }
}
