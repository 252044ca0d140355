//! A whole session kept as it is before an undo (or a `trash restore`, an
//! `import`) changes it, so that change can be reversed too: undo of an
//! undo (redo). The snapshot is a bundle under
//! `<root>/.sessionctl/ops/<op>/<session>.snapshot/` of every tier (files,
//! archive rows with their ids, db1 entries with TTL and vector), or, when
//! the session did not exist, an empty bundle of kind `absent`.
//!
//! Reversing a snapshot puts the session back to it: whatever is there now
//! goes to the Trash as a sealed `remove` bundle (the same code as
//! `remove`), then the snapshot is imported: archive rows first (with
//! their ids), then db1, then the files (staged, then renamed into place).
//! The snapshot is deleted last, so a run killed midway starts over from
//! the intact snapshot when run again.

use std::path::{Path, PathBuf};

use crate::engine::batch::{StoreView, Stores};
use crate::engine::undo::{RestoreReport, ToTrash};
use crate::error::Result;
use crate::store::bundle::{self, Manifest};
use crate::store::layout::{DataRoot, Last};
use crate::store::oplog::{self, Journal};
use crate::store::{atomic, trash};

/// A session's state before an undo changed it.
pub const SNAPSHOT: &str = "snapshot";
/// The session did not exist before the change.
pub const ABSENT: &str = "absent";
/// In a snapshot of a session whose rows or keys outlived its folder.
const NO_FOLDER: &str = ".sessionctl/no-folder";
/// In a snapshot of a session whose folder is a symlink: the link's
/// target, kept as the link it is (never followed).
const LINK: &str = ".sessionctl/link";

/// Keep session `id` as it is now, once per operation: the caller holds
/// its lock and the store lock. Nothing outside an operation.
pub fn keep(stores: &mut Stores<'_>, id: &str) -> Result<()> {
    let journal = stores.journal;
    let Some(op) = journal.begin()? else {
        return Ok(());
    };
    let root = stores.root;
    let dir = oplog::preimage_dir(root, &op, id, SNAPSHOT);
    if !sealed(root, &dir)? {
        // a partial one is from a run killed before it changed anything
        atomic::remove_path(root, &dir)?;
        if exists(stores, id)? {
            export(stores, id, &dir, &op)?;
        } else {
            seal_absent(root, &dir, id, &op)?;
        }
    }
    record_once(journal, root, id, &dir)
}

/// Keep "session `id` did not exist" (import: it refuses an existing one),
/// recorded with the digest of the bundle the import brings it from.
pub fn keep_absent(journal: &Journal, root: &DataRoot, id: &str, bundle: &str) -> Result<()> {
    let Some(op) = journal.begin()? else {
        return Ok(());
    };
    let dir = oplog::preimage_dir(root, &op, id, SNAPSHOT);
    if !sealed(root, &dir)? {
        atomic::remove_path(root, &dir)?;
        seal_absent(root, &dir, id, &op)?;
    }
    if journal.has(SNAPSHOT, &root.relative(&dir))? {
        return Ok(());
    }
    journal.note(oplog::Change {
        session: id.to_owned(),
        change: SNAPSHOT.to_owned(),
        kept: Some(root.relative(&dir)),
        bundle: Some(bundle.to_owned()),
    })
}

/// The import a kill or a failure interrupted (not running, not closed,
/// not undone) that began session `id` and had not put it in place: its
/// rows and keys may be written while its folder is still staged, so the
/// session exists although no folder says so.
pub fn begun_by_import(root: &DataRoot, id: &str) -> Result<Option<String>> {
    let log = oplog::read(root)?;
    for o in log.ops.iter().rev() {
        if o.command != "import" || o.done || o.undone_by.is_some() {
            continue;
        }
        let began = o
            .sessions
            .iter()
            .any(|c| c.session == id && c.change == SNAPSHOT);
        let placed = o
            .sessions
            .iter()
            .any(|c| c.session == id && c.change == "import");
        if began && !placed && !oplog::is_running(root, &o.id)? {
            return Ok(Some(o.id.clone()));
        }
    }
    Ok(None)
}

fn sealed(root: &DataRoot, dir: &Path) -> Result<bool> {
    Ok(std::fs::symlink_metadata(root.resolve(&dir.join(bundle::MANIFEST), Last::Entry)?).is_ok())
}

/// Record the snapshot in the operation, unless a run of it killed after
/// that already did.
fn record_once(journal: &Journal, root: &DataRoot, id: &str, dir: &Path) -> Result<()> {
    if journal.has(SNAPSHOT, &root.relative(dir))? {
        return Ok(());
    }
    journal.record(id, SNAPSHOT, Some(dir))
}

/// The session is in some tier: a folder (or link), archive rows, db1 keys.
fn exists(stores: &mut Stores<'_>, id: &str) -> Result<bool> {
    stores.db1()?;
    Ok(stores.root.session_entry(id)?.is_some()
        || !stores.session_keys(id).is_empty()
        || stores.archive_rows(id)? > 0)
}

