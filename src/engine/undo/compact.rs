//! Undo of a compact from its pre-image (`engine::compact::preimage`).

use std::path::Path;

use crate::engine::batch::Stores;
use crate::engine::compact::preimage::{ArchiveState, STATE};
use crate::engine::undo::RestoreReport;
use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::bundle::{self, Manifest};
use crate::store::layout::DataRoot;

/// Reverse a compact from its pre-image; the caller holds the locks.
pub fn undo(
    stores: &mut Stores<'_>,
    bundle_path: &Path,
    phys: &Path,
    m: &Manifest,
    mut report: RestoreReport,
) -> Result<RestoreReport> {
    let root = stores.root;
    let state = read_state(phys)?;
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

fn read_state(phys: &Path) -> Result<ArchiveState> {
    let state_path = phys.join(STATE);
    serde_json::from_slice(&std::fs::read(&state_path).map_err(|e| Error::read(&state_path, e))?)
        .map_err(|e| Error::data(&state_path, format!("is not a compact record: {e}")))
}

/// Refuse (whatever `--force` says) when a file the pre-image would be
/// written over is no longer as compact left it: Agenvoy has appended to
/// it since, and putting the pre-image back would lose those records.
pub fn refuse_changed(root: &DataRoot, phys: &Path, m: &Manifest) -> Result<()> {
    let state = read_state(phys)?;
    let Some(dir) = root.session_entry(&m.session)? else {
        return Ok(());
    };
    for (rel, sum) in &state.written {
        let path = dir.path.join(rel);
        let Some(now) = dir.read(&path)? else {
            continue;
        };
        if bundle::sha256_hex(&now) != *sum {
            return Err(Error::usage(format!(
                "{} changed since the compact (Agenvoy wrote to it); undoing the compact would lose what was written since",
                path.display()
            ))
            .with_hint(
                "the compact stays; its pre-image is kept for a restore by hand (`sessionctl log` shows where)",
            ));
        }
    }
    Ok(())
}

/// The files a compact pre-image puts back.
pub fn files(m: &Manifest) -> Vec<String> {
    m.files
        .iter()
        .filter(|f| !f.path.starts_with(".sessionctl/"))
        .map(|f| f.path.clone())
        .collect()
}
