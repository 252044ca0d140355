//! `export` and `import`: a session as a bundle (docs/bundle.md), to move
//! it between roots and machines.
//!
//! Export reads consistently: under the session lock (no sessionctl writer
//! changes it), the archive rows from one read transaction, db1 as replayed
//! once. Import writes all tiers in the safe order — the files are staged
//! first in `sessions/.<id>.import/` (hidden: a leading dot is never a
//! session; `leftovers::import_staging` names it), then the archive rows,
//! then the db1 entries, then the staged folder is renamed into place. A
//! rerun of the same bundle after a crash finds the staging folder and
//! completes the import; anything else that finds the session begun, or
//! existing in any tier, is refused.

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::engine::batch::Stores;
use crate::error::{Error, Result};
use crate::store::archive::Archive;
use crate::store::bundle::{self, Manifest};
use crate::store::layout::{validate_session_id, DataRoot, Last};
use crate::store::torii::{self, Db};
use crate::store::{atomic, trash};

#[derive(Debug, Clone, Serialize)]
pub struct TransferReport {
    pub session: String,
    /// The bundle written (export) or read (import).
    pub bundle: PathBuf,
    pub files: u64,
    pub archive_rows: u64,
    pub torii_keys: u64,
    pub dry_run: bool,
}

/// Reads sessions out of a root as bundles: db1 replayed and the archive
/// opened once for all of them (an `export --all` of thousands of
/// sessions must not replay the log once each).
pub struct Exporter<'r> {
    root: &'r DataRoot,
    db1: Db,
    archive: Option<Archive>,
    now: i64,
}

