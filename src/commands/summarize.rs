//! `summarize SESSION…|--all [--rebuild]`: the options become an engine
//! `Summarize` operation run by the batch runner; what the merges taught
//! (a model's real window, a failed reply) is stored and said here.

use anyhow::Result;

use crate::cli::{LlmArgs, SummarizeArgs, SummarizerKind, WriteArgs};
use crate::cli_util::targets::{self, Resolve};
use crate::cli_util::via::refuse_options;
use crate::commands::{batch_ui, Context, Done};
use crate::daemon::Backend;
use crate::engine::batch::SessionError;
use crate::engine::limit_ops::{self as ops, Lesson};
use crate::engine::summarize::op::{Aftermath, Settings, Summarize, SummaryReport};
use crate::engine::summarize::{self, DEFAULT_CHUNK_CHARS};
use crate::error::Error;
use crate::output::preview_ids;
use crate::table::{Col, Field, Grid};

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
    let (found, mut errors) = targets::resolve(&ctx.root, &args.targets, Resolve::Folders)?;
    let mut sessions = Vec::new();
    for t in found {
        match &t.dir {
            // Agenvoy's summary job skips stateless temp- sessions too.
            Some(d) if args.targets.all && d.id.starts_with("temp-") => {}
            Some(_) => sessions.push(t),
            None => errors.push(SessionError {
                error: ctx.root.session(&t.id).unwrap_err(),
                session: t.id,
            }),
        }
    }
    let mut llm = args.llm.clone();
    if args.model.is_some() {
        llm.llm_model = args.model.clone();
    }
    let summarizer = summarize::summarizer(&llm.spec(ctx.offline))?;
    let op = Summarize::new(
        &ctx.root,
        summarizer.as_ref(),
        Settings {
            rebuild: args.rebuild,
            chunk_chars: args.chunk_chars,
            dry_run: args.dry_run,
            via_daemon: matches!(backend, Backend::Daemon(_)),
            all: args.targets.all,
        },
    );
    // Only --rebuild throws a summary away: only it asks first.
    let write = WriteArgs {
        dry_run: args.dry_run,
        yes: args.yes || !args.rebuild,
        purge: false,
        force: args.force,
    };
    let ui = batch_ui(ctx, &write, sessions.len(), |ids, _| {
        format!(
            "Rebuild the summary of {} session(s) ({})?",
            ids.len(),
            preview_ids(ids)
        )
    });
    let done = ctx.run_batch(
        "summarize",
        &op,
        (sessions, errors),
        ui.through(&backend),
        |r| r.count > 0,
        |reports| render(ctx, reports),
    );
    let aftermath = op.aftermath();
    let context_errors: Vec<String> = aftermath
        .iter()
        .flat_map(|a| a.context_errors.iter().cloned())
        .collect();
    learn_limits(ctx, &llm, &context_errors);
    for a in &aftermath {
        tell(ctx, args, a)?;
    }
    if let Err(e) = op.save_up_to_date() {
        ctx.out
            .warn(&format!("could not remember the up-to-date sessions: {e}"));
    }
    done
}

/// Store and say what one session's merge left behind.
fn tell(ctx: &Context, args: &SummarizeArgs, a: &Aftermath) -> Result<()> {
    if let (Some(path), Some(reply)) = (&args.keep_failed, &a.failed_reply) {
        std::fs::write(path, reply).map_err(|e| Error::write(path, e))?;
        ctx.out
            .warn(&format!("the failed reply was saved to {}", path.display()));
    }
    if let Some((chunks, records)) = a.saved_before_failure {
        ctx.out.warn(&format!(
            "{}: {chunks} chunk(s) ({records} record(s)) were merged and saved before the failure; a rerun continues",
            a.session
        ));
    }
    Ok(())
}

/// Context-length errors teach the limits table the model's real window:
/// the smallest limit the run's errors state, learned once (undoable).
fn learn_limits(ctx: &Context, llm: &LlmArgs, context_errors: &[String]) {
    let Some(agent) = llm.spec(ctx.offline).agent() else {
        return;
    };
    let Some(lesson) = Lesson::from_errors(&agent, context_errors) else {
        return;
    };
    // its own operation (undoable on its own), asked for by the run
    let op = ops::Learn {
        root: &ctx.root,
        lesson,
        now: crate::timefmt::now(),
    };
    let go_ahead = crate::cli::WriteArgs {
        yes: true,
        ..crate::cli::WriteArgs::default()
    };
    let ui = crate::commands::batch_ui(ctx, &go_ahead, 1, |_, _| String::new());
    match ctx.run_one(&op, op.target(), ui) {
        Ok(Some(r)) if r.stored => ctx.out.info(&format!(
            "{agent}: learned an input limit of {} from the provider's error",
            r.learned
        )),
        Ok(_) => {}
        Err(e) => ctx
            .out
            .warn(&format!("could not store the learned limit: {e}")),
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
        Col::num("CHUNKS").optional(2),
        Col::id("SUMMARIZER").optional(3),
        Col::id("CURSOR").optional(1),
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
