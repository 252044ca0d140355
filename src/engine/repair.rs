//! `check [SESSION…] [--repair]` as plan/apply: `inspect` verifies every
//! tier read-only and its findings are the plan (a dry run shows exactly
//! them); `repair` carries out the repairable ones under the store lock
//! (and each session's lock), marking each finding it fixed.

use std::collections::HashSet;

use serde::Serialize;

use crate::engine::sessions;
use crate::error::{exit, Result};
use crate::store::archive::{Archive, RecordKey};
use crate::store::layout::{DataRoot, SessionDir};
use crate::store::leftovers::{self, Leftover};
use crate::store::torii::{Db, TailRepair, DB_ERROR_MEMORY, DB_SESSION_HIST};
use crate::store::{atomic, history, lock, tasks};

#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// A session id, or "store" for the shared stores (JSON: `session`,
    /// null for the stores).
    #[serde(rename = "session", serialize_with = "scope_as_session")]
    pub scope: String,
    pub kind: &'static str,
    pub detail: String,
    pub repairable: bool,
    pub repaired: bool,
    /// Why a repair of this finding could not start (its session's lock
    /// is held): the exit code and the error. The other repairs go on.
    #[serde(skip)]
    pub blocked: Option<(i32, String)>,
}

fn scope_as_session<S: serde::Serializer>(
    scope: &str,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match scope {
        "store" => s.serialize_none(),
        id => s.serialize_some(id),
    }
}

fn finding(scope: &str, kind: &'static str, detail: String, repairable: bool) -> Finding {
    Finding {
        scope: scope.to_owned(),
        kind,
        detail,
        repairable,
        repaired: false,
        blocked: None,
    }
}

/// The findings, and what repairing them takes.
pub struct Inspection {
    pub findings: Vec<Finding>,
    /// Something could not be read (a link out of the root, a FIFO, bad
    /// data): the root is not in a state to change anything.
    pub unreadable: bool,
    hot_journal: bool,
    /// The archive was read (its repairs are possible).
    archive_read: bool,
    /// Sessions whose history records the archive lacks; the repair
    /// re-reads each history under the session lock.
    repairs: Vec<SessionDir>,
    /// Leftovers, with the index of their finding.
    left: Vec<(usize, Leftover)>,
}

impl Inspection {
    /// Findings `repair` would fix.
    pub fn repairable(&self) -> usize {
        self.findings.iter().filter(|f| f.repairable).count()
    }
}

/// Verify every tier of `dirs` (and with `whole_root`, what belongs to
/// no session). Read-only.
pub fn inspect(root: &DataRoot, dirs: &[SessionDir], whole_root: bool) -> Result<Inspection> {
    let ids: HashSet<&str> = dirs.iter().map(|d| d.id.as_str()).collect();
    let mut ins = Inspection {
        findings: Vec::new(),
        unreadable: false,
        hot_journal: false,
        archive_read: false,
        repairs: Vec::new(),
        left: Vec::new(),
    };
    if whole_root {
        if crate::store::trash::is_link(root) {
            let e = crate::store::trash::link_refused(&root.trash_dir());
            let hint = format!("; {}", e.hint());
            // not repaired: which folder the link stands for is the user's call
            ins.findings.push(finding(
                "store",
                "trash-symlink",
                format!("{e}{hint}"),
                false,
            ));
        }
        ins.findings.extend(oplog_findings(root)?);
    }
    ins.torii(root, whole_root.then_some(&ids));
    let archive = ins.archive(root, whole_root.then_some(&ids))?;
    for dir in dirs {
        ins.session(dir, archive.as_ref())?;
        ins.tasks(dir);
    }
    ins.leftovers(root, dirs, whole_root.then_some(&ids));
    Ok(ins)
}

impl Inspection {
    fn add(&mut self, scope: &str, kind: &'static str, detail: String, repairable: bool) {
        self.findings.push(finding(scope, kind, detail, repairable));
    }

    fn cannot_read(&mut self, scope: &str, e: crate::Error) {
        self.unreadable = true;
        self.add(scope, "unreadable", e.to_string(), false);
    }

