//! `completions/` and `man/` are generated from the clap definitions and
//! committed. This test fails when they are stale; regenerate with
//! `SESSIONCTL_BLESS=1 cargo test --test it generated`.

use std::path::Path;

use sessionctl::commands::docs::generated_files;

#[test]
fn completions_and_man_pages_are_up_to_date() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("SESSIONCTL_BLESS").is_some();
    let mut stale = Vec::new();
    for (rel, want) in generated_files() {
        let path = base.join(&rel);
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &want).unwrap();
        } else if std::fs::read(&path).ok().as_deref() != Some(&want[..]) {
            stale.push(rel.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files {stale:?}: run `SESSIONCTL_BLESS=1 cargo test --test it generated` and commit"
    );
}
