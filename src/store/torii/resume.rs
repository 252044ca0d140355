//! Resuming from the snapshot of an earlier replay (see `snapshot`): when
//! a load uses one and keeps it up to date, and the reads that stream it
//! without building the index (a search wants a few lines, a listing
//! counts per session).

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use super::index::Slots;
use super::logfile::LogFile;
use super::replay::{self, Covered};
use super::report::ReplayReport;
use super::{session_of_key, slow_load_for_tests, snapshot, Db, DB_SESSION_HIST, INTERNAL_PREFIX};
use crate::error::Result;
use crate::store::files;
use crate::store::layout::{DataRoot, Last};

/// What `Db::visit_resumed` read the keys from.
struct Resumed {
    path: PathBuf,
    report: ReplayReport,
    log: LogFile,
}

/// What `Db::session_counts_resumed` found: live keys per session, until
/// when that holds (a key expires then), and the report of a replay of the
/// log at `path`.
#[derive(Debug)]
pub struct SessionCounts {
    pub counts: HashMap<String, u64>,
    pub valid_until: Option<i64>,
    pub path: PathBuf,
    pub report: ReplayReport,
}

/// What `Db::live_lines_resumed` found: where the wanted live keys' last
/// SET lines are, to be read back with `for_each_line`, and the report of
/// a replay of the log at `path`.
#[derive(Debug)]
pub struct LiveLines {
    pub path: PathBuf,
    pub report: ReplayReport,
    log: LogFile,
    pub lines: Vec<LiveLine>,
}

/// A live key's last SET line and the sort key `pick` gave it. Ordered by
/// sort key, then the line's place in the log backwards: a max-heap of
/// them gives the greatest sort key first, and equal ones in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LiveLine {
    pub sort: i64,
    pub offset: u64,
    pub len: u32,
}

impl Ord for LiveLine {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.sort
            .cmp(&other.sort)
            .then(other.offset.cmp(&self.offset))
    }
}

impl PartialOrd for LiveLine {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl LiveLines {
    /// Visit the lines of `found` (any order) in file order, each with its
    /// place in `found`: the log is read a window at a time.
    pub fn for_each_line(
        &self,
        found: &[LiveLine],
        f: impl FnMut(usize, &[u8]) -> Result<()>,
    ) -> Result<()> {
        let spans: Vec<(u64, u32)> = found.iter().map(|l| (l.offset, l.len)).collect();
        self.log.for_each_line(&spans, f)
    }
}

/// When a load keeps a snapshot of its index.
#[derive(Debug, Clone, Copy)]
pub(super) struct SnapshotPolicy {
    /// A smaller log replays in a few milliseconds: no snapshot is kept
    /// (or looked for).
    pub min_log: u64,
    /// Only a log that has not changed for a few seconds is snapshotted,
    /// as `rows.json` only keeps settled files: a write under way (another
    /// process filling in lines it reserved) is never taken for the log.
    pub settled_only: bool,
    /// The snapshot's fsyncs and rename on another thread (see
    /// `snapshot::commit_later`), for a process that waits for them
    /// before it ends.
    pub in_background: bool,
}

impl SnapshotPolicy {
    pub fn standard() -> SnapshotPolicy {
        SnapshotPolicy {
            min_log: snapshot_min_for_tests().unwrap_or(1 << 20),
            settled_only: true,
            in_background: true,
        }
    }

    /// Whether a snapshot covering `covered` of a log of `size` bytes is
    /// worth replacing: what follows it is an eighth of what it covers
    /// (a small tail costs less to replay on each run than rewriting the
    /// snapshot does).
    fn due(&self, covered: Covered, size: u64) -> bool {
        let grown = size.saturating_sub(covered.end);
        grown > 0 && grown >= self.min_log.max(covered.end / 8)
    }
}

/// A load's use of its snapshot: the log as it was opened.
pub(super) struct Cache {
    pub policy: SnapshotPolicy,
    pub id: snapshot::LogId,
    pub before: fs::Metadata,
}

impl Cache {
    /// Load the snapshot into `db` (empty) if one matches `log`; how far
    /// it covers the log (nothing when there is none).
    pub fn resume(&self, db: &mut Db, log: &LogFile) -> Covered {
        let size = self.before.len();
        if size < self.policy.min_log {
            return Covered::default();
        }
        let path = snapshot::path(&db.root, db.index);
        snapshot::Snapshot::open(&db.root, &path, db.index, log, self.id, size)
            .and_then(|s| {
                let tail = size.saturating_sub(s.covered().end);
                s.load_into(db, tail)
            })
            .unwrap_or_default()
    }

