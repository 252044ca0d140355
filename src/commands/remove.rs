//! `remove SESSION…`

use anyhow::Result;

use crate::cli::RemoveArgs;
use crate::commands::targets::{self, Resolve};
use crate::commands::{batch_ui, clear, reset::preview, Context, Done};
use crate::engine::batch;
use crate::engine::reset::Remove;

pub fn run(ctx: &Context, args: &RemoveArgs) -> Result<Done> {
    // By path, symlinked folders included: rename moves a link as a link,
    // so removing one never touches its target.
    let (targets, mut errors) = targets::resolve(&ctx.root, &args.targets, Resolve::Entries)?;
    let op = Remove {
        purge: args.write.purge,
    };
    let ui = batch_ui(ctx, &args.write, targets.len(), |ids| {
        format!("Remove {} session(s) ({})?", ids.len(), preview(ids))
    });
    let mut outcome = batch::run(&op, &ctx.root, targets, ui.options(args.write.force), &ui)?;
    ui.finish();
    errors.append(&mut outcome.errors);
    outcome.errors = errors;
    ctx.finish_batch(
        "remove",
        &outcome,
        |r| r.changed,
        |reports| clear::render(ctx, reports),
    )
}