impl<'r> Exporter<'r> {
    pub fn new(root: &'r DataRoot) -> Result<Exporter<'r>> {
        Ok(Exporter {
            root,
            db1: Db::load_store(root, torii::DB_SESSION_HIST)?,
            archive: Archive::open_read(root, &root.archive_path())?,
            now: torii::now_unix(),
        })
    }

    /// Write the bundle of session `id` to `<out>/<id>/` (refused if it
    /// exists). A real export holds the session's lock while it reads, so
    /// no sessionctl writer changes the session meanwhile; the archive
    /// rows come from one read transaction.
    pub fn export(&mut self, id: &str, out: &Path, dry_run: bool) -> Result<TransferReport> {
        let root = self.root;
        let dir = root.session(id)?;
        refuse_out_in_sessions(root, out)?;
        let dest = out.join(crate::store::layout::name_part(id, 200).as_ref());
        refuse_sealed(&dest)?;
        let _lock = if dry_run {
            None
        } else {
            Some(crate::store::lock::session(root, id)?)
        };
        let keys = self.db1.session_keys(id, self.now);
        let mut report = TransferReport {
            session: id.to_owned(),
            bundle: dest.clone(),
            files: 0,
            archive_rows: 0,
            torii_keys: keys.len() as u64,
            dry_run,
        };
        if dry_run {
            report.archive_rows = match &self.archive {
                Some(a) => a.count_session(id)?,
                None => 0,
            };
            return Ok(report);
        }
        fs::create_dir_all(out).map_err(|e| Error::write(out, e))?;
        let out_root = DataRoot::at(out)?;
        let dest = out_root.path().join(dest.file_name().expect("a name"));
        let staging = begin_bundle(&out_root, &dest)?;
        let sidecar = staging.join(bundle::SIDECAR);
        atomic::create_dir_all(&out_root, &sidecar)?;
        let src = root.resolve(&dir.path, Last::Follow)?;
        report.files = copy_tree(&src, &out_root, &staging)?;
        if let Some(a) = &mut self.archive {
            report.archive_rows = a.export_session(&out_root, id, &sidecar)?;
        }
        if !keys.is_empty() {
            trash::export_torii(&out_root, &self.db1, &keys, &sidecar)?;
        }
        trash::record_id(&out_root, &staging, id)?;
        let made = bundle::seal(
            &out_root,
            &staging,
            bundle::Spec {
                session: id,
                kind: "export",
                stores: bundle::SIDECAR,
                link: None,
                op: None,
                from: root.path(),
            },
        )?;
        place(&out_root, &staging, &dest, &made)?;
        report.bundle = dest;
        Ok(report)
    }
}

/// What is at `dest` and is not a bundle is never overwritten, refused
/// before anything is written. A sealed bundle there is compared once the
/// new one is sealed (`place`); a folder without a manifest but with a
/// sidecar is what an interrupted export left: written again.
fn refuse_sealed(dest: &Path) -> Result<()> {
    let there = fs::symlink_metadata(dest).is_ok();
    let bundle = fs::symlink_metadata(dest.join(bundle::MANIFEST)).is_ok_and(|m| m.is_file());
    if there && !bundle && !unsealed_leftover(dest) {
        return Err(exists_error(dest));
    }
    Ok(())
}

fn exists_error(dest: &Path) -> Error {
    Error::usage(format!(
        "{} already exists; export never overwrites",
        dest.display()
    ))
    .with_hint("choose another -o DIR")
}

/// Rename the sealed bundle `staging` into place at `dest`. A sealed
/// bundle already there is never overwritten: when it is this very export
/// (the same session, files, rows and keys, from the same root: a run a
/// kill cut short wrote it), it stands and the rerun goes on past it;
/// anything else there is refused.
fn place(out_root: &DataRoot, staging: &Path, dest: &Path, made: &Manifest) -> Result<()> {
    if fs::symlink_metadata(dest).is_err() || unsealed_leftover(dest) {
        atomic::remove_path(out_root, dest)?;
        return atomic::move_path(out_root, staging, dest);
    }
    let same = bundle::load(dest).ok().flatten().is_some_and(|m| {
        Manifest {
            created_at: made.created_at.clone(),
            ..m
        } == *made
    });
    atomic::remove_path(out_root, staging)?;
    if same {
        Ok(())
    } else {
        Err(exists_error(dest).with_hint(
            "it holds another export of this session (or the session changed since); choose another -o DIR",
        ))
    }
}

fn unsealed_leftover(dest: &Path) -> bool {
    let is_dir = |p: &Path| fs::symlink_metadata(p).is_ok_and(|m| m.is_dir());
    is_dir(dest)
        && is_dir(&dest.join(bundle::SIDECAR))
        && fs::symlink_metadata(dest.join(bundle::MANIFEST)).is_err()
}

/// Where a bundle is written before it is sealed: `.<name>.export` beside
/// where it goes, renamed into place once its manifest is written, so a
/// folder of bundles never holds one that looks whole and is not. What an
/// interrupted export left there (or at `dest` unsealed) is deleted first.
fn begin_bundle(out_root: &DataRoot, dest: &Path) -> Result<PathBuf> {
    let staging = export_staging(dest);
    atomic::remove_path(out_root, &staging)?;
    if unsealed_leftover(dest) {
        atomic::remove_path(out_root, dest)?;
    }
    Ok(staging)
}

/// The staging folder of the bundle `dest` (hidden, never a session id).
pub fn export_staging(dest: &Path) -> PathBuf {
    let name = dest.file_name().expect("a name").to_string_lossy();
    let name = name.trim_start_matches('.');
    dest.with_file_name(format!(".{name}{EXPORT_STAGING_SUFFIX}"))
}

/// The suffix of a bundle's staging folder.
const EXPORT_STAGING_SUFFIX: &str = ".export";

/// `name` is that of a bundle's staging folder (hidden: a session id,
/// which never starts with a dot, may end with the same suffix).
pub fn is_export_staging(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(EXPORT_STAGING_SUFFIX)
}

/// The kind, and the folder name in an export, of the error memory's
/// bundle (`export --with-errors`): a leading dot is never a session id.
pub const ERROR_MEMORY_KIND: &str = "error-memory";
pub const ERROR_MEMORY_BUNDLE: &str = ".error-memory";

/// Write every live record of the error memory (db2) to
/// `<out>/.error-memory/`, a bundle of kind `error-memory` whose
/// `.sessionctl/torii-db2.jsonl` holds them as ToriiDB log lines (value,
/// expiry and vector as they are). Returns how many.
pub fn export_errors(root: &DataRoot, out: &Path, dry_run: bool) -> Result<TransferReport> {
    refuse_out_in_sessions(root, out)?;
    let dest = out.join(ERROR_MEMORY_BUNDLE);
    refuse_sealed(&dest)?;
    let db2 = Db::load_store(root, torii::DB_ERROR_MEMORY)?;
    let now = torii::now_unix();
    let keys = db2.keys("*", now);
    let mut report = TransferReport {
        session: ERROR_MEMORY_BUNDLE.into(),
        bundle: dest.clone(),
        files: 0,
        archive_rows: 0,
        torii_keys: keys.len() as u64,
        dry_run,
    };
    if dry_run {
        return Ok(report);
    }
    fs::create_dir_all(out).map_err(|e| Error::write(out, e))?;
    let out_root = DataRoot::at(out)?;
    let dest = out_root.path().join(ERROR_MEMORY_BUNDLE);
    let staging = begin_bundle(&out_root, &dest)?;
    let sidecar = staging.join(bundle::SIDECAR);
    atomic::create_dir_all(&out_root, &sidecar)?;
    trash::export_torii(&out_root, &db2, &keys, &sidecar)?;
    let made = bundle::seal(
        &out_root,
        &staging,
        bundle::Spec {
            session: ERROR_MEMORY_BUNDLE,
            kind: ERROR_MEMORY_KIND,
            stores: bundle::SIDECAR,
            link: None,
            op: None,
            from: root.path(),
        },
    )?;
    place(&out_root, &staging, &dest, &made)?;
    report.bundle = dest;
    Ok(report)
}

/// The folder of an export that has no session to write (a root without
/// any): made all the same, empty, so that importing it imports none
/// rather than failing on a folder that is not there.
pub fn export_nothing(root: &DataRoot, out: &Path) -> Result<()> {
    refuse_out_in_sessions(root, out)?;
    fs::create_dir_all(out).map_err(|e| Error::write(out, e))
}

/// A bundle written under `sessions/` would be taken for a session (and
/// inside the folder being exported, copied into itself without end).
pub fn refuse_out_in_sessions(root: &DataRoot, out: &Path) -> Result<()> {
    let abs = std::env::current_dir()
        .map(|cwd| cwd.join(out))
        .unwrap_or_else(|_| out.to_path_buf());
    let real = abs
        .ancestors()
        .find_map(|a| {
            let base = fs::canonicalize(a).ok()?;
            Some(base.join(abs.strip_prefix(a).expect("an ancestor")))
        })
        .unwrap_or(abs);
    if real.starts_with(root.sessions_dir()) {
        return Err(Error::usage(format!(
            "-o {} is inside {}; a bundle there would be taken for a session",
            out.display(),
            root.sessions_dir().display()
        ))
        .with_hint("export to a folder outside the sessions folder"));
    }
    Ok(())
}

/// Copy a folder's files into `dst` (confined to `dst_root`): regular files
/// byte for byte, symlinks as links (never followed), folders recursively;
/// FIFOs, sockets and devices are skipped; so is a `.sessionctl` sidecar.
/// Returns the files copied.
pub(crate) fn copy_tree(src: &Path, dst_root: &DataRoot, dst: &Path) -> Result<u64> {
    copy_durably(src, dst_root, dst, false)
}

/// `copy_tree` of everything, sidecars included: a trash entry copied as
/// it is (`src` may itself be a symlink: copied as the link).
pub(crate) fn copy_all(src: &Path, dst_root: &DataRoot, dst: &Path) -> Result<u64> {
    let meta = fs::symlink_metadata(src).map_err(|e| Error::read(src, e))?;
    if meta.file_type().is_symlink() {
        let target = fs::read_link(src).map_err(|e| Error::read(src, e))?;
        let phys = dst_root.resolve(dst, Last::Entry)?;
        std::os::unix::fs::symlink(&target, &phys).map_err(|e| Error::write(dst, e))?;
        return Ok(1);
    }
    copy_durably(src, dst_root, dst, true)
}

/// Files are streamed (a 2 GiB history.json costs a buffer, not 2 GiB),
/// each put in place by rename, and all made durable in one pass at the
/// end rather than one fsync each; when this returns, the copy is durable.
fn copy_durably(src: &Path, dst_root: &DataRoot, dst: &Path, sidecars: bool) -> Result<u64> {
    let mut out = atomic::Bulk::new(dst_root);
    let n = copy_with(src, &mut out, dst_root, dst, sidecars)?;
    out.finish()?;
    Ok(n)
}

fn copy_with(
    src: &Path,
    out: &mut atomic::Bulk<'_>,
    dst_root: &DataRoot,
    dst: &Path,
    sidecars: bool,
) -> Result<u64> {
    atomic::create_dir_all(dst_root, dst)?;
    let mut n = 0;
    for e in fs::read_dir(src).map_err(|e| Error::read(src, e))? {
        let e = e.map_err(|e| Error::read(src, e))?;
        let name = e.file_name();
        if name == bundle::SIDECAR && !sidecars {
            continue;
        }
        n += copy_entry(&src.join(&name), out, dst_root, &dst.join(&name), sidecars)?;
    }
    Ok(n)
}

/// Copy the entries `names` of `src` (files, links, folders) into `dst`,
/// made durable together; returns the files copied.
fn copy_named(src: &Path, names: &[String], dst_root: &DataRoot, dst: &Path) -> Result<u64> {
    let mut out = atomic::Bulk::new(dst_root);
    atomic::create_dir_all(dst_root, dst)?;
    let mut n = 0;
    for name in names {
        n += copy_entry(&src.join(name), &mut out, dst_root, &dst.join(name), false)?;
    }
    out.finish()?;
    Ok(n)
}

fn copy_entry(
    from: &Path,
    out: &mut atomic::Bulk<'_>,
    dst_root: &DataRoot,
    to: &Path,
    sidecars: bool,
) -> Result<u64> {
    let meta = fs::symlink_metadata(from).map_err(|e| Error::read(from, e))?;
    if meta.is_dir() {
        copy_with(from, out, dst_root, to, sidecars)
    } else if meta.file_type().is_symlink() {
        let target = fs::read_link(from).map_err(|e| Error::read(from, e))?;
        let phys = dst_root.resolve(to, Last::Entry)?;
        std::os::unix::fs::symlink(&target, &phys).map_err(|e| Error::write(to, e))?;
        Ok(1)
    } else if meta.is_file() {
        out.copy(from, to)?;
        Ok(1)
    } else {
        Ok(0)
    }
}

/// A bundle read and verified for import.
pub struct Import {
    phys: PathBuf,
    manifest: Manifest,
    pub id: String,
    /// The digest of its manifest, which lists every file's sha256: what
    /// the import records, so that only this same bundle continues it.
    pub digest: String,
    staging: PathBuf,
    resume: bool,
    /// An interrupted import of this bundle got as far as renaming the
    /// session into place: only its record is left to finish.
    finished: bool,
    report: TransferReport,
}

impl Import {
    pub fn report(&self) -> &TransferReport {
        &self.report
    }
}

/// An interrupted import (one a kill or a failure cut short) that began
/// the session a bundle is imported as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BegunBy {
    /// Its operation id.
    pub op: String,
    /// The digest of the bundle it recorded (`bundle::load_with_digest`),
    /// if it recorded one.
    pub bundle: Option<String>,
    /// It is the operation this run continues.
    pub continued: bool,
}

