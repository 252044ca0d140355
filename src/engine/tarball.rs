//! Bundles (docs/bundle.md) carried as one tar file: `export -o FILE.tar`
//! and `import FILE.tar`, for moving sessions between machines.
//!
//! A tar holds bundle folders side by side, `<id>/…`, exactly as
//! `export -o DIR` writes them; a tar of a single bundle's contents (its
//! `.sessionctl/manifest.json` at the top) is read too. Nothing is trusted
//! from the tar that the folder form would not be checked for: it is
//! unpacked outside the data root, and `import` then verifies every file
//! against the manifest as it does for a folder. Entries other than files,
//! folders and symbolic links, absolute paths, `..` and duplicates are
//! refused before anything is imported.

use std::collections::HashSet;
use std::fs;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};
use crate::store::bundle;
use crate::store::layout::DataRoot;

/// Whether `-o`/`BUNDLE` names a tar file rather than a folder.
pub fn is_tar(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tar"))
}

/// An export into a tar: bundles are written into a hidden folder beside
/// the tar, then packed into it by `finish`.
pub struct TarExport {
    target: PathBuf,
    staging: tempfile::TempDir,
}

impl TarExport {
    /// Refuses a tar that exists (export never overwrites), or one under
    /// `sessions/`, before anything is written.
    pub fn begin(root: &DataRoot, target: &Path) -> Result<TarExport> {
        refuse_existing(target)?;
        let parent = parent_of(target);
        crate::engine::transfer::refuse_out_in_sessions(root, &parent)?;
        fs::create_dir_all(&parent).map_err(|e| Error::write(&parent, e))?;
        let staging = tempfile::Builder::new()
            .prefix(".sessionctl-export-")
            .tempdir_in(&parent)
            .map_err(|e| Error::write(&parent, e))?;
        Ok(TarExport {
            target: target.to_path_buf(),
            staging,
        })
    }

    /// Where the bundles go before they are packed.
    pub fn folder(&self) -> &Path {
        self.staging.path()
    }

    /// Pack every bundle written into `folder()` into the tar: a temporary
    /// file in the same folder, synced, then linked into place only if no
    /// file took the name meanwhile, and the folder synced.
    pub fn finish(self) -> Result<()> {
        let parent = parent_of(&self.target);
        let tmp = tempfile::Builder::new()
            .prefix(".sessionctl-export-")
            .suffix(".tar.tmp")
            .tempfile_in(&parent)
            .map_err(|e| Error::write(&parent, e))?;
        let write_err = |e| Error::write(&self.target, e);
        let mut names: Vec<_> = fs::read_dir(self.folder())
            .map_err(|e| Error::read(self.folder(), e))?
            .map(|e| e.map(|e| e.file_name()))
            .collect::<std::io::Result<_>>()
            .map_err(|e| Error::read(self.folder(), e))?;
        names.sort();
        let mut tar = tar::Builder::new(BufWriter::new(tmp.as_file()));
        // links stay links: a bundle records them, it never follows them
        tar.follow_symlinks(false);
        for name in &names {
            tar.append_dir_all(name, self.folder().join(name))
                .map_err(write_err)?;
        }
        tar.into_inner()
            .and_then(|mut w| w.flush())
            .map_err(write_err)?;
        tmp.as_file().sync_all().map_err(write_err)?;
        tmp.persist_noclobber(&self.target).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                exists_error(&self.target)
            } else {
                write_err(e.error)
            }
        })?;
        fs::File::open(&parent)
            .and_then(|d| d.sync_all())
            .map_err(|e| Error::write(&parent, e))?;
        Ok(())
    }
}

/// Export never overwrites a tar (a dry run checks this too).
pub fn refuse_existing(target: &Path) -> Result<()> {
    if fs::symlink_metadata(target).is_ok() {
        return Err(exists_error(target));
    }
    Ok(())
}

fn exists_error(target: &Path) -> Error {
    Error::usage(format!(
        "{} already exists; export never overwrites",
        target.display()
    ))
    .with_hint("choose another -o FILE.tar")
}

