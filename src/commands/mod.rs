//! One file per subcommand: resolve targets, call the engine, render.

pub(crate) mod bundle;
pub(crate) mod check;
pub(crate) mod compact;
mod config;
pub mod docs;
pub(crate) mod errors;
pub(crate) mod limits;
pub(crate) mod log;
pub(crate) mod remove;
pub(crate) mod reset;
pub(crate) mod search;
pub(crate) mod sessions;
pub(crate) mod show;
pub(crate) mod summarize;
pub(crate) mod trash;
pub(crate) mod undo;
pub(crate) mod view;

use anyhow::Result;

use crate::cli::{Cli, Command, ErrorsCommand, LimitsCommand, SessionsCommand, TrashCommand};
use crate::error::exit;
use crate::output::{ErrorEntry, Output};
use crate::store::layout::DataRoot;

pub use crate::cli_util::{Context, Done};

/// Run a parsed command line to its exit code: errors are reported (as the
/// JSON envelope with --json, never a bare line), and with --log one NDJSON
/// line records the run.
pub fn execute(mut cli: Cli) -> i32 {
    let file = crate::cli::config_file::load();
    if let Ok(file) = &file {
        crate::cli::config_file::apply(&mut cli, file);
    }
    let command = cli.command_name();
    let dry_run = cli.dry_run();
    let json = cli.global.json;
    // a run log that is a FIFO or a device would hang the run at its end:
    // refused before anything is done
    let log_ok = cli
        .global
        .log
        .as_deref()
        .map_or(Ok(()), crate::store::files::refuse_odd_outside);
    let log = cli.global.log.clone().filter(|_| log_ok.is_ok());
    let ran = file
        .map_err(anyhow::Error::from)
        .and_then(|file| Ok(log_ok.map(|()| file)?))
        .and_then(|file| run_with(cli, &file));
    // A ToriiDB index being put in place on another thread (its fsyncs
    // overlapped the command's output) is finished before we end.
    crate::store::torii::snapshot::wait_for_writes();
    let done = match ran {
        Ok(done) => done,
        Err(err) => {
            if is_broken_pipe(&err) {
                return exit::OK;
            }
            let entry = ErrorEntry::of_failure(&err);
            if json {
                let out = Output::new(true, false, false, false);
                let _ = out.envelope::<()>(command, dry_run, &[], std::slice::from_ref(&entry));
            } else {
                eprintln!("sessionctl: error: {}", entry.message);
                if let Some(hint) = &entry.hint {
                    eprintln!("  hint: {hint}");
                }
            }
            Done {
                code: entry.code,
                failed: vec![entry],
                ..Done::default()
            }
        }
    };
    if let Some(path) = log {
        if let Err(e) = append_log(&path, command, dry_run, &done) {
            eprintln!("sessionctl: warning: cannot write the run log: {e}");
        }
    }
    done.code
}

/// A command line clap refused (64), or --help/--version (0). With --json
/// anywhere on the line, the refusal is the JSON envelope.
pub fn usage_error(e: &clap::Error) -> i32 {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return exit::OK;
    }
    if std::env::args().any(|a| a == "--json") {
        let entry = ErrorEntry {
            session: None,
            code: exit::USAGE,
            message: first_sentence(&e.to_string()),
            file: None,
            hint: Some("see --help".into()),
        };
        let out = Output::new(true, false, false, false);
        let command = command_words(std::env::args().skip(1));
        let _ = out.envelope::<()>(&command, false, &[], std::slice::from_ref(&entry));
    } else {
        let _ = e.print();
    }
    exit::USAGE
}

/// clap's message on one line: its first line, and what it lists when
/// that line ends in a colon ("required arguments were not provided:").
fn first_sentence(text: &str) -> String {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("").trim_start_matches("error: ");
    if !first.ends_with(':') {
        return first.to_owned();
    }
    let listed: Vec<&str> = lines.take_while(|l| !l.starts_with("Usage:")).collect();
    format!("{first} {}", listed.join(", "))
}

/// The command a refused line names, as the envelope spells it (`errors
/// edit`), from the words clap knows as subcommands; empty when none is.
fn command_words(args: impl Iterator<Item = String>) -> String {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    let mut words: Vec<String> = Vec::new();
    for a in args.filter(|a| !a.starts_with('-')) {
        let Some(sub) = cmd.find_subcommand(&a).cloned() else {
            if words.is_empty() {
                continue; // a global option's value (`--root DIR`)
            }
            break;
        };
        words.push(sub.get_name().to_owned());
        cmd = sub;
    }
    words.join(" ")
}

