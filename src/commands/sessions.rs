//! `sessions list`

use std::collections::HashMap;

use anyhow::Result;
use chrono::Utc;
use rayon::prelude::*;

use crate::cli::ListArgs;
use crate::cli_util::targets;
use crate::commands::{load_db1, Context, Done};
use crate::engine::row_cache::{self, RowCache, TierCounts, TierStamp};
use crate::engine::sessions::{self, RowTokens, SessionRow};
use crate::engine::tokens::bpe;
use crate::error::exit;
use crate::output::bytes;
use crate::store::archive::{Archive, SessionCount};
use crate::store::token_cache::{self, TokenCache};
use crate::table::{when, Col, Field, Grid};
use crate::timefmt;

pub fn list(ctx: &Context, args: &ListArgs) -> Result<Done> {
    let mut unreadable = false;
    let listing = ctx.root.session_ids()?;
    for (path, why) in &listing.skipped {
        ctx.out.warn(&format!("skipping {}: {why}", path.display()));
    }
    let now = crate::store::torii::now_unix();
    let mut facts = row_cache::load(&ctx.root);
    let (torii_owned, archive_counts, tiers) = tier_counts(ctx, &facts, now, &mut unreadable)?;
    let torii_counts: HashMap<&str, u64> =
        torii_owned.iter().map(|(k, n)| (k.as_str(), *n)).collect();

    let ids: Vec<&String> = listing
        .ids
        .iter()
        .filter(|id| targets::matches_id(&args.filters, id))
        .collect();
    let wall = timefmt::now();
    let mut counts = token_cache::load(&ctx.root);
    let limits = crate::cli_util::windows::cached(ctx);
    let rows: Vec<SessionRow> = ids
        .par_iter()
        .filter_map(|id| {
            let dir = match ctx.root.session(id) {
                Ok(d) => d,
                Err(e) => return Some(Err(e)),
            };
            let mut row = sessions::row_cached(
                &dir,
                &torii_counts,
                &archive_counts,
                RowTokens::Count(&counts),
                Some(&facts),
            );
            row.budget = Some(sessions::budget_use_of(
                Some(row.config.clone()),
                &limits,
                row.tokens,
            ));
            targets::matches_times(&args.filters, &row, wall).then_some(Ok(row))
        })
        .collect::<crate::Result<_>>()?;
    remember_counts(ctx, &mut counts, &rows, &listing.ids);
    remember_facts(ctx, &mut facts, tiers, &rows, &listing.ids);
    let loaded: Vec<&str> = bpe::Encoding::loaded().iter().map(|e| e.name()).collect();
    ctx.out.info(&format!(
        "BPE tables loaded: {}",
        if loaded.is_empty() {
            "none".to_owned()
        } else {
            loaded.join(", ")
        }
    ));

    let mut rows = rows;
    sort(&mut rows, args);
    let mut errors = Vec::new();
    for row in &rows {
        for p in &row.problems {
            if !ctx.out.json {
                ctx.out.warn(p);
            }
            errors.push(crate::output::ErrorEntry {
                session: Some(row.id.clone()),
                code: exit::DATA,
                message: p.clone(),
                file: None,
                hint: None,
            });
            unreadable = true;
        }
    }

    if ctx.out.json {
        ctx.out.envelope("sessions list", false, &rows, &errors)?;
    } else if rows.is_empty() {
        ctx.out.line(if listing.ids.is_empty() {
            "no sessions under this root"
        } else {
            "no sessions match the filters"
        })?;
    } else {
        ctx.out.grid(&table(&rows, wall))?;
        ctx.out.footer(&format!(
            "{} session(s); {} record(s) in history, {} archived message(s)",
            rows.len(),
            rows.iter().map(|r| r.records).sum::<usize>(),
            rows.iter().map(|r| r.archived).sum::<u64>()
        ))?;
        ctx.out.footer(COUNTER_LEGEND)?;
    }
    Ok(Done {
        code: if unreadable { exit::DATA } else { exit::OK },
        sessions: rows.len(),
        failed: errors,
        ..Done::default()
    })
}

