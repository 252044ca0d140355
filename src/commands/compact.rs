//! `compact SESSION…|--all`: the options become an engine
//! `Compact` operation run by the batch runner.

use std::collections::BTreeSet;
use std::sync::Mutex;

use crate::cli::{CompactArgs, SummarizerKind, WriteArgs};
use crate::cli_util::context_window;
use crate::cli_util::targets::{self, Resolve};
use crate::cli_util::via::refuse_options;
use crate::commands::{batch_ui, Context, Done};
use crate::engine::compact::op::{Compact, CompactReport, Folder, Settings};
use crate::engine::compact::{DEFAULT_KEEP_LAST, DEFAULT_MAX_BYTES};
use crate::engine::summarize;
use crate::llm::Summarizer;
use crate::output::bytes;
use crate::store::history::Record;
use crate::store::layout::SessionDir;
use crate::table::{Col, Field, Grid};
use anyhow::Result;

pub fn run(ctx: &Context, args: &CompactArgs) -> Result<Done> {
    let backend = ctx.backend(args.force)?;
    refuse_options(
        &backend,
        &[
            ("--budget", args.budget.is_some()),
            ("--model", args.model.is_some()),
            ("--max-bytes", args.max_bytes != DEFAULT_MAX_BYTES),
            ("--keep-last", args.keep_last != DEFAULT_KEEP_LAST),
            ("--fold", args.fold),
            ("--for-model", args.for_model.is_some()),
            (
                "--summarizer",
                args.llm.summarizer != SummarizerKind::Offline,
            ),
        ],
    )?;
    let resolved = targets::resolve(&ctx.root, &args.targets, Resolve::Folders)?;
    // A dry run neither fetches nor writes the window table.
    let cache = if args.dry_run {
        context_window::cached(ctx)
    } else {
        context_window::current(ctx)?
    };
    let summarizer = summarize::summarizer(&args.llm.spec(ctx.offline))?;
    let folder = Fold {
        ctx,
        summarizer: summarizer.as_ref(),
    };
    // A guessed window is said once per run, however many sessions use it.
    let warned = Mutex::new(BTreeSet::new());
    let warn = |w: &str| {
        if warned.lock().expect("not poisoned").insert(w.to_owned()) {
            ctx.out.warn(w);
        }
    };
    let op = Compact {
        settings: Settings {
            through_daemon: matches!(backend, crate::daemon::Backend::Daemon(_)),
            ..settings(args)
        },
        cache,
        folder: args.fold.then_some(&folder as &dyn Folder),
        warn: &warn,
        unfinished: Default::default(),
    };
    let write = WriteArgs {
        dry_run: args.dry_run,
        yes: args.yes,
        purge: false,
        force: args.force,
    };
    let ui = batch_ui(ctx, &write, resolved.0.len(), |ids, _| {
        format!(
            "Compact {} session(s) ({})?",
            ids.len(),
            crate::output::preview_ids(ids)
        )
    });
    ctx.run_batch(
        "compact",
        &op,
        resolved,
        ui.through(&backend),
        |r| r.changed,
        |reports| render(ctx, reports),
    )
}

fn settings(args: &CompactArgs) -> Settings {
    Settings {
        model: args.model.clone(),
        budget: args.budget,
        max_bytes: args.max_bytes,
        keep_last: args.keep_last,
        for_model: args.for_model.clone(),
        skip_by_size: args.targets.all,
        dry_run: args.dry_run,
        through_daemon: false,
    }
}

/// `--fold`: the records leaving history.json go into summary.json first.
struct Fold<'a> {
    ctx: &'a Context,
    summarizer: &'a dyn Summarizer,
}

impl Folder for Fold<'_> {
    fn fold(
        &self,
        dir: &SessionDir,
        removed: &[Record],
        dry_run: bool,
        journal: &crate::store::oplog::Journal,
    ) -> crate::Result<usize> {
        summarize::fold_records(
            &self.ctx.root,
            dir,
            removed,
            self.summarizer,
            dry_run,
            journal,
        )
    }
}

