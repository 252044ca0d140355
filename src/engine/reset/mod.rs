//! What Agenvoy's reset and remove take away, and its reset base
//! (docs/agenvoy-format.md#manual-actions).
//!
//! | operation       | history.json | db1 `<id>:*` | SQLite rows | summary.json |
//! |-----------------|--------------|--------------|-------------|--------------|
//! | reset summary   | deleted      | cleared      | cleared     | kept         |
//! | reset all       | deleted      | cleared      | cleared     | deleted      |
//! | remove          | folder gone  | cleared      | cleared     | folder gone  |
//!
//! Reset also takes `history/`, `pending/` and `action.log`, as Agenvoy's
//! reset does; it never takes usage.log, config.json, bot.md, status.json,
//! `.history`, other sessions, the error memory or `file_history`.

mod daemon;
mod trash_copy;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::daemon::Daemon;
use crate::engine::batch::{Needs, Operation, ReadStores, StoreView, Stores, Target};
use crate::engine::summarize;
use crate::error::{Error, Result};
use crate::llm::Summarizer;
use crate::store::atomic;
use crate::store::layout::{DataRoot, SessionDir};
use crate::store::trash;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ResetMode {
    /// Clear the conversation, keep the rolling summary (summary.json + cursor).
    Summary,
    /// Clear the conversation and the rolling summary.
    All,
}

/// Files (relative to the session folder) that a reset removes, in order.
pub fn files_to_reset(mode: ResetMode) -> &'static [&'static str] {
    match mode {
        ResetMode::Summary => &["history.json", "history", "pending", "action.log"],
        ResetMode::All => &[
            "history.json",
            "history",
            "pending",
            "action.log",
            "summary.json",
            "summary.meta.json",
        ],
    }
}

/// One session's reset or remove: planned (a dry run) or done.
#[derive(Debug, Clone, Serialize)]
pub struct ClearReport {
    pub session: String,
    /// `reset` or `remove`.
    pub action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<ResetMode>,
    /// Whether anything changed (in a dry run: would change).
    pub changed: bool,
    /// db1 `<session>:*` keys deleted (Agenvoy's `removed`).
    pub removed_torii_keys: usize,
    /// Archived messages deleted (with their session_meta row).
    pub removed_archive_rows: u64,
    /// Paths taken away, relative to the session folder; `remove` lists
    /// the folder itself as ".".
    pub removed_files: Vec<String>,
    /// `--mode summary`: records merged into the summary first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary_merged: Option<usize>,
    /// Where everything taken away was put; null with --purge or a dry run.
    pub trash: Option<PathBuf>,
    pub dry_run: bool,
    /// `daemon` when Agenvoy's daemon did it (its count in
    /// `removed_torii_keys`; the other counts are what was kept first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'static str>,
}

/// Brings a session's rolling summary up to date before a `--mode summary`
/// reset, as Agenvoy does: a failure aborts that session's reset.
pub trait SummaryRefresher: Sync {
    /// Records a refresh would merge now (read-only).
    fn pending(&self, dir: &SessionDir) -> Result<usize>;
    /// Merge them (keeping the summary as it was in `journal`'s
    /// operation); the session lock is held. Returns the records merged.
    fn refresh(&self, dir: &SessionDir, journal: &crate::store::oplog::Journal) -> Result<usize>;
}

/// The refresher `summarize` itself uses: every record after the cursor,
/// merged in chunks by this summarizer.
pub struct Refresher<'a> {
    pub root: &'a DataRoot,
    pub summarizer: &'a dyn Summarizer,
}

impl Refresher<'_> {
    /// The records the summary lacks: counted (`dry_run`) or merged.
    fn merge(
        &self,
        dir: &SessionDir,
        dry_run: bool,
        journal: &crate::store::oplog::Journal,
    ) -> Result<usize> {
        summarize::refresh(
            self.root,
            dir,
            self.summarizer,
            false,
            summarize::DEFAULT_CHUNK_CHARS,
            dry_run,
            journal,
        )
        .map(|(o, _)| o.count)
        .map_err(|f| f.error)
    }
}

impl SummaryRefresher for Refresher<'_> {
    fn pending(&self, dir: &SessionDir) -> Result<usize> {
        self.merge(dir, true, crate::store::oplog::Journal::none())
    }

    fn refresh(&self, dir: &SessionDir, journal: &crate::store::oplog::Journal) -> Result<usize> {
        self.merge(dir, false, journal)
    }
}

