//! Benchmark case: token counting of a text file.
//!
//!   cargo run --release --example tokens -- FILE heuristic|o200k

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("usage: tokens FILE heuristic|o200k");
    let counter = match args.next().as_deref() {
        Some("o200k") => sessionctl::engine::tokens::Counter::for_agent("openai@gpt-4o"),
        _ => sessionctl::engine::tokens::Counter::Heuristic,
    };
    let text = std::fs::read_to_string(&file).unwrap();
    let started = std::time::Instant::now();
    // count line by line, as records are counted, so BPE never sees one giant string
    let n: usize = text.lines().map(|l| counter.count(l)).sum();
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{n} tokens ({}), {:.1} MB/s",
        counter.name(),
        text.len() as f64 / 1e6 / secs
    );
}
