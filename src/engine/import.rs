//! `import` as an operation of the runner: each bundle (a folder as
//! `export` wrote it, every bundle of a folder `export -o DIR` wrote, or
//! every bundle of a tar) becomes a session. Beside `transfer` (which
//! reads and writes bundles) and `undo` (whose snapshot records that the
//! session did not exist before, so the import can be undone).

use std::fs;
use std::path::{Path, PathBuf};

use crate::engine::batch::{Needs, Operation, StoreView, Stores, Target};
use crate::engine::transfer::{
    import, plan_import, relabel, BegunBy, Import, TransferReport, ERROR_MEMORY_BUNDLE,
    ERROR_MEMORY_KIND,
};
use crate::engine::undo::snapshot::SNAPSHOT;
use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::bundle;
use crate::store::layout::DataRoot;
use crate::store::oplog::Intent;
use crate::store::torii::{self, Db, Entry};

/// `import`: each bundle becomes a session (its target, under the id it
/// will have). Every part of a bundle is checked while planning, before
/// anything is written; planned again under the locks (the session may
/// have appeared since); written in the safe order of `import`.
///
/// An import a kill or a failure cut short is continued only by the same
/// bundles: each session it began was recorded with its bundle's digest,
/// and a run that brings one of them again, the same, continues that
/// operation (a run of the very same command line does too when it had
/// begun none). Anything else is an operation of its own, and a session
/// the interrupted one began is refused to it: that record stays open
/// (`check` reports it) until its own bundle completes it, or `undo` and
/// `check --repair` clean it up.
pub struct ImportBundles<'a> {
    pub root: &'a DataRoot,
    pub as_id: Option<String>,
    /// The bundle folder of each target.
    pub bundles: std::collections::HashMap<String, PathBuf>,
    /// A tar they were unpacked from, and where: errors name the tar.
    pub tar: Option<(PathBuf, PathBuf)>,
    /// Each session an interrupted import began: the latest such import.
    begun: std::collections::HashMap<String, BegunBy>,
    /// The interrupted import this run continues.
    resume: Option<Continued>,
    /// Two bundles of one session: the whole import is refused.
    duplicate: Option<Error>,
}

/// An interrupted import continued by this run.
struct Continued {
    op: String,
    /// The sessions it began and had not finished: it is complete once
    /// this run has finished them all.
    unfinished: Vec<String>,
    /// Those it had finished (recorded as imported).
    imported: Vec<String>,
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
            begun: Default::default(),
            resume: None,
            duplicate: None,
        };
        let mut targets = Vec::new();
        let mut errors = Vec::new();
        let mut digests = Vec::new();
        for b in found {
            let named = bundle::load_with_digest(b).and_then(|m| {
                m.ok_or_else(|| {
                    if crate::engine::tarball::unfinished_bundle(b) {
                        Error::data(
                            b.join(bundle::MANIFEST),
                            "is missing: the export that wrote this bundle did not complete",
                        )
                        .with_hint("rerun the export into the same folder to write it whole, then import it; the other bundles are imported")
                    } else {
                        Error::data(
                            b.join(bundle::MANIFEST),
                            "is missing: not a sessionctl bundle",
                        )
                    }
                })
            });
            let id = match named {
                // the error memory: merged into the root's, never renamed
                Ok((m, _)) if m.kind == ERROR_MEMORY_KIND => ERROR_MEMORY_BUNDLE.to_owned(),
                Ok((m, digest)) => {
                    let id = op.as_id.clone().unwrap_or(m.session);
                    digests.push((id.clone(), digest));
                    id
                }
                Err(e) => {
                    errors.push(crate::engine::batch::SessionError {
                        session: b.display().to_string(),
                        error: op.relabel(e),
                    });
                    continue;
                }
            };
            if let Some(first) = op.bundles.get(&id) {
                // which of the two is meant cannot be told: neither is
                // imported, nor anything else (refused before any write)
                let e = Error::data(
                    b.join(bundle::MANIFEST),
                    format!(
                        "is a second bundle of session {id} (beside {})",
                        first.file_name().unwrap_or_default().to_string_lossy()
                    ),
                )
                .with_hint("nothing was imported; import them one at a time, one with --as NEW_ID");
                op.duplicate.get_or_insert(op.relabel(e));
                continue;
            }
            op.bundles.insert(id.clone(), b.clone());
            targets.push(Target { id, dir: None });
        }
        op.find_interrupted(&digests);
        (op, targets, errors)
    }

    /// Read the log for interrupted imports: which sessions they began,
    /// and which one (the latest) this run continues, if any.
    fn find_interrupted(&mut self, digests: &[(String, String)]) {
        let ops = interrupted(self.root);
        for o in &ops {
            for c in o.sessions.iter().filter(|c| c.change == SNAPSHOT) {
                let by = BegunBy {
                    op: o.id.clone(),
                    bundle: c.bundle.clone(),
                    continued: false,
                };
                self.begun.insert(c.session.clone(), by);
            }
        }
        let continues = |o: &&crate::store::oplog::Op| {
            let mut began = o.sessions.iter().filter(|c| c.change == SNAPSHOT);
            let same = began.clone().any(|c| {
                digests
                    .iter()
                    .any(|(id, d)| *id == c.session && c.bundle.as_deref() == Some(d.as_str()))
            });
            same || (began.next().is_none() && same_command_line(o))
        };
        let Some(o) = ops.iter().rev().find(continues) else {
            return;
        };
        for by in self.begun.values_mut() {
            by.continued = by.op == o.id;
        }
        let done = |s: &str| {
            o.sessions
                .iter()
                .any(|c| c.session == s && c.change == "import")
        };
        let (imported, unfinished) = o
            .sessions
            .iter()
            .filter(|c| c.change == SNAPSHOT)
            .map(|c| c.session.clone())
            .partition(|s| done(s));
        self.resume = Some(Continued {
            op: o.id.clone(),
            unfinished,
            imported,
        });
    }

    /// Why nothing of this import may be written, found while reading the
    /// bundles (two of one session).
    pub fn refused(&mut self) -> Option<Error> {
        self.duplicate.take()
    }

    fn relabel(&self, e: Error) -> Error {
        match &self.tar {
            Some((tar, dir)) => relabel(dir, tar, e),
            None => e,
        }
    }
}

