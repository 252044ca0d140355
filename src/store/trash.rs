//! `sessions/.Trash/<id>_<YYYYMMDD_HHMMSS.mmm>`: Agenvoy's own trash layout.
//! Reset and remove put what they take away here (files, plus the archive
//! rows and ToriiDB entries as JSON Lines) so a mistake can be undone.
//!
//! A session id too long to fit in an entry name (with the stamp, within
//! NAME_MAX) is shortened with a hash (`layout::name_part`); every entry we
//! make records the full id in `<entry>/.sessionctl/session-id` (for a
//! session folder that was a symlink, moved as the link it is, in
//! `<entry>.stores/.sessionctl/session-id`).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::files::{self, Mode};
use crate::store::layout::{name_part, DataRoot, Last};
use crate::store::oplog::Journal;
use crate::store::torii::Db;

/// Room for the id in an entry name: NAME_MAX minus `_` + the stamp (20),
/// a `-N` for same-millisecond entries and a `.stores` suffix.
const MAX_ID: usize = 200;

/// Where the full session id of an entry is recorded, relative to it.
pub const SESSION_ID_FILE: &str = ".sessionctl/session-id";

/// A fresh, unique trash folder name for a session (not created). The
/// trash folder must resolve inside the root.
pub fn new_path(root: &DataRoot, id: &str) -> Result<PathBuf> {
    let trash = root.trash_dir();
    let phys = dir(root)?;
    let stamp = crate::timefmt::now()
        .with_timezone(&chrono::Local)
        .format("%Y%m%d_%H%M%S%.3f")
        .to_string();
    let name = format!("{}_{stamp}", name_part(id, MAX_ID));
    let mut candidate = name.clone();
    let mut n = 2;
    while std::fs::symlink_metadata(phys.join(&candidate)).is_ok() {
        candidate = format!("{name}-{n}");
        n += 1;
    }
    Ok(trash.join(candidate))
}

/// The Trash folder, resolved; refused (65) when `sessions/.Trash` is a
/// symlink. A link leading out of the root is refused by resolving it,
/// but one leading back into it (to `.store`, to `sessions`) would make
/// the stores or the live sessions look like Trash entries: reset and
/// remove would move into them, and prune delete them for good.
pub fn dir(root: &DataRoot) -> Result<PathBuf> {
    let trash = root.trash_dir();
    // a link out of the root is refused as every such link is
    root.resolve(&trash, Last::Follow)?;
    let phys = root.resolve(&trash, Last::Entry)?;
    match std::fs::symlink_metadata(&phys) {
        Ok(m) if m.file_type().is_symlink() => Err(link_refused(&trash)),
        _ => Ok(phys),
    }
}

/// What `dir` says of a symlinked `.Trash` (also `check`'s finding).
pub fn link_refused(trash: &Path) -> Error {
    Error::data(
        trash,
        "is a symlink, not a folder: the Trash must be a real folder, or what is linked would be taken for Trash entries",
    )
    .with_hint(format!(
        "remove the link (`rm {}`; what it points to stays) or replace it with a folder",
        trash.display()
    ))
}

/// Whether `sessions/.Trash` is a symlink (`check` reports it).
pub fn is_link(root: &DataRoot) -> bool {
    root.resolve(&root.trash_dir(), Last::Entry)
        .ok()
        .and_then(|p| std::fs::symlink_metadata(p).ok())
        .is_some_and(|m| m.file_type().is_symlink())
}

/// Create an entry folder and record the session id in it.
pub fn create(root: &DataRoot, dir: &Path, id: &str) -> Result<()> {
    atomic::create_dir_all(root, dir)?;
    if let Some(parent) = dir.parent() {
        atomic::fsync_dir(root, parent)?;
    }
    record_id(root, dir, id)
}

/// Write the full session id into `<entry>/.sessionctl/session-id`.
pub fn record_id(root: &DataRoot, entry: &Path, id: &str) -> Result<()> {
    let path = entry.join(SESSION_ID_FILE);
    atomic::create_dir_all(root, path.parent().expect("has a folder"))?;
    atomic::write_atomic(root, &path, id.as_bytes())
}