    /// The ToriiDB logs; with the root's session `ids`, db1 keys of
    /// sessions that are gone.
    fn torii(&mut self, root: &DataRoot, ids: Option<&HashSet<&str>>) {
        let mut db1 = None;
        for index in [DB_SESSION_HIST, DB_ERROR_MEMORY] {
            match Db::load_store(root, index) {
                Ok(db) => {
                    self.findings.extend(torii_findings(&db));
                    match db.outgrowing_rewrite(crate::store::torii::now_unix()) {
                        Ok(keys) => self.findings.extend(outgrowing_findings(index, keys)),
                        Err(e) => self.cannot_read("store", e),
                    }
                    if index == DB_SESSION_HIST {
                        db1 = Some(db);
                    }
                }
                Err(e) => self.cannot_read("store", e),
            }
        }
        let (Some(db1), Some(ids)) = (db1, ids) else {
            return;
        };
        let mut orphans: Vec<(&str, u64)> = db1
            .counts_by_session(crate::store::torii::now_unix())
            .into_iter()
            .filter(|(s, _)| !ids.contains(s))
            .collect();
        orphans.sort();
        // (an unreadable log is a finding of its own: no pointer then)
        let log = (!orphans.is_empty())
            .then(|| crate::store::oplog::read(root).ok())
            .flatten();
        for (s, n) in orphans {
            let detail = format!(
                "{n} db1 key(s) of {s:?}, which has no session folder{}",
                log.as_ref()
                    .map(|l| orphan_how(root, l, s))
                    .unwrap_or_default()
            );
            self.add("store", "torii-orphan-keys", detail, false);
        }
    }

    /// The SQLite archive, open for the session checks when it can be read.
    /// A hot journal (a writer killed mid-transaction) is reported, not
    /// rolled back: only --repair writes. Until then the archive cannot be
    /// read consistently, so its checks wait.
    fn archive(&mut self, root: &DataRoot, ids: Option<&HashSet<&str>>) -> Result<Option<Archive>> {
        let path = root.archive_path();
        self.hot_journal = path.exists() && Archive::has_hot_journal(root, &path)?;
        if self.hot_journal {
            self.add(
                "store",
                "archive-hot-journal",
                "history.db has the journal of an interrupted transaction; SQLite rolls it back on \
                 the next write (the archive's other checks run after that)"
                    .into(),
                true,
            );
            return Ok(None);
        }
        let archive = match Archive::open_read(root, &path) {
            Ok(Some(a)) => a,
            Ok(None) => return Ok(None),
            Err(e) => {
                self.cannot_read("store", e);
                return Ok(None);
            }
        };
        self.archive_read = true;
        if let Err(e) = archive.fts_integrity_check() {
            let detail = format!("FTS5 integrity-check failed: {e}");
            self.add("store", "fts-integrity", detail, true);
        }
        if let Some(ids) = ids {
            let mut gone: Vec<(String, u64)> = archive
                .counts_by_session()?
                .into_iter()
                .filter(|(s, _)| !ids.contains(s.as_str()))
                .map(|(s, c)| (s, c.messages))
                .collect();
            gone.sort();
            let log = (!gone.is_empty())
                .then(|| crate::store::oplog::read(root).ok())
                .flatten();
            for (s, n) in gone {
                let detail = format!(
                    "{n} archived message(s) of {s:?}, which has no session folder{}",
                    log.as_ref()
                        .map(|l| orphan_how(root, l, &s))
                        .unwrap_or_default()
                );
                self.add("store", "orphan-archive-rows", detail, false);
            }
        }
        Ok(Some(archive))
    }

    /// A session's history against the archive, its summary and cursor.
    fn session(&mut self, dir: &SessionDir, archive: Option<&Archive>) -> Result<()> {
        let id = dir.id.as_str();
        let history = history_keys(dir).unwrap_or_else(|e| {
            self.cannot_read(id, e);
            None
        });
        if let (Some((keys, first)), Some(a)) = (&history, archive) {
            let missing = a.missing_keys(id, keys)?;
            if !missing.is_empty() {
                let detail = format!(
                    "{} of {} history record(s) are not in the archive",
                    missing.len(),
                    keys.len()
                );
                self.add(id, "missing-from-archive", detail, true);
                self.repairs.push(dir.clone());
            }
            if let (Some(first), Some(start)) = (*first, a.start_at(id)?) {
                if start > first {
                    let detail = format!("session_meta.start_at {start} is after the first record of history.json ({first})");
                    self.add(id, "start-at-past-history", detail, false);
                }
            }
        }
        match sessions::load_summary(dir) {
            Ok(Some((s, _))) if !s.is_valid() => {
                let detail = "summary.json has fewer than 2 of the known keys".into();
                self.add(id, "invalid-summary", detail, false);
            }
            Ok(_) => {}
            Err(e) => self.cannot_read(id, e),
        }
        if let Err(e) = sessions::load_cursor(dir) {
            self.cannot_read(id, e);
        }
        Ok(())
    }