/// What is in each tier for one session, before anything changes.
#[derive(Debug, Clone)]
pub struct Found {
    files: Vec<String>,
    keys: usize,
    rows: u64,
    summary: Option<usize>,
    /// `remove`: the folder (or symlink) to take away.
    folder: Option<PathBuf>,
}

impl Found {
    fn has_work(&self) -> bool {
        !self.files.is_empty()
            || self.keys > 0
            || self.rows > 0
            || self.folder.is_some()
            || self.summary.is_some_and(|n| n > 0)
    }
}

fn report(action: &'static str, mode: Option<ResetMode>, t: &Target, f: &Found) -> ClearReport {
    ClearReport {
        session: t.id.clone(),
        action,
        mode,
        changed: f.has_work(),
        removed_torii_keys: f.keys,
        removed_archive_rows: f.rows,
        removed_files: match &f.folder {
            Some(_) => vec![".".into()],
            None => f.files.clone(),
        },
        summary_merged: f.summary,
        trash: None,
        dry_run: true,
        via: None,
    }
}

/// `reset --mode summary|all`.
pub struct Reset<'a> {
    pub mode: ResetMode,
    /// Delete instead of moving to `sessions/.Trash`.
    pub purge: bool,
    /// Required for `--mode summary`.
    pub refresher: Option<&'a dyn SummaryRefresher>,
}

impl Operation for Reset<'_> {
    type Plan = Found;
    type Report = ClearReport;

    fn needs(&self) -> Needs {
        Needs {
            stores_in_plan: true,
            store_lock: true,
            limits_lock: false,
        }
    }

    fn intent(&self) -> crate::store::oplog::Intent {
        crate::store::oplog::Intent::of("reset")
    }

    fn plan(&self, t: &Target, view: &dyn StoreView) -> Result<Found> {
        let Some(dir) = t.dir.as_ref() else {
            return Err(folderless(
                &t.id,
                view.archive_rows(&t.id)?,
                view.session_key_count(&t.id),
            ));
        };
        if !self.purge {
            // refused before anything is planned into a symlinked .Trash
            trash::dir(dir.root())?;
        }
        let mut files = Vec::new();
        for name in files_to_reset(self.mode) {
            if std::fs::symlink_metadata(dir.path.join(name)).is_ok() {
                files.push((*name).to_owned());
            }
        }
        let summary = match (self.mode, self.refresher) {
            (ResetMode::Summary, Some(r)) => Some(r.pending(dir)?),
            _ => None,
        };
        Ok(Found {
            files,
            keys: view.session_key_count(&t.id),
            rows: view.archive_rows(&t.id)?,
            summary,
            folder: None,
        })
    }

    fn has_work(&self, f: &Found) -> bool {
        f.has_work()
    }

    fn preview(&self, t: &Target, f: &Found, dry_run: bool) -> ClearReport {
        let mut r = report("reset", Some(self.mode), t, f);
        r.dry_run = dry_run;
        r
    }

    /// Each tier's data goes to the trash entry before it is deleted, in the
    /// same step, so a crash at any point leaves every piece either where it
    /// was or in the trash, and a rerun finishes the job: (1) the summary is
    /// brought up to date (`--mode summary`), (2) the files move to the
    /// trash, (3) the archive rows are exported and deleted in one
    /// transaction, (4) the db1 entries are exported, then their DELs
    /// appended.
    fn apply(&self, t: &Target, found: Found, stores: &mut Stores<'_>) -> Result<ClearReport> {
        let dir = t.dir.as_ref().ok_or_else(|| unknown(&t.id))?;
        let mut report = report("reset", Some(self.mode), t, &found);
        report.dry_run = false;
        if let (ResetMode::Summary, Some(r)) = (self.mode, self.refresher) {
            let merged = r.refresh(dir, stores.journal).map_err(|e| {
                e.within("summary refresh failed; reset aborted to avoid context loss")
            })?;
            report.summary_merged = Some(merged);
        }
        let backup = if self.purge {
            None
        } else {
            let entry = trash::new_path(stores.root, &dir.id)?;
            trash::create(stores.root, &entry, &dir.id)?;
            Some(entry)
        };
        for name in &found.files {
            let path = dir.path.join(name);
            match &backup {
                Some(entry) => atomic::move_path(stores.root, &path, &entry.join(name))?,
                None => {
                    atomic::remove_path(stores.root, &path)?;
                }
            }
            crate::failpoint("reset-after-file");
        }
        clear_stores(stores, &dir.id, backup.as_deref(), &mut report)?;
        match &backup {
            Some(entry) => trash::seal(
                stores.journal,
                stores.root,
                entry,
                &dir.id,
                "reset",
                ".",
                None,
            )?,
            None => trash::note_unkept(stores.journal, &dir.id, "reset")?,
        }
        report.trash = backup;
        Ok(report)
    }

    fn apply_daemon(
        &self,
        t: &Target,
        found: Found,
        daemon: &Daemon,
        stores: &ReadStores<'_>,
    ) -> Result<ClearReport> {
        let mut report = report("reset", Some(self.mode), t, &found);
        daemon::reset(self.mode, t, &found.files, daemon, stores, &mut report)?;
        Ok(report)
    }
}

