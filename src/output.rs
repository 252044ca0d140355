//! Rendering for people (tables) and scripts (`--json`, one object per
//! line). Every write returns `io::Result`, so a closed pipe (`| head`)
//! ends the program quietly instead of panicking.

use std::io::{self, IsTerminal, Write};

use serde::Serialize;

use crate::table::{Grid, Layout};

#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub json: bool,
    pub quiet: bool,
    pub verbose: bool,
    pub color: bool,
    pub tty: bool,
}

impl Output {
    pub fn new(json: bool, quiet: bool, verbose: bool, color: bool) -> Self {
        Output {
            json,
            quiet,
            verbose,
            color,
            tty: io::stdout().is_terminal(),
        }
    }

    pub fn json<T: Serialize + ?Sized>(&self, value: &T) -> io::Result<()> {
        // stdout is line-buffered through 1 KiB: a big listing would be
        // tens of thousands of small writes.
        let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
        serde_json::to_writer(&mut out, value).map_err(io::Error::from)?;
        out.write_all(b"\n")?;
        out.flush()
    }

    /// A line for people; suppressed by --quiet and in --json mode.
    pub fn line(&self, text: &str) -> io::Result<()> {
        if self.quiet || self.json {
            return Ok(());
        }
        let mut out = io::stdout().lock();
        writeln!(out, "{text}")?;
        out.flush()
    }

    /// A summary line under a table: on a terminal only, so piped output
    /// is the rows alone (easy to cut, sort and count).
    pub fn footer(&self, text: &str) -> io::Result<()> {
        if self.tty {
            self.line(text)
        } else {
            Ok(())
        }
    }

    /// Fitted to the terminal's width, or tab-separated when piped.
    pub fn layout(&self) -> Layout {
        if self.tty {
            Layout::Terminal(crate::table::terminal_width())
        } else {
            Layout::Plain
        }
    }

    pub fn grid(&self, grid: &Grid) -> io::Result<()> {
        self.line(&grid.render(self.layout()))
    }

    /// Warnings go to stderr so JSON on stdout stays parseable.
    pub fn warn(&self, text: &str) {
        if !self.quiet {
            eprintln!("sessionctl: warning: {text}");
        }
    }

    /// A session's problem that does not stop the command (it still
    /// lists or shows the rest): a warning with its hint on stderr.
    pub fn problem(&self, entry: &ErrorEntry) {
        self.warn(&entry.message);
        if let (Some(h), false) = (&entry.hint, self.quiet) {
            eprintln!("  hint: {h}");
        }
    }

    pub fn info(&self, text: &str) {
        if self.verbose && !self.quiet {
            eprintln!("sessionctl: {text}");
        }
    }

    /// A progress bar for batch work: drawn on stderr when it is a terminal,
    /// hidden otherwise (cron logs stay clean) and for a single item.
    pub fn progress(&self, len: usize, what: &str) -> indicatif::ProgressBar {
        if self.quiet || len < 2 || !io::stderr().is_terminal() {
            return indicatif::ProgressBar::hidden();
        }
        let bar = indicatif::ProgressBar::new(len as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar.set_message(what.to_owned());
        bar
    }
}

/// The one JSON document every command prints with `--json`, whatever the
/// number of sessions: see docs/json.md.
#[derive(Debug, Serialize)]
pub struct Envelope<'a, R: Serialize> {
    /// Bumped only when a field changes meaning or goes away.
    pub schema: u32,
    pub command: &'a str,
    /// No errors: every session (or the one thing asked) succeeded.
    pub ok: bool,
    pub dry_run: bool,
    pub results: &'a [R],
    pub errors: &'a [ErrorEntry],
    /// What the user should know that is no failure (a guessed window,
    /// a smaller window kept out); empty for most runs.
    pub warnings: &'a [String],
}

pub const SCHEMA: u32 = 1;

/// One failure: of a session in a batch (`session` set), or of the whole
/// command (`session` null).
#[derive(Debug, Clone, Serialize)]
pub struct ErrorEntry {
    pub session: Option<String>,
    pub code: i32,
    pub message: String,
    pub file: Option<String>,
    pub hint: Option<String>,
}

