//! What the view shows and how keys change it, without a terminal: keys
//! and the workers' updates go in, actions for the runtime come out. The
//! runtime carries actions out (loads and writes, off the UI thread, by
//! the same engine calls the commands make) and feeds back `Update`s.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::engine::compact::op::CompactReport;
use crate::engine::error_memory::ErrorItem;
use crate::engine::reset::{ClearReport, ResetMode};
use crate::store::oplog::Op;
use crate::store::trash::EntryInfo;

use super::text::{self, thousands};

/// Terminals at least this wide show the list and the session side by side.
pub const WIDE: u16 = 120;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Sessions,
    Undo,
    Trash,
    Errors,
}

impl Screen {
    pub const ALL: [Screen; 4] = [
        Screen::Sessions,
        Screen::Undo,
        Screen::Trash,
        Screen::Errors,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Screen::Sessions => "Sessions",
            Screen::Undo => "Undo",
            Screen::Trash => "Trash",
            Screen::Errors => "Errors",
        }
    }
}

/// A session's three tabs, as in Agenvoy's /compact and /reset popup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Summary,
    Compact,
    Reset,
}

impl Tab {
    pub const ALL: [Tab; 3] = [Tab::Summary, Tab::Compact, Tab::Reset];

    pub fn name(self) -> &'static str {
        match self {
            Tab::Summary => "summary",
            Tab::Compact => "compact",
            Tab::Reset => "reset",
        }
    }

    fn step(self, forward: bool) -> Tab {
        let i = Tab::ALL.iter().position(|t| *t == self).unwrap_or(0);
        let n = Tab::ALL.len();
        Tab::ALL[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    List,
    Detail,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    /// Newest activity first.
    Activity,
    Tokens,
    /// Share of the model's budget.
    Budget,
    Size,
}

impl SortKey {
    pub fn name(self) -> &'static str {
        match self {
            SortKey::Activity => "activity",
            SortKey::Tokens => "tokens",
            SortKey::Budget => "% of budget",
            SortKey::Size => "size",
        }
    }

    fn next(self) -> SortKey {
        match self {
            SortKey::Activity => SortKey::Tokens,
            SortKey::Tokens => SortKey::Budget,
            SortKey::Budget => SortKey::Size,
            SortKey::Size => SortKey::Activity,
        }
    }
}

/// One session of the list: the `sessions list` row, as the view uses it.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub id: String,
    pub records: usize,
    pub tokens: usize,
    /// Counted with the model's own tokenizer (else an estimate, shown `~`).
    pub tokens_exact: bool,
    pub bytes: u64,
    pub last_at: Option<DateTime<Utc>>,
    pub has_summary: bool,
    /// When the newest record the summary holds was sent.
    pub summary_at: Option<DateTime<Utc>>,
    /// Share of the model's budget the conversation takes.
    pub used_percent: Option<f64>,
    pub model: Option<String>,
    /// Parts of the row that could not be read.
    pub problems: Vec<String>,
}

impl Row {
    pub fn over_budget(&self) -> bool {
        self.used_percent.is_some_and(|p| p > 100.0)
    }

    /// The rolling summary exists but lags behind the conversation.
    pub fn summary_behind(&self) -> bool {
        match (self.has_summary, self.summary_at, self.last_at) {
            (true, Some(s), Some(l)) => l > s,
            (true, None, Some(_)) => self.records > 0,
            _ => false,
        }
    }
}

/// The summary tab: what `show --summary` shows.
#[derive(Debug, Clone)]
pub struct SummaryData {
    pub session: String,
    /// summary.json's fields (`None`: the session has no summary yet).
    pub fields: Option<serde_json::Map<String, serde_json::Value>>,
    pub cursor: Option<String>,
    pub up_to: Option<DateTime<Utc>>,
    /// Records after the cursor (what the next summarize merges).
    pub behind: Option<usize>,
}

/// One operation of the log, and why `undo` cannot reverse it (if not).
#[derive(Debug, Clone)]
pub struct OpRow {
    pub op: Op,
    pub why_not: Option<String>,
}

/// Something loaded off the UI thread.
#[derive(Debug, Clone)]
pub enum Loaded<T> {
    Loading,
    Ready(T),
    Failed(String),
}

impl<T> Loaded<T> {
    pub fn ready(&self) -> Option<&T> {
        match self {
            Loaded::Ready(t) => Some(t),
            _ => None,
        }
    }
}

fn loaded<T>(r: Result<T, String>) -> Loaded<T> {
    match r {
        Ok(t) => Loaded::Ready(t),
        Err(e) => Loaded::Failed(e),
    }
}

/// A write the user asked for and confirmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Job {
    Compact {
        session: String,
    },
    Reset {
        session: String,
        mode: ResetMode,
    },
    Remove {
        session: String,
    },
    Summarize {
        session: String,
    },
    Undo {
        op: String,
    },
    Restore {
        entry: String,
    },
    Prune {
        entry: String,
    },
    EditAction {
        key: String,
        id: String,
        action: String,
    },
}

impl Job {
    pub fn title(&self) -> String {
        match self {
            Job::Compact { session } => format!("compact {session}"),
            Job::Reset { session, mode } => format!("reset {session} --mode {}", mode_name(*mode)),
            Job::Remove { session } => format!("remove {session}"),
            Job::Summarize { session } => format!("summarize {session}"),
            Job::Undo { op } => format!("undo {op}"),
            Job::Restore { entry } => format!("trash restore {entry}"),
            Job::Prune { entry } => format!("delete trash entry {entry}"),
            Job::EditAction { id, .. } => format!("errors edit {id}"),
        }
    }
}

