//! Every table command in a real pseudo-terminal at 80 and 200 columns:
//! no line wider than the terminal, identifiers whole, and a snapshot of
//! what a person sees. Piped, the same tables are tab-separated rows.

use crate::common::*;

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;
use std::process::Stdio;

/// Ages in the snapshots are counted from this instant (debug builds).
const NOW: &str = "2026-12-03T00:00:00Z";

/// Run the binary with stdin and stdout on a pty `cols` wide (stderr to
/// /dev/null: progress bars and warnings are not the table), and return
/// what the terminal received.
fn in_pty(root: &Path, cols: u16, args: &[&str]) -> String {
    in_pty_with(root, cols, args, &[("SESSIONCTL_OFFLINE", "1")])
}

fn in_pty_with(root: &Path, cols: u16, args: &[&str], env: &[(&str, &str)]) -> String {
    let (master, slave) = open_pty(cols);
    let bin = assert_cmd::cargo::cargo_bin("sessionctl");
    let mut child = std::process::Command::new(bin)
        .env_clear()
        .env("TZ", "UTC")
        .env("HOME", root.join("no-home"))
        .env("SESSIONCTL_NOW", NOW)
        .envs(env.iter().copied())
        .arg("--root")
        .arg(root)
        .args(args)
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = Vec::new();
    let mut master = std::fs::File::from(master);
    // Linux ends the read with EIO once the child closed the slave side.
    let mut buf = [0u8; 4096];
    loop {
        match master.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
    child.wait().unwrap();
    String::from_utf8(out).unwrap().replace("\r\n", "\n")
}

fn open_pty(cols: u16) -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (0, 0);
    let size = libc::winsize {
        ws_row: 50,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty writes two fds it opened; we own them from here.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// A root where every table has rows: the fixture, a check finding (a
/// torn last line in db1) and a cached limits table.
fn root() -> tempfile::TempDir {
    let dir = fixture_copy();
    let aof = dir.path().join(".store/db_1/record.aof");
    let mut bytes = std::fs::read(&aof).unwrap();
    bytes.extend_from_slice(b"{\"torn");
    std::fs::write(&aof, bytes).unwrap();
    add_long_id_and_cjk(dir.path());
    dir
}

/// A session id of 56 characters (Telegram's are that long), and Chinese
/// and Japanese text where tables show free text.
const LONG_ID: &str = "telegram-group-1001234567890-topic-4455667788-user-42424";

fn add_long_id_and_cjk(r: &Path) {
    assert_eq!(LONG_ID.len(), 56);
    copy_tree(
        &r.join("sessions/tui-alice"),
        &r.join(format!("sessions/{LONG_ID}")),
    );
    let value = serde_json::json!({"id": "7c1d", "timestamp": 1764551000, "tool_name": "read_file",
        "keywords": ["read_file", "權限", "設定ファイル"],
        "symptom": "讀取設定檔時權限不足，無法寫入日誌目錄；設定ファイルを読めませんでした",
        "action": "改用家目錄下的路徑並重新啟動代理程式；ホームディレクトリに書き込む",
        "outcome": "resolved"});
    let line = serde_json::json!({"ts": 1, "cmd": "SET", "key": "read_file:1764551000333333333",
        "value": value.to_string(), "expire_at": 4102444800i64});
    let aof = r.join(".store/db_2/record.aof");
    let mut log = std::fs::read_to_string(&aof).unwrap();
    log.push_str(&format!("{line}\n"));
    std::fs::write(&aof, log).unwrap();
}

/// The commands that print a table, each with a name for its snapshot and
/// identifiers that must appear whole at every width.
const CASES: &[(&str, &[&str], &[&str])] = &[
    (
        "sessions_list",
        &["sessions", "list"],
        &["discord-9001", "tui-alice-2", LONG_ID],
    ),
    ("show_long_id", &["show", LONG_ID], &[LONG_ID]),
    (
        "show",
        &["show", "tui-alice"],
        &["tui-alice:1764547200000000000"],
    ),
    (
        "compact",
        &["compact", "--all", "--dry-run"],
        &["discord-9001", "tui-alice-2", LONG_ID],
    ),
    (
        "reset",
        &["reset", "tui-alice", "--mode", "all", "--dry-run"],
        &["tui-alice"],
    ),
    (
        "remove",
        &["remove", "tui-alice-2", "--dry-run"],
        &["tui-alice-2"],
    ),
    (
        "remove_long_id",
        &["remove", LONG_ID, "--dry-run"],
        &[LONG_ID],
    ),
    (
        "summarize",
        &["summarize", "--all", "--dry-run"],
        &["discord-9001", "tui-alice-2", LONG_ID],
    ),
    // the detail (which names record.aof) is free text: it goes before the
    // finding when a 56-character session id takes the room
    ("check", &["check"], &["torii-torn-tail", LONG_ID]),
    (
        "search",
        &["search", "logrotate", "--by", "keyword"],
        &["tui-alice"],
    ),
    (
        "errors_list",
        &["errors", "list"],
        &["run_command", "fetch_page", "7c1d"],
    ),
    (
        "errors_show_cjk",
        &["errors", "show", "7c1d"],
        &["read_file:1764551000333333333"],
    ),
    (
        "errors_show",
        &["errors", "show", "9a2b"],
        &["run_command:1764550000222222222"],
    ),
    (
        "limits_show",
        &["limits", "show"],
        &["claude@claude-sonnet-4-5"],
    ),
];

/// Columns a line takes on screen: colour escapes take none, a CJK
/// character two.
fn columns(line: &str) -> usize {
    let mut n = 0;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            chars.by_ref().find(|&c| c == 'm');
        } else {
            n += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        }
    }
    n
}

