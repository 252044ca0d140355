//! The reset and remove rows of product.md's "Reset / remove behavior"
//! table, and Agenvoy's reset base (agenvoy-behaviour.md §11.3).
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

use std::collections::HashMap;
use std::path::PathBuf;

use serde::Serialize;

use crate::error::Result;
use crate::store::archive::Archive;
use crate::store::atomic;
use crate::store::layout::{DataRoot, SessionDir};
use crate::store::torii::Db;
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

#[derive(Debug, Clone, Serialize)]
pub struct ClearReport {
    pub ok: bool,
    pub action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<ResetMode>,
    pub session: String,
    /// ToriiDB db1 keys deleted (Agenvoy's `removed`).
    pub removed: usize,
    pub archive_rows: u64,
    /// Paths removed, relative to the session folder ("" for the folder).
    pub files: Vec<String>,
    pub dry_run: bool,
    /// Where everything taken away was put; null with --purge or --dry-run.
    pub trash: Option<PathBuf>,
}

/// The stores a clear works on, loaded once for a batch of sessions.
pub struct Tiers<'a> {
    pub root: &'a DataRoot,
    /// `None` when there is no archive file (nothing to clear there).
    pub archive: Option<Archive>,
    pub db1: Db,
    /// db1 keys per session, indexed once so a batch is not O(sessions × keys).
    pub db1_keys: HashMap<String, Vec<String>>,
    pub now: i64,
}

impl<'a> Tiers<'a> {
    pub fn new(root: &'a DataRoot, archive: Option<Archive>, db1: Db, now: i64) -> Self {
        let db1_keys = db1.keys_by_session(now);
        Tiers {
            root,
            archive,
            db1,
            db1_keys,
            now,
        }
    }

    pub fn session_keys(&self, id: &str) -> &[String] {
        self.db1_keys.get(id).map_or(&[], Vec::as_slice)
    }
}

#[derive(Debug, Clone, Copy)]
pub struct ClearOptions {
    pub dry_run: bool,
    /// Delete instead of moving to `sessions/.Trash`.
    pub purge: bool,
}

/// What is in each tier for one session, before anything changes.
struct Found {
    files: Vec<String>,
    keys: Vec<String>,
    rows: u64,
}

fn find(tiers: &Tiers<'_>, id: &str, dir: Option<&SessionDir>, names: &[&str]) -> Result<Found> {
    let mut files = Vec::new();
    if let Some(dir) = dir {
        for name in names {
            if std::fs::symlink_metadata(dir.path.join(name)).is_ok() {
                files.push((*name).to_owned());
            }
        }
    }
    let rows = match &tiers.archive {
        Some(a) => a.count_session(id)?,
        None => 0,
    };
    Ok(Found {
        files,
        keys: tiers.session_keys(id).to_vec(),
        rows,
    })
}

/// Reset one session. Order, so that a crash at any point leaves a state a
/// rerun completes: (1) back up archive rows and db1 entries to the trash,
/// (2) move the files away, (3) delete the archive rows in one
/// transaction, (4) append the db1 DEL lines.
pub fn reset(
    tiers: &mut Tiers<'_>,
    dir: &SessionDir,
    mode: ResetMode,
    opts: ClearOptions,
) -> Result<ClearReport> {
    let found = find(tiers, &dir.id, Some(dir), files_to_reset(mode))?;
    let mut report = ClearReport {
        ok: true,
        action: "reset",
        mode: Some(mode),
        session: dir.id.clone(),
        removed: found.keys.len(),
        archive_rows: found.rows,
        files: found.files.clone(),
        dry_run: opts.dry_run,
        trash: None,
    };
    if opts.dry_run {
        return Ok(report);
    }
    let backup = if opts.purge {
        None
    } else {
        let t = trash::new_path(tiers.root, &dir.id)?;
        trash::create(tiers.root, &t, &dir.id)?;
        backup_tiers(tiers, &dir.id, &found, &t)?;
        Some(t)
    };
    for name in &found.files {
        let path = dir.path.join(name);
        match &backup {
            Some(t) => atomic::move_path(tiers.root, &path, &t.join(name))?,
            None => {
                atomic::remove_path(tiers.root, &path)?;
            }
        }
        crate::failpoint("reset-after-file");
    }
    clear_stores(tiers, &dir.id, &found, &mut report)?;
    report.trash = backup;
    Ok(report)
}

/// Remove one session: its folder (to the trash unless purging) and its
/// rows and keys. `dir` is `None` when the folder is already gone but the
/// stores still hold data (a rerun after an interrupted remove).
pub fn remove(
    tiers: &mut Tiers<'_>,
    id: &str,
    folder: Option<PathBuf>,
    opts: ClearOptions,
) -> Result<ClearReport> {
    let found = find(tiers, id, None, &[])?;
    let mut report = ClearReport {
        ok: true,
        action: "remove",
        mode: None,
        session: id.to_owned(),
        removed: found.keys.len(),
        archive_rows: found.rows,
        files: folder.iter().map(|_| String::new()).collect(),
        dry_run: opts.dry_run,
        trash: None,
    };
    if opts.dry_run {
        return Ok(report);
    }
    if opts.purge {
        clear_stores(tiers, id, &found, &mut report)?;
        if let Some(f) = &folder {
            atomic::remove_path(tiers.root, f)?;
        }
        return Ok(report);
    }
    let t = trash::new_path(tiers.root, id)?;
    match &folder {
        // rename moves a symlinked session folder as the link it is
        Some(f) => {
            atomic::create_dir_all(tiers.root, &tiers.root.trash_dir())?;
            atomic::move_path(tiers.root, f, &t)?;
            if !std::fs::symlink_metadata(&t)
                .map(|m| m.is_dir())
                .unwrap_or(false)
            {
                // a moved symlink: keep its backups beside it, never inside its target
                let side = PathBuf::from(format!("{}.stores", t.display()));
                trash::create(tiers.root, &side, id)?;
                backup_tiers(tiers, id, &found, &side)?;
            } else {
                trash::record_id(tiers.root, &t, id)?;
                backup_tiers(tiers, id, &found, &t.join(".sessionctl"))?;
            }
        }
        None => {
            trash::create(tiers.root, &t, id)?;
            backup_tiers(tiers, id, &found, &t)?;
        }
    }
    crate::failpoint("remove-after-move");
    clear_stores(tiers, id, &found, &mut report)?;
    report.trash = Some(t);
    Ok(report)
}

fn backup_tiers(tiers: &Tiers<'_>, id: &str, found: &Found, dir: &std::path::Path) -> Result<()> {
    atomic::create_dir_all(tiers.root, dir)?;
    if let (Some(a), true) = (&tiers.archive, found.rows > 0) {
        trash::export_archive(tiers.root, a, id, dir)?;
    }
    if !found.keys.is_empty() {
        trash::export_torii(tiers.root, &tiers.db1, &found.keys, dir)?;
    }
    Ok(())
}

fn clear_stores(
    tiers: &mut Tiers<'_>,
    id: &str,
    found: &Found,
    report: &mut ClearReport,
) -> Result<()> {
    if let Some(a) = &mut tiers.archive {
        report.archive_rows = a.clear_session(id)?.messages;
    }
    crate::failpoint("clear-after-archive");
    report.removed = tiers.db1.delete(&found.keys, tiers.now)?;
    tiers.db1_keys.remove(id);
    Ok(())
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
