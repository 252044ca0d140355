//! The view's reads and writes of sessions, by the engine entry points the
//! commands use: the rows of `sessions list`, the summary of `show
//! --summary`, and compact, reset, remove and summarize as operations of
//! the one batch runner (a dry run is the plan; the confirm dialog stands
//! in for the command line's prompt). Runs on worker threads.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use crate::cli::{Filters, SummarizerKind, Targets, ViewArgs};
use crate::cli_util::targets::{self, Resolve};
use crate::cli_util::via::refuse_options;
use crate::cli_util::{context_window, listing, Context};
use crate::daemon;
use crate::engine::batch::{self, Operation, Outcome, SessionError, Target};
use crate::engine::compact::op::{Compact, CompactReport, Settings as CompactSettings};
use crate::engine::compact::DEFAULT_MAX_BYTES;
use crate::engine::limit_ops::{self, Lesson};
use crate::engine::reset::{ClearReport, Refresher, Remove, Reset, ResetMode, SummaryRefresher};
use crate::engine::sessions;
use crate::engine::summarize::op::{Settings as SummarizeSettings, Summarize, SummaryReport};
use crate::engine::summarize::{self, DEFAULT_CHUNK_CHARS};
use crate::error::Error;

use super::state::{mode_name, Progress, Row, SessionList, SummaryData, Update};

/// What every worker needs: the command's context and the view's options.
#[derive(Clone, Copy)]
pub struct Env<'a> {
    pub ctx: &'a Context,
    pub args: &'a ViewArgs,
}

/// An error as one line, with its hint.
pub fn say(e: &Error) -> String {
    format!("{e} (hint: {})", e.hint())
}

/// The rows of `sessions list`, and what it would warn about.
pub fn sessions(env: Env) -> crate::Result<SessionList> {
    let listed = listing::rows(env.ctx, &Filters::default())?;
    let rows = listed
        .rows
        .into_iter()
        .map(|r| Row {
            tokens_exact: r.counter.is_exact(),
            used_percent: r.budget.as_ref().map(|b| b.used_percent),
            id: r.id,
            records: r.records,
            tokens: r.tokens,
            bytes: r.bytes,
            last_at: r.last_at,
            has_summary: r.has_summary,
            summary_at: r.summary_at,
            model: r.model,
            problems: r.problems,
        })
        .collect();
    let mut warnings = listed.warnings;
    let mut via_daemon = false;
    // What the plans on the tabs cannot show: where the writes will go.
    match env.ctx.backend(env.args.force) {
        Ok(daemon::Backend::Daemon(d)) => {
            via_daemon = true;
            warnings.insert(
            0,
            format!(
                "Agenvoy is running: writes go through its daemon at {}, which decides the exact numbers",
                d.url()
            ),
        )
        }
        Ok(daemon::Backend::Files) if !env.args.force => {
            if let Some(w) = crate::store::runtime::dry_run_warning(&env.ctx.root) {
                warnings.insert(0, w);
            }
        }
        Ok(daemon::Backend::Files) => {}
        Err(e) => warnings.insert(0, say(&e)),
    }
    Ok(SessionList {
        rows,
        warnings,
        via_daemon,
    })
}

/// What `show SESSION --summary` shows.
pub fn summary(env: Env, id: &str) -> crate::Result<SummaryData> {
    let root = &env.ctx.root;
    let dir = root.session(id)?;
    Ok(SummaryData {
        session: id.to_owned(),
        fields: sessions::load_summary(&dir)?.map(|(s, _)| s.fields),
        cursor: sessions::load_cursor(&dir)?,
        up_to: sessions::summarized_up_to(&dir),
        behind: summarize::pending(root, &dir).ok(),
    })
}

/// The batch runner's link to the view: planning and applying report
/// progress to the UI thread; the question was asked before the job
/// started, so `confirm` says yes, unless Esc came first.
pub struct ViewUi<'a> {
    tx: Sender<Update>,
    cancel: &'a AtomicBool,
    progress: Mutex<Progress>,
    warnings: Mutex<Vec<String>>,
    /// Past its confirmation: a write is under way until this is dropped.
    writing: AtomicBool,
}

impl Drop for ViewUi<'_> {
    fn drop(&mut self) {
        if self.writing.load(Ordering::SeqCst) {
            super::terminal::writing(false);
        }
    }
}

