//! `errors list | show | edit | prune | search`

use std::io::{IsTerminal, Read};

use anyhow::Result;
use chrono::Utc;
use comfy_table::Cell;
use serde::Serialize;

use crate::cli::{
    ErrorsEditArgs, ErrorsListArgs, ErrorsPruneArgs, ErrorsSearchArgs, ErrorsShowArgs, MatchMode,
};
use crate::commands::{load_db, targets, Context};
use crate::engine::errors::{self, ErrorItem, Filter, TTL_SECS};
use crate::error::{exit, Error};
use crate::llm::embed::{self, Embedder};
use crate::output::head_cut;
use crate::store::torii::{self, Db, DB_ERROR_MEMORY};
use crate::store::{lock, runtime};
use crate::timefmt;

#[derive(Serialize)]
struct Listing<'a> {
    errors: &'a [ErrorItem],
}

fn expires_in(i: &ErrorItem, now: i64) -> String {
    match i.expire_at {
        None => "never".into(),
        Some(t) if t <= now => "expired".into(),
        Some(t) => timefmt::age(
            timefmt::from_nanos(t * 1_000_000_000),
            timefmt::from_nanos(now * 1_000_000_000),
        )
        .replace(" ago", ""),
    }
}

fn recorded(i: &ErrorItem, now: chrono::DateTime<Utc>) -> String {
    if i.timestamp == 0 {
        return "-".into();
    }
    timefmt::age(timefmt::from_nanos(i.timestamp * 1_000_000_000), now)
}

fn table(ctx: &Context, items: &[ErrorItem], now: i64) -> std::io::Result<()> {
    let wall = Utc::now();
    let mut t = ctx.out.new_table(&[
        "ID", "TOOL", "KEYWORDS", "SYMPTOM", "ACTION", "OUTCOME", "RECORDED", "EXPIRES",
    ]);
    for i in items {
        t.add_row(vec![
            Cell::new(i.id.chars().take(8).collect::<String>()),
            Cell::new(&i.tool_name),
            Cell::new(head_cut(&i.keywords.join(", "), 40)),
            Cell::new(head_cut(&i.symptom, 40)),
            Cell::new(head_cut(&i.action, 40)),
            Cell::new(&i.outcome),
            Cell::new(recorded(i, wall)),
            Cell::new(expires_in(i, now)),
        ]);
    }
    ctx.out.table(&t)
}

pub fn list(ctx: &Context, args: &ErrorsListArgs) -> Result<i32> {
    let db = load_db(ctx, DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let f = Filter {
        tool: args.tool.clone(),
        keyword: args.keyword.clone(),
        outcome: args.outcome.clone(),
        expired: args.expired,
    };
    let items = errors::list(&db, now, &f, args.sort, args.limit);
    if ctx.out.json {
        ctx.out.json(&Listing { errors: &items })?;
    } else if items.is_empty() {
        ctx.out.line("no error records match")?;
    } else {
        table(ctx, &items, now)?;
    }
    Ok(exit::OK)
}

#[derive(Serialize)]
struct Shown<'a> {
    #[serde(flatten)]
    item: &'a ErrorItem,
    ttl_seconds: Option<i64>,
    expired: bool,
    has_vector: bool,
}

