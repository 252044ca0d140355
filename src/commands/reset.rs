//! `reset SESSION… --mode summary|all`

use anyhow::Result;

use crate::cli::{ResetArgs, SummarizerKind};
use crate::cli_util::clear;
use crate::cli_util::targets::{self, Resolve};
use crate::cli_util::via::refuse_options;
use crate::commands::{batch_ui, Context, Done};
use crate::daemon::Backend;
use crate::engine::reset::{Refresher, Reset, ResetMode, SummaryRefresher};
use crate::engine::summarize;
use crate::output::preview_ids;

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
    let summarizer = summarize::summarizer(&args.llm.spec(ctx.offline))?;
    let refresher = Refresher {
        root: &ctx.root,
        summarizer: summarizer.as_ref(),
    };
    let op = Reset {
        mode: args.mode,
        purge: args.write.purge,
        refresher: refresh.then_some(&refresher as &dyn SummaryRefresher),
    };
    let mode = serde_json::to_value(args.mode)?;
    let ui = batch_ui(ctx, &args.write, resolved.0.len(), |ids, _| {
        format!(
            "Reset {} session(s) ({}) with --mode {}?",
            ids.len(),
            preview_ids(ids),
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
