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
use crate::store::torii::{self, Db};
use crate::store::{atomic, oplog, trash};

pub const ERRORS: &str = "errors";
/// The pseudo-session id the error memory's pre-images are recorded under.
pub const ERROR_MEMORY: &str = "error-memory";

/// Every key the pre-image is of, those absent at the time included (a
/// record an undo brings back was absent before it: undo of that undo
/// deletes it again).
const KEYS: &str = ".sessionctl/keys.json";

/// Keep `keys` of db2 as they are now and record one change per key (the
/// record keys are what errors commands report as changed). Once per
/// operation: a rerun of an interrupted undo keeps what the first run kept.
pub fn before(root: &DataRoot, db2: &Db, keys: &[String]) -> Result<()> {
    oplog::begin_confirmed()?;
    let Some(op) = oplog::current() else {
        return Ok(());
    };
    if keys.is_empty() {
        return Ok(());
    }
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
        oplog::record(root, k, ERRORS, Some(&path))?;
    }
    Ok(())
}

/// Put the kept records back into db2; the caller holds the store lock.
pub fn undo(
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
    before(root, &db2, &kept)?;
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
