//! Benchmark case: ToriiDB replay of one log, nothing else.
//!
//!   cargo run --release --example replay -- ROOT/.store 1
//!   cargo run --release --example replay -- ROOT/.store 1 --resume
//!
//! With `--resume`, the load read commands make: from the index kept in
//! ROOT/.sessionctl/ when it matches the log (and keeping it).

fn main() {
    let mut args = std::env::args().skip(1);
    let store = args
        .next()
        .expect("usage: replay STORE_DIR [DB] [--resume]");
    let db: u8 = args.next().map_or(1, |d| d.parse().expect("a db number"));
    let resume = args.next().is_some_and(|a| a == "--resume");
    let store = std::path::Path::new(&store);
    let started = std::time::Instant::now();
    let d = if resume {
        let root = store.parent().expect("STORE_DIR is ROOT/.store");
        let root = sessionctl::store::layout::DataRoot::open(root).unwrap();
        sessionctl::store::torii::Db::load_incremental(&root, db).unwrap()
    } else {
        sessionctl::store::torii::Db::load(store, db).unwrap()
    };
    sessionctl::store::torii::snapshot::wait_for_writes();
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{} lines, {} keys, resumed at {}, {:.0} ms",
        d.report.lines,
        d.len(),
        d.resumed_at(),
        secs * 1e3
    );
    // The process ends here: freeing a million keys one by one would only
    // delay its exit (the kernel takes the pages back at once).
    std::mem::forget(d);
}

// The same allocator as the sessionctl binary, so this measures what it does.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
