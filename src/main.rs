use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
use sessionctl::cli::Cli;

// Replay parses ToriiDB lines on worker threads and keeps the strings on the
// main one; glibc's allocator handles that cross-thread pattern poorly
// (replay of a 1M-line log: 3.5 s with it, 1.8 s with mimalloc).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // A shell asking for completions (SESSIONCTL_COMPLETE=bash sessionctl -- …).
    if sessionctl::commands::docs::complete_from_env() {
        return ExitCode::SUCCESS;
    }
    let code = match parse() {
        Ok(cli) => sessionctl::commands::execute(cli),
        Err(e) => sessionctl::commands::usage_error(&e),
    };
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// The command line, with a note of which settings it (or the
/// environment) gave explicitly: the config file fills only the others.
fn parse() -> Result<Cli, clap::Error> {
    let matches = Cli::command().try_get_matches()?;
    let mut cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut Cli::command()))?;
    cli.global.explicit = sessionctl::cli::config_file::Explicit::from_matches(&matches);
    Ok(cli)
}
