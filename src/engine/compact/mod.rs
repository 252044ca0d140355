//! The compaction pipeline: Agenvoy's stages and history byte cap, applied
//! to the stored session (docs/agenvoy-format.md#compaction-stages).
//!
//! `plan` works on plain data and decides everything; the caller writes.
//! Tokens are what Agenvoy would send for the session in its largest
//! request: every history record (with its prefix line) + the rolling
//! summary + the largest task history. The trigger is tokens > budget or
//! history.json bytes > max-bytes; the target is 80 % of whichever limit
//! triggered, so the next cron run finds nothing to do.
//!
//! Stages, in order and only as far as needed:
//! - `raw-tools` (only when moving to another model): task histories become
//!   plain text the new model can read: call names with short arguments,
//!   results cut head+tail to fit the new model's budget. It runs first so
//!   what follows measures the text the new model will get.
//! - `tools`: fold the oldest tool steps of the largest task history into
//!   one text message (Agenvoy's rule: ≥3 steps; oldest 20 %, min 2, max n−1; cut only
//!   at an assistant tool-call message; the latest write_todo pair kept).
//! - `trim`: drop the oldest exchanges of history.json (the cut always
//!   lands right before a user record, i.e. right after an assistant
//!   record), never the newest `keep_last`.
//! - `trim-tasks`: then, in task histories, the oldest conversation
//!   messages, then the oldest tool step with all of its results. No call
//!   is ever left without its results or vice versa.

use std::collections::HashSet;

use serde::Serialize;
use serde_json::Value;

use crate::engine::tokens::Counter;
use crate::error::Result;
use crate::llm::offline::head_tail;
use crate::llm::Summarizer;
use crate::store::history::Record;

pub mod op;
pub mod preimage;
mod tasks;

pub use tasks::*;

pub const DEFAULT_MAX_BYTES: u64 = 5 * 1024 * 1024;
pub const DEFAULT_KEEP_LAST: usize = 2;

const FOLD_HEADER: &str = "Prior tool findings (compacted). Use to answer the original question — user has not been replied to yet:";
/// The start every raw-tools header shares, whatever it says after.
const RAW_PREFIX: &str = "Earlier tool results (";
const RAW_HEADER: &str = "Earlier tool results (converted to plain text for a model that cannot read the earlier tool-call format). Required to answer the original question. User has not been replied to yet:";
/// For a task whose history ends with the final reply (an assistant
/// message without tool calls): that reply is in the text, so the user
/// must not be told again.
const RAW_HEADER_ANSWERED: &str = "Earlier tool results (converted to plain text for a model that cannot read the earlier tool-call format). The user has already been answered: the last [assistant] entry below is that reply.";

/// One task history (`history/<name>`).
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub name: String,
    pub messages: Vec<Value>,
}

pub struct Options<'a> {
    pub counter: Counter,
    /// Token budget (80 % of the model's window, or --budget).
    pub budget: u64,
    pub max_bytes: u64,
    pub keep_last: usize,
    /// The new model's budget when moving models (--for-model).
    pub raw_tools_budget: Option<u64>,
    pub summarizer: &'a dyn Summarizer,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StageReport {
    pub stage: &'static str,
    /// trim: history.json records; tools: tool steps folded; trim-tasks:
    /// task-history messages; raw-tools: task histories converted.
    pub removed: usize,
    pub tokens_after: usize,
}

#[derive(Debug, Clone)]
pub struct Plan {
    pub over_tokens: bool,
    pub over_bytes: bool,
    pub tokens_before: usize,
    pub tokens_after: usize,
    pub target_tokens: u64,
    pub bytes_before: u64,
    pub bytes_after: u64,
    pub kept: Vec<Record>,
    pub removed: Vec<Record>,
    /// Task histories that changed, with their new messages.
    pub changed_tasks: Vec<Task>,
    pub stages: Vec<StageReport>,
}

impl Plan {
    /// Over the budget even after every stage: only protected parts remain.
    pub fn still_over(&self) -> bool {
        self.over_tokens && self.tokens_after as u64 > self.target_tokens
    }

