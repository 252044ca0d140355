//! `show SESSION`

mod summary;

use anyhow::Result;
use chrono::Utc;

use crate::table::{Col, Field, Grid, Layout};

use crate::cli::ShowArgs;
use crate::commands::{load_db1, Context, Done};
use crate::engine::sessions::{self, SessionDetail};
use crate::error::exit;
use crate::output::{bytes, ErrorEntry};
use crate::store::archive::Archive;
use crate::timefmt;

pub fn run(ctx: &Context, args: &ShowArgs) -> Result<Done> {
    let dir = ctx.root.session(&args.session)?;
    let db1 = load_db1(ctx)?;
    let mut problems = Vec::new();
    let archive = match Archive::open_read(&ctx.root, &ctx.root.archive_path()) {
        Ok(a) => a,
        Err(e) => {
            problems.push(e.to_string());
            None
        }
    };
    let mut d = sessions::detail(
        &dir,
        &db1,
        archive.as_ref(),
        crate::store::torii::now_unix(),
    );
    d.problems.extend(problems);
    d.budget = Some(sessions::budget_use(
        &dir,
        &crate::cli_util::context_window::cached(ctx),
        d.tokens.request,
    ));
    if let Some(s) = d.summary.as_mut() {
        s.behind = behind(ctx, &dir);
    }
    if args.summary {
        return summary::run(ctx, &dir, &d);
    }
    let errors: Vec<ErrorEntry> = d
        .problems
        .iter()
        .map(|p| ErrorEntry::session_problem(&d.id, p.clone()))
        .collect();
    if ctx.out.json {
        ctx.out
            .envelope("show", false, std::slice::from_ref(&d), &errors)?;
    } else {
        for e in &errors {
            ctx.out.problem(e);
        }
        render(ctx, &d)?;
    }
    Ok(Done {
        code: if errors.is_empty() {
            exit::OK
        } else {
            exit::DATA
        },
        sessions: 1,
        failed: errors,
        ..Done::default()
    })
}

/// Records the next `summarize` would merge: its own dry run (the archive
/// and history.json after the cursor, by the same rules).
fn behind(ctx: &Context, dir: &crate::store::layout::SessionDir) -> Option<usize> {
    crate::engine::summarize::pending(&ctx.root, dir).ok()
}

