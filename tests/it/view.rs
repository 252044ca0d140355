//! `sessionctl view`: what it draws (TestBackend snapshots at 80×24 and
//! 200×50, CJK text included, with and without colour), and the real thing
//! in a real terminal (tmux): reset a session, undo it, quit, and find every
//! tier back and the terminal as it was.

use crate::common::*;
use crate::undo_support::state;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Color;
use ratatui::Terminal;
use sessionctl::engine::compact::op::CompactReport;
use sessionctl::engine::compact::StageReport;
use sessionctl::engine::limits::WindowSource;
use sessionctl::engine::reset::{ClearReport, ResetMode};
use sessionctl::view::draw::{draw, Look};
use sessionctl::view::state::{App, Row, SessionList, SummaryData, Update};

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-01-10T12:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn row(id: &str, hours_ago: i64, tokens: usize, used: f64, model: &str) -> Row {
    Row {
        id: id.into(),
        records: tokens / 40,
        tokens,
        tokens_exact: model.starts_with("openai"),
        bytes: tokens as u64 * 4,
        last_at: Some(now() - chrono::Duration::hours(hours_ago)),
        has_summary: hours_ago < 100,
        summary_at: Some(now() - chrono::Duration::hours(hours_ago + 2 * (hours_ago % 2))),
        used_percent: Some(used),
        model: Some(model.into()),
        problems: Vec::new(),
    }
}

/// Sessions with CJK ids and text, one over budget, one with its summary
/// behind, one id too long for 80 columns.
fn app() -> App {
    let mut app = App::new(None);
    app.start();
    app.update(Update::Sessions(Ok(list(
        vec![
            row("tui-alice", 1, 4_019, 2.5, "claude@claude-sonnet-4-5"),
            row("discord-會話-9001", 3, 171_000, 106.9, "openai@gpt-4o"),
            row("tui-東京-backup", 30, 812, 0.6, "ollama@qwen3"),
            row(
                "telegram-a-very-long-session-identifier-that-does-not-fit-0123456789abcdef",
                200,
                55,
                0.1,
                "-",
            ),
        ],
        vec![],
    ))));
    app
}

fn list(rows: Vec<Row>, warnings: Vec<String>) -> SessionList {
    SessionList {
        rows,
        warnings,
        via_daemon: false,
    }
}

fn summary() -> SummaryData {
    let fields = serde_json::json!({
        "key_decisions": ["要：nightly logrotate, 14 days, compressed", "決定：用 zstd 壓縮舊日誌，保留十四天，每晚輪替一次並通知值班人員"],
        "current_discussion": {"topic": "日誌保留", "description": "Keep 14 days compressed.", "direction": "add rotate 14 + compress"},
        "past_discussions": [{"topic": "nginx logs", "last_discussed": "2025-12-01 00:00", "description": "Rotate nginx logs nightly."}]
    });
    SummaryData {
        session: "discord-會話-9001".into(),
        fields: fields.as_object().cloned(),
        cursor: Some("2026-01-10 08:00:00".into()),
        up_to: Some(now() - chrono::Duration::hours(4)),
        behind: Some(7),
    }
}

fn compact_plan() -> CompactReport {
    CompactReport {
        session: "discord-會話-9001".into(),
        action: "compact",
        changed: true,
        removed_records: 1_210,
        model: "openai@gpt-4o".into(),
        window_source: WindowSource::Table,
        budget: 102_400,
        counter: "o200k",
        warnings: vec![],
        tokens_before: Some(171_000),
        tokens_after: Some(81_920),
        bytes_before: 684_000,
        bytes_after: 327_680,
        within_budget: false,
        removed_torii_keys: 1_210,
        archived_new: 3,
        task_histories_saved: vec!["history/任務-1.json".into()],
        trash: None,
        stages: vec![
            StageReport {
                stage: "tools",
                removed: 12,
                tokens_after: 150_000,
            },
            StageReport {
                stage: "trim",
                removed: 1_210,
                tokens_after: 81_920,
            },
        ],
        still_over: false,
        dry_run: true,
        model_switch: None,
        via: None,
        started: None,
        completes: None,
    }
}

fn reset_plan(mode: ResetMode) -> ClearReport {
    ClearReport {
        session: "discord-會話-9001".into(),
        action: "reset",
        mode: Some(mode),
        changed: true,
        removed_torii_keys: 4_280,
        removed_archive_rows: 4_280,
        removed_files: vec!["history.json".into(), "history".into(), "action.log".into()],
        summary_merged: Some(7),
        trash: None,
        dry_run: true,
        via: None,
    }
}

