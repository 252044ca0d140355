//! `view`: the full-screen view. It needs a terminal; scripts use the
//! subcommands it is a face over.

use std::io::IsTerminal;

use anyhow::Result;

use crate::cli::ViewArgs;
use crate::commands::{Context, Done};
use crate::error::Error;
use crate::output::Output;

const INSTEAD: &str = "scripts use the subcommands: sessions list, show [--summary], compact, reset, remove, summarize, log, undo, trash, errors (each with --json)";

pub fn run(ctx: &Context, args: &ViewArgs) -> Result<Done> {
    if ctx.out.json {
        return Err(Error::usage("view is interactive and has no JSON form")
            .with_hint(INSTEAD)
            .into());
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(
            Error::usage("view needs a terminal: stdin or stdout is not one")
                .with_hint(INSTEAD)
                .into(),
        );
    }
    // A dumb terminal cannot move the cursor or switch screens: the view
    // would scroll garbage instead of drawing.
    if std::env::var_os("TERM").is_some_and(|t| t.is_empty() || t == "dumb") {
        return Err(
            Error::usage("view needs a terminal that can draw: TERM is dumb or empty")
                .with_hint(INSTEAD)
                .into(),
        );
    }
    // Nothing may print over the screen: what the engine's helpers would
    // warn about, the view shows itself.
    let quiet = Context {
        root: ctx.root.clone(),
        out: Output {
            quiet: true,
            verbose: false,
            ..ctx.out
        },
        offline: ctx.offline,
        dry_run: false,
        daemon: ctx.daemon.clone(),
    };
    crate::view::run(&quiet, args)
}