/// The folder a file is written in (`.` for a bare name).
fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A tar unpacked into a private temporary folder (outside the data root,
/// so a dry run writes nothing there), with the bundles found in it.
pub struct Unpacked {
    _dir: tempfile::TempDir,
    pub bundles: Vec<PathBuf>,
}

impl Unpacked {
    /// An error about a file unpacked from the tar names the tar and the
    /// file's path inside it: the temporary folder is gone once we exit.
    pub fn relabel(&self, tar_path: &Path, e: Error) -> Error {
        match e {
            Error::Data { path, msg, hint } if path.starts_with(self._dir.path()) => {
                let inside = path.strip_prefix(self._dir.path()).expect("checked");
                Error::Data {
                    path: tar_path.to_path_buf(),
                    msg: format!("{}: {msg}", inside.display()),
                    hint,
                }
            }
            e => e,
        }
    }
}

/// Unpack `tar_path` and find its bundles. Any entry a bundle cannot hold
/// is a data error naming the tar and the entry; nothing is imported then.
pub fn unpack(tar_path: &Path) -> Result<Unpacked> {
    let meta = fs::metadata(tar_path).map_err(|e| Error::read(tar_path, e))?;
    if !meta.is_file() {
        return Err(Error::data(tar_path, "is not a regular file"));
    }
    let file = fs::File::open(tar_path).map_err(|e| Error::read(tar_path, e))?;
    let dir = tempfile::Builder::new()
        .prefix("sessionctl-import-")
        .tempdir()
        .map_err(|e| Error::write(std::env::temp_dir(), e))?;
    let bad = |what: String| {
        Error::data(tar_path, what).with_hint(
            "a bundle tar is written by `sessionctl export -o FILE.tar`; nothing was imported",
        )
    };
    let mut archive = tar::Archive::new(BufReader::new(file));
    // modes are not part of a bundle (the manifest checks bytes): a
    // read-only folder in the tar must not stop what follows it
    archive.set_preserve_permissions(false);
    archive.set_preserve_mtime(true);
    archive.set_overwrite(false);
    let mut seen = HashSet::new();
    let entries = archive
        .entries()
        .map_err(|e| bad(format!("is not a tar file: {e}")))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| bad(format!("is not a readable tar file: {e}")))?;
        let name = entry
            .path()
            .map_err(|e| bad(format!("holds an entry with a bad name: {e}")))?
            .into_owned();
        let shown = name.display().to_string();
        let kind = entry.header().entry_type();
        if !(kind.is_file() || kind.is_dir() || kind.is_symlink()) {
            return Err(bad(format!(
                "holds {shown}, a {kind:?} entry; a bundle holds only files, folders and links"
            )));
        }
        if !name
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        {
            return Err(bad(format!(
                "holds {shown}, a path that leaves the folder it is unpacked in"
            )));
        }
        let key: PathBuf = name.components().collect();
        if !kind.is_dir() && !seen.insert(key) {
            return Err(bad(format!("holds {shown} more than once")));
        }
        let unpacked = entry
            .unpack_in(dir.path())
            .map_err(|e| bad(format!("cannot unpack {shown}: {e}")))?;
        if !unpacked {
            return Err(bad(format!(
                "holds {shown}, a path that leaves the folder it is unpacked in"
            )));
        }
    }
    let bundles = find_bundles(dir.path()).map_err(|e| Error::read(tar_path, e))?;
    if bundles.is_empty() {
        return Err(bad(format!(
            "holds no sessionctl bundle (no <SESSION>/{})",
            bundle::MANIFEST
        )));
    }
    Ok(Unpacked { _dir: dir, bundles })
}

/// The unpacked folder itself when it is one bundle, else each top-level
/// folder (not a link) that has a manifest, in name order.
fn find_bundles(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    if has_manifest(dir) {
        return Ok(vec![dir.to_path_buf()]);
    }
    let mut out = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() && has_manifest(&entry.path()) {
            out.push(entry.path());
        }
    }
    out.sort();
    Ok(out)
}

fn has_manifest(dir: &Path) -> bool {
    fs::symlink_metadata(dir.join(bundle::MANIFEST)).is_ok_and(|m| m.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_tar_extension_means_a_tar() {
        assert!(is_tar(Path::new("/x/s.tar")));
        assert!(is_tar(Path::new("s.TAR")));
        assert!(!is_tar(Path::new("/x/s.tar.gz")));
        assert!(!is_tar(Path::new("/x/tar")));
    }
}