    /// Task histories with tool calls and results that lost their partner.
    fn tasks(&mut self, dir: &SessionDir) {
        let id = dir.id.as_str();
        let files = sessions::task_files(dir).unwrap_or_else(|e| {
            self.cannot_read(id, e);
            Vec::new()
        });
        for path in files {
            let read = dir
                .read(&path)
                .and_then(|b| b.map(|b| tasks::parse(&b, &path)).transpose());
            let msgs = match read {
                Ok(Some(msgs)) => msgs,
                Ok(None) => continue,
                Err(e) => {
                    self.cannot_read(id, e);
                    continue;
                }
            };
            let st = tasks::stats(&msgs);
            if st.orphan_calls + st.orphan_results > 0 {
                let detail = format!(
                    "{}: {} call(s) without results, {} result(s) without a call",
                    path.file_name().unwrap_or_default().to_string_lossy(),
                    st.orphan_calls,
                    st.orphan_results
                );
                self.add(id, "orphan-tool-messages", detail, false);
            }
        }
    }

    /// What kills and removed sessions left behind.
    fn leftovers(&mut self, root: &DataRoot, dirs: &[SessionDir], ids: Option<&HashSet<&str>>) {
        let found = leftovers::in_store(root).and_then(|mut all| {
            for dir in dirs {
                all.extend(leftovers::in_session(dir)?);
            }
            if let Some(ids) = ids {
                all.extend(leftovers::stale_locks(root, ids)?);
            }
            Ok(all)
        });
        match found {
            Ok(all) => {
                for l in all {
                    let scope = l.session.clone().unwrap_or_else(|| "store".into());
                    self.add(&scope, l.kind.name(), l.detail(root), true);
                    self.left.push((self.findings.len() - 1, l));
                }
            }
            Err(e) => self.cannot_read("store", e),
        }
    }
}

/// What takes away the rows or keys of `session`, which has no folder
/// (not `--repair`'s to delete): the undo of the import that wrote them
/// (one a kill interrupted, perhaps closed by `--repair` since), else a
/// `remove` of the session, which finishes a folderless one.
fn orphan_how(root: &DataRoot, log: &crate::store::oplog::Log, session: &str) -> String {
    let import = log.ops.iter().rev().find(|o| {
        o.command == "import"
            && o.undone_by.is_none()
            && o.sessions.iter().any(|c| c.session == session)
    });
    let remove = || match crate::store::layout::validate_session_id(session) {
        Ok(()) => format!("; `sessionctl remove {session}` takes them away (to the Trash)"),
        Err(_) => String::new(),
    };
    match import {
        Some(o) => match crate::engine::undo::why_not(root, log, o) {
            None => format!(
                "; import {} wrote them: `sessionctl undo {}` takes them back",
                o.id, o.id
            ),
            Some(why) if o.done => format!(
                "; import {} wrote them (`undo` cannot reverse it: {why}){}",
                o.id,
                remove()
            ),
            Some(why) => format!(
                "; import {} wrote them and did not complete (`undo` cannot reverse it: {why})",
                o.id
            ),
        },
        None => remove(),
    }
}

/// `check --repair` as an operation of the runner: its one target is the
/// root; it is planned (inspected) before the locks and again under them,
/// and applied with the store lock, never while Agenvoy runs.
pub struct Repair<'a> {
    pub root: &'a DataRoot,
    pub dirs: Vec<SessionDir>,
    pub whole_root: bool,
}

/// The one target of `check --repair`.
pub const ROOT: &str = "root";

/// What `check` found, and what it repaired.
#[derive(Debug, Clone, Serialize)]
pub struct Checked {
    pub findings: Vec<Finding>,
    /// Something could not be read: nothing was repaired.
    #[serde(skip)]
    pub unreadable: bool,
}

impl Repair<'_> {
    pub fn target(&self) -> crate::engine::batch::Target {
        crate::engine::batch::Target::shared(ROOT)
    }
}

