//! Generate a realistic Agenvoy data root for benchmarks and soak tests.
//!
//!   cargo run --release --example gen -- --sessions 100 --records 500 \
//!       --archive-rows 50000 --torii-keys 50000 --errors 1000 --seed 7 --out /tmp/root
//!
//! Deterministic from the seed. Mixed English/CJK/code text, part-array
//! content, records without sendAt, task histories with parallel tool calls
//! and write_todo, error-memory records (some expired, some not resolved),
//! ToriiDB logs in ToriiDB's exact line format (some entries with 256-dim
//! vectors, mirror files omitted), and the SQLite archive with Agenvoy's
//! real schema and triggers.

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use serde_json::{json, Value};
use sessionctl::store::archive::Archive;
use sessionctl::store::torii::aof::{to_line, Line};

/// splitmix64: small, fast, and the same sequence on every machine.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "rotate",
    "logs",
    "nginx",
    "daily",
    "compress",
    "keep",
    "days",
    "the",
    "config",
    "server",
    "deploy",
    "failure",
    "timeout",
    "permission",
    "denied",
    "retry",
    "database",
    "index",
    "query",
    "session",
    "agent",
    "summary",
    "token",
    "budget",
    "window",
    "model",
    "error",
    "fix",
    "build",
    "test",
    "cache",
    "please",
    "check",
    "why",
    "does",
    "this",
    "fail",
    "when",
    "I",
    "run",
    "it",
    "again",
    "with",
    "and",
];
const CJK: &[&str] = &[
    "日誌",
    "輪替",
    "每天",
    "保留",
    "壓縮",
    "設定",
    "伺服器",
    "部署",
    "失敗",
    "逾時",
    "權限",
    "重試",
    "資料庫",
    "要",
    "不要",
    "確認",
    "為什麼",
    "這個",
    "問題",
    "解決",
    "テスト",
    "ログ",
    "설정",
    "오류",
];
const CODE: &[&str] = &[
    "fn main() { println!(\"{}\", x); }",
    "let v: Vec<u64> = (0..n).map(|i| i * i).collect();",
    "SELECT id, content FROM messages WHERE session_id = ?1;",
    "/var/log/nginx/*.log { daily rotate 14 compress }",
    "if err != nil { return fmt.Errorf(\"open: %w\", err) }",
    "{\"path\":\"/etc/logrotate.d/nginx\",\"mode\":\"0644\"}",
];

fn text(rng: &mut Rng, max_words: u64) -> String {
    let n = 3 + rng.below(max_words);
    let mut s = String::new();
    for _ in 0..n {
        match rng.below(10) {
            0..=5 => s.push_str(rng.pick::<&str>(WORDS)),
            6..=7 => s.push_str(rng.pick::<&str>(CJK)),
            8 => s.push_str(rng.pick::<&str>(CODE)),
            _ => s.push_str(&rng.below(100_000).to_string()),
        }
        s.push(' ');
    }
    s.trim_end().to_owned()
}

/// Generate a deterministic Agenvoy data root (sessions, ToriiDB logs, the
/// SQLite archive) for benchmarks and soak tests.
#[derive(clap::Parser)]
#[command(
    name = "gen",
    after_help = "Example:\n  cargo run --release --example gen -- --sessions 100 --records 500 --seed 7 --out /tmp/root"
)]
struct Args {
    /// Number of session folders
    #[arg(long, default_value_t = 3)]
    sessions: usize,
    /// history.json records per session
    #[arg(long, default_value_t = 50)]
    records: usize,
    /// Archive rows in total [default: sessions × records]
    #[arg(long)]
    archive_rows: Option<usize>,
    /// ToriiDB db1 keys in total [default: sessions × records]
    #[arg(long)]
    torii_keys: Option<usize>,
    /// Error-memory records (db2)
    #[arg(long, default_value_t = 100)]
    errors: usize,
    /// Words in an assistant record (user records get a third)
    #[arg(long, default_value_t = 60)]
    words: u64,
    /// Seed: the same seed writes the same root on every machine
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the root (created)
    #[arg(long, default_value = "gen-root")]
    out: PathBuf,
}

