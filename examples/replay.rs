//! Benchmark case: ToriiDB replay of one log, nothing else.
//!
//!   cargo run --release --example replay -- ROOT/.store 1

fn main() {
    let mut args = std::env::args().skip(1);
    let store = args.next().expect("usage: replay STORE_DIR [DB]");
    let db: u8 = args.next().map_or(1, |d| d.parse().expect("a db number"));
    let started = std::time::Instant::now();
    let d = sessionctl::store::torii::Db::load(std::path::Path::new(&store), db).unwrap();
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{} lines, {} keys, {:.0} MB/s",
        d.report.lines,
        d.len(),
        d.report.bytes as f64 / 1e6 / secs
    );
    // The process ends here: freeing a million keys one by one would only
    // delay its exit (the kernel takes the pages back at once).
    std::mem::forget(d);
}

// The same allocator as the sessionctl binary, so this measures what it does.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
