//! `summarize SESSION…|--all [--rebuild]`

mod refresh;

pub use refresh::{fold_records, refresh, refresh_with, Failure};

use std::time::Duration;

use anyhow::Result;
use serde::Serialize;

use crate::cli::{LlmArgs, SummarizeArgs, SummarizerKind, WriteArgs};
use crate::commands::{targets, Context, Done};
use crate::engine::batch::{self, SessionError};
use crate::engine::limits;
use crate::engine::summarize::Outcome;
use crate::error::{exit, Error};
use crate::llm::http::{HttpSummarizer, Wire};
use crate::llm::offline::Offline;
use crate::llm::Summarizer;
use crate::store::layout::SessionDir;
use crate::store::{limits_cache, lock, runtime};
use crate::table::{Col, Field, Grid};

/// The summarizer the flags ask for. Remote ones need a model name.
pub fn summarizer(args: &LlmArgs) -> crate::Result<Box<dyn Summarizer>> {
    let key = std::env::var("SESSIONCTL_LLM_API_KEY").ok();
    let timeout = Duration::from_secs(args.llm_timeout);
    let remote = |wire, default_url: &str| -> crate::Result<Box<dyn Summarizer>> {
        let model = args.llm_model.clone().ok_or_else(|| {
            Error::usage(
                "a remote summarizer needs a model: pass --llm-model or set SESSIONCTL_LLM_MODEL",
            )
        })?;
        let url = args
            .llm_url
            .clone()
            .unwrap_or_else(|| default_url.to_owned());
        Ok(Box::new(HttpSummarizer::new(
            wire,
            &url,
            &model,
            key.clone(),
            timeout,
        )))
    };
    match args.summarizer {
        SummarizerKind::Offline => Ok(Box::new(Offline)),
        SummarizerKind::Openai => remote(Wire::OpenAi, "https://api.openai.com"),
        SummarizerKind::Anthropic => remote(Wire::Anthropic, "https://api.anthropic.com"),
    }
}

/// The agent name a learned limit is filed under for this backend.
fn agent_of(args: &LlmArgs) -> Option<String> {
    let model = args.llm_model.as_ref()?;
    match args.summarizer {
        SummarizerKind::Offline => None,
        SummarizerKind::Openai => Some(format!("openai@{model}")),
        SummarizerKind::Anthropic => Some(format!("claude@{model}")),
    }
}

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
}

pub fn run(ctx: &Context, args: &SummarizeArgs) -> Result<Done> {
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
            super::reset::preview(&ids)
        );
        if !targets::confirm(&write, &q)? {
            ctx.out.line("aborted; nothing changed")?;
            return Ok(exit::FINDINGS.into());
        }
    }
    let summarizer = summarizer(&args.llm)?;
    if args.dry_run {
        if let Some(w) = runtime::dry_run_warning(&ctx.root) {
            ctx.out.warn(&w);
        }
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
            ctx,
            dir,
            summarizer.as_ref(),
            refresh::Mode {
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
    let Some(agent) = agent_of(llm) else { return };
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