fn export(stores: &mut Stores<'_>, id: &str, dir: &Path, op: &str) -> Result<()> {
    let root = stores.root;
    let sidecar = dir.join(bundle::SIDECAR);
    atomic::create_dir_all(root, &sidecar)?;
    match root.session_entry(id)? {
        Some(d) => match std::fs::read_link(root.resolve(&d.path, Last::Entry)?) {
            Ok(target) => {
                bundle::write_file(root, &dir.join(LINK), target.as_os_str().as_encoded_bytes())?
            }
            Err(_) => {
                let src = root.resolve(&d.path, Last::Follow)?;
                crate::engine::transfer::copy_tree(&src, root, dir)?;
            }
        },
        None => bundle::write_file(root, &dir.join(NO_FOLDER), b"")?,
    }
    if let Some(a) = stores.archive(false)? {
        a.export_session(root, id, &sidecar)?;
    }
    stores.db1()?;
    let keys = stores.session_keys(id);
    if !keys.is_empty() {
        trash::export_torii(root, stores.db1()?, &keys, &sidecar)?;
    }
    trash::record_id(root, dir, id)?;
    seal(root, dir, id, SNAPSHOT, op)
}

fn seal_absent(root: &DataRoot, dir: &Path, id: &str, op: &str) -> Result<()> {
    trash::create(root, dir, id)?;
    seal(root, dir, id, ABSENT, op)
}

fn seal(root: &DataRoot, dir: &Path, id: &str, kind: &str, op: &str) -> Result<()> {
    bundle::seal(
        root,
        dir,
        bundle::Spec {
            session: id,
            kind,
            stores: bundle::SIDECAR,
            link: None,
            op: Some(op.to_owned()),
            from: root.path(),
        },
    )
    .map(drop)
}

/// The files a snapshot puts back (none for `absent`).
pub fn files(phys: &Path, m: &Manifest) -> Result<Vec<String>> {
    if m.kind == ABSENT {
        return Ok(Vec::new());
    }
    bundle::session_files(phys, m)
}

/// Put session `m.session` back to the snapshot at `bundle_path`; the
/// caller holds the locks.
pub fn replace(
    stores: &mut Stores<'_>,
    bundle_path: &Path,
    phys: &Path,
    m: &Manifest,
    mut report: RestoreReport,
    to_trash: ToTrash,
) -> Result<RestoreReport> {
    let root = stores.root;
    let id = m.session.as_str();
    report.dry_run = false;
    report.archive_rows = 0;
    report.torii_keys = 0;
    if exists(stores, id)? {
        stores.db1()?;
        to_trash(stores, id)?;
    }
    crate::failpoint("replace-after-trash");
    if m.kind == SNAPSHOT {
        let (rows, start_at) = bundle::archive_rows(phys, m)?;
        if !rows.is_empty() || start_at.is_some() {
            let archive = stores.archive(true)?.expect("created on demand");
            report.archive_rows = archive.restore_rows(id, &rows, start_at, true)?;
        }
        let entries = bundle::torii_entries(phys, m)?;
        if !entries.is_empty() {
            report.torii_keys = stores.db1()?.restore_entries(&entries)? as u64;
            stores.forget_keys(id);
        }
        crate::failpoint("replace-after-torii");
        if let Ok(target) = std::fs::read(phys.join(LINK)) {
            put_link(root, id, &target)?;
        } else if std::fs::symlink_metadata(phys.join(NO_FOLDER)).is_err() {
            put_files(root, phys, id)?;
        }
    }
    atomic::remove_path(root, bundle_path)?;
    Ok(report)
}

/// Copy the snapshot's files to a hidden staging folder, then rename it
/// into place (a leading dot is never a session).
fn put_files(root: &DataRoot, phys: &Path, id: &str) -> Result<()> {
    let staging: PathBuf = root.sessions_dir().join(format!(
        ".{}.redo",
        crate::store::layout::name_part(id, 200)
    ));
    atomic::remove_path(root, &staging)?;
    atomic::create_dir_all(root, &root.sessions_dir())?;
    crate::engine::transfer::copy_tree(phys, root, &staging)?;
    crate::failpoint("replace-after-files");
    atomic::move_path(root, &staging, &root.session_path(id)?)
}

/// Make the session folder the symlink it was (its target as kept, never
/// resolved or followed).
fn put_link(root: &DataRoot, id: &str, target: &[u8]) -> Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let path = root.session_path(id)?;
    let phys = root.resolve(&path, Last::Entry)?;
    let target = std::ffi::OsStr::from_bytes(target);
    std::os::unix::fs::symlink(target, &phys).map_err(|e| crate::error::Error::write(&path, e))?;
    atomic::fsync_dir(root, &root.sessions_dir())
}
