//! `sessions list`

use std::collections::HashMap;

use anyhow::Result;
use chrono::Utc;
use comfy_table::Cell;
use rayon::prelude::*;
use serde::Serialize;

use crate::cli::ListArgs;
use crate::commands::{load_db1, targets, Context};
use crate::engine::sessions::{self, SessionRow};
use crate::error::exit;
use crate::output::{bytes, num};
use crate::store::archive::Archive;
use crate::timefmt;

#[derive(Serialize)]
struct Listing<'a> {
    sessions: &'a [SessionRow],
}

pub fn list(ctx: &Context, args: &ListArgs) -> Result<i32> {
    let mut unreadable = false;
    let listing = ctx.root.session_ids()?;
    for (path, why) in &listing.skipped {
        ctx.out.warn(&format!("skipping {}: {why}", path.display()));
    }
    let now = torii_now();
    let db1 = load_db1(ctx)?;
    let torii_counts = db1.counts_by_session(now);
    let archive_counts = match Archive::open_read(&ctx.root, &ctx.root.archive_path()) {
        Ok(Some(a)) => a.counts_by_session()?,
        Ok(None) => HashMap::new(),
        Err(e) => {
            // Still list what the other tiers say; exit 65 at the end.
            ctx.out.warn(&e.to_string());
            unreadable = true;
            HashMap::new()
        }
    };

    let ids: Vec<&String> = listing
        .ids
        .iter()
        .filter(|id| targets::matches_id(&args.filters, id))
        .collect();
    let wall = Utc::now();
    let rows: Vec<SessionRow> = ids
        .par_iter()
        .filter_map(|id| {
            let dir = match ctx.root.session(id) {
                Ok(d) => d,
                Err(e) => return Some(Err(e)),
            };
            let row = sessions::row(&dir, &torii_counts, &archive_counts);
            targets::matches_times(&args.filters, &row, wall).then_some(Ok(row))
        })
        .collect::<crate::Result<_>>()?;

    for row in &rows {
        for p in &row.problems {
            ctx.out.warn(p);
            unreadable = true;
        }
    }

    if ctx.out.json {
        ctx.out.json(&Listing { sessions: &rows })?;
    } else if rows.is_empty() {
        ctx.out.line(if listing.ids.is_empty() {
            "no sessions under this root"
        } else {
            "no sessions match the filters"
        })?;
    } else {
        let mut t = ctx.out.new_table(&[
            "SESSION",
            "RECORDS",
            "TOKENS",
            "SIZE",
            "LAST ACTIVITY",
            "SUMMARY",
            "TORII KEYS",
            "ARCHIVED",
        ]);
        for r in &rows {
            let broken = !r.problems.is_empty();
            t.add_row(vec![
                Cell::new(&r.id),
                if broken {
                    Cell::new("?")
                } else {
                    num(r.records)
                },
                if broken {
                    Cell::new("?")
                } else {
                    num(format!("~{}", r.tokens))
                },
                Cell::new(bytes(r.bytes)),
                Cell::new(
                    r.last_at
                        .map(|t| format!("{} ({})", timefmt::local(t), timefmt::age(t, wall)))
                        .unwrap_or_else(|| "-".into()),
                ),
                Cell::new(match (r.has_summary, r.summary_at) {
                    (true, Some(t)) => timefmt::age(t, wall),
                    (true, None) => "yes".into(),
                    (false, _) => "-".into(),
                }),
                num(r.torii_keys),
                num(r.archived),
            ]);
        }
        ctx.out.table(&t)?;
        ctx.out.line(&format!(
            "{} session(s); {} record(s) in history, {} archived message(s)",
            rows.len(),
            rows.iter().map(|r| r.records).sum::<usize>(),
            rows.iter().map(|r| r.archived).sum::<u64>()
        ))?;
    }
    Ok(if unreadable { exit::DATA } else { exit::OK })
}

/// The "now" of ToriiDB expiry: wall-clock Unix seconds.
pub(crate) fn torii_now() -> i64 {
    crate::store::torii::now_unix()
}
