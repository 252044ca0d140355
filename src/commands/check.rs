//! `check [SESSION…] [--repair]`: verify every tier, fix what is safe.

use std::collections::HashSet;

use anyhow::Result;
use serde::Serialize;

use crate::cli::CheckArgs;
use crate::cli_util::targets;
use crate::commands::{Context, Done};
use crate::engine::sessions;
use crate::error::exit;
use crate::output::ErrorEntry;
use crate::store::archive::Archive;
use crate::store::layout::SessionDir;
use crate::store::leftovers::{self, Leftover};
use crate::store::torii::{Db, TailRepair, DB_ERROR_MEMORY, DB_SESSION_HIST};
use crate::store::{lock, runtime, tasks};
use crate::table::{Col, Grid};

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
}

fn scope_as_session<S: serde::Serializer>(scope: &str, s: S) -> Result<S::Ok, S::Error> {
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
    }
}

/// A session whose history records the archive lacks; the repair re-reads
/// its history under the session lock.
struct SessionRepair {
    dir: SessionDir,
}

pub fn run(ctx: &Context, args: &CheckArgs) -> Result<Done> {
    let whole_root = args.sessions.is_empty();
    let dirs: Vec<SessionDir> = if whole_root {
        ctx.root
            .session_ids()?
            .ids
            .iter()
            .map(|id| ctx.root.session(id))
            .collect::<crate::Result<_>>()?
    } else {
        let mut v = Vec::new();
        for id in &args.sessions {
            crate::store::layout::validate_session_id(id)?;
            v.push(ctx.root.session(id)?);
        }
        v
    };
    let ids: HashSet<&str> = dirs.iter().map(|d| d.id.as_str()).collect();
    let now = crate::store::torii::now_unix();
    let mut findings: Vec<Finding> = Vec::new();
    let mut unreadable = false;

    if whole_root {
        findings.extend(oplog_findings(&ctx.root)?);
    }

    // ToriiDB logs
    let mut dbs = Vec::new();
    for index in [DB_SESSION_HIST, DB_ERROR_MEMORY] {
        match Db::load_store(&ctx.root, index) {
            Ok(db) => {
                findings.extend(torii_findings(&db));
                dbs.push(db);
            }
            Err(e) => {
                unreadable = true;
                findings.push(finding("store", "unreadable", e.to_string(), false));
            }
        }
    }
    if whole_root {
        if let Some(db1) = dbs.iter().find(|d| d.index == DB_SESSION_HIST) {
            let mut orphans: Vec<(&str, u64)> = db1
                .counts_by_session(now)
                .into_iter()
                .filter(|(s, _)| !ids.contains(s))
                .collect();
            orphans.sort();
            for (s, n) in orphans {
                findings.push(finding(
                    "store",
                    "torii-orphan-keys",
                    format!("{n} db1 key(s) of {s:?}, which has no session folder"),
                    false,
                ));
            }
        }
    }

    // SQLite archive. A hot journal (a writer killed mid-transaction) is
    // reported, not rolled back: only --repair writes. Until then the
    // archive cannot be read consistently, so its checks wait.
    let archive_path = ctx.root.archive_path();
    let hot_journal = archive_path.exists() && Archive::has_hot_journal(&ctx.root, &archive_path)?;
    let archive = if hot_journal {
        findings.push(finding(
            "store",
            "archive-hot-journal",
            "history.db has the journal of an interrupted transaction; SQLite rolls it back on \
             the next write (the archive's other checks run after that)"
                .into(),
            true,
        ));
        None
    } else {
        match Archive::open_read(&ctx.root, &archive_path) {
            Ok(a) => a,
            Err(e) => {
                unreadable = true;
                findings.push(finding("store", "unreadable", e.to_string(), false));
                None
            }
        }
    };
    if let Some(a) = &archive {
        if let Err(e) = a.fts_integrity_check() {
            findings.push(finding(
                "store",
                "fts-integrity",
                format!("FTS5 integrity-check failed: {e}"),
                true,
            ));
        }
        if whole_root {
            let mut gone: Vec<(String, u64)> = a
                .counts_by_session()?
                .into_iter()
                .filter(|(s, _)| !ids.contains(s.as_str()))
                .map(|(s, c)| (s, c.messages))
                .collect();
            gone.sort();
            for (s, n) in gone {
                findings.push(finding(
                    "store",
                    "orphan-archive-rows",
                    format!("{n} archived message(s) of {s:?}, which has no session folder"),
                    false,
                ));
            }
        }
    }

    // each session
    let mut repairs: Vec<SessionRepair> = Vec::new();
    for dir in &dirs {
        let id = dir.id.as_str();
        let history = match sessions::load_history(dir) {
            Ok(h) => h,
            Err(e) => {
                unreadable = true;
                findings.push(finding(id, "unreadable", e.to_string(), false));
                None
            }
        };
        if let (Some(h), Some(a)) = (&history, &archive) {
            let missing = a.missing(id, &h.records)?;
            if !missing.is_empty() {
                findings.push(finding(
                    id,
                    "missing-from-archive",
                    format!(
                        "{} of {} history record(s) are not in the archive",
                        missing.len(),
                        h.records.len()
                    ),
                    true,
                ));
                repairs.push(SessionRepair { dir: dir.clone() });
            }
            let first = h.records.iter().map(|r| r.send_at).find(|t| *t != 0);
            if let (Some(first), Some(start)) = (first, a.start_at(id)?) {
                if start > first {
                    findings.push(finding(id, "start-at-past-history", format!(
                        "session_meta.start_at {start} is after the first record of history.json ({first})"), false));
                }
            }
        }
        match sessions::load_summary(dir) {
            Ok(Some((s, _))) if !s.is_valid() => findings.push(finding(
                id,
                "invalid-summary",
                "summary.json has fewer than 2 of the known keys".into(),
                false,
            )),
            Ok(_) => {}
            Err(e) => {
                unreadable = true;
                findings.push(finding(id, "unreadable", e.to_string(), false));
            }
        }
        if let Err(e) = sessions::load_cursor(dir) {
            unreadable = true;
            findings.push(finding(id, "unreadable", e.to_string(), false));
        }
        let files = match sessions::task_files(dir) {
            Ok(f) => f,
            Err(e) => {
                unreadable = true;
                findings.push(finding(id, "unreadable", e.to_string(), false));
                Vec::new()
            }
        };
        for path in files {
            match dir
                .read(&path)
                .and_then(|b| b.map(|b| tasks::parse(&b, &path)).transpose())
            {
                Ok(Some(msgs)) => {
                    let st = tasks::stats(&msgs);
                    if st.orphan_calls + st.orphan_results > 0 {
                        findings.push(finding(
                            id,
                            "orphan-tool-messages",
                            format!(
                                "{}: {} call(s) without results, {} result(s) without a call",
                                path.file_name().unwrap_or_default().to_string_lossy(),
                                st.orphan_calls,
                                st.orphan_results
                            ),
                            false,
                        ));
                    }
                }
                Ok(None) => {}
                Err(e) => {
                    unreadable = true;
                    findings.push(finding(id, "unreadable", e.to_string(), false));
                }
            }
        }
    }

    // what kills and removed sessions left behind
    let mut left: Vec<(usize, Leftover)> = Vec::new();
    let found = leftovers::in_store(&ctx.root).and_then(|mut all| {
        for dir in &dirs {
            all.extend(leftovers::in_session(dir)?);
        }
        if whole_root {
            all.extend(leftovers::stale_locks(&ctx.root, &ids)?);
        }
        Ok(all)
    });
    match found {
        Ok(all) => {
            for l in all {
                let scope = l.session.clone().unwrap_or_else(|| "store".into());
                findings.push(finding(&scope, l.kind.name(), l.detail(&ctx.root), true));
                left.push((findings.len() - 1, l));
            }
        }
        Err(e) => {
            unreadable = true;
            findings.push(finding("store", "unreadable", e.to_string(), false));
        }
    }

    if args.repair && unreadable {
        // Something could not be read (a link out of the root, a FIFO, bad
        // data): the root is not in a state to change anything.
        ctx.out
            .warn("not repairing anything while some data cannot be read; fix the unreadable findings first");
    } else if args.repair && !args.dry_run && findings.iter().any(|f| f.repairable) {
        let n = findings.iter().filter(|f| f.repairable).count();
        if !targets::ask(Some(false), args.yes, &format!("Repair {n} finding(s)?"))? {
            ctx.out.line("aborted; nothing changed")?;
            return Ok(exit::FINDINGS.into());
        }
        runtime::ensure_not_running(&ctx.root, args.force)?;
        let _store = lock::store(&ctx.root)?;
        if findings.iter().any(|f| f.kind == "incomplete-operation") {
            crate::store::oplog::close_incomplete(&ctx.root)?;
            mark(&mut findings, "incomplete-operation");
        }
        if !unreadable_logs(&findings) {
            repair_torii(ctx, &mut findings)?;
        }
        if hot_journal {
            // Opening for writing lets SQLite roll the journal back.
            let a = Archive::open_write(&ctx.root, &archive_path)?;
            drop(a);
            mark(&mut findings, "archive-hot-journal");
        }
        if archive.is_some() {
            let mut a = Archive::open_write(&ctx.root, &ctx.root.archive_path())?;
            for r in &repairs {
                let id = r.dir.id.as_str();
                let _session = lock::session(&ctx.root, id)?;
                let records = sessions::load_history(&r.dir)?
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
                mark(&mut findings, "fts-integrity");
            }
        }
        for (i, l) in &left {
            let _session = match &l.session {
                Some(id) => Some(lock::session(&ctx.root, id)?),
                None => None,
            };
            findings[*i].repaired = leftovers::remove(&ctx.root, l)?;
        }
    }

    let open: Vec<&Finding> = findings.iter().filter(|f| !f.repaired).collect();
    // Every finding is a result; each one still open is also an error
    // (exit 1, or 65 for what could not be read), so `ok` means "clean".
    let errors: Vec<ErrorEntry> = open
        .iter()
        .map(|f| ErrorEntry {
            session: (f.scope != "store").then(|| f.scope.clone()),
            code: if f.kind == "unreadable" {
                exit::DATA
            } else {
                exit::FINDINGS
            },
            message: format!("{}: {}", f.kind, f.detail),
            file: None,
            hint: f
                .repairable
                .then(|| "`sessionctl check --repair` fixes it".into()),
        })
        .collect();
    if ctx.out.json {
        ctx.out
            .envelope("check", args.dry_run, &findings, &errors)?;
    } else if findings.is_empty() {
        ctx.out.line(&format!(
            "checked {} session(s) and the shared stores: no findings",
            dirs.len()
        ))?;
    } else {
        let mut t = Grid::new(vec![
            Col::id("SCOPE"),
            Col::id("FINDING"),
            Col::text("DETAIL"),
            Col::id("REPAIR"),
        ]);
        for f in &findings {
            t.row(vec![
                (&f.scope).into(),
                f.kind.into(),
                (&f.detail).into(),
                if f.repaired {
                    "repaired"
                } else if f.repairable {
                    "--repair"
                } else {
                    "-"
                }
                .into(),
            ]);
        }
        ctx.out.grid(&t)?;
        // A count under the table: on a terminal only, so piped output is
        // the rows alone.
        if args.dry_run {
            ctx.out.footer(&format!(
                "{} finding(s), {} would be repaired (dry run: nothing changed)",
                findings.len(),
                findings.iter().filter(|f| f.repairable).count()
            ))?;
        } else {
            ctx.out.footer(&format!(
                "{} finding(s), {} repaired",
                findings.len(),
                findings.len() - open.len()
            ))?;
        }
    }
    Ok(Done {
        code: if unreadable {
            exit::DATA
        } else if open.is_empty() {
            exit::OK
        } else {
            exit::FINDINGS
        },
        sessions: dirs.len(),
        changed: findings
            .iter()
            .filter(|f| f.repaired)
            .map(|f| f.scope.clone())
            .collect(),
        failed: errors,
    })
}

