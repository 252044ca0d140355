//! The README's cron lines, run as cron runs them: a bare environment
//! (`env -i`, HOME and cron's PATH), `sh -c`, stdin from /dev/null, in
//! HOME, with the crontab's own assignments. Each must exit 0 and leave one
//! NDJSON line in the log; and hints name only flags the command takes.

use crate::common::*;

use std::process::Stdio;

/// The ```cron block of README.md: its assignments and its jobs' commands.
fn readme_crontab() -> (Vec<(String, String)>, Vec<String>) {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let block = readme
        .split("```cron\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("README has a ```cron block");
    let (mut vars, mut jobs) = (Vec::new(), Vec::new());
    for line in block
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let first = line.split_whitespace().next().unwrap();
        if let Some((name, value)) = first.split_once('=').filter(|_| !first.contains('*')) {
            assert_eq!(first, line, "an assignment is the whole line");
            vars.push((name.to_owned(), value.to_owned()));
        } else {
            // five time fields, then the command
            let mut rest = line;
            for _ in 0..5 {
                rest = rest.trim_start();
                rest = &rest[rest.find(char::is_whitespace).unwrap()..];
            }
            jobs.push(rest.trim().to_owned());
        }
    }
    (vars, jobs)
}

/// A root as the jobs find it: the fixture at the default place, plus a
/// throwaway session for the nightly remove.
fn home_with_root() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join(".config/agenvoy");
    copy_fixture(&root);
    copy_tree(
        &root.join("sessions/tui-alice-2"),
        &root.join("sessions/temp-1"),
    );
    home
}

#[test]
fn every_readme_cron_line_runs_under_crons_environment_and_logs_ndjson() {
    let (vars, jobs) = readme_crontab();
    assert!(jobs.len() >= 4, "{jobs:?}");
    let home = home_with_root();
    let h = home.path();
    // The README installs to /usr/local/bin; here that is a folder of ours.
    let bin = h.join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(
        assert_cmd::cargo::cargo_bin("sessionctl"),
        bin.join("sessionctl"),
    )
    .unwrap();
    let assignments: Vec<String> = vars
        .iter()
        .map(|(k, v)| {
            let v = if k == "PATH" {
                v.replace("/usr/local/bin", &bin.display().to_string())
            } else {
                v.clone()
            };
            format!("{k}={v}")
        })
        .collect();
    for job in &jobs {
        let out = std::process::Command::new("env")
            .arg("-i")
            .arg(format!("HOME={}", h.display()))
            .arg("PATH=/usr/bin:/bin")
            .args(&assignments)
            .args(["sh", "-c", job])
            .current_dir(h)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{job}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout.is_empty(),
            "--quiet: {job}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let log_var = vars
        .iter()
        .find(|(k, _)| k == "SESSIONCTL_LOG")
        .expect("the log is set");
    let log = std::fs::read_to_string(h.join(&log_var.1)).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), jobs.len(), "one line per run:\n{log}");
    for line in lines {
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(v["exit"], 0, "{line}");
        assert!(
            v["time"].as_str().is_some_and(|t| t.ends_with('Z')),
            "{line}"
        );
    }
    assert!(
        !h.join(".config/agenvoy/sessions/temp-1").exists(),
        "the nightly remove took the throwaway session"
    );
}

/// Every `--flag` a hint suggests is one the command accepts.
fn assert_hint_flags_accepted(hint: &str, command: &[&str]) {
    use clap::CommandFactory;
    let mut cmd = sessionctl::cli::Cli::command();
    cmd.build();
    let mut sub = &cmd;
    for name in command {
        sub = sub.find_subcommand(name).unwrap();
    }
    let accepted: Vec<&str> = sub.get_arguments().filter_map(|a| a.get_long()).collect();
    for word in hint.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        if let Some(flag) = word.strip_prefix("--") {
            assert!(
                accepted.contains(&flag),
                "`{}` hint suggests --{flag}, which it refuses: {hint}",
                command.join(" ")
            );
        }
    }
}

#[test]
fn limits_refresh_hints_only_flags_it_accepts() {
    // a port nothing listens on
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let root = fixture_copy();
    let out = sessionctl(root.path())
        .args(["limits", "refresh", "--timeout", "2", "--json"])
        .args(["--url", &format!("http://127.0.0.1:{port}/")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(69));
    let v = json_of(&out);
    let hint = v["errors"][0]["hint"].as_str().unwrap();
    assert!(!hint.contains("--offline"), "{hint}");
    assert_hint_flags_accepted(hint, &["limits", "refresh"]);

    let out = sessionctl(root.path())
        .args(["limits", "refresh", "--offline"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let hint = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("hint: "))
        .unwrap_or("");
    assert_hint_flags_accepted(hint, &["limits", "refresh"]);
}
