//! `summarize` as a batch operation: the plan is what a merge would take
//! (records after the cursor, chunks, cursor before and after), read
//! without locks; apply merges under the session lock, saving summary.json
//! and the cursor after each chunk (`refresh`), with the pre-image undo
//! needs; through Agenvoy's daemon it asks the daemon to merge.
//!
//! A session found up to date with settled files is remembered with their
//! stamps (`up_to_date`), so the next run only stats it.

use std::collections::HashSet;
use std::sync::Mutex;

use serde::Serialize;

use crate::daemon::{Daemon, Done};
use crate::engine::batch::{Operation, ReadStores, StoreView, Stores, Target};
use crate::engine::row_cache::Stamp;
use crate::engine::summarize::up_to_date::{self, Entry, UpToDate};
use crate::engine::summarize::{refresh, Failure, Outcome};
use crate::error::{Error, Result};
use crate::llm::Summarizer;
use crate::store::layout::{DataRoot, SessionDir};

/// One session's summary refresh: planned (a dry run) or done.
#[derive(Debug, Clone, Serialize)]
pub struct SummaryReport {
    pub session: String,
    /// Records merged (or, in a dry run, that would be).
    pub count: usize,
    pub chunks: usize,
    pub summarizer: &'static str,
    pub cursor: Option<String>,
    pub cursor_before: Option<String>,
    pub rebuild: bool,
    pub dry_run: bool,
    /// `daemon` when Agenvoy's daemon merged (`count` is its number).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'static str>,
}

/// The summarize options, as plain data.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Start from an empty summary and merge the whole conversation.
    pub rebuild: bool,
    pub chunk_chars: usize,
    pub dry_run: bool,
    /// Writes go through Agenvoy's daemon, which reports only its count.
    pub via_daemon: bool,
    /// Every session was targeted: sessions not seen are forgotten by the
    /// up-to-date cache.
    pub all: bool,
}

/// What a session's merge taught or left behind, for the command to store
/// (a learned limit, a failed reply) and to say.
#[derive(Debug, Clone, Default)]
pub struct Aftermath {
    pub session: String,
    /// Provider errors saying a chunk was too long for the model.
    pub context_errors: Vec<String>,
    /// The raw reply of a chunk that failed validation twice.
    pub failed_reply: Option<String>,
    /// The merge failed after saving this many (chunks, records).
    pub saved_before_failure: Option<(usize, usize)>,
}

/// What planning found about a session, for the up-to-date cache.
enum Finding {
    /// Skipped by its unchanged stamps: its entry stands.
    Keep,
    /// Found up to date with settled files.
    Fresh(Box<Entry>),
    /// Has work, failed or changed: not known to be up to date.
    Forget,
}

pub struct Summarize<'a> {
    pub root: &'a DataRoot,
    pub summarizer: &'a dyn Summarizer,
    pub settings: Settings,
    known: UpToDate,
    findings: Mutex<Vec<(String, Finding)>>,
    aftermath: Mutex<Vec<Aftermath>>,
}

/// A session's merge as planned.
pub struct Pending {
    outcome: Outcome,
}

impl<'a> Summarize<'a> {
    pub fn new(root: &'a DataRoot, summarizer: &'a dyn Summarizer, settings: Settings) -> Self {
        Summarize {
            root,
            summarizer,
            settings,
            known: up_to_date::load(root),
            findings: Mutex::new(Vec::new()),
            aftermath: Mutex::new(Vec::new()),
        }
    }

    /// What the merges taught or left behind, in the order they ran.
    pub fn aftermath(&self) -> Vec<Aftermath> {
        self.aftermath.lock().expect("not poisoned").clone()
    }

    /// Remember the sessions found up to date (a real run only: a dry run
    /// writes nothing). Writes only when something changed.
    pub fn save_up_to_date(&self) -> Result<()> {
        if self.settings.dry_run {
            return Ok(());
        }
        let findings = std::mem::take(&mut *self.findings.lock().expect("not poisoned"));
        let seen: HashSet<&str> = findings.iter().map(|(id, _)| id.as_str()).collect();
        if !self.may_change(&findings, &seen) {
            return Ok(());
        }
        let mut next = self.known.clone();
        if self.settings.all {
            next.sessions.retain(|id, _| seen.contains(id.as_str()));
        }
        for (id, finding) in findings {
            match finding {
                Finding::Keep => {}
                Finding::Fresh(entry) => {
                    next.sessions.insert(id, *entry);
                }
                Finding::Forget => {
                    next.sessions.remove(&id);
                }
            }
        }
        if next.sessions == self.known.sessions {
            return Ok(());
        }
        up_to_date::save(self.root, &next)
    }

    /// Whether `findings` could change what is known, without copying it:
    /// a repeat run over an up-to-date root (every session kept) ends here.
    /// Conservative: `save_up_to_date` still compares before writing.
    fn may_change(&self, findings: &[(String, Finding)], seen: &HashSet<&str>) -> bool {
        let known = &self.known.sessions;
        let changed = findings.iter().any(|(id, f)| match f {
            Finding::Keep => false,
            Finding::Fresh(e) => known.get(id) != Some(&**e),
            Finding::Forget => known.contains_key(id),
        });
        changed || (self.settings.all && known.keys().any(|id| !seen.contains(id.as_str())))
    }

    fn found(&self, id: &str, finding: Finding) {
        self.findings
            .lock()
            .expect("not poisoned")
            .push((id.to_owned(), finding));
    }

