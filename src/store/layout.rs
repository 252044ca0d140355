//! Where things live under the data root, and the rules that keep every path
//! we touch inside it.
//!
//! Every path we open, create, rename or delete under the root is resolved by
//! [`DataRoot::resolve`] inside the primitives themselves (`atomic`, `files`,
//! `lock`, the stores), so no call site can forget it: each component is
//! checked from the root down with `lstat`, and a symbolic link is followed
//! only when its target, canonicalised, is inside the root. A link that leads
//! out is refused as bad data (exit 65), naming the link. A link in the last
//! place of a path that is removed or renamed is the object itself: it is
//! removed or moved as a link, never followed.
//!
//! Not covered: hard links (a hard-linked file is indistinguishable from its
//! other names), and a race by someone who can write into the root while we
//! run and swaps a folder for a link between our check and our use.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::store::{atomic, files};

/// What the last component of a path names, for [`DataRoot::resolve`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Last {
    /// What a link there points to (a file we read or write through).
    Follow,
    /// The directory entry itself (a file we remove, rename or replace): a
    /// link there is not followed.
    Entry,
}

/// The Agenvoy data root (`~/.config/agenvoy` by default), canonicalised so
/// that "inside the root" can be checked by prefix.
#[derive(Debug, Clone)]
pub struct DataRoot {
    path: PathBuf,
}

impl DataRoot {
    /// Agenvoy itself has no override: it always uses the home directory.
    pub fn default_path() -> Option<PathBuf> {
        std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(|h| PathBuf::from(h).join(".config").join("agenvoy"))
    }

    pub fn open(path: &Path) -> Result<Self> {
        let meta = fs::metadata(path).map_err(|e| {
            if e.kind() == io::ErrorKind::NotFound {
                Error::no_input(format!("data root {} does not exist", path.display())).with_hint(
                    "pass --root DIR or set AGENVOY_HOME to the folder that holds sessions/ and .store/",
                )
            } else {
                Error::read(path, e)
            }
        })?;
        if !meta.is_dir() {
            return Err(Error::no_input(format!(
                "data root {} is not a directory",
                path.display()
            )));
        }
        let path = fs::canonicalize(path).map_err(|e| Error::read(path, e))?;
        Ok(DataRoot { path })
    }