impl<'a> ViewUi<'a> {
    pub fn new(tx: Sender<Update>, cancel: &'a AtomicBool) -> Self {
        ViewUi {
            tx,
            cancel,
            progress: Mutex::new(Progress::default()),
            warnings: Mutex::new(Vec::new()),
            writing: AtomicBool::new(false),
        }
    }

    /// The runner asks before its first write: false when Esc came first
    /// (nothing is written then).
    pub fn go_ahead(&self) -> crate::Result<bool> {
        if self.cancel.load(Ordering::SeqCst) {
            return Ok(false);
        }
        if !self.writing.swap(true, Ordering::SeqCst) {
            super::terminal::writing(true);
        }
        self.bump(|p| p.applying = true);
        Ok(true)
    }

    fn bump(&self, f: impl FnOnce(&mut Progress)) {
        let mut p = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut p);
        let _ = self.tx.send(Update::Progress(*p));
    }

    /// Waiting for a summarizer's reply, which writes nothing: a signal
    /// may end the process meanwhile, and Esc may stop the wait.
    fn waiting(&self, on: bool) {
        if self.writing.load(Ordering::SeqCst) {
            super::terminal::writing(!on);
        }
        self.bump(|p| p.waiting = on);
    }

    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl batch::Ui for ViewUi<'_> {
    fn confirm(&self, _sessions: &[&str], _summaries: &[String]) -> crate::Result<bool> {
        self.go_ahead()
    }
    fn planned(&self) {
        self.bump(|p| p.planned += 1);
    }
    fn applied(&self) {
        self.bump(|p| p.applied += 1);
    }
    fn warn(&self, text: &str) {
        self.warnings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(text.to_owned());
    }
}

/// A summarizer Esc can stop waiting for. Its requests run on a thread of
/// their own; when the user cancels, the caller gets an error at once and
/// the reply, whenever it comes, is dropped. Nothing is written while a
/// reply is awaited, so this never stops a write half-way: the chunks
/// merged before stay, and the next summarize goes on from them.
struct Stoppable<'a> {
    inner: Arc<dyn crate::llm::Summarizer>,
    ui: &'a ViewUi<'a>,
}

impl Stoppable<'_> {
    fn wait<T: Send + 'static>(
        &self,
        call: impl FnOnce(&dyn crate::llm::Summarizer) -> T + Send + 'static,
    ) -> Result<T, Error> {
        let (tx, rx) = mpsc::channel();
        let inner = Arc::clone(&self.inner);
        std::thread::spawn(move || {
            let _ = tx.send(call(inner.as_ref()));
        });
        self.ui.waiting(true);
        let got = loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(reply) => break Ok(reply),
                Err(RecvTimeoutError::Timeout) if self.ui.cancel.load(Ordering::SeqCst) => {
                    break Err(Error::unavailable(
                        "stopped with Esc while waiting for the summarizer; the chunks merged \
                         before are kept and the next summarize goes on from there",
                    ))
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    break Err(Error::unavailable("the summarizer stopped without a reply"))
                }
            }
        };
        self.ui.waiting(false);
        got
    }
}

impl crate::llm::Summarizer for Stoppable<'_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn condense_tool_steps(&self, question: &str, transcript: &str) -> crate::Result<String> {
        let (q, t) = (question.to_owned(), transcript.to_owned());
        self.wait(move |s| s.condense_tool_steps(&q, &t))?
    }

    fn merge_summary_within(
        &self,
        current: &serde_json::Value,
        chunk: &[crate::store::history::Record],
        repair: Option<&str>,
        source_before: Option<usize>,
    ) -> Result<String, crate::llm::LlmError> {
        let (current, chunk) = (current.clone(), chunk.to_vec());
        let repair = repair.map(str::to_owned);
        self.wait(move |s| {
            s.merge_summary_within(&current, &chunk, repair.as_deref(), source_before)
        })?
    }
}

/// The one session a job works on, resolved as the commands resolve ids.
fn target(env: Env, id: &str, how: Resolve) -> crate::Result<(Vec<Target>, Vec<SessionError>)> {
    let t = Targets {
        sessions: vec![id.to_owned()],
        all: false,
        filters: Filters::default(),
    };
    targets::resolve(&env.ctx.root, &t, how).map_err(|e| match e.downcast::<Error>() {
        Ok(ours) => ours,
        Err(other) => Error::usage(other.to_string()),
    })
}

