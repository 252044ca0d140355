//! `compact` as a batch operation: plan each session read-only (the cron
//! path skips a session by size without reading it), then apply under the
//! runner's locks in compact's crash-safe order (see `compact::apply`).

use std::path::PathBuf;

use serde::Serialize;

use crate::daemon::{Daemon, Done};
use crate::engine::batch::{Needs, Operation, ReadStores, Shared, StoreView, Stores, Target};
use crate::engine::compact::preimage::{self, Unfinished};
use crate::engine::compact::{self, Plan, SharedStores, StageReport, Task};
use crate::engine::limits::{window_for, LimitsCache, WindowSource};
use crate::engine::tokens::Counter;
use crate::engine::{session_config, sessions};
use crate::error::{Error, Result};
use crate::llm::offline::Offline;
use crate::store::history::Record;
use crate::store::layout::{DataRoot, SessionDir};
use crate::store::tasks;

/// One session's compaction: planned (a dry run) or done.
#[derive(Debug, Clone, Serialize)]
pub struct CompactReport {
    pub session: String,
    pub action: &'static str,
    /// Whether anything changed (in a dry run: would change).
    pub changed: bool,
    /// Records removed from history.json.
    pub removed_records: usize,
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
    pub removed_torii_keys: usize,
    /// Removed records the archive lacked, and got.
    pub archived_new: u64,
    /// Task histories rewritten; each is first copied, as it was, into
    /// `trash` (in a dry run: would be).
    pub task_histories_saved: Vec<String>,
    /// The trash entry holding them; null when no task history changed.
    pub trash: Option<PathBuf>,
    pub stages: Vec<StageReport>,
    /// Still over the target after every stage (only the newest
    /// `keep_last` exchanges and protected tool steps are left).
    pub still_over: bool,
    pub dry_run: bool,
    /// With --for-model, when the session is rewritten for the new model:
    /// config.json's model is set to it (`applied`), or would be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_switch: Option<ModelSwitch>,
    /// `daemon` when Agenvoy's daemon compacted: `removed_records` is its
    /// count; the token and byte figures are this tool's plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'static str>,
    /// An older daemon accepted the compaction to run in the background:
    /// no count comes back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started: Option<bool>,
    /// The interrupted operation whose compact of this session this run
    /// completes (in a dry run: would), taking over what it kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completes: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ModelSwitch {
    pub from: Option<String>,
    pub to: String,
    pub applied: bool,
}

/// The compact options, as plain data.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The model whose window sets the budget (else config.json's).
    pub model: Option<String>,
    pub budget: Option<u64>,
    pub max_bytes: u64,
    pub keep_last: usize,
    /// Moving the session to this model (the raw-tools stage).
    pub for_model: Option<String>,
    /// Skip a session that is small enough in bytes without reading it
    /// (`--all`, the cron path).
    pub skip_by_size: bool,
    pub dry_run: bool,
    /// Agenvoy's daemon applies it: the stores are Agenvoy's, so what an
    /// interrupted compact kept cannot be taken over and completed.
    pub through_daemon: bool,
}

/// Merges the records that leave history.json into the rolling summary
/// (`--fold`); the command side owns the summarizer.
pub trait Folder: Sync {
    /// Records merged (with `dry_run`: that would be, read-only).
    fn fold(
        &self,
        dir: &SessionDir,
        removed: &[Record],
        dry_run: bool,
        journal: &crate::store::oplog::Journal,
    ) -> Result<usize>;
}

pub struct Compact<'a> {
    pub settings: Settings,
    pub cache: LimitsCache,
    pub folder: Option<&'a dyn Folder>,
    /// Told each window guess (the caller says each once).
    pub warn: &'a (dyn Fn(&str) + Sync),
    /// The pre-images interrupted compacts left unfinished, read once per
    /// run (`Default::default()`: not read yet).
    pub unfinished: std::sync::OnceLock<Vec<Unfinished>>,
}

