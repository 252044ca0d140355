//! Where things live under the data root, and the rules that keep every path
//! we touch inside it.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

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

    /// Ids of every session folder, sorted. Dot-folders (`.Trash`) are not
    /// sessions; symlinked folders are listed in `skipped` because following
    /// them could leave the root.
    pub fn session_ids(&self) -> Result<SessionListing> {
        let dir = self.sessions_dir();
        let mut listing = SessionListing::default();
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(listing),
            Err(e) => return Err(Error::read(&dir, e)),
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
        match fs::symlink_metadata(&dir) {
            Ok(m) if m.file_type().is_symlink() => Err(Error::data(
                &dir,
                "session folder is a symbolic link; refusing to follow it",
            )
            .with_hint("`sessionctl remove` removes the link itself, never its target")),
            Ok(m) if m.is_dir() => Ok(SessionDir {
                id: id.to_owned(),
                path: dir,
                root: self.path.clone(),
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
        match fs::symlink_metadata(&path) {
            Ok(_) => Ok(Some(SessionDir {
                id: id.to_owned(),
                path,
                root: self.path.clone(),
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

/// One session folder and the files Agenvoy keeps in it.
#[derive(Debug, Clone)]
pub struct SessionDir {
    pub id: String,
    pub path: PathBuf,
    root: PathBuf,
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

    /// Metadata of a file in this session, refusing symlinks that lead out
    /// of the data root. `None` when the file does not exist.
    pub fn inspect(&self, path: &Path) -> Result<Option<fs::Metadata>> {
        inspect_inside(&self.root, path)
    }
}

/// Like `fs::metadata`, but a symlink is only followed when its target
/// stays inside `root`; otherwise the path is refused as bad data.
pub fn inspect_inside(root: &Path, path: &Path) -> Result<Option<fs::Metadata>> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::read(path, e)),
    };
    if !meta.file_type().is_symlink() {
        return Ok(Some(meta));
    }
    match fs::canonicalize(path) {
        Ok(target) if target.starts_with(root) => fs::metadata(&target)
            .map(Some)
            .map_err(|e| Error::read(path, e)),
        Ok(target) => Err(Error::data(
            path,
            format!(
                "is a symbolic link to {} outside the data root; not following it",
                target.display()
            ),
        )),
        // A dangling link is as good as a missing file for reading.
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::read(path, e)),
    }
}

/// No Agenvoy JSON file comes near this (history.json is capped at 5 MiB);
/// anything larger is refused before it is read, so a runaway file cannot
/// exhaust memory.
pub const MAX_JSON_FILE: u64 = 256 * 1024 * 1024;

/// Read a whole file that must stay inside `root`. `None` when missing.
pub fn read_inside(root: &Path, path: &Path) -> Result<Option<Vec<u8>>> {
    match inspect_inside(root, path)? {
        None => Ok(None),
        Some(meta) if !meta.is_file() => Err(Error::data(path, "is not a regular file")),
        Some(meta) if meta.len() > MAX_JSON_FILE => Err(Error::data(
            path,
            format!(
                "is {} bytes, larger than any Agenvoy file ({} MiB cap); refusing to load it",
                meta.len(),
                MAX_JSON_FILE >> 20
            ),
        )),
        Some(_) => match fs::read(path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::read(path, e)),
        },
    }
}

impl SessionDir {
    pub fn read(&self, path: &Path) -> Result<Option<Vec<u8>>> {
        read_inside(&self.root, path)
    }
}

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
        let root = tempfile::tempdir().unwrap();
        let root_path = std::fs::canonicalize(root.path()).unwrap();
        std::fs::write(root_path.join("inside"), b"ok").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), root_path.join("out")).unwrap();
        std::os::unix::fs::symlink(root_path.join("inside"), root_path.join("in")).unwrap();

        let err = read_inside(&root_path, &root_path.join("out")).unwrap_err();
        assert_eq!(err.exit_code(), crate::error::exit::DATA);
        assert_eq!(
            read_inside(&root_path, &root_path.join("in")).unwrap(),
            Some(b"ok".to_vec())
        );
        assert_eq!(
            read_inside(&root_path, &root_path.join("none")).unwrap(),
            None
        );
    }

    #[test]
    fn missing_root_is_no_input() {
        let err = DataRoot::open(Path::new("/nonexistent/agenvoy-root")).unwrap_err();
        assert_eq!(err.exit_code(), crate::error::exit::NO_INPUT);
    }
}