/// Read the bundle at `path` (anywhere), check every file against its
/// manifest and every part as it will be written (65 on any problem), and
/// refuse a session that exists (64). `begun`: the interrupted import that
/// began the session, if any; only one this run continues, of this same
/// bundle, may be continued (its staging folder) or closed (the session it
/// put in place). Anything else it did is refused, never taken over.
pub fn plan_import(
    root: &DataRoot,
    path: &Path,
    as_id: Option<&str>,
    begun: Option<&BegunBy>,
) -> Result<Import> {
    let phys = fs::canonicalize(path).map_err(|e| Error::read(path, e))?;
    let (manifest, digest) = bundle::load_with_digest(&phys)?.ok_or_else(|| {
        Error::data(
            path.join(bundle::MANIFEST),
            "is missing: not a sessionctl bundle",
        )
    })?;
    bundle::verify(&phys, &manifest, true)?;
    bundle::refuse_special_files(&phys)?;
    refuse_unsafe_links(&phys, &manifest)?;
    // every row and key it would write must be the session's own, and
    // readable: checked before the first write, so a refused bundle
    // leaves the root as it was
    bundle::check_stores(&phys, &manifest)?;
    check_history(&phys)?;
    let id = as_id.unwrap_or(&manifest.session).to_owned();
    validate_session_id(&id)?;
    if id != manifest.session {
        check_renamed_keys(&phys, &manifest, &id)?;
    }
    let staging = crate::store::leftovers::import_staging(root, &id);
    let staged_type = fs::symlink_metadata(root.resolve(&staging, Last::Entry)?)
        .ok()
        .map(|m| m.file_type());
    let staged = staged_type.is_some();
    let placed = root.session_entry(&id)?.is_some();
    let (resume, finished) = match begun {
        Some(b) if !(b.continued && b.bundle.as_deref() == Some(digest.as_str())) => {
            return Err(begun_by_another(root, &id, &b.op))
        }
        Some(_) if staged && placed => {
            return Err(Error::usage(format!(
                "session {id} was made under {} while its interrupted import was staged in {}; import never overwrites",
                root.path().display(),
                staging.display()
            ))
            .with_hint("import it under another id with --as NEW_ID"))
        }
        Some(_) if staged => (true, false),
        Some(_) if placed => (false, true),
        None if staged => {
            return Err(Error::usage(format!(
                "{} is the staging folder of an import of session {id} that cannot be continued; import never overwrites",
                staging.display()
            ))
            .with_hint(
                match staged_type.and_then(crate::store::leftovers::staging_kind) {
                    Some(_) => "`sessionctl check --repair` removes it; then import again",
                    None => "no import made it: move it away; then import again",
                },
            ))
        }
        Some(_) | None => {
            refuse_existing(root, &id)?;
            (false, false)
        }
    };
    let report = TransferReport {
        session: id.clone(),
        bundle: phys.clone(),
        files: manifest.counts.files,
        archive_rows: manifest.counts.archive_rows,
        torii_keys: manifest.counts.torii_db1_keys,
        dry_run: true,
    };
    Ok(Import {
        phys,
        manifest,
        id,
        digest,
        staging,
        resume,
        finished,
        report,
    })
}

