//! The view drawn from its state: a pure function of `App` (and the time
//! ages are measured from), so snapshots of a `TestBackend` show exactly
//! what a terminal would.

use chrono::{DateTime, Utc};
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::engine::compact::op::CompactReport;
use crate::engine::reset::{ClearReport, ResetMode};
use crate::output::{bytes, Outline};
use crate::timefmt;

use super::state::{mode_name, App, Focus, Loaded, Modal, Row, Screen, SummaryData, Tab};
use super::text::{
    self, cut, distinct, fit, pad, pad_left, size_change, thousands, width, wrap_id,
};

/// What drawing needs besides the state.
#[derive(Debug, Clone, Copy)]
pub struct Look {
    pub now: DateTime<Utc>,
    /// Colours (off with NO_COLOR or `--color never`: emphasis is then
    /// bold, reverse and underline only).
    pub color: bool,
    /// Frames drawn, for the spinner.
    pub tick: u64,
}

impl Look {
    fn fg(&self, c: Color) -> Style {
        if self.color {
            Style::default().fg(c)
        } else {
            Style::default()
        }
    }
    fn bold(&self) -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }
    fn warn(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }
    fn selected(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED)
    }
    fn head(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }
    fn dim(&self) -> Style {
        if self.color {
            Style::default().add_modifier(Modifier::DIM)
        } else {
            Style::default()
        }
    }
}

pub fn draw(f: &mut Frame, app: &App, look: Look) {
    let area = f.area();
    let [top, body, bottom] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    f.render_widget(Paragraph::new(header(app, look, top.width)), top);
    match app.screen {
        Screen::Sessions => sessions(f, app, look, body),
        Screen::Undo => undo(f, app, look, body),
        Screen::Trash => trash(f, app, look, body),
        Screen::Errors => errors(f, app, look, body),
    }
    f.render_widget(Paragraph::new(status(app, look, bottom.width)), bottom);
    if let Some(m) = &app.modal {
        modal(f, m, look, area);
    }
}

fn header(app: &App, look: Look, w: u16) -> Line<'static> {
    let mut spans = vec![Span::styled(" sessionctl ", look.bold())];
    for (i, s) in Screen::ALL.iter().enumerate() {
        let label = format!(" {} {} ", i + 1, s.name());
        let style = if *s == app.screen {
            look.selected()
        } else {
            Style::default()
        };
        spans.push(Span::styled(label, style));
    }
    let used: usize = spans.iter().map(|s| width(&s.content)).sum();
    let help = "? help  q quit ";
    if used + width(help) < w as usize {
        spans.push(Span::raw(" ".repeat(w as usize - used - width(help))));
        spans.push(Span::styled(help, look.dim()));
    }
    Line::from(spans)
}

fn status(app: &App, look: Look, w: u16) -> Line<'static> {
    let w = w as usize;
    if app.editing_filter {
        return Line::from(vec![
            Span::styled(" filter: ", look.bold()),
            Span::raw(cut(&format!("{}▏", app.filter), w.saturating_sub(40))),
            Span::styled("  Enter keeps · Esc clears", look.dim()),
        ]);
    }
    if let Some(m) = &app.message {
        return Line::from(Span::raw(fit(&format!(" {m}"), w)));
    }
    if let Some(warn) = app.warnings.first() {
        let more = match app.warnings.len() {
            1 => String::new(),
            n => format!(" (+{} more)", n - 1),
        };
        return Line::from(Span::styled(
            fit(&format!(" warning: {warn}{more}"), w),
            look.warn(),
        ));
    }
    let hints = match app.screen {
        Screen::Sessions if app.focus == Focus::Detail => match app.tab {
            Tab::Summary => "Tab next tab · Enter summarize · ↑↓ scroll · Esc list · D remove",
            Tab::Compact => "Tab next tab · Enter compact · ↑↓ scroll · Esc list · D remove",
            Tab::Reset => "Tab next tab · m mode · Enter reset · ↑↓ scroll · Esc list",
        },
        Screen::Sessions => {
            "↑↓ move · / filter · o sort · O reverse · Tab tabs · S summarize · D remove"
        }
        Screen::Undo => "↑↓ move · u undo the selected operation",
        Screen::Trash => "↑↓ move · r restore · p delete it and older ones for good",
        Screen::Errors => "↑↓ move · e edit the action (its TTL is kept)",
    };
    Line::from(Span::styled(fit(&format!(" {hints}"), w), look.dim()))
}

fn sessions(f: &mut Frame, app: &App, look: Look, area: Rect) {
    if app.wide {
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                .areas(area);
        session_list(f, app, look, left);
        detail(f, app, look, right);
    } else if app.focus == Focus::Detail {
        detail(f, app, look, area);
    } else {
        session_list(f, app, look, area);
    }
}

