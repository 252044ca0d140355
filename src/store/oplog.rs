//! The operation log `<root>/.sessionctl/oplog.jsonl`: one record per
//! write, so every write can be listed (`log`) and reversed (`undo`).
//!
//! An operation is written as lines that a reader folds by id:
//! 1. `{"id",…,"done":false}`: the complete record of what is about to
//!    run, appended and fsynced before the first change;
//! 2. `{"id","session":{…}}`: after each session's change, what changed
//!    and where its previous state was kept;
//! 3. `{"id","done":true}`: when it finished.
//!
//! Each line is one O_APPEND write, so concurrent runs never interleave.
//! A crash leaves no record, or one with `done:false` (that `check`
//! reports and `undo` accepts); a torn last line is skipped.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::store::layout::DataRoot;
use crate::store::{atomic, files};

/// What one session went through, and where its previous state is.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Change {
    pub session: String,
    /// `reset`, `remove`, `restore`, …
    pub change: String,
    /// The bundle holding the previous state, relative to the root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<String>,
}

/// One operation, folded from its lines.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Op {
    pub id: String,
    pub time: String,
    pub argv: Vec<String>,
    pub user: String,
    /// `tty` or `cron` (no terminal on stdin/stdout and no TERM).
    pub via: String,
    pub command: String,
    /// The operation this one undoes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<String>,
    /// It deletes data for good (`trash prune`): `undo` refuses it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub irreversible: bool,
    #[serde(default)]
    pub done: bool,
    #[serde(default)]
    pub sessions: Vec<Change>,
    /// Set by the reader: the undo that reversed this operation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undone_by: Option<String>,
}

#[derive(Deserialize)]
struct Line {
    id: String,
    #[serde(default)]
    time: Option<String>,
    #[serde(default)]
    done: Option<bool>,
    #[serde(default)]
    session: Option<Change>,
}

/// The log as read: operations oldest first.
#[derive(Debug, Default)]
pub struct Log {
    pub ops: Vec<Op>,
    /// The last line has no '\n' and is not a record (a torn write).
    pub torn_tail: bool,
    /// Lines that are not records, besides a torn tail.
    pub malformed: u64,
}

impl Log {
    pub fn get(&self, id: &str) -> Option<&Op> {
        self.ops.iter().find(|o| o.id == id)
    }
}

pub fn path(root: &DataRoot) -> PathBuf {
    root.tool_dir().join("oplog.jsonl")
}

/// Read and fold the log; a missing log is empty.
pub fn read(root: &DataRoot) -> Result<Log> {
    let p = path(root);
    let bytes = files::read(root, &p, u64::MAX)?.unwrap_or_default();
    let mut log = Log::default();
    let lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    let last = lines.len().saturating_sub(1);
    for (i, raw) in lines.iter().enumerate() {
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let Ok(line) = serde_json::from_slice::<Line>(raw) else {
            if i == last {
                log.torn_tail = true;
            } else {
                log.malformed += 1;
            }
            continue;
        };
        if line.time.is_some() {
            match serde_json::from_slice::<Op>(raw) {
                Ok(op) => log.ops.push(op),
                Err(_) => log.malformed += 1,
            }
            continue;
        }
        let Some(op) = log.ops.iter_mut().rev().find(|o| o.id == line.id) else {
            log.malformed += 1;
            continue;
        };
        if let Some(c) = line.session {
            op.sessions.push(c);
        }
        if line.done == Some(true) {
            op.done = true;
        }
    }
    // an undo that finished having changed nothing was refused after it
    // began (a lock held, Agenvoy running): it undid nothing
    let undos: Vec<(String, String)> = log
        .ops
        .iter()
        .filter(|o| !o.done || !o.sessions.is_empty())
        .filter_map(|o| o.undoes.clone().map(|u| (u, o.id.clone())))
        .collect();
    for (target, by) in undos {
        if let Some(t) = log.ops.iter_mut().find(|o| o.id == target) {
            t.undone_by = Some(by);
        }
    }
    Ok(log)
}

