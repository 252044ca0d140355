//! `reset SESSION… --mode summary|all`

use anyhow::Result;

use crate::cli::ResetArgs;
use crate::commands::{clear, summarize, targets, Context};
use crate::engine::summarize::DEFAULT_CHUNK_CHARS;
use crate::engine::{reset, sessions};
use crate::error::exit;

pub fn run(ctx: &Context, args: &ResetArgs) -> Result<i32> {
    let targets = targets::resolve(&ctx.root, &args.targets, false)?;
    if targets.is_empty() {
        ctx.out.line("no sessions match; nothing to do")?;
        if ctx.out.json {
            ctx.out.json(&Vec::<()>::new())?;
        }
        return Ok(exit::OK);
    }
    let dirs: Vec<_> = targets.iter().filter_map(|t| t.dir.clone()).collect();
    // --mode summary first merges the conversation into the summary, which
    // needs its files to parse: refuse a broken session before anything
    // changes anywhere. --mode all moves the files to the trash unread, so a
    // session whose history.json or summary.json is corrupt can still be
    // reset — that is exactly when users want it.
    if args.mode == reset::ResetMode::Summary {
        for dir in &dirs {
            sessions::validate(dir)?;
        }
    }
    let mode = serde_json::to_value(args.mode)?;
    let question = format!(
        "Reset {} session(s) ({}) with --mode {}?",
        dirs.len(),
        preview(&dirs.iter().map(|d| d.id.as_str()).collect::<Vec<_>>()),
        mode.as_str().unwrap_or("")
    );
    if !targets::confirm(&args.write, &question)? {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(exit::FINDINGS);
    }
    let ids: Vec<&str> = dirs.iter().map(|d| d.id.as_str()).collect();
    let _guard = clear::begin(ctx, &ids, &args.write)?;
    if args.mode == reset::ResetMode::Summary && !args.write.dry_run {
        // Agenvoy's order: bring the summary up to date, and abort the
        // reset if that fails, so the conversation's gist is never lost.
        let summarizer = summarize::summarizer(&args.llm)?;
        for dir in &dirs {
            if let Err(f) = summarize::refresh(
                ctx,
                dir,
                summarizer.as_ref(),
                false,
                DEFAULT_CHUNK_CHARS,
                false,
            ) {
                return Err(anyhow::Error::new(f.error).context(format!(
                    "{}: summary refresh failed; reset aborted to avoid context loss",
                    dir.id
                )));
            }
        }
    }
    let mut tiers = clear::open_tiers(ctx, &args.write)?;
    let opts = reset::ClearOptions {
        dry_run: args.write.dry_run,
        purge: args.write.purge,
    };
    let mut reports = Vec::with_capacity(dirs.len());
    let bar = ctx.out.progress(dirs.len(), "resetting");
    for dir in &dirs {
        reports.push(reset::reset(&mut tiers, dir, args.mode, opts)?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    clear::render(ctx, &reports)?;
    Ok(exit::OK)
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
