//! `summarize SESSION…|--all [--rebuild]`

use std::time::Duration;

use anyhow::Result;
use comfy_table::Cell;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::cli::{LlmArgs, SummarizeArgs, SummarizerKind, WriteArgs};
use crate::commands::{targets, Context};
use crate::engine::summarize::{self, Outcome};
use crate::engine::{limits, sessions};
use crate::error::{exit, Error};
use crate::llm::http::{HttpSummarizer, Wire};
use crate::llm::offline::Offline;
use crate::llm::Summarizer;
use crate::output::num;
use crate::store::archive::Archive;
use crate::store::history::Record;
use crate::store::layout::SessionDir;
use crate::store::{atomic, limits_cache, lock, trash};

/// The summarizer the flags ask for. Remote ones need a model name.
pub fn summarizer(args: &LlmArgs) -> crate::Result<Box<dyn Summarizer>> {
    let key = std::env::var("SESSIONCTL_LLM_API_KEY").ok();
    let timeout = Duration::from_secs(args.llm_timeout);
    let remote = |wire, default_url: &str| -> crate::Result<Box<dyn Summarizer>> {
        let model = args.llm_model.clone().ok_or_else(|| {
            Error::usage(
                "a remote summarizer needs a model: pass --llm-model or set SESSIONCTL_LLM_MODEL",
            )
        })?;
        let url = args
            .llm_url
            .clone()
            .unwrap_or_else(|| default_url.to_owned());
        Ok(Box::new(HttpSummarizer::new(
            wire,
            &url,
            &model,
            key.clone(),
            timeout,
        )))
    };
    match args.summarizer {
        SummarizerKind::Offline => Ok(Box::new(Offline)),
        SummarizerKind::Openai => remote(Wire::OpenAi, "https://api.openai.com"),
        SummarizerKind::Anthropic => remote(Wire::Anthropic, "https://api.anthropic.com"),
    }
}

/// The agent name a learned limit is filed under for this backend.
fn agent_of(args: &LlmArgs) -> Option<String> {
    let model = args.llm_model.as_ref()?;
    match args.summarizer {
        SummarizerKind::Offline => None,
        SummarizerKind::Openai => Some(format!("openai@{model}")),
        SummarizerKind::Anthropic => Some(format!("claude@{model}")),
    }
}

#[derive(Debug, Serialize)]
pub struct SummaryReport {
    pub ok: bool,
    pub action: &'static str,
    pub session: String,
    /// Records merged (or, in a dry run, that would be).
    pub count: usize,
    pub chunks: usize,
    pub summarizer: &'static str,
    pub cursor: Option<String>,
    pub cursor_before: Option<String>,
    pub rebuild: bool,
    pub dry_run: bool,
}

