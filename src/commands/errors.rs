//! `errors list | show | edit | prune | search`

use std::io::{IsTerminal, Read};

use anyhow::Result;
use chrono::Utc;
use serde::Serialize;

use crate::cli::{
    ErrorsEditArgs, ErrorsListArgs, ErrorsPruneArgs, ErrorsSearchArgs, ErrorsShowArgs, MatchMode,
};
use crate::cli_util::targets;
use crate::commands::{load_db, Context, Done};
use crate::daemon::{Backend, Via};
use crate::engine::embedding;
use crate::engine::errors::{self, ErrorItem, Filter, TTL_SECS};
use crate::error::{exit, Error};
use crate::store::torii::{self, Db, DB_ERROR_MEMORY};
use crate::store::{lock, runtime};
use crate::table::{Col, Grid};
use crate::timefmt;

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
    let wall = timefmt::now();
    let mut t = Grid::new(vec![
        Col::id("ID"),
        Col::id("TOOL"),
        Col::text("KEYWORDS").optional(2),
        Col::text("SYMPTOM"),
        Col::text("ACTION"),
        Col::id("OUTCOME"),
        Col::id("RECORDED").optional(1),
        Col::id("EXPIRES").optional(3),
    ]);
    // The shortest prefix that tells each id apart (at least 8 characters),
    // so what is shown can be typed back into `errors show` or `edit`.
    let ids = errors::short_ids(items.iter().map(|i| i.id.as_str()), 8);
    for (i, id) in items.iter().zip(ids) {
        t.row(vec![
            id.into(),
            (&i.tool_name).into(),
            i.keywords.join(", ").into(),
            one_line(&i.symptom).into(),
            one_line(&i.action).into(),
            (&i.outcome).into(),
            recorded(i, wall).into(),
            expires_in(i, now).into(),
        ]);
    }
    ctx.out.grid(&t)
}

/// Free text on one table line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn list(ctx: &Context, args: &ErrorsListArgs) -> Result<Done> {
    // The files are complete and safe to read while Agenvoy runs.
    if ctx.daemon.via == Via::Daemon {
        return errors_list_via_daemon(ctx, args);
    }
    let db = load_db(ctx, DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let f = Filter {
        tool: args.tool.clone(),
        keyword: args.keyword.clone(),
        outcome: args.outcome.clone(),
        expired: args.expired,
    };
    let items = errors::list(&db, now, &f, args.sort, args.limit)?;
    if ctx.out.json {
        ctx.out.envelope("errors list", false, &items, &[])?;
    } else if items.is_empty() {
        ctx.out.line("no error records match")?;
    } else {
        table(ctx, &items, now)?;
    }
    Ok(Done::default())
}

#[derive(Serialize)]
struct Shown<'a> {
    #[serde(flatten)]
    item: &'a ErrorItem,
    ttl_seconds: Option<i64>,
    expired: bool,
    has_vector: bool,
}

pub fn show(ctx: &Context, args: &ErrorsShowArgs) -> Result<Done> {
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
        ctx.out
            .envelope("errors show", false, std::slice::from_ref(&shown), &[])?;
        return Ok(Done::default());
    }
    let mut t = Grid::new(vec![Col::id("FIELD"), Col::text("VALUE")]).sectioned();
    let rows: Vec<(&str, String)> = vec![
        ("key", i.key.clone()),
        ("id", i.id.clone()),
        ("tool", i.tool_name.clone()),
        ("keywords", i.keywords.join(", ")),
        ("symptom", i.symptom.clone()),
        ("cause", i.cause.clone()),
        ("action", i.action.clone()),
        ("outcome", i.outcome.clone()),
        ("recorded", recorded(&i, timefmt::now())),
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
        t.row(vec![k.into(), v.into()]);
    }
    ctx.out.grid(&t)?;
    Ok(Done::default())
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
    key: String,
    id: String,
    /// Whether the stored record changes (in a dry run: would change).
    changed: bool,
    action: String,
    expire_at: Option<i64>,
    vector: &'static str,
    dry_run: bool,
    /// `daemon` when Agenvoy's daemon rewrote the action.
    #[serde(skip_serializing_if = "Option::is_none")]
    via: Option<&'static str>,
}