#[test]
fn tables_fit_80_and_200_columns_without_breaking_identifiers() {
    let root = root();
    let r = root.path();
    for (name, args, ids) in CASES {
        for cols in [80usize, 200] {
            let text = in_pty(r, cols as u16, args);
            for line in text.lines() {
                assert!(
                    columns(line) <= cols,
                    "{name} at {cols}: line of {} columns:\n{line}\n\n{text}",
                    columns(line)
                );
            }
            for id in *ids {
                assert!(
                    text.contains(id),
                    "{name} at {cols}: {id} not whole:\n{text}"
                );
            }
            let shown = text.replace(&r.display().to_string(), "<ROOT>");
            insta::assert_snapshot!(format!("{name}_{cols}"), shown);
        }
    }
}

/// An undone operation's STATE names the undo's id (27 characters): at 80
/// columns it gives way to a short form, and a session an operation
/// changed in several steps counts once.
#[test]
fn log_of_an_undone_reset_fits_80_columns() {
    let root = root();
    let r = root.path();
    for args in [
        &["reset", "tui-alice", "--mode", "all", "--yes"][..],
        &["undo", "--yes"][..],
    ] {
        let out = sessionctl(r).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
    let narrow = in_pty(r, 80, &["log"]);
    for line in narrow.lines() {
        assert!(columns(line) <= 80, "line of {}:\n{narrow}", columns(line));
    }
    assert!(narrow.contains("undone"), "{narrow}");
    assert!(!narrow.contains("2 sessions"), "{narrow}");
    let wide = in_pty(r, 200, &["log"]);
    assert!(wide.contains("undone by 20"), "{wide}");
    assert!(wide.contains("tui-alice"), "{wide}");
}

/// `limits refresh` against a table served on 127.0.0.1 (its output
/// names the URL and the fetch time, so no snapshot).
#[test]
fn limits_refresh_fits_80_columns_and_never_breaks_a_model_name() {
    let table = r#"{"claude":{"claude-sonnet-4-5":{"in":180000},"claude-opus-4-long-model-name-for-width":{"in":200000}},
        "openai":{"gpt-4o":{"in":128000}}}"#;
    let server = TestServer::start(move |_, _| Reply::json(200, table));
    let root = root();
    // At 40 the table cannot fit without cutting the model name: it must
    // stay whole (and overflow) rather than break.
    for cols in [40usize, 80, 200] {
        let text = in_pty_with(
            root.path(),
            cols as u16,
            &["limits", "refresh", "--url", &server.url, "--dry-run"],
            &[],
        );
        assert!(
            text.contains("claude-opus-4-long-model-name-for-width"),
            "{text}"
        );
        assert!(text.contains("VENDOR"), "{text}");
        let fits = cols > 40;
        for line in text.lines().filter(|l| fits && !l.contains(&server.url)) {
            assert!(
                columns(line) <= cols,
                "refresh at {cols}:\n{line}\n\n{text}"
            );
        }
    }
}