pub fn run(ctx: &Context, args: &SummarizeArgs) -> Result<i32> {
    let dirs: Vec<SessionDir> = targets::resolve_folders(&ctx.root, &args.targets)?
        .into_iter()
        // Agenvoy's summary job skips stateless temp- sessions too.
        .filter(|d| !(args.targets.all && d.id.starts_with("temp-")))
        .collect();
    if args.rebuild {
        let write = WriteArgs {
            dry_run: args.dry_run,
            yes: args.yes,
            purge: false,
            force: false,
        };
        let ids: Vec<&str> = dirs.iter().map(|d| d.id.as_str()).collect();
        let q = format!(
            "Rebuild the summary of {} session(s) ({})?",
            ids.len(),
            super::reset::preview(&ids)
        );
        if !targets::confirm(&write, &q)? {
            ctx.out.line("aborted; nothing changed")?;
            return Ok(exit::FINDINGS);
        }
    }
    let summarizer = summarizer(&args.llm)?;
    let mut reports = Vec::new();
    let bar = ctx.out.progress(dirs.len(), "summarizing");
    for dir in &dirs {
        let _lock = if args.dry_run {
            None
        } else {
            Some(lock::session(&ctx.root, &dir.id)?)
        };
        let result = refresh(
            ctx,
            dir,
            summarizer.as_ref(),
            args.rebuild,
            args.chunk_chars,
            args.dry_run,
        );
        let (outcome, rebuild) = match result {
            Ok(r) => r,
            Err(Failure { error, outcome }) => {
                learn_limits(ctx, &args.llm, &outcome);
                if let (Some(path), Some(reply)) = (&args.keep_failed, &outcome.failed_reply) {
                    std::fs::write(path, reply).map_err(|e| Error::write(path, e))?;
                    ctx.out
                        .warn(&format!("the failed reply was saved to {}", path.display()));
                }
                if outcome.chunks > 0 {
                    ctx.out.warn(&format!(
                        "{}: {} chunk(s) ({} record(s)) were merged and saved before the failure; a rerun continues",
                        dir.id, outcome.chunks, outcome.count
                    ));
                }
                return Err(error.into());
            }
        };
        learn_limits(ctx, &args.llm, &outcome);
        reports.push(SummaryReport {
            ok: true,
            action: "summary",
            session: dir.id.clone(),
            count: outcome.count,
            chunks: outcome.chunks,
            summarizer: summarizer.name(),
            cursor: outcome.cursor_after.clone(),
            cursor_before: outcome.cursor_before.clone(),
            rebuild,
            dry_run: args.dry_run,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    render(ctx, &reports)?;
    Ok(exit::OK)
}

/// A failed refresh, with what it merged (and saved) before failing.
pub struct Failure {
    pub error: Error,
    pub outcome: Box<Outcome>,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure {
            error,
            outcome: Box::default(),
        }
    }
}

/// Bring one session's summary up to date (or rebuild it). The caller
/// holds the session lock. Returns what was merged.
pub fn refresh(
    ctx: &Context,
    dir: &SessionDir,
    summarizer: &dyn Summarizer,
    rebuild: bool,
    chunk_chars: usize,
    dry_run: bool,
) -> Result<(Outcome, bool), Failure> {
    let records = sessions::load_history(dir)?
        .map(|h| h.records)
        .unwrap_or_default();
    let existing = sessions::load_summary(dir)?.map(|(s, _)| s.fields);
    let cursor = sessions::load_cursor(dir)?;
    let mut outcome = Outcome {
        cursor_before: cursor.clone(),
        cursor_after: cursor.clone(),
        ..Default::default()
    };

    let (mut summary, to_merge): (Map<String, Value>, Vec<Record>) = if rebuild {
        (Map::new(), whole_conversation(ctx, dir, &records)?)
    } else {
        let summary = existing.clone().unwrap_or_default();
        if cursor.is_none() && !summary.is_empty() {
            // Agenvoy's migration of a pre-cursor summary: set the cursor to
            // the newest record, merge nothing (§10.2 step 3).
            let newest = records.iter().rev().find_map(summarize::cursor_of);
            if !dry_run {
                if let Some(c) = &newest {
                    save_cursor(dir, c)?;
                }
            }
            outcome.cursor_after = newest;
            return Ok((outcome, false));
        }
        let new = summarize::after_cursor(&records, cursor.as_deref()).to_vec();
        (summary, new)
    };
    if dry_run {
        outcome.count = to_merge.len();
        outcome.chunks = summarize::chunks(&to_merge, chunk_chars).len();
        outcome.cursor_after = to_merge
            .iter()
            .rev()
            .find_map(summarize::cursor_of)
            .or(cursor);
        return Ok((outcome, rebuild));
    }
    if to_merge.is_empty() {
        return Ok((outcome, rebuild));
    }
    if rebuild {
        if let Some(old) = &existing {
            let t = trash::new_path(&ctx.root, &dir.id)?;
            trash::create(&ctx.root, &t, &dir.id)?;
            let bytes = serde_json::to_vec_pretty(old).expect("a summary serialises");
            atomic::write_atomic(&ctx.root, &t.join("summary.json"), &bytes)?;
        }
    }
    let mut save = |s: &Map<String, Value>, cursor: Option<&str>| save_summary(dir, s, cursor);
    match summarize::merge(
        &mut summary,
        &to_merge,
        summarizer,
        chunk_chars,
        &mut outcome,
        &mut save,
    ) {
        Ok(()) => Ok((outcome, rebuild)),
        Err(error) => Err(Failure {
            error,
            outcome: Box::new(outcome),
        }),
    }
}

/// Merge the given records (those after the cursor) into the session's
/// summary: compact's `fold` stage. The caller holds the session lock.
/// Returns how many were merged.
pub fn fold_records(
    dir: &SessionDir,
    records: &[Record],
    summarizer: &dyn Summarizer,
    dry_run: bool,
) -> crate::Result<usize> {
    let cursor = sessions::load_cursor(dir)?;
    let todo = summarize::after_cursor(records, cursor.as_deref());
    if dry_run || todo.is_empty() {
        return Ok(todo.len());
    }
    let mut summary = sessions::load_summary(dir)?
        .map(|(s, _)| s.fields)
        .unwrap_or_default();
    let mut outcome = Outcome::default();
    let mut save = |s: &Map<String, Value>, cursor: Option<&str>| save_summary(dir, s, cursor);
    summarize::merge(
        &mut summary,
        todo,
        summarizer,
        summarize::DEFAULT_CHUNK_CHARS,
        &mut outcome,
        &mut save,
    )?;
    Ok(outcome.count)
}

/// Persist a merged summary, then its cursor. Summary first: a crash
/// before the cursor moves re-merges a chunk, it never skips one.
fn save_summary(
    dir: &SessionDir,
    summary: &Map<String, Value>,
    cursor: Option<&str>,
) -> crate::Result<()> {
    let mut bytes = serde_json::to_vec_pretty(summary).expect("a summary serialises");
    bytes.push(b'\n');
    dir.write(&dir.summary_json(), &bytes)?;
    crate::failpoint("summary-before-cursor");
    if let Some(c) = cursor {
        save_cursor(dir, c)?;
    }
    Ok(())
}

fn save_cursor(dir: &SessionDir, cursor: &str) -> crate::Result<()> {
    let meta = serde_json::json!({ "last_message_time": cursor });
    dir.write(&dir.summary_meta(), meta.to_string().as_bytes())
}

/// For --rebuild: the archive oldest first, then history records that are
/// not archived yet.
fn whole_conversation(
    ctx: &Context,
    dir: &SessionDir,
    records: &[Record],
) -> crate::Result<Vec<Record>> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    if let Some(archive) = Archive::open_read(&ctx.root, &ctx.root.archive_path())? {
        archive.for_each_message(&dir.id, |m| {
            seen.insert((m.send_at, m.role.clone(), m.content.clone()));
            out.push(Record {
                role: m.role,
                content: Value::String(m.content),
                send_at: m.send_at,
                sender: m.sender,
                extra: Map::new(),
            });
            Ok(())
        })?;
    }
    for r in records {
        if !seen.contains(&(r.send_at, r.role.clone(), r.text().into_owned())) {
            out.push(r.clone());
        }
    }
    Ok(out)
}

/// Context-length errors teach the limits table the model's real window.
fn learn_limits(ctx: &Context, llm: &LlmArgs, outcome: &Outcome) {
    let Some(agent) = agent_of(llm) else { return };
    for text in &outcome.context_errors {
        let Some((limit, evidence)) = limits::parse_overflow_error(text, None) else {
            continue;
        };
        let stored = lock::limits(&ctx.root).and_then(|_lock| {
            let mut cache =
                limits_cache::load(&ctx.root)?.unwrap_or_else(limits::LimitsCache::builtin);
            if limits::learn(&mut cache, &agent, limit, evidence, chrono::Utc::now()) {
                limits_cache::save(&ctx.root, &cache)?;
            }
            Ok(())
        });
        match stored {
            Ok(()) => ctx.out.info(&format!(
                "{agent}: learned an input limit of {limit} from the provider's error"
            )),
            Err(e) => ctx
                .out
                .warn(&format!("could not store the learned limit: {e}")),
        }
    }
}

fn render(ctx: &Context, reports: &[SummaryReport]) -> Result<()> {
    if ctx.out.json {
        match reports {
            [one] => ctx.out.json(one)?,
            many => ctx.out.json(many)?,
        }
        return Ok(());
    }
    if reports.first().is_some_and(|r| r.dry_run) {
        ctx.out
            .line("dry run: nothing was changed; this is what would be merged")?;
    }
    let mut t = ctx
        .out
        .new_table(&["SESSION", "MERGED", "CHUNKS", "SUMMARIZER", "CURSOR"]);
    for r in reports {
        let cursor = match (&r.cursor_before, &r.cursor) {
            (Some(a), Some(b)) if a != b => format!("{a} → {b}"),
            (None, Some(b)) => format!("(none) → {b}"),
            (_, Some(b)) => b.clone(),
            (_, None) => "-".into(),
        };
        t.add_row(vec![
            Cell::new(&r.session),
            num(if r.count == 0 {
                "nothing new".to_owned()
            } else {
                r.count.to_string()
            }),
            num(r.chunks),
            Cell::new(r.summarizer),
            Cell::new(cursor),
        ]);
    }
    ctx.out.table(&t)?;
    Ok(())
}
