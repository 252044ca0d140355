//! What compact changes, kept so `undo` can reverse it: before the first
//! change, history.json and the task histories it rewrites are copied, and
//! the db1 entries it deletes are exported as log lines, into a pre-image
//! bundle under `<root>/.sessionctl/ops/<op>/<session>.compact/`; after it,
//! the ids of the archive rows it inserted are added, and the bundle is
//! sealed and recorded. Undo (`engine::undo::compact`) deletes exactly
//! those rows, puts session_meta.start_at, the db1 entries and the files back.
//!
//! A compact killed (or failed) between the two leaves the pre-image
//! unfinished: complete (its `compact.json` is written last, atomically)
//! but neither sealed nor recorded, so `undo` cannot use it. It is the
//! state before the interrupted run, which had begun changing the session:
//! the next compact of the session takes it over (`adopt`) instead of
//! keeping the half-compacted state as its own pre-image, completes the
//! job, and seals and records it, so that one `undo` goes back to where
//! the interrupted run started. Until then `check` reports it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::compact::SharedStores;
use crate::error::{Error, Result};
use crate::store::archive::RecordKey;
use crate::store::bundle;
use crate::store::layout::{DataRoot, SessionDir};
use crate::store::root::Last;
use crate::store::{atomic, oplog, trash};

pub const COMPACT: &str = "compact";
pub(crate) const STATE: &str = ".sessionctl/compact.json";
/// The db1 entries it deleted, as ToriiDB log lines, in the sidecar.
const TORII_DB1: &str = "torii-db1.jsonl";

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
    /// It was taken over from this interrupted operation.
    adopted: Option<String>,
}

impl Kept {
    /// The interrupted operation whose unfinished pre-image this is.
    pub fn adopted(&self) -> Option<&str> {
        self.adopted.as_deref()
    }
}

/// What compact is about to change, for `before`.
pub struct Changes<'a> {
    /// history.json.
    pub history: bool,
    /// The task histories, by name.
    pub tasks: &'a [String],
    /// The db1 entries it deletes.
    pub leaving_keys: &'a [String],
    /// The interrupted operation whose unfinished pre-image of the session
    /// to take over, as planning found it.
    pub adopt: Option<&'a str>,
}

/// Before compact changes the session (nothing outside an operation):
/// keep what it is about to change, or take over the pre-image an
/// interrupted compact of the session left (`changes.adopt`) and add to it
/// what this run changes besides.
pub fn before(
    root: &DataRoot,
    dir: &SessionDir,
    changes: Changes<'_>,
    stores: &impl SharedStores,
) -> Result<Option<Kept>> {
    let Changes {
        history,
        tasks,
        leaving_keys,
        adopt: from,
    } = changes;
    let journal = stores.journal();
    let Some(op) = journal.begin()? else {
        return Ok(None);
    };
    let path = oplog::preimage_dir(root, &op, &dir.id, COMPACT);
    let adopted = match from {
        Some(from) => adopt(root, journal, (&op, from), &dir.id, &path)?,
        None => None,
    };
    let fresh = adopted.is_none();
    let mut state = match &adopted {
        Some(_) => read_state(root, &path)?,
        None => {
            atomic::remove_path(root, &path)?;
            atomic::create_dir_all(root, &path.join(bundle::SIDECAR))?;
            ArchiveState::default()
        }
    };
    // Anything the pre-image does not hold yet is kept as it is now: an
    // interrupted run that had not got to it left it as it was.
    let held = |state: &ArchiveState, rel: &str| state.written.contains_key(rel);
    if history
        && !held(&state, "history.json")
        && keep_history(root, dir, &path.join("history.json"))?
    {
        state
            .written
            .insert("history.json".to_owned(), String::new());
    }
    for name in tasks {
        let rel = format!("history/{name}");
        if held(&state, &rel) {
            continue;
        }
        if let Some(bytes) = dir.read(&dir.tasks_dir().join(name))? {
            atomic::create_dir_all(root, &path.join("history"))?;
            bundle::write_file(root, &path.join(&rel), &bytes)?;
            state.written.insert(rel, String::new());
        }
    }
    stores.with(|db1, archive| {
        if !leaving_keys.is_empty() {
            add_torii(root, db1, leaving_keys, &path.join(bundle::SIDECAR))?;
        }
        if fresh {
            state.max_id = archive
                .connection()
                .query_row("SELECT COALESCE(MAX(id), 0) FROM messages", [], |r| {
                    r.get(0)
                })
                .map_err(|e| Error::sqlite(root.archive_path(), e))?;
            state.start_at = archive.start_at(&dir.id)?;
        }
        Ok(())
    })?;
    if fresh {
        bundle::write_file(root, &path.join(trash::SESSION_ID_FILE), dir.id.as_bytes())?;
    }
    // last, whole or not at all: from here the pre-image is complete, and
    // a run interrupted after it leaves one the next compact takes over
    write_state(root, &path, &state)?;
    Ok(Some(Kept {
        path,
        state,
        adopted,
    }))
}