/// Finish an entry as a bundle (its manifest, written last) and record it
/// in the running operation as where `session`'s previous state is.
/// `stores`: where the store parts are in it; `link`: a moved symlink
/// beside it (see `bundle::Manifest`).
pub fn seal(
    journal: &Journal,
    root: &DataRoot,
    bundle: &Path,
    session: &str,
    kind: &str,
    stores: &str,
    link: Option<String>,
) -> Result<()> {
    seal_bundle(journal, root, bundle, session, kind, stores, link)?;
    note_kept(journal, bundle, session, kind)
}

/// `seal`'s first half: the bundle's manifest, written and fsynced. It
/// touches only the bundle, so a parallel batch runs it outside the lock
/// that serialises the shared stores.
pub fn seal_bundle(
    journal: &Journal,
    root: &DataRoot,
    bundle: &Path,
    session: &str,
    kind: &str,
    stores: &str,
    link: Option<String>,
) -> Result<()> {
    crate::store::bundle::seal(
        root,
        bundle,
        crate::store::bundle::Spec {
            session,
            kind,
            stores,
            link,
            op: journal.begin()?,
            from: root.path(),
        },
    )
    .map(drop)
}

/// `seal`'s second half: record the sealed bundle in the running operation.
pub fn note_kept(journal: &Journal, bundle: &Path, session: &str, kind: &str) -> Result<()> {
    journal.record(session, kind, Some(bundle))
}

/// Record a change that kept nothing (`--purge`) in the running operation.
pub fn note_unkept(journal: &Journal, session: &str, kind: &str) -> Result<()> {
    journal.record(session, kind, None)
}

/// Write ToriiDB entries to `<dir>/torii-db<N>.jsonl` as ToriiDB log lines
/// (so they can be appended back to `record.aof` verbatim).
pub fn export_torii<K: AsRef<str>>(root: &DataRoot, db: &Db, keys: &[K], dir: &Path) -> Result<()> {
    let path = dir.join(format!("torii-db{}.jsonl", db.index));
    let mut out = BufWriter::new(create_file(root, &path)?);
    db.for_each_compacted_line(keys, |line| {
        out.write_all(line).map_err(|e| Error::write(&path, e))
    })?;
    finish(out, &path)
}

fn create_file(root: &DataRoot, path: &Path) -> Result<std::fs::File> {
    let opened = files::open(root, path, Mode::Create)?.expect("Create mode creates the file");
    Ok(opened.file)
}

fn finish(out: BufWriter<std::fs::File>, path: &Path) -> Result<()> {
    let file = out
        .into_inner()
        .map_err(|e| Error::write(path, e.into_error()))?;
    crate::durable_step();
    file.sync_all().map_err(|e| Error::write(path, e))
}

/// One trash entry, as `trash list` shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EntryInfo {
    pub name: String,
    pub path: PathBuf,
    /// From the manifest or the recorded id; `None` in entries Agenvoy made.
    pub session: Option<String>,
    /// `reset` or `remove` (a bundle), else `None`.
    pub kind: Option<String>,
    /// The operation that made it.
    pub op: Option<String>,
    pub time: chrono::DateTime<chrono::Utc>,
    pub bytes: u64,
    /// A bundle `trash restore` can put back.
    pub restorable: bool,
}

/// Every entry of the trash, oldest first. A `<entry>.stores` folder
/// belongs to its entry and is not listed on its own.
pub fn list(root: &DataRoot) -> Result<Vec<EntryInfo>> {
    let trash = root.trash_dir();
    let phys = dir(root)?;
    let rd = match std::fs::read_dir(&phys) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::read(&trash, e)),
    };
    let mut out = Vec::new();
    for e in rd {
        let e = e.map_err(|e| Error::read(&trash, e))?;
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".stores") && phys.join(name.trim_end_matches(".stores")).exists() {
            continue;
        }
        out.push(info(&trash, &phys, &name)?);
    }
    out.sort_by(older);
    Ok(out)
}