fn press(app: &mut App, codes: &[KeyCode]) {
    for c in codes {
        app.key(KeyEvent::new(*c, KeyModifiers::NONE));
    }
}

fn render(app: &mut App, w: u16, h: u16, color: bool) -> Terminal<TestBackend> {
    app.resize(w, h);
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    let look = Look {
        now: now(),
        color,
        tick: 0,
    };
    t.draw(|f| draw(f, app, look)).unwrap();
    t
}

fn screen(app: &mut App, w: u16, h: u16) -> String {
    render(app, w, h, true).backend().to_string()
}

#[test]
fn the_list_at_80x24_keeps_ids_whole_and_marks_sessions() {
    let mut app = app();
    let s = screen(&mut app, 80, 24);
    // the long id wraps in its column, every character kept, and the
    // other columns keep their place beside it
    let lines: Vec<&str> = s.lines().map(|l| l.trim_matches('"')).collect();
    let at = lines.iter().position(|l| l.contains("telegram-")).unwrap();
    let col = lines[at].chars().position(|c| c == 't').unwrap();
    let id: String = lines[at..at + 3]
        .iter()
        .map(|l| {
            l.chars()
                .skip(col)
                .take(36)
                .collect::<String>()
                .trim()
                .to_owned()
        })
        .collect();
    assert_eq!(
        id,
        "telegram-a-very-long-session-identifier-that-does-not-fit-0123456789abcdef"
    );
    assert!(
        lines[at].contains("~55") && lines[at].contains("8d ago"),
        "{s}"
    );
    assert!(
        lines[2].contains("TOKENS") && lines[2].contains("USED"),
        "{s}"
    );
    insta::assert_snapshot!("list_80x24", s);
}

#[test]
fn the_summary_tab_at_80x24_with_cjk_text() {
    let mut app = app();
    press(&mut app, &[KeyCode::Down, KeyCode::Enter]);
    app.update(Update::Summary("discord-會話-9001".into(), Ok(summary())));
    insta::assert_snapshot!("summary_80x24", screen(&mut app, 80, 24));
}

/// Scrolling the detail pane stops at its last line, so one Up after
/// holding Down moves the text at once.
#[test]
fn the_detail_pane_scrolls_no_further_than_its_text() {
    let mut app = app();
    press(&mut app, &[KeyCode::Down, KeyCode::Tab]);
    app.update(Update::CompactPlan(
        "discord-會話-9001".into(),
        Ok(Box::new(compact_plan())),
    ));
    let top = screen(&mut app, 80, 12);
    press(&mut app, &vec![KeyCode::Down; 500]);
    let bottom = screen(&mut app, 80, 12);
    let max = app.max_scroll.get();
    assert!(max > 0, "the plan is longer than 12 rows:\n{top}");
    assert_eq!(app.scroll, max);
    assert_ne!(top, bottom);
    press(&mut app, &[KeyCode::Up]);
    assert_eq!(app.scroll, max - 1);
    assert_ne!(
        screen(&mut app, 80, 12),
        bottom,
        "one Up shows an earlier line"
    );
}

#[test]
fn the_reset_tab_and_its_question_at_80x24() {
    let mut app = app();
    press(&mut app, &[KeyCode::Down, KeyCode::Tab, KeyCode::Tab]);
    app.update(Update::ResetPlan(
        "discord-會話-9001".into(),
        ResetMode::Summary,
        Ok(Box::new(reset_plan(ResetMode::Summary))),
    ));
    insta::assert_snapshot!("reset_80x24", screen(&mut app, 80, 24));
    press(&mut app, &[KeyCode::Enter]);
    insta::assert_snapshot!("reset_confirm_80x24", screen(&mut app, 80, 24));
}

#[test]
fn while_agenvoy_runs_no_dialog_promises_an_undo() {
    let mut app = app();
    app.update(Update::Sessions(Ok(SessionList {
        via_daemon: true,
        ..list(
            vec![
                row("tui-alice", 1, 4_019, 2.5, "claude@claude-sonnet-4-5"),
                row("discord-會話-9001", 3, 171_000, 106.9, "openai@gpt-4o"),
            ],
            vec![],
        )
    })));
    press(&mut app, &[KeyCode::Down, KeyCode::Tab]);
    app.update(Update::CompactPlan(
        "discord-會話-9001".into(),
        Ok(Box::new(compact_plan())),
    ));
    let plan = screen(&mut app, 80, 24);
    assert!(!plan.contains("undo puts"), "{plan}");
    press(&mut app, &[KeyCode::Enter]);
    let ask = screen(&mut app, 80, 24);
    assert!(ask.contains("cannot be undone"), "{ask}");
    assert!(!ask.to_lowercase().contains("undo puts"), "{ask}");
}

