//! Tables sized to the reader. On a terminal a table fits its width:
//! identifiers (session ids, keys, model names, paths) are never cut or
//! wrapped, columns with a shorter form (an age for a time, a path
//! relative to the root) switch to it, low-value columns go, and only then
//! free text is cut with `…`. Piped, a table is one tab-separated line per
//! row with every value whole: easy to cut, grep and awk.
//!
//! Which columns show, in which form and how wide is decided here, by
//! those rules; comfy-table lays the table out and draws it (its
//! `custom_styling` measures cells without their colour escapes, and
//! wraps the free text of detail views at the width given). Widths are
//! display columns (unicode-width): a CJK character takes two.

use chrono::{DateTime, Utc};
use comfy_table::{
    presets, CellAlignment, ColumnConstraint, ContentArrangement, Table, TableComponent, Width,
};

/// What a column holds, which decides how it may be narrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Never cut or wrapped: session ids, keys, model names, paths.
    Id,
    /// Free text: cut with `…` when the table does not fit.
    Text,
    /// Right-aligned, never cut.
    Num,
}

#[derive(Debug, Clone)]
pub struct Col {
    header: &'static str,
    kind: Kind,
    /// 0: always shown; otherwise dropped when too narrow, highest first.
    drop: u8,
}

impl Col {
    pub fn id(header: &'static str) -> Self {
        Col {
            header,
            kind: Kind::Id,
            drop: 0,
        }
    }
    pub fn text(header: &'static str) -> Self {
        Col {
            kind: Kind::Text,
            ..Col::id(header)
        }
    }
    pub fn num(header: &'static str) -> Self {
        Col {
            kind: Kind::Num,
            ..Col::id(header)
        }
    }
    /// Leave this column out when the terminal is too narrow; of several,
    /// the one with the highest `rank` goes first.
    pub fn optional(self, rank: u8) -> Self {
        Col { drop: rank, ..self }
    }
}

/// One cell: its full text and, optionally, a shorter form for narrow
/// terminals (`2025-12-01 00:01:50 (12mo ago)` → `12mo ago`).
#[derive(Debug, Clone, Default)]
pub struct Field {
    full: String,
    short: Option<String>,
}

impl From<String> for Field {
    fn from(full: String) -> Self {
        Field { full, short: None }
    }
}

impl From<&str> for Field {
    fn from(full: &str) -> Self {
        full.to_owned().into()
    }
}

impl From<&String> for Field {
    fn from(full: &String) -> Self {
        full.clone().into()
    }
}

impl Field {
    pub fn or_short(self, short: impl Into<String>) -> Self {
        Field {
            short: Some(short.into()),
            ..self
        }
    }
    fn text(&self, short: bool) -> &str {
        match (&self.short, short) {
            (Some(s), true) => s,
            _ => &self.full,
        }
    }
}

/// How a table is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// A terminal this many columns wide.
    Terminal(usize),
    /// A pipe or a file: tab-separated, nothing cut.
    Plain,
}

#[derive(Debug, Clone)]
pub struct Grid {
    cols: Vec<Col>,
    rows: Vec<Vec<Field>>,
    sectioned: bool,
}

impl Grid {
    pub fn new(cols: Vec<Col>) -> Self {
        Grid {
            cols,
            rows: Vec::new(),
            sectioned: false,
        }
    }

    /// Cells span several lines: rows are ruled apart on a terminal and
    /// their lines joined with `; ` when piped.
    pub fn sectioned(self) -> Self {
        Grid {
            sectioned: true,
            ..self
        }
    }