/// `remove`: the folder (to the trash unless purging), rows and keys. A
/// session whose folder is already gone but whose rows or keys remain (an
/// interrupted remove) is finished.
pub struct Remove {
    pub purge: bool,
}

impl Operation for Remove {
    type Plan = Found;
    type Report = ClearReport;

    fn needs(&self) -> Needs {
        Needs {
            stores_in_plan: true,
            store_lock: true,
            limits_lock: false,
        }
    }

    fn intent(&self) -> crate::store::oplog::Intent {
        crate::store::oplog::Intent::of("remove")
    }

    fn plan(&self, t: &Target, view: &dyn StoreView) -> Result<Found> {
        if let (false, Some(dir)) = (self.purge, &t.dir) {
            // refused before anything is planned into a symlinked .Trash
            trash::dir(dir.root())?;
        }
        // By path, symlinks included: rename moves a link as a link.
        let folder = t
            .dir
            .as_ref()
            .map(|d| d.path.clone())
            .filter(|p| std::fs::symlink_metadata(p).is_ok());
        let found = Found {
            files: Vec::new(),
            keys: view.session_key_count(&t.id),
            rows: view.archive_rows(&t.id)?,
            summary: None,
            folder,
        };
        if !found.has_work() {
            return Err(unknown(&t.id));
        }
        Ok(found)
    }

    fn has_work(&self, f: &Found) -> bool {
        f.has_work()
    }

    fn preview(&self, t: &Target, f: &Found, dry_run: bool) -> ClearReport {
        let mut r = report("remove", None, t, f);
        r.dry_run = dry_run;
        r
    }

    fn apply(&self, t: &Target, found: Found, stores: &mut Stores<'_>) -> Result<ClearReport> {
        let mut report = report("remove", None, t, &found);
        report.dry_run = false;
        if self.purge {
            clear_stores(stores, &t.id, None, &mut report)?;
            if let Some(f) = &found.folder {
                atomic::remove_path(stores.root, f)?;
            }
            trash::note_unkept(stores.journal, &t.id, "remove")?;
            return Ok(report);
        }
        let root = stores.root;
        let entry = trash::new_path(root, &t.id)?;
        let stores_backup = match &found.folder {
            Some(f) => {
                atomic::create_dir_all(root, &root.trash_dir())?;
                atomic::move_path(root, f, &entry)?;
                stores_backup_of(root, &entry, &t.id)?
            }
            None => entry.clone(),
        };
        crate::failpoint("remove-after-move");
        trash::create(root, &stores_backup, &t.id)?;
        clear_stores(stores, &t.id, Some(&stores_backup), &mut report)?;
        seal_removed(stores.journal, root, &entry, &stores_backup, &t.id)?;
        report.trash = Some(entry);
        Ok(report)
    }

    fn watched(&self, t: &Target) -> Vec<PathBuf> {
        t.dir.iter().map(|d| d.path.clone()).collect()
    }

    fn apply_daemon(
        &self,
        t: &Target,
        found: Found,
        daemon: &Daemon,
        stores: &ReadStores<'_>,
    ) -> Result<ClearReport> {
        let mut report = report("remove", None, t, &found);
        let folder = found.folder.as_deref();
        daemon::remove(t, folder, daemon, stores, &mut report)?;
        Ok(report)
    }
}

