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
//! reports and `undo` accepts); a torn last line is skipped. So does an
//! operation that could not finish what it began (a full disk midway): a
//! rerun, or `undo`, completes it.
//!
//! An operation is written through a `Journal`, the explicit handle the
//! batch runner creates and passes to everything that writes for it.

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
    /// An import's: the digest of the bundle it brings the session from
    /// (`bundle::load_with_digest`), recorded before its first write, so
    /// that only the same bundle may continue an interrupted import.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle: Option<String>,
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
    /// Set by the reader: a kill stopped it and its record was closed
    /// afterwards (`check --repair`, or a rerun that completed it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
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
    #[serde(default)]
    interrupted: bool,
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
            op.interrupted |= line.interrupted;
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
    crate::durable_step();
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
    let now = crate::timefmt::now();
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
        let nanos = crate::timefmt::now().timestamp_subsec_nanos() ^ std::process::id();
        for (i, b) in buf.iter_mut().enumerate() {
            *b = (nanos >> (8 * (i % 4))) as u8;
        }
    }
}

/// What an operation is, as its record says it.
#[derive(Debug, Clone, Default)]
pub struct Intent {
    /// `reset`, `trash restore`, … (the command words).
    pub command: String,
    /// The operation this one undoes.
    pub undoes: Option<String>,
    /// It deletes data for good (`trash prune`).
    pub irreversible: bool,
    /// Continue this earlier, interrupted operation (its record is in the
    /// log already): changes are recorded in it and `finish` ends it.
    pub resume: Option<String>,
}

impl Intent {
    pub fn of(command: &str) -> Intent {
        Intent {
            command: command.to_owned(),
            ..Intent::default()
        }
    }
}

/// The handle of one operation in the log, passed to whatever writes on
/// its behalf (the batch runner creates it and hands it to every apply
/// through `Stores`). Nothing is written until `begin`, which the runner
/// calls only once the write was confirmed, the locks are held and a
/// session has work: an operation refused or declined leaves no record.
///
/// While the operation runs, its process holds `locks/op-<id>.lock`, so
/// another run can tell an operation in progress (retry later, 75) from
/// one a crash left unfinished (`done:false` and nobody holding it).
pub struct Journal {
    /// `None`: a library caller outside any operation; nothing is recorded.
    root: Option<DataRoot>,
    intent: Intent,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    id: Option<String>,
    /// Sessions whose change was recorded.
    noted: Vec<String>,
    lock: Option<crate::store::lock::Lock>,
    finished: bool,
}

impl Journal {
    pub fn new(root: &DataRoot, intent: Intent) -> Journal {
        Journal {
            root: Some(root.clone()),
            intent,
            state: Mutex::new(State::default()),
        }
    }

    /// A journal that records nothing (library callers and tests that
    /// drive an engine function outside any operation).
    pub fn off() -> Journal {
        Journal {
            root: None,
            intent: Intent::default(),
            state: Mutex::new(State::default()),
        }
    }

    /// The journal of no operation, shared (for callers that have none).
    pub fn none() -> &'static Journal {
        static NONE: std::sync::LazyLock<Journal> = std::sync::LazyLock::new(Journal::off);
        &NONE
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Start the operation: take its lock and append its record
    /// (`done:false`), fsynced, before the first change; for a resumed one,
    /// only the lock. Idempotent: returns the running id (`None` when off).
    pub fn begin(&self) -> Result<Option<String>> {
        let Some(root) = &self.root else {
            return Ok(None);
        };
        let mut st = self.state();
        if let Some(id) = &st.id {
            return Ok(Some(id.clone()));
        }
        if let Some(id) = &self.intent.resume {
            st.lock = Some(crate::store::lock::operation(root, id)?);
            st.id = Some(id.clone());
            return Ok(st.id.clone());
        }
        let op = Op {
            id: new_id(),
            time: crate::timefmt::rfc3339(crate::timefmt::now()),
            argv: std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            user: std::env::var("USER")
                .or_else(|_| std::env::var("LOGNAME"))
                .unwrap_or_default(),
            via: via().into(),
            command: self.intent.command.clone(),
            undoes: self.intent.undoes.clone(),
            irreversible: self.intent.irreversible,
            done: false,
            sessions: Vec::new(),
            undone_by: None,
            interrupted: false,
        };
        st.lock = Some(crate::store::lock::operation(root, &op.id)?);
        append(root, &serde_json::to_value(&op).expect("serializes"))?;
        st.id = Some(op.id.clone());
        Ok(Some(op.id))
    }

    /// The id of the operation, once begun.
    pub fn id(&self) -> Option<String> {
        self.state().id.clone()
    }

    /// Record one session's change (the operation begins first, if it has
    /// not: a change is about to be made or was just made).
    pub fn note(&self, change: Change) -> Result<()> {
        let Some(id) = self.begin()? else {
            return Ok(());
        };
        let root = self.root.as_ref().expect("begun, so on");
        // one line at a time: parallel sessions of a batch note here too
        let mut st = self.state();
        append(root, &serde_json::json!({ "id": id, "session": change }))?;
        st.noted.push(change.session);
        Ok(())
    }

    /// `note` for a change whose previous state is at `kept` (a path under
    /// the root), if anything was kept.
    pub fn record(
        &self,
        session: &str,
        change: &str,
        kept: Option<&std::path::Path>,
    ) -> Result<()> {
        let kept = match (&self.root, kept) {
            (Some(root), Some(p)) => Some(root.relative(p)),
            _ => None,
        };
        self.note(Change {
            session: session.to_owned(),
            change: change.to_owned(),
            kept,
            bundle: None,
        })
    }

