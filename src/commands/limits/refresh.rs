//! `limits refresh`: fetch a source, merge it into the cache, ask before
//! shrinking.

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::Result;
use chrono::{DateTime, Utc};

use crate::cli::{RefreshArgs, WriteArgs};
use crate::cli_util::context_window::{parse, preview_changes};
use crate::cli_util::targets;
use crate::commands::Context;
use crate::engine::limit_ops as ops;
use crate::engine::limits::refresh::RefreshReport;
use crate::engine::limits::{Change, Source};
use crate::error::{exit, Error};
use crate::table::{Col, Grid};
use crate::{net, timefmt};

/// What becomes of the smaller windows a source offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ShrinkDecision {
    /// None offered, --yes, or yes on the terminal.
    Apply,
    /// Asked on the terminal, and the answer was no.
    Declined,
    /// Nobody to ask and no --yes: kept at the old values.
    NoTerminal,
    /// A dry run applies nothing.
    DryRun,
}

/// Apply the shrinks? `--yes` says yes; a terminal is asked (on stderr,
/// so JSON on stdout stays clean); otherwise they are kept out.
fn decide_shrinks(args: &RefreshArgs, shrinks: &[Change]) -> Result<ShrinkDecision> {
    if shrinks.is_empty() || args.yes {
        return Ok(ShrinkDecision::Apply);
    }
    if args.dry_run {
        return Ok(ShrinkDecision::DryRun);
    }
    if !std::io::stdin().is_terminal() {
        return Ok(ShrinkDecision::NoTerminal);
    }
    let write = WriteArgs {
        dry_run: false,
        yes: false,
        purge: false,
        force: false,
    };
    let question = format!(
        "The source says {} window(s) are smaller than ours ({}). \
         Apply the smaller windows (compaction starts sooner)?",
        shrinks.len(),
        preview_changes(shrinks)
    );
    Ok(if targets::confirm(&write, &question)? {
        ShrinkDecision::Apply
    } else {
        ShrinkDecision::Declined
    })
}

pub fn refresh(ctx: &Context, args: &RefreshArgs) -> Result<i32> {
    if ctx.offline {
        return Err(
            Error::usage("`limits refresh` fetches from the network; drop --offline").into(),
        );
    }
    let url = args
        .url
        .clone()
        .unwrap_or_else(|| args.source.default_url().to_owned());
    let token = match &args.token_env {
        Some(name) => Some(std::env::var(name).map_err(|_| {
            Error::usage(format!(
                "environment variable {name} (from --token-env) is not set"
            ))
        })?),
        None if args.source == Source::Copilot => {
            return Err(
                Error::usage("the copilot source needs a token: pass --token-env NAME").into(),
            )
        }
        None => None,
    };
    let spinner = ctx.out.progress(2, "fetching");
    spinner.set_position(1);
    let now = timefmt::now();
    let fetched = net::get(&url, Duration::from_secs(args.timeout), token.as_deref())
        // net's hint offers --offline, which this command refuses.
        .map_err(|e| match e {
            Error::Unavailable { .. } => e.with_hint(
                "check the network, --url or --timeout; until then the cached table serves",
            ),
            other => other,
        })
        .and_then(|body| parse(args.source, &url, &body));
    spinner.finish_and_clear();
    let fetched = match fetched {
        Ok(f) => f,
        Err(e) => {
            if !args.dry_run {
                // Keep the table; only hold off automatic fetches for a while.
                ops::update_cache(&ctx.root, |c| c.record_failed_fetch(now))?;
            }
            return Err(e.into());
        }
    };
    let mut op = ops::RefreshLimits {
        root: &ctx.root,
        fetched,
        source: args.source,
        url,
        now,
        shrinks: false,
    };
    let decision = decide_shrinks(args, &op.plan_now()?.merged.shrinks)?;
    op.shrinks = decision == ShrinkDecision::Apply;
    // the question was the shrinks' (asked above); the rest goes ahead
    let write = WriteArgs {
        dry_run: args.dry_run,
        yes: true,
        ..WriteArgs::default()
    };
    let ui = crate::commands::batch_ui(ctx, &write, 1, |_, _| String::new());
    let report = ctx
        .run_one(&op, op.target(), ui)?
        .expect("nothing to decline");
    let why_kept = match decision {
        ShrinkDecision::Declined => Some("as answered"),
        ShrinkDecision::NoTerminal => Some("no terminal to ask; run again with --yes to apply"),
        ShrinkDecision::Apply | ShrinkDecision::DryRun => None,
    };
    let mut warnings = Vec::new();
    if let Some(why) = why_kept {
        let w = format!(
            "kept the larger window of {} model(s) the source says is smaller ({}): {why}",
            report.shrinks.len(),
            preview_changes(&report.shrinks)
        );
        ctx.out.warn(&w);
        warnings.push(w);
    }
    if ctx.out.json {
        ctx.out.envelope_warning(
            "limits refresh",
            report.dry_run,
            std::slice::from_ref(&report),
            &[],
            &warnings,
        )?;
        return Ok(exit::OK);
    }
    render_refresh(ctx, &report, now)?;
    Ok(exit::OK)
}

fn changes_table(changes: &[Change]) -> Grid {
    let mut t = Grid::new(vec![
        Col::id("VENDOR"),
        Col::id("MODEL"),
        Col::num("OLD"),
        Col::num("NEW"),
    ]);
    let w = |n: Option<u64>| n.map_or_else(|| "-".to_owned(), |n| n.to_string());
    for c in changes {
        t.row(vec![
            (&c.vendor).into(),
            (&c.model).into(),
            w(c.old).into(),
            w(c.new).into(),
        ]);
    }
    t
}

fn render_refresh(ctx: &Context, report: &RefreshReport, now: DateTime<Utc>) -> Result<()> {
    if report.dry_run {
        ctx.out
            .line("dry run: nothing was written; this is what the refresh would do")?;
    }
    let mut t = Grid::new(vec![Col::id("VENDOR"), Col::num("MODELS")]);
    for v in &report.vendors {
        t.row(vec![(&v.vendor).into(), v.models.to_string().into()]);
    }
    ctx.out.grid(&t)?;
    ctx.out.line(&format!(
        "{} model(s) from {} ({}), fetched {}; {} model(s) it does not list kept",
        report.models,
        report.source,
        report.url,
        timefmt::local(now),
        report.kept
    ))?;
    if report.changed.is_empty() {
        ctx.out.line("no window changed")?;
    } else {
        ctx.out
            .line(&format!("{} window(s) changed:", report.changed.len()))?;
        ctx.out.grid(&changes_table(&report.changed))?;
    }
    if !report.shrinks.is_empty() && !report.shrinks_applied {
        ctx.out.line(&format!(
            "{} smaller window(s) not applied (pass --yes to apply):",
            report.shrinks.len()
        ))?;
        ctx.out.grid(&changes_table(&report.shrinks))?;
    }
    Ok(())
}