/// A session whose history.json cannot be read shows `?` for what it
/// would count, as `sessions list` does: not 0 tokens and 0 records.
#[test]
fn an_unreadable_session_shows_unknown_counts_not_zero() {
    let mut app = App::new(None);
    app.start();
    let broken = Row {
        records: 0,
        tokens: 0,
        used_percent: Some(0.0),
        problems: vec!["history.json: expected value at line 1 column 1".into()],
        ..row("tui-broken", 1, 0, 0.0, "openai@gpt-4o")
    };
    app.update(Update::Sessions(Ok(list(vec![broken], vec![]))));
    let s = screen(&mut app, 80, 24);
    let line = s.lines().find(|l| l.contains("tui-broken")).unwrap();
    // the mark, tokens, % of budget and records
    assert_eq!(line.matches('?').count(), 4, "{line}");
    assert!(!line.contains("0%"), "{line}");
}

/// The reset question for a session whose id is longer than the dialog
/// and for one with CJK text: the answer keys stay visible, the id is
/// whole (wrapped, not cut) and the dialog's borders stay straight.
#[test]
fn a_question_about_a_long_or_cjk_id_keeps_its_keys_and_its_borders() {
    let long = "telegram-a-very-long-session-identifier-that-does-not-fit-0123456789abcdef";
    let cjk = "discord-會話-9001";
    for (downs, id) in [(3, long), (1, cjk)] {
        for (w, h) in [(80u16, 24u16), (60, 16)] {
            let mut app = app();
            press(&mut app, &vec![KeyCode::Down; downs]);
            press(&mut app, &[KeyCode::Tab, KeyCode::Tab]);
            app.update(Update::ResetPlan(
                id.into(),
                ResetMode::Summary,
                Ok(Box::new(reset_plan(ResetMode::Summary))),
            ));
            press(&mut app, &[KeyCode::Enter]);
            let t = render(&mut app, w, h, false);
            let buf = t.backend().buffer();
            let rows: Vec<String> = (0..h)
                .map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_owned()).collect())
                .collect();
            let top = rows
                .iter()
                .position(|r| r.contains("┌ reset"))
                .unwrap_or_else(|| panic!("no dialog at {w}x{h}:\n{}", rows.join("\n")));
            let left = (0..w)
                .find(|&x| buf[(x, top as u16)].symbol() == "┌" && x > 0)
                .unwrap();
            let right = (left + 1..w)
                .find(|&x| buf[(x, top as u16)].symbol() == "┐")
                .unwrap();
            let bottom = (top + 1..h as usize)
                .find(|&y| buf[(left, y as u16)].symbol() == "└")
                .unwrap_or_else(|| panic!("no bottom:\n{}", rows.join("\n")));
            for y in top + 1..bottom {
                assert_eq!(
                    buf[(left, y as u16)].symbol(),
                    "│",
                    "{w}x{h} row {y}:\n{}",
                    rows.join("\n")
                );
                assert_eq!(
                    buf[(right, y as u16)].symbol(),
                    "│",
                    "{w}x{h} row {y}:\n{}",
                    rows.join("\n")
                );
            }
            let inside: String = (top + 1..bottom)
                .map(|y| {
                    rows[y]
                        .chars()
                        .skip(left as usize + 1)
                        .take((right - left - 1) as usize)
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("\n");
            assert!(inside.contains("y: yes"), "{w}x{h}:\n{}", rows.join("\n"));
            let joined: String = inside.split_whitespace().collect();
            assert!(
                joined.contains(&id.replace(' ', "")),
                "{id} whole at {w}x{h}:\n{}",
                rows.join("\n")
            );
        }
    }
}

#[test]
fn wide_terminals_show_the_list_and_the_compact_plan_side_by_side() {
    let mut app = app();
    press(&mut app, &[KeyCode::Down, KeyCode::Tab]);
    app.update(Update::CompactPlan(
        "discord-會話-9001".into(),
        Ok(Box::new(compact_plan())),
    ));
    let s = screen(&mut app, 200, 50);
    insta::assert_snapshot!("compact_200x50", s);
    // and the same state fits 80×24 after a resize
    let narrow = screen(&mut app, 80, 24);
    assert!(narrow.contains("1,210 history record(s)"), "{narrow}");
    assert!(
        !narrow.contains("SESSION"),
        "only the session at 80 columns"
    );
}

