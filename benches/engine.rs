//! Criterion benchmarks of the engine functions the commands spend their
//! time in. `cargo bench --bench engine`; the whole-command numbers are in
//! BENCHMARKS.md (bench/run.sh).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use serde_json::json;

use sessionctl::engine::compact::{self, Options};
use sessionctl::engine::tokens::{estimate_text, Counter};
use sessionctl::llm::offline::Offline;
use sessionctl::store::history::Record;
use sessionctl::store::torii::{aof, glob, Db};

fn records(n: usize) -> Vec<Record> {
    (0..n)
        .map(|i| {
            let role = if i % 2 == 0 { "user" } else { "assistant" };
            let text = format!("message {i}: rotate the nginx logs 每天 {} {}", "words ".repeat(20), i * 7);
            serde_json::from_value(json!({"role": role, "content": text, "sendAt": 1_800_000_000_000_000_000i64 + i as i64}))
                .unwrap()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let text: String = records(2000)
        .iter()
        .map(|r| r.text().into_owned())
        .collect::<Vec<_>>()
        .join("\n");
    let mut g = c.benchmark_group("tokens");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("heuristic", |b| b.iter(|| estimate_text(black_box(&text))));
    g.finish();

    let line = br#"{"ts":1796220417,"cmd":"SET","key":"tui-alice:1764547205000000000","value":"{\"content\":\"Use logrotate with a daily rule and postrotate reload.\",\"role\":\"assistant\"}"}"#;
    let mut g = c.benchmark_group("aof");
    g.throughput(Throughput::Bytes(line.len() as u64));
    g.bench_function("parse line", |b| b.iter(|| aof::parse(black_box(line))));
    g.finish();

    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("db_1")).unwrap();
    let log: Vec<u8> = (0..50_000)
        .flat_map(|i| {
            let mut l = line.to_vec();
            let key = format!("s{}:{}", i % 100, 1_764_547_205_000_000_000u64 + i);
            l = String::from_utf8(l)
                .unwrap()
                .replace("tui-alice:1764547205000000000", &key)
                .into_bytes();
            l.push(b'\n');
            l
        })
        .collect();
    std::fs::write(dir.path().join("db_1/record.aof"), &log).unwrap();
    let mut g = c.benchmark_group("replay");
    g.throughput(Throughput::Bytes(log.len() as u64));
    g.sample_size(20);
    g.bench_function("50k lines", |b| {
        b.iter(|| Db::load(black_box(dir.path()), 1).unwrap())
    });
    g.finish();

    let rs = records(20_000);
    let bytes = compact::history_bytes(&rs);
    let opts = Options {
        counter: Counter::Heuristic,
        budget: 20_000,
        max_bytes: u64::MAX,
        keep_last: 2,
        raw_tools_budget: None,
        summarizer: &Offline,
    };
    let mut g = c.benchmark_group("compact");
    g.sample_size(20);
    g.bench_function("plan 20k records", |b| {
        b.iter(|| compact::plan(black_box(rs.clone()), bytes, 0, &[], &opts).unwrap())
    });
    g.finish();

    c.bench_function("glob sid:*", |b| {
        b.iter(|| {
            glob::path_match(
                black_box("tui-alice:*"),
                black_box("tui-alice:1764547205000000000"),
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