/// What importing one bundle will write.
pub enum Planned {
    Session(Box<Import>),
    /// The error memory's records the root lacks, and the others' count.
    Errors {
        report: TransferReport,
        entries: Vec<(String, Entry)>,
    },
}

impl Operation for ImportBundles<'_> {
    type Plan = Planned;
    type Report = TransferReport;

    fn needs(&self) -> Needs {
        Needs {
            store_lock: true,
            ..Needs::default()
        }
    }

    fn intent(&self) -> Intent {
        Intent {
            resume: self.resume.as_ref().map(|c| c.op.clone()),
            ..Intent::of("import")
        }
    }

    fn complete_after(&self, changed: &[String]) -> bool {
        self.resume
            .as_ref()
            .is_none_or(|c| c.unfinished.iter().all(|s| changed.contains(s)))
    }

    fn replans_under_locks(&self) -> bool {
        true
    }

    fn plan(&self, t: &Target, _: &dyn StoreView) -> Result<Planned> {
        let path = &self.bundles[&t.id];
        let planned = if t.id == ERROR_MEMORY_BUNDLE {
            plan_errors(self.root, path)
        } else {
            let begun = self.begun.get(&t.id);
            plan_import(self.root, path, self.as_id.as_deref(), begun)
                .map(|p| Planned::Session(Box::new(p)))
        };
        planned.map_err(|e| self.relabel(e))
    }

    fn has_work(&self, plan: &Planned) -> bool {
        match plan {
            Planned::Session(_) => true,
            Planned::Errors { entries, .. } => !entries.is_empty(),
        }
    }

    fn preview(&self, _: &Target, plan: &Planned, dry_run: bool) -> TransferReport {
        let report = match plan {
            Planned::Session(p) => p.report(),
            Planned::Errors { report, .. } => report,
        };
        TransferReport {
            dry_run,
            bundle: self
                .tar
                .as_ref()
                .map_or_else(|| report.bundle.clone(), |t| t.0.clone()),
            ..report.clone()
        }
    }

    fn changed(&self, t: &Target, _: &TransferReport) -> Vec<String> {
        // the error memory's records are recorded by key as they are kept
        if t.is_shared() {
            Vec::new()
        } else {
            vec![t.id.clone()]
        }
    }

    fn apply(&self, t: &Target, plan: Planned, stores: &mut Stores<'_>) -> Result<TransferReport> {
        let plan = match plan {
            Planned::Session(p) => *p,
            Planned::Errors { report, entries } => {
                let mut report = merge_errors(stores, report, entries)?;
                if let Some((tar, _)) = &self.tar {
                    report.bundle = tar.clone();
                }
                return Ok(report);
            }
        };
        // import never overwrites: before it, the session was not there
        crate::engine::undo::snapshot::keep_absent(
            stores.journal,
            stores.root,
            &t.id,
            &plan.digest,
        )?;
        let mut report = import(stores, plan).map_err(|e| self.relabel(e))?;
        let recorded = self
            .resume
            .as_ref()
            .is_some_and(|c| c.imported.contains(&t.id));
        if !recorded {
            stores.journal.record(&t.id, "import", None)?;
        }
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

/// The one file of an error-memory bundle: its records as ToriiDB lines.
const ERRORS_PART: &str = ".sessionctl/torii-db2.jsonl";

/// Read and check an error-memory bundle: every line a SET line of an
/// error record (`<tool>:<nanos>`, a JSON object) within ToriiDB's line
/// limit; keep those the root lacks and that have not expired.
fn plan_errors(root: &DataRoot, path: &Path) -> Result<Planned> {
    let phys = fs::canonicalize(path).map_err(|e| Error::read(path, e))?;
    let manifest = bundle::load(&phys)?.ok_or_else(|| {
        Error::data(
            path.join(bundle::MANIFEST),
            "is missing: not a sessionctl bundle",
        )
    })?;
    bundle::verify(&phys, &manifest, true)?;
    // its kind must be what it holds: session files (or a session's store
    // parts) under a manifest that says error-memory were changed since
    // export, and merging them as error memory would drop them unsaid
    let foreign = manifest
        .files
        .iter()
        .filter(|f| f.path != ERRORS_PART)
        // a session file first, the clearest sign
        .min_by_key(|f| f.path.starts_with(".sessionctl/"));
    if let Some(f) = foreign {
        return Err(Error::data(
            path.join(bundle::MANIFEST),
            format!(
                "says kind {ERROR_MEMORY_KIND}, but the bundle holds {}, which an error-memory bundle never does",
                f.path
            ),
        )
        .with_hint(
            "the manifest was changed since export; nothing was written: export the session again",
        ));
    }
    bundle::refuse_special_files(&phys)?;
    // it holds no session files, only its own parts, which it reads here
    if let Some(link) = manifest.files.iter().find(|f| f.symlink.is_some()) {
        return Err(Error::data(
            phys.join(&link.path),
            "is a symbolic link; an error-memory bundle holds only files",
        ));
    }
    let lines_path = phys.join(ERRORS_PART);
    let bytes = match fs::read(&lines_path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(Error::read(&lines_path, e)),
    };
    let db2 = Db::load_store(root, torii::DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let mut entries = Vec::new();
    for (i, l) in bytes.split(|b| *b == b'\n').enumerate() {
        if l.is_empty() {
            continue;
        }
        let bad = |what: String| {
            Error::data(&lines_path, format!("line {}: {what}", i + 1)).with_hint(
                "the bundle was not written by sessionctl or was changed since; nothing was written",
            )
        };
        if l.len() > torii::aof::MAX_LINE {
            return Err(bad(format!("{} bytes, over ToriiDB's line limit", l.len())));
        }
        let (key, entry) =
            torii::entry_of_line(l).ok_or_else(|| bad("not a ToriiDB SET line".into()))?;
        let error_key = key.rsplit_once(':').is_some_and(|(tool, n)| {
            !tool.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
        });
        if !error_key {
            return Err(bad(format!(
                "{key:?} is not an error-memory key (<tool>:<nanos>)"
            )));
        }
        let len = torii::restored_line_len(&key, &entry);
        if len > torii::aof::MAX_LINE {
            return Err(bad(format!(
                "the record {key:?} would become a {len}-byte line when ToriiDB rewrites its log (Go escapes <, >, & and control characters as 6 bytes each), over its line limit"
            )));
        }
        if !serde_json::from_str::<serde_json::Value>(&entry.value).is_ok_and(|v| v.is_object()) {
            return Err(bad(format!("the record of {key:?} is not a JSON object")));
        }
        let expired = entry.expire_at.is_some_and(|t| t <= now);
        // what the root has is kept as it is: merged, never overwritten
        if !expired && db2.entry(&key)?.is_none() {
            entries.push((key, entry));
        }
    }
    Ok(Planned::Errors {
        report: TransferReport {
            session: ERROR_MEMORY_BUNDLE.into(),
            bundle: phys,
            files: 0,
            archive_rows: 0,
            torii_keys: entries.len() as u64,
            dry_run: true,
        },
        entries,
    })
}

/// Append the records the root lacks, undoable (their pre-image: absent).
fn merge_errors(
    stores: &mut Stores<'_>,
    mut report: TransferReport,
    entries: Vec<(String, Entry)>,
) -> Result<TransferReport> {
    let root = stores.root;
    let mut db2 = Db::load_store(root, torii::DB_ERROR_MEMORY)?;
    db2.check_writable(stores.force())?;
    // planned again under the lock: only what is still missing
    let mut todo = Vec::new();
    for (k, e) in entries {
        if db2.entry(&k)?.is_none() {
            todo.push((k, e));
        }
    }
    let after: Vec<(String, Option<String>)> = todo
        .iter()
        .map(|(k, e)| (k.clone(), Some(e.value.clone())))
        .collect();
    crate::engine::undo::error_memory::before(stores.journal, root, &db2, &after)?;
    report.torii_keys = db2.restore_entries(&todo)? as u64;
    report.dry_run = false;
    Ok(report)
}

/// The imports a kill or a failure interrupted (not running, not done,
/// not undone), oldest first.
fn interrupted(root: &DataRoot) -> Vec<crate::store::oplog::Op> {
    let Ok(log) = crate::store::oplog::read(root) else {
        return Vec::new();
    };
    log.ops
        .into_iter()
        .filter(|o| {
            o.command == "import"
                && !o.done
                && o.undone_by.is_none()
                && !crate::store::oplog::is_running(root, &o.id).unwrap_or(true)
        })
        .collect()
}

/// The operation was run with this run's arguments (the program's own
/// path aside).
fn same_command_line(o: &crate::store::oplog::Op) -> bool {
    let now: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    o.argv.get(1..).is_some_and(|a| a == now.as_slice())
}
