//! Is Agenvoy running? ToriiDB has no cross-process locking and every
//! Agenvoy process rewrites the logs it loaded when it exits, so anything we
//! write to the shared store while one runs would be reverted or lost
//! (toriidb.md §6). We look for the daemon's pid in `runtime.uid` and for
//! any process named `agenvoy` (TUI processes are recorded nowhere).

use std::fs;
use std::path::Path;

use crate::error::{Error, Result};
use crate::store::layout::DataRoot;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunningAgenvoy {
    pub pid: i32,
    pub how: &'static str,
}

pub fn find_running(root: &DataRoot) -> Vec<RunningAgenvoy> {
    let mut found = Vec::new();
    if let Some(pid) = daemon_pid(&root.runtime_uid_path()) {
        if pid_alive(pid) {
            found.push(RunningAgenvoy {
                pid,
                how: "daemon pid in runtime.uid",
            });
        }
    }
    for pid in processes_named("agenvoy") {
        if !found.iter().any(|r| r.pid == pid) {
            found.push(RunningAgenvoy {
                pid,
                how: "process named agenvoy",
            });
        }
    }
    found
}

/// Refuse (exit 75) when Agenvoy runs, unless the user forces it.
pub fn ensure_not_running(root: &DataRoot, force: bool) -> Result<()> {
    if force {
        return Ok(());
    }
    let running = find_running(root);
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

fn daemon_pid(path: &Path) -> Option<i32> {
    let bytes = fs::read(path).ok()?;
    let v: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    let pid = v.get("pid")?.as_i64()?;
    i32::try_from(pid).ok().filter(|p| *p > 0)
}

fn pid_alive(pid: i32) -> bool {
    // Signal 0 checks existence; EPERM means it exists but is not ours.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

fn processes_named(name: &str) -> Vec<i32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    let me = std::process::id() as i32;
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| *pid != me)
        .filter(|pid| {
            let comm = fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            if comm.trim_end() == name {
                return true;
            }
            // comm is truncated to 15 bytes and renamable; argv[0] is a second opinion.
            let cmdline = fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let argv0 = cmdline.split(|b| *b == 0).next().unwrap_or_default();
            Path::new(std::ffi::OsStr::new(
                std::str::from_utf8(argv0).unwrap_or(""),
            ))
            .file_name()
            .is_some_and(|f| f == name)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_live_daemon_pid_blocks_writes_and_force_overrides() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        assert!(ensure_not_running(&root, false).is_ok());
        // our own pid is certainly alive
        let me = std::process::id();
        fs::write(
            root.runtime_uid_path(),
            format!(r#"{{"uid":"x","pid":{me},"started_at":1}}"#),
        )
        .unwrap();
        let err = ensure_not_running(&root, false).unwrap_err();
        assert_eq!(err.exit_code(), crate::error::exit::TEMP_FAIL);
        assert!(err.to_string().contains(&me.to_string()));
        assert!(ensure_not_running(&root, true).is_ok());
    }

    #[test]
    fn a_stale_pid_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        // pid_max on Linux is at most 2^22; this pid cannot exist.
        fs::write(
            root.runtime_uid_path(),
            r#"{"uid":"x","pid":99999999,"started_at":1}"#,
        )
        .unwrap();
        assert!(ensure_not_running(&root, false).is_ok());
    }
}