pub fn mode_name(mode: ResetMode) -> &'static str {
    match mode {
        ResetMode::Summary => "summary",
        ResetMode::All => "all",
    }
}

/// What the runtime is asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    LoadSessions,
    LoadSummary(String),
    PlanCompact(String),
    PlanReset(String, ResetMode),
    LoadOplog,
    LoadTrash,
    LoadErrors,
    /// Plan, then apply, `Job` (confirmed already).
    Run(Job),
    /// Stop the running job if it has not started writing.
    Cancel,
    /// Draw everything again (something else wrote on the screen).
    Redraw,
    Quit,
}

/// How far the running job is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    pub planned: usize,
    pub applied: usize,
    /// Writing has begun: it is no longer cancelled by Esc.
    pub applying: bool,
    /// Waiting for the summarizer's reply (nothing is being written): Esc
    /// stops waiting, what was merged before stays.
    pub waiting: bool,
}

/// How a job ended.
#[derive(Debug, Clone)]
pub struct Finished {
    pub title: String,
    pub lines: Vec<String>,
    pub failed: bool,
    /// Sessions it changed (for the run log).
    pub changed: Vec<String>,
}

/// The session list as loaded, with what it could not show in rows.
#[derive(Debug, Clone, Default)]
pub struct SessionList {
    pub rows: Vec<Row>,
    pub warnings: Vec<String>,
    /// Agenvoy runs: writes go through its daemon, and those of compact,
    /// summarize and errors edit keep nothing `undo` could put back.
    pub via_daemon: bool,
}

/// What the workers report back.
#[derive(Debug, Clone)]
pub enum Update {
    Sessions(Result<SessionList, String>),
    Summary(String, Result<SummaryData, String>),
    CompactPlan(String, Result<Box<CompactReport>, String>),
    ResetPlan(String, ResetMode, Result<Box<ClearReport>, String>),
    Oplog(Result<Vec<OpRow>, String>),
    Trash(Result<Vec<EntryInfo>, String>),
    Errors(Result<Vec<ErrorItem>, String>),
    Progress(Progress),
    Finished(Finished),
}

#[derive(Debug, Clone)]
pub enum Modal {
    /// A write waits for y/n.
    Confirm {
        title: String,
        lines: Vec<String>,
        job: Job,
    },
    Running {
        title: String,
        progress: Progress,
        cancel_asked: bool,
    },
    /// What a finished job did (or why it failed).
    Report {
        title: String,
        lines: Vec<String>,
        failed: bool,
    },
    Help,
    /// The `action` of an error record being edited.
    Edit {
        key: String,
        id: String,
        text: Vec<char>,
        cursor: usize,
    },
}

/// One list of a screen and its selection.
#[derive(Debug, Clone)]
pub struct Pick<T> {
    pub items: Loaded<Vec<T>>,
    pub selected: usize,
}

impl<T> Default for Pick<T> {
    fn default() -> Self {
        Pick {
            items: Loaded::Loading,
            selected: 0,
        }
    }
}

impl<T> Pick<T> {
    fn len(&self) -> usize {
        self.items.ready().map_or(0, Vec::len)
    }

    pub fn current(&self) -> Option<&T> {
        self.items.ready()?.get(self.selected)
    }

    /// New contents; the item selected stays selected wherever it moved
    /// (a new operation or Trash entry comes first and shifts the rest: a
    /// selection by row would then point `u` or `p` at another item).
    fn set(&mut self, r: Result<Vec<T>, String>, id: impl Fn(&T) -> &str) {
        let keep = self.current().map(|t| id(t).to_owned());
        self.items = loaded(r);
        let at = keep.and_then(|k| self.items.ready()?.iter().position(|t| id(t) == k));
        self.selected = at
            .unwrap_or(self.selected)
            .min(self.len().saturating_sub(1));
    }
}

pub struct App {
    pub screen: Screen,
    pub focus: Focus,
    pub tab: Tab,
    /// The terminal is wide enough for the list and the session side by side.
    pub wide: bool,
    pub rows: Loaded<Vec<Row>>,
    pub filter: String,
    pub editing_filter: bool,
    pub sort: SortKey,
    pub reverse: bool,
    /// Index into `visible()`.
    pub selected: usize,
    /// Lines the detail pane is scrolled down.
    pub scroll: u16,
    /// How far the detail pane can scroll, as last drawn (its text wraps
    /// to the pane's width, which only drawing knows).
    pub max_scroll: std::cell::Cell<u16>,
    pub reset_mode: ResetMode,
    pub summaries: HashMap<String, Loaded<SummaryData>>,
    pub compact_plans: HashMap<String, Loaded<Box<CompactReport>>>,
    pub reset_plans: HashMap<(String, bool), Loaded<Box<ClearReport>>>,
    pub oplog: Pick<OpRow>,
    pub trash: Pick<EntryInfo>,
    pub errors: Pick<ErrorItem>,
    pub modal: Option<Modal>,
    /// The status line: what just happened, or what went wrong loading.
    pub message: Option<String>,
    pub warnings: Vec<String>,
    /// Writes go through Agenvoy's daemon (as of the last list).
    pub via_daemon: bool,
    /// Quit was asked while a job runs: quit when it ends.
    pub quit_after_job: bool,
}

