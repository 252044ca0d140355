use std::process::ExitCode;

use clap::Parser;
use sessionctl::cli::Cli;
use sessionctl::error::exit;

// Replay parses ToriiDB lines on worker threads and keeps the strings on the
// main one; glibc's allocator handles that cross-thread pattern poorly
// (replay of a 1M-line log: 3.5 s with it, 1.8 s with mimalloc).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            let code = match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => exit::OK,
                _ => exit::USAGE,
            };
            let _ = e.print();
            return code_of(code);
        }
    };
    match sessionctl::commands::run(cli) {
        Ok(code) => code_of(code),
        Err(err) => code_of(report(&err)),
    }
}

/// Print the error (with its context chain and a hint) and pick the exit code.
fn report(err: &anyhow::Error) -> i32 {
    // `sessionctl … | head` closing the pipe is not an error.
    let broken_pipe = err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        return exit::OK;
    }
    eprintln!("sessionctl: error: {err:#}");
    let ours = err
        .chain()
        .find_map(|e| e.downcast_ref::<sessionctl::Error>());
    if let Some(hint) = ours.and_then(|e| e.hint()) {
        eprintln!("  hint: {hint}");
    }
    ours.map_or(exit::SOFTWARE, |e| e.exit_code())
}

fn code_of(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