/// `leaving_keys`' db1 entries, as log lines, into the pre-image's
/// `torii-db1.jsonl`: the ones it does not hold yet (an interrupted run
/// kept, then deleted, some already).
fn add_torii(
    root: &DataRoot,
    db1: &crate::store::torii::Db,
    keys: &[String],
    sidecar: &Path,
) -> Result<()> {
    let file = sidecar.join(TORII_DB1);
    let phys = root.resolve(&file, Last::Entry)?;
    let held = match std::fs::read(&phys) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return trash::export_torii(root, db1, keys, sidecar);
        }
        Err(e) => return Err(Error::read(&file, e)),
    };
    let have: std::collections::HashSet<String> = held
        .split(|b| *b == b'\n')
        .filter_map(|l| serde_json::from_slice::<serde_json::Value>(l).ok())
        .filter_map(|v| v.get("key").and_then(|k| k.as_str()).map(str::to_owned))
        .collect();
    let more: Vec<&String> = keys.iter().filter(|k| !have.contains(*k)).collect();
    if more.is_empty() {
        return Ok(());
    }
    let staging = sidecar.join("more");
    atomic::remove_path(root, &staging)?;
    atomic::create_dir_all(root, &staging)?;
    trash::export_torii(root, db1, &more, &staging)?;
    let added = std::fs::read(root.resolve(&staging.join(TORII_DB1), Last::Entry)?)
        .map_err(|e| Error::read(staging.join(TORII_DB1), e))?;
    let mut all = held;
    if !all.is_empty() && !all.ends_with(b"\n") {
        all.push(b'\n');
    }
    all.extend_from_slice(&added);
    atomic::write_atomic(root, &file, &all)?;
    atomic::remove_path(root, &staging).map(drop)
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
    let above: Vec<(i64, RecordKey)> = stores.with(|_, archive| {
        let conn = archive.connection();
        let mut stmt = conn
            .prepare(
                "SELECT id, send_at, role, content FROM messages
                 WHERE session_id = ?1 AND id > ?2 ORDER BY id",
            )
            .map_err(|e| Error::sqlite(root.archive_path(), e))?;
        stmt.query_map(rusqlite::params![dir.id, kept.state.max_id], |r| {
            Ok((
                r.get(0)?,
                RecordKey::new(r.get(1)?, r.get_ref(2)?.as_str()?, r.get_ref(3)?.as_str()?),
            ))
        })
        .and_then(|rows| rows.collect())
        .map_err(|e| Error::sqlite(root.archive_path(), e))
    })?;
    kept.state.inserted_ids = match kept.adopted {
        None => above.into_iter().map(|(id, _)| id).collect(),
        // Between the interrupted run and this one Agenvoy may have run and
        // archived turns of its own: only rows of records the pre-image
        // holds are compact's, for undo to take out again.
        Some(_) => ours(root, &kept.path, above)?,
    };
    for (rel, sum) in kept.state.written.iter_mut() {
        *sum = dir
            .read(&dir.path.join(rel))?
            .map(|b| bundle::sha256_hex(&b))
            .unwrap_or_default();
    }
    write_state(root, &kept.path, &kept.state)?;
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

/// Of the archive rows `above` the pre-image's `max_id`, those of records
/// its history.json holds, each record claiming one row.
fn ours(root: &DataRoot, path: &Path, above: Vec<(i64, RecordKey)>) -> Result<Vec<i64>> {
    let file = path.join("history.json");
    let phys = root.resolve(&file, Last::Entry)?;
    let records = match std::fs::read(&phys) {
        Ok(b) => crate::store::history::parse(&b, &file)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(Error::read(&file, e)),
    };
    let mut unclaimed: std::collections::HashMap<RecordKey, usize> = Default::default();
    for r in &records {
        *unclaimed.entry(RecordKey::of(r)).or_default() += 1;
    }
    Ok(above
        .into_iter()
        .filter(|(_, key)| match unclaimed.get_mut(key) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        })
        .map(|(id, _)| id)
        .collect())
}

