//! Putting a session back from a bundle: what `undo` of a reset or remove
//! and `trash restore` do. All tiers, in the safe order: the archive rows
//! first (one transaction), then the db1 entries (one append), then the
//! files (renames), then the bundle's leftovers are deleted. Every step is
//! idempotent (rows keep their ids, entries already there are skipped,
//! files already moved are gone from the bundle), so a restore that was
//! killed completes when run again.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::engine::batch::Stores;
mod compact;
pub mod entry;
pub mod error_memory;
pub mod limits;
pub mod op;
pub mod pick;
pub mod snapshot;

use crate::engine::compact::preimage::COMPACT;
use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::bundle::{self, Manifest};
use crate::store::layout::{validate_session_id, DataRoot, Last};
use crate::store::oplog::{Change, Op};

/// One restore: planned (a dry run) or done.
#[derive(Debug, Clone, Serialize)]
pub struct RestoreReport {
    pub session: String,
    /// The trash entry (or bundle) it came from.
    pub from: PathBuf,
    /// What the bundle holds: `reset` or `remove`.
    pub kind: String,
    pub archive_rows: u64,
    pub torii_keys: u64,
    /// Session files and folders put back.
    pub files: Vec<String>,
    pub dry_run: bool,
}

/// A trash entry read and checked, ready to restore.
pub struct Planned {
    entry: PathBuf,
    bundle: PathBuf,
    phys: PathBuf,
    manifest: Manifest,
    id: String,
    report: RestoreReport,
    /// A trash entry `trash restore` consumed: it goes back to the Trash.
    put_back: bool,
}

impl Planned {
    pub fn id(&self) -> &str {
        &self.id
    }
    pub fn report(&self) -> &RestoreReport {
        &self.report
    }
}

/// Read the entry's manifest, check its files, and decide where it goes.
/// `resume`: an earlier restore of it was interrupted, so files already
/// put back are expected to be missing from it and present in the session.
pub fn plan(root: &DataRoot, entry: &Path, as_id: Option<&str>, resume: bool) -> Result<Planned> {
    let planned = read(root, entry, as_id, resume, false, Verify::Full)?;
    if !resume {
        refuse_overwrite(root, &planned)?;
    }
    Ok(planned)
}

/// The session id an entry records (`.sessionctl/session-id`) and its
/// manifest's must be ids: an entry is data, so an invalid one (`../x`, a
/// tampered entry) is a data error naming its file, whatever `--as` says.
/// The recorded id is read only with `Verify::Full`.
fn refuse_invalid_ids(
    bundle: &Path,
    phys: &Path,
    manifest: &Manifest,
    verify: Verify,
) -> Result<()> {
    use crate::store::trash::SESSION_ID_FILE;
    let recorded = phys.join(SESSION_ID_FILE);
    let named = bundle.join(SESSION_ID_FILE);
    let meta = match verify {
        Verify::Full => std::fs::symlink_metadata(&recorded),
        Verify::Presence => Err(std::io::ErrorKind::NotFound.into()),
    };
    match meta {
        Ok(m) if m.is_file() => {
            let bytes = std::fs::read(&recorded).map_err(|e| Error::read(&named, e))?;
            if let Err(e) = validate_session_id(&String::from_utf8_lossy(&bytes)) {
                return Err(invalid_id(&named, e));
            }
        }
        Ok(_) => {
            return Err(
                Error::data(&named, "is not a regular file: a tampered entry")
                    .with_hint("nothing was changed"),
            )
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::read(&named, e)),
    }
    validate_session_id(&manifest.session)
        .map_err(|e| invalid_id(&bundle.join(bundle::MANIFEST), e))
}

fn invalid_id(file: &Path, e: Error) -> Error {
    Error::data(file, format!("holds an {e}: a tampered entry"))
        .with_hint("nothing was changed; restore the entry's files by hand if they are yours")
}

