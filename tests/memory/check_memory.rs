//! `check` of a session with a long history holds a key per record, not
//! the history: its text and parsed records were most of the command's
//! memory (2.7× the log for a million archived rows).

use std::path::Path;

use crate::counting_alloc::{peak_of, SERIAL};

use clap::Parser;
use sessionctl::cli::Cli;
use sessionctl::store::archive::Archive;
use sessionctl::store::history::Record;
use sessionctl::store::layout::DataRoot;

/// A root whose one session has `n` records, every one archived (and
/// one more that is not); returns the size of its history.json.
fn root_with_history(root: &Path, n: usize) -> usize {
    std::fs::create_dir_all(root.join("sessions/s1")).unwrap();
    std::fs::create_dir_all(root.join(".store")).unwrap();
    let records: Vec<Record> = (0..=n)
        .map(|i| {
            serde_json::from_value(serde_json::json!({
                "role": if i % 2 == 0 { "user" } else { "assistant" },
                "content": format!("message {i}: rotate the nginx logs daily and keep fourteen days of them, compressed"),
                "sendAt": 1_764_547_200_000_000_000i64 + i as i64,
            }))
            .unwrap()
        })
        .collect();
    let bytes = serde_json::to_vec_pretty(&records).unwrap();
    std::fs::write(root.join("sessions/s1/history.json"), &bytes).unwrap();
    let data_root = DataRoot::open(root).unwrap();
    let mut a = Archive::open_write(&data_root, &data_root.archive_path()).unwrap();
    a.archive_records("s1", &records[..n], &[], None).unwrap();
    bytes.len()
}

#[test]
fn check_holds_a_key_per_record_not_the_history() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let n = 50_000;
    let size = root_with_history(dir.path(), n);
    let cli = Cli::try_parse_from([
        "sessionctl",
        "--offline",
        "--quiet",
        "--json",
        "--root",
        dir.path().to_str().unwrap(),
        "check",
    ])
    .unwrap();
    let mut done = None;
    let peak = peak_of(|| done = Some(sessionctl::commands::run(cli).unwrap()));
    eprintln!("history.json {size} bytes, {n} records: check peaked at {peak} bytes");
    // the one record not archived is found
    assert_eq!(done.unwrap().code, 1);
    // 24-byte keys, a map of them and the vectors' growth: ~85 bytes a
    // record, where the history's bytes alone are ~170 and its parsed
    // records some 300 more
    assert!(
        peak < n * 128 + (1 << 20),
        "check peaked at {peak} bytes for {n} records ({size}-byte history.json)"
    );
}
