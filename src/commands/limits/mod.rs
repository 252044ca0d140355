//! `limits refresh | show | learn`, and the table every budget comes from.

mod refresh;

pub use refresh::refresh;

use anyhow::Result;
use serde::Serialize;
use std::io::Read;

use crate::cli::{LearnArgs, LimitsShowArgs};
use crate::cli_util::context_window::{cached, preview_changes};
use crate::commands::Context;
use crate::engine::limit_ops::{self as ops, Lesson};
use crate::engine::limits::{self, Change, LimitsCache, Window};
use crate::engine::sessions;
use crate::error::{exit, Error};
use crate::table::{Col, Field, Grid};
use crate::timefmt;

#[derive(Serialize)]
struct ShowRow {
    #[serde(flatten)]
    window: Window,
    /// Sessions on this agent with this window (listing by sessions).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    sessions: Vec<String>,
}

/// One row per agent named; without names, one per agent and window the
/// sessions use (sessions with their own num_ctx get their own row), then
/// agents that only have a learned limit.
fn show_rows(ctx: &Context, args: &LimitsShowArgs, cache: &LimitsCache) -> Result<Vec<ShowRow>> {
    let mut rows: Vec<ShowRow> = Vec::new();
    if !args.agents.is_empty() {
        for a in &args.agents {
            if !rows.iter().any(|r| &r.window.agent == a) {
                rows.push(ShowRow {
                    window: limits::window(a, cache),
                    sessions: Vec::new(),
                });
            }
        }
        return Ok(rows);
    }
    for id in ctx.root.session_ids()?.ids {
        let dir = ctx.root.session(&id)?;
        let config = match sessions::load_config(&dir) {
            Ok(Some(c)) => c,
            Ok(None) => continue,
            Err(e) => {
                ctx.out.warn(&e.to_string());
                continue;
            }
        };
        let Some(agent) = config.model.as_deref() else {
            continue;
        };
        let window = limits::window_for(agent, cache, Some(&config));
        match rows.iter_mut().find(|r| r.window == window) {
            Some(r) => r.sessions.push(id),
            None => rows.push(ShowRow {
                window,
                sessions: vec![id],
            }),
        }
    }
    for agent in cache.learned.keys() {
        if !rows.iter().any(|r| &r.window.agent == agent) {
            rows.push(ShowRow {
                window: limits::window(agent, cache),
                sessions: Vec::new(),
            });
        }
    }
    rows.sort_by(|a, b| a.window.agent.cmp(&b.window.agent));
    Ok(rows)
}

pub fn show(ctx: &Context, args: &LimitsShowArgs) -> Result<i32> {
    let cache = cached(ctx);
    if !ctx.offline && cache.needs_fetch(crate::timefmt::now()) {
        ctx.out.info(
            "the window table is older than an hour; `sessionctl limits refresh` updates it \
             (write commands do so themselves)",
        );
    }
    let rows = show_rows(ctx, args, &cache)?;
    let mut warnings: Vec<String> = Vec::new();
    for w in rows.iter().filter_map(|r| r.window.warning.clone()) {
        if !warnings.contains(&w) {
            ctx.out.warn(&w);
            warnings.push(w);
        }
    }
    if ctx.out.json {
        if !cache.held_shrinks.is_empty() {
            warnings.push(held_shrinks_note(&cache.held_shrinks));
        }
        ctx.out
            .envelope_warning("limits show", false, &rows, &[], &warnings)?;
        return Ok(exit::OK);
    }
    if rows.is_empty() {
        ctx.out
            .line("no sessions name a model; pass AGENT names (provider@model)")?;
        return Ok(exit::OK);
    }
    let now = timefmt::now();
    let mut t = Grid::new(vec![
        Col::id("AGENT"),
        Col::id("VENDOR").optional(3),
        Col::id("MODEL").optional(4),
        Col::num("WINDOW"),
        Col::id("SOURCE"),
        Col::num("BUDGET"),
        Col::id("TABLE AGE").optional(2),
        Col::num("SESSIONS").optional(1),
    ]);
    for ShowRow {
        window: w,
        sessions,
    } in &rows
    {
        let source =
            Field::from(format!("{}: {}", w.source.name(), w.origin)).or_short(w.source.name());
        t.row(vec![
            (&w.agent).into(),
            w.vendor.as_deref().unwrap_or("-").into(),
            (&w.model).into(),
            w.window.to_string().into(),
            source,
            w.budget.to_string().into(),
            match w.fetched_at {
                Some(t) => timefmt::age(t, now),
                None => format!("({})", cache.source),
            }
            .into(),
            if sessions.is_empty() {
                "-".to_owned()
            } else {
                sessions.len().to_string()
            }
            .into(),
        ]);
    }
    ctx.out.grid(&t)?;
    if !cache.held_shrinks.is_empty() {
        ctx.out.line(&held_shrinks_note(&cache.held_shrinks))?;
    }
    Ok(exit::OK)
}

