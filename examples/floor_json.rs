//! Benchmark floor for `compact`: parse a history.json with serde_json and
//! write it back (pretty, fsynced) — the least any tool rewriting the file
//! must do.
//!
//!   cargo run --release --example floor_json -- PATH/history.json

use std::io::Write;

use sessionctl::store::history::{self, Record};

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: floor_json HISTORY_JSON");
    let bytes = std::fs::read(&path).unwrap();
    let records: Vec<Record> = serde_json::from_slice(&bytes).unwrap();
    let out = history::to_bytes(&records);
    let tmp = format!("{path}.floor.tmp");
    let mut f = std::fs::File::create(&tmp).unwrap();
    f.write_all(&out).unwrap();
    f.sync_all().unwrap();
    std::fs::remove_file(&tmp).unwrap();
    eprintln!("{} records, {} bytes", records.len(), out.len());
}