/// A session's report so far, and the plan when it was read.
pub struct Assessed {
    report: CompactReport,
    plan: Option<Plan>,
    /// An interrupted compact of the session to complete: its operation.
    pending: Option<String>,
}

impl Operation for Compact<'_> {
    type Plan = Assessed;
    type Report = CompactReport;

    fn needs(&self) -> Needs {
        Needs {
            // only a dry run reports db1 keys before applying; a real run
            // counts them under the lock, so the no-op cron run never
            // replays db1
            stores_in_plan: self.settings.dry_run,
            store_lock: true,
            limits_lock: false,
        }
    }

    fn intent(&self) -> crate::store::oplog::Intent {
        crate::store::oplog::Intent::of("compact")
    }

    fn plan(&self, t: &Target, view: &dyn StoreView) -> Result<Assessed> {
        let dir = t.dir.as_ref().ok_or_else(|| unknown(&t.id))?;
        let mut a = self.assess(dir)?;
        if !self.settings.through_daemon {
            a.pending = self
                .unfinished(dir.root())?
                .iter()
                .find(|u| u.session == dir.id)
                .map(|u| u.op.clone());
        }
        for w in &a.report.warnings {
            (self.warn)(w);
        }
        if let Some(plan) = a.plan.as_ref().filter(|_| self.settings.dry_run) {
            a.report.removed_torii_keys =
                compact::keys_before_cut(plan, view.session_keys(&t.id)).len();
            if let Some(f) = self.folder.filter(|_| !plan.removed.is_empty()) {
                let n = f.fold(
                    dir,
                    &plan.removed,
                    true,
                    crate::store::oplog::Journal::none(),
                )?;
                a.report.stages.insert(0, fold_stage(n, plan));
            }
        }
        Ok(a)
    }

    /// Work to do, or an interrupted compact of the session to complete
    /// (even with nothing left to compact: its pre-image is sealed and
    /// recorded, so `undo` can reverse what that run changed).
    fn has_work(&self, a: &Assessed) -> bool {
        a.plan.as_ref().is_some_and(Plan::has_work) || a.pending.is_some()
    }

    fn preview(&self, _t: &Target, a: &Assessed, dry_run: bool) -> CompactReport {
        let mut r = a.report.clone();
        r.dry_run = dry_run;
        r.changed = dry_run && self.has_work(a);
        r.completes = a.pending.clone().filter(|_| dry_run);
        r
    }

    /// Only what changed is named in the log: a session an interrupted
    /// compact was to be completed for, but which another run completed
    /// first, changed nothing.
    fn changed(&self, target: &Target, report: &CompactReport) -> Vec<String> {
        if report.changed {
            self.locks(target)
        } else {
            Vec::new()
        }
    }

    fn apply(&self, t: &Target, a: Assessed, stores: &mut Stores<'_>) -> Result<CompactReport> {
        self.apply_shared(t, a, &Shared::new(stores))
    }

    /// Sessions are independent (their own lock and files); db1 and the
    /// archive are taken only for the steps that touch them
    /// (`compact::apply_shared`), so one session's fsyncs overlap another's.
    fn applies_in_parallel(&self) -> bool {
        true
    }

    fn apply_shared(
        &self,
        t: &Target,
        a: Assessed,
        stores: &Shared<'_, '_>,
    ) -> Result<CompactReport> {
        let dir = t.dir.as_ref().ok_or_else(|| unknown(&t.id))?;
        let mut report = a.report;
        report.dry_run = false;
        let Some(plan) = a.plan.filter(Plan::has_work) else {
            // nothing left to compact; what an interrupted run left to complete
            let completes = match &a.pending {
                Some(from) => compact::complete_interrupted(dir, dir.root(), stores, from)?,
                None => None,
            };
            report.changed = completes.is_some();
            report.completes = completes;
            return Ok(report);
        };
        report.changed = true;
        if let Some(f) = self.folder.filter(|_| !plan.removed.is_empty()) {
            let merged = f.fold(dir, &plan.removed, false, stores.journal)?;
            report.stages.insert(0, fold_stage(merged, &plan));
        }
        // The model first: if the run stops before the histories are
        // rewritten, Agenvoy converts them itself on the new model
        // (RawToolFallback) and a rerun finishes the job.
        if let Some(switch) = report.model_switch.as_mut() {
            session_config::write_model(dir, &switch.to)?;
            switch.applied = true;
        }
        let (root, now, keys) = {
            let mut s = stores.lock();
            s.db1()?;
            (s.root, s.now, s.session_keys(&t.id))
        };
        let adopt = a.pending.as_deref();
        let applied = compact::apply_shared(&plan, dir, root, stores, keys, now, adopt)?;
        stores.lock().forget_keys(&t.id);
        report.removed_torii_keys = applied.torii_removed;
        report.archived_new = applied.archived;
        report.trash = applied.trash;
        report.completes = applied.completes;
        Ok(report)
    }

    /// A compact that finished the same command line an interrupted one
    /// ran (a rerun) has done its work: the unfinished pre-images were
    /// taken over (which closed their operation), and what is left of the
    /// interrupted run is either recorded or changed nothing.
    fn completes(&self, root: &DataRoot) -> Result<Vec<String>> {
        if self.settings.through_daemon || self.settings.dry_run {
            return Ok(Vec::new());
        }
        let argv: Vec<String> = std::env::args_os()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let log = crate::store::oplog::read(root)?;
        let mut out = Vec::new();
        for o in log.ops.iter().filter(|o| {
            o.command == "compact"
                && !o.done
                && o.undone_by.is_none()
                && o.argv.get(1..) == Some(&argv[..])
        }) {
            if !crate::store::oplog::is_running(root, &o.id)? {
                out.push(o.id.clone());
            }
        }
        Ok(out)
    }

    fn apply_daemon(
        &self,
        t: &Target,
        a: Assessed,
        daemon: &Daemon,
        _stores: &ReadStores<'_>,
    ) -> Result<CompactReport> {
        self.compact_via(t, a, daemon)
    }
}