impl App {
    pub fn new(filter: Option<String>) -> App {
        App {
            screen: Screen::Sessions,
            focus: Focus::List,
            tab: Tab::Summary,
            wide: false,
            rows: Loaded::Loading,
            filter: filter.unwrap_or_default(),
            editing_filter: false,
            sort: SortKey::Activity,
            reverse: false,
            selected: 0,
            scroll: 0,
            max_scroll: std::cell::Cell::new(0),
            reset_mode: ResetMode::Summary,
            summaries: HashMap::new(),
            compact_plans: HashMap::new(),
            reset_plans: HashMap::new(),
            oplog: Pick::default(),
            trash: Pick::default(),
            errors: Pick::default(),
            modal: None,
            message: None,
            warnings: Vec::new(),
            via_daemon: false,
            quit_after_job: false,
        }
    }

    /// The first actions: load the sessions.
    pub fn start(&mut self) -> Vec<Action> {
        vec![Action::LoadSessions]
    }

    fn scroll_by(&mut self, lines: i32) {
        let at = i32::from(self.scroll.min(self.max_scroll.get())) + lines;
        self.scroll = at.clamp(0, i32::from(self.max_scroll.get())) as u16;
    }

    pub fn resize(&mut self, width: u16, _height: u16) -> Vec<Action> {
        self.wide = width >= WIDE;
        self.wants()
    }

    /// The rows the filter keeps, in the chosen order.
    pub fn visible(&self) -> Vec<&Row> {
        let Some(rows) = self.rows.ready() else {
            return Vec::new();
        };
        let mut v: Vec<&Row> = rows
            .iter()
            .filter(|r| text::matches_filter(&self.filter, &r.id))
            .collect();
        // Largest, newest first; ties by id, so the order is stable.
        let key = |r: &Row| -> i128 {
            match self.sort {
                SortKey::Activity => r.last_at.map_or(i128::MIN, |t| t.timestamp_millis().into()),
                SortKey::Tokens => r.tokens as i128,
                SortKey::Budget => r.used_percent.map_or(-1, |p| (p * 1e6) as i128),
                SortKey::Size => r.bytes as i128,
            }
        };
        v.sort_by(|a, b| key(b).cmp(&key(a)).then_with(|| a.id.cmp(&b.id)));
        if self.reverse {
            v.reverse();
        }
        v
    }

    pub fn current(&self) -> Option<&Row> {
        self.visible().get(self.selected).copied()
    }

    fn current_id(&self) -> Option<String> {
        self.current().map(|r| r.id.clone())
    }

    /// Whether the session's tabs are on screen.
    pub fn detail_shown(&self) -> bool {
        self.screen == Screen::Sessions && (self.wide || self.focus == Focus::Detail)
    }

    pub fn busy(&self) -> bool {
        matches!(self.modal, Some(Modal::Running { .. }))
    }

    /// Load what the screen shows and nobody has loaded (or is loading).
    fn wants(&mut self) -> Vec<Action> {
        let mut out = Vec::new();
        if !self.detail_shown() {
            return out;
        }
        let Some(id) = self.current_id() else {
            return out;
        };
        match self.tab {
            Tab::Summary if !self.summaries.contains_key(&id) => {
                self.summaries.insert(id.clone(), Loaded::Loading);
                out.push(Action::LoadSummary(id));
            }
            Tab::Compact if !self.compact_plans.contains_key(&id) => {
                self.compact_plans.insert(id.clone(), Loaded::Loading);
                out.push(Action::PlanCompact(id));
            }
            Tab::Reset => {
                let k = (id.clone(), self.reset_mode == ResetMode::All);
                if let std::collections::hash_map::Entry::Vacant(e) = self.reset_plans.entry(k) {
                    e.insert(Loaded::Loading);
                    out.push(Action::PlanReset(id, self.reset_mode));
                }
            }
            _ => {}
        }
        out
    }

    /// A load the runtime dropped unstarted (a newer one replaced it):
    /// asked for again when the screen needs it.
    pub fn unrequested(&mut self, a: &Action) {
        match a {
            Action::LoadSummary(id) => {
                if matches!(self.summaries.get(id), Some(Loaded::Loading)) {
                    self.summaries.remove(id);
                }
            }
            Action::PlanCompact(id) => {
                if matches!(self.compact_plans.get(id), Some(Loaded::Loading)) {
                    self.compact_plans.remove(id);
                }
            }
            Action::PlanReset(id, mode) => {
                let k = (id.clone(), *mode == ResetMode::All);
                if matches!(self.reset_plans.get(&k), Some(Loaded::Loading)) {
                    self.reset_plans.remove(&k);
                }
            }
            _ => {}
        }
    }

    /// Everything read before a write is stale after it.
    fn forget(&mut self) {
        self.summaries.clear();
        self.compact_plans.clear();
        self.reset_plans.clear();
    }

    pub fn key(&mut self, k: KeyEvent) -> Vec<Action> {
        if k.kind == KeyEventKind::Release {
            return Vec::new();
        }
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(k.code, KeyCode::Char('c') | KeyCode::Char('q')) {
            return self.quit();
        }
        if ctrl && k.code == KeyCode::Char('l') {
            return vec![Action::Redraw];
        }
        let mut out = if self.modal.is_some() {
            self.modal_key(k)
        } else if self.editing_filter {
            self.filter_key(k)
        } else {
            self.screen_key(k, ctrl)
        };
        out.extend(self.wants());
        out
    }

