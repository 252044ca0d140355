//! `summarize SESSION…|--all [--rebuild]`

use anyhow::Result;
use serde::Serialize;

use crate::cli::{LlmArgs, SummarizeArgs, SummarizerKind, WriteArgs};
use crate::cli_util::targets;
use crate::cli_util::via::refuse_options;
use crate::commands::{Context, Done};
use crate::daemon::{Backend, Daemon};
use crate::engine::batch::{self, SessionError};
use crate::engine::limits;
use crate::engine::summarize::{self, refresh_with, Failure, Outcome, DEFAULT_CHUNK_CHARS};
use crate::error::{exit, Error};
use crate::output::preview_ids;
use crate::store::layout::SessionDir;
use crate::store::{limits_cache, lock, runtime};
use crate::table::{Col, Field, Grid};

#[derive(Debug, Serialize)]
pub struct SummaryReport {
    pub session: String,
    /// Records merged (or, in a dry run, that would be).
    pub count: usize,
    pub chunks: usize,
    pub summarizer: &'static str,
    pub cursor: Option<String>,
    pub cursor_before: Option<String>,
    pub rebuild: bool,
    pub dry_run: bool,
    /// `daemon` when Agenvoy's daemon merged (`count` is its number).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'static str>,
}

pub fn run(ctx: &Context, args: &SummarizeArgs) -> Result<Done> {
    let backend = ctx.backend(args.force)?;
    refuse_options(
        &backend,
        &[
            ("--rebuild", args.rebuild),
            (
                "--summarizer",
                args.llm.summarizer != SummarizerKind::Offline,
            ),
            ("--chunk-chars", args.chunk_chars != DEFAULT_CHUNK_CHARS),
            ("--keep-failed", args.keep_failed.is_some()),
        ],
    )?;
    let (targets, mut errors) =
        targets::resolve(&ctx.root, &args.targets, targets::Resolve::Folders)?;
    let mut dirs: Vec<SessionDir> = Vec::new();
    for t in targets {
        match t.dir {
            // Agenvoy's summary job skips stateless temp- sessions too.
            Some(d) if args.targets.all && d.id.starts_with("temp-") => {}
            Some(d) => dirs.push(d),
            None => errors.push(SessionError {
                error: ctx.root.session(&t.id).unwrap_err(),
                session: t.id,
            }),
        }
    }
    if args.rebuild {
        let write = WriteArgs {
            dry_run: args.dry_run,
            yes: args.yes,
            purge: false,
            force: false,
        };
        let ids: Vec<&str> = dirs.iter().map(|d| d.id.as_str()).collect();
        let q = format!(
            "Rebuild the summary of {} session(s) ({})?",
            ids.len(),
            preview_ids(&ids)
        );
        if !targets::confirm(&write, &q)? {
            ctx.out.line("aborted; nothing changed")?;
            return Ok(exit::FINDINGS.into());
        }
    }
    let summarizer = summarize::summarizer(&args.llm.spec(ctx.offline))?;
    match &backend {
        Backend::Daemon(d) if !args.dry_run => {
            let (reports, mut failed) = through_daemon(ctx, &dirs, d);
            errors.append(&mut failed);
            let outcome = batch::Outcome {
                results: reports,
                errors,
                declined: false,
            };
            return ctx.finish_batch(
                "summarize",
                &outcome,
                |r| r.count > 0,
                |reports| render(ctx, reports),
            );
        }
        Backend::Daemon(d) => ctx.out.warn(&format!(
            "Agenvoy is running: the real run goes through its daemon at {}, which decides the exact numbers; this plan is read from the files",
            d.url()
        )),
        Backend::Files if args.dry_run => {
            if let Some(w) = runtime::dry_run_warning(&ctx.root) {
                ctx.out.warn(&w);
            }
        }
        Backend::Files => {}
    }
    // summary.json is Agenvoy's too: refuse to write while it runs, as every
    // writer does, but only once there is something to write, so that a
    // cron run on an up-to-date root stays quiet.
    let mut checked = false;
    let mut before_write = || -> crate::Result<()> {
        if !checked {
            runtime::ensure_not_running(&ctx.root, args.force)?;
            checked = true;
        }
        Ok(())
    };
    let mut reports = Vec::new();
    let bar = ctx.out.progress(dirs.len(), "summarizing");
    for dir in &dirs {
        // One session's failure (a held lock, a corrupt file, a summarizer
        // error) is reported and the batch goes on.
        let lock = if args.dry_run {
            Ok(None)
        } else {
            lock::session(&ctx.root, &dir.id).map(Some)
        };
        let _lock = match lock {
            Ok(l) => l,
            Err(error) => {
                errors.push(SessionError {
                    session: dir.id.clone(),
                    error,
                });
                bar.inc(1);
                continue;
            }
        };
        let result = refresh_with(
            &ctx.root,
            dir,
            summarizer.as_ref(),
            summarize::Mode {
                rebuild: args.rebuild,
                chunk_chars: args.chunk_chars,
                dry_run: args.dry_run,
            },
            &mut before_write,
        );
        let (outcome, rebuild) = match result {
            Ok(r) => r,
            Err(Failure { error, outcome }) => {
                learn_limits(ctx, &args.llm, &outcome);
                if let (Some(path), Some(reply)) = (&args.keep_failed, &outcome.failed_reply) {
                    std::fs::write(path, reply).map_err(|e| Error::write(path, e))?;
                    ctx.out
                        .warn(&format!("the failed reply was saved to {}", path.display()));
                }
                if outcome.chunks > 0 {
                    ctx.out.warn(&format!(
                        "{}: {} chunk(s) ({} record(s)) were merged and saved before the failure; a rerun continues",
                        dir.id, outcome.chunks, outcome.count
                    ));
                }
                errors.push(SessionError {
                    session: dir.id.clone(),
                    error,
                });
                bar.inc(1);
                continue;
            }
        };
        learn_limits(ctx, &args.llm, &outcome);
        reports.push(SummaryReport {
            session: dir.id.clone(),
            count: outcome.count,
            chunks: outcome.chunks,
            summarizer: summarizer.name(),
            cursor: outcome.cursor_after.clone(),
            cursor_before: outcome.cursor_before.clone(),
            rebuild,
            dry_run: args.dry_run,
            via: None,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    let outcome = batch::Outcome {
        results: reports,
        errors,
        declined: false,
    };
    ctx.finish_batch(
        "summarize",
        &outcome,
        |r| r.count > 0,
        |reports| render(ctx, reports),
    )
}

/// Context-length errors teach the limits table the model's real window.
fn learn_limits(ctx: &Context, llm: &LlmArgs, outcome: &Outcome) {
    let Some(agent) = llm.spec(ctx.offline).agent() else {
        return;
    };
    for text in &outcome.context_errors {
        let Some((limit, evidence)) = limits::parse_overflow_error(text, None) else {
            continue;
        };
        let stored = lock::limits(&ctx.root).and_then(|_lock| {
            let mut cache =
                limits_cache::load(&ctx.root)?.unwrap_or_else(limits::LimitsCache::builtin);
            if limits::learn(&mut cache, &agent, limit, evidence, chrono::Utc::now()) {
                limits_cache::save(&ctx.root, &cache)?;
            }
            Ok(())
        });
        match stored {
            Ok(()) => ctx.out.info(&format!(
                "{agent}: learned an input limit of {limit} from the provider's error"
            )),
            Err(e) => ctx
                .out
                .warn(&format!("could not store the learned limit: {e}")),
        }
    }
}

fn render(ctx: &Context, reports: &[SummaryReport]) -> Result<()> {
    if reports.first().is_some_and(|r| r.dry_run) {
        ctx.out
            .line("dry run: nothing was changed; this is what would be merged")?;
    }
    let mut t = Grid::new(vec![
        Col::id("SESSION"),
        Col::num("MERGED"),
        Col::num("CHUNKS").optional(1),
        Col::id("SUMMARIZER").optional(2),
        Col::id("CURSOR"),
    ]);
    for r in reports {
        let cursor = match (&r.cursor_before, &r.cursor) {
            (Some(a), Some(b)) if a != b => format!("{a} → {b}"),
            (None, Some(b)) => format!("(none) → {b}"),
            (_, Some(b)) => b.clone(),
            (_, None) => "-".into(),
        };
        // The new cursor alone where the move does not fit.
        let now_at = r.cursor.clone().unwrap_or_else(|| "-".into());
        t.row(vec![
            (&r.session).into(),
            if r.count == 0 {
                "nothing new".to_owned()
            } else {
                r.count.to_string()
            }
            .into(),
            r.chunks.to_string().into(),
            r.summarizer.into(),
            Field::from(cursor).or_short(now_at),
        ]);
    }
    ctx.out.grid(&t)?;
    Ok(())
}

/// `summarize` through the daemon: each session with records after its
/// cursor (counted from the files, read-only) gets one request, two at a
/// time; Agenvoy merges and reports its count.
fn through_daemon(
    ctx: &Context,
    dirs: &[SessionDir],
    daemon: &Daemon,
) -> (Vec<SummaryReport>, Vec<SessionError>) {
    let done = crate::daemon::bounded(dirs, |dir| -> crate::Result<SummaryReport> {
        let count = match summarize::pending(&ctx.root, dir)? {
            0 => None,
            _ => match daemon.memory(&dir.id, "summary", None)? {
                crate::daemon::Done::Count(n) => Some(n as usize),
                crate::daemon::Done::Started => Some(0),
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
