//! Where things live under the data root: session folders, their files
//! and the shared stores. The rule that keeps every path inside the root is
//! `root`'s.

use std::borrow::Cow;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::store::{atomic, files};

pub use crate::store::root::{DataRoot, Last};

impl DataRoot {
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
                listing
                    .skipped
                    .push((entry.path(), self.session_link(&entry.path())));
            } else if file_type.is_dir() {
                listing.ids.push(name);
            }
        }
        listing.ids.sort();
        Ok(listing)
    }

    /// Why a session folder that is a symlink is skipped, by where it
    /// leads: out of the root, or elsewhere inside it (resolved, never
    /// read through).
    fn session_link(&self, link: &Path) -> String {
        match self.resolve(link, Last::Follow) {
            Ok(target) => format!(
                "is a symbolic link to {}, elsewhere inside the data root; sessionctl does not follow links in place of session folders",
                self.relative(&target)
            ),
            Err(_) => {
                "is a symbolic link; sessionctl does not follow links out of the data root".into()
            }
        }
    }

    /// The folder of one existing session. Unknown sessions are "no input"
    /// (66); a symlinked folder is refused as data we will not follow (65).
    pub fn session(&self, id: &str) -> Result<SessionDir> {
        self.session_in(&self.sessions_phys()?, id)
    }

    /// The sessions folder resolved (inside the root), for `session_in`.
    pub fn sessions_phys(&self) -> Result<PathBuf> {
        self.resolve(&self.sessions_dir(), Last::Follow)
    }

    /// `session`, with the sessions folder resolved once by the caller
    /// (`sessions_phys`): a run over every session resolves it once.
    pub fn session_in(&self, sessions_phys: &Path, id: &str) -> Result<SessionDir> {
        let dir = self.session_path(id)?;
        let phys = sessions_phys.join(id);
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
    /// The data root the folder is in.
    pub fn root(&self) -> &DataRoot {
        &self.root
    }

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
    pub fn config_json(&self) -> PathBuf {
        self.path.join("config.json")
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
    /// links that lead out of the data root. A file directly in the folder
    /// that is no link is answered by the one lstat resolving it makes,
    /// which is what a second lstat of the resolved path would return: a
    /// repeat `summarize --all` or `sessions list` stats each file once.
    pub fn inspect(&self, path: &Path) -> Result<Option<fs::Metadata>> {
        if let Some(phys) = self.direct_child(path) {
            match fs::symlink_metadata(&phys) {
                Ok(m) if !m.file_type().is_symlink() => return Ok(Some(m)),
                // a link: resolved (and refused if it leads out) below
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(Error::read(&phys, e)),
            }
        }
        files::inspect_at(&self.resolve(path, Last::Follow)?, path)
    }

    /// Where `path` is, when it names an entry directly in this folder.
    fn direct_child(&self, path: &Path) -> Option<PathBuf> {
        let rel = [&self.path, &self.phys]
            .into_iter()
            .find_map(|base| path.strip_prefix(base).ok())?;
        let mut names = rel.components();
        match (names.next(), names.next()) {
            (Some(std::path::Component::Normal(name)), None) => Some(self.phys.join(name)),
            _ => None,
        }
    }

    /// A whole JSON file of this session (`MAX_JSON_FILE` cap).
    pub fn read(&self, path: &Path) -> Result<Option<Vec<u8>>> {
        files::read_at(&self.resolve(path, Last::Follow)?, path, MAX_JSON_FILE)
    }

    /// A JSON file of this session to stream (`MAX_JSON_FILE` cap, as
    /// `read`): for a reader that needs each part of it once.
    pub fn open_json(&self, path: &Path) -> Result<Option<std::io::Take<fs::File>>> {
        files::open_capped(&self.resolve(path, Last::Follow)?, path, MAX_JSON_FILE)
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