    fn quit(&mut self) -> Vec<Action> {
        if self.busy() {
            // Never abandon a write midway: quit once it has ended.
            self.quit_after_job = true;
            self.message = Some("quitting when the running operation ends".into());
            return vec![Action::Cancel];
        }
        vec![Action::Quit]
    }

    fn modal_key(&mut self, k: KeyEvent) -> Vec<Action> {
        let Some(modal) = self.modal.take() else {
            return Vec::new();
        };
        match modal {
            Modal::Confirm { job, title, lines } => match k.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => {
                    self.modal = Some(Modal::Running {
                        title: job.title(),
                        progress: Progress::default(),
                        cancel_asked: false,
                    });
                    vec![Action::Run(job)]
                }
                KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc | KeyCode::Char('q') => {
                    self.message = Some(format!("{}: not done; nothing changed", job.title()));
                    Vec::new()
                }
                _ => {
                    self.modal = Some(Modal::Confirm { job, title, lines });
                    Vec::new()
                }
            },
            Modal::Running {
                title,
                progress,
                cancel_asked,
            } => {
                let cancel = k.code == KeyCode::Esc && (!progress.applying || progress.waiting);
                self.modal = Some(Modal::Running {
                    title,
                    progress,
                    cancel_asked: cancel_asked || cancel,
                });
                if cancel {
                    vec![Action::Cancel]
                } else {
                    Vec::new()
                }
            }
            Modal::Report { .. } | Modal::Help => Vec::new(),
            Modal::Edit {
                key,
                id,
                mut text,
                mut cursor,
            } => {
                match k.code {
                    KeyCode::Esc => {
                        self.message = Some(format!("{id}: edit dropped; nothing changed"));
                        return Vec::new();
                    }
                    KeyCode::Enter => {
                        let action: String = text.iter().collect();
                        if action.trim().is_empty() {
                            self.message = Some(
                                "the action is the fix agents apply: it cannot be empty".into(),
                            );
                        } else {
                            let job = Job::EditAction {
                                key: key.clone(),
                                id: id.clone(),
                                action: action.clone(),
                            };
                            self.modal = Some(Modal::Confirm {
                                title: job.title(),
                                lines: vec![
                                    format!("Rewrite the action of error record {id} ({key})?"),
                                    format!("new action: {action}"),
                                    "Its TTL is kept.".into(),
                                    self.undo_line("Undo puts the old record back."),
                                ],
                                job,
                            });
                            return Vec::new();
                        }
                    }
                    KeyCode::Left => cursor = cursor.saturating_sub(1),
                    KeyCode::Right => cursor = (cursor + 1).min(text.len()),
                    KeyCode::Home => cursor = 0,
                    KeyCode::End => cursor = text.len(),
                    KeyCode::Backspace if cursor > 0 => {
                        cursor -= 1;
                        text.remove(cursor);
                    }
                    KeyCode::Delete if cursor < text.len() => {
                        text.remove(cursor);
                    }
                    KeyCode::Char(c) => {
                        text.insert(cursor, c);
                        cursor += 1;
                    }
                    _ => {}
                }
                self.modal = Some(Modal::Edit {
                    key,
                    id,
                    text,
                    cursor,
                });
                Vec::new()
            }
        }
    }

    fn filter_key(&mut self, k: KeyEvent) -> Vec<Action> {
        match k.code {
            KeyCode::Enter => self.editing_filter = false,
            KeyCode::Esc => {
                self.editing_filter = false;
                self.filter.clear();
            }
            KeyCode::Backspace => {
                self.filter.pop();
            }
            KeyCode::Char(c) => self.filter.push(c),
            _ => {}
        }
        self.selected = 0;
        self.scroll = 0;
        Vec::new()
    }

    fn screen_key(&mut self, k: KeyEvent, ctrl: bool) -> Vec<Action> {
        match k.code {
            KeyCode::Char('q') => return self.quit(),
            KeyCode::Char('?') => {
                self.modal = Some(Modal::Help);
                return Vec::new();
            }
            KeyCode::F(5) => return self.reload(),
            KeyCode::Char('r') if ctrl => return self.reload(),
            KeyCode::Char(d @ '1'..='4') => {
                let screen = Screen::ALL[(d as u8 - b'1') as usize];
                return self.show(screen);
            }
            _ => {}
        }
        match self.screen {
            Screen::Sessions => self.sessions_key(k),
            Screen::Undo => self.undo_key(k),
            Screen::Trash => self.trash_key(k),
            Screen::Errors => self.errors_key(k),
        }
    }

    fn show(&mut self, screen: Screen) -> Vec<Action> {
        self.screen = screen;
        let load = match screen {
            Screen::Sessions => return Vec::new(),
            Screen::Undo => Action::LoadOplog,
            Screen::Trash => Action::LoadTrash,
            Screen::Errors => Action::LoadErrors,
        };
        vec![load]
    }

    fn reload(&mut self) -> Vec<Action> {
        self.forget();
        match self.screen {
            Screen::Sessions => vec![Action::LoadSessions],
            s => self.show(s),
        }
    }

    fn sessions_key(&mut self, k: KeyEvent) -> Vec<Action> {
        let n = self.visible().len();
        let shift = k.modifiers.contains(KeyModifiers::SHIFT);
        match k.code {
            KeyCode::Up | KeyCode::Char('k') if self.focus == Focus::List => {
                self.move_to(self.selected.saturating_sub(1))
            }
            KeyCode::Down | KeyCode::Char('j') if self.focus == Focus::List => {
                self.move_to((self.selected + 1).min(n.saturating_sub(1)))
            }
            KeyCode::PageUp if self.focus == Focus::List => {
                self.move_to(self.selected.saturating_sub(10))
            }
            KeyCode::PageDown if self.focus == Focus::List => {
                self.move_to((self.selected + 10).min(n.saturating_sub(1)))
            }
            KeyCode::Home if self.focus == Focus::List => self.move_to(0),
            KeyCode::End if self.focus == Focus::List => self.move_to(n.saturating_sub(1)),
            KeyCode::Up | KeyCode::Char('k') => self.scroll_by(-1),
            KeyCode::Down | KeyCode::Char('j') => self.scroll_by(1),
            KeyCode::PageUp => self.scroll_by(-10),
            KeyCode::PageDown => self.scroll_by(10),
            KeyCode::Char('/') => {
                self.editing_filter = true;
                self.focus = Focus::List;
            }
            KeyCode::Char('o') => {
                self.sort = self.sort.next();
                self.selected = 0;
            }
            KeyCode::Char('O') => {
                self.reverse = !self.reverse;
                self.selected = 0;
            }
            KeyCode::Tab | KeyCode::BackTab if n > 0 => {
                let forward = k.code == KeyCode::Tab && !shift;
                // From the list, Tab opens the session on its next tab.
                self.tab = self.tab.step(forward);
                self.focus = Focus::Detail;
                self.scroll = 0;
            }
            KeyCode::Enter | KeyCode::Right | KeyCode::Char('l')
                if self.focus == Focus::List && n > 0 =>
            {
                self.focus = Focus::Detail;
                self.scroll = 0;
            }
            KeyCode::Esc | KeyCode::Left | KeyCode::Char('h') if self.focus == Focus::Detail => {
                self.focus = Focus::List;
            }
            KeyCode::Esc if !self.filter.is_empty() => {
                self.filter.clear();
                self.selected = 0;
            }
            KeyCode::Char('m') if self.tab == Tab::Reset => {
                self.reset_mode = match self.reset_mode {
                    ResetMode::Summary => ResetMode::All,
                    ResetMode::All => ResetMode::Summary,
                };
            }
            KeyCode::Enter if self.focus == Focus::Detail => return self.ask_for_tab(),
            KeyCode::Char('S') => return self.ask_summarize(),
            KeyCode::Char('D') => return self.ask_remove(),
            _ => {}
        }
        Vec::new()
    }

    fn move_to(&mut self, i: usize) {
        if i != self.selected {
            self.selected = i;
            self.scroll = 0;
        }
    }

    /// Enter on a tab: compact or reset the session (after asking); on the
    /// summary tab, merge what it lags behind.
    fn ask_for_tab(&mut self) -> Vec<Action> {
        match self.tab {
            Tab::Summary => self.ask_summarize(),
            Tab::Compact => {
                let Some(session) = self.current_id() else {
                    return Vec::new();
                };
                let mut lines = vec![format!(
                    "Compact {session}: bring it back under its model's budget?"
                )];
                match self.compact_plans.get(&session).and_then(Loaded::ready) {
                    Some(r) if r.stages.is_empty() => {
                        lines.push("The plan found nothing to do.".into())
                    }
                    Some(r) => lines.push(format!(
                        "{} history record(s) leave history.json (archived first), {} ToriiDB key(s) go.",
                        thousands(r.removed_records as u64),
                        thousands(r.removed_torii_keys as u64)
                    )),
                    None => lines.push("(the plan is still being made)".into()),
                }
                lines.push(self.undo_line("Undo puts everything back."));
                self.confirm(Job::Compact { session }, lines)
            }
            Tab::Reset => {
                let Some(session) = self.current_id() else {
                    return Vec::new();
                };
                let mode = self.reset_mode;
                let mut lines = vec![format!("Reset {session} with mode {}?", mode_name(mode))];
                let plan = self
                    .reset_plans
                    .get(&(session.clone(), mode == ResetMode::All))
                    .and_then(Loaded::ready);
                if let Some(r) = plan {
                    lines.push(format!(
                        "{} ToriiDB key(s), {} archive row(s), files: {}",
                        thousands(r.removed_torii_keys as u64),
                        thousands(r.removed_archive_rows),
                        if r.removed_files.is_empty() {
                            "-".to_owned()
                        } else {
                            r.removed_files.join(", ")
                        }
                    ));
                }
                lines.push(match mode {
                    ResetMode::Summary => "summary.json is kept (brought up to date first).".into(),
                    ResetMode::All => "summary.json goes too.".into(),
                });
                lines.push("Everything goes to sessions/.Trash; undo puts it back.".into());
                self.confirm(Job::Reset { session, mode }, lines)
            }
        }
    }

    fn ask_summarize(&mut self) -> Vec<Action> {
        let Some(session) = self.current_id() else {
            return Vec::new();
        };
        let behind = self
            .summaries
            .get(&session)
            .and_then(Loaded::ready)
            .and_then(|s| s.behind);
        let lines = vec![
            format!("Merge the records after the cursor into the rolling summary of {session}?"),
            match behind {
                Some(n) => format!("{n} record(s) are behind."),
                None => "How many records are behind is not known yet.".into(),
            },
            self.undo_line("Undo puts the previous summary back."),
        ];
        self.confirm(Job::Summarize { session }, lines)
    }

    fn ask_remove(&mut self) -> Vec<Action> {
        let Some(session) = self.current_id() else {
            return Vec::new();
        };
        let lines = vec![
            format!("Remove {session}: its folder, ToriiDB keys and archive rows?"),
            "Everything goes to sessions/.Trash; undo puts it back.".into(),
        ];
        self.confirm(Job::Remove { session }, lines)
    }

    /// What a confirmation promises about undo: through Agenvoy's daemon,
    /// compact, summarize and errors edit keep no copy to undo from (reset
    /// and remove do: their Trash copy is made first either way).
    fn undo_line(&self, undoable: &str) -> String {
        if self.via_daemon {
            "Agenvoy runs: this goes through its daemon and cannot be undone.".into()
        } else {
            undoable.into()
        }
    }

    fn confirm(&mut self, job: Job, lines: Vec<String>) -> Vec<Action> {
        self.modal = Some(Modal::Confirm {
            title: job.title(),
            lines,
            job,
        });
        Vec::new()
    }

    fn undo_key(&mut self, k: KeyEvent) -> Vec<Action> {
        step(&mut self.oplog, k.code);
        if matches!(k.code, KeyCode::Char('u') | KeyCode::Enter) {
            let Some(row) = self.oplog.current() else {
                return Vec::new();
            };
            if let Some(why) = &row.why_not {
                self.message = Some(format!("{} cannot be undone: {why}", row.op.id));
                return Vec::new();
            }
            let sessions = text::distinct(row.op.sessions.iter().map(|c| c.session.as_str()));
            let lines = vec![
                format!("Undo {} ({})?", row.op.id, row.op.command),
                format!("sessions: {}", sessions.join(", ")),
                "What it kept comes back; what is there now is kept first, so this undo can be undone too.".into(),
            ];
            return self.confirm(
                Job::Undo {
                    op: row.op.id.clone(),
                },
                lines,
            );
        }
        Vec::new()
    }

    fn trash_key(&mut self, k: KeyEvent) -> Vec<Action> {
        step(&mut self.trash, k.code);
        let Some(e) = self.trash.current() else {
            return Vec::new();
        };
        match k.code {
            KeyCode::Char('r') | KeyCode::Enter => {
                if !e.restorable {
                    self.message = Some(format!(
                        "{} is not a bundle sessionctl can restore (Agenvoy's own trash)",
                        e.name
                    ));
                    return Vec::new();
                }
                let lines = vec![
                    format!(
                        "Restore {} as session {}?",
                        e.name,
                        e.session.as_deref().unwrap_or("?")
                    ),
                    "Undo takes it back out.".into(),
                ];
                let job = Job::Restore {
                    entry: e.name.clone(),
                };
                self.confirm(job, lines)
            }
            KeyCode::Char('p') => {
                // trash prune with this entry's age: it and everything older
                let older = self.trash.len().saturating_sub(self.trash.selected + 1);
                let lines = vec![
                    format!(
                        "Delete trash entry {} and the {older} older one(s) for good?",
                        e.name
                    ),
                    "(trash prune by its age: the pre-images operations kept before it go too)"
                        .into(),
                    "This cannot be undone.".into(),
                ];
                let job = Job::Prune {
                    entry: e.name.clone(),
                };
                self.confirm(job, lines)
            }
            _ => Vec::new(),
        }
    }

    fn errors_key(&mut self, k: KeyEvent) -> Vec<Action> {
        step(&mut self.errors, k.code);
        if matches!(k.code, KeyCode::Char('e') | KeyCode::Enter) {
            let Some(i) = self.errors.current() else {
                return Vec::new();
            };
            let text: Vec<char> = i.action.chars().collect();
            self.modal = Some(Modal::Edit {
                key: i.key.clone(),
                id: i.id.clone(),
                cursor: text.len(),
                text,
            });
        }
        Vec::new()
    }

    pub fn update(&mut self, u: Update) -> Vec<Action> {
        match u {
            Update::Sessions(r) => {
                let keep = self.current_id();
                match r {
                    Ok(list) => {
                        self.rows = Loaded::Ready(list.rows);
                        self.warnings = list.warnings;
                        self.via_daemon = list.via_daemon;
                    }
                    Err(e) => self.rows = Loaded::Failed(e),
                }
                // The same session stays selected where it still is.
                let at = keep.and_then(|id| self.visible().iter().position(|r| r.id == id));
                let n = self.visible().len();
                self.selected = at.unwrap_or(self.selected).min(n.saturating_sub(1));
            }
            Update::Summary(id, r) => {
                self.summaries.insert(id, loaded(r));
            }
            Update::CompactPlan(id, r) => {
                self.compact_plans.insert(id, loaded(r));
            }
            Update::ResetPlan(id, mode, r) => {
                self.reset_plans
                    .insert((id, mode == ResetMode::All), loaded(r));
            }
            Update::Oplog(r) => self.oplog.set(r, |o| &o.op.id),
            Update::Trash(r) => self.trash.set(r, |e| &e.name),
            Update::Errors(r) => self.errors.set(r, |e| &e.key),
            Update::Progress(p) => {
                if let Some(Modal::Running { progress, .. }) = &mut self.modal {
                    *progress = p;
                }
            }
            Update::Finished(f) => {
                self.forget();
                self.modal = Some(Modal::Report {
                    title: f.title,
                    lines: f.lines,
                    failed: f.failed,
                });
                if self.quit_after_job {
                    return vec![Action::Quit];
                }
                let mut out = vec![Action::LoadSessions];
                out.extend(self.show(self.screen));
                out.extend(self.wants());
                return out;
            }
        }
        self.wants()
    }
}