    pub fn row(&mut self, fields: Vec<Field>) {
        debug_assert_eq!(fields.len(), self.cols.len(), "one field per column");
        self.rows.push(fields);
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn render(&self, layout: Layout) -> String {
        match layout {
            Layout::Plain => self.plain(),
            Layout::Terminal(width) => self.fitted(width),
        }
    }

    fn plain(&self) -> String {
        let clean = |s: &str| s.replace('\t', " ").replace('\n', "; ");
        let mut lines = vec![self
            .cols
            .iter()
            .map(|c| c.header)
            .collect::<Vec<_>>()
            .join("\t")];
        for row in &self.rows {
            let cells: Vec<String> = row.iter().map(|f| clean(&f.full)).collect();
            lines.push(cells.join("\t"));
        }
        lines.join("\n")
    }

    /// The widest line of column `c` in its full or short form.
    fn natural(&self, c: usize, short: bool) -> usize {
        self.rows
            .iter()
            .flat_map(|r| r[c].text(short).lines())
            .map(width)
            .chain([width(self.cols[c].header)])
            .max()
            .unwrap_or(0)
    }

    /// The width column `c` needs at least: free text may be cut to
    /// [`TEXT_SQUEEZE`] before any column is dropped for it.
    fn squeezed(&self, c: usize, short: bool) -> usize {
        let natural = self.natural(c, short);
        match self.cols[c].kind {
            Kind::Text => natural.min(TEXT_SQUEEZE.max(width(self.cols[c].header))),
            _ => natural,
        }
    }

    fn fitted(&self, limit: usize) -> String {
        let n = self.cols.len();
        let mut shown = vec![true; n];
        let mut short = vec![false; n];
        let total = |shown: &[bool], short: &[bool]| {
            let visible = (0..n).filter(|&c| shown[c]);
            overhead(visible.clone().count())
                + visible.map(|c| self.squeezed(c, short[c])).sum::<usize>()
        };
        // Cheapest first: shorter forms, then whole columns — but only
        // while cutting free text to a readable width would not do.
        while total(&shown, &short) > limit {
            if let Some(c) = self.next_to_shorten(&shown, &short) {
                short[c] = true;
            } else if let Some(c) = self.next_to_drop(&shown) {
                shown[c] = false;
            } else {
                break;
            }
        }
        let visible: Vec<usize> = (0..n).filter(|&c| shown[c]).collect();
        let mut widths: Vec<usize> = visible.iter().map(|&c| self.natural(c, short[c])).collect();
        self.cut_text(&visible, &mut widths, limit);
        self.table(&visible, &short, &widths, limit)
    }

    /// A column with a short form not in use yet, optional ones first.
    fn next_to_shorten(&self, shown: &[bool], short: &[bool]) -> Option<usize> {
        (0..self.cols.len())
            .filter(|&c| shown[c] && !short[c])
            .filter(|&c| self.rows.iter().any(|r| r[c].short.is_some()))
            .max_by_key(|&c| (self.cols[c].drop, c))
    }

    fn next_to_drop(&self, shown: &[bool]) -> Option<usize> {
        (0..self.cols.len())
            .filter(|&c| shown[c] && self.cols[c].drop > 0)
            .max_by_key(|&c| (self.cols[c].drop, c))
    }

    /// Share what identifiers and numbers leave among the text columns,
    /// narrow ones keeping their width. Identifiers are never cut, so a
    /// table of very long ids may still overflow.
    fn cut_text(&self, visible: &[usize], widths: &mut [usize], limit: usize) {
        let text: Vec<usize> = (0..visible.len())
            .filter(|&i| self.cols[visible[i]].kind == Kind::Text)
            .collect();
        let fixed: usize = (0..visible.len())
            .filter(|i| !text.contains(i))
            .map(|i| widths[i])
            .sum();
        let mut room = limit.saturating_sub(overhead(visible.len()) + fixed);
        let mut order = text.clone();
        order.sort_by_key(|&i| widths[i]);
        for (k, &i) in order.iter().enumerate() {
            let share = room / (order.len() - k);
            let floor = text_floor(self.cols[visible[i]].header);
            widths[i] = widths[i].min(share.max(floor));
            room = room.saturating_sub(widths[i]);
        }
    }

    /// The table drawn by comfy-table: no borders, a rule under the header
    /// (and between rows of a detail view), one space before the first
    /// column and two between columns, every column exactly as wide as
    /// decided (free text already cut, or wrapped by comfy-table in a
    /// detail view).
    fn table(&self, visible: &[usize], short: &[bool], widths: &[usize], limit: usize) -> String {
        let mut t = Table::new();
        t.load_preset(presets::NOTHING)
            .set_style(TableComponent::HeaderLines, '─')
            .force_no_tty()
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(u16::try_from(limit.max(1)).unwrap_or(u16::MAX));
        if self.sectioned {
            t.set_style(TableComponent::HorizontalLines, '─');
        }
        t.set_header(visible.iter().map(|&c| self.cols[c].header));
        for row in &self.rows {
            t.add_row(visible.iter().zip(widths).map(|(&c, &w)| {
                let text = row[c].text(short[c]);
                match self.cols[c].kind {
                    Kind::Text if !self.sectioned => text
                        .lines()
                        .map(|l| cut(l, w))
                        .collect::<Vec<_>>()
                        .join("\n"),
                    _ => text.to_owned(),
                }
            }));
        }
        let mut constraints = Vec::with_capacity(visible.len());
        for (i, (&c, &w)) in visible.iter().zip(widths).enumerate() {
            let column = t.column_mut(i).expect("one column per header");
            // the first column's left padding is the line's leading space
            column.set_padding((1, 1));
            if self.cols[c].kind == Kind::Num {
                column.set_cell_alignment(CellAlignment::Right);
            }
            let w = u16::try_from(w + 2).unwrap_or(u16::MAX);
            constraints.push(ColumnConstraint::Absolute(Width::Fixed(w)));
        }
        t.set_constraints(constraints);
        let mut lines: Vec<String> = t.lines().map(|l| l.trim_end().to_owned()).collect();
        // comfy-table pads the rule under the header like a row: keep it to
        // the table's width, as the lines above and below it
        let rule_width = overhead(visible.len()) + widths.iter().sum::<usize>();
        for l in &mut lines {
            if !l.is_empty() && l.chars().all(|ch| ch == '─') {
                *l = "─".repeat(rule_width);
            }
        }
        lines.join("\n")
    }
}

/// The narrowest a text column gets: `MIN_TEXT`, or its header.
fn text_floor(header: &str) -> usize {
    width(header).max(MIN_TEXT)
}

/// Text columns keep at least this many characters.
const MIN_TEXT: usize = 8;
/// Free text is cut to this width before a column is dropped to make room.
const TEXT_SQUEEZE: usize = 24;

/// Columns a table adds to its cells: one leading space and two between
/// cells.
fn overhead(columns: usize) -> usize {
    (columns * 2).saturating_sub(1)
}

/// Columns on screen: colour escapes (`ESC [ … m`, search highlights)
/// take none, a CJK character two.
fn width(s: &str) -> usize {
    let mut n = 0;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            chars.by_ref().find(|&c| c == 'm');
        } else {
            n += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        }
    }
    n
}