fn pane(title: String, focused: bool, look: Look) -> Block<'static> {
    let style = if focused { look.bold() } else { look.dim() };
    Block::default()
        .borders(Borders::ALL)
        .border_style(style)
        .title(Span::styled(title, look.bold()))
}

/// How a column is fitted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Never cut nor wrapped (short identifiers: commands, ages).
    Id,
    /// The row's identifier: never cut; a long one wraps onto more lines,
    /// so the other columns keep their place.
    Key,
    /// Right-aligned.
    Num,
    /// Cut with `…`; takes what width is left.
    Text,
}

struct Col {
    head: &'static str,
    kind: Kind,
    /// 0: always shown; higher numbers go first when space is short.
    keep: u8,
}

/// A table fitted to `w` columns: the header line, each row's lines (an
/// id that does not fit wraps, so a row may take several).
fn fit_table(cols: &[Col], rows: &[Vec<String>], w: usize) -> (String, Vec<Vec<String>>) {
    let natural: Vec<usize> = cols
        .iter()
        .enumerate()
        .map(|(i, c)| {
            rows.iter()
                .map(|r| width(&r[i]))
                .chain([width(c.head)])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let least = |i: usize| match cols[i].kind {
        Kind::Text => natural[i].min(12),
        Kind::Key => natural[i].min(24.max(w * 2 / 5)),
        _ => natural[i],
    };
    let mut shown: Vec<usize> = (0..cols.len()).filter(|i| cols[*i].keep == 0).collect();
    let mut used: usize = shown.iter().map(|i| least(*i) + 1).sum();
    let mut optional: Vec<usize> = (0..cols.len()).filter(|i| cols[*i].keep > 0).collect();
    optional.sort_by_key(|i| cols[*i].keep);
    for i in optional {
        if used + least(i) < w {
            shown.push(i);
            used += least(i) + 1;
        }
    }
    shown.sort_unstable();
    let mut widths: Vec<usize> = shown.iter().map(|i| least(*i)).collect();
    // Room left goes to the key, then to text columns, up to what they hold.
    let mut spare = w.saturating_sub(used);
    let mut order: Vec<usize> = (0..shown.len()).collect();
    order.sort_by_key(|k| cols[shown[*k]].kind != Kind::Key);
    for k in order {
        let i = &shown[k];
        if matches!(cols[*i].kind, Kind::Text | Kind::Key) {
            let more = (natural[*i] - widths[k]).min(spare);
            widths[k] += more;
            spare -= more;
        }
    }
    // Too narrow even so: the key wraps tighter.
    if used > w {
        if let Some(k) = shown.iter().position(|i| cols[*i].kind == Kind::Key) {
            let others = used - (widths[k] + 1);
            widths[k] = w.saturating_sub(others + 1).max(4);
        }
    }
    let cell_lines = |i: usize, k: usize, v: &str| -> Vec<String> {
        let cw = widths[k];
        match cols[i].kind {
            Kind::Key => wrap_id(v, cw).into_iter().map(|l| pad(&l, cw)).collect(),
            Kind::Id => vec![pad(v, cw)],
            Kind::Num => vec![pad_left(v, cw)],
            Kind::Text => vec![pad(&fit(v, cw), cw)],
        }
    };
    let head = shown
        .iter()
        .enumerate()
        .map(|(k, i)| match cols[*i].kind {
            Kind::Num => pad_left(cols[*i].head, widths[k]),
            _ => pad(cols[*i].head, widths[k]),
        })
        .collect::<Vec<_>>()
        .join(" ");
    let body = rows
        .iter()
        .map(|r| {
            let cells: Vec<Vec<String>> = shown
                .iter()
                .enumerate()
                .map(|(k, i)| cell_lines(*i, k, &r[*i]))
                .collect();
            let height = cells.iter().map(Vec::len).max().unwrap_or(1);
            (0..height)
                .map(|line| {
                    cells
                        .iter()
                        .enumerate()
                        .map(|(k, c)| {
                            c.get(line)
                                .cloned()
                                .unwrap_or_else(|| " ".repeat(widths[k]))
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect()
        })
        .collect();
    (head, body)
}

/// A fitted table in `area`, scrolled so the selected row shows.
fn table(
    f: &mut Frame,
    area: Rect,
    look: Look,
    cols: &[Col],
    rows: &[Vec<String>],
    selected: usize,
    style_of: impl Fn(usize) -> Style,
) {
    if area.height == 0 {
        return;
    }
    let (head, body) = fit_table(cols, rows, area.width as usize);
    let mut lines = Vec::new();
    let mut sel = (0, 0);
    for (i, row) in body.iter().enumerate() {
        if i == selected {
            sel = (lines.len(), lines.len() + row.len());
        }
        let style = if i == selected {
            style_of(i).patch(look.selected())
        } else {
            style_of(i)
        };
        lines.extend(row.iter().map(|l| Line::styled(l.clone(), style)));
    }
    let room = area.height.saturating_sub(1) as usize;
    let offset = sel.1.saturating_sub(room);
    let mut shown = vec![Line::styled(head, look.head())];
    shown.extend(lines.into_iter().skip(offset).take(room));
    f.render_widget(Paragraph::new(shown), area);
}

/// What could not be read is unknown (`?`, as `sessions list` shows it),
/// not zero.
fn known(r: &Row, text: impl FnOnce() -> String) -> String {
    if r.problems.is_empty() {
        text()
    } else {
        "?".into()
    }
}

fn tokens_cell(r: &Row) -> String {
    if !r.problems.is_empty() {
        return "?".into();
    }
    let n = thousands(r.tokens as u64);
    if r.tokens_exact {
        n
    } else {
        format!("~{n}")
    }
}

fn session_list(f: &mut Frame, app: &App, look: Look, area: Rect) {
    let visible = app.visible();
    let total = app.rows.ready().map_or(0, Vec::len);
    let mut title = format!(
        " sessions {}/{total} · sort: {} {} ",
        visible.len(),
        app.sort.name(),
        if app.reverse { "↑" } else { "↓" }
    );
    if !app.filter.is_empty() {
        title.push_str(&format!("· filter: {} ", cut(&app.filter, 20)));
    }
    let block = pane(title, app.focus == Focus::List || !app.wide, look);
    let inner = block.inner(area);
    f.render_widget(block, area);
    match &app.rows {
        Loaded::Loading => {
            f.render_widget(Paragraph::new("reading the sessions…"), inner);
            return;
        }
        Loaded::Failed(e) => {
            f.render_widget(
                Paragraph::new(format!("cannot list the sessions: {e}"))
                    .style(look.warn())
                    .wrap(Wrap { trim: false }),
                inner,
            );
            return;
        }
        Loaded::Ready(_) => {}
    }
    if visible.is_empty() {
        let text = if total == 0 {
            "no sessions under this root"
        } else {
            "no sessions match the filter (Esc clears it)"
        };
        f.render_widget(Paragraph::new(text), inner);
        return;
    }
    let cols = [
        Col {
            head: "",
            kind: Kind::Id,
            keep: 0,
        },
        Col {
            head: "SESSION",
            kind: Kind::Key,
            keep: 0,
        },
        Col {
            head: "TOKENS",
            kind: Kind::Num,
            keep: 1,
        },
        Col {
            head: "USED",
            kind: Kind::Num,
            keep: 2,
        },
        Col {
            head: "LAST",
            kind: Kind::Id,
            keep: 3,
        },
        Col {
            head: "SIZE",
            kind: Kind::Num,
            keep: 4,
        },
        Col {
            head: "RECORDS",
            kind: Kind::Num,
            keep: 5,
        },
        Col {
            head: "SUMMARY",
            kind: Kind::Id,
            keep: 6,
        },
        Col {
            head: "MODEL",
            kind: Kind::Id,
            keep: 7,
        },
    ];
    let rows: Vec<Vec<String>> = visible
        .iter()
        .map(|r| {
            let mut mark = String::new();
            if !r.problems.is_empty() {
                mark.push('?');
            }
            if r.over_budget() {
                mark.push('!');
            }
            if r.summary_behind() {
                mark.push('~');
            }
            vec![
                pad(&mark, 2),
                r.id.clone(),
                tokens_cell(r),
                known(r, || {
                    r.used_percent.map_or("-".into(), |p| format!("{p:.0}%"))
                }),
                r.last_at.map_or("-".into(), |t| timefmt::age(t, look.now)),
                bytes(r.bytes),
                known(r, || thousands(r.records as u64)),
                match (r.has_summary, r.summary_at) {
                    (true, Some(t)) => timefmt::age(t, look.now),
                    (true, None) => "yes".into(),
                    (false, _) => "-".into(),
                },
                r.model.clone().unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    let legend_room = inner.height > 4;
    let [list, legend] = Layout::vertical([
        Constraint::Min(1),
        Constraint::Length(u16::from(legend_room)),
    ])
    .areas(inner);
    table(f, list, look, &cols, &rows, app.selected, |i| {
        let r = visible[i];
        if r.over_budget() || !r.problems.is_empty() {
            look.warn()
        } else if r.summary_behind() {
            look.fg(Color::Yellow)
        } else {
            Style::default()
        }
    });
    if legend_room {
        f.render_widget(
            Paragraph::new(Span::styled(
                fit(
                    "! over budget  ~ summary behind  ? unreadable  tokens ~ estimated",
                    list.width as usize,
                ),
                look.dim(),
            )),
            legend,
        );
    }
}

fn detail(f: &mut Frame, app: &App, look: Look, area: Rect) {
    let Some(row) = app.current() else {
        let block = pane(" session ".into(), false, look);
        f.render_widget(Paragraph::new("no session selected").block(block), area);
        return;
    };
    // The id is the title, whole: when it does not fit there, the first
    // lines of the pane carry it.
    let title_room = area.width.saturating_sub(4) as usize;
    let title = if width(&row.id) <= title_room {
        format!(" {} ", row.id)
    } else {
        " session ".into()
    };
    let block = pane(title.clone(), app.focus == Focus::Detail, look);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let [tabs, body] = Layout::vertical([Constraint::Length(2), Constraint::Min(1)]).areas(inner);
    let mut spans = Vec::new();
    for t in Tab::ALL {
        let style = if t == app.tab {
            look.selected().add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        spans.push(Span::raw(" "));
        spans.push(Span::styled(format!(" {} ", t.name()), style));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), tabs);
    let mut lines: Vec<Line> = Vec::new();
    if title == " session " {
        lines.push(Line::styled(row.id.clone(), look.bold()));
    }
    lines.extend(match app.tab {
        Tab::Summary => summary_lines(app.summaries.get(&row.id), look),
        Tab::Compact => compact_lines(app.compact_plans.get(&row.id), app.via_daemon, look),
        Tab::Reset => reset_lines(
            app.reset_plans
                .get(&(row.id.clone(), app.reset_mode == ResetMode::All)),
            app.reset_mode,
            look,
        ),
    });
    let lines = wrap_lines(lines, body.width as usize);
    // scrolling stops at the last line: the state learns how far it may go
    let max = u16::try_from(lines.len().saturating_sub(body.height as usize)).unwrap_or(u16::MAX);
    app.max_scroll.set(max);
    f.render_widget(
        Paragraph::new(Text::from(lines)).scroll((app.scroll.min(max), 0)),
        body,
    );
}

fn waiting<T>(l: Option<&Loaded<T>>, look: Look) -> Result<&T, Vec<Line<'static>>> {
    match l {
        Some(Loaded::Ready(t)) => Ok(t),
        Some(Loaded::Failed(e)) => Err(vec![Line::styled(
            format!("cannot read it: {e}"),
            look.warn(),
        )]),
        _ => Err(vec![Line::from("reading…")]),
    }
}

fn section(name: &str, look: Look) -> Line<'static> {
    Line::styled(name.to_owned(), look.head())
}

fn summary_lines(l: Option<&Loaded<SummaryData>>, look: Look) -> Vec<Line<'static>> {
    let s = match waiting(l, look) {
        Ok(s) => s,
        Err(lines) => return lines,
    };
    let mut out = Vec::new();
    let lag = match s.behind {
        Some(0) => "up to date".to_owned(),
        Some(n) => format!("{n} record(s) behind: Enter (or S) merges them"),
        None => "lag unknown".to_owned(),
    };
    let Some(fields) = &s.fields else {
        out.push(Line::from(format!(
            "{} has no rolling summary yet; Enter (or S) makes one",
            s.session
        )));
        out.push(Line::from(lag));
        return out;
    };
    let up_to = match (&s.cursor, s.up_to) {
        (Some(c), Some(t)) => format!("up to {c} ({})", timefmt::age(t, look.now)),
        (Some(c), None) => format!("up to {c}"),
        (None, _) => "no cursor (never summarised by the cursor rules)".into(),
    };
    let behind_style = if s.behind.is_some_and(|n| n > 0) {
        look.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    } else {
        Style::default()
    };
    out.push(Line::from(up_to));
    out.push(Line::styled(lag, behind_style));
    out.extend(
        crate::output::summary_outline(fields)
            .into_iter()
            .map(|l| match l {
                Outline::Blank => Line::default(),
                Outline::Heading(h) => section(&h, look),
                Outline::Text(t) => Line::from(t),
            }),
    );
    out
}

fn field(name: &str, value: String) -> Line<'static> {
    Line::from(vec![
        Span::styled(pad(name, 10), Style::default().add_modifier(Modifier::BOLD)),
        Span::raw(value),
    ])
}

fn compact_lines(
    l: Option<&Loaded<Box<CompactReport>>>,
    via_daemon: bool,
    look: Look,
) -> Vec<Line<'static>> {
    let r = match waiting(l, look) {
        Ok(r) => r,
        Err(lines) => return lines,
    };
    let mut out = Vec::new();
    let tokens =
        |t: Option<usize>| t.map_or_else(|| "(by size)".to_owned(), |t| thousands(t as u64));
    let verdict = if r.within_budget && r.stages.is_empty() {
        Line::from("within budget: nothing to compact")
    } else if r.stages.is_empty() {
        Line::styled("over budget, and nothing is left to remove", look.warn())
    } else {
        Line::styled(
            "over budget: the plan below (dry run, nothing changed yet)",
            look.bold(),
        )
    };
    out.push(verdict);
    out.push(Line::default());
    out.push(field(
        "model",
        format!(
            "{} (window from {}), counter {}",
            r.model,
            serde_json::to_value(r.window_source)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            r.counter
        ),
    ));
    out.push(field("budget", format!("{} tokens", thousands(r.budget))));
    out.push(field(
        "tokens",
        if r.stages.is_empty() {
            tokens(r.tokens_before)
        } else {
            format!("{} → {}", tokens(r.tokens_before), tokens(r.tokens_after))
        },
    ));
    out.push(field("size", size_change(r.bytes_before, r.bytes_after)));
    if !r.stages.is_empty() {
        out.push(Line::default());
        out.push(section("Stages", look));
        for s in &r.stages {
            out.push(Line::from(format!(
                "  {} −{}  → {} tokens",
                s.stage,
                thousands(s.removed as u64),
                thousands(s.tokens_after as u64)
            )));
        }
        out.push(Line::default());
        out.push(section("Where it goes", look));
        out.push(Line::from(format!(
            "  {} history record(s) leave history.json: every one is in the SQLite archive first{}",
            thousands(r.removed_records as u64),
            if r.archived_new > 0 {
                format!(" ({} inserted there now)", r.archived_new)
            } else {
                String::new()
            }
        )));
        out.push(Line::from(format!(
            "  {} ToriiDB db1 key(s) older than the first remaining record are removed",
            thousands(r.removed_torii_keys as u64)
        )));
        if !r.task_histories_saved.is_empty() {
            out.push(Line::from(format!(
                "  task histories copied to the Trash first: {}",
                r.task_histories_saved.join(", ")
            )));
        }
        out.push(Line::from(if via_daemon {
            "  summary.json is untouched; Agenvoy's daemon keeps nothing to undo"
        } else {
            "  summary.json is untouched; undo puts it all back"
        }));
        if r.still_over {
            out.push(Line::styled(
                "  still over afterwards: only protected turns remain",
                look.warn(),
            ));
        }
        out.push(Line::default());
        out.push(Line::styled("Enter compacts (asks first)", look.bold()));
    }
    for w in &r.warnings {
        out.push(Line::styled(format!("warning: {w}"), look.warn()));
    }
    out
}

fn reset_lines(
    l: Option<&Loaded<Box<ClearReport>>>,
    mode: ResetMode,
    look: Look,
) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let choice = |m: ResetMode| {
        let style = if m == mode {
            look.selected().add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        Span::styled(format!(" {} ", mode_name(m)), style)
    };
    out.push(Line::from(vec![
        Span::styled("mode ", look.bold()),
        choice(ResetMode::Summary),
        Span::raw(" "),
        choice(ResetMode::All),
        Span::styled("   m switches", look.dim()),
    ]));
    out.push(Line::default());
    let r = match waiting(l, look) {
        Ok(r) => r,
        Err(lines) => {
            out.extend(lines);
            return out;
        }
    };
    let gone = |f: &str| r.removed_files.iter().any(|x| x == f);
    let others: Vec<&str> = r
        .removed_files
        .iter()
        .map(String::as_str)
        .filter(|f| !matches!(*f, "history.json" | "summary.json" | "summary.meta.json"))
        .collect();
    let rows: Vec<(&str, String)> = vec![
        (
            "history.json",
            if gone("history.json") {
                "deleted".into()
            } else {
                "absent".into()
            },
        ),
        (
            "other files",
            if others.is_empty() {
                "-".into()
            } else {
                others.join(", ")
            },
        ),
        (
            "ToriiDB db1",
            format!("{} key(s) cleared", thousands(r.removed_torii_keys as u64)),
        ),
        (
            "SQLite archive",
            format!(
                "{} message row(s) and session_meta cleared",
                thousands(r.removed_archive_rows)
            ),
        ),
        (
            "summary.json",
            match mode {
                ResetMode::Summary => match r.summary_merged {
                    Some(n) if n > 0 => format!("kept, {n} record(s) merged into it first"),
                    _ => "kept".into(),
                },
                ResetMode::All if gone("summary.json") => "deleted".into(),
                ResetMode::All => "absent".into(),
            },
        ),
    ];
    out.push(Line::styled(
        format!("{}│ what it loses", pad("tier", 16)),
        look.head(),
    ));
    for (tier, loses) in rows {
        out.push(Line::from(format!("{}│ {loses}", pad(tier, 16))));
    }
    out.push(Line::default());
    if r.changed {
        out.push(Line::from(
            "What is taken away goes to sessions/.Trash; undo (2) puts it back.",
        ));
        out.push(Line::styled("Enter resets (asks first)", look.bold()));
    } else {
        out.push(Line::from("Nothing to clear."));
    }
    out
}

fn undo(f: &mut Frame, app: &App, look: Look, area: Rect) {
    let Some((items, inner)) = list_pane(
        f,
        " operation log, newest first ",
        &app.oplog.items,
        ("operation log", "no operations recorded"),
        look,
        area,
    ) else {
        return;
    };
    let cols = [
        Col {
            head: "ID",
            kind: Kind::Key,
            keep: 0,
        },
        Col {
            head: "COMMAND",
            kind: Kind::Id,
            keep: 0,
        },
        Col {
            head: "SESSIONS",
            kind: Kind::Text,
            keep: 1,
        },
        Col {
            head: "UNDO",
            kind: Kind::Text,
            keep: 2,
        },
    ];
    let rows: Vec<Vec<String>> = items
        .iter()
        .map(|r| {
            vec![
                r.op.id.clone(),
                r.op.command.clone(),
                distinct(r.op.sessions.iter().map(|c| c.session.as_str())).join(", "),
                match (&r.why_not, &r.op.undone_by) {
                    (None, _) => "yes".into(),
                    (Some(_), Some(by)) => format!("undone by {by}"),
                    (Some(why), None) => format!("no: {why}"),
                },
            ]
        })
        .collect();
    let [list, more] = Layout::vertical([Constraint::Min(1), Constraint::Length(3)]).areas(inner);
    table(f, list, look, &cols, &rows, app.oplog.selected, |i| {
        if items[i].why_not.is_some() {
            look.dim()
        } else {
            Style::default()
        }
    });
    if let Some(r) = app.oplog.current() {
        let text = format!(
            "{} · {} · {}{}",
            r.op.time,
            r.op.command,
            if r.op.done { "done" } else { "not finished" },
            r.why_not
                .as_ref()
                .map(|w| format!(" · cannot be undone: {w}"))
                .unwrap_or_default()
        );
        f.render_widget(
            Paragraph::new(text)
                .wrap(Wrap { trim: false })
                .style(look.dim()),
            more,
        );
    }
}

fn other_text<T>(l: &Loaded<T>, what: &str) -> String {
    match l {
        Loaded::Failed(e) => format!("cannot read the {what}: {e}"),
        _ => format!("reading the {what}…"),
    }
}

/// The undo, Trash and errors tabs: their pane, and inside it the list's
/// items once read — or, drawn instead, that it is being read, could not
/// be read (`what`), or is empty (`empty`).
fn list_pane<'a, T>(
    f: &mut Frame,
    title: &str,
    items: &'a Loaded<Vec<T>>,
    (what, empty): (&str, &str),
    look: Look,
    area: Rect,
) -> Option<(&'a [T], Rect)> {
    let block = pane(title.into(), true, look);
    let inner = block.inner(area);
    f.render_widget(block, area);
    match items {
        Loaded::Ready(items) if items.is_empty() => {
            f.render_widget(Paragraph::new(empty.to_owned()), inner);
            None
        }
        Loaded::Ready(items) => Some((items, inner)),
        other => {
            placeholder(f, other_text(other, what), look, inner);
            None
        }
    }
}

fn placeholder(f: &mut Frame, text: String, _look: Look, area: Rect) {
    f.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }), area);
}