    pub fn has_work(&self) -> bool {
        !self.removed.is_empty() || !self.changed_tasks.is_empty()
    }
}

/// Serialised size of records as history.json (two-space pretty array).
pub fn history_bytes(records: &[Record]) -> u64 {
    if records.is_empty() {
        return 2;
    }
    let elements: u64 = records.iter().map(element_bytes).sum();
    4 + elements + 2 * (records.len() as u64 - 1)
}

/// The first index whose suffix, written as history.json, fits `max` bytes.
fn fitting_suffix_start(records: &[Record], max: u64) -> usize {
    let mut size = 2; // "[]"
    for (i, r) in records.iter().enumerate().rev() {
        // the first element turns "[]" into "[\n" … "\n]", each further one adds ",\n":
        // two bytes of framing either way
        size += element_bytes(r) + 2;
        if size > max {
            return i + 1;
        }
    }
    0
}

/// Bytes of one record as an element of the pretty array ("[\n" … "\n]"),
/// counted as they are serialised, not collected.
fn element_bytes(r: &Record) -> u64 {
    struct Counted(u64);
    impl std::io::Write for Counted {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len() as u64;
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut n = Counted(0);
    serde_json::to_writer_pretty(&mut n, std::slice::from_ref(r)).map_or(0, |()| n.0 - 4)
}

pub fn plan(
    records: Vec<Record>,
    history_file_bytes: u64,
    summary_tokens: usize,
    tasks: &[Task],
    opts: &Options<'_>,
) -> Result<Plan> {
    let c = opts.counter;
    let rec_tokens: Vec<usize> = records.iter().map(|r| c.record(r)).collect();
    let mut history_tokens: usize = rec_tokens.iter().sum();
    let mut tasks: Vec<Task> = tasks.to_vec();
    let mut task_tokens: Vec<usize> = tasks.iter().map(|t| c.messages(&t.messages)).collect();
    let mut changed: HashSet<usize> = HashSet::new();
    let total = |h: usize, tt: &[usize]| h + summary_tokens + tt.iter().copied().max().unwrap_or(0);

    let tokens_before = total(history_tokens, &task_tokens);
    let over_tokens = tokens_before as u64 > opts.budget;
    let over_bytes = history_file_bytes > opts.max_bytes;
    let target_tokens = if over_tokens {
        opts.budget * 4 / 5
    } else {
        opts.budget
    };
    let target_bytes = if over_bytes {
        opts.max_bytes * 4 / 5
    } else {
        opts.max_bytes
    };
    let mut stages = Vec::new();

    let mut plan = Plan {
        over_tokens,
        over_bytes,
        tokens_before,
        tokens_after: tokens_before,
        target_tokens,
        bytes_before: history_file_bytes,
        bytes_after: history_file_bytes,
        kept: Vec::new(),
        removed: Vec::new(),
        changed_tasks: Vec::new(),
        stages: Vec::new(),
    };

    // raw-tools: a format change, needed whatever the size.
    if let Some(new_budget) = opts.raw_tools_budget {
        let fixed = history_tokens + summary_tokens;
        let room_tokens = (new_budget * 4 / 5).saturating_sub(fixed as u64) as usize;
        let mut converted = 0;
        for (i, t) in tasks.iter_mut().enumerate() {
            let results = t.messages.iter().filter(|m| role(m) == "tool").count();
            if results == 0 && !t.messages.iter().any(is_step) {
                continue;
            }
            // ~3 characters per token is conservative for every tokenizer we count with.
            let cap = (room_tokens * 3 / results.max(1)).max(200);
            t.messages = raw_text(&t.messages, cap);
            task_tokens[i] = c.messages(&t.messages);
            changed.insert(i);
            converted += 1;
        }
        if converted > 0 {
            stages.push(StageReport {
                stage: "raw-tools",
                removed: converted,
                tokens_after: total(history_tokens, &task_tokens),
            });
        }
    }

    if !over_tokens && !over_bytes {
        plan.kept = records;
        plan.tokens_after = total(history_tokens, &task_tokens);
        plan.changed_tasks = changed.into_iter().map(|i| tasks[i].clone()).collect();
        plan.stages = stages;
        return Ok(plan);
    }

    // tools: fold the largest task's oldest steps while over the target.
    let mut folded_steps = 0;
    let mut unfoldable: HashSet<usize> = HashSet::new();
    while over_tokens && total(history_tokens, &task_tokens) as u64 > target_tokens {
        let Some(i) = (0..tasks.len())
            .filter(|i| !unfoldable.contains(i))
            .max_by_key(|i| task_tokens[*i])
        else {
            break;
        };
        match fold_tool_steps(&tasks[i].messages, opts.summarizer)? {
            Some((msgs, n)) if c.messages(&msgs) < task_tokens[i] => {
                task_tokens[i] = c.messages(&msgs);
                tasks[i].messages = msgs;
                changed.insert(i);
                folded_steps += n;
            }
            _ => {
                unfoldable.insert(i);
            }
        }
    }
    if folded_steps > 0 {
        stages.push(StageReport {
            stage: "tools",
            removed: folded_steps,
            tokens_after: total(history_tokens, &task_tokens),
        });
    }

    // trim history.json: whole exchanges, oldest first, never the newest keep_last.
    let cut_points = removable_prefixes(&records, opts.keep_last);
    // Over the byte cap, history.json must keep at most a suffix that fits
    // 80 % of it: size records from the newest back, so only what is kept
    // is ever serialised.
    let min_cut = if over_bytes {
        fitting_suffix_start(&records, target_bytes)
    } else {
        0
    };
    let mut cut = 0;
    for &next in &cut_points {
        let tokens_over = over_tokens && total(history_tokens, &task_tokens) as u64 > target_tokens;
        if !tokens_over && cut >= min_cut {
            break;
        }
        history_tokens -= rec_tokens[cut..next].iter().sum::<usize>();
        cut = next;
    }
    if cut > 0 {
        stages.push(StageReport {
            stage: "trim",
            removed: cut,
            tokens_after: total(history_tokens, &task_tokens),
        });
    }
    // then task histories, largest first, while still over the token target
    let mut trimmed = 0;
    let mut stuck: HashSet<usize> = HashSet::new();
    while over_tokens && total(history_tokens, &task_tokens) as u64 > target_tokens {
        let Some(i) = (0..tasks.len())
            .filter(|i| !stuck.contains(i))
            .max_by_key(|i| task_tokens[*i])
        else {
            break;
        };
        let excess = total(history_tokens, &task_tokens) - target_tokens as usize;
        let (msgs, n) = trim_task(&tasks[i].messages, excess, c);
        if n == 0 {
            stuck.insert(i);
            continue;
        }
        task_tokens[i] = c.messages(&msgs);
        tasks[i].messages = msgs;
        changed.insert(i);
        trimmed += n;
    }
    if trimmed > 0 {
        stages.push(StageReport {
            stage: "trim-tasks",
            removed: trimmed,
            tokens_after: total(history_tokens, &task_tokens),
        });
    }

    // Split, not copied: a big history's records exist once.
    let mut records = records;
    plan.kept = records.split_off(cut);
    plan.removed = records;
    plan.bytes_after = if cut == 0 {
        history_file_bytes
    } else {
        history_bytes(&plan.kept)
    };
    plan.tokens_after = total(history_tokens, &task_tokens);
    let mut changed: Vec<usize> = changed.into_iter().collect();
    changed.sort_unstable();
    plan.changed_tasks = changed.into_iter().map(|i| tasks[i].clone()).collect();
    plan.stages = stages;
    Ok(plan)
}

/// Where history.json may be cut, in order: after the records that precede
/// the first user record, then after each whole exchange (user record up
/// to the next user record) except the newest `keep_last`.
pub fn removable_prefixes(records: &[Record], keep_last: usize) -> Vec<usize> {
    let starts: Vec<usize> = records
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_user())
        .map(|(i, _)| i)
        .collect();
    let mut cuts = Vec::new();
    match starts.first() {
        None => {
            // no user record at all: nothing forms an exchange to keep
            if keep_last == 0 && !records.is_empty() {
                cuts.push(records.len());
            }
            return cuts;
        }
        Some(&first) if first > 0 => cuts.push(first),
        _ => {}
    }
    let removable = starts.len().saturating_sub(keep_last);
    for k in 0..removable {
        cuts.push(starts.get(k + 1).copied().unwrap_or(records.len()));
    }
    cuts
}

