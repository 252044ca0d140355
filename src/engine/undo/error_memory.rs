//! What `errors edit` and `errors prune` change in the error memory (db2),
//! kept so `undo` can reverse it: before the change, the records as they
//! are (value, expiry, vector) are exported as ToriiDB log lines into a
//! pre-image bundle under `<root>/.sessionctl/ops/<op>/error-memory.errors/`.
//! Undo appends them back as SET lines, so each record returns with its
//! original expiry (a pruned one included).

use std::path::Path;

use crate::engine::undo::RestoreReport;
use crate::error::{Error, Result};
use crate::store::bundle::{self, Manifest};
use crate::store::layout::{DataRoot, Last};
use crate::store::oplog::Journal;
use crate::store::torii::{self, Db};
use crate::store::{atomic, trash};

pub const ERRORS: &str = "errors";
/// The pseudo-session id the error memory's pre-images are recorded under.
pub const ERROR_MEMORY: &str = "error-memory";

/// Every key the pre-image is of, those absent at the time included (a
/// record an undo brings back was absent before it: undo of that undo
/// deletes it again).
const KEYS: &str = ".sessionctl/keys.json";

/// What the operation leaves each key as: the sha256 of the value it
/// writes, or null for a key it deletes. Undo refuses to put a record back
/// over one that no longer is what the operation left (Agenvoy rewrote
/// it, or wrote it again), unless forced.
const AFTER: &str = ".sessionctl/after.json";

/// Keep the records of db2 that `after` names as they are now, with what
/// the operation is about to make of each (`Some(new value)`, or `None`
/// for a delete), and record one change per key (the record keys are what
/// errors commands report as changed). Once per operation: a rerun of an
/// interrupted undo keeps what the first run kept.
pub fn before(
    journal: &Journal,
    root: &DataRoot,
    db2: &Db,
    after: &[(String, Option<String>)],
) -> Result<()> {
    let Some(op) = journal.begin()? else {
        return Ok(());
    };
    if after.is_empty() {
        return Ok(());
    }
    let keys: Vec<String> = after.iter().map(|(k, _)| k.clone()).collect();
    let keys = keys.as_slice();
    let path = crate::store::oplog::preimage_dir(root, &op, ERROR_MEMORY, ERRORS);
    let manifest = root.resolve(&path.join(bundle::MANIFEST), Last::Entry)?;
    if std::fs::symlink_metadata(manifest).is_ok() {
        return Ok(());
    }
    atomic::remove_path(root, &path)?;
    let sidecar = path.join(bundle::SIDECAR);
    atomic::create_dir_all(root, &sidecar)?;
    trash::export_torii(root, db2, keys, &sidecar)?;
    bundle::write_file(
        root,
        &path.join(KEYS),
        &serde_json::to_vec(keys).expect("serializes"),
    )?;
    let left: std::collections::BTreeMap<&str, Option<String>> = after
        .iter()
        .map(|(k, v)| {
            (
                k.as_str(),
                v.as_deref().map(|v| bundle::sha256_hex(v.as_bytes())),
            )
        })
        .collect();
    bundle::write_file(
        root,
        &path.join(AFTER),
        &serde_json::to_vec(&left).expect("serializes"),
    )?;
    bundle::write_file(
        root,
        &path.join(trash::SESSION_ID_FILE),
        ERROR_MEMORY.as_bytes(),
    )?;
    bundle::seal(
        root,
        &path,
        bundle::Spec {
            session: ERROR_MEMORY,
            kind: ERRORS,
            stores: bundle::SIDECAR,
            link: None,
            op: Some(op),
            from: root.path(),
        },
    )?;
    for k in keys {
        journal.record(k, ERRORS, Some(&path))?;
    }
    Ok(())
}