fn info(trash: &Path, phys: &Path, name: &str) -> Result<EntryInfo> {
    let entry = phys.join(name);
    let bundle = crate::store::bundle::of_entry(&entry);
    let manifest = crate::store::bundle::load(&bundle).ok().flatten();
    let recorded = std::fs::read_to_string(bundle.join(SESSION_ID_FILE)).ok();
    // One clock for every entry: the name's stamp, to the millisecond,
    // taken when the entry was begun. The manifest's time is the sealing
    // time in whole seconds, and entries a kill left have none: mixing the
    // two sorted a sealed entry before an unsealed older one of the same
    // second, and `--keep-last` kept the wrong one.
    let sealed = manifest
        .as_ref()
        .and_then(|m| chrono::DateTime::parse_from_rfc3339(&m.created_at).ok())
        .map(|t| t.with_timezone(&chrono::Utc));
    let time = stamp_time(name, sealed).or(sealed).unwrap_or_else(|| {
        std::fs::symlink_metadata(&entry)
            .and_then(|m| m.modified())
            .map(chrono::DateTime::<chrono::Utc>::from)
            .unwrap_or_else(|_| crate::timefmt::now())
    });
    Ok(EntryInfo {
        name: name.to_owned(),
        path: trash.join(name),
        session: manifest.as_ref().map(|m| m.session.clone()).or(recorded),
        kind: manifest.as_ref().map(|m| m.kind.clone()),
        op: manifest.as_ref().and_then(|m| m.op.clone()),
        time,
        bytes: manifest
            .as_ref()
            .map_or_else(|| du(&entry) + du(&bundle), |m| m.counts.bytes),
        restorable: manifest.is_some(),
    })
}

/// The time in Agenvoy's entry name `<id>_YYYYMMDD_HHMMSS.mmm[-N]` (local).
/// A local time the clock went through twice (the hour a DST change
/// repeats) is read as the one before `sealed`, when the entry has it (it
/// was named before it was sealed).
fn stamp_time(
    name: &str,
    sealed: Option<chrono::DateTime<chrono::Utc>>,
) -> Option<chrono::DateTime<chrono::Utc>> {
    let (base, _) = split_suffix(name);
    let stamp = base.get(base.len().checked_sub(19)?..)?;
    let t = chrono::NaiveDateTime::parse_from_str(stamp, "%Y%m%d_%H%M%S%.3f").ok()?;
    let local = t.and_local_timezone(chrono::Local);
    let latest_before = sealed.and_then(|s| {
        local
            .latest()
            .filter(|l| l.with_timezone(&chrono::Utc) <= s + chrono::Duration::seconds(1))
    });
    latest_before
        .or_else(|| local.earliest())
        .map(|t| t.with_timezone(&chrono::Utc))
}

/// Whether `name` is one `new_path` makes for the session `id`:
/// `<id>_YYYYMMDD_HHMMSS.mmm[-N]` (so a session is known by its entry when
/// the id record inside is missing).
pub fn is_entry_of(name: &str, id: &str) -> bool {
    let (base, _) = split_suffix(name);
    let Some(cut) = base.len().checked_sub(20) else {
        return false;
    };
    let (head, stamp) = base.split_at(cut);
    head == name_part(id, MAX_ID)
        && stamp.starts_with('_')
        && chrono::NaiveDateTime::parse_from_str(&stamp[1..], "%Y%m%d_%H%M%S%.3f").is_ok()
}

/// `<name>-N` (a second entry of the same session and millisecond) as
/// the name and N; any other name with N = 1.
fn split_suffix(name: &str) -> (&str, u32) {
    name.rsplit_once('-')
        .and_then(|(b, n)| Some((b, n.parse::<u32>().ok()?)))
        .unwrap_or((name, 1))
}

/// The order of `list`: by time, then by name with `-N` read as a number
/// (`x-2` before `x-10`, both after `x`), so that entries of the same
/// millisecond keep the order they were made in.
fn older(a: &EntryInfo, b: &EntryInfo) -> std::cmp::Ordering {
    a.time
        .cmp(&b.time)
        .then_with(|| split_suffix(&a.name).cmp(&split_suffix(&b.name)))
}

