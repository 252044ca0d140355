//! `remove SESSION…`

use anyhow::Result;

use crate::cli::RemoveArgs;
use crate::cli_util::clear;
use crate::cli_util::targets::{self, Resolve};
use crate::cli_util::via::refuse_options;
use crate::commands::{batch_ui, Context, Done};
use crate::engine::reset::Remove;
use crate::output::preview_ids;

pub fn run(ctx: &Context, args: &RemoveArgs) -> Result<Done> {
    // By path, symlinked folders included: rename moves a link as a link,
    // so removing one never touches its target.
    let backend = ctx.backend(args.write.force)?;
    refuse_options(&backend, &[("--purge", args.write.purge)])?;
    let resolved = targets::resolve(&ctx.root, &args.targets, Resolve::Entries)?;
    let op = Remove {
        purge: args.write.purge,
    };
    let ui = batch_ui(ctx, &args.write, resolved.0.len(), |ids, _| {
        format!("Remove {} session(s) ({})?", ids.len(), preview_ids(ids))
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