impl crate::engine::batch::Operation for Repair<'_> {
    type Plan = Inspection;
    type Report = Checked;

    fn needs(&self) -> crate::engine::batch::Needs {
        crate::engine::batch::Needs {
            store_lock: true,
            ..Default::default()
        }
    }
    fn intent(&self) -> crate::store::oplog::Intent {
        crate::store::oplog::Intent::of("check")
    }
    fn replans_under_locks(&self) -> bool {
        true
    }
    fn plan(
        &self,
        _: &crate::engine::batch::Target,
        _: &dyn crate::engine::batch::StoreView,
    ) -> Result<Inspection> {
        inspect(self.root, &self.dirs, self.whole_root)
    }
    fn has_work(&self, ins: &Inspection) -> bool {
        // something unreadable: the root is not in a state to change
        !ins.unreadable && ins.repairable() > 0
    }
    fn summary(&self, ins: &Inspection) -> Option<String> {
        Some(format!("{} finding(s)", ins.repairable()))
    }
    fn preview(&self, _: &crate::engine::batch::Target, ins: &Inspection, _: bool) -> Checked {
        Checked {
            findings: ins.findings.clone(),
            unreadable: ins.unreadable,
        }
    }
    fn changed(&self, _: &crate::engine::batch::Target, c: &Checked) -> Vec<String> {
        let mut scopes: Vec<String> = c
            .findings
            .iter()
            .filter(|f| f.repaired)
            .map(|f| f.scope.clone())
            .collect();
        scopes.sort_unstable();
        scopes.dedup();
        scopes
    }
    fn apply(
        &self,
        _: &crate::engine::batch::Target,
        mut ins: Inspection,
        _: &mut crate::engine::batch::Stores<'_>,
    ) -> Result<Checked> {
        repair(self.root, &mut ins)?;
        Ok(Checked {
            findings: ins.findings,
            unreadable: false,
        })
    }
}

/// What the checks need of a session's history.json, read one record at
/// a time: each record's identity (`RecordKey`, 24 bytes) and the first
/// sendAt. A million-record history is never held whole (its text and
/// parsed records were most of `check`'s memory). None without one.
fn history_keys(dir: &SessionDir) -> Result<Option<(Vec<RecordKey>, Option<i64>)>> {
    let path = dir.history_json();
    let Some(file) = dir.open_json(&path)? else {
        return Ok(None);
    };
    let (mut keys, mut first) = (Vec::new(), None);
    history::for_each(file, &path, |r| {
        if first.is_none() && r.send_at != 0 {
            first = Some(r.send_at);
        }
        keys.push(RecordKey::of(&r));
    })?;
    Ok(Some((keys, first)))
}

/// Repair what `inspect` found repairable, as the stores are now: the
/// runner holds the store lock and has checked that Agenvoy does not run.
/// Each finding fixed is marked `repaired`.
fn repair(root: &DataRoot, ins: &mut Inspection) -> Result<()> {
    let findings = &mut ins.findings;
    if findings.iter().any(|f| f.kind == "incomplete-operation") {
        let (keep_open, moved_back) = seal_interrupted_entries(root)?;
        crate::store::oplog::close_incomplete(root, &keep_open)?;
        mark(findings, "incomplete-operation");
        // rows and keys found without a folder whose folder the roll-back
        // put back are no orphans any more (and `remove`, their hint, would
        // take the session just restored)
        for f in findings.iter_mut().filter(|f| {
            matches!(f.kind, "orphan-archive-rows" | "torii-orphan-keys")
                && moved_back
                    .iter()
                    .any(|id| f.detail.contains(&format!(" of {id:?},")))
        }) {
            f.repaired = true;
        }
    }
    if !unreadable_logs(findings) {
        repair_torii(root, findings)?;
    }
    if ins.hot_journal {
        // Opening for writing lets SQLite roll the journal back.
        let a = Archive::open_write(root, &root.archive_path())?;
        drop(a);
        mark(findings, "archive-hot-journal");
    }
    if ins.archive_read {
        let mut a = Archive::open_write(root, &root.archive_path())?;
        for dir in &ins.repairs {
            let id = dir.id.as_str();
            let is_it = |f: &Finding| f.scope == id && f.kind == "missing-from-archive";
            let _session = match session_lock(root, id)? {
                Ok(l) => l,
                Err(why) => {
                    for f in findings.iter_mut().filter(|f| is_it(f)) {
                        f.blocked = Some(why.clone());
                    }
                    continue;
                }
            };
            let records = sessions::load_history(dir)?
                .map(|h| h.records)
                .unwrap_or_default();
            a.archive_records(id, &records, &[], None)?;
            for f in findings
                .iter_mut()
                .filter(|f| f.scope == id && f.kind == "missing-from-archive")
            {
                f.repaired = true;
            }
        }
        if findings.iter().any(|f| f.kind == "fts-integrity") {
            a.rebuild_fts()?;
            a.fts_integrity_check()?;
            mark(findings, "fts-integrity");
        }
    }
    for (i, l) in &ins.left {
        let _session = match &l.session {
            Some(id) => match session_lock(root, id)? {
                Ok(l) => Some(l),
                Err(why) => {
                    findings[*i].blocked = Some(why);
                    continue;
                }
            },
            None => None,
        };
        findings[*i].repaired = leftovers::remove(root, l)?;
    }
    Ok(())
}