/// `plan` without the check of what is in the way. `force`: put error
/// records back even over ones changed since.
fn read(
    root: &DataRoot,
    entry: &Path,
    as_id: Option<&str>,
    resume: bool,
    force: bool,
    verify: Verify,
) -> Result<Planned> {
    let bundle = bundle::of_entry(entry);
    if entry.starts_with(root.trash_dir()) {
        // never an entry read through a symlinked .Trash
        crate::store::trash::dir(root)?;
    }
    // followed only inside the root: a bundle linked from outside is refused
    let phys = root.resolve(&bundle, Last::Follow)?;
    let manifest = bundle::load(&phys)?.ok_or_else(|| {
        Error::data(
            &bundle,
            "has no .sessionctl/manifest.json: not an entry sessionctl can restore",
        )
        .with_hint("entries Agenvoy made, and compact's task-history copies, are restored by hand")
    })?;
    if verify == Verify::Full {
        bundle::verify(&phys, &manifest, !resume)?;
    }
    refuse_invalid_ids(&bundle, &phys, &manifest, verify)?;
    if manifest.kind == COMPACT && !resume {
        compact::refuse_changed(root, &phys, &manifest)?;
    }
    if manifest.kind == error_memory::ERRORS && !resume && !force {
        error_memory::refuse_changed(root, &phys)?;
    }
    if verify == Verify::Full && HOLDS_SESSION_STORES.contains(&manifest.kind.as_str()) {
        // every row and key it would write must be the session's own
        bundle::check_stores(&phys, &manifest)?;
    }
    let id = as_id.unwrap_or(&manifest.session).to_owned();
    validate_session_id(&id)?;
    let files = match &manifest.link {
        Some(link) => vec![link.clone()],
        None if manifest.kind == COMPACT => compact::files(&manifest),
        None if manifest.kind == error_memory::ERRORS => Vec::new(),
        None if manifest.kind == limits::LIMITS => limits::files(&manifest),
        None if [snapshot::SNAPSHOT, snapshot::ABSENT].contains(&manifest.kind.as_str()) => {
            snapshot::files(&phys, &manifest)?
        }
        None => bundle::session_files(&phys, &manifest)?,
    };
    let planned = Planned {
        report: RestoreReport {
            session: id.clone(),
            from: entry.to_path_buf(),
            kind: manifest.kind.clone(),
            archive_rows: manifest.counts.archive_rows,
            torii_keys: if manifest.kind == error_memory::ERRORS {
                error_memory::count(&phys)?
            } else {
                manifest.counts.torii_db1_keys
            },
            files,
            dry_run: true,
        },
        entry: entry.to_path_buf(),
        bundle,
        phys,
        manifest,
        id,
        put_back: false,
    };
    Ok(planned)
}

/// A removed session comes back only where no session is; a reset's files
/// only where the session has none of that name (Agenvoy may have started
/// a new conversation since).
fn refuse_overwrite(root: &DataRoot, p: &Planned) -> Result<()> {
    if IN_PLACE.contains(&p.manifest.kind.as_str()) {
        // a pre-image replaces what the operation wrote over it (the
        // conflict rule of undo guards what came after)
        return Ok(());
    }
    if let Some(op) = snapshot::begun_by_import(root, &p.id)? {
        return Err(Error::usage(format!(
            "session {} was begun by import {op}, which was interrupted; restoring {} there would merge two sessions under one id",
            p.id,
            p.entry.display()
        ))
        .with_hint(format!(
            "rerun that import with its own bundle to complete it, or `sessionctl undo {op}` to take back what it wrote and `sessionctl check --repair` to close it; or restore under another id with --as NEW_ID"
        )));
    }
    let here = root.session_entry(&p.id)?;
    if here.is_none() && p.manifest.kind != "reset" {
        refuse_stores_without_folder(root, p)?;
    }
    let taken = match (&here, p.manifest.kind.as_str()) {
        (None, _) => None,
        (Some(d), "reset") => p
            .report
            .files
            .iter()
            .map(|f| d.path.join(f))
            .find(|f| std::fs::symlink_metadata(f).is_ok()),
        (Some(d), _) => Some(d.path.clone()),
    };
    match taken {
        None => Ok(()),
        Some(path) => Err(Error::usage(format!(
            "{} already exists; restoring {} would overwrite it",
            path.display(),
            p.entry.display()
        ))
        .with_hint("restore it under another id with --as NEW_ID, or move the session away first")),
    }
}