/// What applying a plan changed in the shared stores.
#[derive(Debug, Clone, Default)]
pub struct Applied {
    /// Removed records that were missing from the archive and were inserted.
    pub archived: u64,
    pub torii_removed: usize,
    /// The trash entry holding the task histories as they were before.
    pub trash: Option<std::path::PathBuf>,
    /// The interrupted operation whose compact of the session this one
    /// completed (it took over that run's pre-image).
    pub completes: Option<String>,
}

/// Write a plan, in an order that keeps everything somewhere at every
/// instant and lets a rerun finish what a crash interrupted:
/// (1) the task histories about to change are copied, as they are on disk,
///     into a trash entry (the archive only holds conversation messages, so
///     the trash is the only other place tool steps can live);
/// (2) one archive transaction gives each leaving record its row and moves
///     `session_meta.start_at`;
/// (3) db1 keys older than the first remaining record are deleted — before
///     history.json changes (Agenvoy's own order), so a crash here leaves
///     history.json as it was and the rerun plans the same cut again;
/// (4) history.json, then (5) the task histories, are replaced atomically.
///
/// `session_keys` are the session's live db1 keys (the batch's index has
/// them, so db1 is not scanned again for each session).
pub fn apply(
    plan: &Plan,
    dir: &crate::store::layout::SessionDir,
    root: &crate::store::layout::DataRoot,
    archive: &mut crate::store::archive::Archive,
    db1: &mut crate::store::torii::Db,
    session_keys: Vec<String>,
    now: i64,
) -> Result<Applied> {
    let stores = std::sync::Mutex::new((db1, archive));
    apply_shared(plan, dir, root, &stores, session_keys, now, None)
}

