//! `completions`, `man` and dynamic completion, run as a shell runs them.

use crate::common::*;

/// What `SESSIONCTL_COMPLETE=fish sessionctl -- <words>` offers (fish: one candidate
/// per line, a tab before its help).
fn complete(root: &std::path::Path, words: &[&str]) -> Vec<String> {
    let out = sessionctl(root)
        .env("SESSIONCTL_COMPLETE", "fish")
        .arg("--")
        .arg("sessionctl")
        .args(["--root", root.to_str().unwrap()])
        .args(words)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_owned())
        // an empty word is offered the options too
        .filter(|c| !c.starts_with("--"))
        .collect()
}

#[test]
fn session_ids_error_ids_and_agents_complete_from_the_root() {
    let root = fixture_copy();
    let r = root.path();
    assert_eq!(complete(r, &["show", "tui-"]), ["tui-alice", "tui-alice-2"]);
    assert_eq!(
        complete(r, &["reset", "--mode", "all", "disc"]),
        ["discord-9001"]
    );
    assert_eq!(complete(r, &["errors", "show", ""]), ["3f1c", "9a2b"]);
    assert_eq!(
        complete(r, &["limits", "show", "cl"]),
        ["claude@claude-sonnet-4-5"]
    );
    // a wrong root offers nothing and fails nothing
    let none = complete(&r.join("missing"), &["show", "tui-"]);
    assert!(none.is_empty(), "{none:?}");
}

#[test]
fn every_shell_gets_a_script_and_static_ones_match_the_committed_files() {
    let root = fixture_copy();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = sessionctl(root.path())
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(
            script.contains("SESSIONCTL_COMPLETE"),
            "{shell} calls back: {script}"
        );
    }
    let out = sessionctl(root.path())
        .args(["completions", "bash", "--static"])
        .output()
        .unwrap();
    let committed = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/completions/sessionctl.bash"
    ))
    .unwrap();
    assert_eq!(out.stdout, committed);
}

#[test]
fn man_writes_the_committed_pages_with_exit_status_environment_files_see_also() {
    let root = fixture_copy();
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("man1");
    let out = sessionctl(root.path())
        .arg("man")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let mut names: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert!(names.len() > 10, "{names:?}");
    for name in &names {
        assert_eq!(
            std::fs::read(out_dir.join(name)).unwrap(),
            std::fs::read(committed.join(name)).unwrap(),
            "{name:?} differs from man/"
        );
    }
    let main = std::fs::read_to_string(out_dir.join("sessionctl.1")).unwrap();
    for section in ["EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"] {
        assert!(main.contains(&format!(".SH \"{section}\"")), "{section}");
    }
    assert!(
        main.contains("sessionctl\\-compact(1)"),
        "the main page points to the others"
    );
    let sub = std::fs::read_to_string(out_dir.join("sessionctl-compact.1")).unwrap();
    assert!(
        sub.contains("\\-\\-root"),
        "global options on subcommand pages"
    );
    assert!(sub.contains(".SH \"EXIT STATUS\""));

    // without DIR: the main page on stdout
    let out = sessionctl(root.path()).arg("man").output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), main);
}

/// Every environment variable the source reads is in ENVIRONMENT.
#[test]
fn the_man_page_names_every_environment_variable_read() {
    let re =
        regex::Regex::new(r#"(?:env = |var\(|var_os\(|env\(|armed\()"([A-Z][A-Z0-9_]+)""#).unwrap();
    let mut read = std::collections::BTreeSet::new();
    let mut stack = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src"
    ))];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                read.extend(re.captures_iter(&text).map(|c| c[1].to_owned()));
            }
        }
    }
    assert!(
        read.contains("AGENVOY_HOME") && read.contains("NO_COLOR"),
        "{read:?}"
    );
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/man/sessionctl.1"))
        .unwrap()
        .replace("\\-", "-");
    let env_section = page
        .split(".SH \"ENVIRONMENT\"")
        .nth(1)
        .and_then(|s| s.split(".SH ").next())
        .unwrap();
    let missing: Vec<_> = read
        .iter()
        .filter(|v| !env_section.contains(v.as_str()))
        .collect();
    assert!(missing.is_empty(), "not in ENVIRONMENT: {missing:?}");
}

