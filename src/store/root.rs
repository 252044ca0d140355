//! The data root and the rule that keeps every path we touch inside it.
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
//!
//! This module is the bottom of `store`: `atomic` and `files` build on it,
//! and `layout` (where sessions live) builds on all three.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

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
