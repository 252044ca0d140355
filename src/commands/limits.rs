//! `limits refresh | show | learn`, and the table every budget comes from.

use std::collections::BTreeSet;
use std::io::Read;
use std::time::Duration;

use anyhow::Result;
use chrono::Utc;
use comfy_table::Cell;
use serde::Serialize;

use crate::cli::{LearnArgs, LimitsShowArgs, RefreshArgs};
use crate::commands::Context;
use crate::engine::limits::{self, Change, Fetched, LimitsCache, Source, Window};
use crate::engine::sessions;
use crate::error::{exit, Error};
use crate::output::num;
use crate::store::{limits_cache, lock};
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
            cache.table = table;
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

#[derive(Serialize)]
struct RefreshReport {
    ok: bool,
    source: &'static str,
    url: String,
    fetched_at: String,
    vendors: Vec<VendorCount>,
    models: usize,
    changed: Vec<Change>,
}

#[derive(Serialize)]
struct VendorCount {
    vendor: String,
    models: usize,
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
    let _lock = lock::limits(&ctx.root)?;
    let mut cache = limits_cache::load(&ctx.root)?.unwrap_or_else(LimitsCache::builtin);
    let spinner = ctx.out.progress(2, "fetching");
    spinner.set_position(1);
    let now = Utc::now();
    let fetched = net::get(&url, Duration::from_secs(args.timeout), token.as_deref())
        .and_then(|body| parse(args.source, &url, &body));
    spinner.finish_and_clear();
    let fetched = match fetched {
        Ok(f) => f,
        Err(e) => {
            // Keep the table; only hold off automatic fetches for a while.
            cache.record_failed_fetch(now);
            limits_cache::save(&ctx.root, &cache)?;
            return Err(e.into());
        }
    };
    let (changed, vendors, models) = match fetched {
        Fetched::Table(table) => {
            let changed = limits::diff(&cache.table, &table);
            let vendors = table
                .iter()
                .map(|(v, m)| VendorCount {
                    vendor: v.clone(),
                    models: m.len(),
                })
                .collect();
            let models = table.values().map(|m| m.len()).sum();
            cache.table = table;
            cache.source = args.source.name().into();
            cache.url = Some(url.clone());
            cache.fetched_at = Some(now);
            cache.retry_after = None;
            (changed, vendors, models)
        }
        Fetched::Copilot(models) => {
            let changed = models
                .iter()
                .filter(|(m, w)| cache.copilot.get(*m) != Some(w))
                .map(|(m, w)| Change {
                    vendor: "copilot".into(),
                    model: m.clone(),
                    old: cache.copilot.get(m).copied(),
                    new: Some(*w),
                })
                .collect();
            let n = models.len();
            cache.copilot = models;
            cache.copilot_fetched_at = Some(now);
            (
                changed,
                vec![VendorCount {
                    vendor: "copilot".into(),
                    models: n,
                }],
                n,
            )
        }
    };
    limits_cache::save(&ctx.root, &cache)?;
    let report = RefreshReport {
        ok: true,
        source: args.source.name(),
        url,
        fetched_at: timefmt::rfc3339(now),
        vendors,
        models,
        changed,
    };
    if ctx.out.json {
        ctx.out.json(&report)?;
        return Ok(exit::OK);
    }
    let mut t = ctx.out.new_table(&["VENDOR", "MODELS"]);
    for v in &report.vendors {
        t.add_row(vec![Cell::new(&v.vendor), num(v.models)]);
    }
    ctx.out.table(&t)?;
    ctx.out.line(&format!(
        "{} model(s) from {} ({}), fetched {}",
        report.models,
        report.source,
        report.url,
        timefmt::local(now)
    ))?;
    if report.changed.is_empty() {
        ctx.out.line("no window changed")?;
    } else {
        let mut t = ctx.out.new_table(&["VENDOR", "MODEL", "OLD", "NEW"]);
        let w = |n: Option<u64>| n.map_or_else(|| "-".to_owned(), |n| n.to_string());
        for c in &report.changed {
            t.add_row(vec![
                Cell::new(&c.vendor),
                Cell::new(&c.model),
                num(w(c.old)),
                num(w(c.new)),
            ]);
        }
        ctx.out
            .line(&format!("{} window(s) changed:", report.changed.len()))?;
        ctx.out.table(&t)?;
    }
    Ok(exit::OK)
}

#[derive(Serialize)]
struct ShowReport {
    limits: Vec<Window>,
}

pub fn show(ctx: &Context, args: &LimitsShowArgs) -> Result<i32> {
    let cache = current(ctx)?;
    // Named agents in the order given; otherwise every session's, sorted.
    let mut agents: Vec<String> = Vec::new();
    for a in &args.agents {
        if !agents.contains(a) {
            agents.push(a.clone());
        }
    }
    if agents.is_empty() {
        let mut used = BTreeSet::new();
        for id in ctx.root.session_ids()?.ids {
            let dir = ctx.root.session(&id)?;
            match sessions::load_model(&dir) {
                Ok(Some(m)) => {
                    used.insert(m);
                }
                Ok(None) => {}
                Err(e) => ctx.out.warn(&e.to_string()),
            }
        }
        used.extend(cache.learned.keys().cloned());
        agents = used.into_iter().collect();
    }
    let limits: Vec<Window> = agents.iter().map(|a| limits::window(a, &cache)).collect();
    if ctx.out.json {
        ctx.out.json(&ShowReport { limits })?;
        return Ok(exit::OK);
    }
    if limits.is_empty() {
        ctx.out
            .line("no sessions name a model; pass AGENT names (provider@model)")?;
        return Ok(exit::OK);
    }
    let now = Utc::now();
    let mut t = ctx.out.new_table(&[
        "AGENT",
        "VENDOR",
        "MODEL",
        "WINDOW",
        "SOURCE",
        "BUDGET",
        "TABLE AGE",
    ]);
    for w in &limits {
        t.add_row(vec![
            Cell::new(&w.agent),
            Cell::new(w.vendor.as_deref().unwrap_or("-")),
            Cell::new(&w.model),
            num(w.window),
            Cell::new(serde_json::to_value(w.source)?.as_str().unwrap_or("")),
            num(w.budget),
            Cell::new(match w.fetched_at {
                Some(t) => timefmt::age(t, now),
                None => format!("({})", cache.source),
            }),
        ]);
    }
    ctx.out.table(&t)?;
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