/// Narrow terminals keep the id, the size of the conversation and its
/// age; the tier counts go first.
fn table(rows: &[SessionRow], wall: chrono::DateTime<Utc>) -> Grid {
    let mut g = Grid::new(vec![
        Col::id("SESSION"),
        Col::num("RECORDS"),
        Col::num("TOKENS"),
        Col::num("SIZE").optional(3),
        Col::id("LAST ACTIVITY"),
        Col::id("SUMMARY").optional(2),
        Col::num("TORII KEYS").optional(6),
        Col::num("ARCHIVED").optional(5),
        Col::id("MODEL").optional(8),
        Col::id("WINDOW").optional(7),
        Col::num("BUDGET").optional(4),
        Col::num("USED").optional(1),
    ]);
    for r in rows {
        let broken = !r.problems.is_empty();
        let unknown = |text: String| if broken { "?".to_owned() } else { text };
        g.row(vec![
            r.id.as_str().into(),
            unknown(r.records.to_string()).into(),
            unknown(tokens_cell(r)).into(),
            bytes(r.bytes).into(),
            when(r.last_at, wall),
            match (r.has_summary, r.summary_at) {
                (true, Some(t)) => timefmt::age(t, wall),
                (true, None) => "yes".into(),
                (false, _) => "-".into(),
            }
            .into(),
            r.torii_keys.to_string().into(),
            r.archived.to_string().into(),
            r.model.as_deref().unwrap_or("-").into(),
            budget(r, |b| format!("{} {}", b.window, b.window_source.name())),
            budget(r, |b| b.budget.to_string()),
            budget(r, |b| format!("{:.1}%", b.used_percent)),
        ]);
    }
    g
}

fn budget(r: &SessionRow, show: impl Fn(&sessions::BudgetUse) -> String) -> Field {
    r.budget
        .as_ref()
        .map_or_else(|| "-".to_owned(), show)
        .into()
}

/// `--sort`, `--reverse`, `--limit`. Ascending is the natural reading
/// order (a–z, small to large, oldest first); ties go by session id.
fn sort(rows: &mut Vec<SessionRow>, args: &ListArgs) {
    use crate::cli::SortBy;
    let key = |r: &SessionRow| -> (i128, String) {
        let n: i128 = match args.sort {
            SortBy::Session => 0,
            SortBy::Records => r.records as i128,
            SortBy::Tokens => r.tokens as i128,
            SortBy::Size => r.bytes as i128,
            SortBy::Last => r
                .last_at
                .map_or(i128::MIN, |t| t.timestamp_millis() as i128),
            SortBy::Summary => r
                .summary_at
                .map_or(i128::MIN, |t| t.timestamp_millis() as i128),
            SortBy::Keys => r.torii_keys as i128,
            SortBy::Archived => r.archived as i128,
            // in millionths of a percent: small shares still order
            SortBy::Used => r
                .budget
                .as_ref()
                .map_or(-1, |b| (b.used_percent * 1e6) as i128),
        };
        (n, r.id.clone())
    };
    rows.sort_by_cached_key(key);
    if args.reverse {
        rows.reverse();
    }
    if let Some(n) = args.limit {
        rows.truncate(n);
    }
}

/// Store the exact counts made for this listing (best effort: a read-only
/// root still lists), dropping sessions that are gone.
fn remember_counts(ctx: &Context, cache: &mut TokenCache, rows: &[SessionRow], ids: &[String]) {
    let fresh: Vec<_> = rows
        .iter()
        .filter_map(|r| Some((r.id.clone(), r.counted.clone()?)))
        .collect();
    let before = cache.sessions.len();
    cache.sessions.retain(|id, _| ids.binary_search(id).is_ok());
    if fresh.is_empty() && cache.sessions.len() == before {
        return;
    }
    cache.rules = token_cache::COUNT_RULES;
    cache.sessions.extend(fresh);
    if let Err(e) = token_cache::save(&ctx.root, cache) {
        ctx.out
            .info(&format!("could not update the token-count cache: {e}"));
    }
}

type TierResult = (
    HashMap<String, u64>,
    HashMap<String, SessionCount>,
    Option<TierCounts>,
);