fn begun_by_another(root: &DataRoot, id: &str, op: &str) -> Error {
    Error::usage(format!(
        "session {id} was begun by import {op}, which was interrupted, from another bundle than this one (under {}); import never overwrites",
        root.path().display()
    ))
    .with_hint(format!(
        "rerun that import with its own bundle to complete it, or `sessionctl undo {op}` to take back what it wrote and `sessionctl check --repair` to close it"
    ))
}

/// A bundle comes from anywhere, and its links are planted as they are in
/// the session folder, where Agenvoy follows them. So each must resolve,
/// step by step, inside the session folder without passing through
/// another link: once no link is on the way, every `..` climbs a real
/// folder, and where the text points is where the link points (a link to
/// `../../..` somewhere deep, or to `.`, would otherwise carry a second
/// link's `..` out of the session). The store parts are read here, so
/// they must be files, never links.
fn refuse_unsafe_links(phys: &Path, m: &Manifest) -> Result<()> {
    use std::path::Component;
    let links: std::collections::HashSet<&str> = m
        .files
        .iter()
        .filter(|f| f.symlink.is_some())
        .map(|f| f.path.as_str())
        .collect();
    let parts = bundle::store_parts(m);
    for f in &m.files {
        let Some(target) = &f.symlink else { continue };
        let bad = |why: String| {
            Error::data(
                phys.join(&f.path),
                format!("is a symbolic link to {target}, {why}"),
            )
            .with_hint("import never plants links out of the session folder; nothing was written")
        };
        let sidecar = f.path == bundle::SIDECAR
            || f.path.starts_with(&format!("{}/", bundle::SIDECAR))
            || parts.contains(&f.path);
        if sidecar {
            return Err(bad(
                "where the bundle keeps its own parts, which are files".into()
            ));
        }
        let mut at: Vec<String> = Path::new(&f.path)
            .parent()
            .into_iter()
            .flat_map(|p| p.components())
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        for c in Path::new(target).components() {
            match c {
                Component::CurDir => {}
                Component::Normal(n) => {
                    at.push(n.to_string_lossy().into_owned());
                    let through = at.join("/");
                    if links.contains(through.as_str()) {
                        return Err(bad(format!("which goes through the link {through}")));
                    }
                }
                Component::ParentDir if !at.is_empty() => {
                    at.pop();
                }
                _ => return Err(bad("outside the session folder".into())),
            }
        }
    }
    Ok(())
}

