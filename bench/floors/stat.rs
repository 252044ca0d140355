//! Benchmark floor for `sessions list` (repeat run): stat every file of
//! every session folder, in process, and nothing else — what a listing
//! that trusts a metadata cache cannot do less of.
//!
//!   target/release/examples/floor_stat ROOT

fn main() {
    let root = std::env::args().nth(1).expect("usage: floor_stat ROOT");
    let (mut sessions, mut files, mut bytes) = (0u64, 0u64, 0u64);
    for dir in std::fs::read_dir(std::path::Path::new(&root).join("sessions")).unwrap() {
        let dir = dir.unwrap();
        sessions += 1;
        for f in std::fs::read_dir(dir.path()).unwrap() {
            let m = std::fs::symlink_metadata(f.unwrap().path()).unwrap();
            files += 1;
            bytes += m.len();
        }
    }
    eprintln!("{sessions} sessions, {files} files, {bytes} bytes");
}