/// A session's lock for its repairs, or — when another run holds it — the
/// exit code and error its findings keep: the other repairs go on.
fn session_lock(
    root: &DataRoot,
    id: &str,
) -> Result<std::result::Result<lock::Lock, (i32, String)>> {
    match lock::session(root, id) {
        Ok(l) => Ok(Ok(l)),
        Err(e) if e.exit_code() == exit::TEMP_FAIL => Ok(Err((e.exit_code(), e.to_string()))),
        Err(e) => Err(e),
    }
}

/// A reset or remove killed after it began to move a session into the
/// Trash left an entry without its manifest, which no command reads.
/// When it had taken nothing from the stores yet (the archive still
/// holds the session's rows, which go first), the move is rolled back: the
/// files go back where they were, as before the command. Otherwise the
/// entry is sealed as it is, in the name of the operation that made it,
/// so that `trash restore` puts back what it holds. Only entries the
/// operation made are touched. The session id is the one recorded in the
/// entry, or else the one of its argv the entry's name was made from (a
/// kill between the move and the record). A moved link, or an entry whose
/// session cannot be told, stays as it is, and so does its operation's
/// record: open, it keeps `check` reporting it and `trash prune` keeping
/// it. Returns those operations, and the sessions moved back.
fn seal_interrupted_entries(root: &DataRoot) -> Result<(Vec<String>, Vec<String>)> {
    let mut keep_open = Vec::new();
    let mut moved_back = Vec::new();
    let log = crate::store::oplog::read(root)?;
    let entries = crate::store::trash::list(root).unwrap_or_default();
    for (n, o) in log.ops.iter().enumerate().filter(|(_, o)| !o.done) {
        if crate::store::oplog::is_running(root, &o.id)? {
            continue;
        }
        // only what this operation made: entries named before the next
        // operation began (a `summarize --rebuild` backup made later is
        // not its), of a session it was run on, never a moved link
        let next_began = log
            .ops
            .get(n + 1)
            .map(|x| x.id.get(..19).unwrap_or("").to_owned());
        let before_next = |e: &&crate::store::trash::EntryInfo| {
            next_began.as_deref().is_none_or(|t| {
                chrono::NaiveDateTime::parse_from_str(t, "%Y%m%dT%H%M%S%.3f")
                    .is_ok_and(|t| e.time < t.and_utc())
            })
        };
        let batch = o
            .argv
            .iter()
            .any(|a| a == "--all" || a.starts_with("--match"));
        for e in crate::engine::prune::unsealed_of(o, &entries)
            .into_iter()
            .filter(before_next)
        {
            if e.name.ends_with(".stores")
                || std::fs::symlink_metadata(&e.path).is_ok_and(|m| m.file_type().is_symlink())
            {
                keep_open.push(o.id.clone());
                continue;
            }
            let Some(id) = entry_session(e, o) else {
                keep_open.push(o.id.clone());
                continue;
            };
            if !batch && !o.argv.iter().skip(1).any(|a| *a == id) {
                continue;
            }
            // a removed folder keeps its store parts in its `.sessionctl/`
            // (`reset::seal_removed`); a reset's and a folderless remove's
            // are at the top of the entry
            let moved_folder = std::fs::read_dir(&e.path)
                .map(|d| {
                    d.flatten()
                        .any(|f| f.file_name() != ".sessionctl" && !is_store_part(&f.file_name()))
                })
                .unwrap_or(false);
            // the archive rows go first, in one transaction: while they are
            // in place, nothing was taken from the stores (a part already
            // written is a copy). Without them (a later command may have
            // taken them) nothing is moved back: the entry is sealed.
            if archive_holds(root, &id)? && roll_back(root, &o.command, &e.path, &id)? {
                moved_back.push(id);
                continue;
            }
            let stores = if o.command == "remove" && moved_folder {
                ".sessionctl"
            } else {
                "."
            };
            // a remove killed between the rows and the ToriiDB keys: the keys
            // left go into the entry too (as the remove would have put them),
            // so that restoring it can tell them for this session's own
            let dir = e.path.join(stores);
            let part = dir.join(crate::store::bundle::TORII_DB1);
            if o.command == "remove" && std::fs::symlink_metadata(&part).is_err() {
                let db1 = Db::load_store(root, DB_SESSION_HIST)?;
                let keys = db1.session_keys(&id, crate::store::torii::now_unix());
                if !keys.is_empty() {
                    crate::store::trash::export_torii(root, &db1, &keys, &dir)?;
                }
            }
            crate::store::bundle::seal(
                root,
                &e.path,
                crate::store::bundle::Spec {
                    session: &id,
                    kind: &o.command,
                    stores,
                    link: None,
                    op: Some(o.id.clone()),
                    from: root.path(),
                },
            )?;
        }
    }
    keep_open.sort();
    keep_open.dedup();
    Ok((keep_open, moved_back))
}