/// db1 and the archive as a compact reaches them: only inside `with`, so a
/// batch compacting sessions in parallel holds its store lock for the steps
/// that touch them and for nothing else (the session's own files are
/// written outside it).
pub trait SharedStores: Sync {
    fn with<T>(
        &self,
        f: impl FnOnce(&mut crate::store::torii::Db, &mut crate::store::archive::Archive) -> Result<T>,
    ) -> Result<T>;

    /// The operation the compact belongs to (its pre-image is recorded
    /// there); a library caller's plain stores belong to none.
    fn journal(&self) -> &crate::store::oplog::Journal {
        crate::store::oplog::Journal::none()
    }
}

impl SharedStores
    for std::sync::Mutex<(
        &mut crate::store::torii::Db,
        &mut crate::store::archive::Archive,
    )>
{
    fn with<T>(
        &self,
        f: impl FnOnce(&mut crate::store::torii::Db, &mut crate::store::archive::Archive) -> Result<T>,
    ) -> Result<T> {
        let mut guard = self.lock().unwrap_or_else(|e| e.into_inner());
        let (db1, archive) = &mut *guard;
        f(db1, archive)
    }
}

/// `apply`, with the shared stores taken step by step (same steps, same
/// order, same failpoints); `adopt`: the interrupted operation whose
/// unfinished pre-image of the session to take over (see `preimage`).
pub fn apply_shared(
    plan: &Plan,
    dir: &crate::store::layout::SessionDir,
    root: &crate::store::layout::DataRoot,
    stores: &impl SharedStores,
    session_keys: Vec<String>,
    now: i64,
    adopt: Option<&str>,
) -> Result<Applied> {
    let mut applied = Applied::default();
    let leaving_keys = keys_before_cut(plan, session_keys);
    let tasks: Vec<String> = plan.changed_tasks.iter().map(|t| t.name.clone()).collect();
    let changes = preimage::Changes {
        history: !plan.removed.is_empty(),
        tasks: &tasks,
        leaving_keys: &leaving_keys,
        adopt,
    };
    let kept = preimage::before(root, dir, changes, stores)?;
    applied.completes = kept.as_ref().and_then(|k| k.adopted().map(str::to_owned));
    if !plan.changed_tasks.is_empty() {
        applied.trash = Some(keep_task_histories(plan, dir, root)?);
    }
    crate::failpoint("compact-after-trash");
    if !plan.removed.is_empty() {
        let start_at = plan.kept.iter().map(|r| r.send_at).find(|t| *t != 0);
        (applied.archived, applied.torii_removed) = stores.with(|db1, archive| {
            let archived = archive.archive_records(&dir.id, &plan.removed, &plan.kept, start_at)?;
            crate::failpoint("compact-after-archive");
            Ok((archived, db1.delete(&leaving_keys, now)?))
        })?;
        crate::failpoint("compact-after-torii");
        crate::store::history::write(root, &dir.history_json(), &plan.kept)?;
        crate::failpoint("compact-after-history");
    }
    for t in &plan.changed_tasks {
        let mut bytes = serde_json::to_vec_pretty(&t.messages).expect("messages serialise");
        bytes.push(b'\n');
        dir.write(&dir.tasks_dir().join(&t.name), &bytes)?;
    }
    preimage::after(root, dir, kept, stores)?;
    Ok(applied)
}

