//! `completions/` and `man/` are generated from the clap definitions and
//! committed. This test fails when they are stale; regenerate with
//! `SESSIONCTL_BLESS=1 cargo test --test generated`.

use std::path::{Path, PathBuf};

use clap::CommandFactory;
use clap_complete::{generate, Shell};
use sessionctl::cli::Cli;

fn expected() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for (shell, name) in [
        (Shell::Bash, "sessionctl.bash"),
        (Shell::Zsh, "_sessionctl"),
        (Shell::Fish, "sessionctl.fish"),
    ] {
        let mut buf = Vec::new();
        generate(shell, &mut Cli::command(), "sessionctl", &mut buf);
        files.push((PathBuf::from("completions").join(name), buf));
    }
    // The committed pages name the release, not the commit --version adds
    // (it changes with every commit).
    let cmd = Cli::command().version(env!("CARGO_PKG_VERSION"));
    files.push((PathBuf::from("man/sessionctl.1"), man_page(cmd.clone())));
    for sub in cmd.get_subcommands() {
        add_pages(sub, "sessionctl", &mut files);
    }
    files
}

fn add_pages(cmd: &clap::Command, parent: &str, files: &mut Vec<(PathBuf, Vec<u8>)>) {
    let name = format!("{parent}-{}", cmd.get_name());
    let page = cmd
        .clone()
        .display_name(name.replace('-', " "))
        .name(name.clone());
    files.push((PathBuf::from(format!("man/{name}.1")), man_page(page)));
    for sub in cmd.get_subcommands() {
        add_pages(sub, &name, files);
    }
}

fn man_page(cmd: clap::Command) -> Vec<u8> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut buf).unwrap();
    buf
}

#[test]
fn completions_and_man_pages_are_up_to_date() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("SESSIONCTL_BLESS").is_some();
    let mut stale = Vec::new();
    for (rel, want) in expected() {
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
        "stale generated files {stale:?}: run `SESSIONCTL_BLESS=1 cargo test --test generated` and commit"
    );
}