/// The session an interrupted reset or remove entry is of: the id it
/// records (never read through a link), or the argument of the operation
/// the entry's name was made from (`<id>_<stamp>`, `trash::new_path`).
fn entry_session(
    e: &crate::store::trash::EntryInfo,
    o: &crate::store::oplog::Op,
) -> Option<String> {
    let id_file = e.path.join(crate::store::trash::SESSION_ID_FILE);
    if std::fs::symlink_metadata(&id_file).is_ok_and(|m| m.is_file()) {
        let id = std::fs::read_to_string(&id_file).ok()?;
        return crate::store::layout::validate_session_id(&id)
            .is_ok()
            .then_some(id);
    }
    o.argv
        .iter()
        .skip(1)
        .filter(|a| crate::store::layout::validate_session_id(a).is_ok())
        .find(|a| crate::store::trash::is_entry_of(&e.name, a))
        .cloned()
}

fn archive_holds(root: &DataRoot, id: &str) -> Result<bool> {
    Ok(match Archive::open_read(root, &root.archive_path())? {
        Some(a) => a.count_session(id)? > 0,
        None => false,
    })
}

/// Put what an interrupted reset or remove moved into `entry` back where
/// it was, when nothing is there now; false when something is in the way
/// (then the entry is sealed instead).
fn roll_back(root: &DataRoot, command: &str, entry: &std::path::Path, id: &str) -> Result<bool> {
    let folder = root.session_path(id)?;
    let Some(listing) = crate::store::files::read_dir(root, entry)? else {
        return Ok(false);
    };
    let moved: Vec<std::path::PathBuf> = listing
        .flatten()
        .filter(|f| f.file_name() != ".sessionctl")
        .map(|f| f.path())
        .collect();
    match command {
        "remove" => {
            if std::fs::symlink_metadata(&folder).is_ok() {
                return Ok(false);
            }
            // the entry is the folder itself, with our records added: the
            // store backup's own folder (`.sessionctl/.sessionctl`), copies
            // of store parts, and the id with the temp file of one being
            // written at the kill; the id record last: a kill before the
            // move leaves an entry a rerun still knows by its name
            let own = entry.join(".sessionctl");
            atomic::remove_path(root, &own.join(".sessionctl"))?;
            remove_where(root, &own, is_store_part)?;
            atomic::remove_path(root, &entry.join(crate::store::trash::SESSION_ID_FILE))?;
            remove_where(root, &own, |n| {
                let n = n.to_string_lossy();
                n.starts_with(".session-id.") && n.ends_with(".tmp")
            })?;
            if std::fs::read_dir(&own).is_ok_and(|mut d| d.next().is_none()) {
                atomic::remove_path(root, &own)?;
            }
            atomic::move_path(root, entry, &folder)?;
        }
        _ => {
            if !std::fs::symlink_metadata(&folder).is_ok_and(|m| m.is_dir())
                || moved
                    .iter()
                    .any(|p| p.file_name().is_some_and(|n| folder.join(n).exists()))
            {
                return Ok(false);
            }
            for p in moved
                .iter()
                .filter(|p| !p.file_name().is_some_and(is_store_part))
            {
                let name = p.file_name().expect("an entry's child");
                atomic::move_path(root, p, &folder.join(name))?;
            }
            atomic::remove_path(root, entry)?;
        }
    }
    Ok(true)
}