/// The bundle's history.json must be one Agenvoy can read: read one
/// record at a time (it may be gigabytes), a 65 naming it otherwise. Its
/// links were checked first, so following one stays in the bundle.
fn check_history(phys: &Path) -> Result<()> {
    use crate::store::files::{open_outside, Mode};
    let path = phys.join("history.json");
    let Some(opened) = open_outside(&path, Mode::Read)? else {
        return Ok(());
    };
    crate::store::history::for_each(opened.file, &path, |_| {}).map_err(|e| match e {
        Error::Data { path, msg, .. } => Error::data(path, msg).with_hint(FOREIGN),
        e => e,
    })
}

/// What to say about a part of a bundle that is not what sessionctl writes.
const FOREIGN: &str =
    "the bundle was not written by sessionctl or was changed since; nothing was written";

/// Under another id every db1 key is longer or shorter: each renamed
/// entry must still fit ToriiDB's line limit, as written and as Agenvoy's
/// exit rewrites it.
fn check_renamed_keys(phys: &Path, m: &Manifest, id: &str) -> Result<()> {
    for (key, e) in bundle::torii_entries(phys, m)? {
        let renamed = renamed_key(&key, &m.session, id);
        let len = torii::restored_line_len(&renamed, &e);
        if len > torii::aof::MAX_LINE {
            return Err(Error::data(
                phys.join(bundle::store_part(&m.stores, bundle::TORII_DB1)),
                format!(
                    "the entry {key:?} as {renamed:?} would be a {len}-byte line once ToriiDB rewrites its log; ToriiDB cannot read lines over {} bytes",
                    torii::aof::MAX_LINE
                ),
            )
            .with_hint("import it under a shorter id; nothing was written"));
        }
    }
    Ok(())
}

