//! `compact SESSION…|--all`

use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;

use crate::cli::{CompactArgs, WriteArgs};
use crate::commands::{
    clear, compact_view, limits, load_db1, reset::preview, sessions::torii_now, targets, Context,
};
use crate::engine::compact::{self, Plan, StageReport, Task};
use crate::engine::limits::{window_for, LimitsCache, WindowSource};
use crate::engine::tokens::Counter;
use crate::engine::{session_config, sessions};
use crate::error::exit;
use crate::llm::offline::Offline;
use crate::output::bytes;
use crate::store::archive::Archive;
use crate::store::layout::SessionDir;
use crate::store::tasks;

#[derive(Debug, Clone, Serialize)]
pub struct CompactReport {
    pub ok: bool,
    pub action: &'static str,
    pub session: String,
    /// Records removed from history.json.
    pub removed: usize,
    pub model: String,
    pub window_source: WindowSource,
    pub budget: u64,
    pub counter: &'static str,
    /// The window is a guess (unknown model, local runtime without num_ctx).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// `null` when the session was skipped by size without reading it.
    pub tokens_before: Option<usize>,
    pub tokens_after: Option<usize>,
    pub bytes_before: u64,
    pub bytes_after: u64,
    pub within_budget: bool,
    /// db1 keys deleted (in a dry run: that would be).
    pub torii_removed: usize,
    /// Removed records that were missing from the archive and were inserted.
    pub archived: u64,
    /// Task histories rewritten; each is first copied, as it was, into
    /// `trash` (in a dry run: would be).
    pub task_histories_saved: Vec<String>,
    /// The trash entry holding them; null when no task history changed.
    pub trash: Option<std::path::PathBuf>,
    pub stages: Vec<StageReport>,
    /// Still over the target after every stage (only the newest
    /// `keep_last` exchanges and protected tool steps are left).
    pub still_over: bool,
    pub dry_run: bool,
    /// With --for-model, when the session is rewritten for the new model:
    /// config.json's model is set to it (`applied`), or would be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_switch: Option<ModelSwitch>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ModelSwitch {
    pub from: Option<String>,
    pub to: String,
    pub applied: bool,
}

/// One session's assessment: its report, and the plan when there is work.
struct Assessed {
    dir: SessionDir,
    report: CompactReport,
    plan: Option<Plan>,
    /// Size and mtime of every file the plan read, to tell whether it is
    /// still valid once the lock is held.
    fingerprint: Fingerprint,
}

type Fingerprint = Vec<(std::path::PathBuf, u64, Option<std::time::SystemTime>)>;

fn fingerprint(dir: &SessionDir) -> crate::Result<Fingerprint> {
    let mut paths = vec![dir.history_json(), dir.summary_json(), dir.config_json()];
    paths.extend(sessions::task_files(dir)?);
    Ok(paths
        .into_iter()
        .map(|p| {
            let meta = dir.inspect(&p).ok().flatten();
            let (len, mtime) = meta.map_or((0, None), |m| (m.len(), m.modified().ok()));
            (p, len, mtime)
        })
        .collect())
}

