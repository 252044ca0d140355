//! Writes while Agenvoy runs (issue 17): which backend, the options the
//! daemon's API cannot honour, and the commands' daemon paths that are not
//! batch operations (summarize, errors list/edit).

use comfy_table::Cell;
use serde_json::Value;

use crate::cli::ErrorsListArgs;
use crate::daemon::{Backend, Daemon, Done, Via};
use crate::engine::batch::SessionError;
use crate::engine::summarize::DEFAULT_CHUNK_CHARS;
use crate::error::{Error, Result};
use crate::llm::offline::Offline;
use crate::output::head_cut;
use crate::store::layout::SessionDir;

use super::summarize::{self, SummaryReport};
use super::Context;

impl Context {
    /// The backend writes use (`--via`), decided once per command. Under
    /// `--via auto`, `--force` means the files, as it always did.
    pub(crate) fn backend(&self, force: bool) -> Result<Backend> {
        let via = match self.daemon.via {
            Via::Auto if force => Via::Files,
            v => v,
        };
        crate::daemon::choose(
            &self.root,
            via,
            &self.daemon.daemon_url,
            self.daemon.timeout(),
        )
    }
}

/// Read commands keep reading the files (complete and safe); with -v they
/// say when Agenvoy runs, since what they read may be mid-update.
pub(crate) fn note_running(ctx: &Context) {
    if !ctx.out.verbose {
        return;
    }
    if let Ok(running) = crate::store::runtime::find_running(&ctx.root) {
        if let Some(r) = running.first() {
            ctx.out.info(&format!(
                "Agenvoy is running (pid {}, {}): what is read here may be mid-update",
                r.pid, r.how
            ));
        }
    }
}

/// Refuse (75) the first option in `given` that is set: the daemon's API
/// cannot honour it, and ignoring it silently would do something else
/// than asked.
pub(crate) fn refuse_options(backend: &Backend, given: &[(&str, bool)]) -> Result<()> {
    if !matches!(backend, Backend::Daemon(_)) {
        return Ok(());
    }
    match given.iter().find(|(_, set)| *set) {
        None => Ok(()),
        Some((option, _)) => Err(Error::busy(format!(
            "Agenvoy is running and its daemon cannot honour {option}"
        ))
        .with_hint(format!(
            "stop the Agenvoy TUI and `agenvoy --daemon`, then retry with --via files to use {option}"
        ))),
    }
}

/// `summarize` through the daemon: each session with records after its
/// cursor (counted from the files, read-only) gets one request, two at a
/// time; Agenvoy merges and reports its count.
pub(crate) fn summarize(
    ctx: &Context,
    dirs: &[SessionDir],
    daemon: &Daemon,
) -> (Vec<SummaryReport>, Vec<SessionError>) {
    let pending = |dir: &SessionDir| {
        summarize::refresh(ctx, dir, &Offline, false, DEFAULT_CHUNK_CHARS, true)
            .map(|(o, _)| o.count)
            .map_err(|f| f.error)
    };
    let done = crate::daemon::bounded(dirs, |dir| -> Result<SummaryReport> {
        let count = match pending(dir)? {
            0 => None,
            _ => match daemon.memory(&dir.id, "summary", None)? {
                Done::Count(n) => Some(n as usize),
                Done::Started => Some(0),
            },
        };
        Ok(SummaryReport {
            session: dir.id.clone(),
            count: count.unwrap_or(0),
            chunks: 0,
            summarizer: "agenvoy",
            cursor: None,
            cursor_before: None,
            rebuild: false,
            dry_run: false,
            via: count.map(|_| "daemon"),
        })
    });
    let mut reports = Vec::new();
    let mut errors = Vec::new();
    for (dir, r) in dirs.iter().zip(done) {
        match r {
            Ok(report) => reports.push(report),
            Err(error) => errors.push(SessionError {
                session: dir.id.clone(),
                error,
            }),
        }
    }
    (reports, errors)
}

/// `errors list --via daemon`: `GET /v1/torii/error`, the records as the
/// daemon lists them (a search with --tool/--keyword).
pub(crate) fn errors_list(ctx: &Context, args: &ErrorsListArgs) -> anyhow::Result<super::Done> {
    let backend = ctx.backend(false)?;
    let Backend::Daemon(daemon) = &backend else {
        unreachable!("--via daemon never chooses the files")
    };
    if args.outcome.is_some() || args.expired {
        let option = if args.expired {
            "--expired"
        } else {
            "--outcome"
        };
        refuse_options(&backend, &[(option, true)])?;
    }
    let mut query = Vec::new();
    if let Some(n) = args.limit {
        // the daemon's own cap
        query.push(("limit", n.min(200).to_string()));
    }
    if let Some(t) = &args.tool {
        query.push(("tool", t.clone()));
    }
    if let Some(k) = &args.keyword {
        query.push(("keyword", k.clone()));
    }
    let records = daemon.error_records(&query)?;
    if ctx.out.json {
        ctx.out.envelope("errors list", false, &records, &[])?;
    } else if records.is_empty() {
        ctx.out.line("no error records match")?;
    } else {
        let text = |r: &Value, k: &str| match &r[k] {
            Value::String(s) => s.clone(),
            Value::Array(a) => a
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .collect::<Vec<_>>()
                .join(", "),
            Value::Null => String::new(),
            v => v.to_string(),
        };
        let mut t = ctx
            .out
            .new_table(&["ID", "TOOL", "KEYWORDS", "SYMPTOM", "ACTION", "OUTCOME"]);
        for r in &records {
            t.add_row(
                [
                    "id",
                    "tool_name",
                    "keywords",
                    "symptom",
                    "action",
                    "outcome",
                ]
                .iter()
                .map(|k| Cell::new(head_cut(&text(r, k), 40)))
                .collect::<Vec<_>>(),
            );
        }
        ctx.out.table(&t)?;
    }
    Ok(super::Done::default())
}