impl Compact<'_> {
    /// The unfinished pre-images, read on first use.
    fn unfinished(&self, root: &DataRoot) -> Result<&[Unfinished]> {
        if let Some(u) = self.unfinished.get() {
            return Ok(u);
        }
        let found = preimage::unfinished(root)?;
        Ok(self.unfinished.get_or_init(|| found))
    }

    /// `POST /v1/session/:id/memory {"action":"compact"}`: Agenvoy compacts
    /// by its own rules (the options that would change them are refused
    /// before the batch starts).
    fn compact_via(&self, t: &Target, a: Assessed, daemon: &Daemon) -> Result<CompactReport> {
        let mut report = a.report;
        report.dry_run = false;
        report.via = Some("daemon");
        report.removed_torii_keys = 0;
        report.tokens_after = None;
        match daemon.memory(&t.id, "compact", None)? {
            Done::Count(n) => {
                report.removed_records = n as usize;
                report.changed = n > 0;
            }
            Done::Started => {
                report.removed_records = 0;
                report.started = Some(true);
                report.changed = true;
            }
        }
        Ok(report)
    }
}

fn fold_stage(merged: usize, plan: &Plan) -> StageReport {
    StageReport {
        stage: "fold",
        removed: merged,
        tokens_after: plan.tokens_before,
    }
}

fn unknown(id: &str) -> Error {
    Error::no_input(format!("unknown session '{id}': no session folder"))
        .with_hint("`sessionctl sessions list` shows the sessions under this root")
}