pub fn show(ctx: &Context, args: &ErrorsShowArgs) -> Result<i32> {
    let db = load_db(ctx, DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let i = errors::resolve(&db, now, &args.id)?;
    let shown = Shown {
        item: &i,
        ttl_seconds: i.expire_at.map(|t| t - now),
        expired: i.expired,
        has_vector: i.has_vector,
    };
    if ctx.out.json {
        ctx.out.json(&shown)?;
        return Ok(exit::OK);
    }
    let mut t = ctx.out.new_sectioned_table(&["FIELD", "VALUE"]);
    let rows: Vec<(&str, String)> = vec![
        ("key", i.key.clone()),
        ("id", i.id.clone()),
        ("tool", i.tool_name.clone()),
        ("keywords", i.keywords.join(", ")),
        ("symptom", i.symptom.clone()),
        ("cause", i.cause.clone()),
        ("action", i.action.clone()),
        ("outcome", i.outcome.clone()),
        ("recorded", recorded(&i, Utc::now())),
        (
            "expires",
            match i.expire_at {
                Some(at) => format!(
                    "{} ({})",
                    timefmt::local(timefmt::from_nanos(at * 1_000_000_000)),
                    expires_in(&i, now)
                ),
                None => "never".into(),
            },
        ),
        (
            "vector",
            if i.has_vector {
                "yes".into()
            } else {
                "no".into()
            },
        ),
    ];
    for (k, v) in rows {
        t.add_row(vec![Cell::new(k), Cell::new(v)]);
    }
    ctx.out.table(&t)?;
    Ok(exit::OK)
}

/// Before a write to the error memory: refuse while Agenvoy runs, take the
/// store lock, and only then load db2, so that what we append is decided
/// on the log as it is now, never on a copy another writer has changed
/// since (two edits, or an edit and a prune, would undo each other).
fn begin_write(ctx: &Context, force: bool) -> crate::Result<(lock::Lock, Db)> {
    runtime::ensure_not_running(&ctx.root, force)?;
    let l = lock::store(&ctx.root)?;
    let db = Db::load(&ctx.root.store_dir(), DB_ERROR_MEMORY)?;
    db.check_writable(force)?;
    Ok((l, db))
}

#[derive(Serialize)]
struct EditReport {
    ok: bool,
    action: &'static str,
    key: String,
    id: String,
    expire_at: Option<i64>,
    vector: &'static str,
    dry_run: bool,
}

pub fn edit(ctx: &Context, args: &ErrorsEditArgs) -> Result<i32> {
    // What the user sees, edits and confirms is read without the lock (an
    // editor may stay open for minutes); the write re-reads the record
    // under the lock and applies the same field edits to it.
    let preview = load_db(ctx, DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let item = errors::resolve(&preview, now, &args.id)?;
    errors::ensure_editable(&item, args.touch)?;
    let action = match args.action.as_deref() {
        Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .take(1 << 20)
                .read_to_string(&mut s)
                .map_err(|e| Error::read("<stdin>", e))?;
            Some(s.trim_end_matches('\n').to_owned())
        }
        Some(a) => Some(a.to_owned()),
        None if args.cause.is_none() && args.keywords.is_none() && !args.touch => {
            Some(edit_in_editor(&item.action)?)
        }
        None => None,
    };
    let new_value = |item: &ErrorItem| {
        errors::edited_value(
            item,
            action.as_deref(),
            args.cause.as_deref(),
            args.keywords.as_deref(),
        )
    };
    let expire_at = |item: &ErrorItem, now: i64| {
        if args.touch {
            Some(now + TTL_SECS)
        } else {
            item.expire_at
        }
    };
    let question = format!("Rewrite error record {} ({})?", item.id, item.key);
    if !targets::confirm(&args.write, &question)? {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(exit::FINDINGS);
    }
    let mut vector_state = "dropped";
    let (item, expire_at) = if args.write.dry_run {
        let at = expire_at(&item, now);
        (item, at)
    } else {
        let (_lock, mut db) = begin_write(ctx, args.write.force)?;
        // the clock too: the record may have expired while $EDITOR was open
        let now = torii::now_unix();
        let item = errors::resolve(&db, now, &item.key)?;
        errors::ensure_editable(&item, args.touch)?;
        let value = new_value(&item);
        let at = expire_at(&item, now);
        let old = db.get(&item.key).expect("resolved from this db");
        let vector = if value == old.value {
            vector_state = if old.vector.is_some() { "kept" } else { "none" };
            old.vector.clone()
        } else if let Some(embedder) = Embedder::configured(
            args.embed.embed_url.as_deref(),
            args.embed.embed_model.as_deref(),
        ) {
            let dim = db.vector_dim().unwrap_or(embed::DEFAULT_DIM);
            vector_state = "re-embedded";
            Some(embed::to_base64(&embedder.embed(&value, dim, None)?))
        } else {
            if old.vector.is_none() {
                vector_state = "none";
            }
            None
        };
        db.set(&item.key, &value, at, vector, now)?;
        (item, at)
    };
    let report = EditReport {
        ok: true,
        action: "errors-edit",
        key: item.key.clone(),
        id: item.id.clone(),
        expire_at,
        vector: vector_state,
        dry_run: args.write.dry_run,
    };
    if ctx.out.json {
        ctx.out.json(&report)?;
    } else {
        ctx.out.line(&format!(
            "{}{} ({}): action now {:?}; expires {}; vector {}",
            if args.write.dry_run {
                "would rewrite "
            } else {
                "rewrote "
            },
            item.id,
            item.key,
            action.as_deref().unwrap_or(&item.action),
            expire_at.map_or("never".into(), |t| timefmt::local(timefmt::from_nanos(
                t * 1_000_000_000
            ))),
            report.vector
        ))?;
    }
    Ok(exit::OK)
}

fn edit_in_editor(current: &str) -> crate::Result<String> {
    if !std::io::stdin().is_terminal() {
        return Err(
            Error::usage("no --action given and stdin is not a terminal")
                .with_hint("pass --action TEXT, or --action - to read it from stdin"),
        );
    }
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .unwrap_or_else(|_| "vi".into());
    let file = tempfile::Builder::new()
        .suffix(".txt")
        .tempfile()
        .map_err(|e| Error::write(std::env::temp_dir(), e))?;
    std::fs::write(file.path(), current).map_err(|e| Error::write(file.path(), e))?;
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(file.path())
        .status()
        .map_err(|e| Error::usage(format!("cannot run the editor {editor:?}: {e}")))?;
    if !status.success() {
        return Err(Error::usage(format!(
            "the editor {editor:?} failed; nothing changed"
        )));
    }
    let text = std::fs::read_to_string(file.path()).map_err(|e| Error::read(file.path(), e))?;
    Ok(text.trim_end_matches('\n').to_owned())
}

#[derive(Serialize)]
struct PruneReport {
    ok: bool,
    action: &'static str,
    expired: usize,
    not_resolved: usize,
    removed: usize,
    keys: Vec<String>,
    dry_run: bool,
}

pub fn prune(ctx: &Context, args: &ErrorsPruneArgs) -> Result<i32> {
    let preview = load_db(ctx, DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let both = !args.expired && !args.not_resolved;
    let (want_expired, want_failed) = (args.expired || both, args.not_resolved || both);
    let mut doomed = errors::prunable(&preview, now, want_expired, want_failed);
    let mut removed = doomed.len();
    if !doomed.is_empty() && !args.write.dry_run {
        if !targets::confirm(
            &args.write,
            &format!("Remove {} error record(s)?", doomed.len()),
        )? {
            ctx.out.line("aborted; nothing changed")?;
            return Ok(exit::FINDINGS);
        }
        let (_lock, mut db) = begin_write(ctx, args.write.force)?;
        // Under the lock: only what was confirmed and is still prunable now
        // (a record edited or touched meanwhile stays).
        let confirmed: std::collections::HashSet<String> =
            doomed.into_iter().map(|i| i.key).collect();
        doomed = errors::prunable(&db, now, want_expired, want_failed)
            .into_iter()
            .filter(|i| confirmed.contains(&i.key))
            .collect();
        let keys: Vec<String> = doomed.iter().map(|i| i.key.clone()).collect();
        removed = db.delete(&keys, now)?;
    }
    let report = PruneReport {
        ok: true,
        action: "errors-prune",
        expired: doomed.iter().filter(|i| i.expired).count(),
        not_resolved: doomed
            .iter()
            .filter(|i| !i.expired && i.outcome != "resolved")
            .count(),
        removed,
        keys: doomed.iter().map(|i| i.key.clone()).collect(),
        dry_run: args.write.dry_run,
    };
    if ctx.out.json {
        ctx.out.json(&report)?;
    } else {
        ctx.out.line(&format!(
            "{} {} record(s): {} expired, {} not resolved",
            if args.write.dry_run {
                "would remove"
            } else {
                "removed"
            },
            report.removed,
            report.expired,
            report.not_resolved
        ))?;
    }
    Ok(exit::OK)
}

#[derive(Serialize)]
struct SearchHit<'a> {
    #[serde(flatten)]
    item: &'a ErrorItem,
    score: Option<f64>,
}

#[derive(Serialize)]
struct SearchReport<'a> {
    errors: Vec<SearchHit<'a>>,
    #[serde(rename = "match")]
    mode: &'static str,
}