/// `sessionctl … | head` closing the pipe is not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// One NDJSON line: when, what was run, how it ended, which sessions it
/// changed or failed on — and only counts for the untouched rest, so a
/// no-op run over 200 sessions stays one short line.
fn append_log(
    path: &std::path::Path,
    command: &str,
    dry_run: bool,
    done: &Done,
) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let line = serde_json::json!({
        "time": crate::timefmt::rfc3339(crate::timefmt::now()),
        "argv": std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>(),
        "command": command,
        "dry_run": dry_run,
        "exit": done.code,
        "sessions": done.sessions,
        "changed": done.changed,
        "unchanged": done.sessions.saturating_sub(done.changed.len() + done.failed.iter().filter(|f| f.session.is_some()).count()),
        "failed": done.failed,
    });
    let mut bytes = serde_json::to_vec(&line).map_err(std::io::Error::from)?;
    bytes.push(b'\n');
    // One write on an O_APPEND file: concurrent runs never interleave lines.
    // Opened without blocking and used only if it is a regular file.
    let opened = crate::store::files::open_outside(path, crate::store::files::Mode::Append)
        .map_err(std::io::Error::other)?
        .expect("Append mode creates the file");
    (&opened.file).write_all(&bytes)
}

/// Run the parsed command line (no config file applied).
pub fn run(cli: Cli) -> Result<Done> {
    run_with(cli, &crate::cli::config_file::FileConfig::default())
}

fn run_with(cli: Cli, file: &crate::cli::config_file::FileConfig) -> Result<Done> {
    // About sessionctl itself: no data root needed.
    match &cli.command {
        Command::Completions(args) => return docs::completions(args),
        Command::Man(args) => return docs::man(args),
        Command::Config(_) => return config::show(&cli, file),
        _ => {}
    }
    let g = &cli.global;
    let when = if g.no_color {
        crate::cli::ColorWhen::Never
    } else {
        g.color
    };
    let color = when.enabled(
        std::io::IsTerminal::is_terminal(&std::io::stdout()),
        std::env::var_os("NO_COLOR").as_deref(),
    );
    let out = Output::new(g.json, g.quiet, g.verbose, color);
    let root_path = match &g.root {
        Some(p) => p.clone(),
        None => DataRoot::default_path().ok_or_else(|| {
            crate::Error::usage("cannot find the data root: HOME is not set")
                .with_hint("pass --root DIR or set AGENVOY_HOME")
        })?,
    };
    // `import` may bring sessions to a new machine: its root need not exist
    // yet (it is created once the import is confirmed), or may be empty.
    let new_root = matches!(cli.command, Command::Import(_)) && is_missing_or_empty(&root_path);
    let ctx = Context {
        root: if new_root {
            DataRoot::at(&root_path)?
        } else {
            DataRoot::open(&root_path)?
        },
        out,
        offline: g.offline,
        dry_run: cli.dry_run(),
        daemon: g.daemon.clone(),
    };
    if !matches!(cli.command, Command::Limits(_)) && !new_root {
        ensure_agenvoy_root(&ctx.root)?;
    }
    ctx.out
        .info(&format!("data root {}", ctx.root.path().display()));
    if matches!(
        cli.command,
        Command::Search(_) | Command::Show(_) | Command::Sessions(_)
    ) {
        crate::cli_util::via::note_running(&ctx);
    }
    match cli.command {
        Command::Reset(args) => reset::run(&ctx, &args),
        Command::Remove(args) => remove::run(&ctx, &args),
        Command::Search(args) => search::run(&ctx, &args),
        Command::Sessions(SessionsCommand::List(args)) => sessions::list(&ctx, &args),
        Command::Show(args) => show::run(&ctx, &args),
        Command::View(args) => view::run(&ctx, &args),
        Command::Errors(ErrorsCommand::List(args)) => errors::list(&ctx, &args),
        Command::Errors(ErrorsCommand::Show(args)) => errors::show(&ctx, &args),
        Command::Errors(ErrorsCommand::Edit(args)) => errors::edit(&ctx, &args),
        Command::Errors(ErrorsCommand::Prune(args)) => errors::prune(&ctx, &args),
        Command::Errors(ErrorsCommand::Search(args)) => errors::search(&ctx, &args),
        Command::Check(args) => check::run(&ctx, &args),
        Command::Summarize(args) => summarize::run(&ctx, &args),
        Command::Compact(args) => compact::run(&ctx, &args),
        Command::Limits(LimitsCommand::Refresh(args)) => {
            limits::refresh(&ctx, &args).map(Done::from)
        }
        Command::Limits(LimitsCommand::Show(args)) => limits::show(&ctx, &args).map(Done::from),
        Command::Limits(LimitsCommand::Learn(args)) => limits::learn(&ctx, &args).map(Done::from),
        Command::Limits(LimitsCommand::Forget(args)) => limits::forget(&ctx, &args).map(Done::from),
        Command::Log(args) => log::run(&ctx, &args),
        Command::Undo(args) => undo::run(&ctx, &args),
        Command::Trash(TrashCommand::List) => trash::list(&ctx),
        Command::Trash(TrashCommand::Restore(args)) => trash::restore(&ctx, &args),
        Command::Trash(TrashCommand::Prune(args)) => trash::prune(&ctx, &args),
        Command::Export(args) => bundle::export(&ctx, &args),
        Command::Import(args) => bundle::import(&ctx, &args),
        Command::Completions(_) | Command::Man(_) | Command::Config(_) => {
            unreachable!("run before the root opens")
        }
    }
}