/// At most `max` columns, with `…` when cut; colour escapes are kept whole
/// and reset after a cut, so a highlight never runs on.
fn cut(line: &str, max: usize) -> String {
    if width(line) <= max {
        return line.to_owned();
    }
    let (mut out, mut n, mut coloured) = (String::new(), 0, false);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            out.push(c);
            for e in chars.by_ref() {
                out.push(e);
                if e == 'm' {
                    break;
                }
            }
            coloured = true;
            continue;
        }
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        // room for the `…`
        if n + w + 1 > max {
            break;
        }
        out.push(c);
        n += w;
    }
    out.push('…');
    if coloured {
        out.push_str("\x1b[0m");
    }
    out
}

/// `2025-12-01 00:01:50 (12mo ago)`, or only the age where space is short.
pub fn when(t: Option<DateTime<Utc>>, now: DateTime<Utc>) -> Field {
    match t {
        Some(t) => {
            let age = crate::timefmt::age(t, now);
            Field::from(format!("{} ({age})", crate::timefmt::local(t))).or_short(age)
        }
        None => "-".into(),
    }
}

/// The width of the terminal on stdout: `COLUMNS` when set to a number
/// (as shells and `watch` do), else the terminal's own, else 80.
pub fn terminal_width() -> usize {
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
    {
        return n;
    }
    // SAFETY: TIOCGWINSZ fills the winsize we pass; a failure leaves it 0.
    let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut ws) } == 0;
    if ok && ws.ws_col > 0 {
        ws.ws_col as usize
    } else {
        80
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Grid {
        let mut g = Grid::new(vec![
            Col::id("SESSION"),
            Col::text("WHEN"),
            Col::num("N").optional(1),
            Col::text("NOTE"),
        ]);
        g.row(vec![
            "tui-alice-with-a-long-id".into(),
            Field::from("2025-12-01 00:01:50 (12mo ago)").or_short("12mo ago"),
            "42".into(),
            "a long free-text note that will not fit in a narrow terminal at all".into(),
        ]);
        g
    }

    fn widest(s: &str) -> usize {
        s.lines().map(width).max().unwrap()
    }

    #[test]
    fn wide_terminal_shows_everything_whole() {
        let out = sample().render(Layout::Terminal(200));
        assert!(out.contains("2025-12-01 00:01:50 (12mo ago)"));
        assert!(out.contains("will not fit in a narrow terminal at all"));
        assert!(widest(&out) <= 200);
    }

    #[test]
    fn narrow_terminal_shortens_drops_then_cuts_text_never_ids() {
        let out = sample().render(Layout::Terminal(50));
        assert!(widest(&out) <= 50, "{out}");
        assert!(out.contains("tui-alice-with-a-long-id"), "{out}");
        assert!(
            out.contains("12mo ago") && !out.contains("2025-12-01"),
            "{out}"
        );
        assert!(!out.contains("42"), "the optional column goes: {out}");
        assert!(out.contains('…'), "{out}");
    }

    #[test]
    fn colour_takes_no_width_and_a_cut_resets_it() {
        let hit = "use \x1b[1mlogrotate\x1b[0m daily";
        assert_eq!(width(hit), 19);
        assert_eq!(cut(hit, 8), "use \x1b[1mlog…\x1b[0m");
    }

    #[test]
    fn plain_is_tab_separated_whole_and_unpadded() {
        let mut g = sample().sectioned();
        g.row(vec!["b".into(), "x\ny".into(), "1".into(), "".into()]);
        let out = g.render(Layout::Plain);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "SESSION\tWHEN\tN\tNOTE");
        assert!(
            lines[1].starts_with("tui-alice-with-a-long-id\t2025-12-01 00:01:50 (12mo ago)\t42\t")
        );
        assert_eq!(lines[2], "b\tx; y\t1\t");
    }
}