impl Compact<'_> {
    /// Read one session and plan it (or skip it by size).
    fn assess(&self, dir: &SessionDir) -> Result<Assessed> {
        let s = &self.settings;
        let config = sessions::load_config(dir)?;
        let agent = s
            .for_model
            .clone()
            .or_else(|| s.model.clone())
            .or_else(|| config.as_ref().and_then(|c| c.model.clone()))
            .unwrap_or_else(|| sessions::UNKNOWN_AGENT.into());
        let window = window_for(&agent, &self.cache, config.as_ref());
        let budget = s.budget.unwrap_or(window.budget);
        let counter = Counter::for_agent(&agent);
        let mut report = CompactReport {
            session: dir.id.clone(),
            action: "compact",
            changed: false,
            removed_records: 0,
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
            removed_torii_keys: 0,
            archived_new: 0,
            task_histories_saved: Vec::new(),
            trash: None,
            stages: Vec::new(),
            still_over: false,
            dry_run: s.dry_run,
            model_switch: None,
            via: None,
            started: None,
            completes: None,
        };

        // The cron path: a session whose files are smaller in bytes than the
        // budget in tokens cannot be over it (no tokenizer yields more than
        // one token per byte of JSON), so it is not even read.
        let size = |p: &std::path::Path| dir.inspect(p).ok().flatten().map_or(0, |m| m.len());
        let history_size = size(&dir.history_json());
        report.bytes_before = history_size;
        report.bytes_after = history_size;
        if s.skip_by_size && s.for_model.is_none() && history_size <= s.max_bytes {
            let largest_task = sessions::task_files(dir)?
                .iter()
                .map(|p| size(p))
                .max()
                .unwrap_or(0);
            if history_size + size(&dir.summary_json()) + largest_task <= budget {
                return Ok(Assessed {
                    report,
                    plan: None,
                    pending: None,
                });
            }
        }

        let history = sessions::load_history(dir)?;
        let summary_tokens = match sessions::load_summary(dir)? {
            Some((summary, _)) => sessions::summary_tokens(&summary, counter),
            None => 0,
        };
        let task_list = load_tasks(dir)?;
        let (records, file_bytes) = history.map_or((Vec::new(), 0), |h| (h.records, h.bytes));
        let raw_tools_budget = s.for_model.as_ref().map(|m| {
            s.budget
                .unwrap_or(window_for(m, &self.cache, config.as_ref()).budget)
        });
        let opts = compact::Options {
            counter,
            budget,
            max_bytes: s.max_bytes,
            keep_last: s.keep_last,
            raw_tools_budget,
            summarizer: &Offline,
        };
        let plan = compact::plan(records, file_bytes, summary_tokens, &task_list, &opts)?;
        report.tokens_before = Some(plan.tokens_before);
        report.tokens_after = Some(plan.tokens_after);
        report.bytes_before = plan.bytes_before;
        report.bytes_after = plan.bytes_after;
        report.removed_records = plan.removed.len();
        report.within_budget = !plan.over_tokens && !plan.over_bytes;
        report.stages = plan.stages.clone();
        report.still_over = plan.still_over();
        report.task_histories_saved = plan.changed_tasks.iter().map(|t| t.name.clone()).collect();
        let configured = config.and_then(|c| c.model);
        report.model_switch = s
            .for_model
            .clone()
            .filter(|to| plan.has_work() && configured.as_ref() != Some(to))
            .map(|to| ModelSwitch {
                from: configured,
                to,
                applied: false,
            });
        Ok(Assessed {
            report,
            plan: Some(plan),
            pending: None,
        })
    }
}

fn load_tasks(dir: &SessionDir) -> Result<Vec<Task>> {
    let mut list = Vec::new();
    for path in sessions::task_files(dir)? {
        if let Some(bytes) = dir.read(&path)? {
            list.push(Task {
                name: path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                messages: tasks::parse(&bytes, &path)?,
            });
        }
    }
    Ok(list)
}

impl SharedStores for Shared<'_, '_> {
    fn with<T>(
        &self,
        f: impl FnOnce(&mut crate::store::torii::Db, &mut crate::store::archive::Archive) -> Result<T>,
    ) -> Result<T> {
        let mut stores = self.lock();
        let (db1, archive) = stores.db1_and_archive()?;
        f(db1, archive)
    }

    fn journal(&self) -> &crate::store::oplog::Journal {
        self.journal
    }
}