impl ErrorEntry {
    pub fn new(session: Option<&str>, e: &crate::Error) -> Self {
        ErrorEntry {
            session: session.map(str::to_owned),
            code: e.exit_code(),
            message: e.to_string(),
            file: e.path().map(|p| p.display().to_string()),
            hint: Some(e.hint()),
        }
    }

    /// A file of `session` that could not be read as it should (the
    /// command goes on with what it could read): exit 65, and its check.
    pub fn session_problem(session: &str, message: String) -> Self {
        ErrorEntry {
            session: Some(session.to_owned()),
            code: crate::error::exit::DATA,
            message,
            file: None,
            hint: Some(format!(
                "nothing was changed; `sessionctl check {session}` says what is wrong with the session"
            )),
        }
    }

    /// A command's failure, from the error chain main reports.
    pub fn of_failure(err: &anyhow::Error) -> Self {
        match err.chain().find_map(|e| e.downcast_ref::<crate::Error>()) {
            Some(ours) => ErrorEntry {
                message: format!("{err:#}"),
                ..ErrorEntry::new(None, ours)
            },
            None => ErrorEntry {
                session: None,
                code: crate::error::exit::SOFTWARE,
                message: format!("{err:#}"),
                file: None,
                hint: Some(
                    "an unexpected failure: run it again with -v and report the output \
                     with the command line"
                        .into(),
                ),
            },
        }
    }
}

impl Output {
    /// Print the envelope (with --json). Results are in the order given.
    pub fn envelope<R: Serialize>(
        &self,
        command: &str,
        dry_run: bool,
        results: &[R],
        errors: &[ErrorEntry],
    ) -> io::Result<()> {
        self.envelope_warning(command, dry_run, results, errors, &[])
    }

    /// `envelope`, with warnings for the `warnings` field.
    pub fn envelope_warning<R: Serialize>(
        &self,
        command: &str,
        dry_run: bool,
        results: &[R],
        errors: &[ErrorEntry],
        warnings: &[String],
    ) -> io::Result<()> {
        self.json(&Envelope {
            schema: SCHEMA,
            command,
            ok: errors.is_empty(),
            dry_run,
            results,
            errors,
            warnings,
        })
    }

    /// `envelope` (no errors, no warnings) of results serialised already,
    /// one JSON value each, written in order through one buffer: a long
    /// listing need not be held as values to be printed. The envelope
    /// around them is `Envelope`'s own serialisation.
    pub fn envelope_serialised<'r>(
        &self,
        command: &str,
        dry_run: bool,
        results: impl IntoIterator<Item = &'r [u8]>,
    ) -> io::Result<()> {
        let shell = serde_json::to_vec(&Envelope::<()> {
            schema: SCHEMA,
            command,
            ok: true,
            dry_run,
            results: &[],
            errors: &[],
            warnings: &[],
        })
        .map_err(io::Error::from)?;
        const EMPTY: &[u8] = b"\"results\":[]";
        let at = memchr::memmem::find(&shell, EMPTY).expect("the envelope has a results field")
            + EMPTY.len()
            - 1;
        let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
        out.write_all(&shell[..at])?;
        for (i, r) in results.into_iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            out.write_all(r)?;
        }
        out.write_all(&shell[at..])?;
        out.write_all(b"\n")?;
        out.flush()
    }

    /// Without --json, each failed session is one line on stderr.
    pub fn session_errors(&self, errors: &[ErrorEntry]) {
        if self.json {
            return;
        }
        for e in errors {
            eprintln!(
                "sessionctl: error: {}: {}",
                e.session.as_deref().unwrap_or("-"),
                e.message
            );
            if let Some(h) = &e.hint {
                eprintln!("  hint: {h}");
            }
        }
    }
}