/// A session whose folder is gone may still exist in the shared stores
/// (an interrupted remove or import left its archive rows or db1 keys):
/// a restore there would add the entry's messages to them, two sessions
/// under one id, or every message archived twice.
fn refuse_stores_without_folder(root: &DataRoot, p: &Planned) -> Result<()> {
    use crate::store::torii;
    let rows = match crate::store::archive::Archive::open_read(root, &root.archive_path())? {
        Some(a) => a.count_session(&p.id)?,
        None => 0,
    };
    let mut keys = 0;
    if rows == 0 {
        let db1 = torii::Db::load_store(root, torii::DB_SESSION_HIST)?;
        keys = db1.session_key_count(&p.id, torii::now_unix());
        // A remove killed after it took the archive rows and before the
        // keys (its entry sealed by `check --repair`): the keys left are
        // this very session's when every one of them is in the entry with
        // the same value, and putting it back sets them to what they are
        if keys == 0 || sealed_from_interrupted_remove(root, p)? && keys_all_in_entry(&db1, p)? {
            return Ok(());
        }
    }
    let what = if rows > 0 {
        format!("{rows} archive rows")
    } else {
        format!("{keys} ToriiDB keys")
    };
    Err(Error::usage(format!(
        "session {} has no folder but exists in the stores under {} ({what}); restoring {} there would merge two sessions under one id",
        p.id,
        root.path().display(),
        p.entry.display()
    ))
    .with_hint(format!(
        "`sessionctl remove {}` takes what is left of it to the Trash; or restore under another id with --as NEW_ID",
        p.id
    )))
}

/// Every live db1 key of the session is in the entry's ToriiDB part, with
/// the same value.
fn keys_all_in_entry(db1: &crate::store::torii::Db, p: &Planned) -> Result<bool> {
    use crate::store::torii;
    let part = p
        .phys
        .join(bundle::store_part(&p.manifest.stores, bundle::TORII_DB1));
    let Ok(lines) = std::fs::read(&part) else {
        return Ok(false);
    };
    let kept: std::collections::HashMap<String, String> = lines
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .filter_map(torii::entry_of_line)
        .map(|(k, e)| (k, e.value))
        .collect();
    for k in db1.session_keys(&p.id, torii::now_unix()) {
        let same = match db1.entry(&k)? {
            Some(e) => kept.get(&k) == Some(&e.value),
            None => false,
        };
        if !same {
            return Ok(false);
        }
    }
    Ok(true)
}

fn sealed_from_interrupted_remove(root: &DataRoot, p: &Planned) -> Result<bool> {
    let Some(op) = p.manifest.op.as_deref() else {
        return Ok(false);
    };
    let log = crate::store::oplog::read(root)?;
    Ok(p.manifest.kind == "remove"
        && log.get(op).is_some_and(|o| {
            o.command == "remove" && o.interrupted && !o.sessions.iter().any(|c| c.session == p.id)
        }))
}