/// `<old>:<nanos>` as a key of session `new`.
fn renamed_key(key: &str, old: &str, new: &str) -> String {
    match key.strip_prefix(old).and_then(|r| r.strip_prefix(':')) {
        Some(rest) => format!("{new}:{rest}"),
        None => key.to_owned(),
    }
}

fn refuse_existing(root: &DataRoot, id: &str) -> Result<()> {
    let rows = match Archive::open_read(root, &root.archive_path())? {
        Some(a) => a.count_session(id)?,
        None => 0,
    };
    let keys = Db::load_store(root, torii::DB_SESSION_HIST)?
        .session_keys(id, torii::now_unix())
        .len();
    if root.session_entry(id)?.is_some() || rows > 0 || keys > 0 {
        return Err(exists(root, id, rows, keys));
    }
    Ok(())
}

fn exists(root: &DataRoot, id: &str, rows: u64, keys: usize) -> Error {
    Error::usage(format!(
        "session {id} already exists under {} ({rows} archive rows, {keys} ToriiDB keys); import never overwrites",
        root.path().display()
    ))
    .with_hint("import it under another id with --as NEW_ID")
}

/// Write the planned import; the caller holds the session and store locks.
pub fn import(stores: &mut Stores<'_>, p: Import) -> Result<TransferReport> {
    let root = stores.root;
    let mut report = p.report.clone();
    report.dry_run = false;
    if p.finished {
        return Ok(report);
    }
    if p.resume {
        atomic::remove_path(root, &p.staging)?;
    }
    // what this run writes, not what the manifest counts: a part may hold
    // fewer lines, and a continued import finds some written already
    report.archive_rows = 0;
    report.torii_keys = 0;
    atomic::create_dir_all(root, &root.sessions_dir())?;
    // only the session's files: a reset entry keeps its store parts at
    // the top, beside them, and those go to the stores, not the folder
    let names = bundle::session_files(&p.phys, &p.manifest)?;
    report.files = copy_named(&p.phys, &names, root, &p.staging)?;
    crate::failpoint("import-after-files");
    let (rows, start_at) = bundle::archive_rows(&p.phys, &p.manifest)?;
    if !rows.is_empty() || start_at.is_some() {
        let archive = stores.archive(true)?.expect("created on demand");
        report.archive_rows = archive.restore_rows(&p.id, &rows, start_at, false)?;
    }
    let old = &p.manifest.session;
    let entries: Vec<_> = bundle::torii_entries(&p.phys, &p.manifest)?
        .into_iter()
        .map(|(k, e)| (renamed_key(&k, old, &p.id), e))
        .collect();
    if !entries.is_empty() {
        report.torii_keys = stores.db1()?.restore_entries(&entries)? as u64;
        stores.forget_keys(&p.id);
    }
    crate::failpoint("import-after-torii");
    atomic::move_path(root, &p.staging, &root.session_path(&p.id)?)?;
    Ok(report)
}

/// An error about a file of a tar unpacked at `dir` names the tar and the
/// file's path inside it (the unpacked folder is gone once we exit).
pub fn relabel(dir: &Path, tar_path: &Path, e: Error) -> Error {
    match e {
        Error::Data { path, msg, hint } if path.starts_with(dir) => {
            let inside = path.strip_prefix(dir).expect("checked");
            Error::Data {
                path: tar_path.to_path_buf(),
                msg: format!("{}: {msg}", inside.display()),
                hint,
            }
        }
        e => e,
    }
}