fn log_name(index: u8) -> String {
    format!("db_{index}/record.aof")
}

/// What a log holds that ToriiDB would trip over.
/// Operations a crash left incomplete, and a torn last line of the log.
fn oplog_findings(root: &crate::store::layout::DataRoot) -> crate::Result<Vec<Finding>> {
    let log = crate::store::oplog::read(root)?;
    let mut out: Vec<Finding> = log
        .ops
        .iter()
        .filter(|o| !o.done)
        .map(|o| {
            let detail = format!(
                "operation {} ({}) did not complete; `sessionctl undo {}` restores what it kept, or rerun it; --repair closes its record (what it kept stays restorable)",
                o.id, o.command, o.id
            );
            finding("store", "incomplete-operation", detail, true)
        })
        .collect();
    if log.torn_tail {
        let detail = format!(
            "{}: the last line is torn (a write was interrupted); it is ignored",
            crate::store::oplog::path(root).display()
        );
        out.push(finding("store", "oplog-torn-line", detail, false));
    }
    Ok(out)
}

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

fn unreadable_logs(findings: &[Finding]) -> bool {
    findings
        .iter()
        .any(|f| f.kind == "unreadable" && f.detail.contains("record.aof"))
}

/// Repair the logs as they are now: called under the store lock, it loads
/// them afresh rather than using the copies the report was made from, which
/// another writer may have appended to since (a rewrite from such a copy
/// would undo that writer's records).
fn repair_torii(ctx: &Context, findings: &mut [Finding]) -> crate::Result<()> {
    for index in [DB_SESSION_HIST, DB_ERROR_MEMORY] {
        let name = log_name(index);
        let mut mark_db = |kind: &str| {
            for f in findings
                .iter_mut()
                .filter(|f| f.kind == kind && f.detail.starts_with(&name))
            {
                f.repaired = true;
            }
        };
        let mut db = Db::load(&ctx.root.store_dir(), index)?;
        if !db.report.oversize.is_empty() {
            // The rewrite ends every line too (the old log is kept as .bak).
            db.rewrite_readable()?;
            for kind in [
                "torii-oversize-line",
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