/// Take a session away to the Trash as `remove` does (a sealed bundle,
/// recorded in the running operation); db1 is loaded. Passed in by the
/// caller: `remove` lives in engine::reset, which reaches undo through
/// summarize, and modules here import no circle.
pub type ToTrash = fn(&mut Stores<'_>, &str) -> Result<()>;

/// Kinds of bundle that hold a session's archive rows and db1 entries.
const HOLDS_SESSION_STORES: [&str; 5] = [
    "reset",
    "remove",
    "export",
    snapshot::SNAPSHOT,
    snapshot::ABSENT,
];

/// Kinds of pre-images put back over what is there.
const IN_PLACE: [&str; 6] = [
    SUMMARY,
    COMPACT,
    error_memory::ERRORS,
    limits::LIMITS,
    snapshot::SNAPSHOT,
    snapshot::ABSENT,
];

/// Put the planned entry back; the caller holds the session lock and the
/// store lock. What it overwrites is kept first, in the running operation
/// (a session snapshot, or the db2 records / learned limit), so this
/// restore can itself be undone.
/// `force`: write although the ToriiDB log has lines of an unknown format.
/// `to_trash`: how the current session goes to the Trash when a snapshot
/// replaces it.
pub fn apply(
    stores: &mut Stores<'_>,
    p: Planned,
    force: bool,
    to_trash: ToTrash,
) -> Result<RestoreReport> {
    let root = stores.root;
    let m = &p.manifest;
    if p.put_back {
        let mut report = p.report.clone();
        report.from = entry::put_back(root, &p.entry, &p.id)?;
        report.dry_run = false;
        return Ok(report);
    }
    if m.kind != error_memory::ERRORS && m.kind != limits::LIMITS {
        snapshot::keep(stores, &p.id)?;
        crate::failpoint("restore-after-keep");
    }
    if m.kind == snapshot::SNAPSHOT || m.kind == snapshot::ABSENT {
        return snapshot::replace(stores, &p.bundle, &p.phys, m, p.report.clone(), to_trash);
    }
    if m.kind == COMPACT {
        return compact::undo(stores, &p.bundle, &p.phys, m, p.report.clone());
    }
    if m.kind == limits::LIMITS {
        return limits::undo(stores.journal, root, &p.bundle, &p.phys, p.report.clone());
    }
    if m.kind == error_memory::ERRORS {
        return error_memory::undo(
            stores.journal,
            root,
            force,
            &p.bundle,
            &p.phys,
            m,
            p.report.clone(),
        );
    }
    let (rows, start_at) = bundle::archive_rows(&p.phys, m)?;
    let mut report = p.report.clone();
    report.dry_run = false;
    report.archive_rows = if rows.is_empty() && start_at.is_none() {
        0
    } else {
        let archive = stores.archive(true)?.expect("created on demand");
        archive.restore_rows(&p.id, &rows, start_at, true)?
    };
    crate::failpoint("restore-after-archive");
    let entries: Vec<_> = bundle::torii_entries(&p.phys, m)?
        .into_iter()
        .map(|(k, e)| (rename_key(&k, &m.session, &p.id), e))
        .collect();
    if !entries.is_empty() {
        report.torii_keys = stores.db1()?.restore_entries(&entries)? as u64;
        stores.forget_keys(&p.id);
    }
    crate::failpoint("restore-after-torii");
    let dest = root.session_path(&p.id)?;
    if m.kind == SUMMARY {
        put_back_summary(root, &p.bundle, &dest)?;
        report.files = SUMMARY_FILES.iter().map(|f| (*f).to_owned()).collect();
        atomic::remove_path(root, &p.bundle)?;
        return Ok(report);
    }
    match &m.link {
        Some(link) => {
            let from = p.bundle.parent().expect("in the trash").join(link);
            if std::fs::symlink_metadata(root.resolve(&from, Last::Entry)?).is_ok() {
                atomic::move_path(root, &from, &dest)?;
            }
        }
        None if !report.files.is_empty() => {
            atomic::create_dir_all(root, &dest)?;
            for name in bundle::session_files(&p.phys, m)? {
                atomic::move_path(root, &p.bundle.join(&name), &dest.join(&name))?;
                crate::failpoint("restore-after-file");
            }
        }
        None => {}
    }
    atomic::remove_path(root, &p.bundle)?;
    if p.entry != p.bundle {
        atomic::remove_path(root, &p.entry)?;
    }
    Ok(report)
}

/// Plan the reversal of `changes` (as `pick::steps` gives them), the last
/// change first: each pre-image is of the state before it. One pre-image
/// may cover several changes (the records of an errors prune). When
/// completing an interrupted undo, pre-images already used (gone) are
/// skipped.
pub fn plan_all(
    root: &DataRoot,
    changes: &[Change],
    resume: bool,
    force: bool,
) -> Result<Vec<Planned>> {
    plan_changes(root, changes, resume, force, Verify::Full)
}

/// How much of a pre-image planning reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verify {
    /// Every checksum and store line, as before a restore.
    Full,
    /// Its manifest and what decides whether it can go back, not the
    /// content (`log` asks this of every operation it lists).
    Presence,
}

fn plan_changes(
    root: &DataRoot,
    changes: &[Change],
    resume: bool,
    force: bool,
    verify: Verify,
) -> Result<Vec<Planned>> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for c in changes.iter().rev() {
        let kept = c.kept.as_deref().expect("steps keep something");
        if !seen.insert(kept) {
            continue;
        }
        let entry = root.path().join(kept);
        let bundle = bundle::of_entry(&entry);
        if std::fs::symlink_metadata(&bundle).is_err() {
            if resume {
                continue;
            }
            return Err(gone(kept));
        }
        let mut p = read(root, &entry, None, resume, force, verify)?;
        if c.change == entry::ENTRY {
            // put back as it is, under the id it was restored as
            p.put_back = true;
            p.id = c.session.clone();
            p.report.session = c.session.clone();
            p.report.kind = entry::ENTRY.into();
            p.report.files = Vec::new();
        } else if !resume {
            refuse_overwrite(root, &p)?;
        }
        out.push(p);
    }
    Ok(out)
}

