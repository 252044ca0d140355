//! Lines that outgrow ToriiDB's limit once Agenvoy's exit rewrites the log,
//! odd files (FIFOs) where the configuration points, daemon replies that
//! never end or carry terminal escapes, and restores that write mirror
//! files in bulk.

use crate::common::*;

use serde_json::{json, Value};

/// The length of `line` once ToriiDB rewrites it: Go's `json.Marshal` of
/// the record (ts, cmd, key, value, expire_at, vector), which escapes `<`,
/// `>`, `&`, U+2028, U+2029 and control characters as `\u00XX`. Written
/// here from Go's rules, apart from the code under test.
fn go_rewritten_len(line: &[u8]) -> usize {
    fn quoted(s: &str) -> usize {
        2 + s
            .chars()
            .map(|c| match c {
                '"' | '\\' | '\n' | '\r' | '\t' => 2,
                '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => 6,
                c if (c as u32) < 0x20 => 6,
                c => c.len_utf8(),
            })
            .sum::<usize>()
    }
    let v: Value = serde_json::from_slice(line).unwrap();
    let mut n = format!("{{\"ts\":{},\"cmd\":\"SET\",\"key\":}}", v["ts"]).len();
    n += quoted(v["key"].as_str().unwrap());
    if let Some(s) = v["value"].as_str().filter(|s| !s.is_empty()) {
        n += ",\"value\":".len() + quoted(s);
    }
    if let Some(x) = v.get("expire_at") {
        n += ",\"expire_at\":".len() + x.to_string().len();
    }
    if let Some(s) = v["vector"].as_str().filter(|s| !s.is_empty()) {
        n += ",\"vector\":".len() + quoted(s);
    }
    n
}

/// Every line of every log stays within 65,535 bytes after ToriiDB's
/// rewrite too.
fn logs_survive_a_rewrite(root: &std::path::Path) {
    for i in 0..16 {
        let Ok(bytes) = std::fs::read(root.join(format!(".store/db_{i}/record.aof"))) else {
            continue;
        };
        for line in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let len = go_rewritten_len(line);
            assert!(len <= 65_535, "db_{i}: a line becomes {len} bytes");
        }
    }
}

const ERROR_KEY: &str = "fetch_page:1764547200111111111";