/// Delete the files of `dir` whose names `which` picks.
fn remove_where(
    root: &DataRoot,
    dir: &std::path::Path,
    which: impl Fn(&std::ffi::OsStr) -> bool,
) -> Result<()> {
    let Some(listing) = crate::store::files::read_dir(root, dir)? else {
        return Ok(());
    };
    for f in listing.flatten() {
        if which(&f.file_name()) {
            atomic::remove_path(root, &dir.join(f.file_name()))?;
        }
    }
    Ok(())
}

/// A store part an interrupted reset or remove wrote into its entry, or
/// the temp file of one being written when the kill came.
fn is_store_part(name: &std::ffi::OsStr) -> bool {
    use crate::store::bundle::{ARCHIVE, SESSION_META, TORII_DB1};
    let n = name.to_string_lossy();
    [ARCHIVE, SESSION_META, TORII_DB1].iter().any(|part| {
        n == *part
            || n.strip_prefix(part).is_some_and(|rest| rest == ".part")
            || n.strip_prefix('.')
                .and_then(|t| t.strip_prefix(part))
                .is_some_and(|rest| rest.ends_with(".tmp"))
    })
}

fn log_name(index: u8) -> String {
    format!("db_{index}/record.aof")
}

/// Operations a crash or a failure midway left incomplete (not one that is
/// running now), compacts whose pre-image an interrupted run left
/// unfinished, and lines of the log that are not records. Each says what
/// actually completes it: `undo` only when undo would go ahead.
fn oplog_findings(root: &DataRoot) -> crate::Result<Vec<Finding>> {
    let log = crate::store::oplog::read(root)?;
    let unfinished = crate::engine::compact::preimage::unfinished(root)?;
    // a symlinked .Trash is a finding of its own; no entry is read through it
    let entries = crate::store::trash::list(root).unwrap_or_default();
    let mut out: Vec<Finding> = Vec::new();
    for o in log.ops.iter().filter(|o| !o.done) {
        if crate::store::oplog::is_running(root, &o.id)? {
            continue;
        }
        out.push(match &o.undoes {
            // closing it would leave the restore half done for good
            Some(target) => finding(
                "store",
                "incomplete-undo",
                format!(
                    "operation {} (the undo of {target}) did not complete; `sessionctl undo {}` completes it",
                    o.id, o.id
                ),
                false,
            ),
            None => {
                let compacts: Vec<&str> = unfinished
                    .iter()
                    .filter(|u| u.op == o.id)
                    .map(|u| u.session.as_str())
                    .collect();
                let unsealed: Vec<&str> = crate::engine::prune::unsealed_of(o, &entries)
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect();
                let how = match crate::engine::undo::why_not(root, &log, o) {
                    None => format!(
                        "`sessionctl undo {}` restores what it kept, or rerun it; --repair closes its record (what it kept stays restorable)",
                        o.id
                    ),
                    Some(_) if !compacts.is_empty() => format!(
                        "`sessionctl compact {}` completes it (until then `undo` cannot reverse what it began); --repair closes its record",
                        compacts.join(" ")
                    ),
                    // a rerun finds nothing left to do: what it took is in
                    // the entry, which no command reads without a manifest
                    Some(why) if !unsealed.is_empty() => format!(
                        "`undo` cannot reverse it ({why}); what it took is in the Trash entry {}, which a kill left without its manifest; --repair moves it back if the stores were not touched yet, or else seals it so that `sessionctl trash restore {}` puts it back, then closes the record (a moved link or an entry without its session id is left as it is; `trash prune` keeps it meanwhile)",
                        unsealed.join(", "),
                        unsealed.first().copied().unwrap_or_default()
                    ),
                    Some(why) => format!(
                        "`undo` cannot reverse it ({why}); rerun it to finish its work; --repair closes its record"
                    ),
                };
                finding(
                    "store",
                    "incomplete-operation",
                    format!("operation {} ({}) did not complete; {how}", o.id, o.command),
                    true,
                )
            }
        });
    }
    // an operation closed (by --repair, or because another run completed
    // its other sessions) can still have left a session half compacted
    for u in unfinished
        .iter()
        .filter(|u| log.get(&u.op).is_none_or(|o| o.done))
    {
        out.push(finding(
            &u.session,
            "incomplete-compact",
            format!(
                "the compact by operation {} did not complete ({} is what it kept); `sessionctl compact {}` completes it",
                u.op, u.path, u.session
            ),
            false,
        ));
    }
    if log.malformed > 0 {
        let detail = format!(
            "{}: {} line(s) are not operation records; they are ignored",
            crate::store::oplog::path(root).display(),
            log.malformed
        );
        out.push(finding("store", "oplog-malformed-line", detail, false));
    }
    if log.torn_tail {
        let detail = format!(
            "{}: the last line is torn (a write was interrupted); it is ignored",
            crate::store::oplog::path(root).display()
        );
        out.push(finding("store", "oplog-torn-line", detail, false));
    }
    Ok(out)
}

