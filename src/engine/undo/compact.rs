//! Undo of a compact from its pre-image (`engine::compact::preimage`).

use std::path::Path;

use crate::engine::batch::Stores;
use crate::engine::compact::preimage::{ArchiveState, STATE};
use crate::engine::undo::RestoreReport;
use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::bundle::{self, Manifest};

/// Reverse a compact from its pre-image; the caller holds the locks.
pub fn undo(
    stores: &mut Stores<'_>,
    bundle_path: &Path,
    phys: &Path,
    m: &Manifest,
    mut report: RestoreReport,
) -> Result<RestoreReport> {
    let root = stores.root;
    let state_path = phys.join(STATE);
    let state: ArchiveState = serde_json::from_slice(
        &std::fs::read(&state_path).map_err(|e| Error::read(&state_path, e))?,
    )
    .map_err(|e| Error::data(&state_path, format!("is not a compact record: {e}")))?;
    if let Some(a) = stores.archive(false)? {
        report.archive_rows = a.unarchive(&m.session, &state.inserted_ids, state.start_at)?;
    }
    let entries = bundle::torii_entries(phys, m)?;
    if !entries.is_empty() {
        report.torii_keys = stores.db1()?.restore_entries(&entries)? as u64;
        stores.forget_keys(&m.session);
    }
    let dest = root.session_path(&m.session)?;
    for f in m
        .files
        .iter()
        .filter(|f| !f.path.starts_with(".sessionctl/"))
    {
        let bytes =
            std::fs::read(phys.join(&f.path)).map_err(|e| Error::read(phys.join(&f.path), e))?;
        atomic::write_atomic(root, &dest.join(&f.path), &bytes)?;
    }
    report.dry_run = false;
    atomic::remove_path(root, bundle_path)?;
    Ok(report)
}

/// The files a compact pre-image puts back.
pub fn files(m: &Manifest) -> Vec<String> {
    m.files
        .iter()
        .filter(|f| !f.path.starts_with(".sessionctl/"))
        .map(|f| f.path.clone())
        .collect()
}