/// `12.3 KiB`
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// `a, b, c and 7 more`: the sessions a confirmation question names.
pub fn preview_ids(ids: &[&str]) -> String {
    const SHOWN: usize = 3;
    let mut s = ids
        .iter()
        .take(SHOWN)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if ids.len() > SHOWN {
        s.push_str(&format!(" and {} more", ids.len() - SHOWN));
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_summary_outline_shows_the_identifiers_of_each_discussion() {
        let v = serde_json::json!({
            "key_decisions": [],
            "current_discussion": {"topic": "load test", "refs": ["k6 v0.52.0", "MR !412"]},
            "past_discussions": [{"topic": "schema", "description": "d.", "refs": ["pgx v5.6.0"]}]
        });
        let lines: Vec<String> = super::summary_outline(v.as_object().unwrap())
            .into_iter()
            .filter_map(|l| match l {
                super::Outline::Text(t) => Some(t),
                _ => None,
            })
            .collect();
        assert!(
            lines.contains(&"  refs: k6 v0.52.0; MR !412".to_owned()),
            "{lines:?}"
        );
        assert!(
            lines.contains(&"    refs: pgx v5.6.0".to_owned()),
            "{lines:?}"
        );
    }

    #[test]
    fn byte_sizes() {
        assert_eq!(super::bytes(512), "512 B");
        assert_eq!(super::bytes(1536), "1.5 KiB");
        assert_eq!(super::bytes(5 * 1024 * 1024), "5.0 MiB");
    }
}

/// One line of a rolling summary laid out for reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outline {
    Blank,
    Heading(String),
    Text(String),
}

/// summary.json's fields as `show --summary` and the view's summary tab
/// both present them: key decisions, the current discussion, the past ones,
/// then whatever else a legacy or hand-edited summary holds, as JSON.
pub fn summary_outline(fields: &serde_json::Map<String, serde_json::Value>) -> Vec<Outline> {
    use serde_json::Value;
    let text = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let scalar = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    // (the identifiers the offline summarizer keeps per discussion)
    let refs = |v: Option<&Value>| {
        let items: Vec<String> = v?.as_array()?.iter().map(scalar).collect();
        (!items.is_empty()).then(|| items.join("; "))
    };
    let none = || Outline::Text("  (none)".into());
    let mut out = vec![Outline::Blank, Outline::Heading("Key decisions".into())];
    let decisions = fields.get("key_decisions").and_then(Value::as_array);
    match decisions.filter(|d| !d.is_empty()) {
        Some(d) => out.extend(
            d.iter()
                .map(|x| Outline::Text(format!("  • {}", scalar(x)))),
        ),
        None => out.push(none()),
    }
    out.push(Outline::Blank);
    out.push(Outline::Heading("Current discussion".into()));
    match fields.get("current_discussion").and_then(Value::as_object) {
        Some(c) => {
            for (label, key) in [
                ("topic", "topic"),
                ("about", "description"),
                ("open questions", "perspectives"),
                ("direction", "direction"),
            ] {
                if let Some(t) = text(c.get(key)) {
                    out.push(Outline::Text(format!("  {label}: {t}")));
                }
            }
            if let Some(r) = refs(c.get("refs")) {
                out.push(Outline::Text(format!("  refs: {r}")));
            }
        }
        None => out.push(none()),
    }
    out.push(Outline::Blank);
    out.push(Outline::Heading("Past discussions".into()));
    let past = fields.get("past_discussions").and_then(Value::as_array);
    match past.filter(|p| !p.is_empty()) {
        Some(p) => {
            for d in p {
                let topic = text(d.get("topic")).unwrap_or_else(|| "(no topic)".into());
                let when = text(d.get("last_discussed"))
                    .map(|w| format!(" ({w})"))
                    .unwrap_or_default();
                out.push(Outline::Text(format!("  • {topic}{when}")));
                for key in ["description", "direction"] {
                    if let Some(t) = text(d.get(key)) {
                        out.push(Outline::Text(format!("    {t}")));
                    }
                }
                if let Some(r) = refs(d.get("refs")) {
                    out.push(Outline::Text(format!("    refs: {r}")));
                }
            }
        }
        None => out.push(none()),
    }
    let known = ["key_decisions", "current_discussion", "past_discussions"];
    for (k, val) in fields.iter().filter(|(k, _)| !known.contains(&k.as_str())) {
        out.push(Outline::Blank);
        out.push(Outline::Heading(k.clone()));
        let pretty = serde_json::to_string_pretty(val).unwrap_or_default();
        out.extend(pretty.lines().map(|l| Outline::Text(format!("  {l}"))));
    }
    out
}
