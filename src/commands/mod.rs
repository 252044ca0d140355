//! One file per subcommand: resolve targets, call the engine, render.

pub mod check;
mod clear;
pub mod compact;
pub mod errors;
pub mod limits;
pub mod remove;
pub mod reset;
pub mod search;
pub mod sessions;
pub mod show;
pub mod summarize;
mod targets;

use anyhow::Result;

use crate::cli::{Cli, Command, ErrorsCommand, LimitsCommand, SessionsCommand};
use crate::output::Output;
use crate::store::layout::DataRoot;

/// What every command gets: the opened root and the renderer.
pub struct Context {
    pub root: DataRoot,
    pub out: Output,
    /// Never touch the network.
    pub offline: bool,
}

/// Run the parsed command line; returns the process exit code.
pub fn run(cli: Cli) -> Result<i32> {
    let g = &cli.global;
    let out = Output::new(g.json, g.quiet, g.verbose, g.no_color);
    let root_path = match &g.root {
        Some(p) => p.clone(),
        None => DataRoot::default_path().ok_or_else(|| {
            crate::Error::usage("cannot find the data root: HOME is not set")
                .with_hint("pass --root DIR or set AGENVOY_HOME")
        })?,
    };
    let ctx = Context {
        root: DataRoot::open(&root_path)?,
        out,
        offline: g.offline,
    };
    ctx.out
        .info(&format!("data root {}", ctx.root.path().display()));
    match cli.command {
        Command::Sessions(SessionsCommand::List(args)) => sessions::list(&ctx, &args),
        Command::Show(args) => show::run(&ctx, &args),
        Command::Reset(args) => reset::run(&ctx, &args),
        Command::Remove(args) => remove::run(&ctx, &args),
        Command::Compact(args) => compact::run(&ctx, &args),
        Command::Summarize(args) => summarize::run(&ctx, &args),
        Command::Search(args) => search::run(&ctx, &args),
        Command::Check(args) => check::run(&ctx, &args),
        Command::Errors(ErrorsCommand::List(args)) => errors::list(&ctx, &args),
        Command::Errors(ErrorsCommand::Show(args)) => errors::show(&ctx, &args),
        Command::Errors(ErrorsCommand::Edit(args)) => errors::edit(&ctx, &args),
        Command::Errors(ErrorsCommand::Prune(args)) => errors::prune(&ctx, &args),
        Command::Errors(ErrorsCommand::Search(args)) => errors::search(&ctx, &args),
        Command::Limits(LimitsCommand::Refresh(args)) => limits::refresh(&ctx, &args),
        Command::Limits(LimitsCommand::Show(args)) => limits::show(&ctx, &args),
        Command::Limits(LimitsCommand::Learn(args)) => limits::learn(&ctx, &args),
    }
}

/// Replay a ToriiDB database and tell the user about anything ToriiDB
/// itself would trip over (an over-long line, a torn tail).
pub(crate) fn load_db(ctx: &Context, index: u8) -> crate::Result<crate::store::torii::Db> {
    let db = crate::store::torii::Db::load_store(&ctx.root, index)?;
    for w in db.report.warnings(&db.aof_path()) {
        ctx.out.warn(&w);
    }
    Ok(db)
}

/// The session-history database (db1), replayed with warnings.
pub(crate) fn load_db1(ctx: &Context) -> crate::Result<crate::store::torii::Db> {
    load_db(ctx, crate::store::torii::DB_SESSION_HIST)
}
