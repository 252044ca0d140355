//! What `limits learn` and `limits forget` change, kept so `undo` can
//! reverse it: the agent's learned limit as it was (or that it had none),
//! in a pre-image bundle under `<root>/.sessionctl/ops/<op>/limits.limits/`.
//! Undo puts it back (so undo of a learn forgets the learned limit).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::limits::{Learned, LimitsCache};
use crate::engine::undo::RestoreReport;
use crate::error::{Error, Result};
use crate::store::bundle::{self, Manifest};
use crate::store::layout::{DataRoot, Last};
use crate::store::oplog::Journal;
use crate::store::{atomic, limits_cache, trash};

pub const LIMITS: &str = "limits";
const PREVIOUS: &str = ".sessionctl/learned.json";

#[derive(Serialize, Deserialize)]
struct Previous {
    agent: String,
    learned: Option<Learned>,
}

/// Before `agent`'s learned limit changes (the limits lock is held). Once
/// per operation: a rerun of an interrupted undo keeps what the first run
/// kept.
pub fn before(journal: &Journal, root: &DataRoot, cache: &LimitsCache, agent: &str) -> Result<()> {
    let Some(op) = journal.begin()? else {
        return Ok(());
    };
    let path = crate::store::oplog::preimage_dir(root, &op, LIMITS, LIMITS);
    let manifest = root.resolve(&path.join(bundle::MANIFEST), Last::Entry)?;
    if std::fs::symlink_metadata(manifest).is_ok() {
        return Ok(());
    }
    atomic::remove_path(root, &path)?;
    atomic::create_dir_all(root, &path.join(bundle::SIDECAR))?;
    let prev = Previous {
        agent: agent.to_owned(),
        learned: cache.learned.get(agent).cloned(),
    };
    bundle::write_file(
        root,
        &path.join(PREVIOUS),
        &serde_json::to_vec(&prev).expect("serializes"),
    )?;
    bundle::write_file(root, &path.join(trash::SESSION_ID_FILE), LIMITS.as_bytes())?;
    trash::seal(journal, root, &path, LIMITS, LIMITS, bundle::SIDECAR, None)
}

/// Put the agent's learned limit back as the pre-image has it; the caller
/// holds the limits lock.
pub fn undo(
    journal: &Journal,
    root: &DataRoot,
    bundle_path: &Path,
    phys: &Path,
    mut report: RestoreReport,
) -> Result<RestoreReport> {
    let p = phys.join(PREVIOUS);
    let prev: Previous =
        serde_json::from_slice(&std::fs::read(&p).map_err(|e| Error::read(&p, e))?)
            .map_err(|e| Error::data(&p, format!("is not a kept learned limit: {e}")))?;
    let mut cache = limits_cache::load(root)?.unwrap_or_else(LimitsCache::builtin);
    before(journal, root, &cache, &prev.agent)?;
    crate::failpoint("restore-after-keep");
    match prev.learned {
        Some(l) => {
            cache.learned.insert(prev.agent.clone(), l);
        }
        None => {
            cache.learned.remove(&prev.agent);
        }
    }
    limits_cache::save(root, &cache)?;
    report.files = vec![format!("limits.json ({})", prev.agent)];
    report.archive_rows = 0;
    report.torii_keys = 0;
    report.dry_run = false;
    atomic::remove_path(root, bundle_path)?;
    Ok(report)
}

/// The kept pre-image's manifest is all undo needs besides the file.
pub fn files(_m: &Manifest) -> Vec<String> {
    vec!["limits.json".into()]
}
