//! `sessionctl view`: a full-screen face over the same operations the
//! commands run. `state` turns keys into actions (no terminal needed),
//! `draw` paints the state, `ops` and `journal` call the engine, and this
//! runtime carries actions out: loads and writes run on worker threads and
//! report back, so the screen stays responsive; one write at a time.

pub mod draw;
pub mod journal;
pub mod ops;
pub mod state;
mod terminal;
pub mod text;

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::time::Duration;

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

use crate::cli::ViewArgs;
use crate::cli_util::{Context, Done};

use ops::{say, Env};
use state::{Action, App, Finished, Job, Update};

/// Run the view until the user quits; the sessions it changed, for the
/// run log.
pub fn run(ctx: &Context, args: &ViewArgs) -> anyhow::Result<Done> {
    let env = Env { ctx, args };
    let guard = terminal::Guard::enter().map_err(terminal_error)?;
    let mut term =
        Terminal::new(CrosstermBackend::new(std::io::stdout())).map_err(terminal_error)?;
    term.clear().map_err(terminal_error)?;
    let cancel = AtomicBool::new(false);
    // Reads run on threads of their own, not scoped ones, so that `q` ends
    // the process at once even while a slow read (a big session's plan) is
    // still going: they get a copy of the context that lives as long as
    // the process. Writes stay scoped: quit waits for one.
    let reads = Env {
        ctx: Box::leak(Box::new(ctx.clone())),
        args: Box::leak(Box::new(args.clone())),
    };
    let changed =
        std::thread::scope(|s| event_loop(s, env, reads, &cancel, &mut term, ctx.out.color));
    terminal::restore();
    drop(guard);
    let changed = changed.map_err(|e| match e.downcast::<std::io::Error>() {
        Ok(io) => terminal_error(io),
        Err(e) => e,
    })?;
    let sig = terminal::first_signal();
    Ok(Done {
        code: if sig > 0 { 128 + sig } else { 0 },
        sessions: changed.len(),
        changed,
        ..Done::default()
    })
}

/// The terminal failed us (it did not answer a query, it went away): an
/// I/O failure (74) that names the terminal, not a bug of ours (70).
fn terminal_error(source: std::io::Error) -> anyhow::Error {
    crate::error::Error::Terminal {
        msg: source.to_string(),
    }
    .into()
}

type Term = Terminal<CrosstermBackend<std::io::Stdout>>;

fn event_loop<'s, 'e: 's>(
    s: &'s std::thread::Scope<'s, 'e>,
    env: Env<'e>,
    reads: Env<'static>,
    cancel: &'e AtomicBool,
    term: &mut Term,
    color: bool,
) -> anyhow::Result<Vec<String>> {
    let (tx, rx) = mpsc::channel::<Update>();
    let mut app = App::new(env.args.filter.clone());
    let mut loads = Loads::default();
    let mut changed: Vec<String> = Vec::new();
    let size = term.size()?;
    let mut actions = app.start();
    actions.extend(app.resize(size.width, size.height));
    let mut tick: u64 = 0;
    let mut signalled = false;
    loop {
        for a in std::mem::take(&mut actions) {
            match a {
                Action::Quit => {
                    // No write runs (quit waits for one); reads still going
                    // are not waited for.
                    terminal::restore();
                    return Ok(changed);
                }
                Action::Redraw => term.clear()?,
                Action::Cancel => cancel.store(true, Ordering::SeqCst),
                Action::Run(job) => {
                    cancel.store(false, Ordering::SeqCst);
                    let tx = tx.clone();
                    s.spawn(move || {
                        let title = job.title();
                        let ran = std::panic::catch_unwind(AssertUnwindSafe(|| {
                            run_job(env, &job, tx.clone(), cancel)
                        }));
                        let finished = ran.unwrap_or_else(|_| Finished {
                            title,
                            lines: vec![
                                "internal error (a bug: please report it); what was written is in `sessionctl log`".into(),
                            ],
                            failed: true,
                            changed: Vec::new(),
                        });
                        let _ = tx.send(Update::Finished(finished));
                    });
                }
                load => {
                    for dropped in loads.push(load) {
                        app.unrequested(&dropped);
                    }
                }
            }
        }
        loads.start(reads, &tx);
        let look = draw::Look {
            now: crate::timefmt::now(),
            color,
            tick,
        };
        term.draw(|f| draw::draw(f, &app, look))?;
        tick += 1;
        terminal::beat();
        // Test hook: a panic on the UI thread, to check the terminal is
        // given back whatever happens.
        #[cfg(feature = "testing")]
        if tick == 2 && std::env::var_os("SESSIONCTL_VIEW_PANIC").is_some() {
            panic!("SESSIONCTL_VIEW_PANIC: a panic on the UI thread");
        }
        if event::poll(Duration::from_millis(100))? {
            match event::read()? {
                Event::Key(k) => actions.extend(app.key(k)),
                Event::Resize(w, h) => actions.extend(app.resize(w, h)),
                _ => {}
            }
        }
        while let Ok(u) = rx.try_recv() {
            match &u {
                Update::Finished(f) => changed.extend(f.changed.iter().cloned()),
                Update::Sessions(_)
                | Update::Summary(..)
                | Update::CompactPlan(..)
                | Update::ResetPlan(..)
                | Update::Oplog(_)
                | Update::Trash(_)
                | Update::Errors(_) => loads.done(&u),
                Update::Progress(_) => {}
            }
            actions.extend(app.update(u));
        }
        if terminal::quit_requested() && !signalled {
            // SIGINT, SIGTERM or SIGHUP: as Ctrl-C, quit once a write ends.
            signalled = true;
            actions.extend(app.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)));
        }
    }
}

