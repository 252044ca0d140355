//! The bundle: one session's state across all four tiers, as a folder.
//! Trash entries of reset and remove, and `export`, are bundles; undo,
//! `trash restore` and `import` read them. See docs/bundle.md.
//!
//! A bundle is the session folder's files (at the top level, as Agenvoy's
//! own trash keeps a moved folder) plus a `.sessionctl/` sidecar: the
//! archive rows (`archive.jsonl`, `session_meta.json`), the db1 entries as
//! ToriiDB log lines (`torii-db1.jsonl`), the full session id and
//! `manifest.json`, which lists every file with its size and sha256.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::store::archive::ArchivedMessage;
use crate::store::atomic;
use crate::store::layout::{DataRoot, Last};
use crate::store::torii::{self, Entry};

pub const FORMAT: &str = "sessionctl-bundle";
pub const VERSION: u32 = 1;
/// The sidecar folder, relative to the bundle.
pub const SIDECAR: &str = ".sessionctl";
/// The manifest, relative to the bundle.
pub const MANIFEST: &str = ".sessionctl/manifest.json";
pub const ARCHIVE: &str = "archive.jsonl";
pub const SESSION_META: &str = "session_meta.json";
pub const TORII_DB1: &str = "torii-db1.jsonl";
/// A manifest lists a session's files: a million of them is ~200 MB.
const MAX_MANIFEST: u64 = 256 << 20;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    pub session: String,
    /// The data root it was taken from.
    pub root: String,
    pub created_at: String,
    /// The operation that made it (the oplog id).
    #[serde(default)]
    pub op: Option<String>,
    /// `reset`, `remove` or `export`: what the bundle holds the state of.
    pub kind: String,
    /// Where the store parts are, relative to the bundle: `.sessionctl`,
    /// or `.` in reset entries (their layout predates bundles).
    pub stores: String,
    /// A removed session folder that was a symlink is kept as the link,
    /// beside the bundle, under this name; the bundle then has no files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    pub counts: Counts,
    pub files: Vec<FileSum>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Counts {
    /// Session files (the sidecar not counted).
    pub files: u64,
    /// Bytes of every file in the bundle.
    pub bytes: u64,
    pub archive_rows: u64,
    pub torii_db1_keys: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct FileSum {
    /// Relative to the bundle, `/`-separated.
    pub path: String,
    pub size: u64,
    pub sha256: String,
    /// A symlink in the session folder: its target (hashed as text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symlink: Option<String>,
}

/// What a new manifest says besides the files it lists.
pub struct Spec<'a> {
    pub session: &'a str,
    pub kind: &'a str,
    pub stores: &'a str,
    pub link: Option<String>,
    pub op: Option<String>,
    /// The data root the state comes from.
    pub from: &'a Path,
}

/// List and hash every file of the bundle at `dir` (confined to `root`)
/// and write its manifest, last: a bundle with a manifest is complete.
pub fn seal(root: &DataRoot, dir: &Path, spec: Spec<'_>) -> Result<Manifest> {
    let phys = root.resolve(dir, Last::Follow)?;
    let mut files = Vec::new();
    walk(&phys, &phys, &mut files)?;
    files.retain(|f| f.path != MANIFEST && !f.path.ends_with(".part"));
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let stores_rel = |name: &str| store_part(spec.stores, name);
    let lines = |name: &str| count_lines(&phys.join(stores_rel(name)));
    let store_parts: Vec<String> = [ARCHIVE, SESSION_META, TORII_DB1]
        .iter()
        .map(|n| stores_rel(n))
        .collect();
    let counts = Counts {
        files: files
            .iter()
            .filter(|f| !f.path.starts_with(".sessionctl/") && !store_parts.contains(&f.path))
            .count() as u64,
        bytes: files.iter().map(|f| f.size).sum(),
        archive_rows: lines(ARCHIVE),
        torii_db1_keys: lines(TORII_DB1),
    };
    let m = Manifest {
        format: FORMAT.into(),
        version: VERSION,
        session: spec.session.into(),
        root: spec.from.display().to_string(),
        created_at: crate::timefmt::rfc3339(crate::timefmt::now()),
        op: spec.op,
        kind: spec.kind.into(),
        stores: spec.stores.into(),
        link: spec.link,
        counts,
        files,
    };
    let bytes = serde_json::to_vec_pretty(&m).expect("a manifest serializes");
    // written whole beside it, then renamed into place (both folders fsynced)
    let part = dir.join(format!("{MANIFEST}.part"));
    atomic::create_dir_all(root, &dir.join(SIDECAR))?;
    write_file(root, &part, &bytes)?;
    atomic::move_path(root, &part, &dir.join(MANIFEST))?;
    Ok(m)
}

