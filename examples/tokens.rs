//! Benchmark case: token counting of a text file.
//!
//!   cargo run --release --example tokens -- FILE heuristic|o200k|o200k-tiktoken|o200k-bpe
//!
//! `o200k` is sessionctl's exact counter; `o200k-tiktoken` (tiktoken-rs)
//! and `o200k-bpe` (bpe-openai) are the bare libraries, without its chunk
//! memo, for comparison.

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .expect("usage: tokens FILE heuristic|o200k|o200k-tiktoken|o200k-bpe");
    let mode = args.next().unwrap_or_default();
    let counter = match mode.as_str() {
        "o200k" => sessionctl::engine::tokens::Counter::for_agent("openai@gpt-4o"),
        _ => sessionctl::engine::tokens::Counter::Heuristic,
    };
    let count: Box<dyn Fn(&str) -> usize> = match mode.as_str() {
        "o200k-tiktoken" => {
            let bpe = tiktoken_rs::o200k_base_singleton();
            Box::new(move |l| bpe.encode_ordinary(l).len())
        }
        "o200k-bpe" => Box::new(|l| bpe_openai::o200k_base().count(l)),
        _ => Box::new(move |l| counter.count(l)),
    };
    let text = std::fs::read_to_string(&file).unwrap();
    // the tables load on first use; the rate is of counting alone
    let loading = std::time::Instant::now();
    count("a");
    eprintln!(
        "tables loaded in {:.0} ms",
        loading.elapsed().as_secs_f64() * 1e3
    );
    let (started, cpu_started) = (std::time::Instant::now(), thread_cpu_secs());
    // count line by line, as records are counted, so BPE never sees one giant string
    let n: usize = text.lines().map(count).sum();
    let secs = started.elapsed().as_secs_f64();
    let cpu = thread_cpu_secs() - cpu_started;
    let mb = text.len() as f64 / 1e6;
    // CPU time is what to compare on a shared machine
    eprintln!(
        "{n} tokens ({mode}), {:.1} MB/s wall, {:.1} MB/s CPU",
        mb / secs,
        mb / cpu
    );
}

fn thread_cpu_secs() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid out-pointer for clock_gettime.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}
