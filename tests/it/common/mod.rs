//! Helpers shared by the integration tests: a private copy of the fixture
//! root, the binary with a clean environment, and readers of every tier.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use sessionctl::store::torii::Db;

/// The shared fixture root (../shared/fixtures, as the real programs wrote
/// it); on a clone without it, `demo/`, which is a byte-identical copy.
pub fn fixture_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = manifest.join("../shared/fixtures/agenvoy-root");
    if shared.exists() {
        shared
    } else {
        manifest.join("demo")
    }
}

/// A writable copy of the fixture root (the fixture itself is never edited).
/// Only what the real programs wrote is copied: `.sessionctl/` at the top is
/// sessionctl's own state, which a run on `demo/` (the README's first
/// command) leaves there, git-ignored, and which no test may inherit.
pub fn fixture_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_fixture(dir.path());
    dir
}

/// Copy the fixture root into `to` (see `fixture_copy`).
pub fn copy_fixture(to: &Path) {
    let from = fixture_root();
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(&from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() == ".sessionctl" {
            continue;
        }
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &dest);
        } else {
            copy_file(&entry.path(), &dest);
        }
    }
}

pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &dest);
        } else {
            copy_file(&entry.path(), &dest);
        }
    }
}

/// A writable copy of one file (the shared fixtures are read-only).
fn copy_file(from: &Path, to: &Path) {
    std::fs::copy(from, to).unwrap();
    let mut perms = std::fs::metadata(to).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(to, perms).unwrap();
}

/// The binary, pointed at `root`, in UTC (the fixture's local times are UTC).
pub fn sessionctl(root: &Path) -> Command {
    let mut cmd = Command::cargo_bin("sessionctl").unwrap();
    cmd.env_clear()
        .env("TZ", "UTC")
        .env("HOME", root.join("no-home"))
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .arg("--root")
        .arg(root);
    cmd
}

/// What a run printed on stderr, for assertions and failure messages.
pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn json_of(output: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// Every file under `root` (our own `.sessionctl/` lock folder excepted),
/// with its bytes: equal snapshots mean nothing was modified.
pub fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let entry = entry.unwrap();
        let path = entry.path();
        let rel = path.strip_prefix(root).unwrap().to_path_buf();
        if rel.starts_with(".sessionctl") {
            continue;
        }
        let ft = entry.file_type().unwrap();
        if ft.is_symlink() {
            let target = std::fs::read_link(&path).unwrap();
            out.insert(rel, target.as_os_str().as_encoded_bytes().to_vec());
        } else if ft.is_dir() {
            out.insert(rel, b"<dir>".to_vec());
            walk(root, &path, out);
        } else if !ft.is_file() {
            // a FIFO or device: reading it could block
            out.insert(rel, b"<special>".to_vec());
        } else {
            out.insert(rel, std::fs::read(&path).unwrap());
        }
    }
}

pub fn db(root: &Path, index: u8) -> Db {
    Db::load(&root.join(".store"), index).unwrap()
}

pub fn db1_keys(root: &Path) -> Vec<String> {
    db(root, 1).keys("*", sessionctl::store::torii::now_unix())
}

pub fn sqlite(root: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(root.join(".store/history.db")).unwrap()
}

pub fn archive_count(root: &Path, session: &str) -> i64 {
    sqlite(root)
        .query_row(
            "SELECT COUNT(*) FROM messages WHERE session_id = ?1",
            [session],
            |r| r.get(0),
        )
        .unwrap()
}

pub fn meta_count(root: &Path, session: &str) -> i64 {
    sqlite(root)
        .query_row(
            "SELECT COUNT(*) FROM session_meta WHERE session_id = ?1",
            [session],
            |r| r.get(0),
        )
        .unwrap()
}

pub fn fts_integrity_ok(root: &Path) {
    sqlite(root)
        .execute(
            "INSERT INTO messages_fts5(messages_fts5, rank) VALUES('integrity-check', 1)",
            [],
        )
        .expect("FTS5 integrity-check");
}

/// Every line of every ToriiDB log is one ToriiDB can read (≤ 65,535 bytes).
pub fn logs_are_toriidb_readable(root: &Path) {
    for i in 0..16 {
        let p = root.join(format!(".store/db_{i}/record.aof"));
        if let Ok(bytes) = std::fs::read(&p) {
            for (n, line) in bytes.split(|b| *b == b'\n').enumerate() {
                assert!(
                    line.len() <= 65_535,
                    "{}: line {} is {} bytes",
                    p.display(),
                    n + 1,
                    line.len()
                );
            }
        }
    }
}

/// A tmpfs mounted at a fresh folder (root only); unmounted on drop.
pub struct Tmpfs {
    pub dir: tempfile::TempDir,
}

impl Tmpfs {
    pub fn mount(size: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().unwrap();
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Tmpfs { dir })
    }

    pub fn remount_read_only(&self) {
        let ok = std::process::Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(self.dir.path())
            .status()
            .unwrap()
            .success();
        assert!(ok, "remount read-only failed");
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg(self.dir.path())
            .status();
    }
}

/// A real HTTP server on 127.0.0.1 for the tests that fetch. Each request
/// is answered by `reply`; every request is recorded.
pub struct TestServer {
    pub url: String,
    pub requests: std::sync::Arc<std::sync::Mutex<Vec<SeenRequest>>>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    handle: Option<std::thread::JoinHandle<()>>,
}