/// Write a file into a bundle being made: plain create + fsync, no temp
/// file and rename, as nothing reads a bundle before its manifest (written
/// last, atomically) says it is complete.
pub fn write_file(root: &DataRoot, path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut f = crate::store::files::open(root, path, crate::store::files::Mode::Create)?
        .expect("Create mode creates the file")
        .file;
    f.write_all(bytes).map_err(|e| Error::write(path, e))?;
    crate::durable_step();
    f.sync_all().map_err(|e| Error::write(path, e))
}

/// Where the store part `name` is in a bundle whose parts are at `stores`.
pub fn store_part(stores: &str, name: &str) -> String {
    if stores == "." || stores.is_empty() {
        name.to_owned()
    } else {
        format!("{stores}/{name}")
    }
}

fn walk(base: &Path, dir: &Path, out: &mut Vec<FileSum>) -> Result<()> {
    for e in fs::read_dir(dir).map_err(|e| Error::read(dir, e))? {
        let e = e.map_err(|e| Error::read(dir, e))?;
        let p = e.path();
        let meta = fs::symlink_metadata(&p).map_err(|e| Error::read(&p, e))?;
        let rel = p
            .strip_prefix(base)
            .expect("walked from base")
            .to_string_lossy()
            .into_owned();
        if meta.is_dir() {
            walk(base, &p, out)?;
        } else if meta.file_type().is_symlink() {
            let target = fs::read_link(&p).map_err(|e| Error::read(&p, e))?;
            let t = target.to_string_lossy().into_owned();
            out.push(FileSum {
                path: rel,
                size: 0,
                sha256: hex(&Sha256::digest(t.as_bytes())),
                symlink: Some(t),
            });
        } else if meta.is_file() {
            let (size, sha256) = hash_file(&p)?;
            out.push(FileSum {
                path: rel,
                size,
                sha256,
                symlink: None,
            });
        }
        // FIFOs, sockets, devices: not session data, never opened.
    }
    Ok(())
}

/// Non-empty lines of a file (0 when it cannot be read), streamed: a store
/// part can be as large as the session's whole db1 share, and reading it
/// whole only to count would fault in that much fresh memory again.
fn count_lines(p: &Path) -> u64 {
    let Ok(mut f) = fs::File::open(p) else {
        return 0;
    };
    let mut buf = vec![0u8; 1 << 16];
    let (mut lines, mut in_line) = (0u64, false);
    loop {
        let n = match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return 0,
        };
        // jump from line end to line end (a line is hundreds of bytes)
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', &buf[..n]) {
            lines += u64::from(in_line || end > start);
            in_line = false;
            start = end + 1;
        }
        in_line |= start < n;
    }
    lines + u64::from(in_line)
}

fn hash_file(p: &Path) -> Result<(u64, String)> {
    let mut f = fs::File::open(p).map_err(|e| Error::read(p, e))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut size = 0u64;
    loop {
        let n = f.read(&mut buf).map_err(|e| Error::read(p, e))?;
        if n == 0 {
            break;
        }
        size += n as u64;
        h.update(&buf[..n]);
    }
    Ok((size, hex(&h.finalize())))
}

/// The sha256 of `bytes`, in hex, as manifests write it.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The manifest of the bundle at `phys` (a physical path), or `None` when
/// there is none (an entry Agenvoy made, or one older than bundles).
pub fn load(phys: &Path) -> Result<Option<Manifest>> {
    Ok(load_with_digest(phys)?.map(|(m, _)| m))
}

/// `load`, with the sha256 of the manifest's bytes: as the manifest lists
/// every file's size and sha256, a bundle that verifies against it is
/// told apart from any other by this digest.
pub fn load_with_digest(phys: &Path) -> Result<Option<(Manifest, String)>> {
    let path = phys.join(MANIFEST);
    // A bundle comes from anywhere: its manifest is read only if it is a
    // regular file (a FIFO would hang us) of a sane size.
    let Some(bytes) = crate::store::files::read_outside(&path, MAX_MANIFEST)? else {
        return Ok(None);
    };
    let digest = sha256_hex(&bytes);
    let m: Manifest = serde_json::from_slice(&bytes)
        .map_err(|e| Error::data(&path, format!("is not a bundle manifest: {e}")))?;
    if m.format != FORMAT || m.version != VERSION {
        return Err(Error::data(
            &path,
            format!(
                "is a {} version {} manifest; this sessionctl reads {FORMAT} version {VERSION}",
                m.format, m.version
            ),
        ));
    }
    Ok(Some((m, digest)))
}