fn write_state(root: &DataRoot, path: &Path, state: &ArchiveState) -> Result<()> {
    let bytes = serde_json::to_vec(state).expect("serializes");
    atomic::write_atomic(root, &path.join(STATE), &bytes)
}

fn read_state(root: &DataRoot, path: &Path) -> Result<ArchiveState> {
    let file = path.join(STATE);
    let bytes =
        std::fs::read(root.resolve(&file, Last::Entry)?).map_err(|e| Error::read(&file, e))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| Error::data(&file, format!("is not a compact record: {e}")))
}

/// A compact pre-image an interrupted run left unfinished (see the module
/// comment): complete, not recorded in its operation, which is not running.
#[derive(Debug, Clone)]
pub struct Unfinished {
    /// The operation that kept it.
    pub op: String,
    pub session: String,
    /// Its folder, relative to the root.
    pub path: String,
}

/// Every unfinished compact pre-image under `.sessionctl/ops/` of a
/// session that still exists, oldest operation first.
pub fn unfinished(root: &DataRoot) -> Result<Vec<Unfinished>> {
    let ops = root.tool_dir().join("ops");
    let phys = root.resolve(&ops, Last::Follow)?;
    let mut found = Vec::new();
    let mut op_ids: Vec<String> = match std::fs::read_dir(&phys) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(Error::read(&ops, e)),
    };
    op_ids.sort();
    let suffix = format!(".{COMPACT}");
    let mut log = None;
    for op in op_ids {
        let Ok(rd) = std::fs::read_dir(phys.join(&op)) else {
            continue;
        };
        let mut names: Vec<String> = rd
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(&suffix))
            .collect();
        names.sort();
        for name in names {
            let path = ops.join(&op).join(&name);
            found.extend(check(root, &op, &path, None, &mut log)?);
        }
    }
    Ok(found)
}

/// `op`'s pre-image of `session`, if it is unfinished (planning found it;
/// checked again under the session's lock before it is taken over).
pub fn unfinished_of(root: &DataRoot, op: &str, session: &str) -> Result<Option<Unfinished>> {
    let path = oplog::preimage_dir(root, op, session, COMPACT);
    check(root, op, &path, Some(session), &mut None)
}

/// Whether the compact pre-image at `path`, kept by `op` (of `session`,
/// when known), is unfinished; `log` is read once, when first needed.
fn check(
    root: &DataRoot,
    op: &str,
    path: &Path,
    session: Option<&str>,
    log: &mut Option<oplog::Log>,
) -> Result<Option<Unfinished>> {
    let phys = root.resolve(path, Last::Entry)?;
    // no compact.json: the interrupted run had changed nothing yet
    if !phys.join(STATE).is_file() {
        return Ok(None);
    }
    let Ok(id) = std::fs::read_to_string(phys.join(trash::SESSION_ID_FILE)) else {
        return Ok(None);
    };
    // a session removed since has nothing left to complete
    if session.is_some_and(|s| s != id) || root.session_entry(&id).ok().flatten().is_none() {
        return Ok(None);
    }
    let rel = root.relative(path);
    let log = match log {
        Some(l) => l,
        None => log.insert(oplog::read(root)?),
    };
    let recorded = log.get(op).is_some_and(|o| {
        o.sessions
            .iter()
            .any(|c| c.change == COMPACT && c.kept.as_deref() == Some(rel.as_str()))
    });
    if recorded || oplog::is_running(root, op)? {
        return Ok(None);
    }
    Ok(Some(Unfinished {
        op: op.to_owned(),
        session: id,
        path: rel,
    }))
}

/// Take over the unfinished pre-image `from` (an interrupted operation)
/// kept of `session`, into `path` (this operation's `op`): the interrupted
/// operation is closed first, as completed by this one, so a kill in
/// between leaves the pre-image where the next run finds it again.
/// Returns the operation it came from; `None` when it is no longer
/// unfinished (another run took it over first).
fn adopt(
    root: &DataRoot,
    journal: &crate::store::oplog::Journal,
    (op, from): (&str, &str),
    session: &str,
    path: &Path,
) -> Result<Option<String>> {
    if from == op {
        return Ok(None);
    }
    let Some(u) = unfinished_of(root, from, session)? else {
        return Ok(None);
    };
    journal.close_completed(&u.op)?;
    atomic::remove_path(root, path)?;
    atomic::create_dir_all(root, path.parent().expect("in its operation's folder"))?;
    atomic::move_path(root, &root.path().join(&u.path), path)?;
    Ok(Some(u.op))
}
