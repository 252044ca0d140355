//! `reset SESSION… --mode summary|all`

use anyhow::Result;

use crate::cli::ResetArgs;
use crate::cli_util::clear;
use crate::cli_util::targets::{self, Resolve};
use crate::commands::{batch_ui, Context, Done};
use crate::engine::reset::{Refresher, Reset, ResetMode, SummaryRefresher};
use crate::engine::summarize;
use crate::output::preview_ids;

pub fn run(ctx: &Context, args: &ResetArgs) -> Result<Done> {
    let resolved = targets::resolve(&ctx.root, &args.targets, Resolve::Folders)?;
    let summarizer = summarize::summarizer(&args.llm.spec(ctx.offline))?;
    let refresher = Refresher {
        root: &ctx.root,
        summarizer: summarizer.as_ref(),
    };
    let op = Reset {
        mode: args.mode,
        purge: args.write.purge,
        refresher: (args.mode == ResetMode::Summary).then_some(&refresher as &dyn SummaryRefresher),
    };
    let mode = serde_json::to_value(args.mode)?;
    let ui = batch_ui(ctx, &args.write, resolved.0.len(), |ids| {
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
        ui,
        |r| r.changed,
        |reports| clear::render(ctx, reports),
    )
}