    /// A confinement root for a folder that may not exist yet (a ToriiDB
    /// store opened on its own): canonical when it exists, else absolute.
    pub fn at(path: &Path) -> Result<Self> {
        let path = match fs::canonicalize(path) {
            Ok(p) => p,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                std::path::absolute(path).map_err(|e| Error::read(path, e))?
            }
            Err(e) => return Err(Error::read(path, e)),
        };
        Ok(DataRoot { path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A path as people read it: relative to the root when inside it.
    pub fn relative(&self, p: &Path) -> String {
        p.strip_prefix(&self.path)
            .map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
    }

    pub fn sessions_dir(&self) -> PathBuf {
        self.path.join("sessions")
    }
    pub fn trash_dir(&self) -> PathBuf {
        self.sessions_dir().join(".Trash")
    }
    pub fn store_dir(&self) -> PathBuf {
        self.path.join(".store")
    }
    pub fn archive_path(&self) -> PathBuf {
        self.store_dir().join("history.db")
    }
    pub fn runtime_uid_path(&self) -> PathBuf {
        self.path.join("runtime.uid")
    }
    /// Our own state (locks, caches). Agenvoy never looks here.
    pub fn tool_dir(&self) -> PathBuf {
        self.path.join(".sessionctl")
    }

    /// The physical path of `path`, a path under the root: every component
    /// below the root is checked with `lstat`, and a symlink is replaced by
    /// its canonical target, which must be inside the root. Components that
    /// do not exist yet are kept as they are (nothing below them can be a
    /// link). With `Last::Entry` the last component is not followed.
    pub fn resolve(&self, path: &Path, last: Last) -> Result<PathBuf> {
        let rel = path.strip_prefix(&self.path).map_err(|_| {
            Error::data(
                path,
                format!("is not inside the data root {}", self.path.display()),
            )
        })?;
        self.walk(self.path.clone(), path, rel, last)
    }

    /// `resolve` for `base.join(rel)`, where `base` is a physical folder
    /// inside the root (a result of `resolve`): only `rel` is checked.
    pub fn resolve_under(&self, base: &Path, rel: &Path, last: Last) -> Result<PathBuf> {
        debug_assert!(base.starts_with(&self.path), "{}", base.display());
        self.walk(base.to_path_buf(), &base.join(rel), rel, last)
    }

    fn walk(&self, mut cur: PathBuf, whole: &Path, rel: &Path, last: Last) -> Result<PathBuf> {
        let names = plain_names(whole, rel)?;
        let mut missing = false;
        for (i, name) in names.iter().enumerate() {
            cur.push(name);
            if missing || (i + 1 == names.len() && last == Last::Entry) {
                continue;
            }
            match fs::symlink_metadata(&cur) {
                Ok(m) if m.file_type().is_symlink() => cur = self.follow(&cur)?,
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => missing = true,
                Err(e) => return Err(Error::read(&cur, e)),
            }
        }
        Ok(cur)
    }

    /// The canonical target of a symlink, if it is inside the root.
    fn follow(&self, link: &Path) -> Result<PathBuf> {
        let target = match fs::canonicalize(link) {
            Ok(t) => Some(t),
            Err(e) if e.kind() == io::ErrorKind::NotFound => dangling_target(link)?,
            Err(e) => return Err(Error::read(link, e)),
        };
        match target {
            Some(t) if t.starts_with(&self.path) => Ok(t),
            _ => {
                let shown = match target {
                    Some(t) => t,
                    None => fs::read_link(link).map_err(|e| Error::read(link, e))?,
                };
                Err(Error::data(
                    link,
                    format!(
                        "is a symbolic link to {} outside the data root; refusing to follow it",
                        shown.display()
                    ),
                )
                .with_hint("point the link inside the data root or replace it with the folder or file itself; nothing was changed"))
            }
        }
    }

    /// Ids of every session folder, sorted. Dot-folders (`.Trash`) are not
    /// sessions; symlinked folders are listed in `skipped` because following
    /// them could leave the root.
    pub fn session_ids(&self) -> Result<SessionListing> {
        let dir = self.sessions_dir();
        let mut listing = SessionListing::default();
        let Some(entries) = files::read_dir(self, &dir)? else {
            return Ok(listing);
        };
        for entry in entries {
            let entry = entry.map_err(|e| Error::read(&dir, e))?;
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                listing
                    .skipped
                    .push((entry.path(), "name is not valid UTF-8".into()));
                continue;
            };
            if validate_session_id(&name).is_err() {
                continue;
            }
            let file_type = entry
                .file_type()
                .map_err(|e| Error::read(entry.path(), e))?;
            if file_type.is_symlink() {
                listing.skipped.push((
                    entry.path(),
                    "is a symbolic link; sessionctl does not follow links out of the data root"
                        .into(),
                ));
            } else if file_type.is_dir() {
                listing.ids.push(name);
            }
        }
        listing.ids.sort();
        Ok(listing)
    }

    /// The folder of one existing session. Unknown sessions are "no input"
    /// (66); a symlinked folder is refused as data we will not follow (65).
    pub fn session(&self, id: &str) -> Result<SessionDir> {
        let dir = self.session_path(id)?;
        let phys = self.resolve(&self.sessions_dir(), Last::Follow)?.join(id);
        match fs::symlink_metadata(&phys) {
            Ok(m) if m.file_type().is_symlink() => Err(Error::data(
                &dir,
                "session folder is a symbolic link; refusing to follow it",
            )
            .with_hint("`sessionctl remove` removes the link itself, never its target")),
            Ok(m) if m.is_dir() => Ok(SessionDir {
                id: id.to_owned(),
                path: dir,
                phys,
                root: self.clone(),
            }),
            Ok(_) => Err(Error::data(&dir, "is not a directory")),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(Error::no_input(format!(
                "unknown session '{id}' (no folder {})",
                dir.display()
            ))
            .with_hint("`sessionctl sessions list` shows the sessions under this root")),
            Err(e) => Err(Error::read(&dir, e)),
        }
    }

    /// Whatever stands at a session's place, a symlink included (never
    /// followed): what `remove` takes away. `None` when nothing is there.
    pub fn session_entry(&self, id: &str) -> Result<Option<SessionDir>> {
        let path = self.session_path(id)?;
        let phys = self.resolve(&self.sessions_dir(), Last::Follow)?.join(id);
        match fs::symlink_metadata(&phys) {
            Ok(_) => Ok(Some(SessionDir {
                id: id.to_owned(),
                path,
                phys,
                root: self.clone(),
            })),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::read(&path, e)),
        }
    }

    /// Path of a session folder after validating the id; does not require it
    /// to exist.
    pub fn session_path(&self, id: &str) -> Result<PathBuf> {
        validate_session_id(id)?;
        Ok(self.sessions_dir().join(id))
    }
}