#[derive(Debug, Clone)]
pub struct SeenRequest {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl SeenRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

pub struct Reply {
    pub status: u16,
    pub body: Vec<u8>,
    pub delay: std::time::Duration,
    pub headers: Vec<(String, String)>,
}

impl Reply {
    pub fn json(status: u16, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            body: body.into(),
            delay: std::time::Duration::ZERO,
            headers: vec![("Content-Type".into(), "application/json".into())],
        }
    }
}

impl TestServer {
    pub fn start(reply: impl Fn(&SeenRequest, usize) -> Reply + Send + 'static) -> TestServer {
        use std::sync::atomic::Ordering;
        let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
        let url = format!("http://{}", server.server_addr().to_ip().unwrap());
        let requests = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (seen, stopped) = (requests.clone(), stop.clone());
        let handle = std::thread::spawn(move || {
            while !stopped.load(Ordering::SeqCst) {
                let Ok(Some(mut req)) = server.recv_timeout(std::time::Duration::from_millis(50))
                else {
                    continue;
                };
                let mut body = String::new();
                let _ = req.as_reader().read_to_string(&mut body);
                let seen_req = SeenRequest {
                    method: req.method().to_string(),
                    path: req.url().to_string(),
                    headers: req
                        .headers()
                        .iter()
                        .map(|h| (h.field.to_string(), h.value.to_string()))
                        .collect(),
                    body,
                };
                let n = {
                    let mut all = seen.lock().unwrap();
                    all.push(seen_req.clone());
                    all.len()
                };
                let r = reply(&seen_req, n);
                if !r.delay.is_zero() {
                    std::thread::sleep(r.delay);
                }
                let mut resp = tiny_http::Response::from_data(r.body).with_status_code(r.status);
                for (k, v) in r.headers {
                    resp.add_header(
                        tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).unwrap(),
                    );
                }
                let _ = req.respond(resp);
            }
        });
        TestServer {
            url,
            requests,
            stop,
            handle: Some(handle),
        }
    }

    pub fn hits(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// The `results` of a command's JSON envelope (checking its shape).
pub fn results(output: &std::process::Output) -> Vec<serde_json::Value> {
    let v = json_of(output);
    assert_eq!(v["schema"], 1, "not an envelope: {v}");
    assert!(v["errors"].is_array(), "{v}");
    v["results"]
        .as_array()
        .unwrap_or_else(|| panic!("no results array: {v}"))
        .clone()
}

/// The one result of a single-session command's envelope.
pub fn one(output: &std::process::Output) -> serde_json::Value {
    let mut r = results(output);
    assert_eq!(
        r.len(),
        1,
        "expected one result: {r:?}\nstderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    r.remove(0)
}

/// A live process that sessionctl must take for Agenvoy: a copy of `sleep`
/// named `name` (an executable whose name starts with "agenvoy"), started
/// in `cwd` with `HOME=home`. Killed when dropped.
pub struct FakeProcess {
    child: std::process::Child,
    _bin: tempfile::TempDir,
}

impl FakeProcess {
    pub fn spawn(name: &str, cwd: &Path, home: &Path) -> FakeProcess {
        Self::spawn_with(name, cwd, home, std::process::Stdio::null())
    }

    /// Like `spawn`, with `stdin` as its fd 0 (e.g. a file of the root, to
    /// make it hold that file open).
    pub fn spawn_with(
        name: &str,
        cwd: &Path,
        home: &Path,
        stdin: impl Into<std::process::Stdio>,
    ) -> FakeProcess {
        let bin = tempfile::tempdir().unwrap();
        let exe = bin.path().join(name);
        std::fs::copy(which("sleep"), &exe).unwrap();
        let mut stdin = Some(stdin.into());
        // A copy just written can be "text file busy" for an instant while
        // another test thread forks with it open: retry.
        for attempt in 0.. {
            let spawned = std::process::Command::new(&exe)
                .arg("60")
                .current_dir(cwd)
                .env_clear()
                .env("HOME", home)
                .stdin(stdin.take().unwrap_or(std::process::Stdio::null()))
                .spawn();
            match spawned {
                Ok(child) => return FakeProcess { child, _bin: bin },
                Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && attempt < 50 => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(e) => panic!("spawning {}: {e}", exe.display()),
            }
        }
        unreachable!()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Record this process as the root's daemon, as Agenvoy does.
    pub fn write_runtime_uid(&self, root: &Path) {
        std::fs::write(
            root.join("runtime.uid"),
            format!(r#"{{"uid":"u","pid":{},"started_at":1}}"#, self.pid()),
        )
        .unwrap();
    }
}

impl Drop for FakeProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn which(name: &str) -> PathBuf {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .chain([PathBuf::from("/bin"), PathBuf::from("/usr/bin")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{name} not found"))
}

/// Append `records` (history.json-shaped JSON) to the session's archive
/// rows, as Agenvoy does with every record it appends to history.json.
pub fn archive_records(root: &Path, session: &str, records: &[serde_json::Value]) {
    let db = sqlite(root);
    for r in records {
        db.execute(
            "INSERT INTO messages (session_id, send_at, role, content, sender) VALUES (?1, ?2, ?3, ?4, ?5)",
            rusqlite::params![
                session,
                r["sendAt"].as_i64().unwrap_or(0),
                r["role"].as_str().unwrap(),
                r["content"].as_str().unwrap(),
                r["sender"].as_str().unwrap_or("")
            ],
        )
        .unwrap();
    }
}

/// `SESSIONCTL_NOW` an hour from now: what was just written is then an hour
/// old (for age cut-offs such as `trash prune --older-than`), with no wait.
pub fn an_hour_from_now() -> String {
    (chrono::Utc::now() + chrono::Duration::hours(1)).to_rfc3339()
}
