//! Is Agenvoy running on this root? ToriiDB has no cross-process locking and
//! every Agenvoy process rewrites the logs it loaded when it exits, so
//! anything we write to the shared store while one runs would be reverted
//! or lost (docs/agenvoy-format.md#toriidb-concurrency).
//!
//! What is checked (Linux, through `/proc`):
//! 1. **The daemon**, the pid in `<root>/runtime.uid`. It blocks writes when
//!    it is alive, is an Agenvoy executable and works for this root:
//!    - *Agenvoy executable*: the basename of `/proc/PID/exe`, or of argv[0]
//!      (`/proc/PID/cmdline`), starts with `agenvoy` (`agenvoy`,
//!      `agenvoy-linux-amd64`, …). A live pid that is anything else is a
//!      reused pid and does not block.
//!    - *works for this root*: `$HOME/.config/agenvoy`, with HOME from
//!      `/proc/PID/environ`, is this root; or its cwd or one of its open
//!      files (`/proc/PID/fd/*`) is inside the root. When its environment
//!      cannot be read (another user's process) it counts anyway.
//!    - Where `/proc/PID` does not exist (not Linux), a live pid counts.
//! 2. **Any other Agenvoy executable** (as above) whose cwd or one of whose
//!    open files is inside this root: TUI processes are recorded nowhere.
//!    Processes we may not inspect (other users', unless we are root) are not
//!    seen; Agenvoy processes working on other roots do not block.
//!
//! runtime.uid is read like every file of the root (a regular file, no link
//! out of the root, at most `files::MAX_SMALL_FILE`). When it cannot be read
//! safely, writers refuse (exit 65) instead of assuming Agenvoy is stopped.
//! Content without a pid (not JSON, no `pid`) means no daemon is recorded;
//! part 2 still applies.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::store::files;
use crate::store::layout::DataRoot;

/// What an Agenvoy executable's name starts with.
const AGENVOY: &str = "agenvoy";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunningAgenvoy {
    pub pid: i32,
    pub how: &'static str,
}

pub fn find_running(root: &DataRoot) -> Result<Vec<RunningAgenvoy>> {
    let mut found = Vec::new();
    if let Some(pid) = live_daemon(root)? {
        found.push(RunningAgenvoy {
            pid,
            how: "daemon pid in runtime.uid",
        });
    }
    for pid in agenvoy_processes() {
        if !found.iter().any(|r| r.pid == pid) && works_in(root, pid) {
            found.push(RunningAgenvoy {
                pid,
                how: "Agenvoy process working in this root",
            });
        }
    }
    Ok(found)
}

/// The pid of this root's daemon, when runtime.uid records one that is
/// alive and is Agenvoy working for this root (the test of part 1 above).
pub fn live_daemon(root: &DataRoot) -> Result<Option<i32>> {
    Ok(daemon_pid(root)?.filter(|pid| pid_alive(*pid) && daemon_counts(root, *pid)))
}

/// What a dry run should tell the user about the real run, when Agenvoy
/// would stop it (or whether it runs cannot be told).
pub fn dry_run_warning(root: &DataRoot) -> Option<String> {
    match find_running(root) {
        Ok(running) if running.is_empty() => None,
        Ok(_) => Some(
            "Agenvoy is running: the real run would refuse to write until it stops (or --force)"
                .into(),
        ),
        Err(e) => Some(format!(
            "the real run would refuse to write: cannot tell whether Agenvoy runs ({e})"
        )),
    }
}

/// Refuse (exit 75) when Agenvoy runs, unless the user forces it.
pub fn ensure_not_running(root: &DataRoot, force: bool) -> Result<()> {
    if force {
        return Ok(());
    }
    let running = find_running(root)?;
    if running.is_empty() {
        return Ok(());
    }
    let list = running
        .iter()
        .map(|r| format!("pid {} ({})", r.pid, r.how))
        .collect::<Vec<_>>()
        .join(", ");
    Err(Error::busy(format!(
        "Agenvoy is running ({list}); writing its store now would be undone when it exits"
    ))
    .with_hint("stop the Agenvoy TUI and `agenvoy --daemon`, then retry; --force writes anyway"))
}

fn daemon_pid(root: &DataRoot) -> Result<Option<i32>> {
    let path = root.runtime_uid_path();
    let bytes = files::read(root, &path, files::MAX_SMALL_FILE).map_err(|e| match e {
        Error::Data { path, msg, .. } => Error::data(path, msg).with_hint(
            "sessionctl cannot tell whether Agenvoy runs; fix or remove runtime.uid, or pass --force",
        ),
        e => e,
    })?;
    Ok(bytes.as_deref().and_then(parse_pid))
}

fn parse_pid(bytes: &[u8]) -> Option<i32> {
    let v: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let pid = v.get("pid")?.as_i64()?;
    i32::try_from(pid).ok().filter(|p| *p > 0)
}