fn append(root: &DataRoot, value: &serde_json::Value) -> Result<()> {
    let p = path(root);
    atomic::create_dir_all(root, &root.tool_dir())?;
    let opened = files::open(root, &p, files::Mode::Append)?.expect("Append mode creates the file");
    let mut line = Vec::new();
    if torn_tail(&opened)? {
        // a crash left half a line: end it, or this record would be glued
        // to it and lost with it
        line.push(b'\n');
    }
    serde_json::to_writer(&mut line, value).expect("a record serializes");
    line.push(b'\n');
    let mut f = opened.file;
    f.write_all(&line).map_err(|e| Error::write(&p, e))?;
    f.sync_all().map_err(|e| Error::write(&p, e))
}

/// The file does not end with a newline (a write torn by a crash).
fn torn_tail(opened: &files::Opened) -> Result<bool> {
    use std::os::unix::fs::FileExt;
    let len = opened.meta.len();
    if len == 0 {
        return Ok(false);
    }
    let mut last = [0u8; 1];
    opened
        .file
        .read_exact_at(&mut last, len - 1)
        .map_err(|e| Error::read(&opened.path, e))?;
    Ok(last[0] != b'\n')
}

/// A new, sortable id: UTC time to the millisecond, then random hex.
pub fn new_id() -> String {
    let now = chrono::Utc::now();
    let mut r = [0u8; 3];
    getrandom(&mut r);
    format!(
        "{}-{:02x}{:02x}{:02x}",
        now.format("%Y%m%dT%H%M%S%.3fZ"),
        r[0],
        r[1],
        r[2]
    )
}

fn getrandom(buf: &mut [u8]) {
    // SAFETY: buf is valid for writes of buf.len() bytes.
    let n = unsafe { libc::getrandom(buf.as_mut_ptr().cast(), buf.len(), 0) };
    if n != buf.len() as isize {
        let nanos = chrono::Utc::now().timestamp_subsec_nanos() ^ std::process::id();
        for (i, b) in buf.iter_mut().enumerate() {
            *b = (nanos >> (8 * (i % 4))) as u8;
        }
    }
}

/// The operation this process is running, once begun.
struct Current {
    root: DataRoot,
    id: String,
    /// Sessions whose change was recorded.
    noted: Vec<String>,
}

/// What `begin` records besides the process's own facts.
#[derive(Default)]
struct Invocation {
    command: String,
    root: Option<DataRoot>,
    undoes: Option<String>,
    irreversible: bool,
}

static INVOCATION: Mutex<Option<Invocation>> = Mutex::new(None);
static CURRENT: Mutex<Option<Current>> = Mutex::new(None);

/// Say which command this process runs on which root, before it writes
/// anything: the first confirmed write then begins the operation.
pub fn set_command(command: &str, root: &DataRoot) {
    *INVOCATION.lock().unwrap_or_else(|e| e.into_inner()) = Some(Invocation {
        command: command.to_owned(),
        root: Some(root.clone()),
        undoes: None,
        irreversible: false,
    });
}

/// The operation about to begin undoes `id`.
pub fn set_undoes(id: &str) {
    if let Some(i) = INVOCATION
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_mut()
    {
        i.undoes = Some(id.to_owned());
    }
}

/// The operation about to begin deletes data for good: recorded so, and
/// `undo` refuses it.
pub fn set_irreversible() {
    if let Some(i) = INVOCATION
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_mut()
    {
        i.irreversible = true;
    }
}

/// Continue an operation an earlier process began (an interrupted undo):
/// changes are recorded in it and `finish` marks it done.
pub fn resume(root: &DataRoot, id: &str) {
    *CURRENT.lock().unwrap_or_else(|e| e.into_inner()) = Some(Current {
        root: root.clone(),
        id: id.to_owned(),
        noted: Vec::new(),
    });
}

/// Begin the operation of the command set with `set_command`, if any and
/// not begun yet: the write was confirmed and its first change is next.
pub fn begin_confirmed() -> Result<()> {
    let root = INVOCATION
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .and_then(|i| i.root.clone());
    match root {
        Some(root) => begin(&root).map(drop),
        None => Ok(()),
    }
}

