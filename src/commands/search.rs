//! `search QUERY [SESSION…]`

use anyhow::Result;

use crate::cli::{MatchMode, SearchArgs};
use crate::commands::{load_db1, Context, Done};
use crate::engine::embedding::{self, NoVector};
use crate::engine::search::{self, Scope};
use crate::error::Error;
use crate::store::archive::{Archive, ArchiveQuery};
use crate::store::layout::validate_session_id;
use crate::store::torii;
use crate::table::{when, Col, Grid};
use crate::timefmt;

pub fn run(ctx: &Context, args: &SearchArgs) -> Result<Done> {
    if args.query.trim().is_empty() {
        return Err(Error::usage("the search query is empty").into());
    }
    for id in &args.sessions {
        validate_session_id(id)?;
        ctx.root.session(id)?;
    }
    let now = torii::now_unix();
    let scope = Scope {
        sessions: &args.sessions,
        role: args.role.as_deref(),
        since: args.since.map(|b| {
            b.cutoff(crate::timefmt::now())
                .timestamp_nanos_opt()
                .unwrap_or(i64::MIN)
        }),
    };
    let keyword_only = args.by == Some(MatchMode::Keyword);
    // A keyword search needs only the db1 entries whose log line holds the
    // query's words. With the index an earlier read kept, it takes the
    // live keys in scope from it and replays only what was appended since,
    // without building the index; else it scans the log for those lines
    // (cheaper than the replay an index would need).
    let db1 = if keyword_only {
        None
    } else {
        Some(load_db1(ctx)?)
    };
    let resumed = if keyword_only {
        torii::Db::live_lines_resumed(&ctx.root, torii::DB_SESSION_HIST, now, |key| {
            scope.newest_first(key)
        })?
    } else {
        None
    };
    if let Some(r) = &resumed {
        for w in r.report.warnings(&r.path) {
            ctx.out.warn(&w);
        }
    }
    let recent = if keyword_only && resumed.is_none() {
        let found = torii::Db::scan_matching(
            &ctx.root,
            torii::DB_SESSION_HIST,
            &search::raw_test(&args.query),
        )?;
        for w in found.report.warnings(&found.path) {
            ctx.out.warn(&w);
        }
        Some(found)
    } else {
        None
    };

    let mut hits = Vec::new();
    let mut by_meaning = false;
    if let Some(db1) = &db1 {
        // Without --by, a search that cannot get a query vector quietly
        // searches by words: the default works offline.
        let asked = args.by == Some(MatchMode::Semantic);
        if let Some(q) = query_vector(ctx, args, db1, asked)? {
            let (found, skipped) = search::semantic(db1, now, &q, &scope, args.limit)?;
            if skipped > 0 {
                ctx.out.warn(&format!(
                    "{skipped} vector(s) of another dimension were skipped"
                ));
            }
            by_meaning = true;
            hits = found;
        }
    }
    if !by_meaning {
        let archive_hits = match Archive::open_read(&ctx.root, &ctx.root.archive_path())? {
            Some(a) => {
                let fts = if args.fts {
                    args.query.clone()
                } else {
                    search::fts_query(&search::terms(&args.query))
                };
                let mark = if ctx.out.color {
                    ("\x1b[1m", "\x1b[0m")
                } else {
                    ("[", "]")
                };
                a.search(&ArchiveQuery {
                    fts: &fts,
                    sessions: &args.sessions,
                    role: scope.role,
                    since: scope.since,
                    limit: args.limit,
                    mark,
                })?
            }
            None => Vec::new(),
        };
        hits = match (&db1, resumed, &recent) {
            (Some(db1), _, _) => {
                search::keyword(archive_hits, db1, now, &args.query, &scope, args.limit)?
            }
            (None, Some(r), _) => {
                search::keyword_in_lines(archive_hits, r, &args.query, &scope, args.limit)?
            }
            (None, None, Some(found)) => search::keyword_newest(
                archive_hits,
                found.keys(now),
                |k| found.entry(k),
                &args.query,
                &scope,
                args.limit,
            )?,
            (None, None, None) => Vec::new(),
        };
    }
    let how = if by_meaning { "semantic" } else { "keyword" };

    if ctx.out.json {
        ctx.out.envelope("search", false, &hits, &[])?;
        return Ok(Done::default());
    }
    if hits.is_empty() {
        ctx.out.line(&format!("no matches ({how} search)"))?;
        return Ok(Done::default());
    }
    let wall = timefmt::now();
    let mut t = Grid::new(vec![
        Col::id("SESSION"),
        Col::id("WHEN"),
        Col::id("ROLE").optional(1),
        Col::num("RELEVANCE"),
        Col::text("TEXT"),
    ]);
    for h in &hits {
        let when = if h.send_at == 0 {
            "-".into()
        } else {
            when(Some(timefmt::from_nanos(h.send_at)), wall)
        };
        t.row(vec![
            (&h.session).into(),
            when,
            (&h.role).into(),
            format!("{:.0}%", h.relevance * 100.0).into(),
            h.snippet
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .into(),
        ]);
    }
    ctx.out.grid(&t)?;
    ctx.out
        .footer(&format!("{} result(s), {how} search", hits.len()))?;
    Ok(Done::default())
}

/// The query's vector: ToriiDB's cache first, then the embedder. `None`
/// (with a notice) when semantic search cannot run.
fn query_vector(
    ctx: &Context,
    args: &SearchArgs,
    db1: &torii::Db,
    asked: bool,
) -> crate::Result<Option<Vec<f32>>> {
    let Some(dim) = db1.vector_dim()? else {
        if asked {
            ctx.out
                .warn("ToriiDB holds no message vectors; searching by keyword");
        }
        return Ok(None);
    };
    match embedding::query_vector(db1, &ctx.embed_settings(&args.embed), dim, &args.query)? {
        Ok(v) => Ok(Some(v)),
        Err(_) if !asked => Ok(None),
        Err(NoVector::Offline) => {
            ctx.out
                .warn("--offline: no embedding request is made; searching by keyword");
            Ok(None)
        }
        Err(NoVector::NoEmbedder) => {
            ctx.out
                .warn("no embedder configured (SESSIONCTL_EMBED_BASE_URL); searching by keyword");
            Ok(None)
        }
    }
}