/// A root `import` may create: nothing there, or an empty folder.
fn is_missing_or_empty(path: &std::path::Path) -> bool {
    match std::fs::read_dir(path) {
        Ok(mut rd) => rd.next().is_none(),
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}

/// A folder with neither `sessions/` nor `.store/` is not an Agenvoy root:
/// a mistyped `--root` or `AGENVOY_HOME` must fail (66), not report "no
/// sessions" with exit 0 every night.
fn ensure_agenvoy_root(root: &DataRoot) -> crate::Result<()> {
    let present = |p: std::path::PathBuf| std::fs::symlink_metadata(p).is_ok();
    if present(root.sessions_dir()) || present(root.store_dir()) {
        return Ok(());
    }
    Err(crate::Error::no_input(format!(
        "{} is not an Agenvoy data root: it has neither sessions/ nor .store/",
        root.path().display()
    ))
    .with_hint("pass --root DIR, set AGENVOY_HOME or `root` in ~/.config/sessionctl/config.toml to the folder that holds them (default ~/.config/agenvoy)"))
}

/// Targets resolved, and the named sessions that failed already.
pub(crate) type ResolvedTargets = (
    Vec<crate::engine::batch::Target>,
    Vec<crate::engine::batch::SessionError>,
);

/// Builds the confirmation question from the targets that have work and
/// what their plans say of themselves.
type Question<'a> = dyn Fn(&[&str], &[String]) -> String + Sync + 'a;

/// The batch runner's link to the person at the terminal (or the script):
/// the `--yes` / prompt rule and a progress bar on a TTY.
pub(crate) struct CliUi<'a> {
    out: Output,
    write: &'a crate::cli::WriteArgs,
    question: Box<Question<'a>>,
    bar: indicatif::ProgressBar,
    backend: crate::engine::batch::Backend<'a>,
    /// Run once the user said yes, before the first lock is taken.
    on_yes: Option<Box<OnYes<'a>>>,
}

type OnYes<'a> = dyn Fn() -> crate::Result<()> + Sync + 'a;

pub(crate) fn batch_ui<'a>(
    ctx: &Context,
    write: &'a crate::cli::WriteArgs,
    sessions: usize,
    question: impl Fn(&[&str], &[String]) -> String + Sync + 'a,
) -> CliUi<'a> {
    CliUi {
        out: ctx.out,
        write,
        question: Box::new(question),
        bar: ctx.out.progress(sessions, "planning"),
        backend: crate::engine::batch::Backend::Files,
        on_yes: None,
    }
}

impl<'a> CliUi<'a> {
    /// Apply through `backend` (`--via`) instead of the files.
    pub(crate) fn through(mut self, backend: &'a crate::daemon::Backend) -> Self {
        use crate::engine::batch::Backend;
        self.backend = match backend {
            crate::daemon::Backend::Files => Backend::Files,
            crate::daemon::Backend::Daemon(d) => Backend::Daemon(d),
        };
        self
    }

    /// Do `f` once the write is confirmed (create what it needs first).
    pub(crate) fn on_yes(mut self, f: impl Fn() -> crate::Result<()> + Sync + 'a) -> Self {
        self.on_yes = Some(Box::new(f));
        self
    }

    pub(crate) fn options(&self) -> crate::engine::batch::Options {
        crate::engine::batch::Options {
            dry_run: self.write.dry_run,
            force: self.write.force,
        }
    }

    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl crate::engine::batch::Ui for CliUi<'_> {
    fn confirm(&self, sessions: &[&str], summaries: &[String]) -> crate::Result<bool> {
        let yes = self.bar.suspend(|| {
            let question = (self.question)(sessions, summaries);
            crate::cli_util::targets::confirm(self.write, &question).map_err(|e| match e
                .downcast::<crate::Error>()
            {
                Ok(ours) => ours,
                Err(other) => crate::Error::usage(other.to_string()),
            })
        })?;
        if let (true, Some(f)) = (yes, &self.on_yes) {
            f()?;
        }
        Ok(yes)
    }
    fn planned(&self) {
        self.bar.inc(1);
    }
    fn applied(&self) {
        self.bar.inc(1);
    }
    fn warn(&self, text: &str) {
        self.bar.suspend(|| self.out.warn(text));
    }
}