/// Complete the compact the interrupted operation `from` left of this
/// session, when nothing is left to compact: take its pre-image over,
/// seal and record it (see `preimage`). Returns `from` when it did.
pub fn complete_interrupted(
    dir: &crate::store::layout::SessionDir,
    root: &crate::store::layout::DataRoot,
    stores: &impl SharedStores,
    from: &str,
) -> Result<Option<String>> {
    if preimage::unfinished_of(root, from, &dir.id)?.is_none() {
        return Ok(None);
    }
    let changes = preimage::Changes {
        history: false,
        tasks: &[],
        leaving_keys: &[],
        adopt: Some(from),
    };
    let kept = preimage::before(root, dir, changes, stores)?;
    let completes = kept.as_ref().and_then(|k| k.adopted().map(str::to_owned));
    preimage::after(root, dir, kept, stores)?;
    Ok(completes)
}

/// Of a session's db1 keys (`<id>:<sendAt>`), those below the plan's cut.
pub fn keys_before_cut(plan: &Plan, keys: Vec<String>) -> Vec<String> {
    if plan.removed.is_empty() {
        return Vec::new();
    }
    let Some(cutoff) = torii_cutoff(&plan.kept, &plan.removed) else {
        return Vec::new();
    };
    keys.into_iter()
        .filter(|k| {
            k.rsplit_once(':')
                .and_then(|(_, n)| n.parse::<i64>().ok())
                .is_some_and(|n| n < cutoff)
        })
        .collect()
}

/// Copy the task histories the plan rewrites, byte for byte as they are now,
/// to `sessions/.Trash/<id>_<stamp>/history/`, fsynced. Returns the entry.
fn keep_task_histories(
    plan: &Plan,
    dir: &crate::store::layout::SessionDir,
    root: &crate::store::layout::DataRoot,
) -> Result<std::path::PathBuf> {
    use crate::store::{atomic, trash};
    let entry = trash::new_path(root, &dir.id)?;
    let saved = entry.join("history");
    trash::create(root, &entry, &dir.id)?;
    atomic::create_dir_all(root, &saved)?;
    for t in &plan.changed_tasks {
        let from = dir.tasks_dir().join(&t.name);
        if let Some(bytes) = dir.read(&from)? {
            atomic::write_atomic(root, &saved.join(&t.name), &bytes)?;
        }
    }
    atomic::fsync_dir(root, &entry)?;
    Ok(entry)
}

/// The ToriiDB cutoff: db1 keys of the session below this nanosecond time
/// left with the removed records (the first remaining record's sendAt).
pub fn torii_cutoff(kept: &[Record], removed: &[Record]) -> Option<i64> {
    kept.iter()
        .map(|r| r.send_at)
        .find(|t| *t != 0)
        .or_else(|| removed.iter().map(|r| r.send_at).max().map(|t| t + 1))
}

#[cfg(test)]
mod tests;