pub fn edit(ctx: &Context, args: &ErrorsEditArgs) -> Result<Done> {
    // What the user sees, edits and confirms is read without the lock (an
    // editor may stay open for minutes); the write re-reads the record
    // under the lock and applies the same field edits to it.
    let backend = ctx.backend(args.write.force)?;
    crate::cli_util::via::refuse_options(
        &backend,
        &[
            ("--cause", args.cause.is_some()),
            ("--keywords", args.keywords.is_some()),
            ("--touch", args.touch),
            ("--embed-url", args.embed.embed_url.is_some()),
            ("--embed-model", args.embed.embed_model.is_some()),
        ],
    )?;
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
    // The action is the fix an agent applies next time: blanking it would
    // leave the record saying nothing.
    if action.as_deref().is_some_and(|a| a.trim().is_empty()) {
        return Err(Error::usage(
            "the new action is empty; an error record's action is the fix agents apply",
        )
        .with_hint(
            "give the fix as text; `sessionctl errors prune` removes records no longer wanted",
        )
        .into());
    }
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
    if !targets::ask(Some(args.write.dry_run), args.write.yes, &question)? {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(exit::FINDINGS.into());
    }
    let mut vector_state = "dropped";
    let settings = ctx.embed_settings(&args.embed);
    let (item, expire_at) = if args.write.dry_run {
        let at = expire_at(&item, now);
        (item, at)
    } else if let Backend::Daemon(d) = &backend {
        // the daemon keeps the TTL and decides about the vector
        d.patch_error(&item.id, action.as_deref().unwrap_or(&item.action))?;
        vector_state = "daemon";
        let at = item.expire_at;
        (item, at)
    } else {
        let (_lock, mut db) = begin_write(ctx, args.write.force)?;
        // the clock too: the record may have expired while $EDITOR was open
        let now = torii::now_unix();
        let item = errors::resolve(&db, now, &item.key)?;
        errors::ensure_editable(&item, args.touch)?;
        let value = new_value(&item);
        let at = expire_at(&item, now);
        let old = db.entry(&item.key)?.expect("resolved from this db");
        let vector = if value == old.value {
            vector_state = if old.vector.is_some() { "kept" } else { "none" };
            old.vector.clone()
        } else {
            let dim = db.vector_dim()?.unwrap_or(embedding::DEFAULT_DIM);
            let fresh = embedding::text_vector(&settings, dim, &value)?;
            if fresh.is_some() {
                vector_state = "re-embedded";
            } else if old.vector.is_none() {
                vector_state = "none";
            }
            fresh
        };
        crate::engine::undo::errors::before(&ctx.root, &db, std::slice::from_ref(&item.key))?;
        db.set(&item.key, &value, at, vector, now)?;
        (item, at)
    };
    let report = EditReport {
        key: item.key.clone(),
        id: item.id.clone(),
        changed: true,
        action: action.clone().unwrap_or_else(|| item.action.clone()),
        expire_at,
        vector: vector_state,
        dry_run: args.write.dry_run,
        via: matches!(backend, Backend::Daemon(_)).then_some("daemon"),
    };
    if ctx.out.json {
        ctx.out.envelope(
            "errors edit",
            args.write.dry_run,
            std::slice::from_ref(&report),
            &[],
        )?;
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
    Ok(Done {
        sessions: 0,
        changed: if args.write.dry_run {
            Vec::new()
        } else {
            vec![item.key]
        },
        ..Done::default()
    })
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

/// One record `errors prune` removed (in a dry run: would remove).
#[derive(Serialize)]
struct Pruned<'a> {
    key: &'a str,
    id: &'a str,
    tool_name: &'a str,
    /// `expired` or `not-resolved`.
    reason: &'static str,
    dry_run: bool,
}

pub fn prune(ctx: &Context, args: &ErrorsPruneArgs) -> Result<Done> {
    let preview = load_db(ctx, DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let both = !args.expired && !args.not_resolved;
    let (want_expired, want_failed) = (args.expired || both, args.not_resolved || both);
    let mut doomed = errors::prunable(&preview, now, want_expired, want_failed)?;
    if !doomed.is_empty() && !args.write.dry_run {
        if !targets::ask(
            Some(args.write.dry_run),
            args.write.yes,
            &format!("Remove {} error record(s)?", doomed.len()),
        )? {
            ctx.out.line("aborted; nothing changed")?;
            return Ok(exit::FINDINGS.into());
        }
        let (_lock, mut db) = begin_write(ctx, args.write.force)?;
        // Under the lock: only what was confirmed and is still prunable now
        // (a record edited or touched meanwhile stays).
        let confirmed: std::collections::HashSet<String> =
            doomed.into_iter().map(|i| i.key).collect();
        doomed = errors::prunable(&db, now, want_expired, want_failed)?
            .into_iter()
            .filter(|i| confirmed.contains(&i.key))
            .collect();
        let keys: Vec<String> = doomed.iter().map(|i| i.key.clone()).collect();
        crate::engine::undo::errors::before(&ctx.root, &db, &keys)?;
        db.delete(&keys, now)?;
    }
    let pruned: Vec<Pruned> = doomed
        .iter()
        .map(|i| Pruned {
            key: &i.key,
            id: &i.id,
            tool_name: &i.tool_name,
            reason: if i.expired { "expired" } else { "not-resolved" },
            dry_run: args.write.dry_run,
        })
        .collect();
    if ctx.out.json {
        ctx.out
            .envelope("errors prune", args.write.dry_run, &pruned, &[])?;
    } else {
        let expired = pruned.iter().filter(|p| p.reason == "expired").count();
        ctx.out.line(&format!(
            "{} {} record(s): {} expired, {} not resolved",
            if args.write.dry_run {
                "would remove"
            } else {
                "removed"
            },
            pruned.len(),
            expired,
            pruned.len() - expired
        ))?;
    }
    Ok(Done {
        changed: if args.write.dry_run {
            Vec::new()
        } else {
            pruned.iter().map(|p| p.key.to_owned()).collect()
        },
        ..Done::default()
    })
}

#[derive(Serialize)]
struct SearchHit<'a> {
    #[serde(flatten)]
    item: &'a ErrorItem,
    /// Cosine with the query (semantic); null for a keyword hit.
    score: Option<f64>,
    /// `semantic` or `keyword`: how this record was found.
    by: &'static str,
    /// With --touch-hits: whether its TTL was refreshed.
    touched: bool,
}

pub fn search(ctx: &Context, args: &ErrorsSearchArgs) -> Result<Done> {
    let db = load_db(ctx, DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let items = errors::searchable(&db, now, args.tool.as_deref())?;
    let mut scored: Vec<(ErrorItem, Option<f64>)> = Vec::new();
    let mut mode = "keyword";
    if args.by == MatchMode::Semantic {
        let dim = db.vector_dim()?.unwrap_or(embedding::DEFAULT_DIM);
        let query =
            embedding::query_vector(&db, &ctx.embed_settings(&args.embed), dim, &args.query)?.ok();
        match query {
            Some(q) => {
                let (hits, skipped) = errors::search_semantic(&db, items.clone(), &q, args.limit)?;
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
    let mut touched: Vec<String> = Vec::new();
    if args.touch_hits && !scored.is_empty() {
        // A write like any other: confirmed, locked, and said.
        let question = format!("Refresh the 90-day TTL of {} record(s)?", scored.len());
        if !targets::ask(None, args.yes, &question)? {
            ctx.out.line("aborted; nothing changed")?;
            return Ok(exit::FINDINGS.into());
        }
        let (_lock, mut fresh) = begin_write(ctx, args.force)?;
        // As Agenvoy's lookup: only records that are still there and live
        // get the new TTL; an expired one is gone, not revived.
        let keys: Vec<String> = scored
            .iter()
            .map(|(i, _)| i.key.clone())
            .filter(|k| fresh.is_live(k, now))
            .collect();
        crate::engine::undo::errors::before(&ctx.root, &fresh, &keys)?;
        fresh.expire(&keys, now + TTL_SECS, now)?;
        touched = keys;
    }
    let by = if mode == "semantic" {
        "semantic"
    } else {
        "keyword"
    };
    if ctx.out.json {
        let hits: Vec<SearchHit> = scored
            .iter()
            .map(|(i, s)| SearchHit {
                item: i,
                score: *s,
                by,
                touched: touched.contains(&i.key),
            })
            .collect();
        ctx.out.envelope("errors search", false, &hits, &[])?;
    } else if scored.is_empty() {
        ctx.out.line("no related errors")?;
    } else {
        let items: Vec<ErrorItem> = scored.into_iter().map(|(i, _)| i).collect();
        table(ctx, &items, now)?;
        if !touched.is_empty() {
            ctx.out.line(&format!(
                "refreshed the TTL of {} record(s) to 90 days",
                touched.len()
            ))?;
        }
    }
    Ok(Done {
        changed: touched,
        ..Done::default()
    })
}

/// `errors list --via daemon`: `GET /v1/torii/error`, the records as the
/// daemon lists them (a search with --tool/--keyword).
fn errors_list_via_daemon(ctx: &Context, args: &ErrorsListArgs) -> Result<Done> {
    let backend = ctx.backend(false)?;
    let Backend::Daemon(daemon) = &backend else {
        unreachable!("--via daemon never chooses the files")
    };
    if args.outcome.is_some() || args.expired {
        let option = if args.expired {
            "--expired"
        } else {
            "--outcome"
        };
        crate::cli_util::via::refuse_options(&backend, &[(option, true)])?;
    }
    let mut query = Vec::new();
    if let Some(n) = args.limit {
        // the daemon's own cap
        query.push(("limit", n.min(200).to_string()));
    }
    if let Some(t) = &args.tool {
        query.push(("tool", t.clone()));
    }
    if let Some(k) = &args.keyword {
        query.push(("keyword", k.clone()));
    }
    let records = daemon.error_records(&query)?;
    if ctx.out.json {
        ctx.out.envelope("errors list", false, &records, &[])?;
    } else if records.is_empty() {
        ctx.out.line("no error records match")?;
    } else {
        let text = |r: &serde_json::Value, k: &str| match &r[k] {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Array(a) => a
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .collect::<Vec<_>>()
                .join(", "),
            serde_json::Value::Null => String::new(),
            v => v.to_string(),
        };
        let mut t = Grid::new(vec![
            Col::id("ID"),
            Col::id("TOOL"),
            Col::text("KEYWORDS").optional(2),
            Col::text("SYMPTOM"),
            Col::text("ACTION"),
            Col::id("OUTCOME"),
        ]);
        for r in &records {
            t.row(
                [
                    "id",
                    "tool_name",
                    "keywords",
                    "symptom",
                    "action",
                    "outcome",
                ]
                .iter()
                .map(|k| one_line(&text(r, k)).into())
                .collect(),
            );
        }
        ctx.out.grid(&t)?;
    }
    Ok(Done::default())
}