/// Bytes of the files under `p` (links not followed).
fn du(p: &Path) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(p) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    std::fs::read_dir(p)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| du(&e.path())).sum())
        .unwrap_or(0)
}

/// The kind `preimages` gives an operation's folder of pre-images.
pub const PREIMAGES: &str = "pre-images";

/// The pre-images operations kept under `<root>/.sessionctl/ops/<op>/`
/// (compact, summarize, errors, limits), one entry per operation, oldest
/// first. `trash prune` ages them out with the Trash.
pub fn preimages(root: &DataRoot) -> Result<Vec<EntryInfo>> {
    let ops = root.tool_dir().join("ops");
    let phys = root.resolve(&ops, Last::Follow)?;
    let rd = match std::fs::read_dir(&phys) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::read(&ops, e)),
    };
    let mut out = Vec::new();
    for e in rd {
        let e = e.map_err(|e| Error::read(&ops, e))?;
        let id = e.file_name().to_string_lossy().into_owned();
        let time = id
            .get(..19)
            .and_then(|t| chrono::NaiveDateTime::parse_from_str(t, "%Y%m%dT%H%M%S%.3f").ok())
            .map(|t| t.and_utc())
            .unwrap_or_else(chrono::Utc::now);
        out.push(EntryInfo {
            name: format!(".sessionctl/ops/{id}"),
            path: ops.join(&id),
            session: None,
            kind: Some(PREIMAGES.into()),
            op: Some(id.clone()),
            time,
            bytes: du(&phys.join(&id)),
            restorable: true,
        });
    }
    out.sort_by_key(|e| e.time);
    Ok(out)
}

/// Entries `prune` takes: older than `cutoff`, except the newest
/// `keep_last` of each session. `entries` oldest first, as `list` gives.
pub fn to_prune(
    entries: &[EntryInfo],
    cutoff: chrono::DateTime<chrono::Utc>,
    keep_last: usize,
) -> Vec<EntryInfo> {
    let mut kept: std::collections::HashMap<Option<&str>, usize> = Default::default();
    let mut out: Vec<EntryInfo> = entries
        .iter()
        .rev()
        .filter(|e| {
            let n = kept.entry(e.session.as_deref()).or_default();
            *n += 1;
            *n > keep_last && e.time < cutoff
        })
        .cloned()
        .collect();
    out.reverse();
    out
}

/// Delete an entry for good, with its `.stores` folder.
pub fn delete(root: &DataRoot, entry: &Path) -> Result<()> {
    dir(root)?;
    let stores = PathBuf::from(format!("{}.stores", entry.display()));
    let is_link = std::fs::symlink_metadata(root.resolve(entry, Last::Entry)?)
        .is_ok_and(|m| m.file_type().is_symlink());
    atomic::remove_path(root, entry)?;
    if is_link {
        atomic::remove_path(root, &stores)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_of_one_millisecond_sort_in_the_order_they_were_made() {
        let at = |name: &str| EntryInfo {
            name: name.into(),
            path: name.into(),
            session: None,
            kind: None,
            op: None,
            time: stamp_time(name, None).unwrap(),
            bytes: 0,
            restorable: false,
        };
        let mut v = [
            at("a_20260301_100000.400-10"),
            at("a_20260301_100000.400-2"),
            at("a_20260301_100000.401"),
            at("a_20260301_100000.400"),
        ];
        v.sort_by(older);
        let names: Vec<&str> = v.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "a_20260301_100000.400",
                "a_20260301_100000.400-2",
                "a_20260301_100000.400-10",
                "a_20260301_100000.401"
            ]
        );
    }

    #[test]
    fn a_255_byte_id_gets_an_entry_that_records_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        let long = "y".repeat(255);
        let t = new_path(&root, &long).unwrap();
        assert!(t.file_name().unwrap().len() + ".stores-99".len() <= 255);
        create(&root, &t, &long).unwrap();
        assert_eq!(
            std::fs::read_to_string(t.join(SESSION_ID_FILE)).unwrap(),
            long
        );
        assert_ne!(
            new_path(&root, &long).unwrap(),
            t,
            "a second entry gets its own name"
        );
    }
}