    /// Close `other`, an operation a crash left `done:false` whose work
    /// this one completes (it took over what `other` kept, or it is the
    /// same command run again): a `done` line marked `interrupted` and
    /// naming this operation. Not while `other` runs, nor once it is
    /// closed or being undone. Returns whether it closed it.
    pub fn close_completed(&self, other: &str) -> Result<bool> {
        let Some(root) = &self.root else {
            return Ok(false);
        };
        let by = self.id();
        if by.as_deref() == Some(other) {
            return Ok(false);
        }
        let log = read(root)?;
        let Some(o) = log.get(other) else {
            return Ok(false);
        };
        if o.done || o.undone_by.is_some() || is_running(root, other)? {
            return Ok(false);
        }
        append(
            root,
            &serde_json::json!({ "id": other, "done": true, "interrupted": true, "completed_by": by }),
        )?;
        Ok(true)
    }

    /// Whether a change of any of `sessions` was recorded in this run.
    pub fn noted_any(&self, sessions: &[String]) -> bool {
        let st = self.state();
        st.noted.iter().any(|n| sessions.contains(n))
    }

    /// Whether this change (session, kind, kept path) is recorded in the
    /// operation already: a resumed run must not record it twice.
    pub fn has(&self, change: &str, kept: &str) -> Result<bool> {
        let (Some(root), Some(id)) = (&self.root, self.id()) else {
            return Ok(false);
        };
        Ok(read(root)?.get(&id).is_some_and(|o| {
            o.sessions
                .iter()
                .any(|c| c.change == change && c.kept.as_deref() == Some(kept))
        }))
    }

    /// End the operation, if it began. `changed`: sessions it changed that
    /// no apply recorded are recorded as changed by the command with
    /// nothing kept (so `undo` refuses them by name rather than skip them).
    /// `complete`: every session it began to change was finished; when not
    /// (a full disk, an I/O error midway) the record stays `done:false`,
    /// which `check` reports and a rerun or `undo` completes.
    pub fn finish(&self, changed: &[String], complete: bool) -> Result<()> {
        let (id, unnoted) = {
            let mut st = self.state();
            if st.finished {
                return Ok(());
            }
            st.finished = true;
            let Some(id) = st.id.clone() else {
                return Ok(());
            };
            let unnoted: Vec<String> = changed
                .iter()
                .filter(|s| !st.noted.contains(s))
                .cloned()
                .collect();
            (id, unnoted)
        };
        let root = self.root.as_ref().expect("begun, so on");
        for s in unnoted {
            let change = Change {
                session: s,
                change: self.intent.command.clone(),
                kept: None,
                bundle: None,
            };
            append(root, &serde_json::json!({ "id": id, "session": change }))?;
        }
        if complete {
            append(root, &serde_json::json!({ "id": id, "done": true }))?;
        }
        if let Some(lock) = self.state().lock.take() {
            lock.unlink()?;
        }
        Ok(())
    }
}

impl Drop for Journal {
    /// An operation left without `finish` (an error returned past the
    /// runner, a panic) stays `done:false`: its lock is released with the
    /// process's descriptor, and the record says it was interrupted.
    fn drop(&mut self) {
        let st = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(lock) = st.lock.take() {
            let _ = lock.unlink();
        }
    }
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

/// Whether operation `id` is being run right now by some process (it
/// holds the operation's lock), rather than interrupted by a crash.
pub fn is_running(root: &DataRoot, id: &str) -> Result<bool> {
    crate::store::lock::is_held(root, &crate::store::lock::operation_file_name(id))
}

/// Undos a kill or a failure interrupted (not done, not running), each
/// with the sessions it is putting back: those of the operation it undoes
/// and its own. Until it completes, another write to one of them would be
/// built on a half-restored session, and the undo's completion would then
/// restore over that write.
pub fn interrupted_undos(root: &DataRoot) -> Result<Vec<(String, Vec<String>)>> {
    let log = read(root)?;
    let mut out = Vec::new();
    for u in log.ops.iter().filter(|o| !o.done && o.undone_by.is_none()) {
        let Some(target) = &u.undoes else { continue };
        if is_running(root, &u.id)? {
            continue;
        }
        let mut sessions: Vec<String> = log
            .get(target)
            .into_iter()
            .flat_map(|t| t.sessions.iter())
            .chain(u.sessions.iter())
            .map(|c| c.session.clone())
            .collect();
        sessions.sort_unstable();
        sessions.dedup();
        out.push((u.id.clone(), sessions));
    }
    Ok(out)
}

/// Close every operation a crash left incomplete (not one running now,
/// nor an interrupted undo, which `undo` completes, nor one in `keep`): a
/// `done` line marked `interrupted`. Nothing it kept is touched.
pub fn close_incomplete(root: &DataRoot, keep: &[String]) -> Result<usize> {
    let log = read(root)?;
    let mut closed = 0;
    for o in log
        .ops
        .iter()
        .filter(|o| !o.done && o.undoes.is_none() && !keep.contains(&o.id))
    {
        if is_running(root, &o.id)? {
            continue;
        }
        append(
            root,
            &serde_json::json!({ "id": o.id, "done": true, "interrupted": true }),
        )?;
        closed += 1;
    }
    Ok(closed)
}

/// The folder of a pre-image of `kind` for this operation and session.
pub fn preimage_dir(root: &DataRoot, op: &str, session: &str, kind: &str) -> PathBuf {
    let name = crate::store::layout::name_part(session, 200);
    root.tool_dir()
        .join("ops")
        .join(op)
        .join(format!("{name}.{kind}"))
}