/// Apply planned restores in order, each recorded in the running
/// operation as a `restore` of its session; the caller holds the locks.
pub fn apply_all(
    stores: &mut Stores<'_>,
    planned: Vec<Planned>,
    force: bool,
    to_trash: ToTrash,
) -> Result<Vec<RestoreReport>> {
    let mut reports = Vec::new();
    for p in planned {
        let report = apply(stores, p, force, to_trash)?;
        stores.journal.record(&report.session, "restore", None)?;
        reports.push(report);
    }
    Ok(reports)
}

/// What an operation kept is no longer there.
fn gone(kept: &str) -> Error {
    Error::no_input(format!(
        "{kept}, where the operation kept the previous state, is gone"
    ))
    .with_hint("`trash prune` deletes kept state for good; `sessionctl log` shows what is undoable")
}

/// Why `undo OP_ID --force` would refuse `op`, if it would (for `log` and
/// the view): the very checks undo makes before it writes (the operation
/// picked, its changes, every pre-image it would read there and readable,
/// nothing in the way of a restore), short of hashing every pre-image; a
/// later change of the same session is what `--force` is for.
pub fn why_not(root: &DataRoot, log: &crate::store::oplog::Log, op: &Op) -> Option<String> {
    if let Some(by) = &op.undone_by {
        return Some(format!("undone by {by}"));
    }
    let planned = pick::pick(log, Some(&op.id)).and_then(|(target, resume)| {
        let changes = pick::steps(target)?;
        plan_changes(root, &changes, resume.is_some(), true, Verify::Presence)
    });
    planned.err().map(|e| e.to_string())
}

/// `<old>:<nanos>` → `<new>:<nanos>` for a restore under another id.
fn rename_key(key: &str, old: &str, new: &str) -> String {
    match key.strip_prefix(old).and_then(|r| r.strip_prefix(':')) {
        Some(rest) if old != new => format!("{new}:{rest}"),
        _ => key.to_owned(),
    }
}

/// The kind of a pre-image of the rolling summary.
pub const SUMMARY: &str = "summary";
const SUMMARY_FILES: [&str; 2] = ["summary.json", "summary.meta.json"];

/// Before the rolling summary is first written in an operation (summarize,
/// reset --mode summary's refresh), keep summary.json and its cursor as
/// they are under `<root>/.sessionctl/ops/<op>/<session>.summary/`, sealed as a
/// bundle, and record it. Once per operation and session; nothing outside
/// an operation (a library caller).
pub fn keep_summary(
    journal: &crate::store::oplog::Journal,
    root: &DataRoot,
    dir: &crate::store::layout::SessionDir,
) -> Result<()> {
    let Some(op) = journal.begin()? else {
        return Ok(());
    };
    let kept = crate::store::oplog::preimage_dir(root, &op, &dir.id, SUMMARY);
    if std::fs::symlink_metadata(root.resolve(&kept.join(bundle::MANIFEST), Last::Entry)?).is_ok() {
        return Ok(());
    }
    atomic::create_dir_all(root, &kept.join(bundle::SIDECAR))?;
    for name in SUMMARY_FILES {
        if let Some(bytes) = dir.read(&dir.path.join(name))? {
            bundle::write_file(root, &kept.join(name), &bytes)?;
        }
    }
    bundle::write_file(
        root,
        &kept.join(crate::store::trash::SESSION_ID_FILE),
        dir.id.as_bytes(),
    )?;
    crate::store::trash::seal(journal, root, &kept, &dir.id, SUMMARY, ".", None)
}

/// The summary files as the pre-image has them: each copied back, or
/// deleted when the pre-image has none (the operation created it).
fn put_back_summary(root: &DataRoot, bundle: &Path, dest: &Path) -> Result<()> {
    let phys = root.resolve(bundle, Last::Follow)?;
    for name in SUMMARY_FILES {
        match std::fs::read(phys.join(name)) {
            Ok(bytes) => atomic::write_atomic(root, &dest.join(name), &bytes)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                atomic::remove_path(root, &dest.join(name))?;
            }
            Err(e) => return Err(Error::read(bundle.join(name), e)),
        }
    }
    Ok(())
}
