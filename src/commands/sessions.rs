//! `sessions list`

use anyhow::Result;
use chrono::Utc;

use crate::cli::ListArgs;
use crate::cli_util::listing;
use crate::commands::{Context, Done};
use crate::engine::sessions::{self, SessionRow};
use crate::error::exit;
use crate::output::bytes;
use crate::table::{when, Col, Field, Grid};
use crate::timefmt;

pub fn list(ctx: &Context, args: &ListArgs) -> Result<Done> {
    let listed = listing::rows(ctx, &args.filters)?;
    for w in &listed.warnings {
        ctx.out.warn(w);
    }
    let mut unreadable = listed.unreadable;
    let wall = listed.wall;
    let mut rows = listed.rows;
    sort(&mut rows, args);
    let mut errors = Vec::new();
    for row in &rows {
        for p in &row.problems {
            let entry = crate::output::ErrorEntry::session_problem(&row.id, p.clone());
            if !ctx.out.json {
                ctx.out.problem(&entry);
            }
            errors.push(entry);
            unreadable = true;
        }
    }

    if ctx.out.json {
        ctx.out.envelope("sessions list", false, &rows, &errors)?;
    } else if rows.is_empty() {
        ctx.out.line(if listed.none_at_all {
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
        // a 56-character id leaves room for its tokens only
        Col::id("SESSION"),
        Col::num("RECORDS").optional(2),
        Col::num("TOKENS"),
        Col::num("SIZE").optional(5),
        Col::id("LAST ACTIVITY").optional(1),
        Col::id("SUMMARY").optional(4),
        Col::num("TORII KEYS").optional(8),
        Col::num("ARCHIVED").optional(7),
        Col::id("MODEL").optional(10),
        Col::id("WINDOW").optional(9),
        Col::num("BUDGET").optional(6),
        Col::num("USED").optional(3),
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