    /// Write `db`'s index (the whole lines of `log` up to `covered`, the
    /// replay having resumed at `from`) as the new snapshot, when it is
    /// worth it: no snapshot was used, or the one used is `due`. Never
    /// when the log changed while it was read or lately, nor when the
    /// root or our folder is read-only; a failure only costs the next run
    /// a replay.
    pub fn keep(&self, db: &Db, log: &LogFile, path: &Path, from: Covered, covered: Covered) {
        let due = if from.end == 0 {
            covered.end > 0 && covered.end >= self.policy.min_log
        } else {
            self.policy.due(from, covered.end)
        };
        if !due || !self.unchanged(&db.root, log, path) || !writable(&db.root) {
            return;
        }
        if self.policy.settled_only {
            let now_ns = crate::timefmt::file_clock_ns();
            if !crate::store::token_cache::Fingerprint::of(&self.before).is_settled(now_ns) {
                return;
            }
        }
        if let Ok(Some(staged)) = snapshot::stage(&db.root, db, log, self.id, covered) {
            if self.policy.in_background {
                snapshot::commit_later(staged);
            } else {
                let _ = staged.commit();
            }
        }
    }

    /// Whether the log is still the file opened, as it was then: nothing
    /// appended, rewritten or replaced while it was read.
    fn unchanged(&self, root: &DataRoot, log: &LogFile, path: &Path) -> bool {
        use crate::store::token_cache::Fingerprint;
        let now = log.meta().ok().flatten();
        let same_file = root
            .resolve(path, Last::Follow)
            .ok()
            .and_then(|p| fs::symlink_metadata(p).ok())
            .is_some_and(|m| snapshot::LogId::of(&m) == self.id);
        same_file && now.is_some_and(|m| Fingerprint::of(&m) == Fingerprint::of(&self.before))
    }
}

/// Whether we may write our own state under `root`: the root and, if it
/// exists, our folder are writable (a read-only root or mount is left as
/// it is, caches included).
fn writable(root: &DataRoot) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let may_write = |p: &Path| {
        std::ffi::CString::new(p.as_os_str().as_bytes())
            // SAFETY: access(2) only reads the NUL-terminated path it is given.
            .is_ok_and(|c| unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0)
    };
    let tool = root.tool_dir();
    may_write(root.path()) && (!tool.exists() || may_write(&tool))
}

impl Db {
    /// The live, visible keys of db `index` that `pick` gives a sort key
    /// (`None`: not wanted), with where their last SET line is, from the
    /// snapshot of an earlier replay and what was appended since, without
    /// building the index: for a search that reads a few of them. `None`
    /// when there is no snapshot to resume from (or it turns out
    /// damaged). The snapshot is not updated.
    pub fn live_lines_resumed(
        root: &DataRoot,
        index: u8,
        now: i64,
        pick: impl FnMut(&str) -> Option<i64>,
    ) -> Result<Option<LiveLines>> {
        Db::live_lines_with(root, index, now, SnapshotPolicy::standard(), pick)
    }

    pub(super) fn live_lines_with(
        root: &DataRoot,
        index: u8,
        now: i64,
        policy: SnapshotPolicy,
        mut pick: impl FnMut(&str) -> Option<i64>,
    ) -> Result<Option<LiveLines>> {
        let mut lines = Vec::new();
        let found = Db::visit_resumed(root, index, now, policy, false, |key, at, _| {
            if let Some(sort) = pick(key) {
                let (offset, len) = at;
                lines.push(LiveLine { sort, offset, len });
            }
        })?;
        Ok(found.map(|r| LiveLines {
            path: r.path,
            report: r.report,
            log: r.log,
            lines,
        }))
    }

    /// `counts_by_session` and `counts_valid_until` of db1, from the
    /// snapshot of an earlier replay and what was appended since, without
    /// building the index. `None` when there is no snapshot to resume
    /// from, or when so much was appended since that a load should replace
    /// it (`load_incremental` does).
    pub fn session_counts_resumed(root: &DataRoot, now: i64) -> Result<Option<SessionCounts>> {
        Db::session_counts_with(root, now, SnapshotPolicy::standard(), true)
    }