fn parse_args() -> Args {
    <Args as clap::Parser>::parse()
}

fn vector(rng: &mut Rng) -> String {
    use base64::Engine as _;
    let bytes: Vec<u8> = (0..256)
        .flat_map(|_| ((rng.below(2000) as f32 - 1000.0) / 1000.0).to_le_bytes())
        .collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn main() {
    let a = parse_args();
    let mut rng = Rng(a.seed);
    let total_records = a.sessions * a.records;
    let archive_rows = a.archive_rows.unwrap_or(total_records);
    let torii_keys = a.torii_keys.unwrap_or(total_records);
    let sessions_dir = a.out.join("sessions");
    std::fs::create_dir_all(&sessions_dir).unwrap();
    std::fs::create_dir_all(a.out.join(".store/db_1")).unwrap();
    std::fs::create_dir_all(a.out.join(".store/db_2")).unwrap();

    let root = sessionctl::store::layout::DataRoot::open(&a.out).unwrap();
    let mut archive = Archive::open_write(&root, &root.archive_path()).unwrap();
    archive
        .connection()
        .pragma_update(None, "synchronous", "OFF")
        .unwrap();
    archive
        .connection()
        .pragma_update(None, "journal_mode", "WAL")
        .unwrap();
    let mut db1 =
        BufWriter::new(std::fs::File::create(a.out.join(".store/db_1/record.aof")).unwrap());
    let models = [
        "claude@claude-sonnet-4-5",
        "openai@gpt-4o",
        "gemini@gemini-2.5-pro",
        "copilot@gpt-5",
    ];
    let base_ns: i64 = 1_760_000_000_000_000_000;
    let (mut archived, mut keyed) = (0usize, 0usize);

    for s in 0..a.sessions {
        let id = format!("s{s:05}");
        let dir = sessions_dir.join(&id);
        std::fs::create_dir_all(dir.join("history")).unwrap();
        std::fs::write(
            dir.join("config.json"),
            json!({"model": models[s % models.len()]}).to_string(),
        )
        .unwrap();
        let mut t = base_ns + (s as i64) * 1_000_000_000_000;
        let mut records = Vec::with_capacity(a.records);
        for i in 0..a.records {
            t += 1_000_000_000 + rng.below(60_000_000_000) as i64;
            let role = if i % 2 == 0 { "user" } else { "assistant" };
            let body = text(&mut rng, if role == "user" { a.words / 3 } else { a.words });
            let content = if rng.chance(10) {
                json!([{"type":"text","text":body},{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,AAAA"}}])
            } else {
                json!(body)
            };
            let mut r = json!({"role": role, "content": content});
            if !rng.chance(3) {
                r["sendAt"] = json!(t);
            }
            if role == "user" {
                r["sender"] = json!(*rng.pick(&["alice", "bob#42", "carol"]));
            }
            records.push(r);
        }
        let tx = archive.connection().transaction().unwrap();
        for r in &records {
            let rec: sessionctl::store::history::Record =
                serde_json::from_value(r.clone()).unwrap();
            if archived < archive_rows {
                // generated records are unique: a plain insert, no existence check
                tx.prepare_cached(
                    "INSERT INTO messages (session_id, send_at, role, content, sender) VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .unwrap()
                .execute(rusqlite::params![id, rec.send_at, rec.role, rec.text().as_ref(), rec.sender])
                .unwrap();
                archived += 1;
            }
            if keyed < torii_keys && rec.send_at != 0 {
                let value = json!({"role": rec.role, "content": rec.text()}).to_string();
                let vector = if rng.chance(5) {
                    vector(&mut rng)
                } else {
                    String::new()
                };
                db1.write_all(&to_line(&Line {
                    ts: rec.send_at / 1_000_000_000,
                    cmd: "SET".into(),
                    key: format!("{id}:{}", rec.send_at).into(),
                    value: value.into(),
                    vector: vector.into(),
                    ..Default::default()
                }))
                .unwrap();
                keyed += 1;
            }
        }
        if let Some(first) = records.iter().find_map(|r| r["sendAt"].as_i64()) {
            tx.execute(
                "INSERT OR REPLACE INTO session_meta VALUES (?1, ?2)",
                rusqlite::params![id, first],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        let f = BufWriter::new(std::fs::File::create(dir.join("history.json")).unwrap());
        serde_json::to_writer_pretty(f, &records).unwrap();

        // one task history with parallel calls and a plan
        let mut task = vec![json!({"role":"user","content": text(&mut rng, 12)})];
        for k in 0..(3 + rng.below(8)) {
            let n = 1 + rng.below(3);
            let calls: Vec<Value> = (0..n)
                .map(|j| {
                    let name = if j == 0 && k % 4 == 0 { "write_todo" } else { *rng.pick(&["read_file", "run_command", "fetch_page"]) };
                    json!({"id": format!("call_{k}_{j}"), "type":"function", "function":{"name":name,"arguments":json!({"arg": text(&mut rng, 5)}).to_string()}})
                })
                .collect();
            task.push(json!({"role":"assistant","content":"","tool_calls":calls}));
            for j in 0..n {
                task.push(json!({"role":"tool","tool_call_id":format!("call_{k}_{j}"),"content": text(&mut rng, a.words * 3)}));
            }
        }
        task.push(json!({"role":"assistant","content": text(&mut rng, a.words)}));
        std::fs::write(
            dir.join("history/t1.json"),
            serde_json::to_vec_pretty(&task).unwrap(),
        )
        .unwrap();
        if s % 2 == 0 {
            let summary = json!({
                "key_decisions": ["要：".to_owned() + &text(&mut rng, 8)],
                "past_discussions": [{"topic": text(&mut rng, 3), "description": text(&mut rng, 12), "direction": text(&mut rng, 6), "last_discussed": "2025-11-30 14:05"}],
                "current_discussion": {"topic": text(&mut rng, 3), "description": text(&mut rng, 12), "perspectives": "", "direction": text(&mut rng, 6)}
            });
            std::fs::write(
                dir.join("summary.json"),
                serde_json::to_vec_pretty(&summary).unwrap(),
            )
            .unwrap();
            std::fs::write(
                dir.join("summary.meta.json"),
                r#"{"last_message_time": "2025-11-30 14:05:00"}"#,
            )
            .unwrap();
        }
    }
    db1.flush().unwrap();

    // error memory: mostly live and resolved, some expired, some failed
    let mut db2 =
        BufWriter::new(std::fs::File::create(a.out.join(".store/db_2/record.aof")).unwrap());
    for e in 0..a.errors {
        let tool = *rng.pick(&["run_command", "fetch_page", "read_file", "write_file"]);
        let ns = base_ns + (e as i64) * 7_000_000_000;
        let outcome = if rng.chance(10) { "failed" } else { "resolved" };
        let expire_at = if rng.chance(10) {
            1_700_000_000
        } else {
            4_102_444_800
        };
        let rec = json!({"id": format!("{:064x}", rng.next()), "timestamp": ns / 1_000_000_000, "tool_name": tool,
            "keywords": [tool, text(&mut rng, 2), "error_type:timeout"], "symptom": text(&mut rng, 10),
            "cause": text(&mut rng, 8), "action": text(&mut rng, 10), "outcome": outcome});
        db2.write_all(&to_line(&Line {
            ts: ns / 1_000_000_000,
            cmd: "SET".into(),
            key: format!("{tool}:{ns}").into(),
            value: rec.to_string().into(),
            expire_at: Some(expire_at),
            vector: if rng.chance(20) {
                vector(&mut rng).into()
            } else {
                "".into()
            },
        }))
        .unwrap();
    }
    db2.flush().unwrap();
    archive
        .connection()
        .pragma_update(None, "journal_mode", "DELETE")
        .unwrap();
    eprintln!(
        "generated {} session(s), {} record(s), {} archive row(s), {} db1 key(s), {} error record(s) in {}",
        a.sessions, total_records, archived, keyed, a.errors, a.out.display()
    );
}