#[test]
fn piped_tables_are_tab_separated_unpadded_rows_without_footer() {
    let root = root();
    let out = sessionctl(root.path())
        .env("SESSIONCTL_NOW", NOW)
        .args(["sessions", "list"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "a header and four rows, no footer:\n{text}");
    assert!(lines[0].starts_with("SESSION\tRECORDS\t"), "{text}");
    for line in &lines {
        assert!(!line.starts_with(' ') && !line.ends_with(' '), "{line:?}");
        assert!(!line.contains("  "), "no padding: {line:?}");
    }
    assert!(lines[1].starts_with("discord-9001\t2\t"), "{text}");

    // check's count under the table is a footer too
    let out = sessionctl(root.path()).arg("check").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines().next().unwrap().starts_with("SCOPE\t"),
        "{text}"
    );
    assert!(!text.contains("finding(s)"), "{text}");
}

/// The tables in a real terminal: tmux panes of 80 and 200 columns run the
/// binary, and what they show is read back with the lines the terminal
/// wrapped joined: none may be wider than the pane, and every id is whole.
#[test]
fn in_tmux_every_table_fits_80_and_200_columns() {
    use crate::terminal::{have, Pane};
    if !have("tmux") {
        return;
    }
    let root = root();
    let r = root.path();
    let bin = assert_cmd::cargo::cargo_bin("sessionctl");
    let cases: &[(&[&str], &[&str])] = &[
        (&["sessions", "list"], &[LONG_ID, "tui-alice-2"]),
        (&["show", LONG_ID], &[LONG_ID]),
        (&["compact", "--all", "--dry-run"], &[LONG_ID]),
        (&["remove", LONG_ID, "--dry-run"], &[LONG_ID]),
        (&["summarize", "--all", "--dry-run"], &[LONG_ID]),
        (&["check"], &[LONG_ID, "torii-torn-tail"]),
        (&["errors", "list"], &["7c1d", "run_command"]),
        (
            &["errors", "show", "7c1d"],
            &["read_file:1764551000333333333"],
        ),
        (&["limits", "show"], &["claude@claude-sonnet-4-5"]),
    ];
    for cols in [80u16, 200] {
        for (args, ids) in cases {
            let line = format!(
                "{} --root {} {} 2>/dev/null; echo END-OF-OUTPUT; sleep 30",
                bin.display(),
                r.display(),
                args.join(" ")
            );
            let home = r.join("no-home");
            let pane = Pane::start(
                r,
                cols,
                24,
                &[
                    ("TZ", "UTC"),
                    ("HOME", home.to_str().unwrap()),
                    ("SESSIONCTL_NOW", NOW),
                    ("SESSIONCTL_OFFLINE", "1"),
                    ("TERM", "xterm"),
                ],
                &line,
            );
            pane.wait_for(|s| s.contains("END-OF-OUTPUT"));
            let text = pane.joined();
            assert!(
                text.contains("END-OF-OUTPUT"),
                "{args:?} at {cols}:\n{text}"
            );
            for l in text.lines() {
                assert!(
                    columns(l) <= cols as usize,
                    "{args:?} at {cols}: a line of {} columns:\n{l}\n\n{text}",
                    columns(l)
                );
            }
            for id in *ids {
                assert!(
                    text.contains(id),
                    "{args:?} at {cols}: {id} not whole:\n{text}"
                );
            }
        }
    }
}