#[derive(Debug, Default)]
pub struct SessionListing {
    pub ids: Vec<String>,
    pub skipped: Vec<(PathBuf, String)>,
}

/// A session id is an opaque name of exactly one path segment.
pub fn validate_session_id(id: &str) -> Result<()> {
    let reason = if id.is_empty() {
        Some("is empty")
    } else if id.contains('/') || id.contains('\\') {
        Some("contains a path separator")
    } else if id.contains('\0') {
        Some("contains a NUL byte")
    } else if id.starts_with('.') {
        Some("starts with '.' (reserved for .Trash and hidden folders)")
    } else if id.len() > 255 {
        Some("is longer than 255 bytes")
    } else {
        None
    };
    match reason {
        Some(why) => Err(Error::usage(format!(
            "invalid session id {:?}: {why}",
            id.escape_debug().to_string()
        ))
        .with_hint("a session id is the name of one folder under sessions/")),
        None => Ok(()),
    }
}

/// The names of `rel`, refusing anything that could climb out (`..`, an
/// absolute part).
fn plain_names<'a>(whole: &Path, rel: &'a Path) -> Result<Vec<&'a OsStr>> {
    let mut names = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(n) => names.push(n),
            Component::CurDir => {}
            _ => {
                return Err(Error::data(
                    whole,
                    "has a '..' or absolute component; refusing to resolve it",
                ))
            }
        }
    }
    Ok(names)
}

/// Where a dangling link would lead once its target is created: the
/// canonical form of the target's longest existing ancestor, plus the rest.
/// `None` when the rest is not plain names (it could climb anywhere).
fn dangling_target(link: &Path) -> Result<Option<PathBuf>> {
    let raw = fs::read_link(link).map_err(|e| Error::read(link, e))?;
    // joining an absolute target replaces the base
    let target = link.parent().unwrap_or(Path::new("/")).join(raw);
    for ancestor in target.ancestors().skip(1) {
        if let Ok(base) = fs::canonicalize(ancestor) {
            let rest = target.strip_prefix(ancestor).expect("an ancestor");
            let plain = rest.components().all(|c| matches!(c, Component::Normal(_)));
            return Ok(plain.then(|| base.join(rest)));
        }
    }
    Ok(None)
}

/// `id` as part of a file name of at most `max` bytes: itself while it
/// fits, else a readable prefix, '-' and the sha256 hex of the whole id
/// (so two long ids never share a name). NAME_MAX is 255 bytes, and a
/// valid session id may use all of them.
pub fn name_part(id: &str, max: usize) -> Cow<'_, str> {
    if id.len() <= max {
        return Cow::Borrowed(id);
    }
    let digest = Sha256::digest(id.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let mut keep = max.saturating_sub(hex.len() + 1);
    while !id.is_char_boundary(keep) {
        keep -= 1;
    }
    Cow::Owned(format!("{}-{hex}", &id[..keep]))
}

/// One session folder and the files Agenvoy keeps in it.
#[derive(Debug, Clone)]
pub struct SessionDir {
    pub id: String,
    pub path: PathBuf,
    /// `path` resolved when the folder was opened (inside the root): paths
    /// in the folder are resolved from here, not from the root again.
    phys: PathBuf,
    root: DataRoot,
}

impl SessionDir {
    pub fn history_json(&self) -> PathBuf {
        self.path.join("history.json")
    }
    pub fn summary_json(&self) -> PathBuf {
        self.path.join("summary.json")
    }
    pub fn summary_meta(&self) -> PathBuf {
        self.path.join("summary.meta.json")
    }
    pub fn tasks_dir(&self) -> PathBuf {
        self.path.join("history")
    }
    pub fn pending_dir(&self) -> PathBuf {
        self.path.join("pending")
    }
    pub fn action_log(&self) -> PathBuf {
        self.path.join("action.log")
    }
    pub fn config_json(&self) -> PathBuf {
        self.path.join("config.json")
    }

    pub fn root(&self) -> &DataRoot {
        &self.root
    }

    /// [`DataRoot::resolve`] for a path in this session.
    pub fn resolve(&self, path: &Path, last: Last) -> Result<PathBuf> {
        for base in [&self.path, &self.phys] {
            if let Ok(rel) = path.strip_prefix(base) {
                return self.root.resolve_under(&self.phys, rel, last);
            }
        }
        self.root.resolve(path, last)
    }

    /// Metadata of a file in this session (`None` when missing), refusing
    /// links that lead out of the data root.
    pub fn inspect(&self, path: &Path) -> Result<Option<fs::Metadata>> {
        files::inspect_at(&self.resolve(path, Last::Follow)?, path)
    }