fn trash(f: &mut Frame, app: &App, look: Look, area: Rect) {
    let Some((items, inner)) = list_pane(
        f,
        " sessions/.Trash, newest first ",
        &app.trash.items,
        ("Trash", "the Trash is empty"),
        look,
        area,
    ) else {
        return;
    };
    let cols = [
        Col {
            head: "ENTRY",
            kind: Kind::Key,
            keep: 0,
        },
        Col {
            head: "KIND",
            kind: Kind::Id,
            keep: 2,
        },
        Col {
            head: "AGE",
            kind: Kind::Id,
            keep: 1,
        },
        Col {
            head: "SIZE",
            kind: Kind::Num,
            keep: 3,
        },
        Col {
            head: "SESSION",
            kind: Kind::Id,
            keep: 4,
        },
    ];
    let rows: Vec<Vec<String>> = items
        .iter()
        .map(|e| {
            vec![
                e.name.clone(),
                e.kind.clone().unwrap_or_else(|| "-".into()),
                timefmt::age(e.time, look.now),
                bytes(e.bytes),
                e.session.clone().unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    table(f, inner, look, &cols, &rows, app.trash.selected, |i| {
        if items[i].restorable {
            Style::default()
        } else {
            look.dim()
        }
    });
}

fn errors(f: &mut Frame, app: &App, look: Look, area: Rect) {
    let Some((items, inner)) = list_pane(
        f,
        " error memory (ToriiDB db 2), newest first ",
        &app.errors.items,
        ("error memory", "no error records"),
        look,
        area,
    ) else {
        return;
    };
    // every record is listed here, so unique among these is unique
    let mut index = crate::engine::error_memory::IdIndex::default();
    for i in items.iter() {
        index.add(&i.id);
    }
    let ids: Vec<String> = items
        .iter()
        .map(|i| index.shown(&i.id, &i.key, 8))
        .collect();
    let cols = [
        Col {
            head: "ID",
            kind: Kind::Key,
            keep: 0,
        },
        Col {
            head: "TOOL",
            kind: Kind::Id,
            keep: 1,
        },
        Col {
            head: "SYMPTOM",
            kind: Kind::Text,
            keep: 0,
        },
        Col {
            head: "ACTION",
            kind: Kind::Text,
            keep: 2,
        },
        Col {
            head: "EXPIRES",
            kind: Kind::Id,
            keep: 3,
        },
    ];
    let now = look.now.timestamp();
    let rows: Vec<Vec<String>> = items
        .iter()
        .zip(ids)
        .map(|(i, id)| {
            vec![
                id,
                i.tool_name.clone(),
                i.symptom.clone(),
                i.action.clone(),
                match i.expire_at {
                    None => "never".into(),
                    Some(t) if t <= now => "expired".into(),
                    Some(t) => timefmt::age(timefmt::from_nanos(t * 1_000_000_000), look.now),
                },
            ]
        })
        .collect();
    let detail_h = inner.height.saturating_sub(6).min(6);
    let [list, more] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(detail_h)]).areas(inner);
    table(f, list, look, &cols, &rows, app.errors.selected, |i| {
        if items[i].expired {
            look.dim()
        } else {
            Style::default()
        }
    });
    if let Some(i) = app.errors.current() {
        let lines = vec![
            Line::from(vec![
                Span::styled("symptom ", look.bold()),
                Span::raw(i.symptom.clone()),
            ]),
            Line::from(vec![
                Span::styled("action  ", look.bold()),
                Span::raw(i.action.clone()),
            ]),
        ];
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), more);
    }
}