fn render(ctx: &Context, reports: &[CompactReport]) -> Result<()> {
    if reports.iter().any(|r| r.dry_run && !r.stages.is_empty()) {
        ctx.out
            .line("dry run: nothing was changed; this is what compact would do")?;
    }
    let tokens = |t: Option<usize>| t.map_or_else(|| "(by size)".to_owned(), |t| t.to_string());
    let mut lines = Vec::new();
    for r in reports {
        let stages = if r.stages.is_empty() {
            "-".to_owned()
        } else {
            r.stages
                .iter()
                .map(|s| format!("{} −{}", s.stage, s.removed))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut result = if r.within_budget && r.stages.is_empty() {
            "within budget".to_owned()
        } else if r.stages.is_empty() {
            "over budget, nothing left to remove".to_owned()
        } else if r.dry_run {
            format!(
                "would remove {} history record(s), {} ToriiDB key(s)",
                r.removed_records, r.removed_torii_keys
            )
        } else {
            format!(
                "removed {} history record(s), {} ToriiDB key(s); {} newly archived",
                r.removed_records, r.removed_torii_keys, r.archived_new
            )
        };
        if !r.task_histories_saved.is_empty() {
            result.push_str(&format!(
                "; {} task histor{} {} kept in the trash as {} {}",
                r.task_histories_saved.len(),
                if r.task_histories_saved.len() == 1 {
                    "y"
                } else {
                    "ies"
                },
                if r.dry_run { "would be" } else { "were" },
                if r.dry_run { "they are" } else { "they were" },
                r.trash
                    .as_ref()
                    .map(|t| format!("({})", ctx.root.relative(t)))
                    .unwrap_or_default()
            ));
        }
        if r.still_over && !r.stages.is_empty() {
            result.push_str("; still over: only protected turns remain");
        }
        if let Some(m) = &r.model_switch {
            let verb = if m.applied { "set" } else { "would set" };
            result.push_str(&format!("; {verb} config.json model to {}", m.to));
        }
        if let Some(op) = &r.completes {
            let verb = if r.dry_run {
                "would complete"
            } else {
                "completed"
            };
            result.push_str(&format!("; {verb} the compact {op} left unfinished"));
        }
        lines.push(Line {
            session: r.session.clone(),
            model: r.model.clone(),
            window_source: serde_json::to_value(r.window_source)?
                .as_str()
                .unwrap_or("")
                .to_owned(),
            budget: r.budget.to_string(),
            tokens_before: tokens(r.tokens_before),
            tokens_after: tokens(r.tokens_after),
            size: if r.bytes_before == r.bytes_after {
                bytes(r.bytes_before)
            } else {
                format!("{} → {}", bytes(r.bytes_before), bytes(r.bytes_after))
            },
            stages,
            result,
        });
    }
    ctx.out.grid(&grid(lines))?;
    Ok(())
}

/// One session's row, already in words.
struct Line {
    session: String,
    /// `claude@claude-sonnet-4-5`
    model: String,
    /// Where the window came from: `table`, `learned`, `guess`, …
    window_source: String,
    budget: String,
    tokens_before: String,
    tokens_after: String,
    size: String,
    stages: String,
    result: String,
}

/// Narrow terminals keep the session, the token change and the result;
/// the window source, stages and size go first.
fn grid(lines: impl IntoIterator<Item = Line>) -> Grid {
    let mut g = Grid::new(vec![
        Col::id("SESSION"),
        Col::id("MODEL").optional(3),
        Col::num("BUDGET").optional(2),
        // tokens before and after; with a 56-character session id only after fits
        Col::num("BEFORE").optional(1),
        Col::num("AFTER"),
        Col::id("SIZE").optional(4),
        Col::text("STAGES").optional(5),
        Col::text("RESULT"),
    ]);
    for l in lines {
        g.row(vec![
            l.session.into(),
            Field::from(format!("{} ({})", l.model, l.window_source)).or_short(l.model),
            l.budget.into(),
            l.tokens_before.into(),
            l.tokens_after.into(),
            l.size.into(),
            l.stages.into(),
            l.result.into(),
        ]);
    }
    g
}
