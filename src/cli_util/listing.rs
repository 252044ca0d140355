//! The rows of `sessions list`, as every face of the tool reads them (the
//! command's table, the interactive view): each session's row from its
//! files or the row cache, the shared stores' counts, the budget share by
//! the cached window table; what was newly counted is remembered.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use rayon::prelude::*;

use crate::cli::Filters;
use crate::cli_util::{targets, Context};
use crate::engine::row_cache::{self, RowCache, TierCounts, TierStamp};
use crate::engine::sessions::{self, RowTokens, SessionRow};
use crate::engine::tokens::bpe;
use crate::store::archive::{Archive, SessionCount};
use crate::store::token_cache::{self, TokenCache};
use crate::store::torii::{Db, DB_SESSION_HIST};
use crate::timefmt;

/// Every session row the filters keep, unsorted.
pub struct Listed {
    pub rows: Vec<SessionRow>,
    /// The root has no session at all (not just none that matches).
    pub none_at_all: bool,
    /// What the user should hear: skipped folders, ToriiDB's own traps,
    /// an unreadable archive.
    pub warnings: Vec<String>,
    /// A store could not be read: the rows lack its counts (exit 65).
    pub unreadable: bool,
    /// The time the rows' ages are measured from.
    pub wall: DateTime<Utc>,
}

pub fn rows(ctx: &Context, filters: &Filters) -> crate::Result<Listed> {
    let mut unreadable = false;
    let mut warnings = Vec::new();
    let listing = ctx.root.session_ids()?;
    for (path, why) in &listing.skipped {
        warnings.push(format!("skipping {}: {why}", path.display()));
    }
    let now = crate::store::torii::now_unix();
    let mut facts = row_cache::load(&ctx.root);
    let (torii_owned, archive_counts, tiers) =
        tier_counts(ctx, &facts, now, &mut unreadable, &mut warnings)?;
    let torii_counts: HashMap<&str, u64> =
        torii_owned.iter().map(|(k, n)| (k.as_str(), *n)).collect();

    let ids: Vec<&String> = listing
        .ids
        .iter()
        .filter(|id| targets::matches_id(filters, id))
        .collect();
    let wall = timefmt::now();
    let mut counts = token_cache::load(&ctx.root);
    let limits = crate::cli_util::context_window::cached(ctx);
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
            targets::matches_times(filters, &row, wall).then_some(Ok(row))
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
    Ok(Listed {
        rows,
        none_at_all: listing.ids.is_empty(),
        warnings,
        unreadable,
        wall,
    })
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
/// db1's log and the archive are unchanged (and no key has expired since),
/// else counted, with what to remember (`None`: nothing new to keep).
fn tier_counts(
    ctx: &Context,
    cache: &RowCache,
    now: i64,
    unreadable: &mut bool,
    warnings: &mut Vec<String>,
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
            warnings.extend(t.torii_warnings.iter().cloned());
            (
                t.torii.clone().into_iter().collect(),
                t.torii_warnings.clone(),
                t.torii_until,
            )
        }
        // Counted from the index an earlier read kept and what was
        // appended since, without building the index; else replayed.
        None => match Db::session_counts_resumed(&ctx.root, now)? {
            Some(c) => {
                let w = c.report.warnings(&c.path);
                warnings.extend(w.iter().cloned());
                (c.counts, w, c.valid_until)
            }
            None => {
                let db1 = Db::load_incremental(&ctx.root, DB_SESSION_HIST)?;
                let w = db1.report.warnings(&db1.aof_path());
                warnings.extend(w.iter().cloned());
                let counts: HashMap<String, u64> = db1
                    .counts_by_session(now)
                    .into_iter()
                    .map(|(id, n)| (id.to_owned(), n))
                    .collect();
                (counts, w, db1.counts_valid_until(now))
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
                warnings.push(e.to_string());
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