    pub(super) fn session_counts_with(
        root: &DataRoot,
        now: i64,
        policy: SnapshotPolicy,
        fresh_only: bool,
    ) -> Result<Option<SessionCounts>> {
        let mut counts: HashMap<String, u64> = HashMap::new();
        let mut valid_until: Option<i64> = None;
        let found = Db::visit_resumed(
            root,
            DB_SESSION_HIST,
            now,
            policy,
            fresh_only,
            |key, _, expire_at| {
                let Some(session) = session_of_key(key) else {
                    return;
                };
                match counts.get_mut(session) {
                    Some(n) => *n += 1,
                    None => {
                        counts.insert(session.to_owned(), 1);
                    }
                }
                if let Some(t) = expire_at {
                    valid_until = Some(valid_until.map_or(t, |u| u.min(t)));
                }
            },
        )?;
        Ok(found.map(|r| SessionCounts {
            counts,
            valid_until,
            path: r.path,
            report: r.report,
        }))
    }

    /// Hand `visit` every live, visible key of db `index` at `now`, with
    /// where its last SET line is (offset, length) and its expiry, from the
    /// snapshot of an earlier replay (streamed, not loaded) and the lines
    /// appended since (replayed apart, see `replay::Overlay`). `None`
    /// (nothing visited) when there is no snapshot to resume from or it
    /// turns out damaged, and with `fresh_only` when what was appended is
    /// enough for a load to replace the snapshot.
    fn visit_resumed(
        root: &DataRoot,
        index: u8,
        now: i64,
        policy: SnapshotPolicy,
        fresh_only: bool,
        mut visit: impl FnMut(&str, (u64, u32), Option<i64>),
    ) -> Result<Option<Resumed>> {
        let store_dir = root.store_dir();
        let dir = store_dir.join(format!("db_{index}"));
        let path = dir.join("record.aof");
        let Some(opened) = files::open(root, &path, files::Mode::Read)? else {
            return Ok(None);
        };
        let size = opened.meta.len();
        if size < policy.min_log {
            return Ok(None);
        }
        let id = snapshot::LogId::of(&opened.meta);
        let log = LogFile::new(Some(opened.file), &path);
        let snap_path = snapshot::path(root, index);
        let Some(snap) = snapshot::Snapshot::open(root, &snap_path, index, &log, id, size) else {
            return Ok(None);
        };
        let covered = snap.covered();
        if fresh_only && policy.due(covered, size) {
            return Ok(None);
        }
        let mut db = Db {
            index,
            root: root.clone(),
            dir,
            log: LogFile::default(),
            entries: Slots::default(),
            report: snap.report(),
            resumed_at: covered.end,
            overlay: Some(replay::Overlay::default()),
        };
        let (_, tail) = db.replay_lines(&log, covered, 1 << 20, None)?;
        db.replay_tail(tail, None);
        let overlay = db.overlay.take().expect("set above");
        let live = |key: &str, expire_at: Option<i64>| {
            !key.starts_with(INTERNAL_PREFIX) && expire_at.is_none_or(|t| t > now)
        };
        let mut oversize = Vec::new();
        let read = snap.entries(&mut oversize, |key, s| {
            let expire_at = s.has_expire().then_some(s.expire_at);
            let expire_at = match overlay.get(key) {
                None => expire_at,
                Some(replay::Touch::Expire(e)) => e,
                // set again or deleted since: the overlay has its say
                Some(_) => return true,
            };
            if live(key, expire_at) {
                visit(key, (s.offset, s.len), expire_at);
            }
            true
        });
        if read.is_none() {
            return Ok(None);
        }
        for (key, at, expire_at) in overlay.set() {
            if live(key, expire_at) {
                visit(key, at, expire_at);
            }
        }
        oversize.append(&mut db.report.oversize);
        db.report.oversize = oversize;
        slow_load_for_tests(covered.end);
        Ok(Some(Resumed {
            path,
            report: std::mem::take(&mut db.report),
            log,
        }))
    }
}

/// With the `testing` feature: `SESSIONCTL_TORII_SNAPSHOT_MIN=<bytes>`
/// keeps snapshots of logs from that size on (1 MiB otherwise), so tests
/// exercise them on small logs.
fn snapshot_min_for_tests() -> Option<u64> {
    #[cfg(feature = "testing")]
    if let Some(n) = std::env::var("SESSIONCTL_TORII_SNAPSHOT_MIN")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return Some(n);
    }
    None
}
