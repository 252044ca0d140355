//! `limits refresh | show | learn`, and the table every budget comes from.

mod refresh;

pub use refresh::refresh;

use std::io::Read;
use std::time::Duration;

use anyhow::Result;
use chrono::Utc;
use serde::Serialize;

use crate::cli::{LearnArgs, LimitsShowArgs};
use crate::commands::Context;
use crate::engine::limits::{self, Change, Fetched, LimitsCache, Source, Window};
use crate::engine::sessions;
use crate::error::{exit, Error};
use crate::store::{limits_cache, lock};
use crate::table::{Col, Field, Grid};
use crate::{net, timefmt};

/// A command that needs windows calls this: the cache (or the built-in
/// table), refreshed first when stale, unless offline or a recent failure
/// asked us to wait. A failed refresh only warns: the stale table serves.
pub fn current(ctx: &Context) -> Result<LimitsCache> {
    let mut cache = match limits_cache::load(&ctx.root) {
        Ok(c) => c.unwrap_or_else(LimitsCache::builtin),
        Err(e) => {
            ctx.out.warn(&format!("{e}; using the built-in table"));
            LimitsCache::builtin()
        }
    };
    let now = Utc::now();
    if ctx.offline || !cache.needs_fetch(now) {
        return Ok(cache);
    }
    let source = source_of(&cache);
    let url = cache
        .url
        .clone()
        .unwrap_or_else(|| source.default_url().to_owned());
    ctx.out
        .info(&format!("window table is stale; fetching {url}"));
    let fetched =
        net::get(&url, Duration::from_secs(5), None).and_then(|body| parse(source, &url, &body));
    match fetched {
        Ok(Fetched::Table(table)) => {
            // Unattended: grow and add, never shrink (`limits refresh` asks).
            let merged = limits::merge(&cache.table, &table, source);
            if !merged.shrinks.is_empty() && merged.shrinks != cache.held_shrinks {
                let url_arg = if url == source.default_url() {
                    String::new()
                } else {
                    format!(" --url {url}")
                };
                ctx.out.warn(&format!(
                    "the {} table offers smaller windows for {} model(s) ({}); kept ours: \
                     review with `sessionctl limits refresh --source {}{url_arg} --dry-run`",
                    source.name(),
                    merged.shrinks.len(),
                    preview_changes(&merged.shrinks),
                    source.name()
                ));
            }
            cache.table = merged.table(false);
            cache.held_shrinks = merged.shrinks;
            cache.source = source.name().into();
            cache.url = Some(url);
            cache.fetched_at = Some(now);
            cache.retry_after = None;
        }
        Ok(Fetched::Copilot(_)) => unreachable!("the main table is never the Copilot source"),
        Err(e) => {
            ctx.out
                .warn(&format!("{e}; using the {} table", cache.source));
            cache.record_failed_fetch(now);
        }
    }
    // Best effort: a read-only root still gets its windows.
    if let Err(e) = lock::limits(&ctx.root).and_then(|_lock| limits_cache::save(&ctx.root, &cache))
    {
        ctx.out
            .info(&format!("could not update the limits cache: {e}"));
    }
    Ok(cache)
}

fn source_of(cache: &LimitsCache) -> Source {
    match cache.source.as_str() {
        "litellm" => Source::Litellm,
        "models.dev" => Source::ModelsDev,
        "openrouter" => Source::Openrouter,
        _ => Source::Agenvoy,
    }
}

fn parse(source: Source, url: &str, body: &[u8]) -> crate::Result<Fetched> {
    limits::parse_source(source, body).map_err(|why| {
        Error::data(url, format!("unusable {} table: {why}", source.name()))
            .with_hint("the cached table was kept")
    })
}

/// `claude/claude-sonnet-4 200000 → 180000, …` (the first three).
fn preview_changes(changes: &[Change]) -> String {
    let w = |n: Option<u64>| n.map_or_else(|| "-".to_owned(), |n| n.to_string());
    let mut s: Vec<String> = changes
        .iter()
        .take(3)
        .map(|c| format!("{}/{} {} → {}", c.vendor, c.model, w(c.old), w(c.new)))
        .collect();
    if changes.len() > 3 {
        s.push(format!("{} more", changes.len() - 3));
    }
    s.join(", ")
}

#[derive(Serialize)]
struct ShowReport {
    limits: Vec<ShowRow>,
    /// Every window that is a guess (fallback, local default), said once.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
    /// Smaller windows the last automatic fetch offered and we kept out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    held_shrinks: Vec<Change>,
}

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
    let cache = current(ctx)?;
    let rows = show_rows(ctx, args, &cache)?;
    let mut warnings: Vec<String> = Vec::new();
    for w in rows.iter().filter_map(|r| r.window.warning.clone()) {
        if !warnings.contains(&w) {
            ctx.out.warn(&w);
            warnings.push(w);
        }
    }
    if ctx.out.json {
        ctx.out.json(&ShowReport {
            limits: rows,
            warnings,
            held_shrinks: cache.held_shrinks.clone(),
        })?;
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
        let source = match &w.origin {
            Some(o) => Field::from(format!("{} ({o})", w.source.name())).or_short(w.source.name()),
            None => w.source.name().into(),
        };
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
        ctx.out.line(&format!(
            "{} smaller window(s) offered by the last fetch were not applied ({}); \
             review with `sessionctl limits refresh --dry-run`",
            cache.held_shrinks.len(),
            preview_changes(&cache.held_shrinks)
        ))?;
    }
    Ok(exit::OK)
}

#[derive(Serialize)]
struct LearnReport {
    ok: bool,
    agent: String,
    learned: u64,
    stored: bool,
    window: u64,
    budget: u64,
    evidence: String,
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
    let _lock = lock::limits(&ctx.root)?;
    let mut cache = limits_cache::load(&ctx.root)?.unwrap_or_else(LimitsCache::builtin);
    let stored = limits::learn(&mut cache, &args.agent, limit, evidence.clone(), Utc::now());
    if stored {
        limits_cache::save(&ctx.root, &cache)?;
    }
    let w = limits::window(&args.agent, &cache);
    let report = LearnReport {
        ok: true,
        agent: args.agent.clone(),
        learned: limit,
        stored,
        window: w.window,
        budget: w.budget,
        evidence,
    };
    if ctx.out.json {
        ctx.out.json(&report)?;
    } else if stored {
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