    /// A whole JSON file of this session (`MAX_JSON_FILE` cap).
    pub fn read(&self, path: &Path) -> Result<Option<Vec<u8>>> {
        files::read_at(&self.resolve(path, Last::Follow)?, path, MAX_JSON_FILE)
    }

    /// A small file (settings, a cursor): `files::MAX_SMALL_FILE` cap.
    pub fn read_small(&self, path: &Path) -> Result<Option<Vec<u8>>> {
        files::read_at(
            &self.resolve(path, Last::Follow)?,
            path,
            files::MAX_SMALL_FILE,
        )
    }

    /// The entries of a folder of this session; `None` when missing.
    pub fn read_dir(&self, path: &Path) -> Result<Option<fs::ReadDir>> {
        files::read_dir_at(&self.resolve(path, Last::Follow)?, path)
    }

    /// Replace a file of this session atomically (see `atomic`).
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<()> {
        atomic::write_atomic(&self.root, path, bytes)
    }
}

/// No Agenvoy JSON file comes near this (history.json is capped at 5 MiB);
/// anything larger is refused before it is read, so a runaway file cannot
/// exhaust memory.
pub const MAX_JSON_FILE: u64 = 256 * 1024 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_that_escape_or_hide_are_rejected() {
        for bad in ["", "a/b", "../x", "..", ".", ".Trash", "a\\b", "a\0b"] {
            assert!(validate_session_id(bad).is_err(), "{bad:?} accepted");
        }
        let long = "x".repeat(256);
        assert!(validate_session_id(&long).is_err());
        for good in ["tui-alice", "discord-9001", "web_1:2", "temp-x..y", "日本"] {
            assert!(validate_session_id(good).is_ok(), "{good:?} rejected");
        }
    }

    #[test]
    fn symlinks_out_of_the_root_are_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), b"x").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        let r = root.path();
        std::fs::write(r.join("inside"), b"ok").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), r.join("out")).unwrap();
        std::os::unix::fs::symlink(outside.path(), r.join("outdir")).unwrap();
        std::os::unix::fs::symlink(r.join("inside"), r.join("in")).unwrap();
        std::os::unix::fs::symlink("nowhere/new", r.join("dangling-in")).unwrap();
        std::os::unix::fs::symlink("/nonexistent/x", r.join("dangling-out")).unwrap();
        std::os::unix::fs::symlink("../../x", r.join("dangling-up")).unwrap();

        for out in [
            "out",
            "outdir/secret",
            "outdir/new/deeper",
            "dangling-out",
            "dangling-up",
        ] {
            let err = root.resolve(&r.join(out), Last::Follow).unwrap_err();
            assert_eq!(err.exit_code(), crate::error::exit::DATA, "{out}");
            assert!(err.to_string().contains("outside the data root"), "{err}");
        }
        // the link itself may be removed or renamed: it is the entry
        assert_eq!(
            root.resolve(&r.join("out"), Last::Entry).unwrap(),
            r.join("out")
        );
        // but not anything below a link out
        assert!(root.resolve(&r.join("outdir/x"), Last::Entry).is_err());
        assert_eq!(
            root.resolve(&r.join("in"), Last::Follow).unwrap(),
            r.join("inside")
        );
        assert_eq!(
            root.resolve(&r.join("dangling-in"), Last::Follow).unwrap(),
            r.join("nowhere/new")
        );
        assert_eq!(
            root.resolve(&r.join("none/a/b"), Last::Follow).unwrap(),
            r.join("none/a/b")
        );
        assert!(root.resolve(&r.join("a/../../b"), Last::Follow).is_err());
        assert!(root
            .resolve(Path::new("/etc/passwd"), Last::Follow)
            .is_err());
    }

    #[test]
    fn long_ids_get_a_hashed_name_that_fits() {
        assert_eq!(name_part("tui-alice", 200), "tui-alice");
        let a = "é".repeat(127) + "a";
        let b = "é".repeat(127) + "b";
        let (na, nb) = (name_part(&a, 200), name_part(&b, 200));
        assert!(na.len() <= 200 && nb.len() <= 200);
        assert_ne!(na, nb);
        assert!(na.starts_with("éé"));
    }

    #[test]
    fn missing_root_is_no_input() {
        let err = DataRoot::open(Path::new("/nonexistent/agenvoy-root")).unwrap_err();
        assert_eq!(err.exit_code(), crate::error::exit::NO_INPUT);
    }
}