/// Carry out a confirmed job; what it did, in words.
fn run_job(env: Env, job: &Job, tx: Sender<Update>, cancel: &AtomicBool) -> Finished {
    let ui = ops::ViewUi::new(tx, cancel);
    let result = match job {
        Job::Compact { session } => ops::compact(env, session, &ui),
        Job::Reset { session, mode } => ops::reset(env, session, *mode, &ui),
        Job::Remove { session } => ops::remove(env, session, &ui),
        Job::Summarize { session } => ops::summarize_one(env, session, &ui),
        Job::Undo { op } => journal::undo(env, op, &ui),
        Job::Restore { entry } => journal::restore(env, entry, &ui),
        Job::Prune { entry } => journal::prune(env, entry, &ui),
        Job::EditAction { key, action, .. } => journal::edit_action(env, key, action, &ui),
    };
    let mut done = match result {
        Ok(done) => done,
        Err(e) => ops::Done {
            lines: vec![say(&e)],
            failed: true,
            ..ops::Done::default()
        },
    };
    for w in ui.take_warnings() {
        done.lines.push(format!("warning: {w}"));
    }
    Finished {
        title: job.title(),
        lines: done.lines,
        failed: done.failed,
        changed: done.changed,
    }
}

/// Reads waiting for a worker: one list (sessions, log, Trash, errors) and
/// one session detail (summary, plan) run at a time; a newer detail
/// request replaces a waiting one (the user has moved on).
#[derive(Default)]
struct Loads {
    lists: VecDeque<Action>,
    details: VecDeque<Action>,
    list_busy: bool,
    detail_busy: bool,
}

impl Loads {
    /// Queue `a`; what it replaces is returned (never started).
    fn push(&mut self, a: Action) -> Vec<Action> {
        if is_detail(&a) {
            let dropped: Vec<Action> = self.details.drain(..).collect();
            self.details.push_back(a);
            dropped
        } else {
            if !self.lists.contains(&a) {
                self.lists.push_back(a);
            }
            Vec::new()
        }
    }

    fn done(&mut self, u: &Update) {
        match u {
            Update::Summary(..) | Update::CompactPlan(..) | Update::ResetPlan(..) => {
                self.detail_busy = false
            }
            _ => self.list_busy = false,
        }
    }

    fn start(&mut self, env: Env<'static>, tx: &Sender<Update>) {
        if !self.list_busy {
            if let Some(a) = self.lists.pop_front() {
                self.list_busy = true;
                spawn_load(env, tx.clone(), a);
            }
        }
        if !self.detail_busy {
            if let Some(a) = self.details.pop_front() {
                self.detail_busy = true;
                spawn_load(env, tx.clone(), a);
            }
        }
    }
}

fn is_detail(a: &Action) -> bool {
    matches!(
        a,
        Action::LoadSummary(_) | Action::PlanCompact(_) | Action::PlanReset(..)
    )
}

fn spawn_load(env: Env<'static>, tx: Sender<Update>, a: Action) {
    std::thread::spawn(move || {
        let update = std::panic::catch_unwind(AssertUnwindSafe(|| load(env, &a)))
            .unwrap_or_else(|_| failed_load(&a, "internal error (a bug: please report it)"));
        let _ = tx.send(update);
    });
}

fn load(env: Env, a: &Action) -> Update {
    // Test hook: a read that takes this long (a huge session's plan), to
    // check that quitting does not wait for it.
    #[cfg(feature = "testing")]
    if let Some(ms) = std::env::var("SESSIONCTL_VIEW_SLOW_READ_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|_| is_detail(a))
    {
        std::thread::sleep(Duration::from_millis(ms));
    }
    let s = |e: crate::Error| say(&e);
    match a {
        Action::LoadSessions => Update::Sessions(ops::sessions(env).map_err(s)),
        Action::LoadSummary(id) => Update::Summary(id.clone(), ops::summary(env, id).map_err(s)),
        Action::PlanCompact(id) => Update::CompactPlan(
            id.clone(),
            ops::plan_compact(env, id).map(Box::new).map_err(s),
        ),
        Action::PlanReset(id, mode) => Update::ResetPlan(
            id.clone(),
            *mode,
            ops::plan_reset(env, id, *mode).map(Box::new).map_err(s),
        ),
        Action::LoadOplog => Update::Oplog(journal::oplog_rows(env).map_err(s)),
        Action::LoadTrash => Update::Trash(journal::trash_entries(env).map_err(s)),
        Action::LoadErrors => Update::Errors(journal::error_items(env).map_err(s)),
        other => failed_load(other, "not a load"),
    }
}

fn failed_load(a: &Action, why: &str) -> Update {
    let e = || why.to_owned();
    match a {
        Action::LoadSummary(id) => Update::Summary(id.clone(), Err(e())),
        Action::PlanCompact(id) => Update::CompactPlan(id.clone(), Err(e())),
        Action::PlanReset(id, mode) => Update::ResetPlan(id.clone(), *mode, Err(e())),
        Action::LoadOplog => Update::Oplog(Err(e())),
        Action::LoadTrash => Update::Trash(Err(e())),
        Action::LoadErrors => Update::Errors(Err(e())),
        _ => Update::Sessions(Err(e())),
    }
}