#[test]
fn no_color_means_no_colour_only_emphasis() {
    for color in [true, false] {
        let mut app = app();
        press(&mut app, &[KeyCode::Down, KeyCode::Enter]);
        app.update(Update::Summary("discord-會話-9001".into(), Ok(summary())));
        press(&mut app, &[KeyCode::Esc]);
        let t = render(&mut app, 120, 30, color);
        let coloured = t
            .backend()
            .buffer()
            .content()
            .iter()
            .filter(|c| c.fg != Color::Reset || c.bg != Color::Reset)
            .count();
        if color {
            assert!(coloured > 0, "colour is used when allowed");
        } else {
            assert_eq!(coloured, 0, "NO_COLOR: not one coloured cell");
        }
    }
}

#[test]
fn control_characters_in_ids_and_text_never_reach_the_terminal() {
    let mut app = App::new(None);
    app.start();
    let evil = "evil\x1b]0;pwned\x07\x1b[2J-\r\u{9b}31m";
    app.update(Update::Sessions(Ok(list(
        vec![row(evil, 1, 10, 1.0, "x")],
        vec![format!("warning with \x1b[31m{evil}")],
    ))));
    press(&mut app, &[KeyCode::Enter]);
    let mut data = summary();
    data.session = evil.into();
    data.fields.as_mut().unwrap().insert(
        "key_decisions".into(),
        serde_json::json!([format!("decided {evil}"), "two\nlines\tand a tab"]),
    );
    app.update(Update::Summary(evil.into(), Ok(data)));
    for (w, h) in [(80, 24), (200, 50)] {
        let t = render(&mut app, w, h, true);
        let bad: Vec<String> = t
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|c| c.symbol().to_owned())
            .filter(|s| s.chars().any(char::is_control))
            .collect();
        assert!(bad.is_empty(), "{w}×{h}: control characters drawn: {bad:?}");
        let shown = t.backend().to_string();
        assert!(shown.contains("evil") && shown.contains("pwned"), "{shown}");
    }
}