fn via(backend: &daemon::Backend) -> batch::Backend<'_> {
    match backend {
        daemon::Backend::Files => batch::Backend::Files,
        daemon::Backend::Daemon(d) => batch::Backend::Daemon(d),
    }
}

/// Run `op` on one session's targets, as `Context::run_batch` does.
fn run_op<O: Operation>(
    env: Env,
    op: &O,
    (targets, mut errors): (Vec<Target>, Vec<SessionError>),
    dry_run: bool,
    ui: &dyn batch::Ui,
    backend: &daemon::Backend,
) -> crate::Result<Outcome<O::Report>> {
    let opts = batch::Options {
        dry_run,
        force: env.args.force,
    };
    let mut outcome = batch::run_via(op, &env.ctx.root, targets, opts, ui, via(backend))?;
    errors.append(&mut outcome.errors);
    outcome.errors = errors;
    Ok(outcome)
}

/// The one report of a one-session dry run, or its failure.
fn only<R>(outcome: Outcome<R>) -> crate::Result<R> {
    if let Some(e) = outcome.errors.into_iter().next() {
        return Err(e.error);
    }
    outcome
        .results
        .into_iter()
        .next()
        .ok_or_else(|| Error::usage("the plan came back empty"))
}

/// Run `op` on its one target through `backend`: its report and the
/// sessions it changed, or `None` when Esc came before the write.
pub fn run_one<O: Operation>(
    env: Env,
    op: &O,
    target: Target,
    ui: &dyn batch::Ui,
    backend: &daemon::Backend,
) -> crate::Result<Option<(O::Report, Vec<String>)>> {
    let mut outcome = run_op(env, op, (vec![target], Vec::new()), false, ui, backend)?;
    if let Some(e) = outcome.errors.pop() {
        return Err(e.error);
    }
    if outcome.declined {
        return Ok(None);
    }
    let changed = std::mem::take(&mut outcome.changed);
    Ok(outcome.results.pop().map(|r| (r, changed)))
}

/// A dry run's link to the batch: nothing to confirm, nothing to show.
struct Quiet;

impl batch::Ui for Quiet {
    fn confirm(&self, _sessions: &[&str], _summaries: &[String]) -> crate::Result<bool> {
        Ok(true)
    }
}

fn compact_op<'a>(
    keep_last: usize,
    cache: crate::engine::limits::LimitsCache,
    dry_run: bool,
    backend: &daemon::Backend,
    warn: &'a (dyn Fn(&str) + Sync),
) -> Compact<'a> {
    Compact {
        settings: CompactSettings {
            model: None,
            budget: None,
            max_bytes: DEFAULT_MAX_BYTES,
            keep_last,
            for_model: None,
            skip_by_size: false,
            dry_run,
            through_daemon: matches!(backend, daemon::Backend::Daemon(_)),
        },
        cache,
        folder: None,
        warn,
        unfinished: Default::default(),
    }
}

/// The compact tab: `compact SESSION --dry-run` (a guessed window is in
/// the report's warnings, as the command's JSON has it).
pub fn plan_compact(env: Env, id: &str) -> crate::Result<CompactReport> {
    let backend = env.ctx.backend(env.args.force)?;
    let resolved = target(env, id, Resolve::Folders)?;
    let op = compact_op(
        env.args.keep_last,
        context_window::cached(env.ctx),
        true,
        &backend,
        &|_: &str| {},
    );
    only(run_op(env, &op, resolved, true, &Quiet, &backend)?)
}

/// The reset tab: `reset SESSION --mode M --dry-run`.
pub fn plan_reset(env: Env, id: &str, mode: ResetMode) -> crate::Result<ClearReport> {
    let backend = env.ctx.backend(env.args.force)?;
    let resolved = target(env, id, Resolve::Folders)?;
    let summarizer = summarize::summarizer(&env.args.llm.spec(env.ctx.offline))?;
    let refresher = Refresher {
        root: &env.ctx.root,
        summarizer: summarizer.as_ref(),
    };
    let refresh = mode == ResetMode::Summary && matches!(backend, daemon::Backend::Files);
    let op = Reset {
        mode,
        purge: false,
        refresher: refresh.then_some(&refresher as &dyn SummaryRefresher),
    };
    only(run_op(env, &op, resolved, true, &Quiet, &backend)?)
}

