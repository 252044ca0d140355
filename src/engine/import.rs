//! `import` as an operation of the runner: each bundle (a folder as
//! `export` wrote it, every bundle of a folder `export -o DIR` wrote, or
//! every bundle of a tar) becomes a session. Beside `transfer` (which
//! reads and writes bundles) and `undo` (whose snapshot records that the
//! session did not exist before, so the import can be undone).

use std::fs;
use std::path::{Path, PathBuf};

use crate::engine::batch::{Needs, Operation, StoreView, Stores, Target};
use crate::engine::transfer::{import, plan_import, relabel, Import, TransferReport};
use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::bundle;
use crate::store::layout::DataRoot;
use crate::store::oplog::Intent;

/// `import`: each bundle becomes a session (its target, under the id it
/// will have). Every part of a bundle is checked while planning, before
/// anything is written; planned again under the locks (the session may
/// have appeared since); written in the safe order of `import`.
pub struct ImportBundles<'a> {
    pub root: &'a DataRoot,
    pub as_id: Option<String>,
    /// The bundle folder of each target.
    pub bundles: std::collections::HashMap<String, PathBuf>,
    /// A tar they were unpacked from, and where: errors name the tar.
    pub tar: Option<(PathBuf, PathBuf)>,
}

impl ImportBundles<'_> {
    /// The targets of `bundles` (each bundle's session, or `as_id`); a
    /// bundle without a readable manifest, or a second one of a session,
    /// is that bundle's failure.
    pub fn new<'a>(
        root: &'a DataRoot,
        found: &[PathBuf],
        as_id: Option<String>,
        tar: Option<(PathBuf, PathBuf)>,
    ) -> (
        ImportBundles<'a>,
        Vec<Target>,
        Vec<crate::engine::batch::SessionError>,
    ) {
        let mut op = ImportBundles {
            root,
            as_id,
            bundles: Default::default(),
            tar,
        };
        let mut targets = Vec::new();
        let mut errors = Vec::new();
        for b in found {
            let named = bundle::load(b).and_then(|m| {
                m.ok_or_else(|| {
                    Error::data(
                        b.join(bundle::MANIFEST),
                        "is missing: not a sessionctl bundle",
                    )
                })
            });
            let id = match named {
                Ok(m) => op.as_id.clone().unwrap_or(m.session),
                Err(e) => {
                    errors.push(crate::engine::batch::SessionError {
                        session: b.display().to_string(),
                        error: op.relabel(e),
                    });
                    continue;
                }
            };
            if op.bundles.contains_key(&id) {
                errors.push(crate::engine::batch::SessionError {
                    session: id.clone(),
                    error: op.relabel(Error::data(
                        b.join(bundle::MANIFEST),
                        format!("is a second bundle of session {id}"),
                    )),
                });
                continue;
            }
            op.bundles.insert(id.clone(), b.clone());
            targets.push(Target { id, dir: None });
        }
        (op, targets, errors)
    }

    fn relabel(&self, e: Error) -> Error {
        match &self.tar {
            Some((tar, dir)) => relabel(dir, tar, e),
            None => e,
        }
    }
}

impl Operation for ImportBundles<'_> {
    type Plan = Import;
    type Report = TransferReport;

    fn needs(&self) -> Needs {
        Needs {
            store_lock: true,
            ..Needs::default()
        }
    }

    fn intent(&self) -> Intent {
        Intent::of("import")
    }

    fn replans_under_locks(&self) -> bool {
        true
    }

    fn watched(&self, _: &Target) -> Vec<PathBuf> {
        Vec::new()
    }

    fn plan(&self, t: &Target, _: &dyn StoreView) -> Result<Import> {
        let path = &self.bundles[&t.id];
        plan_import(self.root, path, self.as_id.as_deref()).map_err(|e| self.relabel(e))
    }

    fn has_work(&self, _: &Import) -> bool {
        true
    }

    fn preview(&self, _: &Target, plan: &Import, dry_run: bool) -> TransferReport {
        TransferReport {
            dry_run,
            bundle: self
                .tar
                .as_ref()
                .map_or_else(|| plan.report().bundle.clone(), |t| t.0.clone()),
            ..plan.report().clone()
        }
    }

    fn apply(&self, t: &Target, plan: Import, stores: &mut Stores<'_>) -> Result<TransferReport> {
        // import never overwrites: before it, the session was not there
        crate::engine::undo::snapshot::keep_absent(stores.journal, stores.root, &t.id)?;
        let mut report = import(stores, plan).map_err(|e| self.relabel(e))?;
        stores.journal.record(&t.id, "import", None)?;
        if let Some((tar, _)) = &self.tar {
            report.bundle = tar.clone();
        }
        Ok(report)
    }
}

/// Make `root` an Agenvoy data root: `sessions/` and `.store/`, as Agenvoy
/// itself creates them (an import into a new machine's root).
pub fn create_root(root: &DataRoot) -> Result<()> {
    fs::create_dir_all(root.path()).map_err(|e| Error::write(root.path(), e))?;
    atomic::create_dir_all(root, &root.sessions_dir())?;
    atomic::create_dir_all(root, &root.store_dir())?;
    atomic::fsync_dir(root, root.path())
}

/// Whether `path` is an Agenvoy data root (it has `sessions/` or `.store/`).
pub fn is_root(path: &Path) -> bool {
    fs::symlink_metadata(path.join("sessions")).is_ok()
        || fs::symlink_metadata(path.join(".store")).is_ok()
}