pub fn search(ctx: &Context, args: &ErrorsSearchArgs) -> Result<i32> {
    let db = load_db(ctx, DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let items = errors::searchable(&db, now, args.tool.as_deref());
    let mut scored: Vec<(ErrorItem, Option<f64>)> = Vec::new();
    let mut mode = "keyword";
    if args.mode == MatchMode::Semantic {
        let dim = db.vector_dim().unwrap_or(embed::DEFAULT_DIM);
        let model = embed::model_name(args.embed.embed_model.as_deref());
        let query = match embed::cached(&db, &model, dim, &args.query) {
            Some(v) => Some(v),
            None => match Embedder::configured(args.embed.embed_url.as_deref(), Some(&model)) {
                Some(e) => Some(e.embed(&args.query, dim, None)?),
                None => None,
            },
        };
        match query {
            Some(q) => {
                let (hits, skipped) = errors::search_semantic(&db, items.clone(), &q, args.limit);
                if skipped > 0 {
                    ctx.out.info(&format!("{skipped} record(s) have no vector of {dim} dimensions and were skipped"));
                }
                if hits.is_empty() {
                    ctx.out.warn("no record has a vector to compare with; searching by keyword");
                } else {
                    mode = "semantic";
                    scored = hits.into_iter().map(|(i, s)| (i, Some(s))).collect();
                }
            }
            None => ctx
                .out
                .warn("no embedder configured (SESSIONCTL_EMBED_BASE_URL) and the query is not in the embedding cache; searching by keyword"),
        }
    }
    if mode == "keyword" {
        scored = errors::search_keyword(items, &args.query, args.limit)
            .into_iter()
            .map(|i| (i, None))
            .collect();
    }
    if args.touch_hits && !scored.is_empty() {
        let (_lock, mut fresh) = begin_write(ctx, args.force)?;
        // As Agenvoy's lookup: only records that are still there and live
        // get the new TTL; an expired one is gone, not revived.
        let keys: Vec<String> = scored
            .iter()
            .map(|(i, _)| i.key.clone())
            .filter(|k| fresh.get(k).is_some_and(|e| !e.is_expired(now)))
            .collect();
        fresh.expire(&keys, now + TTL_SECS, now)?;
    }
    if ctx.out.json {
        let errors = scored
            .iter()
            .map(|(i, s)| SearchHit { item: i, score: *s })
            .collect();
        ctx.out.json(&SearchReport { errors, mode })?;
    } else if scored.is_empty() {
        ctx.out.line("no related errors")?;
    } else {
        let items: Vec<ErrorItem> = scored.into_iter().map(|(i, _)| i).collect();
        table(ctx, &items, now)?;
    }
    Ok(exit::OK)
}