/// What a job did: lines for the user, the sessions it changed.
#[derive(Default)]
pub struct Done {
    pub lines: Vec<String>,
    pub failed: bool,
    pub changed: Vec<String>,
}

/// Lines and changed sessions of a batch outcome.
fn done<R>(outcome: Outcome<R>, line: impl Fn(&R) -> String) -> Done {
    if outcome.declined {
        return Done {
            lines: vec!["cancelled before anything was written; nothing changed".into()],
            ..Done::default()
        };
    }
    let mut d = Done {
        changed: outcome.changed.clone(),
        ..Done::default()
    };
    for r in &outcome.results {
        d.lines.push(line(r));
    }
    for e in &outcome.errors {
        d.failed = true;
        d.lines.push(format!("{}: {}", e.session, say(&e.error)));
    }
    d
}

pub fn compact(env: Env, id: &str, ui: &ViewUi) -> crate::Result<Done> {
    let backend = env.ctx.backend(env.args.force)?;
    refuse_options(
        &backend,
        &[(
            "--keep-last",
            env.args.keep_last != crate::engine::compact::DEFAULT_KEEP_LAST,
        )],
    )?;
    let resolved = target(env, id, Resolve::Folders)?;
    let cache = context_window::current(env.ctx).map_err(|e| Error::usage(e.to_string()))?;
    let warn = |w: &str| batch::Ui::warn(ui, w);
    let op = compact_op(env.args.keep_last, cache, false, &backend, &warn);
    let outcome = run_op(env, &op, resolved, false, ui, &backend)?;
    Ok(done(outcome, |r: &CompactReport| compact_line(env, r)))
}

pub fn compact_line(env: Env, r: &CompactReport) -> String {
    if !r.changed {
        return if r.within_budget {
            format!("{}: within budget; nothing to do", r.session)
        } else {
            format!("{}: over budget, nothing left to remove", r.session)
        };
    }
    let mut s = format!(
        "{}: removed {} history record(s), {} ToriiDB key(s); {} newly archived; {} → {}",
        r.session,
        r.removed_records,
        r.removed_torii_keys,
        r.archived_new,
        r.tokens_before
            .map_or("?".into(), |t| format!("{t} tokens")),
        r.tokens_after.map_or("?".into(), |t| format!("{t} tokens")),
    );
    if let Some(t) = &r.trash {
        s.push_str(&format!(
            "; task histories kept in {}",
            env.ctx.root.relative(t)
        ));
    }
    if let Some(op) = &r.completes {
        s.push_str(&format!("; completed the compact {op} left unfinished"));
    }
    s
}

fn clear_line(env: Env, r: &ClearReport) -> String {
    if !r.changed {
        return format!("{}: nothing to clear", r.session);
    }
    let what = match r.mode {
        Some(m) => format!("reset --mode {}", mode_name(m)),
        None => r.action.to_owned(),
    };
    let files = if r.removed_files == ["."] {
        "the whole folder".to_owned()
    } else {
        r.removed_files.join(", ")
    };
    let mut s = format!(
        "{}: {what}: {} ToriiDB key(s), {} archive row(s), {files}",
        r.session, r.removed_torii_keys, r.removed_archive_rows
    );
    if let Some(n) = r.summary_merged {
        s.push_str(&format!("; {n} record(s) merged into the summary first"));
    }
    match (&r.trash, r.via) {
        (Some(t), _) => s.push_str(&format!("; kept in {}", env.ctx.root.relative(t))),
        (None, Some(via)) => s.push_str(&format!(" (through Agenvoy's {via})")),
        (None, None) => {}
    }
    s
}