impl Context {
    /// Where vectors may come from for this run (`--offline` forbids asking).
    pub fn embed_settings(
        &self,
        args: &crate::cli::EmbedArgs,
    ) -> crate::engine::embedding::EmbedSettings {
        crate::engine::embedding::EmbedSettings {
            url: args.embed_url.clone(),
            model: args.embed_model.clone(),
            offline: self.offline,
        }
    }

    /// Run `op` over `targets` with the CLI's confirmation and progress bar,
    /// add the sessions that failed before planning (`errors`), and render.
    pub(crate) fn run_batch<O: crate::engine::batch::Operation>(
        &self,
        command: &str,
        op: &O,
        (targets, mut errors): ResolvedTargets,
        ui: CliUi<'_>,
        changed: impl Fn(&O::Report) -> bool,
        table: impl FnOnce(&[O::Report]) -> Result<()>,
    ) -> Result<Done> {
        let mut outcome =
            crate::engine::batch::run_via(op, &self.root, targets, ui.options(), &ui, ui.backend)?;
        ui.finish();
        errors.append(&mut outcome.errors);
        outcome.errors = errors;
        self.finish_batch(command, &outcome, changed, table)
    }

    /// Run a one-target operation (undo, trash restore, errors edit, …)
    /// through the runner with the CLI's confirmation: its report, `None`
    /// when the user declined, or its failure as the command's own.
    pub(crate) fn run_one<O: crate::engine::batch::Operation>(
        &self,
        op: &O,
        target: crate::engine::batch::Target,
        ui: CliUi<'_>,
    ) -> Result<Option<O::Report>> {
        let mut outcome = crate::engine::batch::run_via(
            op,
            &self.root,
            vec![target],
            ui.options(),
            &ui,
            ui.backend,
        )?;
        ui.finish();
        if let Some(e) = outcome.errors.pop() {
            return Err(e.error.into());
        }
        if outcome.declined {
            return Ok(None);
        }
        Ok(outcome.results.pop())
    }

    /// Render a batch's outcome — the JSON envelope, or the table and one
    /// stderr line per failed session — and sum it up for the exit code
    /// and the run log.
    pub(crate) fn finish_batch<R: serde::Serialize>(
        &self,
        command: &str,
        outcome: &crate::engine::batch::Outcome<R>,
        changed: impl Fn(&R) -> bool,
        table: impl FnOnce(&[R]) -> Result<()>,
    ) -> Result<Done> {
        let errors: Vec<ErrorEntry> = outcome
            .errors
            .iter()
            .map(|e| ErrorEntry::new(Some(&e.session), &e.error))
            .collect();
        let dry_run = self.dry_run;
        if self.out.json {
            self.out
                .envelope(command, dry_run, &outcome.results, &errors)?;
        } else if outcome.declined {
            self.out.line("aborted; nothing changed")?;
        } else if outcome.results.is_empty() && errors.is_empty() {
            self.out.line("no sessions match; nothing to do")?;
        } else {
            table(&outcome.results)?;
            self.out.session_errors(&errors);
        }
        Ok(Done {
            code: outcome.code(),
            sessions: outcome.results.len() + errors.len(),
            changed: if dry_run || outcome.declined {
                Vec::new()
            } else {
                outcome
                    .results
                    .iter()
                    .filter(|r| changed(r))
                    .map(session_of)
                    .collect()
            },
            failed: errors,
        })
    }
}

/// The `session` field every per-session report has.
fn session_of<R: serde::Serialize>(r: &R) -> String {
    serde_json::to_value(r)
        .ok()
        .and_then(|v| v.get("session").and_then(|s| s.as_str()).map(str::to_owned))
        .unwrap_or_default()
}

/// Replay a ToriiDB database (only what was appended since the snapshot
/// of an earlier replay, when there is one) and tell the user about
/// anything ToriiDB itself would trip over (an over-long line, a torn
/// tail).
pub(crate) fn load_db(ctx: &Context, index: u8) -> crate::Result<crate::store::torii::Db> {
    let db = crate::store::torii::Db::load_incremental(&ctx.root, index)?;
    for w in db.report.warnings(&db.aof_path()) {
        ctx.out.warn(&w);
    }
    Ok(db)
}

/// The session-history database (db1), replayed with warnings.
pub(crate) fn load_db1(ctx: &Context) -> crate::Result<crate::store::torii::Db> {
    load_db(ctx, crate::store::torii::DB_SESSION_HIST)
}