/// Lines wrapped to `room` columns by `text::wrap` (a line that fits keeps
/// its spans; a wrapped one takes the style of its first span), so what is
/// drawn and what is counted for scrolling and sizing agree.
fn wrap_lines(lines: Vec<Line<'static>>, room: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for line in lines {
        if line.width() <= room {
            out.push(line);
            continue;
        }
        let style = line
            .spans
            .first()
            .map_or(line.style, |s| line.style.patch(s.style));
        let whole: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        out.extend(
            text::wrap(&whole, room)
                .into_iter()
                .map(|l| Line::styled(l, style)),
        );
    }
    out
}

/// A box in the middle of `area`, `w` wide and tall enough for `lines`
/// as `fit_popup_lines` gives them.
fn popup(area: Rect, w: u16, lines: Vec<Line<'static>>) -> (Rect, Vec<Line<'static>>) {
    let w = w.min(area.width.saturating_sub(2)).max(10);
    let room = w.saturating_sub(2).max(1) as usize;
    let rows = area.height.saturating_sub(4).max(1) as usize;
    let lines = fit_popup_lines(lines, room, rows);
    let h = (lines.len() as u16 + 2).min(area.height).max(3);
    let r = Rect {
        x: area.x + (area.width.saturating_sub(w)) / 2,
        y: area.y + (area.height.saturating_sub(h)) / 2,
        width: w,
        height: h,
    };
    (r, lines)
}