/// The bundle of a removed session: the moved folder with its stores in
/// `.sessionctl/`, the entry itself when there was no folder, or for a
/// moved symlink `<entry>.stores` naming the link beside it.
pub(crate) fn seal_removed(
    journal: &crate::store::oplog::Journal,
    root: &DataRoot,
    entry: &Path,
    stores_backup: &Path,
    id: &str,
) -> Result<()> {
    let (bundle, stores, link) = if stores_backup == entry {
        (entry.to_path_buf(), ".", None)
    } else if stores_backup.starts_with(entry) {
        (entry.to_path_buf(), ".sessionctl", None)
    } else {
        let link = entry.file_name().map(|n| n.to_string_lossy().into_owned());
        (stores_backup.to_path_buf(), ".", link)
    };
    trash::seal(journal, root, &bundle, id, "remove", stores, link)
}

fn unknown(id: &str) -> Error {
    Error::no_input(format!(
        "unknown session '{id}': no folder, no archive rows, no ToriiDB keys"
    ))
    .with_hint("`sessionctl sessions list` shows the sessions under this root")
}

/// A reset of a session without a folder: unknown when no tier has it;
/// otherwise what the stores still hold, and what takes it away (a reset
/// keeps a session, and there is no folder to keep).
fn folderless(id: &str, rows: u64, keys: usize) -> Error {
    if rows == 0 && keys == 0 {
        return unknown(id);
    }
    Error::no_input(format!(
        "session '{id}' has no folder, but {} and {} remain: nothing to reset",
        plural(rows, "archive row"),
        plural(keys as u64, "ToriiDB key"),
    ))
    .with_hint(format!(
        "`sessionctl check` names the operation that wrote them, whose `sessionctl undo OP_ID` takes them back; else `sessionctl remove {id}` takes them away (to the Trash)"
    ))
}

fn plural(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// Delete the session's archive rows and db1 keys, each saved to `backup`
/// first (unless purging): the rows in the same transaction that deletes
/// them, the entries as ToriiDB log lines before their DELs are appended.
/// The report gets the counts actually deleted.
fn clear_stores(
    stores: &mut Stores<'_>,
    id: &str,
    backup: Option<&Path>,
    report: &mut ClearReport,
) -> Result<()> {
    let root = stores.root;
    report.removed_archive_rows = match stores.archive(false)? {
        Some(a) => a.clear_session(root, id, backup)?.messages,
        None => 0,
    };
    crate::failpoint("clear-after-archive");
    let now = stores.now;
    let keys = stores.take_keys(id)?;
    let db1 = stores.db1()?;
    let deleted = match (backup, keys.is_empty()) {
        (Some(dir), false) => {
            let names: Vec<&str> = keys.iter().map(|&at| db1.key_at(at)).collect();
            trash::export_torii(root, db1, &names, dir)
        }
        _ => Ok(()),
    }
    .and_then(|()| db1.delete_at(keys, now));
    match deleted {
        Ok(n) => report.removed_torii_keys = n,
        Err(e) => {
            stores.reindex_keys(id);
            return Err(e);
        }
    }
    Ok(())
}

/// Where a removed session's archive rows and ToriiDB entries are saved:
/// inside its trash entry, or beside it when the entry is a moved symlink
/// (never inside a link's target).
pub(crate) fn stores_backup_of(root: &DataRoot, entry: &Path, id: &str) -> Result<PathBuf> {
    if std::fs::symlink_metadata(entry).is_ok_and(|m| m.is_dir()) {
        trash::record_id(root, entry, id)?;
        Ok(entry.join(".sessionctl"))
    } else {
        Ok(PathBuf::from(format!("{}.stores", entry.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_mode_keeps_the_summary_and_all_mode_takes_it() {
        let s = files_to_reset(ResetMode::Summary);
        assert!(!s.contains(&"summary.json") && !s.contains(&"summary.meta.json"));
        let a = files_to_reset(ResetMode::All);
        assert!(a.contains(&"summary.json") && a.contains(&"summary.meta.json"));
        for keep in [
            "usage.log",
            "config.json",
            "bot.md",
            "status.json",
            ".history",
        ] {
            assert!(
                !s.contains(&keep) && !a.contains(&keep),
                "{keep} must survive a reset"
            );
        }
    }
}