/// What a log holds that ToriiDB would trip over.
fn torii_findings(db: &Db) -> Vec<Finding> {
    let name = log_name(db.index);
    let r = &db.report;
    let mut out = Vec::new();
    for (line, len) in &r.oversize {
        out.push(finding("store", "torii-oversize-line", format!(
            "{name} line {line} is {len} bytes: ToriiDB loads this database as EMPTY and deletes its log when Agenvoy exits"), true));
    }
    if r.torn_tail {
        out.push(finding(
            "store",
            "torii-torn-tail",
            format!("{name} ends in a cut-off line; Agenvoy's next record would be glued to it"),
            true,
        ));
    }
    if r.unterminated_record {
        out.push(finding(
            "store",
            "torii-unterminated-line",
            format!(
                "{name} ends in a record without a newline; Agenvoy's next record would be glued to it"
            ),
            true,
        ));
    }
    if r.malformed > 0 {
        out.push(finding(
            "store",
            "torii-malformed-lines",
            format!(
                "{name}: {} line(s) are not JSON (torn writes; ToriiDB skips them)",
                r.malformed
            ),
            false,
        ));
    }
    if r.unknown_format > 0 {
        out.push(finding(
            "store",
            "torii-unknown-format",
            format!(
                "{name}: {} line(s) have an unknown command or field type",
                r.unknown_format
            ),
            false,
        ));
    }
    out
}

/// Records that read fine today but that ToriiDB's rewrite on Agenvoy's
/// exit (Go's escaping) would make too long: repaired as over-long lines
/// are, set aside beside the log.
fn outgrowing_findings(index: u8, keys: Vec<(String, usize)>) -> Vec<Finding> {
    let name = log_name(index);
    keys.into_iter()
        .map(|(key, len)| {
            let detail = format!(
                "{name}: the record of key {key:?} becomes a {len}-byte line when Agenvoy's exit \
                 rewrites the log (over ToriiDB's 65,535): the start after that loads this \
                 database as EMPTY; --repair sets it aside beside the log"
            );
            finding("store", "torii-outgrows-rewrite", detail, true)
        })
        .collect()
}

fn unreadable_logs(findings: &[Finding]) -> bool {
    findings
        .iter()
        .any(|f| f.kind == "unreadable" && f.detail.contains("record.aof"))
}

/// Repair the logs as they are now: called under the store lock, it loads
/// them afresh rather than using the copies the report was made from, which
/// another writer may have appended to since (a rewrite from such a copy
/// would undo that writer's records).
fn repair_torii(root: &DataRoot, findings: &mut [Finding]) -> crate::Result<()> {
    for index in [DB_SESSION_HIST, DB_ERROR_MEMORY] {
        let name = log_name(index);
        let outgrowing = findings
            .iter()
            .any(|f| f.kind == "torii-outgrows-rewrite" && f.detail.starts_with(&name));
        let mut mark_db = |kind: &str| {
            for f in findings
                .iter_mut()
                .filter(|f| f.kind == kind && f.detail.starts_with(&name))
            {
                f.repaired = true;
            }
        };
        let mut db = Db::load(&root.store_dir(), index)?;
        if !db.report.oversize.is_empty() || outgrowing {
            // The rewrite ends every line too (the old log is kept as .bak).
            db.rewrite_readable()?;
            for kind in [
                "torii-oversize-line",
                "torii-outgrows-rewrite",
                "torii-torn-tail",
                "torii-unterminated-line",
            ] {
                mark_db(kind);
            }
        }
        match db.end_last_line()? {
            TailRepair::Terminated => mark_db("torii-unterminated-line"),
            TailRepair::Cut => mark_db("torii-torn-tail"),
            TailRepair::None => {}
        }
    }
    Ok(())
}

fn mark(findings: &mut [Finding], kind: &str) {
    for f in findings.iter_mut().filter(|f| f.kind == kind) {
        f.repaired = true;
    }
}
