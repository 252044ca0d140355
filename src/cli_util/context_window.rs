//! The window table commands work with: as cached (read-only commands and
//! dry runs), or refreshed first when stale (commands about to write).

use std::time::Duration;

use anyhow::Result;

use crate::cli_util::Context;
use crate::engine::limits::{self, Change, Fetched, LimitsCache, Source};
use crate::error::Error;
use crate::net;
use crate::store::limits_cache;

/// The window table as it is: the cache, or the built-in table. Read-only
/// commands and dry runs use this — they neither fetch nor write.
pub fn cached(ctx: &Context) -> LimitsCache {
    match limits_cache::load(&ctx.root) {
        Ok(c) => c.unwrap_or_else(LimitsCache::builtin),
        Err(e) => {
            ctx.out.warn(&format!("{e}; using the built-in table"));
            LimitsCache::builtin()
        }
    }
}

/// A command about to write calls this: the cache (or the built-in
/// table), refreshed first when stale, unless offline or a recent failure
/// asked us to wait. A failed refresh only warns: the stale table serves.
pub fn current(ctx: &Context) -> Result<LimitsCache> {
    let mut cache = cached(ctx);
    let now = crate::timefmt::now();
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
    // Merged into the cache as it is under its lock, not into the copy
    // read above (a `limits learn` meanwhile would be lost).
    let fetched = match fetched {
        Ok(Fetched::Table(table)) => Ok(table),
        Ok(Fetched::Copilot(_)) => unreachable!("the main table is never the Copilot source"),
        Err(e) => {
            ctx.out
                .warn(&format!("{e}; using the {} table", cache.source));
            Err(())
        }
    };
    let held_before = cache.held_shrinks.clone();
    let update = |c: &mut LimitsCache| match &fetched {
        Ok(table) => {
            // Unattended: grow and add, never shrink (`limits refresh` asks).
            let merged = limits::merge(&c.table, table, source);
            c.table = merged.table(false);
            c.held_shrinks = merged.shrinks;
            c.source = source.name().into();
            c.url = Some(url.clone());
            c.fetched_at = Some(now);
            c.retry_after = None;
        }
        Err(()) => c.record_failed_fetch(now),
    };
    // Best effort: a read-only root still gets its windows.
    match crate::engine::limit_ops::update_cache(&ctx.root, update) {
        Ok(updated) => cache = updated,
        Err(e) => {
            update(&mut cache);
            ctx.out
                .info(&format!("could not update the limits cache: {e}"));
        }
    }
    if !cache.held_shrinks.is_empty() && cache.held_shrinks != held_before {
        let url_arg = if url == source.default_url() {
            String::new()
        } else {
            format!(" --url {url}")
        };
        ctx.out.warn(&format!(
            "the {} table offers smaller windows for {} model(s) ({}); kept ours: \
             review with `sessionctl limits refresh --source {}{url_arg} --dry-run`",
            source.name(),
            cache.held_shrinks.len(),
            preview_changes(&cache.held_shrinks),
            source.name()
        ));
    }
    Ok(cache)
}

pub fn source_of(cache: &LimitsCache) -> Source {
    match cache.source.as_str() {
        "litellm" => Source::Litellm,
        "models.dev" => Source::ModelsDev,
        "openrouter" => Source::Openrouter,
        _ => Source::Agenvoy,
    }
}

pub fn parse(source: Source, url: &str, body: &[u8]) -> crate::Result<Fetched> {
    limits::parse_source(source, body).map_err(|why| {
        Error::data(url, format!("unusable {} table: {why}", source.name()))
            .with_hint("the cached table was kept")
    })
}

/// `claude/claude-sonnet-4 200000 → 180000, …` (the first three).
pub fn preview_changes(changes: &[Change]) -> String {
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
