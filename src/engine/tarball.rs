//! Bundles (docs/bundle.md) carried as one tar file: `export -o FILE.tar`
//! and `import FILE.tar`, for moving sessions between machines.
//!
//! A tar holds bundle folders side by side, `<id>/…`, exactly as
//! `export -o DIR` writes them; a tar of a single bundle's contents (its
//! `.sessionctl/manifest.json` at the top) is read too. Nothing is trusted
//! from the tar that the folder form would not be checked for: it is
//! unpacked into a private folder of sessionctl's own state in the root,
//! and `import` then verifies every file against the manifest as it does
//! for a folder. Entries other than files,
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
        // a bundle whose export failed midway stays out: its session was
        // reported as failed, and it would not import
        names.retain(|n| !crate::engine::transfer::is_export_staging(&n.to_string_lossy()));
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

/// A tar unpacked into a private folder of the root's own state,
/// `.sessionctl/tmp/import-<pid>-<random>/` (mode 0700: the conversations
/// in it are nobody else's to read), with the bundles found in it. Dropped,
/// it is deleted, with any folder it had to create for it (a root that did
/// not exist yet is left as it was); one a killed run left behind is
/// deleted by the next import and by `check --repair`.
pub struct Unpacked {
    dir: tempfile::TempDir,
    /// Folders created to hold it, deepest first: removed when empty.
    created: Vec<PathBuf>,
    pub bundles: Vec<PathBuf>,
}

impl Drop for Unpacked {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(self.dir.path());
        for d in &self.created {
            let _ = fs::remove_dir(d);
        }
    }
}

impl Unpacked {
    /// Where the tar was unpacked.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Unpack `tar_path` into the root's staging folder and find its bundles.
/// Any entry a bundle cannot hold is a data error naming the tar and the
/// entry; nothing is imported then.
pub fn unpack(root: &DataRoot, tar_path: &Path) -> Result<Unpacked> {
    let meta = fs::metadata(tar_path).map_err(|e| Error::read(tar_path, e))?;
    if !meta.is_file() {
        return Err(Error::data(tar_path, "is not a regular file"));
    }
    let file = fs::File::open(tar_path).map_err(|e| Error::read(tar_path, e))?;
    // what a killed import left (`check --repair` removes it too)
    for old in crate::store::leftovers::import_unpacks(root)? {
        crate::store::leftovers::remove(root, &old)?;
    }
    let staging = crate::store::leftovers::unpack_dir(root);
    let mut created = Vec::new();
    for d in [root.path().to_path_buf(), root.tool_dir(), staging.clone()] {
        if fs::symlink_metadata(&d).is_err() {
            created.push(d);
        }
    }
    created.reverse();
    crate::store::atomic::create_dir_all(root, &staging)?;
    let phys = root.resolve(&staging, crate::store::layout::Last::Follow)?;
    // private all the way: only this user reaches what is unpacked in it
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&phys, fs::Permissions::from_mode(0o700))
            .map_err(|e| Error::write(&staging, e))?;
    }
    // tempfile makes the folder 0700
    let dir = tempfile::Builder::new()
        .prefix(&format!("import-{}-", std::process::id()))
        .tempdir_in(&phys)
        .map_err(|e| Error::write(&staging, e))?;
    let mut unpacked = Unpacked {
        dir,
        created,
        bundles: Vec::new(),
    };
    let entries = unpack_into(tar_path, file, unpacked.dir.path())?;
    // an entry for the tar's own top folder may have set its mode
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(unpacked.dir.path(), fs::Permissions::from_mode(0o700))
            .map_err(|e| Error::write(&staging, e))?;
    }
    unpacked.bundles = find_bundles(unpacked.dir.path()).map_err(|e| Error::read(tar_path, e))?;
    // an empty tar is what `export --all` writes for a root without
    // sessions: it imports as none
    if unpacked.bundles.is_empty() && entries > 0 {
        return Err(bad_tar(
            tar_path,
            format!(
                "holds no sessionctl bundle (no <SESSION>/{})",
                bundle::MANIFEST
            ),
        ));
    }
    Ok(unpacked)
}

fn bad_tar(tar_path: &Path, what: String) -> Error {
    Error::data(tar_path, what).with_hint(
        "a bundle tar is written by `sessionctl export -o FILE.tar`; nothing was imported",
    )
}

/// Unpack every entry, checked; returns how many there were.
fn unpack_into(tar_path: &Path, file: fs::File, dir: &Path) -> Result<usize> {
    let bad = |what: String| bad_tar(tar_path, what);
    let mut archive = tar::Archive::new(BufReader::new(file));
    // modes are not part of a bundle (the manifest checks bytes): a
    // read-only folder in the tar must not stop what follows it
    archive.set_preserve_permissions(false);
    archive.set_preserve_mtime(true);
    archive.set_overwrite(false);
    let mut seen = HashSet::new();
    let mut count = 0;
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
            .unpack_in(dir)
            .map_err(|e| bad(format!("cannot unpack {shown}: {e}")))?;
        if !unpacked {
            return Err(bad(format!(
                "holds {shown}, a path that leaves the folder it is unpacked in"
            )));
        }
        count += 1;
    }
    Ok(count)
}

/// The bundles at `path`: the folder itself when it is one (as `export` or
/// the Trash wrote it), else each bundle folder in it (what `export -o DIR`
/// wrote for several sessions); none in an empty folder (what it wrote for
/// a root without sessions).
pub fn bundles_in(path: &Path) -> Result<Vec<PathBuf>> {
    let meta = fs::metadata(path).map_err(|e| Error::read(path, e))?;
    if !meta.is_dir() {
        return Err(
            Error::data(path, "is neither a bundle folder nor a .tar file")
                .with_hint("import takes what `sessionctl export -o DIR|FILE.tar` wrote"),
        );
    }
    let found = find_bundles(path).map_err(|e| Error::read(path, e))?;
    let empty = || -> std::io::Result<bool> { Ok(fs::read_dir(path)?.next().is_none()) };
    if found.is_empty() && !empty().map_err(|e| Error::read(path, e))? {
        return Err(Error::data(
            path.join(bundle::MANIFEST),
            "is missing, and no folder in it has one: not a sessionctl bundle nor a folder of bundles",
        )
        .with_hint("import takes what `sessionctl export -o DIR|FILE.tar` wrote"));
    }
    Ok(found)
}

/// The unpacked folder itself when it is one bundle, else each top-level
/// folder (not a link) that has a manifest, in name order. A folder an
/// interrupted export left (its sidecar or staging name, no manifest) is
/// listed too: importing it fails by name, where skipping it would lose
/// that session without a word.
fn find_bundles(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    if has_manifest(dir) {
        return Ok(vec![dir.to_path_buf()]);
    }
    let mut out = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir()
            && (has_manifest(&entry.path()) || unfinished_bundle(&entry.path()))
        {
            out.push(entry.path());
        }
    }
    out.sort();
    Ok(out)
}

/// A folder an export began and did not seal: no manifest, and its
/// sidecar or the name of a bundle's staging folder.
pub fn unfinished_bundle(dir: &Path) -> bool {
    let staging = dir
        .file_name()
        .is_some_and(|n| crate::engine::transfer::is_export_staging(&n.to_string_lossy()));
    !has_manifest(dir)
        && (staging || fs::symlink_metadata(dir.join(bundle::SIDECAR)).is_ok_and(|m| m.is_dir()))
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