/// Start an operation: append its record (`done:false`), fsynced, before
/// the first change. Idempotent within a process: returns the running id.
pub fn begin(root: &DataRoot) -> Result<String> {
    let mut cur = CURRENT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = cur.as_ref().filter(|c| c.root.path() == root.path()) {
        return Ok(c.id.clone());
    }
    let (command, undoes, irreversible) = INVOCATION
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map(|i| (i.command.clone(), i.undoes.clone(), i.irreversible))
        .unwrap_or_default();
    let op = Op {
        id: new_id(),
        time: crate::timefmt::rfc3339(chrono::Utc::now()),
        argv: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        user: std::env::var("USER")
            .or_else(|_| std::env::var("LOGNAME"))
            .unwrap_or_default(),
        via: via().into(),
        command,
        undoes,
        irreversible,
        done: false,
        sessions: Vec::new(),
        undone_by: None,
    };
    append(root, &serde_json::to_value(&op).expect("serializes"))?;
    *cur = Some(Current {
        root: root.clone(),
        id: op.id.clone(),
        noted: Vec::new(),
    });
    Ok(op.id)
}

fn via() -> &'static str {
    use std::io::IsTerminal;
    let tty = std::io::stdin().is_terminal() || std::io::stdout().is_terminal();
    if tty || std::env::var_os("TERM").is_some() {
        "tty"
    } else {
        "cron"
    }
}

/// The id of the operation running, if one has begun.
pub fn current() -> Option<String> {
    CURRENT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map(|c| c.id.clone())
}

/// Record one session's change in the running operation (nothing when no
/// operation has begun: a library caller outside the CLI).
pub fn note(root: &DataRoot, change: Change) -> Result<()> {
    let id = {
        let mut cur = CURRENT.lock().unwrap_or_else(|e| e.into_inner());
        let Some(c) = cur.as_mut() else {
            return Ok(());
        };
        c.noted.push(change.session.clone());
        c.id.clone()
    };
    append(root, &serde_json::json!({ "id": id, "session": change }))
}

/// `note` for a change whose previous state is at `kept` (a path under
/// the root), if anything was kept.
pub fn record(
    root: &DataRoot,
    session: &str,
    change: &str,
    kept: Option<&std::path::Path>,
) -> Result<()> {
    note(
        root,
        Change {
            session: session.to_owned(),
            change: change.to_owned(),
            kept: kept.map(|p| root.relative(p)),
        },
    )
}

/// End the running operation, if one began: the sessions it changed that
/// no engine hook recorded are recorded as changed by `command` with
/// nothing kept (so `undo` refuses them by name rather than skip them),
/// then `done:true`.
pub fn finish(command: &str, changed: &[String]) -> Result<()> {
    let Some(c) = CURRENT.lock().unwrap_or_else(|e| e.into_inner()).take() else {
        return Ok(());
    };
    for s in changed.iter().filter(|s| !c.noted.contains(s)) {
        let change = Change {
            session: s.clone(),
            change: command.to_owned(),
            kept: None,
        };
        append(
            &c.root,
            &serde_json::json!({ "id": c.id, "session": change }),
        )?;
    }
    append(&c.root, &serde_json::json!({ "id": c.id, "done": true }))
}

/// Close every operation a crash left incomplete (not the running one):
/// a `done` line marked `interrupted`. Nothing it kept is touched.
pub fn close_incomplete(root: &DataRoot) -> Result<usize> {
    let running = current();
    let log = read(root)?;
    let open: Vec<&Op> = log
        .ops
        .iter()
        .filter(|o| !o.done && Some(&o.id) != running.as_ref())
        .collect();
    for o in &open {
        append(
            root,
            &serde_json::json!({ "id": o.id, "done": true, "interrupted": true }),
        )?;
    }
    Ok(open.len())
}

/// The folder of a pre-image of `kind` for this operation and session.
pub fn preimage_dir(root: &DataRoot, op: &str, session: &str, kind: &str) -> PathBuf {
    let name = crate::store::layout::name_part(session, 200);
    root.tool_dir()
        .join("ops")
        .join(op)
        .join(format!("{name}.{kind}"))
}
