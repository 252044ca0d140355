//! Benchmark floor for `compact`: read a history.json into a plain typed
//! struct (not sessionctl's record type) with serde_json, write it back
//! pretty and fsync it — the least any tool rewriting the file must do.
//!
//!   target/release/examples/floor_typed_json PATH/history.json

use std::io::Write;

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Deserialize, Serialize)]
struct Message {
    role: String,
    content: Value,
    #[serde(rename = "sendAt", default, skip_serializing_if = "Option::is_none")]
    send_at: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sender: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tool_calls: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: floor_typed_json HISTORY_JSON");
    let bytes = std::fs::read(&path).unwrap();
    let records: Vec<Message> = serde_json::from_slice(&bytes).unwrap();
    let out = serde_json::to_vec_pretty(&records).unwrap();
    let tmp = format!("{path}.floor.tmp");
    let mut f = std::fs::File::create(&tmp).unwrap();
    f.write_all(&out).unwrap();
    f.sync_all().unwrap();
    std::fs::remove_file(&tmp).unwrap();
    eprintln!("{} records, {} bytes", records.len(), out.len());
}