fn pid_alive(pid: i32) -> bool {
    // Signal 0 checks existence; EPERM means it exists but is not ours.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

fn proc_path(pid: i32, what: &str) -> PathBuf {
    PathBuf::from(format!("/proc/{pid}/{what}"))
}

fn daemon_counts(root: &DataRoot, pid: i32) -> bool {
    if !proc_path(pid, "").exists() {
        return true; // no procfs: alive is all we can know
    }
    if !is_agenvoy(pid) {
        return false;
    }
    match read_proc(pid, "environ") {
        None => true,
        Some(env) => home_of(&env).is_some_and(|h| is_root_of(root, &h)) || works_in(root, pid),
    }
}

/// A /proc file, bounded (environ and cmdline are at most a few MiB);
/// `None` when it cannot be read (gone, or another user's).
fn read_proc(pid: i32, what: &str) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    fs::File::open(proc_path(pid, what))
        .ok()?
        .take(files::MAX_SMALL_FILE)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

fn is_agenvoy(pid: i32) -> bool {
    let named = |p: &Path| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(AGENVOY))
    };
    if fs::read_link(proc_path(pid, "exe")).is_ok_and(|exe| named(&exe)) {
        return true;
    }
    let cmdline = read_proc(pid, "cmdline").unwrap_or_default();
    let argv0 = cmdline.split(|b| *b == 0).next().unwrap_or_default();
    named(Path::new(&*String::from_utf8_lossy(argv0)))
}

fn home_of(environ: &[u8]) -> Option<PathBuf> {
    environ
        .split(|b| *b == 0)
        .find_map(|kv| kv.strip_prefix(b"HOME="))
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(&*String::from_utf8_lossy(h)))
}

/// Agenvoy's root for a HOME is `$HOME/.config/agenvoy` (it has no other).
fn is_root_of(root: &DataRoot, home: &Path) -> bool {
    fs::canonicalize(home.join(".config").join("agenvoy")).is_ok_and(|p| p == root.path())
}

/// Is the process's cwd, or one of its open files, inside the root?
fn works_in(root: &DataRoot, pid: i32) -> bool {
    let inside = |p: &Path| fs::read_link(p).is_ok_and(|t| t.starts_with(root.path()));
    if inside(&proc_path(pid, "cwd")) {
        return true;
    }
    let Ok(fds) = fs::read_dir(proc_path(pid, "fd")) else {
        return false;
    };
    fds.filter_map(|e| e.ok()).any(|e| inside(&e.path()))
}

/// Every process (ours excepted) whose executable is Agenvoy's.
fn agenvoy_processes() -> Vec<i32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    let me = std::process::id() as i32;
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| *pid != me && is_agenvoy(*pid))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root_with_pid(pid: impl std::fmt::Display) -> (tempfile::TempDir, DataRoot) {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        fs::write(
            root.runtime_uid_path(),
            format!(r#"{{"uid":"x","pid":{pid},"started_at":1}}"#),
        )
        .unwrap();
        (dir, root)
    }

    #[test]
    fn a_stale_pid_does_not_block() {
        // pid_max on Linux is at most 2^22; this pid cannot exist.
        let (_dir, root) = root_with_pid(99999999);
        assert!(ensure_not_running(&root, false).is_ok());
    }

    #[test]
    fn a_live_pid_that_is_not_agenvoy_does_not_block() {
        // this test binary is alive, and not Agenvoy (a reused pid)
        let (_dir, root) = root_with_pid(std::process::id());
        assert!(find_running(&root).unwrap().is_empty());
    }

    #[test]
    fn an_unsafe_runtime_uid_refuses_writes_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        std::os::unix::fs::symlink("/dev/zero", root.runtime_uid_path()).unwrap();
        let err = ensure_not_running(&root, false).unwrap_err();
        assert_eq!(err.exit_code(), crate::error::exit::DATA);
        assert!(err.to_string().contains("runtime.uid"), "{err}");
        assert!(ensure_not_running(&root, true).is_ok());
        // junk content is "no daemon recorded"
        fs::remove_file(root.runtime_uid_path()).unwrap();
        fs::write(root.runtime_uid_path(), b"\x00garbage").unwrap();
        assert!(ensure_not_running(&root, false).is_ok());
    }

    #[test]
    fn home_and_pid_parsing() {
        assert_eq!(parse_pid(br#"{"pid":42}"#), Some(42));
        assert_eq!(parse_pid(br#"{"pid":-1}"#), None);
        assert_eq!(parse_pid(b"42"), None);
        assert_eq!(
            home_of(b"A=1\0HOME=/home/a\0B=2\0"),
            Some(PathBuf::from("/home/a"))
        );
        assert_eq!(home_of(b"HOME=\0"), None);
    }
}
