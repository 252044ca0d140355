//! `remove SESSION…`

use anyhow::Result;

use crate::cli::RemoveArgs;
use crate::commands::targets::{self, Resolve};
use crate::commands::via::refuse_options;
use crate::commands::{batch_ui, clear, reset::preview, Context, Done};
use crate::engine::reset::Remove;

pub fn run(ctx: &Context, args: &RemoveArgs) -> Result<Done> {
    // By path, symlinked folders included: rename moves a link as a link,
    // so removing one never touches its target.
    let backend = ctx.backend(args.write.force)?;
    refuse_options(&backend, &[("--purge", args.write.purge)])?;
    let resolved = targets::resolve(&ctx.root, &args.targets, Resolve::Entries)?;
    let op = Remove {
        purge: args.write.purge,
    };
    let ui = batch_ui(ctx, &args.write, resolved.0.len(), |ids| {
        format!("Remove {} session(s) ({})?", ids.len(), preview(ids))
    });
    ctx.run_batch(
        "remove",
        &op,
        resolved,
        ui.through(&backend),
        |r| r.changed,
        |reports| clear::render(ctx, reports),
    )
}
