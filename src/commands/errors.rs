//! `errors list | show | edit | prune | search`

use std::io::{IsTerminal, Read};

use anyhow::Result;
use chrono::Utc;
use serde::Serialize;

use crate::cli::{
    ErrorsEditArgs, ErrorsListArgs, ErrorsPruneArgs, ErrorsSearchArgs, ErrorsShowArgs, MatchMode,
};

use crate::commands::{batch_ui, load_db, Context, Done};
use crate::daemon::{Backend, Via};
use crate::engine::embedding;
use crate::engine::error_memory::ops::{self, EditReport};
use crate::engine::error_memory::{self, ErrorItem, Filter};
use crate::error::{exit, Error};
use crate::store::torii::{self, DB_ERROR_MEMORY};
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

fn table(
    ctx: &Context,
    items: &[ErrorItem],
    all_ids: &mut error_memory::IdIndex,
    now: i64,
) -> std::io::Result<()> {
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
    // The shortest prefix that tells each id apart from every record's (at
    // least 8 characters), not only the listed ones', so what is shown can
    // be typed back into `errors show` or `edit`.
    for i in items {
        t.row(vec![
            all_ids.shown(&i.id, &i.key, 8).into(),
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
    if ctx.out.json {
        // Each record is serialised once; only the bytes and a sort key
        // are kept until the list is sorted. Without a limit, room for
        // about the log's size, reserved and not touched: the output is
        // rarely larger, and growing by copies would touch (and for a
        // moment hold) twice the pages. A limited list is made of the
        // records that made the cut only.
        let room = match args.limit {
            Some(_) => 0,
            None => usize::try_from(db.report.bytes).unwrap_or(0) + 64 * db.len(),
        };
        let mut bytes = Vec::with_capacity(room);
        let spans = error_memory::list_with(&db, now, &f, args.sort, args.limit, None, |s, _| {
            let start = bytes.len();
            serde_json::to_writer(&mut bytes, s).expect("strings and numbers always serialise");
            start..bytes.len()
        })?;
        let results = spans.into_iter().map(|r| &bytes[r]);
        ctx.out.envelope_serialised("errors list", false, results)?;
        return Ok(Done::default());
    }
    let mut all_ids = error_memory::IdIndex::default();
    let items = error_memory::list_with(
        &db,
        now,
        &f,
        args.sort,
        args.limit,
        Some(&mut all_ids),
        |s, e| s.item(e, now),
    )?;
    if items.is_empty() {
        ctx.out.line("no error records match")?;
    } else {
        table(ctx, &items, &mut all_ids, now)?;
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
    let i = error_memory::resolve(&db, now, &args.id)?;
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

pub fn edit(ctx: &Context, args: &ErrorsEditArgs) -> Result<Done> {
    // What the user sees, edits and confirms is read without the lock (an
    // editor may stay open for minutes); apply reads the record again
    // under the lock and makes the same field edits to it.
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
    let item = error_memory::resolve(&preview, now, &args.id)?;
    error_memory::ensure_editable(&item, args.touch)?;
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
    let edit = ops::Edit {
        action,
        cause: args.cause.clone(),
        keywords: args.keywords.clone(),
        touch: args.touch,
    };
    drop(preview);
    let op = ops::EditError {
        root: &ctx.root,
        key: item.key.clone(),
        edit,
        embed: ctx.embed_settings(&args.embed),
        force: args.write.force,
    };
    let question =
        |_: &[&str], _: &[String]| format!("Rewrite error record {} ({})?", item.id, item.key);
    let write = crate::cli_util::guard::write_args(&args.write);
    let ui = batch_ui(ctx, &write, 1, question).through(&backend);
    let Some(report) = ctx.run_one(&op, ops::target(), ui)? else {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(exit::FINDINGS.into());
    };
    render_edit(ctx, &report)?;
    Ok(Done {
        sessions: 0,
        changed: if report.dry_run {
            Vec::new()
        } else {
            vec![report.key]
        },
        ..Done::default()
    })
}

fn render_edit(ctx: &Context, r: &EditReport) -> Result<()> {
    if ctx.out.json {
        ctx.out
            .envelope("errors edit", r.dry_run, std::slice::from_ref(r), &[])?;
        return Ok(());
    }
    ctx.out.line(&format!(
        "{}{} ({}): action now {:?}; expires {}; vector {}",
        if r.dry_run {
            "would rewrite "
        } else {
            "rewrote "
        },
        r.id,
        r.key,
        r.action,
        r.expire_at
            .map_or("never".into(), |t| timefmt::local(timefmt::from_nanos(
                t * 1_000_000_000
            ))),
        r.vector
    ))?;
    Ok(())
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

pub fn prune(ctx: &Context, args: &ErrorsPruneArgs) -> Result<Done> {
    // the warnings of the log, said once
    drop(load_db(ctx, DB_ERROR_MEMORY)?);
    let op = ops::PruneErrors {
        root: &ctx.root,
        which: ops::Prune::new(args.expired, args.not_resolved),
        now: torii::now_unix(),
        force: args.write.force,
        confirmed: Default::default(),
    };
    let question = |_: &[&str], plan: &[String]| format!("Remove {}?", plan.join(", "));
    let write = crate::cli_util::guard::write_args(&args.write);
    let ui = batch_ui(ctx, &write, 1, question);
    let Some(pruned) = ctx.run_one(&op, ops::target(), ui)? else {
        ctx.out.line("aborted; nothing changed")?;
        return Ok(exit::FINDINGS.into());
    };
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
            pruned.into_iter().map(|p| p.key).collect()
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
    let items = error_memory::searchable(&db, now, args.tool.as_deref())?;
    let mut scored: Vec<(ErrorItem, Option<f64>)> = Vec::new();
    let mut mode = "keyword";
    if args.by == MatchMode::Semantic {
        let dim = db.vector_dim()?.unwrap_or(embedding::DEFAULT_DIM);
        let query =
            embedding::query_vector(&db, &ctx.embed_settings(&args.embed), dim, &args.query)?.ok();
        match query {
            Some(q) => {
                let (hits, skipped) = error_memory::search_semantic(&db, items.clone(), &q, args.limit)?;
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
        scored = error_memory::search_keyword(items, &args.query, args.limit)
            .into_iter()
            .map(|i| (i, None))
            .collect();
    }
    let mut touched: Vec<String> = Vec::new();
    if args.touch_hits && !scored.is_empty() {
        // A write like any other: confirmed, locked, and said.
        let op = ops::TouchErrors {
            root: &ctx.root,
            keys: scored.iter().map(|(i, _)| i.key.clone()).collect(),
            now,
            force: args.force,
        };
        let write = crate::cli::WriteArgs {
            yes: args.yes,
            force: args.force,
            ..Default::default()
        };
        let n = scored.len();
        let question =
            |_: &[&str], _: &[String]| format!("Refresh the 90-day TTL of {n} record(s)?");
        let ui = batch_ui(ctx, &write, 1, question);
        match ctx.run_one(&op, ops::target(), ui)? {
            Some(keys) => touched = keys,
            None => {
                ctx.out.line("aborted; nothing changed")?;
                return Ok(exit::FINDINGS.into());
            }
        }
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
        table(ctx, &items, &mut error_memory::id_index(&db)?, now)?;
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