/// Check every file against the manifest (65 naming the first that
/// differs). `complete`: every listed file must be there and no other;
/// else (a restore that was interrupted and runs again) files already
/// moved out may be missing.
pub fn verify(phys: &Path, m: &Manifest, complete: bool) -> Result<()> {
    let mut found = Vec::new();
    walk(phys, phys, &mut found)?;
    found.retain(|f| f.path != MANIFEST);
    let listed: std::collections::HashMap<&str, &FileSum> =
        m.files.iter().map(|f| (f.path.as_str(), f)).collect();
    for f in &found {
        match listed.get(f.path.as_str()) {
            Some(want) if *want == f => {}
            Some(_) => {
                return Err(Error::data(
                    phys.join(&f.path),
                    "does not match the sha256 or size in the bundle manifest",
                )
                .with_hint("the bundle was changed after it was made; nothing was restored"))
            }
            None => {
                return Err(
                    Error::data(phys.join(&f.path), "is not listed in the bundle manifest")
                        .with_hint(
                            "the bundle was changed after it was made; nothing was restored",
                        ),
                )
            }
        }
    }
    if listed.len() != m.files.len() {
        // a hand-edited manifest: every file is listed once
        return Err(
            Error::data(phys.join(MANIFEST), "lists a file more than once")
                .with_hint("the bundle was changed after it was made; nothing was restored"),
        );
    }
    if complete && found.len() != m.files.len() {
        let have: std::collections::HashSet<&str> = found.iter().map(|f| f.path.as_str()).collect();
        let gone = m
            .files
            .iter()
            .find(|f| !have.contains(f.path.as_str()))
            .expect("a listed file is missing");
        return Err(Error::data(
            phys.join(&gone.path),
            "is listed in the bundle manifest but missing",
        ));
    }
    Ok(())
}

/// The paths of the bundle's store parts (relative to it): in the sidecar,
/// or at the top of a reset entry, beside the session's files.
pub fn store_parts(m: &Manifest) -> Vec<String> {
    [ARCHIVE, SESSION_META, TORII_DB1]
        .iter()
        .map(|n| store_part(&m.stores, n))
        .collect()
}

/// Refuse (65, naming it) anything in the bundle at `phys` that is neither
/// a file, a folder nor a link: a FIFO, socket or device is no session
/// data, and leaving it out silently would import less than was sent.
pub fn refuse_special_files(phys: &Path) -> Result<()> {
    fn walk(dir: &Path) -> Result<()> {
        for e in fs::read_dir(dir).map_err(|e| Error::read(dir, e))? {
            let p = e.map_err(|e| Error::read(dir, e))?.path();
            let meta = fs::symlink_metadata(&p).map_err(|e| Error::read(&p, e))?;
            let t = meta.file_type();
            if t.is_dir() {
                walk(&p)?;
            } else if !t.is_file() && !t.is_symlink() {
                return Err(Error::data(
                    &p,
                    "is a FIFO, socket or device: a bundle holds only files, folders and links",
                )
                .with_hint(HOSTILE));
            }
        }
        Ok(())
    }
    walk(phys)
}