/// zsh itself, in a real terminal, completing with the script `completions
/// zsh` prints (as the README has it installed): error ids and session ids
/// under a root typed with `~`, as zsh leaves it unexpanded in the words it
/// hands over.
#[test]
fn zsh_completes_error_ids_and_session_ids() {
    use crate::terminal::{have, Pane};
    if !have("zsh") || !have("tmux") {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let root = h.join("agenvoy");
    std::fs::create_dir_all(&root).unwrap();
    copy_fixture(&root);
    // a record with an id of Agenvoy's shape (SHA-256 hex)
    let id = "c0ffee5e1b0a7d2e9f3c4b6a8d0e2f4a6c8e0a2b4d6f8a0c2e4a6b8d0f2a4c6e";
    let value = serde_json::json!({"id": id, "timestamp": 1764600000, "tool_name": "read_file",
        "keywords": ["read_file"], "symptom": "s", "action": "a", "outcome": "resolved"});
    let line = serde_json::json!({"ts": 1, "cmd": "SET", "key": "read_file:1764600000000000000",
        "value": value.to_string(), "expire_at": 4102444800i64});
    let aof = root.join(".store/db_2/record.aof");
    let mut log = std::fs::read_to_string(&aof).unwrap();
    log.push_str(&format!("{line}\n"));
    std::fs::write(&aof, log).unwrap();

    let bin = assert_cmd::cargo::cargo_bin("sessionctl");
    std::fs::create_dir_all(h.join("bin")).unwrap();
    std::os::unix::fs::symlink(&bin, h.join("bin/sessionctl")).unwrap();
    let script = sessionctl(h).args(["completions", "zsh"]).output().unwrap();
    assert!(script.status.success());
    std::fs::write(h.join("_sessionctl"), script.stdout).unwrap();
    std::fs::write(
        h.join(".zshrc"),
        "autoload -Uz compinit && compinit -u\nsource ~/_sessionctl\nPS1='$ '\n",
    )
    .unwrap();
    let path = format!("{}:/usr/bin:/bin", h.join("bin").display());
    let home_s = h.to_str().unwrap();
    let pane = Pane::start(
        h,
        200,
        50,
        &[
            ("HOME", home_s),
            ("ZDOTDIR", home_s),
            ("PATH", &path),
            ("TERM", "xterm"),
        ],
        "exec zsh -i",
    );
    pane.wait_for(|s| s.lines().any(|l| l.trim_end() == "$"));

    pane.keys(&["sessionctl --root ~/agenvoy errors show ", "Tab"]);
    let screen = pane.wait_for(|s| s.contains(id));
    for want in [id, "3f1c", "9a2b"] {
        assert!(screen.contains(want), "{want} not offered:\n{screen}");
    }
    // a prefix completes to the whole id, for `errors edit` too (each line
    // typed only once zsh shows a fresh prompt: on a loaded machine it may
    // still be redrawing the last one)
    let fresh_prompt = || {
        pane.keys(&["C-c"]);
        pane.wait_for(|s| {
            s.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| l.trim_end() == "$")
        });
    };
    fresh_prompt();
    pane.keys(&["sessionctl --root ~/agenvoy errors edit c0f", "Tab"]);
    let screen = pane.wait_for(|s| s.contains(&format!("errors edit {id}")));
    assert!(screen.contains(&format!("errors edit {id}")), "{screen}");
    fresh_prompt();
    pane.keys(&["sessionctl --root ~/agenvoy show tui-alice-", "Tab"]);
    let screen = pane.wait_for(|s| s.contains("show tui-alice-2"));
    assert!(screen.contains("show tui-alice-2"), "{screen}");
}