fn render(ctx: &Context, d: &SessionDetail) -> std::io::Result<()> {
    let now = timefmt::now();
    let when = |t: Option<chrono::DateTime<Utc>>| {
        t.map(|t| format!("{} ({})", timefmt::local(t), timefmt::age(t, now)))
            .unwrap_or_else(|| "-".into())
    };
    let ns = |n: i64| when(Some(timefmt::from_nanos(n)));
    let exact = d.tokens.counter.is_exact();
    let tokens = |n: usize| format!("{}{n} tokens", if exact { "" } else { "~" });
    ctx.out.line(&title(ctx, d))?;
    let mut t = Grid::new(vec![Col::id("TIER"), Col::text("STATE")]).sectioned();
    t.row(vec![
        "history.json".into(),
        Field::from(match &d.history {
            None => "absent".into(),
            Some(h) => format!(
                "{} record(s) ({} user, {} assistant), {}, {}\nfirst {}\nlast  {}",
                h.records,
                h.user,
                h.assistant,
                bytes(h.bytes),
                tokens(h.tokens),
                when(h.first_at),
                when(h.last_at)
            ),
        }),
    ]);
    t.row(vec![
        "summary.json".into(),
        Field::from(match &d.summary {
            None => "absent".into(),
            Some(s) => {
                format!(
                "{}{}, {} key decision(s), {} past discussion(s)\ncurrent topic: {}\ncursor: {}",
                if s.valid { "valid" } else { "INVALID (fewer than 2 known keys)" },
                if s.legacy { " (legacy schema)" } else { "" },
                s.key_decisions,
                s.past_discussions,
                s.current_topic.as_deref().unwrap_or("-"),
                match (&s.cursor, s.summarized_up_to) {
                    (Some(c), Some(t)) => format!("{c} ({})", timefmt::age(t, now)),
                    (Some(c), None) => c.clone(),
                    (None, _) => "- (never summarised)".into(),
                } + &match s.behind {
                    Some(0) => ", up to date".to_owned(),
                    Some(n) => format!(", {n} record(s) behind"),
                    None => String::new(),
                }
            )
            }
        }),
    ]);
    t.row(vec![
        "history/ (tasks)".into(),
        Field::from(if d.tasks.is_empty() {
            "none".into()
        } else {
            d.tasks
                .iter()
                .map(|task| {
                    let s = &task.stats;
                    let mut line = format!(
                        "{}: {} message(s), {} tool step(s), {} call(s), {} result(s), {}",
                        task.file,
                        s.messages,
                        s.tool_steps,
                        s.tool_calls,
                        s.tool_results,
                        tokens(task.tokens)
                    );
                    if s.orphan_calls + s.orphan_results > 0 {
                        line.push_str(&format!(
                            " — {} orphan call(s), {} orphan result(s)",
                            s.orphan_calls, s.orphan_results
                        ));
                    }
                    line
                })
                .collect::<Vec<_>>()
                .join("\n")
        }),
    ]);
    t.row(vec![
        "pending/".into(),
        Field::from(if d.pending.is_empty() {
            "none".into()
        } else {
            d.pending.join(", ")
        }),
    ]);
    t.row(vec![
        "ToriiDB db1".into(),
        Field::from(if d.torii.keys == 0 {
            "no keys".into()
        } else {
            format!(
                "{} key(s), {} with a vector\n{} … {}",
                d.torii.keys,
                d.torii.with_vector,
                d.torii.first_key.as_deref().unwrap_or(""),
                d.torii.last_key.as_deref().unwrap_or("")
            )
        }),
    ]);
    t.row(vec![
        "SQLite archive".into(),
        Field::from(match &d.archive {
            None => "no archive file".into(),
            Some(a) => format!(
                "{} message(s){}\nsession_meta.start_at: {}",
                a.messages,
                match (a.oldest_send_at, a.newest_send_at) {
                    (Some(o), Some(n)) => format!(", {} → {}", ns(o), ns(n)),
                    _ => String::new(),
                },
                a.start_at.map(ns).unwrap_or_else(|| "-".into())
            ),
        }),
    ]);
    let k = &d.tokens;
    t.row(vec![
        "tokens".into(),
        Field::from(format!(
            "{} per request: history {} + summary {} + largest task {}\ncounted with {} ({}) for {}",
            tokens(k.request),
            k.history,
            k.summary,
            k.largest_task,
            k.counter.name(),
            if exact { "exact" } else { "estimate" },
            k.model.as_deref().unwrap_or("an unknown model")
        ) + &budget_line(d)),
    ]);
    t.row(vec![
        "files".into(),
        Field::from(
            d.files
                .iter()
                .map(|f| format!("{} {}", f.name, bytes(f.bytes)))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
    ]);
    ctx.out.grid(&t)
}

/// `\nbudget 160000 (80% of a 200000 window from the table): 0.3% used`
fn budget_line(d: &SessionDetail) -> String {
    match &d.budget {
        Some(b) => format!(
            "\nbudget {} (80% of a {} window, {}): {:.1}% used",
            b.budget,
            b.window,
            b.window_source.name(),
            b.used_percent
        ),
        None => String::new(),
    }
}

/// `session ID  PATH`: the path relative to the root when the absolute
/// one does not fit the terminal.
/// `session ID  PATH`: the path relative to the root when the absolute
/// one does not fit the terminal, on a line of its own when even that
/// does not (a long id).
fn title(ctx: &Context, d: &SessionDetail) -> String {
    let full = format!("session {}  {}", d.id, d.path);
    match ctx.out.layout() {
        Layout::Terminal(w) if full.chars().count() > w => {
            let relative = ctx.root.relative(std::path::Path::new(&d.path));
            let line = format!("session {}  {relative}", d.id);
            if line.chars().count() > w {
                format!("session {}\n  {relative}", d.id)
            } else {
                line
            }
        }
        _ => full,
    }
}