/// Every session's db1 key count and archive count: remembered ones while
/// db1's log (and no key has expired since), or the archive, is unchanged,
/// else counted, with what to remember (`None`: nothing new to keep).
fn tier_counts(
    ctx: &Context,
    cache: &RowCache,
    now: i64,
    unreadable: &mut bool,
) -> crate::Result<TierResult> {
    // stat first: a change while we read makes the next run count again
    let stamp = TierStamp::of(&ctx.root);
    let cached = |usable: &dyn Fn(&TierCounts, &TierStamp) -> bool| {
        cache
            .tiers
            .as_ref()
            .filter(|t| stamp.as_ref().is_some_and(|s| usable(t, s)))
    };
    let torii_cached = cached(&|t, s| t.torii_usable(s, now));
    let archive_cached = cached(&|t, s| t.archive_usable(s));
    // db1's counts, with what its replay warned about and until when the
    // counts hold
    let (torii, torii_warnings, torii_until) = match torii_cached {
        Some(t) => {
            for w in &t.torii_warnings {
                ctx.out.warn(w);
            }
            (
                t.torii.clone().into_iter().collect(),
                t.torii_warnings.clone(),
                t.torii_until,
            )
        }
        // Counted from the index an earlier read kept and what was
        // appended since, without building the index; else replayed.
        None => match crate::store::torii::Db::session_counts_resumed(&ctx.root, now)? {
            Some(c) => {
                let warnings = c.report.warnings(&c.path);
                for w in &warnings {
                    ctx.out.warn(w);
                }
                (c.counts, warnings, c.valid_until)
            }
            None => {
                let db1 = load_db1(ctx)?;
                let counts: HashMap<String, u64> = db1
                    .counts_by_session(now)
                    .into_iter()
                    .map(|(id, n)| (id.to_owned(), n))
                    .collect();
                let warnings = db1.report.warnings(&db1.aof_path());
                (counts, warnings, db1.counts_valid_until(now))
            }
        },
    };
    let mut archive_ok = true;
    let archive: HashMap<String, SessionCount> = match archive_cached {
        Some(t) => t
            .archive
            .iter()
            .map(|(id, (messages, oldest_send_at))| {
                let count = SessionCount {
                    messages: *messages,
                    oldest_send_at: *oldest_send_at,
                };
                (id.clone(), count)
            })
            .collect(),
        None => match Archive::open_read(&ctx.root, &ctx.root.archive_path()) {
            Ok(Some(a)) => a.counts_by_session()?,
            Ok(None) => HashMap::new(),
            Err(e) => {
                // Still list what the other tiers say; exit 65 at the end.
                ctx.out.warn(&e.to_string());
                *unreadable = true;
                archive_ok = false;
                HashMap::new()
            }
        },
    };
    if torii_cached.is_some() && archive_cached.is_some() {
        return Ok((torii, archive, None));
    }
    let now_ns = i128::from(now) * 1_000_000_000;
    let fresh = stamp
        .filter(|s| archive_ok && s.is_settled(now_ns))
        .map(|stamp| TierCounts {
            stamp,
            torii_until,
            torii_warnings,
            torii: torii.iter().map(|(k, n)| (k.clone(), *n)).collect(),
            archive: archive
                .iter()
                .map(|(k, c)| (k.clone(), (c.messages, c.oldest_send_at)))
                .collect(),
        });
    Ok((torii, archive, fresh))
}

/// Store what this listing read from changed sessions (best effort, and
/// nothing written when nothing changed).
fn remember_facts(
    ctx: &Context,
    cache: &mut RowCache,
    tiers: Option<TierCounts>,
    rows: &[SessionRow],
    ids: &[String],
) {
    let fresh = rows
        .iter()
        .filter_map(|r| Some((r.id.clone(), r.facts.clone()?)))
        .collect();
    let mut changed = cache.update(fresh, ids);
    if tiers.is_some() && cache.tiers != tiers {
        cache.tiers = tiers;
        changed = true;
    }
    if changed {
        if let Err(e) = row_cache::save(&ctx.root, cache) {
            ctx.out
                .info(&format!("could not update the session-row cache: {e}"));
        }
    }
}

/// Tokens are counted with each session's own counter; `~` marks an
/// estimate.
/// Two lines that fit 80 columns.
const COUNTER_LEGEND: &str = "tokens: exact with o200k/cl100k (OpenAI models), else ~estimated\n\
(est3: digits in threes, est: one token per digit); `show` names the counter";

/// `3,109 o200k` or `~4,019 est`: the count and the session's counter.
fn tokens_cell(r: &SessionRow) -> String {
    let tilde = if r.counter.is_exact() { "" } else { "~" };
    format!("{tilde}{} {}", r.tokens, r.counter.short())
}