/// The session's files and folders at the bundle's top level.
pub fn session_files(phys: &Path, m: &Manifest) -> Result<Vec<String>> {
    let parts = store_parts(m);
    let mut names = Vec::new();
    let rd = match fs::read_dir(phys) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(names),
        Err(e) => return Err(Error::read(phys, e)),
    };
    for e in rd {
        let name = e.map_err(|e| Error::read(phys, e))?.file_name();
        let name = name.to_string_lossy().into_owned();
        if name != SIDECAR && !parts.contains(&name) {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// The saved archive rows and session_meta.start_at.
pub fn archive_rows(phys: &Path, m: &Manifest) -> Result<(Vec<ArchivedMessage>, Option<i64>)> {
    let path = phys.join(store_part(&m.stores, ARCHIVE));
    let mut rows = Vec::new();
    if let Some(text) = read_opt(&path)? {
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
            let row: ArchivedMessage = serde_json::from_str(line).map_err(|e| {
                Error::data(&path, format!("line {}: not an archive row: {e}", i + 1))
                    .with_hint(HOSTILE)
            })?;
            // a bundle restores one session: a row of another would be
            // written into that session's archive
            if row.session_id != m.session {
                return Err(Error::data(
                    &path,
                    format!(
                        "line {}: a row of session {:?} in the bundle of {:?}",
                        i + 1,
                        row.session_id,
                        m.session
                    ),
                )
                .with_hint(HOSTILE));
            }
            rows.push(row);
        }
    }
    let meta_path = phys.join(store_part(&m.stores, SESSION_META));
    let start_at = match read_opt(&meta_path)? {
        Some(t) => {
            let v = serde_json::from_str::<serde_json::Value>(&t).unwrap_or_default();
            // the row is the bundle's session's, whatever id it is put
            // back under: one naming another session is not this bundle's
            match &v["session_id"] {
                serde_json::Value::Null => {}
                serde_json::Value::String(s) if *s == m.session => {}
                other => {
                    return Err(Error::data(
                        &meta_path,
                        format!(
                            "is the session_meta row of session {other}, in the bundle of {:?}",
                            m.session
                        ),
                    )
                    .with_hint(HOSTILE))
                }
            }
            Some(
                v["start_at"]
                    .as_i64()
                    .ok_or_else(|| Error::data(&meta_path, "has no start_at").with_hint(HOSTILE))?,
            )
        }
        None => None,
    };
    Ok((rows, start_at))
}

/// What to say about a store part that is not what sessionctl writes.
const HOSTILE: &str =
    "the bundle was not written by sessionctl or was changed since; nothing was written";

/// Read every store part of the bundle as a restore will, and refuse (65)
/// what a restore must not write: a line that is not a ToriiDB SET line
/// (a DEL, a torn or split line), one over ToriiDB's line limit, a key or
/// an archive row of another session than the bundle's, a row of the wrong
/// shape. Called before the first write, so a refused bundle changes
/// nothing.
pub fn check_stores(phys: &Path, m: &Manifest) -> Result<()> {
    archive_rows(phys, m)?;
    torii_entries(phys, m)?;
    Ok(())
}

/// Whether `key` is a db1 key of `session`: `<session>:<unix nanos>`.
pub fn is_key_of(key: &str, session: &str) -> bool {
    key.strip_prefix(session)
        .and_then(|r| r.strip_prefix(':'))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The db1 entries the bundle keeps (`torii-db1.jsonl`, ToriiDB log lines),
/// each checked to be a SET line of the bundle's session within ToriiDB's
/// line limit.
pub fn torii_entries(phys: &Path, m: &Manifest) -> Result<Vec<(String, Entry)>> {
    let path = phys.join(store_part(&m.stores, TORII_DB1));
    let bytes = match fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::read(&path, e)),
    };
    let mut out = Vec::new();
    for (i, l) in bytes.split(|b| *b == b'\n').enumerate() {
        if l.is_empty() {
            continue;
        }
        let bad =
            |what: String| Error::data(&path, format!("line {}: {what}", i + 1)).with_hint(HOSTILE);
        if l.len() > torii::aof::MAX_LINE {
            return Err(bad(format!(
                "{} bytes, over ToriiDB's {}-byte line limit",
                l.len(),
                torii::aof::MAX_LINE
            )));
        }
        let (key, entry) =
            torii::entry_of_line(l).ok_or_else(|| bad("not a ToriiDB SET line".into()))?;
        if !is_key_of(&key, &m.session) {
            return Err(bad(format!(
                "the key {key:?} is not one of session {:?}",
                m.session
            )));
        }
        // within the limit here, but maybe not once Agenvoy's exit
        // rewrites the log with Go's longer escapes: ToriiDB would then
        // load the whole database as empty
        let len = torii::restored_line_len(&key, &entry);
        if len > torii::aof::MAX_LINE {
            return Err(bad(format!(
                "the entry {key:?} would become a {len}-byte line when ToriiDB rewrites its log (Go escapes <, >, &, U+2028/U+2029 and control characters as 6 bytes each), over its {}-byte line limit",
                torii::aof::MAX_LINE
            )));
        }
        out.push((key, entry));
    }
    Ok(out)
}

fn read_opt(path: &Path) -> Result<Option<String>> {
    match fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::read(path, e)),
    }
}

/// Where the bundle of a trash entry is: the entry itself, or for a moved
/// symlink, `<entry>.stores` beside it.
pub fn of_entry(entry: &Path) -> PathBuf {
    if fs::symlink_metadata(entry).is_ok_and(|m| m.file_type().is_symlink()) {
        PathBuf::from(format!("{}.stores", entry.display()))
    } else {
        entry.to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_are_counted_as_the_non_empty_pieces_between_line_breaks() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        assert_eq!(super::count_lines(&p), 0, "a missing file has none");
        for text in [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\n\nb",
            "\na\n\n\nb\n\n",
            "ab\ncd",
        ] {
            std::fs::write(&p, text).unwrap();
            let split = text.split('\n').filter(|l| !l.is_empty()).count() as u64;
            assert_eq!(super::count_lines(&p), split, "{text:?}");
        }
        // across the read buffer's boundary
        let long = format!("{}\n\n{}", "x".repeat((1 << 16) - 1), "y".repeat(1 << 16));
        std::fs::write(&p, &long).unwrap();
        assert_eq!(super::count_lines(&p), 2);
        // a line filling the buffer, its break first in the next read
        let long = format!("{}\n\ny", "x".repeat(1 << 16));
        std::fs::write(&p, &long).unwrap();
        assert_eq!(super::count_lines(&p), 2);
    }
}