#[test]
fn errors_edit_refuses_a_record_that_toriidbs_rewrite_would_make_too_long() {
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    // 11,000 `<`: an 11 KB line as we write it, 66 KB once Go escapes them
    let action = "<".repeat(11_000);
    let out = sessionctl(r)
        .args(["errors", "edit", "3f1c", "--action", &action, "--yes"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(65), "{err}");
    assert!(err.contains(ERROR_KEY), "names the key: {err}");
    let len: usize = err
        .split_once("-byte line")
        .and_then(|(head, _)| head.rsplit(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("names the measured length: {err}"));
    assert!((66_000..67_000).contains(&len), "{len}");
    assert_eq!(before, snapshot(r), "nothing written");

    // mixed text the way a real edit grows: within the limit after the
    // rewrite, it is written, and every line still fits once rewritten
    let action = "a <b> & c \u{2028} ".repeat(1_500);
    let out = sessionctl(r)
        .args(["errors", "edit", "3f1c", "--action", &action, "--yes"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    logs_survive_a_rewrite(r);
}

fn check(root: &std::path::Path, extra: &[&str]) -> (Option<i32>, Value) {
    let out = sessionctl(root)
        .args(["check", "--json"])
        .args(extra)
        .output()
        .unwrap();
    (out.status.code(), json_of(&out))
}

#[test]
fn check_reports_records_that_would_outgrow_the_limit_and_repair_sets_them_aside() {
    let root = fixture_copy();
    let r = root.path();
    let value = json!({"id": "77aa", "timestamp": 1764600000, "tool_name": "fetch_page",
        "keywords": ["fetch_page"], "symptom": "<".repeat(11_000), "action": "x"})
    .to_string();
    let line = json!({"ts": 1796220417, "cmd": "SET", "key": "fetch_page:1764600000000000077",
        "value": value, "expire_at": 4102444800i64})
    .to_string();
    assert!(line.len() < 12_000 && go_rewritten_len(line.as_bytes()) > 65_535);
    let aof = r.join(".store/db_2/record.aof");
    let mut log = std::fs::read(&aof).unwrap();
    log.extend_from_slice(line.as_bytes());
    log.push(b'\n');
    std::fs::write(&aof, &log).unwrap();

    let (code, v) = check(r, &[]);
    assert_eq!(code, Some(1), "{v}");
    let found: Vec<&Value> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "torii-outgrows-rewrite")
        .collect();
    assert_eq!(found.len(), 1, "{v}");
    let detail = found[0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("fetch_page:1764600000000000077"),
        "{detail}"
    );
    assert!(
        detail.contains(&go_rewritten_len(line.as_bytes()).to_string()),
        "{detail}"
    );
    assert_eq!(found[0]["repairable"], true);

    let (_, v) = check(r, &["--repair", "--yes"]);
    assert!(
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["kind"] == "torii-outgrows-rewrite" && f["repaired"] == true),
        "{v}"
    );
    logs_survive_a_rewrite(r);
    let (code, v) = check(r, &[]);
    assert_eq!(code, Some(0), "{v}");
    // the record is kept beside the log, not lost
    let kept = std::fs::read_dir(r.join(".store/db_2"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".oversize"))
        .expect("set aside");
    assert!(std::fs::read_to_string(kept).unwrap().contains("77aa"));
}

fn mkfifo(path: &std::path::Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// Run with a deadline: a command that hangs on a FIFO fails the test
/// (killed after 20 s) instead of hanging it.
fn run_bounded(cmd: &mut assert_cmd::Command) -> std::process::Output {
    cmd.timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap()
}

#[test]
fn a_fifo_as_the_run_log_is_refused_at_once_and_nothing_is_done() {
    let root = fixture_copy();
    let r = root.path();
    let fifo = r.join("no-home/runs.fifo");
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    mkfifo(&fifo);
    let before = snapshot(r);
    for how in ["flag", "env", "config"] {
        let mut cmd = sessionctl(r);
        match how {
            "flag" => {
                cmd.arg("--log").arg(&fifo);
            }
            "env" => {
                cmd.env("SESSIONCTL_LOG", &fifo);
            }
            _ => {
                let dir = r.join("no-home/.config/sessionctl");
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(
                    dir.join("config.toml"),
                    format!("log = {:?}\n", fifo.display().to_string()),
                )
                .unwrap();
            }
        }
        let started = std::time::Instant::now();
        let out = run_bounded(cmd.args(["compact", "tui-alice", "--yes"]));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(65), "{how}: {err}");
        assert!(
            err.contains("runs.fifo") && err.contains("FIFO"),
            "{how}: {err}"
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "{how}"
        );
        let mut now = snapshot(r);
        now.retain(|p, _| !p.starts_with("no-home/.config"));
        assert_eq!(before, now, "{how}: refused before doing anything");
    }
}

#[test]
fn a_fifo_as_the_config_file_is_refused_at_once() {
    let root = fixture_copy();
    let r = root.path();
    let dir = r.join("no-home/.config/sessionctl");
    std::fs::create_dir_all(&dir).unwrap();
    mkfifo(&dir.join("config.toml"));
    for json in [false, true] {
        let mut cmd = sessionctl(r);
        cmd.args(["sessions", "list"]);
        if json {
            cmd.arg("--json");
        }
        let out = run_bounded(&mut cmd);
        assert_eq!(
            out.status.code(),
            Some(65),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let said = if json {
            json_of(&out)["errors"][0]["message"]
                .as_str()
                .unwrap()
                .to_owned()
        } else {
            String::from_utf8_lossy(&out.stderr).into_owned()
        };
        assert!(
            said.contains("config.toml") && said.contains("FIFO"),
            "{said}"
        );
    }
    // a config file kept as a link (dotfiles) is still read
    std::fs::remove_file(dir.join("config.toml")).unwrap();
    std::fs::write(r.join("no-home/real.toml"), "keep_last = 3\n").unwrap();
    std::os::unix::fs::symlink(r.join("no-home/real.toml"), dir.join("config.toml")).unwrap();
    let out = run_bounded(sessionctl(r).args(["config", "show", "--json"]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("keep_last"));
}

/// A daemon whose error carries terminal escapes and goes on for pages.
#[test]
fn daemon_error_text_is_bounded_and_its_control_characters_escaped() {
    let root = fixture_copy();
    let r = root.path();
    let hostile = format!(
        "\u{1b}[2J\u{1b}]0;pwned\u{7}\u{9b}31m\r\nfake prompt $ {}",
        "x".repeat(5_000)
    );
    let body = json!({ "error": hostile }).to_string();
    let server = TestServer::start(move |_, _| Reply::json(500, body.clone()));
    for json_out in [false, true] {
        let mut cmd = sessionctl(r);
        cmd.env("AGENVOY_DAEMON_URL", &server.url)
            .args(["errors", "list", "--via", "daemon"]);
        if json_out {
            cmd.arg("--json");
        }
        let out = run_bounded(&mut cmd);
        assert_eq!(
            out.status.code(),
            Some(69),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let said = if json_out {
            json_of(&out)["errors"][0]["message"]
                .as_str()
                .unwrap()
                .to_owned()
        } else {
            String::from_utf8(out.stderr.clone()).unwrap()
        };
        let controls: Vec<char> = said
            .chars()
            .filter(|c| c.is_control() && *c != '\n')
            .collect();
        assert!(
            controls.is_empty(),
            "raw control characters reach the terminal: {controls:?}"
        );
        assert!(
            said.contains("\\u{1b}[2J") && said.contains("fake prompt"),
            "{said}"
        );
        assert!(
            said.chars().count() < 600,
            "bounded: {} chars",
            said.chars().count()
        );
    }
}

/// A peak-RSS watcher: the high-water mark of a running process, read
/// from /proc while it runs.
fn run_watching_rss(
    mut cmd: std::process::Command,
    kill_above_kib: u64,
) -> (Option<i32>, String, u64) {
    use std::io::Read;
    let mut child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    let started = std::time::Instant::now();
    let code = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            if let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kib);
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if peak > kill_above_kib || started.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (code, err, peak)
}

#[test]
fn an_endless_daemon_reply_is_cut_off_with_bounded_memory() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let root = fixture_copy();
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let url = format!("http://{}", server.server_addr().to_ip().unwrap());
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let serving = std::thread::spawn(move || {
        while !stopped.load(Ordering::SeqCst) {
            let Ok(Some(req)) = server.recv_timeout(std::time::Duration::from_millis(50)) else {
                continue;
            };
            // no length: tiny_http sends it chunked, and it never ends
            let endless = tiny_http::Response::new(
                tiny_http::StatusCode(200),
                vec![tiny_http::Header::from_bytes("Content-Type", "application/json").unwrap()],
                std::io::repeat(b' '),
                None,
                None,
            );
            let _ = req.respond(endless);
        }
    });
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("sessionctl"));
    cmd.env_clear()
        .env("HOME", root.path().join("no-home"))
        .env("AGENVOY_DAEMON_URL", &url)
        .arg("--root")
        .arg(root.path())
        .args(["errors", "list", "--via", "daemon", "--timeout", "60"]);
    let (code, err, peak_kib) = run_watching_rss(cmd, 1 << 20);
    stop.store(true, Ordering::SeqCst);
    serving.join().unwrap();
    eprintln!("endless reply: exit {code:?}, peak RSS {peak_kib} KiB");
    assert_eq!(code, Some(69), "peak {peak_kib} KiB: {err}");
    assert!(err.contains("larger than 32 MiB"), "{err}");
    // the cap (32 MiB) and the process itself, nothing like the stream
    assert!(peak_kib < 96 << 10, "peak RSS {peak_kib} KiB");
}

/// The binary as `sessionctl(root)` runs it, as a std Command (for the
/// RSS watcher).
fn sessionctl_std(root: &std::path::Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("sessionctl"));
    cmd.env_clear()
        .env("TZ", "UTC")
        .env("HOME", root.join("no-home"))
        .arg("--root")
        .arg(root);
    cmd
}

#[test]
fn export_and_import_stream_a_multi_gb_file_in_bounded_memory() {
    let root = fixture_copy();
    let r = root.path();
    // 2 GiB and a bit, sparse (no disk), with data at both ends
    let size = (2u64 << 30) + 4097;
    let big = r.join("sessions/tui-alice/big.bin");
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::File::create(&big).unwrap();
        f.write_all(b"head").unwrap();
        f.seek(SeekFrom::Start(size - 4)).unwrap();
        f.write_all(b"tail").unwrap();
    }
    let out_dir = tempfile::tempdir().unwrap();
    let mut export = sessionctl_std(r);
    export
        .args(["export", "tui-alice", "-o"])
        .arg(out_dir.path());
    let (code, err, export_kib) = run_watching_rss(export, 1 << 20);
    eprintln!("export of a {size}-byte file: peak RSS {export_kib} KiB");
    assert_eq!(code, Some(0), "{err}");
    let mut import = sessionctl_std(r);
    import
        .arg("import")
        .arg(out_dir.path().join("tui-alice"))
        .args(["--as", "tui-copy", "--yes"]);
    let (code, err, import_kib) = run_watching_rss(import, 1 << 20);
    eprintln!("import of it: peak RSS {import_kib} KiB");
    assert_eq!(code, Some(0), "{err}");
    for (what, kib) in [("export", export_kib), ("import", import_kib)] {
        assert!(
            kib < 128 << 10,
            "{what} peak RSS {kib} KiB for a 2 GiB file"
        );
    }
    // the copy is the file, byte for byte where it holds data
    let copy = r.join("sessions/tui-copy/big.bin");
    assert_eq!(std::fs::metadata(&copy).unwrap().len(), size);
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(&copy).unwrap();
    let mut buf = [0u8; 8];
    f.read_exact(&mut buf).unwrap();
    assert_eq!(&buf, b"head\0\0\0\0");
    f.seek(SeekFrom::Start(size - 8)).unwrap();
    f.read_exact(&mut buf).unwrap();
    assert_eq!(&buf, b"\0\0\0\0tail");
}