/// Up and down in a screen's list.
fn step<T>(pick: &mut Pick<T>, code: KeyCode) {
    let n = pick.len();
    pick.selected = match code {
        KeyCode::Up | KeyCode::Char('k') => pick.selected.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => (pick.selected + 1).min(n.saturating_sub(1)),
        KeyCode::PageUp => pick.selected.saturating_sub(10),
        KeyCode::PageDown => (pick.selected + 10).min(n.saturating_sub(1)),
        KeyCode::Home => 0,
        KeyCode::End => n.saturating_sub(1),
        _ => pick.selected,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, minutes_ago: i64, used: f64) -> Row {
        let now = chrono::DateTime::parse_from_rfc3339("2026-01-10T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        Row {
            id: id.into(),
            records: 4,
            tokens: (used * 1000.0) as usize,
            tokens_exact: false,
            bytes: 100,
            last_at: Some(now - chrono::Duration::minutes(minutes_ago)),
            has_summary: true,
            summary_at: Some(now - chrono::Duration::minutes(minutes_ago + 1)),
            used_percent: Some(used),
            model: None,
            problems: Vec::new(),
        }
    }

    /// Three sessions, newest activity first: a, b, c.
    fn app() -> App {
        let mut app = App::new(None);
        app.start();
        app.update(Update::Sessions(Ok(SessionList {
            rows: vec![row("c", 30, 5.0), row("a", 10, 50.0), row("b", 20, 120.0)],
            ..Default::default()
        })));
        app
    }

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    fn keys(app: &mut App, codes: &[KeyCode]) -> Vec<Action> {
        codes.iter().flat_map(|c| app.key(key(*c))).collect()
    }

    fn runs(actions: &[Action]) -> Vec<&Job> {
        actions
            .iter()
            .filter_map(|a| match a {
                Action::Run(j) => Some(j),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn down_down_tab_tab_enter_y_resets_the_third_session_with_mode_summary() {
        let mut app = app();
        use KeyCode::*;
        let out = keys(&mut app, &[Down, Down, Tab, Tab, Enter, Char('y')]);
        assert_eq!(
            runs(&out),
            [&Job::Reset {
                session: "c".into(),
                mode: ResetMode::Summary
            }]
        );
        // the tabs asked for their plans on the way, of that session only
        assert!(out.contains(&Action::PlanCompact("c".into())), "{out:?}");
        assert!(out.contains(&Action::PlanReset("c".into(), ResetMode::Summary)));
        assert!(app.busy());
    }

    #[test]
    fn nothing_is_written_without_a_yes() {
        use KeyCode::*;
        for answer in [Char('n'), Esc, Enter, Char('x')] {
            let mut app = app();
            let out = keys(&mut app, &[Tab, Tab, Enter, answer]);
            assert!(runs(&out).is_empty(), "{answer:?}: {out:?}");
        }
        // D and S ask too
        let mut app = app();
        assert!(runs(&keys(&mut app, &[Char('D'), Esc, Char('S'), Char('n')])).is_empty());
        let out = keys(&mut app, &[Char('D'), Char('y')]);
        assert_eq!(
            runs(&out),
            [&Job::Remove {
                session: "a".into()
            }]
        );
    }

    #[test]
    fn m_switches_the_reset_mode_and_its_plan() {
        use KeyCode::*;
        let mut app = app();
        let out = keys(&mut app, &[Tab, Tab, Char('m')]);
        assert!(out.contains(&Action::PlanReset("a".into(), ResetMode::All)));
        let out = keys(&mut app, &[Enter, Char('y')]);
        assert_eq!(
            runs(&out),
            [&Job::Reset {
                session: "a".into(),
                mode: ResetMode::All
            }]
        );
    }

    #[test]
    fn esc_cancels_only_before_writing_begins() {
        use KeyCode::*;
        // a compact asked for and answered, then applying
        let applying = |waiting: bool| {
            let mut app = self::app();
            keys(&mut app, &[Tab, Enter, Char('y')]);
            app.update(Update::Progress(Progress {
                planned: 1,
                applied: 0,
                applying: true,
                waiting,
            }));
            app
        };
        let mut app = app();
        keys(&mut app, &[Tab, Enter, Char('y')]);
        assert_eq!(app.key(key(Esc)), [Action::Cancel]);
        assert_eq!(
            applying(true).key(key(Esc)),
            [Action::Cancel],
            "waiting for a summarizer writes nothing: Esc stops it"
        );
        let mut app2 = applying(false);
        assert!(app2.key(key(Esc)).is_empty(), "a write is never cut short");
        // quitting waits for it
        let out = app2.key(KeyEvent::new(Char('c'), KeyModifiers::CONTROL));
        assert!(!out.contains(&Action::Quit));
        let out = app2.update(Update::Finished(Finished {
            title: "compact a".into(),
            lines: vec![],
            failed: false,
            changed: vec!["a".into()],
        }));
        assert_eq!(out, [Action::Quit]);
    }

    #[test]
    fn the_filter_takes_typed_text_and_keys_stay_text_while_typing() {
        use KeyCode::*;
        let mut app = app();
        let out = keys(&mut app, &[Char('/'), Char('q'), Char('D'), Char('b')]);
        assert!(out.is_empty() && app.modal.is_none(), "typed, not commands");
        assert_eq!(app.filter, "qDb");
        assert!(app.visible().is_empty());
        keys(
            &mut app,
            &[Backspace, Backspace, Backspace, Char('b'), Enter],
        );
        let ids: Vec<&str> = app.visible().iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["b"]);
        keys(&mut app, &[Char('/'), Backspace, Char('[')]);
        keys(&mut app, &[Char('a'), Char('c'), Char(']'), Enter]);
        let ids: Vec<&str> = app.visible().iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["a", "c"], "a glob");
        let out = keys(&mut app, &[Char('D'), Char('y')]);
        assert_eq!(
            runs(&out),
            [&Job::Remove {
                session: "a".into()
            }]
        );
    }

    #[test]
    fn sort_keys_order_the_list_and_the_selection_follows_the_session() {
        use KeyCode::*;
        let mut app = app();
        let order =
            |app: &App| -> Vec<String> { app.visible().iter().map(|r| r.id.clone()).collect() };
        assert_eq!(order(&app), ["a", "b", "c"], "newest activity first");
        keys(&mut app, &[Char('o')]);
        assert_eq!(app.sort, SortKey::Tokens);
        assert_eq!(order(&app), ["b", "a", "c"]);
        keys(&mut app, &[Char('o')]);
        assert_eq!(app.sort, SortKey::Budget);
        assert_eq!(order(&app), ["b", "a", "c"]);
        keys(&mut app, &[Char('O')]);
        assert_eq!(order(&app), ["c", "a", "b"]);
        keys(&mut app, &[Down]);
        assert_eq!(app.current().unwrap().id, "a");
        // a reload keeps "a" selected wherever it lands
        app.update(Update::Sessions(Ok(SessionList {
            rows: vec![row("a", 10, 50.0), row("z", 1, 1.0)],
            ..Default::default()
        })));
        assert_eq!(app.current().unwrap().id, "a");
        assert_eq!(
            app.selected, 1,
            "z (1%) comes first in ascending budget order"
        );
    }

    #[test]
    fn markers_say_over_budget_and_summary_behind() {
        let r = row("b", 20, 120.0);
        assert!(r.over_budget() && r.summary_behind());
        let mut fresh = row("a", 10, 50.0);
        fresh.summary_at = fresh.last_at;
        assert!(!fresh.over_budget() && !fresh.summary_behind());
        fresh.has_summary = false;
        assert!(
            !fresh.summary_behind(),
            "no summary is not a summary behind"
        );
    }

    #[test]
    fn undo_trash_and_errors_screens_ask_before_their_writes() {
        use KeyCode::*;
        let mut app = app();
        let out = keys(&mut app, &[Char('2')]);
        assert_eq!(out, [Action::LoadOplog]);
        let op = |id: &str, why: Option<&str>| OpRow {
            op: Op {
                id: id.into(),
                time: "t".into(),
                argv: vec![],
                user: String::new(),
                via: "tty".into(),
                command: "reset".into(),
                undoes: None,
                irreversible: false,
                done: true,
                sessions: vec![],
                undone_by: None,
                interrupted: false,
            },
            why_not: why.map(str::to_owned),
        };
        app.update(Update::Oplog(Ok(vec![
            op("new", Some("pruned")),
            op("old", None),
        ])));
        let out = keys(&mut app, &[Char('u')]);
        assert!(
            app.modal.is_none() && out.is_empty(),
            "refused: {:?}",
            app.message
        );
        keys(&mut app, &[Down]);
        // a newer operation arrives on top: the selection stays on "old"
        app.update(Update::Oplog(Ok(vec![
            op("newest", None),
            op("new", Some("pruned")),
            op("old", None),
        ])));
        let out = keys(&mut app, &[Char('u'), Char('y')]);
        assert_eq!(runs(&out), [&Job::Undo { op: "old".into() }]);
        // and when the selected one is gone, the selection stays in range
        app.update(Update::Oplog(Ok(vec![op("newest", None)])));
        assert_eq!(app.oplog.current().unwrap().op.id, "newest");

        let mut app = self::app();
        keys(&mut app, &[Char('4')]);
        let item = ErrorItem {
            key: "k".into(),
            id: "abcdef12".into(),
            tool_name: "t".into(),
            keywords: vec![],
            symptom: "s".into(),
            cause: "c".into(),
            action: "old".into(),
            outcome: "resolved".into(),
            timestamp: 0,
            recorded_at: None,
            expire_at: None,
            expires_at: None,
            has_vector: false,
            expired: false,
            raw: Default::default(),
        };
        app.update(Update::Errors(Ok(vec![item])));
        keys(&mut app, &[Char('e'), Backspace, Backspace, Backspace]);
        let out = keys(&mut app, &[Enter]);
        assert!(runs(&out).is_empty(), "an empty action is refused");
        let out = keys(&mut app, &[Char('新'), Char('!'), Enter, Char('y')]);
        assert_eq!(
            runs(&out),
            [&Job::EditAction {
                key: "k".into(),
                id: "abcdef12".into(),
                action: "新!".into()
            }]
        );
    }
}
