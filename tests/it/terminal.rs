//! A real terminal for tests: tmux on a private socket, a pane of a given
//! size running a shell or a command, read back with `capture-pane`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Whether `program --version` runs. A test that needs a missing program
/// is skipped on a developer's machine and fails in CI (`CI` set), which
/// installs it.
pub fn have(program: &str) -> bool {
    let there = Command::new(program)
        .arg(if program == "tmux" { "-V" } else { "--version" })
        .output()
        .is_ok_and(|o| o.status.success());
    if !there {
        assert!(
            std::env::var_os("CI").is_none(),
            "{program} is needed for this test (.ci/run installs it)"
        );
        eprintln!("skipped: {program} is not installed");
    }
    there
}

/// One tmux server and its single pane.
pub struct Pane {
    socket: PathBuf,
}

impl Pane {
    /// A detached pane `cols` × `rows` running `command` (a shell line) in
    /// `env` only.
    pub fn start(dir: &Path, cols: u16, rows: u16, env: &[(&str, &str)], command: &str) -> Pane {
        static PANES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = PANES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let socket = dir.join(format!("tmux-{n}-{cols}x{rows}.sock"));
        let vars: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let status = Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args(["-f", "/dev/null", "new-session", "-d", "-x"])
            .arg(cols.to_string())
            .arg("-y")
            .arg(rows.to_string())
            .arg("env")
            .arg("-i")
            .args(&vars)
            .args(["sh", "-c", command])
            .status()
            .unwrap();
        assert!(status.success(), "tmux new-session");
        Pane { socket }
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "0"];
        args.extend(keys);
        self.tmux(&args);
    }

    /// What the pane shows, one string per screen line, trailing blanks cut.
    pub fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", "0"])
    }

    /// Everything the pane printed, from the top of its history, with the
    /// lines the terminal wrapped joined again: a line wider than the pane
    /// comes back whole, and wider.
    pub fn joined(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-J", "-S", "-", "-t", "0"])
    }

    /// The screen once `done` holds for it (or after 20 s, for the message).
    pub fn wait_for(&self, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            // (generous: two cores shared with a whole test suite)
            if done(&screen) || start.elapsed() > Duration::from_secs(60) {
                return screen;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        self.tmux(&["kill-server"]);
    }
}