/// A popup's lines as it shows them: wrapped to `room` columns by
/// `text::wrap` (so a wide character never breaks the border and an id is
/// never cut), and at most `rows` of them, always with the last (the keys
/// that answer it) — what does not fit gives way to `…`.
fn fit_popup_lines(lines: Vec<Line<'static>>, room: usize, rows: usize) -> Vec<Line<'static>> {
    let mut out = wrap_lines(lines, room);
    if out.len() > rows && rows >= 2 {
        let last = out.pop().expect("more lines than rows");
        out.truncate(rows - 2);
        out.push(Line::from("…"));
        out.push(last);
    }
    out
}

fn modal(f: &mut Frame, m: &Modal, look: Look, area: Rect) {
    let border = |title: String, danger: bool| {
        Block::default()
            .borders(Borders::ALL)
            .border_style(if danger { look.warn() } else { look.bold() })
            .title(Span::styled(title, look.bold()))
    };
    let show = |f: &mut Frame, title: String, lines: Vec<Line<'static>>, w: u16, danger: bool| {
        let (r, lines) = popup(area, w, lines);
        let title = cut(&title, r.width.saturating_sub(2) as usize);
        f.render_widget(Clear, r);
        f.render_widget(Paragraph::new(lines).block(border(title, danger)), r);
        r
    };
    match m {
        Modal::Confirm { title, lines, .. } => {
            let mut body: Vec<Line> = lines.iter().map(|l| Line::from(l.clone())).collect();
            body.push(Line::default());
            body.push(Line::styled("y: yes   n or Esc: no", look.bold()));
            show(f, format!(" {title} "), body, 72, true);
        }
        Modal::Running {
            title,
            progress,
            cancel_asked,
        } => {
            const SPIN: [&str; 4] = ["|", "/", "-", "\\"];
            let spin = SPIN[(look.tick % 4) as usize];
            let mut body = vec![Line::from(format!(
                "{spin} planned {} · applied {}",
                progress.planned, progress.applied
            ))];
            body.push(Line::from(if progress.waiting && *cancel_asked {
                "stopping: the reply is dropped, what was merged before stays".to_owned()
            } else if progress.waiting {
                "waiting for the summarizer: Esc stops (merged chunks stay)".to_owned()
            } else if progress.applying {
                "writing: it finishes before anything else happens".to_owned()
            } else if *cancel_asked {
                "cancelling: nothing will be written".to_owned()
            } else {
                "planning: Esc cancels (nothing has been written)".to_owned()
            }));
            show(f, format!(" {title} "), body, 60, false);
        }
        Modal::Report {
            title,
            lines,
            failed,
        } => {
            let style = if *failed {
                look.warn()
            } else {
                Style::default()
            };
            let mut body: Vec<Line> = lines
                .iter()
                .map(|l| Line::styled(l.clone(), style))
                .collect();
            if body.is_empty() {
                body.push(Line::from("done"));
            }
            body.push(Line::default());
            body.push(Line::styled("any key closes", look.dim()));
            let title = if *failed {
                format!(" {title}: failed ")
            } else {
                format!(" {title} ")
            };
            show(f, title, body, 76, *failed);
        }
        Modal::Help => {
            let body: Vec<Line> = HELP.lines().map(|l| Line::from(l.to_owned())).collect();
            show(f, " keys ".into(), body, 76, false);
        }
        Modal::Edit {
            id, text, cursor, ..
        } => {
            let shown: String = text
                .iter()
                .map(|c| if *c == '\n' { '↵' } else { *c })
                .collect();
            let w = 72u16.min(area.width.saturating_sub(2));
            let room = w.saturating_sub(4) as usize;
            // Scrolled so the cursor shows.
            let before: String = shown.chars().take(*cursor).collect();
            let mut skip = 0;
            while text::width(&before.chars().skip(skip).collect::<String>()) >= room {
                skip += 1;
            }
            let visible: String = shown.chars().skip(skip).collect();
            let first = format!("the fix agents apply when {id}'s tool fails again:");
            // the first line may wrap (a long key): the input line follows it
            let above = text::wrap(&first, room + 2).len() as u16;
            let body = vec![
                Line::from(first),
                Line::from(format!(" {}", cut(&visible, room))),
                Line::default(),
                Line::styled("Enter saves (asks first) · Esc drops the edit", look.dim()),
            ];
            let r = show(f, format!(" edit the action of {id} "), body, w, false);
            let at: String = before.chars().skip(skip).collect();
            f.set_cursor_position(Position {
                x: r.x + 2 + text::width(&at) as u16,
                y: r.y + 1 + above,
            });
        }
    }
}

const HELP: &str = "\
Sessions: ↑↓ (j k) move · PgUp PgDn Home End · / filter (glob or substring)
  o sort by activity, tokens, % of budget, size · O reverse
  Enter or Tab open the session: summary | compact | reset (Tab cycles)
  Enter on a tab: summarize / compact / reset · m switches the reset mode
  S summarize · D remove · Esc back to the list
  ! over budget · ~ summary behind · ? part unreadable
Undo (2): u undoes the selected operation (newest first)
Trash (3): r restores the entry · p deletes it and every older one for good
Errors (4): e edits the action of a record (its TTL is kept)
Every write asks first (y), plans, then applies as the commands do;
Esc cancels it until writing begins, or while it waits for a summarizer.
F5 reloads · Ctrl-L redraws · q quits";
