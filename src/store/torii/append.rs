//! Appending lines to a `record.aof` so that no failure and no kill can
//! leave a partial line that the next writer glues its record onto.
//!
//! ToriiDB appends `{...}\n` with one O_APPEND `write` and never starts
//! with a newline: whatever unterminated bytes the log ends in swallow its
//! next record (docs/agenvoy-format.md#toriidb-appends). A batch of ours can be megabytes (the DEL
//! lines of a reset), and a kill or a full disk in the middle of one plain
//! `write` leaves exactly such a tail. So a batch is written in two steps:
//!
//! 1. **Reserve**: one O_APPEND `write` of as many '\n' bytes as the batch
//!    has (plus one in front if the log ends in an unterminated line, to
//!    end it), then fsync. A kill here leaves only empty lines, which
//!    ToriiDB skips. Another process may append before or after us; the fd
//!    offset after the write tells where our bytes landed.
//! 2. **Fill**: one positional write of the real lines over exactly that
//!    region, then fsync. The fd's O_APPEND flag is cleared first (on
//!    Linux `pwrite` on an O_APPEND fd ignores the offset and appends); we
//!    clear it on our own fd rather than open the path again, so the fill
//!    goes to the same inode even if the log was replaced meanwhile. A kill
//!    here leaves whole lines, at most one partial line, and after it the
//!    reserved '\n' bytes: the partial line is terminated, and the file
//!    still ends in '\n', so nothing is ever glued. Only that one partial
//!    line is lost; ToriiDB skips it as it skips any line that is not JSON.
//!
//! On an error in either step (ENOSPC, EIO, a short write) the region is
//! taken back: truncated away when nothing was appended after it, else
//! overwritten with '\n' so that the other writer's records survive; then
//! fsync and the error is returned. The log is then as it was (or has a few
//! empty lines), and the caller changes no in-memory state.

use std::fs::{self, File};
use std::io::{self, Seek, Write};
use std::os::unix::fs::FileExt;
use std::os::unix::io::AsRawFd;
use std::path::Path;

use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::files::{self, Mode};
use crate::store::layout::{DataRoot, Last};

/// Append `lines` (whole lines, each ending in '\n') to the log at `path`,
/// which must resolve inside `root` and be a regular file.
pub fn append(root: &DataRoot, path: &Path, lines: &[u8]) -> Result<()> {
    let dir = path.parent().expect("a log lives in a db_N folder");
    atomic::create_dir_all(root, dir)?;
    let phys = root.resolve(path, Last::Follow)?;
    let existed = fs::symlink_metadata(&phys).is_ok();
    let file = files::open_at(&phys, path, Mode::Append)?
        .expect("Append mode creates the file")
        .file;
    crate::failpoint("torii-before-append");
    if let Err(e) = append_to(&file, lines) {
        if !existed && file.metadata().is_ok_and(|m| m.len() == 0) {
            let _ = fs::remove_file(&phys);
        }
        return Err(Error::write(path, e));
    }
    if !existed {
        atomic::fsync_dir(root, dir)?;
    }
    Ok(())
}

/// Where our reserved bytes are: `[start, end)`.
struct Region {
    start: u64,
    end: u64,
}

fn append_to(file: &File, lines: &[u8]) -> io::Result<()> {
    // A torn tail may be appended by someone else between our look at the
    // last byte and our reservation; then our region has no room to end
    // it. The region is left as empty lines and we reserve again.
    for _ in 0..3 {
        let lead = u64::from(ends_unterminated(file)?);
        let region = reserve(file, lead as usize + lines.len())?;
        crate::failpoint("torii-after-reserve");
        if lead == 0 && region.start > 0 && byte_at(file, region.start - 1)? != b'\n' {
            continue;
        }
        return fill(file, &region, region.start + lead, lines)
            .inspect_err(|_| undo(file, &region));
    }
    Err(io::Error::other(
        "the log kept ending in an unfinished line while we appended; is Agenvoy running?",
    ))
}

fn ends_unterminated(file: &File) -> io::Result<bool> {
    let len = file.metadata()?.len();
    Ok(len > 0 && byte_at(file, len - 1)? != b'\n')
}

fn byte_at(file: &File, offset: u64) -> io::Result<u8> {
    let mut b = [0u8; 1];
    file.read_exact_at(&mut b, offset)?;
    Ok(b[0])
}

/// Step 1: one O_APPEND write of `n` '\n' bytes, fsynced.
fn reserve(file: &File, n: usize) -> io::Result<Region> {
    let attempt = if injected("reserve") { n / 2 } else { n };
    // One writev of a small blank chunk repeated, not a second buffer as
    // big as the batch (a reset's DEL lines can be tens of MB). Linux
    // takes up to 1024 pieces in one call (IOV_MAX), and an O_APPEND
    // write to a regular file lands as one piece however it is given.
    let chunk = attempt.div_ceil(1024).max(64 << 10).min(attempt);
    let blank = vec![b'\n'; chunk];
    let pieces: Vec<io::IoSlice<'_>> = (0..attempt)
        .step_by(chunk.max(1))
        .map(|at| io::IoSlice::new(&blank[..chunk.min(attempt - at)]))
        .collect();
    let written = loop {
        match (&*file).write_vectored(&pieces) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => break other?,
        }
    };
    let end = (&*file).stream_position()?;
    let region = Region {
        start: end - written as u64,
        end,
    };
    if written < n {
        undo(file, &region);
        return Err(if attempt < n {
            enospc()
        } else {
            io::Error::new(
                io::ErrorKind::WriteZero,
                format!("only {written} of {n} bytes could be written (is the disk full?)"),
            )
        });
    }
    sync(file, "reserve-sync").inspect_err(|_| undo(file, &region))?;
    Ok(region)
}

