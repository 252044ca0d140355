//! `reset SESSION… --mode summary|all`

use anyhow::Result;

use crate::cli::{ResetArgs, SummarizerKind};
use crate::commands::targets::{self, Resolve};
use crate::commands::via::refuse_options;
use crate::commands::{batch_ui, clear, summarize, Context, Done};
use crate::daemon::Backend;
use crate::engine::reset::{Reset, ResetMode, SummaryRefresher};
use crate::engine::summarize::DEFAULT_CHUNK_CHARS;
use crate::llm::Summarizer;
use crate::store::layout::SessionDir;

pub fn run(ctx: &Context, args: &ResetArgs) -> Result<Done> {
    let backend = ctx.backend(args.write.force)?;
    refuse_options(
        &backend,
        &[
            ("--purge", args.write.purge),
            (
                "--summarizer",
                args.llm.summarizer != SummarizerKind::Offline,
            ),
        ],
    )?;
    // Through the daemon, Agenvoy refreshes the summary itself.
    let refresh = args.mode == ResetMode::Summary && matches!(backend, Backend::Files);
    let resolved = targets::resolve(&ctx.root, &args.targets, Resolve::Folders)?;
    let summarizer = summarize::summarizer(&args.llm)?;
    let refresher = Refresher {
        ctx,
        summarizer: summarizer.as_ref(),
    };
    let op = Reset {
        mode: args.mode,
        purge: args.write.purge,
        refresher: refresh.then_some(&refresher as &dyn SummaryRefresher),
    };
    let mode = serde_json::to_value(args.mode)?;
    let ui = batch_ui(ctx, &args.write, resolved.0.len(), |ids| {
        format!(
            "Reset {} session(s) ({}) with --mode {}?",
            ids.len(),
            preview(ids),
            mode.as_str().unwrap_or("")
        )
    });
    ctx.run_batch(
        "reset",
        &op,
        resolved,
        ui.through(&backend),
        |r| r.changed,
        |reports| clear::render(ctx, reports),
    )
}

/// `--mode summary`: the rolling summary is brought up to date first.
struct Refresher<'a> {
    ctx: &'a Context,
    summarizer: &'a dyn Summarizer,
}

impl Refresher<'_> {
    /// The records the summary lacks: counted (`dry_run`) or merged.
    fn merge(&self, dir: &SessionDir, dry_run: bool) -> crate::Result<usize> {
        summarize::refresh(
            self.ctx,
            dir,
            self.summarizer,
            false,
            DEFAULT_CHUNK_CHARS,
            dry_run,
        )
        .map(|(o, _)| o.count)
        .map_err(|f| f.error)
    }
}

impl SummaryRefresher for Refresher<'_> {
    fn pending(&self, dir: &SessionDir) -> crate::Result<usize> {
        self.merge(dir, true)
    }

    fn refresh(&self, dir: &SessionDir) -> crate::Result<usize> {
        self.merge(dir, false)
    }
}

/// `a, b, c and 7 more`
pub(crate) fn preview(ids: &[&str]) -> String {
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