/// Put the kept records back into db2; the caller holds the store lock.
pub fn undo(
    journal: &Journal,
    root: &DataRoot,
    force: bool,
    bundle_path: &Path,
    phys: &Path,
    m: &Manifest,
    mut report: RestoreReport,
) -> Result<RestoreReport> {
    let lines = std::fs::read(phys.join(".sessionctl/torii-db2.jsonl")).unwrap_or_default();
    let entries: Vec<_> = lines
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .filter_map(torii::entry_of_line)
        .collect();
    let mut db2 = Db::load_store(root, torii::DB_ERROR_MEMORY)?;
    db2.check_writable(force)?;
    let kept: Vec<String> = match std::fs::read(phys.join(KEYS)) {
        Ok(b) => serde_json::from_slice(&b)
            .map_err(|e| Error::data(phys.join(KEYS), format!("is not a list of keys: {e}")))?,
        // a pre-image older than the list: its records are its keys
        Err(_) => entries.iter().map(|(k, _)| k.clone()).collect(),
    };
    // what this undo leaves each key as: the kept value, or absent
    let after: Vec<(String, Option<String>)> = kept
        .iter()
        .map(|k| {
            let value = entries
                .iter()
                .find(|(e, _)| e == k)
                .map(|(_, e)| e.value.clone());
            (k.clone(), value)
        })
        .collect();
    before(journal, root, &db2, &after)?;
    crate::failpoint("restore-after-keep");
    report.torii_keys = db2.restore_entries(&entries)? as u64;
    let absent: Vec<String> = kept
        .into_iter()
        .filter(|k| !entries.iter().any(|(e, _)| e == k))
        .collect();
    if !absent.is_empty() {
        report.torii_keys += db2.delete(&absent, torii::now_unix())? as u64;
    }
    report.archive_rows = 0;
    report.files = Vec::new();
    report.session = m.session.clone();
    report.dry_run = false;
    atomic::remove_path(root, bundle_path)?;
    Ok(report)
}

/// How many records the undo of this pre-image writes back or deletes
/// (what a dry run reports): each key it kept.
pub fn count(phys: &Path) -> Result<u64> {
    let path = phys.join(KEYS);
    match std::fs::read(&path) {
        Ok(b) => serde_json::from_slice::<Vec<String>>(&b)
            .map(|k| k.len() as u64)
            .map_err(|e| Error::data(&path, format!("is not a list of keys: {e}"))),
        // a pre-image older than the list: its records
        Err(_) => Ok(std::fs::read(phys.join(".sessionctl/torii-db2.jsonl"))
            .unwrap_or_default()
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .count() as u64),
    }
}

/// Refuse (64) to put records back over ones that are no longer what the
/// operation left them as: Agenvoy rewrote or re-created them since, and
/// undo would silently overwrite that. `--force` restores anyway.
pub fn refuse_changed(root: &DataRoot, phys: &Path) -> Result<()> {
    let path = phys.join(AFTER);
    let Ok(bytes) = std::fs::read(&path) else {
        // a pre-image older than this check
        return Ok(());
    };
    let left: std::collections::BTreeMap<String, Option<String>> =
        serde_json::from_slice(&bytes)
            .map_err(|e| Error::data(&path, format!("is not what an operation left: {e}")))?;
    let db2 = Db::load_store(root, torii::DB_ERROR_MEMORY)?;
    for (key, want) in &left {
        // in the log, expired or not: an expired record the operation put
        // back is still what it left
        let have = db2
            .entry(key)?
            .map(|e| bundle::sha256_hex(e.value.as_bytes()));
        if &have != want {
            let what = match (want, &have) {
                (Some(_), Some(_)) => "was rewritten",
                (Some(_), None) => "is gone",
                (None, _) => "was written again",
            };
            return Err(Error::usage(format!(
                "error record {key} {what} since the operation changed it (Agenvoy, or another tool); undo would overwrite that"
            ))
            .with_hint("pass --force to put the kept record back anyway"));
        }
    }
    Ok(())
}