fn held_shrinks_note(held: &[Change]) -> String {
    format!(
        "{} smaller window(s) offered by the last fetch were not applied ({}); \
         review with `sessionctl limits refresh --dry-run`",
        held.len(),
        preview_changes(held)
    )
}

pub fn learn(ctx: &Context, args: &LearnArgs) -> Result<i32> {
    let text = if args.from_error == "-" {
        let mut s = String::new();
        std::io::stdin()
            .take(1 << 20)
            .read_to_string(&mut s)
            .map_err(|e| Error::read("<stdin>", e))?;
        s
    } else {
        args.from_error.clone()
    };
    let (limit, evidence) = limits::parse_overflow_error(&text, args.input_tokens).ok_or_else(|| {
        Error::data(
            if args.from_error == "-" { "<stdin>" } else { "--from-error" },
            "no context limit found in the error text",
        )
        .with_hint("pass the provider's full error body; for errors without numbers add --input-tokens N")
    })?;
    let lesson = Lesson {
        agent: args.agent.clone(),
        limit,
        evidence,
    };
    let op = ops::Learn {
        root: &ctx.root,
        lesson,
        now: crate::timefmt::now(),
    };
    // the command line asks for it: no question
    let go_ahead = crate::cli::WriteArgs {
        yes: true,
        ..crate::cli::WriteArgs::default()
    };
    let ui = crate::commands::batch_ui(ctx, &go_ahead, 1, |_, _| String::new());
    let report = ctx
        .run_one(&op, op.target(), ui)?
        .expect("nothing to decline");
    if ctx.out.json {
        ctx.out
            .envelope("limits learn", false, std::slice::from_ref(&report), &[])?;
    } else if report.stored {
        ctx.out.line(&format!(
            "{}: learned an input limit of {limit}; budget now {}",
            report.agent, report.budget
        ))?;
    } else {
        ctx.out.line(&format!(
            "{}: the error says {limit}, but the known window {} is already as small; nothing stored",
            report.agent, report.window
        ))?;
    }
    Ok(exit::OK)
}

/// `limits forget AGENT`: drop a learned limit (undoable, like learn).
pub fn forget(ctx: &Context, args: &crate::cli::ForgetArgs) -> Result<i32> {
    let op = ops::Forget {
        root: &ctx.root,
        agent: args.agent.clone(),
    };
    let dry_run = args.change.dry_run;
    let w = crate::cli_util::guard::write_args(&args.change);
    let question = |_: &[&str], plan: &[String]| {
        format!(
            "Forget the learned limit {} of {}?",
            plan.join(", "),
            args.agent
        )
    };
    let ui = crate::commands::batch_ui(ctx, &w, 1, question);
    let Some(report) = ctx.run_one(&op, op.target(), ui)? else {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(exit::FINDINGS);
    };
    if ctx.out.json {
        ctx.out
            .envelope("limits forget", dry_run, std::slice::from_ref(&report), &[])?;
    } else {
        ctx.out.line(&format!(
            "{}{}: learned limit {} {}",
            if dry_run { "dry run: " } else { "" },
            report.agent,
            report.forgotten,
            if dry_run {
                "would be forgotten"
            } else {
                "forgotten"
            }
        ))?;
    }
    Ok(exit::OK)
}