/// Step 2: the real lines over the reserved bytes, fsynced.
fn fill(file: &File, region: &Region, at: u64, lines: &[u8]) -> io::Result<()> {
    debug_assert!(at + lines.len() as u64 == region.end);
    clear_append_flag(file)?;
    let half = &lines[..lines.len() / 2];
    if injected("fill") {
        file.write_all_at(half, at)?;
        return Err(enospc());
    }
    if armed("SESSIONCTL_FAILPOINT", "torii-mid-fill") {
        // A kill in the middle of the fill, as a crash test needs it.
        file.write_all_at(half, at)?;
        crate::failpoint("torii-mid-fill");
    }
    file.write_all_at(lines, at)?;
    sync(file, "fill-sync")
}

/// Take our region back after a failure (best effort: the caller reports
/// the original error). Truncate only while the region is still the end
/// of the file; once someone appended after it, blank it instead. The size
/// check and the truncate are two calls: a line appended in the
/// microseconds between them would be cut. We accept that because writes
/// are refused while Agenvoy runs; blanking always would be safe but would
/// leave the log changed after a failed command.
fn undo(file: &File, region: &Region) {
    let _ = (|| -> io::Result<()> {
        if file.metadata()?.len() == region.end {
            file.set_len(region.start)?;
        } else {
            clear_append_flag(file)?;
            let blank = vec![b'\n'; (region.end - region.start) as usize];
            file.write_all_at(&blank, region.start)?;
        }
        file.sync_all()
    })();
}

fn clear_append_flag(file: &File) -> io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: F_GETFL/F_SETFL on a file descriptor we own; no memory is passed.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_APPEND) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn sync(file: &File, step: &str) -> io::Result<()> {
    crate::durable_step();
    if injected(step) {
        return Err(enospc());
    }
    file.sync_all()
}

fn enospc() -> io::Error {
    io::Error::from_raw_os_error(libc::ENOSPC)
}

/// With the `testing` feature (tests build it; releases do not): `SESSIONCTL_FAIL_ENOSPC=<step>` makes that step of every
/// append fail as a full disk would (`reserve` and `fill` after writing
/// half their bytes; `reserve-sync` and `fill-sync` in the fsync).
fn injected(step: &str) -> bool {
    armed("SESSIONCTL_FAIL_ENOSPC", step)
}

fn armed(var: &str, name: &str) -> bool {
    cfg!(feature = "testing") && std::env::var_os(var).is_some_and(|v| v == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log_with(bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db_1/record.aof");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, bytes).unwrap();
        (dir, path)
    }

    fn root_of(path: &Path) -> DataRoot {
        DataRoot::at(path.parent().unwrap().parent().unwrap()).unwrap()
    }

    fn open(path: &Path) -> File {
        std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .unwrap()
    }

    #[test]
    fn a_torn_tail_is_ended_before_our_lines() {
        let (_d, path) = log_with(b"{\"a\":1}\n{\"ts\":1,\"cm");
        append(&root_of(&path), &path, b"{\"b\":2}\n").unwrap();
        assert_eq!(
            fs::read(&path).unwrap(),
            b"{\"a\":1}\n{\"ts\":1,\"cm\n{\"b\":2}\n"
        );
        // no torn tail: nothing in front
        append(&root_of(&path), &path, b"{\"c\":3}\n").unwrap();
        assert!(fs::read(&path)
            .unwrap()
            .ends_with(b"{\"b\":2}\n{\"c\":3}\n"));
    }

    #[test]
    fn undo_truncates_or_blanks_and_never_touches_others_lines() {
        let (_d, path) = log_with(b"{\"a\":1}\n");
        let f = open(&path);
        let region = reserve(&f, 8).unwrap();
        assert_eq!((region.start, region.end), (8, 16));
        undo(&f, &region);
        assert_eq!(
            fs::read(&path).unwrap(),
            b"{\"a\":1}\n",
            "nobody after us: cut"
        );

        let region = reserve(&f, 8).unwrap();
        // another O_APPEND writer after our reservation
        open(&path).write_all(b"{\"x\":9}\n").unwrap();
        undo(&f, &region);
        assert_eq!(
            fs::read(&path).unwrap(),
            b"{\"a\":1}\n\n\n\n\n\n\n\n\n{\"x\":9}\n",
            "their line stays; ours became empty lines"
        );
    }

    #[test]
    fn the_fill_lands_in_the_reserved_region_even_with_appends_after_it() {
        let (_d, path) = log_with(b"{\"a\":1}\n");
        let f = open(&path);
        let region = reserve(&f, 8).unwrap();
        open(&path).write_all(b"{\"x\":9}\n").unwrap();
        fill(&f, &region, region.start, b"{\"b\":2}\n").unwrap();
        assert_eq!(
            fs::read(&path).unwrap(),
            b"{\"a\":1}\n{\"b\":2}\n{\"x\":9}\n"
        );
    }

    #[test]
    fn a_new_log_is_created_with_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db_2/record.aof");
        append(&root_of(&path), &path, b"{}\n").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"{}\n");
    }
}
