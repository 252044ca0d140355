//! What compact changes, kept so `undo` can reverse it: before the first
//! change, history.json and the task histories it rewrites are copied, and
//! the db1 entries it deletes are exported as log lines, into a pre-image
//! bundle under `<root>/.sessionctl/ops/<op>/<session>.compact/`; after it,
//! the ids of the archive rows it inserted are added, and the bundle is
//! sealed and recorded. Undo (`engine::undo::compact`) deletes exactly
//! those rows, puts session_meta.start_at, the db1 entries and the files back.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::compact::{Plan, SharedStores};
use crate::error::{Error, Result};
use crate::store::bundle;
use crate::store::layout::{DataRoot, SessionDir};
use crate::store::root::Last;
use crate::store::{atomic, oplog, trash};

pub const COMPACT: &str = "compact";
pub(crate) const STATE: &str = ".sessionctl/compact.json";

/// The archive side of a compact, as undo needs it.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct ArchiveState {
    /// session_meta.start_at before (absent: no row).
    pub(crate) start_at: Option<i64>,
    /// The largest message id before: rows of the session above it are
    /// the ones compact inserted (the store lock keeps other writers out).
    pub(crate) max_id: i64,
    pub(crate) inserted_ids: Vec<i64>,
    /// Each session file the pre-image holds (relative to the session
    /// folder) → the sha256 compact left it with: undo refuses to write
    /// the pre-image over a file Agenvoy has written since (its new
    /// records would be lost). Absent in pre-images older than this check.
    #[serde(default)]
    pub(crate) written: std::collections::BTreeMap<String, String>,
}

/// A pre-image being kept for one session's compact.
pub struct Kept {
    path: PathBuf,
    state: ArchiveState,
}

/// Before compact changes the session (nothing outside an operation).
pub fn before(
    root: &DataRoot,
    dir: &SessionDir,
    plan: &Plan,
    stores: &impl SharedStores,
    leaving_keys: &[String],
) -> Result<Option<Kept>> {
    let Some(op) = stores.journal().begin()? else {
        return Ok(None);
    };
    let path = oplog::preimage_dir(root, &op, &dir.id, COMPACT);
    atomic::remove_path(root, &path)?;
    atomic::create_dir_all(root, &path.join(bundle::SIDECAR))?;
    let mut written = std::collections::BTreeMap::new();
    if !plan.removed.is_empty() && keep_history(root, dir, &path.join("history.json"))? {
        written.insert("history.json".to_owned(), String::new());
    }
    if !plan.changed_tasks.is_empty() {
        atomic::create_dir_all(root, &path.join("history"))?;
    }
    for t in &plan.changed_tasks {
        if let Some(bytes) = dir.read(&dir.tasks_dir().join(&t.name))? {
            bundle::write_file(root, &path.join("history").join(&t.name), &bytes)?;
            written.insert(format!("history/{}", t.name), String::new());
        }
    }
    let (start_at, max_id) = stores.with(|db1, archive| {
        if !leaving_keys.is_empty() {
            trash::export_torii(root, db1, leaving_keys, &path.join(bundle::SIDECAR))?;
        }
        let max_id = archive
            .connection()
            .query_row("SELECT COALESCE(MAX(id), 0) FROM messages", [], |r| {
                r.get(0)
            })
            .map_err(|e| Error::sqlite(root.archive_path(), e))?;
        Ok((archive.start_at(&dir.id)?, max_id))
    })?;
    let state = ArchiveState {
        start_at,
        max_id,
        inserted_ids: Vec::new(),
        written,
    };
    bundle::write_file(root, &path.join(trash::SESSION_ID_FILE), dir.id.as_bytes())?;
    Ok(Some(Kept { path, state }))
}