    fn learned(&self, session: &str, outcome: &Outcome, failed: bool) {
        let a = Aftermath {
            session: session.to_owned(),
            context_errors: outcome.context_errors.clone(),
            failed_reply: outcome.failed_reply.clone(),
            saved_before_failure: (failed && outcome.chunks > 0)
                .then_some((outcome.chunks, outcome.count)),
        };
        if !a.context_errors.is_empty() || a.failed_reply.is_some() || failed {
            self.aftermath.lock().expect("not poisoned").push(a);
        }
    }

    /// Read the session (no summarizer is asked) and count what a merge
    /// would take.
    fn assess(&self, dir: &SessionDir) -> Result<Outcome> {
        let stamp = Stamp::of(dir);
        crate::failpoint("summarize-parse");
        let s = self.settings;
        let (outcome, _) = refresh(
            self.root,
            dir,
            self.summarizer,
            s.rebuild,
            s.chunk_chars,
            true,
            crate::store::oplog::Journal::none(),
        )
        .map_err(|f| f.error)?;
        let up_to_date = !s.rebuild && outcome.count == 0 && !outcome.cursor_only;
        let finding = match stamp {
            Some(stamp) if up_to_date && stamp.is_settled(up_to_date::now_ns()) => {
                Finding::Fresh(Box::new(Entry {
                    stamp,
                    cursor: outcome.cursor_after.clone(),
                }))
            }
            _ => Finding::Forget,
        };
        self.found(&dir.id, finding);
        Ok(outcome)
    }

    fn report(&self, t: &Target, outcome: &Outcome, dry_run: bool) -> SummaryReport {
        SummaryReport {
            session: t.id.clone(),
            count: outcome.count,
            chunks: outcome.chunks,
            summarizer: self.summarizer.name(),
            cursor: outcome.cursor_after.clone(),
            cursor_before: outcome.cursor_before.clone(),
            rebuild: self.settings.rebuild,
            dry_run,
            via: None,
        }
    }

    /// The daemon's report: its count, none of this tool's cursors.
    fn daemon_report(t: &Target, count: usize, via: bool) -> SummaryReport {
        SummaryReport {
            session: t.id.clone(),
            count,
            chunks: 0,
            summarizer: "agenvoy",
            cursor: None,
            cursor_before: None,
            rebuild: false,
            dry_run: false,
            via: via.then_some("daemon"),
        }
    }
}

impl Operation for Summarize<'_> {
    type Plan = Pending;
    type Report = SummaryReport;

    fn needs(&self) -> crate::engine::batch::Needs {
        // summary.json and its cursor are per session: no shared store
        crate::engine::batch::Needs::default()
    }

    fn intent(&self) -> crate::store::oplog::Intent {
        crate::store::oplog::Intent::of("summarize")
    }

    /// summary.json is Agenvoy's too: refuse while it runs, as every
    /// writer does (the runner asks only once something is to be written,
    /// so a cron run on an up-to-date root stays quiet).
    fn refuses_while_agenvoy_runs(&self) -> bool {
        true
    }

    fn plan(&self, t: &Target, _view: &dyn StoreView) -> Result<Pending> {
        let dir = t.dir.as_ref().ok_or_else(|| unknown(&t.id))?;
        if !self.settings.rebuild {
            if let Some(cursor) = self.known.cursor_if_unchanged(dir) {
                self.found(&t.id, Finding::Keep);
                let outcome = Outcome {
                    cursor_before: cursor.clone(),
                    cursor_after: cursor,
                    ..Default::default()
                };
                return Ok(Pending { outcome });
            }
        }
        let outcome = self
            .assess(dir)
            .inspect_err(|_| self.found(&t.id, Finding::Forget))?;
        Ok(Pending { outcome })
    }

    /// Nothing: apply reads the session again under its lock (`refresh`),
    /// so a plan made on older files needs no re-plan, and a cron run over
    /// an up-to-date root is not made to stat every file twice.
    fn watched(&self, _t: &Target) -> Vec<std::path::PathBuf> {
        Vec::new()
    }

    fn has_work(&self, p: &Pending) -> bool {
        p.outcome.count > 0 || p.outcome.cursor_only
    }

    fn preview(&self, t: &Target, p: &Pending, dry_run: bool) -> SummaryReport {
        if self.settings.via_daemon && !dry_run {
            return Self::daemon_report(t, 0, false);
        }
        self.report(t, &p.outcome, dry_run)
    }

    fn apply(&self, t: &Target, _p: Pending, stores: &mut Stores<'_>) -> Result<SummaryReport> {
        let dir = t.dir.as_ref().ok_or_else(|| unknown(&t.id))?;
        let s = self.settings;
        match refresh(
            self.root,
            dir,
            self.summarizer,
            s.rebuild,
            s.chunk_chars,
            false,
            stores.journal,
        ) {
            Ok((outcome, _)) => {
                self.learned(&t.id, &outcome, false);
                Ok(self.report(t, &outcome, false))
            }
            Err(Failure { error, outcome }) => {
                self.learned(&t.id, &outcome, true);
                Err(error)
            }
        }
    }

    /// `POST /v1/session/:id/memory {"action":"summary"}`: Agenvoy merges
    /// by its own rules and reports its count.
    fn apply_daemon(
        &self,
        t: &Target,
        _p: Pending,
        daemon: &Daemon,
        _stores: &ReadStores<'_>,
    ) -> Result<SummaryReport> {
        let count = match daemon.memory(&t.id, "summary", None)? {
            Done::Count(n) => n as usize,
            Done::Started => 0,
        };
        Ok(Self::daemon_report(t, count, true))
    }
}

fn unknown(id: &str) -> Error {
    Error::no_input(format!("unknown session '{id}': no session folder"))
        .with_hint("`sessionctl sessions list` shows the sessions under this root")
}