#[test]
fn view_refuses_without_a_terminal_and_with_json() {
    let root = fixture_copy();
    let out = sessionctl(root.path()).arg("view").output().unwrap();
    assert_eq!(out.status.code(), Some(64));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a terminal"), "{err}");
    assert!(
        err.contains("sessions list") && err.contains("compact"),
        "{err}"
    );
    let out = sessionctl(root.path())
        .args(["view", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let v = json_of(&out);
    assert_eq!(v["errors"][0]["code"], 64);
    assert!(v["errors"][0]["hint"].as_str().unwrap().contains("--json"));
}

/// `script(1)` gives the view a pseudo-terminal whose other end never
/// answers: what a serial console or a broken emulator does.
fn view_in_a_silent_pty(root: &Path, term: &str) -> (Option<i32>, String) {
    let bin = assert_cmd::cargo::cargo_bin("sessionctl");
    let inner = format!(
        "TERM={term} {} --root {} view 2>&1; echo \"rc=$?\"",
        bin.display(),
        root.display()
    );
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("sleep 8 | script -qec '{inner}' /dev/null"))
        .output()
        .expect("script(1) from util-linux");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let rc = text
        .rsplit("rc=")
        .next()
        .and_then(|t| t.trim().parse().ok());
    (rc, text)
}

#[test]
fn a_terminal_that_cannot_draw_or_does_not_answer_is_refused_not_a_bug() {
    let root = fixture_copy();
    let before = snapshot(root.path());
    let (rc, text) = view_in_a_silent_pty(root.path(), "dumb");
    assert_eq!(rc, Some(64), "{text}");
    assert!(text.contains("TERM is dumb"), "{text}");
    let (rc, text) = view_in_a_silent_pty(root.path(), "xterm-256color");
    assert_eq!(
        rc,
        Some(74),
        "an I/O failure of the terminal, not 70: {text}"
    );
    assert!(text.contains("the terminal:"), "{text}");
    assert!(!text.contains("report"), "{text}");
    assert!(before == snapshot(root.path()), "nothing written");
}

/// A tmux server of its own (its socket in a temp dir), killed on drop.
struct Tmux {
    socket: PathBuf,
    _dir: tempfile::TempDir,
}

impl Tmux {
    fn start(cmd: &str) -> Tmux {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("tmux.sock");
        let t = Tmux { socket, _dir: dir };
        let ok = t
            .cmd(&["new-session", "-d", "-x", "80", "-y", "24", cmd])
            .status()
            .expect("tmux is needed for this test (apt-get install tmux)");
        assert!(ok.success());
        t
    }

    fn cmd(&self, args: &[&str]) -> std::process::Command {
        let mut c = std::process::Command::new("tmux");
        c.arg("-S")
            .arg(&self.socket)
            .arg("-f")
            .arg("/dev/null")
            .args(args);
        c
    }

    fn screen(&self) -> String {
        let out = self.cmd(&["capture-pane", "-p"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn display(&self, format: &str) -> String {
        let out = self
            .cmd(&["display-message", "-p", format])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    fn keys(&self, keys: &[&str]) {
        for k in keys {
            assert!(self.cmd(&["send-keys", k]).status().unwrap().success());
            std::thread::sleep(Duration::from_millis(60));
        }
    }

    fn literally(&self, text: &str) {
        assert!(self
            .cmd(&["send-keys", "-l", text])
            .status()
            .unwrap()
            .success());
    }

    /// Wait until the screen shows `text`.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "waited for {text:?}; the screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]).status();
    }
}

/// The shell line that runs the view on `root` as `sessionctl(root)` does
/// (clean environment, UTC), then records its exit code and the
/// terminal's settings after it.
fn view_line(root: &Path, extra_env: &str) -> String {
    let bin = assert_cmd::cargo::cargo_bin("sessionctl");
    let r = root.display();
    format!(
        "env -i TZ=UTC HOME={r}/no-home PATH=\"$PATH\" TERM=xterm-256color {extra_env} {} --root {r} view 2>{r}/view.stderr; echo $? > {r}/view.exit; stty -a > {r}/view.stty; sleep 600",
        bin.display()
    )
}

fn wait_file(path: &Path) -> String {
    let start = Instant::now();
    loop {
        if let Ok(s) = std::fs::read_to_string(path) {
            if s.ends_with('\n') {
                return s;
            }
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no {path:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The terminal is as the shell left it: cooked mode with echo, the
/// normal screen, the cursor shown.
fn terminal_restored(t: &Tmux, root: &Path) {
    let stty = wait_file(&root.join("view.stty"));
    for flag in ["icanon", "echo", "isig", "icrnl", "opost"] {
        assert!(
            stty.split_whitespace().any(|w| w == flag),
            "{flag} is off after the view:\n{stty}"
        );
    }
    assert_eq!(
        t.display("#{alternate_on}"),
        "0",
        "still on the alternate screen"
    );
    assert_eq!(t.display("#{cursor_flag}"), "1", "the cursor is hidden");
}

#[test]
fn in_a_real_terminal_reset_then_undo_puts_every_tier_back() {
    let root = fixture_copy();
    let r = root.path();
    let before = state(r);
    let t = Tmux::start(&view_line(r, ""));
    t.wait_for("sessions 3/3");
    // a resize to 200×50 shows the list and the session side by side, and back
    assert!(t
        .cmd(&["resize-window", "-x", "200", "-y", "50"])
        .status()
        .unwrap()
        .success());
    let s = t.wait_for(" summary   compact   reset");
    assert!(
        s.lines()
            .any(|l| l.contains("SESSION") && l.contains("summary")),
        "{s}"
    );
    assert!(t
        .cmd(&["resize-window", "-x", "80", "-y", "24"])
        .status()
        .unwrap()
        .success());
    let start = Instant::now();
    while t.screen().contains(" summary   compact") {
        assert!(start.elapsed() < Duration::from_secs(30), "{}", t.screen());
        std::thread::sleep(Duration::from_millis(100));
    }
    // tui-alice alone (a glob: tui-alice-2 does not match), its reset tab
    t.keys(&["/"]);
    t.literally("tui-alic?");
    t.keys(&["Enter"]);
    t.wait_for("sessions 1/3");
    t.keys(&["Tab", "Tab"]);
    t.wait_for("Enter resets");
    t.keys(&["Enter"]);
    t.wait_for("y: yes");
    t.keys(&["y"]);
    let s = t.wait_for("kept in sessions/.Trash");
    assert!(s.contains("4 ToriiDB key(s), 4 archive row(s)"), "{s}");
    assert_ne!(state(r), before, "the reset happened");
    t.keys(&["Escape", "2"]);
    t.wait_for("reset");
    t.keys(&["u"]);
    t.wait_for("y: yes");
    t.keys(&["y"]);
    t.wait_for("undid");
    t.keys(&["Escape", "q"]);
    assert_eq!(wait_file(&r.join("view.exit")).trim(), "0");
    terminal_restored(&t, r);
    assert_eq!(state(r), before, "every tier is back");
    fts_integrity_ok(r);
    logs_are_toriidb_readable(r);
    let log = results(&sessionctl(r).args(["log", "--json"]).output().unwrap());
    let cmds: Vec<&str> = log.iter().map(|o| o["command"].as_str().unwrap()).collect();
    assert_eq!(cmds, ["undo", "reset"], "both are in the operation log");
    assert!(log.iter().all(|o| o["done"] == true));
    assert_eq!(std::fs::read_to_string(r.join("view.stderr")).unwrap(), "");
}

#[test]
fn in_a_real_terminal_a_panic_or_ctrl_c_gives_the_terminal_back() {
    let root = fixture_copy();
    let r = root.path();
    let t = Tmux::start(&view_line(r, "SESSIONCTL_VIEW_PANIC=1"));
    let exit = wait_file(&r.join("view.exit"));
    assert_eq!(exit.trim(), "101", "a panic's exit code");
    terminal_restored(&t, r);
    let err = std::fs::read_to_string(r.join("view.stderr")).unwrap();
    assert!(
        err.contains("SESSIONCTL_VIEW_PANIC"),
        "the message is printed: {err}"
    );
    drop(t);

    for key in ["C-c", "q"] {
        let root = fixture_copy();
        let r = root.path();
        let t = Tmux::start(&view_line(r, ""));
        t.wait_for("sessions 3/3");
        t.keys(&[key]);
        assert_eq!(wait_file(&r.join("view.exit")).trim(), "0", "{key}");
        terminal_restored(&t, r);
    }

    // `q` while a slow read is going (a huge session's summary or plan):
    // the view ends at once, it does not wait for the read
    let root = fixture_copy();
    let r = root.path();
    let t = Tmux::start(&view_line(r, "SESSIONCTL_VIEW_SLOW_READ_MS=60000"));
    t.wait_for("sessions 3/3");
    t.keys(&["Tab"]);
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    t.keys(&["q"]);
    assert_eq!(
        wait_file(&r.join("view.exit")).trim(),
        "0",
        "q during a read"
    );
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "quitting waited {:?} for the read",
        asked.elapsed()
    );
    terminal_restored(&t, r);
    drop(t);

    // a signal ends it as a signal ends a shell's child: 128 + its number
    let root = fixture_copy();
    let r = root.path();
    let t = Tmux::start(&view_line(r, ""));
    t.wait_for("sessions 3/3");
    let pid = t.display("#{pane_pid}");
    let killed = std::process::Command::new("pkill")
        .args(["-TERM", "-P", pid.trim(), "-x", "sessionctl"])
        .status()
        .unwrap();
    assert!(killed.success(), "the view runs under the pane's shell");
    assert_eq!(wait_file(&r.join("view.exit")).trim(), "143", "SIGTERM");
    terminal_restored(&t, r);
}

mod engine_calls {
    //! The view's calls are the commands' calls: its plans are their dry
    //! runs, and Esc before the write leaves everything as it was.

    use super::*;
    use sessionctl::cli::{LlmArgs, SummarizerKind, ViewArgs};
    use sessionctl::cli_util::Context;
    use sessionctl::daemon::{Via, DEFAULT_URL};
    use sessionctl::output::Output;
    use sessionctl::store::layout::DataRoot;
    use sessionctl::view::ops::{self, Env, ViewUi};
    use std::sync::atomic::AtomicBool;

    fn ctx(r: &Path) -> Context {
        Context {
            root: DataRoot::open(r).unwrap(),
            out: Output::new(false, true, false, false),
            offline: true,
            dry_run: false,
            daemon: sessionctl::cli::DaemonArgs {
                via: Via::Files,
                daemon_url: DEFAULT_URL.into(),
                timeout: 5,
            },
        }
    }

    fn args() -> ViewArgs {
        ViewArgs {
            filter: None,
            llm: LlmArgs {
                summarizer: SummarizerKind::Offline,
                llm_url: None,
                llm_model: None,
                llm_timeout: 120,
            },
            keep_last: sessionctl::engine::compact::DEFAULT_KEEP_LAST,
            force: false,
        }
    }

    #[test]
    fn the_tabs_show_what_the_commands_dry_runs_say() {
        let root = fixture_copy();
        let r = root.path();
        let (ctx, args) = (ctx(r), args());
        let env = Env {
            ctx: &ctx,
            args: &args,
        };
        let rows = ops::sessions(env).unwrap().rows;
        let listed = results(
            &sessionctl(r)
                .args(["sessions", "list", "--json"])
                .output()
                .unwrap(),
        );
        assert_eq!(rows.len(), listed.len());
        for row in &rows {
            let id = row.id.as_str();
            let cli = one(&sessionctl(r)
                .args(["compact", id, "--dry-run", "--json"])
                .output()
                .unwrap());
            let view = serde_json::to_value(ops::plan_compact(env, id).unwrap()).unwrap();
            assert_eq!(view, cli, "compact tab of {id}");
            for mode in ["summary", "all"] {
                let cli = one(&sessionctl(r)
                    .args(["reset", id, "--mode", mode, "--dry-run", "--json"])
                    .output()
                    .unwrap());
                let m = if mode == "all" {
                    ResetMode::All
                } else {
                    ResetMode::Summary
                };
                let view = serde_json::to_value(ops::plan_reset(env, id, m).unwrap()).unwrap();
                assert_eq!(view, cli, "reset tab of {id}, mode {mode}");
            }
            let shown = listed.iter().find(|l| l["session"] == id).unwrap();
            assert_eq!(shown["tokens"], row.tokens, "{id}");
            assert_eq!(shown["records"], row.records, "{id}");
        }
    }

    #[test]
    fn esc_before_the_write_leaves_every_tier_and_the_log_as_they_were() {
        for cancelled in [true, false] {
            let root = fixture_copy();
            let r = root.path();
            let before = state(r);
            let (ctx, args) = (ctx(r), args());
            let env = Env {
                ctx: &ctx,
                args: &args,
            };
            let (tx, rx) = std::sync::mpsc::channel();
            let cancel = AtomicBool::new(cancelled);
            let ui = ViewUi::new(tx, &cancel);
            let done = ops::reset(env, "tui-alice", ResetMode::All, &ui).unwrap();
            let progress: Vec<_> = rx.try_iter().collect();
            if cancelled {
                assert!(
                    done.lines[0].contains("nothing changed"),
                    "{:?}",
                    done.lines
                );
                assert!(done.changed.is_empty());
                assert_eq!(state(r), before);
                assert!(!r.join(".sessionctl/oplog.jsonl").exists());
            } else {
                // the control: the same call without Esc resets
                assert_eq!(done.changed, ["tui-alice"], "{:?}", done.lines);
                assert_ne!(state(r), before);
                assert!(
                    progress
                        .iter()
                        .any(|u| matches!(u, Update::Progress(p) if p.applying && p.applied == 1)),
                    "progress was reported: {progress:?}"
                );
            }
        }
    }

    /// Esc while the view waits for a slow summarizer (a real server on
    /// 127.0.0.1 that takes the request and never answers) ends the job at
    /// once; nothing was being written, and summary.json is as it was.
    #[test]
    fn esc_stops_waiting_for_a_slow_summarizer() {
        let root = fixture_copy();
        let r = root.path();
        let before = state(r);
        let server = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", server.local_addr().unwrap());
        let held = std::thread::spawn(move || {
            // hold the connections open, answer nothing
            let mut open = Vec::new();
            for c in server.incoming().take(1) {
                open.push(c);
                std::thread::sleep(Duration::from_secs(20));
            }
        });
        let mut ctx = ctx(r);
        ctx.offline = false;
        let mut args = args();
        args.llm = LlmArgs {
            summarizer: SummarizerKind::Openai,
            llm_url: Some(url),
            llm_model: Some("slow".into()),
            llm_timeout: 60,
        };
        let env = env_of(&ctx, &args);
        let (tx, rx) = std::sync::mpsc::channel();
        let cancel = AtomicBool::new(false);
        let ui = ViewUi::new(tx, &cancel);
        let started = Instant::now();
        let done = std::thread::scope(|s| {
            let job = s.spawn(|| ops::summarize_one(env, "tui-alice", &ui));
            // Esc once the view says it waits for the summarizer
            let deadline = Instant::now() + Duration::from_secs(20);
            loop {
                let u = rx.recv_timeout(Duration::from_secs(20)).expect("progress");
                if matches!(u, Update::Progress(p) if p.waiting) {
                    break;
                }
                assert!(Instant::now() < deadline, "never waited for the summarizer");
            }
            cancel.store(true, std::sync::atomic::Ordering::SeqCst);
            let waited = Instant::now();
            let done = job.join().unwrap();
            assert!(
                waited.elapsed() < Duration::from_secs(2),
                "Esc took {:?}",
                waited.elapsed()
            );
            done
        });
        assert!(started.elapsed() < Duration::from_secs(15));
        let lines = match done {
            Ok(d) => {
                assert!(d.failed, "{:?}", d.lines);
                d.lines.join("\n")
            }
            Err(e) => e.to_string(),
        };
        assert!(lines.contains("stopped with Esc"), "{lines}");
        assert_eq!(state(r), before, "nothing written");
        drop(held);
    }

    fn env_of<'a>(ctx: &'a Context, args: &'a ViewArgs) -> Env<'a> {
        Env { ctx, args }
    }

    #[test]
    fn the_trash_and_errors_keys_run_the_commands_operations() {
        use sessionctl::view::journal;
        let root = fixture_copy();
        let r = root.path();
        let before = state(r);
        let (ctx, args) = (ctx(r), args());
        let env = env_of(&ctx, &args);
        let (tx, _rx) = std::sync::mpsc::channel();
        let cancel = AtomicBool::new(false);
        let ui = ViewUi::new(tx, &cancel);

        // remove (the D key), then restore it from the Trash tab
        let done = ops::remove(env, "discord-9001", &ui).unwrap();
        assert_eq!(done.changed, ["discord-9001"], "{:?}", done.lines);
        let entries = journal::trash_entries(env).unwrap();
        assert_eq!(entries.len(), 1);
        let done = journal::restore(env, &entries[0].name, &ui).unwrap();
        assert!(!done.failed, "{:?}", done.lines);
        assert_eq!(state(r), before, "the restore put every tier back");

        // the undo tab lists restore, remove newest first, both undoable
        let ops_shown = journal::oplog_rows(env).unwrap();
        let cmds: Vec<&str> = ops_shown.iter().map(|o| o.op.command.as_str()).collect();
        assert_eq!(cmds, ["trash restore", "remove"]);

        // the action of an error record: rewritten, its expiry kept
        let items = journal::error_items(env).unwrap();
        let first = &items[0];
        let done =
            journal::edit_action(env, &first.key, "新的修正：retry with a backoff", &ui).unwrap();
        assert!(!done.failed, "{:?}", done.lines);
        let after = journal::error_items(env).unwrap();
        let edited = after.iter().find(|i| i.key == first.key).unwrap();
        assert_eq!(edited.action, "新的修正：retry with a backoff");
        assert_eq!(edited.expire_at, first.expire_at, "the TTL is kept");

        // prune: the entry a reset left goes for good, recorded irreversible
        ops::reset(env, "tui-alice", ResetMode::All, &ui).unwrap();
        let entries = journal::trash_entries(env).unwrap();
        assert_eq!(entries.len(), 1);
        let done = journal::prune(env, &entries[0].name, &ui).unwrap();
        assert!(!done.failed, "{:?}", done.lines);
        assert!(journal::trash_entries(env).unwrap().is_empty());
        let log = journal::oplog_rows(env).unwrap();
        assert_eq!(log[0].op.command, "trash prune");
        assert!(log[0].op.irreversible && log[0].why_not.is_some());
    }
}

/// A closed terminal (a window shut, an ssh connection lost) ends the
/// view: crossterm reads end-of-file forever once its terminal is gone,
/// so without the watchdog the process stayed, spinning, until killed.
#[test]
fn the_view_ends_when_its_terminal_goes_away() {
    let root = fixture_copy();
    let r = root.path();
    let t = Tmux::start(&view_line(r, ""));
    t.wait_for("sessions 3/3");
    let needle = format!("--root {} view", r.display());
    let running = || {
        std::process::Command::new("pgrep")
            .args(["-f", "--", &needle])
            .output()
            .unwrap()
            .status
            .success()
    };
    assert!(running(), "the view is not running");
    assert!(t.cmd(&["kill-server"]).status().unwrap().success());
    let start = Instant::now();
    while running() {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "the view outlived its terminal"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}