/// Keep history.json as it is now at `to`; false when there is none.
///
/// A hard link, not a copy, when history.json is a plain file linked
/// nowhere else: compact replaces it by rename (`atomic::write_atomic`, as
/// every sessionctl write of it; undo writes the pre-image back by
/// rename too), so once the new file is in place nothing reaches the old
/// inode through the session folder and the link is the pre-image alone.
/// That spares reading, writing and fsyncing the whole file (the largest
/// part of a big compact). A link, another name for the file, a FIFO or a
/// file system that refuses links (EXDEV, EPERM…) gets the copy, as before.
fn keep_history(root: &DataRoot, dir: &SessionDir, to: &Path) -> Result<bool> {
    let from = dir.history_json();
    if let Some(linked) = link_sole_file(root, &from, to)? {
        return Ok(linked);
    }
    let Some(bytes) = dir.read(&from)? else {
        return Ok(false);
    };
    bundle::write_file(root, to, &bytes)?;
    Ok(true)
}

/// Hard-link `from` (a regular file with no other name) to `to`:
/// `Some(true)` done (fsynced), `Some(false)` no file, `None` copy instead.
fn link_sole_file(root: &DataRoot, from: &Path, to: &Path) -> Result<Option<bool>> {
    use std::os::unix::fs::MetadataExt;
    let src = root.resolve(from, Last::Entry)?;
    let meta = match std::fs::symlink_metadata(&src) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Some(false)),
        Err(e) => return Err(Error::read(from, e)),
    };
    if !meta.file_type().is_file() || meta.nlink() != 1 {
        return Ok(None);
    }
    let dst = root.resolve(to, Last::Entry)?;
    if std::fs::hard_link(&src, &dst).is_err() {
        return Ok(None);
    }
    // The entry may have been swapped between the lstat and the link: keep
    // the link only if it names the file that was checked.
    let same = std::fs::symlink_metadata(&dst)
        .is_ok_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino() && m.nlink() == 2);
    if !same {
        atomic::remove_path(root, to)?;
        return Ok(None);
    }
    // As durable as the copy (`bundle::write_file`) was: the file is
    // fsynced (its data, when the writer had not, and the inode the new
    // name changed); the manifest, written last, is renamed into place
    // with folder fsyncs.
    if let Some(o) = crate::store::files::open_at(&dst, to, crate::store::files::Mode::Read)? {
        o.file.sync_all().map_err(|e| Error::write(to, e))?;
    }
    Ok(Some(true))
}

/// After compact: record the rows it inserted, seal and log the pre-image.
pub fn after(
    root: &DataRoot,
    dir: &SessionDir,
    kept: Option<Kept>,
    stores: &impl SharedStores,
) -> Result<()> {
    let Some(mut kept) = kept else {
        return Ok(());
    };
    // Rows of this session only: another session of a parallel batch may
    // have inserted rows above `max_id` since, never of this session (its
    // lock is held).
    kept.state.inserted_ids = stores.with(|_, archive| {
        let conn = archive.connection();
        let mut stmt = conn
            .prepare("SELECT id FROM messages WHERE session_id = ?1 AND id > ?2 ORDER BY id")
            .map_err(|e| Error::sqlite(root.archive_path(), e))?;
        stmt.query_map(rusqlite::params![dir.id, kept.state.max_id], |r| r.get(0))
            .and_then(|rows| rows.collect())
            .map_err(|e| Error::sqlite(root.archive_path(), e))
    })?;
    for (rel, sum) in kept.state.written.iter_mut() {
        *sum = dir
            .read(&dir.path.join(rel))?
            .map(|b| bundle::sha256_hex(&b))
            .unwrap_or_default();
    }
    let bytes = serde_json::to_vec(&kept.state).expect("serializes");
    bundle::write_file(root, &kept.path.join(STATE), &bytes)?;
    // Sealing writes and fsyncs only this session's bundle: outside the
    // stores' lock, so a parallel batch overlaps it (the journal orders its
    // own lines).
    let journal = stores.journal();
    trash::seal_bundle(
        journal,
        root,
        &kept.path,
        &dir.id,
        COMPACT,
        bundle::SIDECAR,
        None,
    )?;
    trash::note_kept(journal, &kept.path, &dir.id, COMPACT)
}