pub fn run(ctx: &Context, args: &CompactArgs) -> Result<i32> {
    let dirs = targets::resolve_folders(&ctx.root, &args.targets)?;
    if dirs.is_empty() {
        ctx.out.line("no sessions match; nothing to do")?;
        return Ok(exit::OK);
    }
    let cache = limits::current(ctx)?;
    // Read and plan in parallel, without locks; most sessions need nothing.
    let clock = std::time::Instant::now();
    let bar = ctx.out.progress(dirs.len(), "assessing");
    let assessed: Vec<Assessed> = dirs
        .into_par_iter()
        .map(|dir| {
            let a = assess(dir, args, &cache, args.targets.all);
            bar.inc(1);
            a
        })
        .collect::<crate::Result<_>>()?;
    bar.finish_and_clear();
    ctx.out.info(&format!(
        "assessed {} session(s) in {:.2?}",
        assessed.len(),
        clock.elapsed()
    ));

    let summarizer = super::summarize::summarizer(&args.llm)?;
    let (mut with_work, mut reports): (Vec<Assessed>, Vec<Assessed>) = assessed
        .into_iter()
        .partition(|a| a.plan.as_ref().is_some_and(Plan::has_work));
    if !with_work.is_empty() && !args.dry_run {
        let write = WriteArgs {
            dry_run: false,
            yes: args.yes,
            purge: false,
            force: args.force,
        };
        let ids: Vec<&str> = with_work.iter().map(|a| a.dir.id.as_str()).collect();
        let question = format!("Compact {} session(s) ({})?", ids.len(), preview(&ids));
        if !targets::confirm(&write, &question)? {
            ctx.out.line("aborted; nothing changed")?;
            return Ok(exit::FINDINGS);
        }
        let _guard = clear::begin(ctx, &ids, &write)?;
        let clock = std::time::Instant::now();
        let mut db1 = load_db1(ctx)?;
        db1.check_writable(args.force)?;
        let mut archive = Archive::open_write(&ctx.root, &ctx.root.archive_path())?;
        ctx.out.info(&format!(
            "loaded ToriiDB db1 and the archive in {:.2?}",
            clock.elapsed()
        ));
        let bar = ctx.out.progress(with_work.len(), "compacting");
        for a in with_work {
            // Under the lock, the plan stands only if no file changed since.
            let fresh = if fingerprint(&a.dir)? == a.fingerprint {
                a
            } else {
                assess(a.dir, args, &cache, false)?
            };
            let mut report = fresh.report;
            if let Some(plan) = fresh.plan.filter(Plan::has_work) {
                if args.fold && !plan.removed.is_empty() {
                    let merged = super::summarize::fold_records(
                        ctx,
                        &fresh.dir,
                        &plan.removed,
                        summarizer.as_ref(),
                        false,
                    )?;
                    report.stages.insert(
                        0,
                        StageReport {
                            stage: "fold",
                            removed: merged,
                            tokens_after: plan.tokens_before,
                        },
                    );
                }
                // The model first: if the run stops before the histories
                // are rewritten, Agenvoy converts them itself on the new
                // model (RawToolFallback) and a rerun finishes the job.
                if let Some(switch) = report.model_switch.as_mut() {
                    session_config::write_model(&fresh.dir, &switch.to)?;
                    switch.applied = true;
                }
                let clock = std::time::Instant::now();
                let applied = compact::apply(
                    &plan,
                    &fresh.dir,
                    &ctx.root,
                    &mut archive,
                    &mut db1,
                    torii_now(),
                )?;
                ctx.out.info(&format!(
                    "{}: written in {:.2?}",
                    fresh.dir.id,
                    clock.elapsed()
                ));
                report.torii_removed = applied.torii_removed;
                report.archived = applied.archived;
                report.trash = applied.trash;
            }
            reports.push(Assessed {
                dir: fresh.dir,
                report,
                plan: None,
                fingerprint: Vec::new(),
            });
            bar.inc(1);
        }
        bar.finish_and_clear();
    } else {
        // A dry run reports the db1 keys the real run would delete.
        if with_work
            .iter()
            .any(|a| a.plan.as_ref().is_some_and(|p| !p.removed.is_empty()))
        {
            let db1 = load_db1(ctx)?;
            let now = torii_now();
            for a in &mut with_work {
                if let Some(plan) = &a.plan {
                    a.report.torii_removed = compact::torii_keys(plan, &a.dir.id, &db1, now).len();
                }
            }
        }
        if args.fold {
            for a in &mut with_work {
                if let Some(plan) = a.plan.as_ref().filter(|p| !p.removed.is_empty()) {
                    let n = super::summarize::fold_records(
                        ctx,
                        &a.dir,
                        &plan.removed,
                        summarizer.as_ref(),
                        true,
                    )?;
                    a.report.stages.insert(
                        0,
                        StageReport {
                            stage: "fold",
                            removed: n,
                            tokens_after: plan.tokens_before,
                        },
                    );
                }
            }
        }
        reports.extend(with_work);
    }
    reports.sort_by(|a, b| a.dir.id.cmp(&b.dir.id));
    let reports: Vec<CompactReport> = reports.into_iter().map(|a| a.report).collect();
    let mut warned = std::collections::BTreeSet::new();
    for w in reports.iter().flat_map(|r| &r.warnings) {
        if warned.insert(w) {
            ctx.out.warn(w);
        }
    }
    render(ctx, &reports)?;
    Ok(exit::OK)
}