pub fn reset(env: Env, id: &str, mode: ResetMode, ui: &ViewUi) -> crate::Result<Done> {
    let backend = env.ctx.backend(env.args.force)?;
    refuse_options(
        &backend,
        &[(
            "--summarizer",
            env.args.llm.summarizer != SummarizerKind::Offline,
        )],
    )?;
    // Through the daemon, Agenvoy refreshes the summary itself.
    let refresh = mode == ResetMode::Summary && matches!(backend, daemon::Backend::Files);
    let resolved = target(env, id, Resolve::Folders)?;
    let summarizer = Stoppable {
        inner: summarize::summarizer(&env.args.llm.spec(env.ctx.offline))?.into(),
        ui,
    };
    let refresher = Refresher {
        root: &env.ctx.root,
        summarizer: &summarizer,
    };
    let op = Reset {
        mode,
        purge: false,
        refresher: refresh.then_some(&refresher as &dyn SummaryRefresher),
    };
    let outcome = run_op(env, &op, resolved, false, ui, &backend)?;
    Ok(done(outcome, |r: &ClearReport| clear_line(env, r)))
}

pub fn remove(env: Env, id: &str, ui: &ViewUi) -> crate::Result<Done> {
    // By path, a symlinked folder included: the link goes, never its target.
    let backend = env.ctx.backend(env.args.force)?;
    let resolved = target(env, id, Resolve::Entries)?;
    let op = Remove { purge: false };
    let outcome = run_op(env, &op, resolved, false, ui, &backend)?;
    Ok(done(outcome, |r: &ClearReport| clear_line(env, r)))
}

pub fn summarize_one(env: Env, id: &str, ui: &ViewUi) -> crate::Result<Done> {
    let backend = env.ctx.backend(env.args.force)?;
    refuse_options(
        &backend,
        &[(
            "--summarizer",
            env.args.llm.summarizer != SummarizerKind::Offline,
        )],
    )?;
    let (found, mut errors) = target(env, id, Resolve::Folders)?;
    let mut sessions = Vec::new();
    for t in found {
        match &t.dir {
            Some(_) => sessions.push(t),
            None => errors.push(SessionError {
                error: env.ctx.root.session(&t.id).unwrap_err(),
                session: t.id,
            }),
        }
    }
    let spec = env.args.llm.spec(env.ctx.offline);
    let summarizer = Stoppable {
        inner: summarize::summarizer(&spec)?.into(),
        ui,
    };
    let op = Summarize::new(
        &env.ctx.root,
        &summarizer,
        SummarizeSettings {
            rebuild: false,
            chunk_chars: DEFAULT_CHUNK_CHARS,
            dry_run: false,
            via_daemon: matches!(backend, daemon::Backend::Daemon(_)),
            all: false,
        },
    );
    let outcome = run_op(env, &op, (sessions, errors), false, ui, &backend)?;
    let mut d = done(outcome, |r: &SummaryReport| match r.count {
        0 => format!("{}: nothing new to merge", r.session),
        n => format!(
            "{}: merged {n} record(s) in {} chunk(s) with {}; cursor {}",
            r.session,
            r.chunks,
            r.summarizer,
            r.cursor.as_deref().unwrap_or("-")
        ),
    });
    // What the merge taught, stored as the command stores it.
    let aftermath = op.aftermath();
    let context_errors: Vec<String> = aftermath
        .iter()
        .flat_map(|a| a.context_errors.iter().cloned())
        .collect();
    if let Some(lesson) = spec
        .agent()
        .and_then(|agent| Lesson::from_errors(&agent, &context_errors))
    {
        // its own operation (undoable on its own), as the command runs it
        let learn = limit_ops::Learn {
            root: &env.ctx.root,
            lesson,
            now: crate::timefmt::now(),
        };
        match run_one(env, &learn, learn.target(), &Quiet, &daemon::Backend::Files) {
            Ok(Some((r, _))) if r.stored => d.lines.push(format!(
                "learned an input limit of {} from the provider's error",
                r.learned
            )),
            Ok(_) => {}
            Err(e) => d
                .lines
                .push(format!("could not store the learned limit: {}", say(&e))),
        }
    }
    for a in &aftermath {
        if let Some((chunks, records)) = a.saved_before_failure {
            d.lines.push(format!(
                "{}: {chunks} chunk(s) ({records} record(s)) were merged and saved before the failure; a rerun continues",
                a.session
            ));
        }
    }
    if let Err(e) = op.save_up_to_date() {
        d.lines.push(format!(
            "could not remember the up-to-date sessions: {}",
            say(&e)
        ));
    }
    Ok(d)
}