fn assess(
    dir: SessionDir,
    args: &CompactArgs,
    cache: &LimitsCache,
    skip_by_size: bool,
) -> crate::Result<Assessed> {
    let fingerprint = fingerprint(&dir)?;
    let config = sessions::load_config(&dir)?;
    let agent = args
        .for_model
        .clone()
        .or_else(|| args.model.clone())
        .or_else(|| config.as_ref().and_then(|c| c.model.clone()))
        .unwrap_or_else(|| sessions::UNKNOWN_AGENT.into());
    let window = window_for(&agent, cache, config.as_ref());
    let budget = args.budget.unwrap_or(window.budget);
    let counter = Counter::for_agent(&agent);
    let mut report = CompactReport {
        ok: true,
        action: "compact",
        session: dir.id.clone(),
        removed: 0,
        model: agent.clone(),
        window_source: window.source,
        budget,
        counter: counter.name(),
        warnings: window.warning.into_iter().collect(),
        tokens_before: None,
        tokens_after: None,
        bytes_before: 0,
        bytes_after: 0,
        within_budget: true,
        torii_removed: 0,
        archived: 0,
        task_histories_saved: Vec::new(),
        trash: None,
        stages: Vec::new(),
        still_over: false,
        dry_run: args.dry_run,
        model_switch: None,
    };

    // The cron path: a session whose files are smaller in bytes than the
    // budget in tokens cannot be over it (no tokenizer yields more than one
    // token per byte of JSON), so it is not even read.
    let size = |p: &std::path::Path| dir.inspect(p).ok().flatten().map_or(0, |m| m.len());
    let history_size = size(&dir.history_json());
    report.bytes_before = history_size;
    report.bytes_after = history_size;
    if skip_by_size && args.for_model.is_none() && history_size <= args.max_bytes {
        let largest_task = sessions::task_files(&dir)?
            .iter()
            .map(|p| size(p))
            .max()
            .unwrap_or(0);
        if history_size + size(&dir.summary_json()) + largest_task <= budget {
            return Ok(Assessed {
                dir,
                report,
                plan: None,
                fingerprint,
            });
        }
    }

    let history = sessions::load_history(&dir)?;
    let summary_tokens = match sessions::load_summary(&dir)? {
        Some((s, _)) => sessions::summary_tokens(&s, counter),
        None => 0,
    };
    let mut task_list = Vec::new();
    for path in sessions::task_files(&dir)? {
        if let Some(bytes) = dir.read(&path)? {
            task_list.push(Task {
                name: path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                messages: tasks::parse(&bytes, &path)?,
            });
        }
    }
    let (records, file_bytes) = history.map_or((Vec::new(), 0), |h| (h.records, h.bytes));
    let raw_tools_budget = args.for_model.as_ref().map(|m| {
        args.budget
            .unwrap_or(window_for(m, cache, config.as_ref()).budget)
    });
    let opts = compact::Options {
        counter,
        budget,
        max_bytes: args.max_bytes,
        keep_last: args.keep_last,
        raw_tools_budget,
        summarizer: &Offline,
    };
    let plan = compact::plan(records, file_bytes, summary_tokens, &task_list, &opts)?;
    report.tokens_before = Some(plan.tokens_before);
    report.tokens_after = Some(plan.tokens_after);
    report.bytes_before = plan.bytes_before;
    report.bytes_after = plan.bytes_after;
    report.removed = plan.removed.len();
    report.within_budget = !plan.over_tokens && !plan.over_bytes;
    report.stages = plan.stages.clone();
    report.still_over = plan.still_over();
    report.task_histories_saved = plan.changed_tasks.iter().map(|t| t.name.clone()).collect();
    let configured = config.and_then(|c| c.model);
    report.model_switch = args
        .for_model
        .clone()
        .filter(|to| plan.has_work() && configured.as_ref() != Some(to))
        .map(|to| ModelSwitch {
            from: configured,
            to,
            applied: false,
        });
    Ok(Assessed {
        dir,
        report,
        plan: Some(plan),
        fingerprint,
    })
}

fn render(ctx: &Context, reports: &[CompactReport]) -> Result<()> {
    if ctx.out.json {
        match reports {
            [one] => ctx.out.json(one)?,
            many => ctx.out.json(many)?,
        }
        return Ok(());
    }
    if reports.iter().any(|r| r.dry_run && !r.stages.is_empty()) {
        ctx.out
            .line("dry run: nothing was changed; this is what compact would do")?;
    }
    let tokens = |t: Option<usize>| t.map_or_else(|| "(by size)".to_owned(), |t| t.to_string());
    let mut lines = Vec::new();
    for r in reports {
        let stages = if r.stages.is_empty() {
            "-".to_owned()
        } else {
            r.stages
                .iter()
                .map(|s| format!("{} −{}", s.stage, s.removed))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut result = if r.within_budget && r.stages.is_empty() {
            "within budget".to_owned()
        } else if r.stages.is_empty() {
            "over budget, nothing left to remove".to_owned()
        } else if r.dry_run {
            format!(
                "would remove {} history record(s), {} ToriiDB key(s)",
                r.removed, r.torii_removed
            )
        } else {
            format!(
                "removed {} history record(s), {} ToriiDB key(s); {} newly archived",
                r.removed, r.torii_removed, r.archived
            )
        };
        if !r.task_histories_saved.is_empty() {
            result.push_str(&format!(
                "; {} task histor{} {} kept in the trash as {} {}",
                r.task_histories_saved.len(),
                if r.task_histories_saved.len() == 1 {
                    "y"
                } else {
                    "ies"
                },
                if r.dry_run { "would be" } else { "were" },
                if r.dry_run { "they are" } else { "they were" },
                r.trash
                    .as_ref()
                    .map(|t| format!("({})", t.display()))
                    .unwrap_or_default()
            ));
        }
        if r.still_over && !r.stages.is_empty() {
            result.push_str("; still over: only protected turns remain");
        }
        if let Some(m) = &r.model_switch {
            let verb = if m.applied { "set" } else { "would set" };
            result.push_str(&format!("; {verb} config.json model to {}", m.to));
        }
        lines.push(compact_view::Line {
            session: r.session.clone(),
            model: r.model.clone(),
            window_source: serde_json::to_value(r.window_source)?
                .as_str()
                .unwrap_or("")
                .to_owned(),
            budget: r.budget.to_string(),
            tokens_before: tokens(r.tokens_before),
            tokens_after: tokens(r.tokens_after),
            size: if r.bytes_before == r.bytes_after {
                bytes(r.bytes_before)
            } else {
                format!("{} → {}", bytes(r.bytes_before), bytes(r.bytes_after))
            },
            stages,
            result,
        });
    }
    ctx.out.grid(&compact_view::grid(lines))?;
    Ok(())
}
