//! The compaction pipeline (product.md "In-run compaction" and the
//! "Compact (auto)" row; agenvoy-behaviour.md §3–§7, §9.4, §14).
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
//!   one text message (§5: ≥3 steps; oldest 20 %, min 2, max n−1; cut only
//!   at an assistant tool-call message; the latest write_todo pair kept).
//! - `trim`: drop the oldest exchanges of history.json (the cut always
//!   lands right before a user record, i.e. right after an assistant
//!   record), never the newest `keep_last`.
//! - `trim-tasks`: then, in task histories, the oldest conversation
//!   messages, then the oldest tool step with all of its results. No call
//!   is ever left without its results or vice versa.

use std::collections::HashSet;

use serde::Serialize;
use serde_json::{json, Value};

use crate::engine::tokens::Counter;
use crate::error::Result;
use crate::llm::offline::head_tail;
use crate::llm::Summarizer;
use crate::store::history::Record;

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

/// Bytes of one record as an element of the pretty array ("[\n" … "\n]").
fn element_bytes(r: &Record) -> u64 {
    serde_json::to_vec_pretty(std::slice::from_ref(r)).map_or(0, |v| v.len() as u64 - 4)
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

    plan.removed = records[..cut].to_vec();
    plan.kept = records[cut..].to_vec();
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

fn role(m: &Value) -> &str {
    m.get("role").and_then(Value::as_str).unwrap_or("")
}

fn text_of(m: &Value) -> String {
    crate::store::tasks::content_text(m).unwrap_or_default()
}

fn calls(m: &Value) -> &[Value] {
    m.get("tool_calls")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

pub fn is_step(m: &Value) -> bool {
    role(m) == "assistant" && !calls(m).is_empty()
}

fn call_id(c: &Value) -> &str {
    c.get("id").and_then(Value::as_str).unwrap_or("")
}

fn call_name(c: &Value) -> &str {
    c.get("function")
        .and_then(|f| f.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn call_args(c: &Value) -> &str {
    c.get("function")
        .and_then(|f| f.get("arguments"))
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn result_id(m: &Value) -> Option<&str> {
    (role(m) == "tool")
        .then(|| m.get("tool_call_id").and_then(Value::as_str))
        .flatten()
}

/// The latest write_todo call that has a result, as Agenvoy's plan pair:
/// an assistant message with only that call, then its result. The working
/// copy has every write_todo call and result removed (and an assistant
/// message left with no calls and no text dropped).
fn take_plan_pair(msgs: &[Value]) -> (Vec<Value>, Vec<Value>) {
    let todo_ids: HashSet<&str> = msgs
        .iter()
        .flat_map(calls)
        .filter(|c| call_name(c) == "write_todo")
        .map(call_id)
        .collect();
    if todo_ids.is_empty() {
        return (msgs.to_vec(), Vec::new());
    }
    let answered: HashSet<&str> = msgs.iter().filter_map(result_id).collect();
    let last = msgs
        .iter()
        .flat_map(calls)
        .rfind(|c| call_name(c) == "write_todo" && answered.contains(call_id(c)));
    let pair = match last {
        Some(call) => {
            let id = call_id(call);
            let result = msgs.iter().find(|m| result_id(m) == Some(id)).cloned();
            let mut v = vec![json!({"role": "assistant", "content": "", "tool_calls": [call]})];
            v.extend(result);
            v
        }
        None => Vec::new(),
    };
    let mut working = Vec::with_capacity(msgs.len());
    for m in msgs {
        if result_id(m).is_some_and(|id| todo_ids.contains(id)) {
            continue;
        }
        if is_step(m) && calls(m).iter().any(|c| call_name(c) == "write_todo") {
            let rest: Vec<Value> = calls(m)
                .iter()
                .filter(|c| call_name(c) != "write_todo")
                .cloned()
                .collect();
            if rest.is_empty() && text_of(m).trim().is_empty() {
                continue;
            }
            let mut m = m.clone();
            if rest.is_empty() {
                m.as_object_mut().map(|o| o.remove("tool_calls"));
            } else {
                m["tool_calls"] = Value::Array(rest);
            }
            working.push(m);
            continue;
        }
        working.push(m.clone());
    }
    (working, pair)
}

/// Fold size of §5: round(20 % of the steps), at least 2, at most n − 1;
/// `None` below 3 steps.
pub fn fold_size(steps: usize) -> Option<usize> {
    if steps < 3 {
        return None;
    }
    let size = (steps as f64 * 0.2).round() as usize;
    Some(size.clamp(2, steps - 1))
}

/// ToolHistory (§5) on one task history. Returns the new messages and the
/// number of steps folded, or `None` when it declines.
pub fn fold_tool_steps(
    msgs: &[Value],
    summarizer: &dyn Summarizer,
) -> Result<Option<(Vec<Value>, usize)>> {
    // The task's question (its first user message) is the run's input,
    // never part of the tool history.
    let head = usize::from(msgs.first().is_some_and(|m| role(m) == "user"));
    let question = msgs
        .first()
        .filter(|_| head == 1)
        .map(text_of)
        .unwrap_or_default();
    let (working, pair) = take_plan_pair(&msgs[head..]);
    let steps: Vec<usize> = working
        .iter()
        .enumerate()
        .filter(|(_, m)| is_step(m))
        .map(|(i, _)| i)
        .collect();
    let Some(size) = fold_size(steps.len()) else {
        return Ok(None);
    };
    let split = steps[size];
    let (prefix, tail) = working.split_at(split);
    let transcript = transcript(prefix);
    if transcript.trim().is_empty() {
        return Ok(None);
    }
    let condensed = summarizer.condense_tool_steps(&question, &transcript)?;
    if condensed.trim().is_empty() {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(msgs.len());
    out.extend_from_slice(&msgs[..head]);
    out.push(json!({"role": "user", "content": format!("{FOLD_HEADER}\n\n{condensed}")}));
    out.extend(pair);
    out.extend_from_slice(tail);
    Ok(Some((out, size)))
}

/// §5 step 5: calls as `[call] name(args)`, results as `[result] …`,
/// assistant text as `[assistant] …`, user messages as `[context] …`.
fn transcript(prefix: &[Value]) -> String {
    let mut t = String::new();
    for m in prefix {
        match role(m) {
            "user" => {
                let s = text_of(m);
                if !s.is_empty() {
                    t.push_str(&format!("[context] {s}\n"));
                }
            }
            "assistant" => {
                let s = text_of(m);
                if !s.trim().is_empty() {
                    t.push_str(&format!("[assistant] {s}\n"));
                }
                for c in calls(m) {
                    t.push_str(&format!("[call] {}({})\n", call_name(c), call_args(c)));
                }
            }
            "tool" => {
                let s = text_of(m);
                if !s.is_empty() {
                    t.push_str(&format!("[result] {s}\n\n"));
                }
            }
            _ => {}
        }
    }
    t
}

/// A removable piece of a task history: one message, or a tool step with
/// all of its results.
struct Unit {
    indices: Vec<usize>,
    is_step: bool,
}

/// TrimFallback on one task history: drop the oldest conversation
/// messages, then the oldest tool steps with all their results, until
/// `excess` tokens are freed. Keeps the question, the newest unit and the
/// latest write_todo step.
fn trim_task(msgs: &[Value], excess: usize, c: Counter) -> (Vec<Value>, usize) {
    let head = usize::from(msgs.first().is_some_and(|m| role(m) == "user"));
    let mut owner: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut units: Vec<Unit> = Vec::new();
    let mut unit_of_msg = vec![usize::MAX; msgs.len()];
    for (i, m) in msgs.iter().enumerate().skip(head) {
        if let Some(id) = result_id(m) {
            if let Some(&u) = owner.get(id) {
                units[u].indices.push(i);
                unit_of_msg[i] = u;
                continue;
            }
        }
        let u = units.len();
        for call in calls(m) {
            owner.insert(call_id(call), u);
        }
        units.push(Unit {
            indices: vec![i],
            is_step: is_step(m),
        });
        unit_of_msg[i] = u;
    }
    let Some(last) = units.len().checked_sub(1) else {
        return (msgs.to_vec(), 0);
    };
    let plan_step = msgs
        .iter()
        .enumerate()
        .filter(|(_, m)| calls(m).iter().any(|c| call_name(c) == "write_todo"))
        .map(|(i, _)| unit_of_msg[i])
        .next_back();
    // Conversation messages first, then raw tool steps oldest first; a
    // message that already holds folded (condensed) older steps goes last:
    // it stands for many steps in few tokens, and dropping it first would
    // throw away more history than the raw steps behind it.
    let folded = |u: usize| units[u].indices.iter().any(|&i| is_folded(&msgs[i]));
    let order = (0..last)
        .filter(|&u| !units[u].is_step && !folded(u))
        .chain((0..last).filter(|&u| units[u].is_step))
        .chain((0..last).filter(|&u| !units[u].is_step && folded(u)))
        .filter(|u| Some(*u) != plan_step);
    let mut drop = vec![false; msgs.len()];
    let (mut freed, mut removed) = (0, 0);
    for u in order {
        if freed >= excess {
            break;
        }
        for &i in &units[u].indices {
            drop[i] = true;
            freed += c.message(&msgs[i]);
        }
        removed += units[u].indices.len();
    }
    let kept = msgs
        .iter()
        .enumerate()
        .filter(|(i, _)| !drop[*i])
        .map(|(_, m)| m.clone())
        .collect();
    (kept, removed)
}

/// A message the `tools` or `raw-tools` stage wrote in place of older steps.
fn is_folded(m: &Value) -> bool {
    role(m) == "user" && {
        let t = text_of(m);
        t.starts_with(FOLD_HEADER) || t.starts_with(RAW_PREFIX)
    }
}

/// RawToolFallback, improved (§14.5): the whole tool history as plain text
/// that keeps call names with short arguments, results cut head+tail to
/// `cap` characters, assistant text and steering messages.
fn raw_text(msgs: &[Value], cap: usize) -> Vec<Value> {
    let head = usize::from(msgs.first().is_some_and(|m| role(m) == "user"));
    let names: std::collections::HashMap<&str, &str> = msgs
        .iter()
        .flat_map(calls)
        .map(|c| (call_id(c), call_name(c)))
        .collect();
    let mut text = String::new();
    for m in &msgs[head..] {
        match role(m) {
            "user" => text.push_str(&format!("[context] {}\n", text_of(m))),
            "assistant" => {
                let s = text_of(m);
                if !s.trim().is_empty() {
                    text.push_str(&format!("[assistant] {s}\n"));
                }
                for c in calls(m) {
                    text.push_str(&format!(
                        "[call] {}({})\n",
                        call_name(c),
                        head_tail(call_args(c), 200)
                    ));
                }
            }
            "tool" => {
                let name = result_id(m)
                    .and_then(|id| names.get(id))
                    .copied()
                    .unwrap_or("tool");
                let s = text_of(m);
                if !s.trim().is_empty() {
                    text.push_str(&format!("[result {name}] {}\n\n", head_tail(&s, cap)));
                }
            }
            _ => {}
        }
    }
    let mut out = msgs[..head].to_vec();
    let answered = msgs
        .last()
        .is_some_and(|m| role(m) == "assistant" && !is_step(m) && !text_of(m).trim().is_empty());
    let header = if answered {
        RAW_HEADER_ANSWERED
    } else {
        RAW_HEADER
    };
    if !text.trim().is_empty() {
        out.push(json!({"role": "user", "content": format!("{header}\n\n{}", text.trim_end())}));
    }
    out
}

/// What applying a plan changed in the shared stores.
#[derive(Debug, Clone, Default)]
pub struct Applied {
    /// Removed records that were missing from the archive and were inserted.
    pub archived: u64,
    pub torii_removed: usize,
    /// The trash entry holding the task histories as they were before.
    pub trash: Option<std::path::PathBuf>,
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
pub fn apply(
    plan: &Plan,
    dir: &crate::store::layout::SessionDir,
    root: &crate::store::layout::DataRoot,
    archive: &mut crate::store::archive::Archive,
    db1: &mut crate::store::torii::Db,
    now: i64,
) -> Result<Applied> {
    let mut applied = Applied::default();
    let kept = crate::engine::undo_compact::before(root, dir, plan, archive, db1, now)?;
    if !plan.changed_tasks.is_empty() {
        applied.trash = Some(keep_task_histories(plan, dir, root)?);
    }
    crate::failpoint("compact-after-trash");
    if !plan.removed.is_empty() {
        let start_at = plan.kept.iter().map(|r| r.send_at).find(|t| *t != 0);
        applied.archived = archive.archive_records(&dir.id, &plan.removed, &plan.kept, start_at)?;
        crate::failpoint("compact-after-archive");
        applied.torii_removed = db1.delete(&torii_keys(plan, &dir.id, db1, now), now)?;
        crate::failpoint("compact-after-torii");
        crate::store::history::write(root, &dir.history_json(), &plan.kept)?;
        crate::failpoint("compact-after-history");
    }
    for t in &plan.changed_tasks {
        let mut bytes = serde_json::to_vec_pretty(&t.messages).expect("messages serialise");
        bytes.push(b'\n');
        dir.write(&dir.tasks_dir().join(&t.name), &bytes)?;
    }
    crate::engine::undo_compact::after(root, dir, kept, archive)?;
    Ok(applied)
}

/// The session's db1 keys that leave with the removed records: those older
/// than the first remaining record (read-only; a dry run reports them).
pub fn torii_keys(
    plan: &Plan,
    session: &str,
    db1: &crate::store::torii::Db,
    now: i64,
) -> Vec<String> {
    if plan.removed.is_empty() {
        return Vec::new();
    }
    let Some(cutoff) = torii_cutoff(&plan.kept, &plan.removed) else {
        return Vec::new();
    };
    db1.session_keys(session, now)
        .into_iter()
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

/// No orphans: every tool result has its call, every call its results.
pub fn is_paired(msgs: &[Value]) -> bool {
    let s = crate::store::tasks::stats(msgs);
    s.orphan_calls == 0 && s.orphan_results == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::offline::Offline;

    fn step(id: &str, name: &str, result: &str) -> Vec<Value> {
        vec![
            json!({"role":"assistant","content":"","tool_calls":[{"id":id,"type":"function","function":{"name":name,"arguments":"{\"x\":1}"}}]}),
            json!({"role":"tool","tool_call_id":id,"content":result}),
        ]
    }

    fn task(n_steps: usize) -> Vec<Value> {
        let mut v = vec![json!({"role":"user","content":"what is in the logs?"})];
        for i in 0..n_steps {
            v.extend(step(
                &format!("c{i}"),
                "read_file",
                &format!("result {i} {}", "z".repeat(400)),
            ));
        }
        v
    }

    #[test]
    fn tool_history_split_sizes_match_agenvoy() {
        // agenvoy-behaviour.md §14 conformance table
        for (steps, folded) in [
            (2, None),
            (3, Some(2)),
            (5, Some(2)),
            (11, Some(2)),
            (13, Some(3)),
            (20, Some(4)),
        ] {
            assert_eq!(fold_size(steps), folded, "{steps} steps");
            let got = fold_tool_steps(&task(steps), &Offline)
                .unwrap()
                .map(|(_, n)| n);
            assert_eq!(got, folded, "{steps} steps");
        }
    }

    #[test]
    fn fold_keeps_question_header_tail_and_pairs() {
        let msgs = task(5);
        let (out, n) = fold_tool_steps(&msgs, &Offline).unwrap().unwrap();
        assert_eq!(n, 2);
        assert_eq!(out[0], msgs[0], "the question stays first");
        assert!(text_of(&out[1]).starts_with(FOLD_HEADER));
        assert!(text_of(&out[1]).contains("[call] read_file"));
        // tail = steps 2..5, untouched
        assert_eq!(&out[2..], &msgs[5..]);
        assert!(is_paired(&out));
    }

    #[test]
    fn plan_pair_is_reinserted_after_the_header() {
        let mut msgs = task(0);
        msgs.extend(step("t1", "write_todo", "plan v1"));
        msgs.extend(step("a", "read_file", "A"));
        msgs.extend(step("t2", "write_todo", "plan v2"));
        msgs.extend(step("b", "read_file", "B"));
        msgs.extend(step("c", "read_file", "C"));
        msgs.extend(step("d", "read_file", "D"));
        let (out, _) = fold_tool_steps(&msgs, &Offline).unwrap().unwrap();
        assert!(text_of(&out[1]).starts_with(FOLD_HEADER));
        assert_eq!(
            calls(&out[2])[0]["id"],
            "t2",
            "the latest write_todo pair follows the header"
        );
        assert_eq!(text_of(&out[3]), "plan v2");
        let todo_calls = out
            .iter()
            .flat_map(calls)
            .filter(|c| call_name(c) == "write_todo")
            .count();
        assert_eq!(todo_calls, 1, "older write_todo calls are gone");
        assert!(is_paired(&out));
    }

    #[test]
    fn trim_removes_a_step_with_all_its_parallel_results() {
        let msgs: Vec<Value> = serde_json::from_value(json!([
            {"role":"user","content":"q"},
            {"role":"assistant","content":"","tool_calls":[{"id":"p1","function":{"name":"read_file","arguments":"{}"}},{"id":"p2","function":{"name":"run_command","arguments":"{}"}}]},
            {"role":"tool","tool_call_id":"p1","content":"one"},
            {"role":"tool","tool_call_id":"p2","content":"two"},
            {"role":"assistant","content":"","tool_calls":[{"id":"x","function":{"name":"read_file","arguments":"{}"}}]},
            {"role":"tool","tool_call_id":"x","content":"three"}
        ]))
        .unwrap();
        let (out, removed) = trim_task(&msgs, 1, Counter::Heuristic);
        assert_eq!(removed, 3, "the step and both parallel results");
        assert_eq!(out.len(), 3);
        assert_eq!(out[0], msgs[0]);
        assert!(is_paired(&out));
        // the newest unit is never removed
        let (out, removed) = trim_task(&out, 10_000, Counter::Heuristic);
        assert_eq!(removed, 0);
        assert_eq!(out.len(), 3);
    }

    #[test]
    fn trim_drops_raw_steps_before_the_folded_message() {
        let mut msgs = vec![
            json!({"role":"user","content":"q"}),
            json!({"role":"user","content":format!("{FOLD_HEADER}\n\n{}", "condensed ".repeat(50))}),
        ];
        msgs.extend(step("a", "read_file", &"A".repeat(400)));
        msgs.extend(step("b", "read_file", "B"));
        let (out, removed) = trim_task(&msgs, 10, Counter::Heuristic);
        assert_eq!(removed, 2, "the oldest raw step and its result");
        assert_eq!(out[1], msgs[1], "the folded message stays");
        assert!(is_paired(&out));
        // only when nothing else is left does it go
        let (out, removed) = trim_task(&out, 100_000, Counter::Heuristic);
        assert_eq!(removed, 1);
        assert!(!out.iter().any(is_folded));
    }

    fn rec(role: &str, text: &str, t: i64) -> Record {
        serde_json::from_value(json!({"role": role, "content": text, "sendAt": t})).unwrap()
    }

    #[test]
    fn history_cuts_land_before_user_records_and_keep_the_newest() {
        let rs = vec![
            rec("assistant", "orphan", 1),
            rec("user", "a", 2),
            rec("assistant", "A", 3),
            rec("user", "b", 4),
            rec("user", "b again", 5),
            rec("assistant", "B", 6),
            rec("user", "c", 7),
            rec("assistant", "C", 8),
        ];
        assert_eq!(removable_prefixes(&rs, 2), vec![1, 3, 4]);
        assert_eq!(removable_prefixes(&rs, 0), vec![1, 3, 4, 6, 8]);
        assert_eq!(removable_prefixes(&rs[1..], 5), Vec::<usize>::new());
        for cut in removable_prefixes(&rs, 1) {
            assert!(cut == rs.len() || rs[cut].is_user());
        }
    }

    #[test]
    fn plan_trims_to_80_percent_of_the_budget() {
        let mut rs = Vec::new();
        for i in 0..50 {
            rs.push(rec("user", &"question ".repeat(20), 2 * i + 1));
            rs.push(rec("assistant", &"answer ".repeat(40), 2 * i + 2));
        }
        let opts = Options {
            counter: Counter::Heuristic,
            budget: 2000,
            max_bytes: DEFAULT_MAX_BYTES,
            keep_last: 2,
            raw_tools_budget: None,
            summarizer: &Offline,
        };
        let p = plan(rs.clone(), history_bytes(&rs), 0, &[], &opts).unwrap();
        assert!(p.over_tokens && p.tokens_before > 2000);
        assert!(p.tokens_after <= 1600, "{}", p.tokens_after);
        assert!(p.kept[0].is_user());
        assert_eq!(p.kept.len() + p.removed.len(), rs.len());
        assert_eq!(p.stages[0].stage, "trim");
        // a second plan on the result has nothing to do
        let again = plan(p.kept.clone(), history_bytes(&p.kept), 0, &[], &opts).unwrap();
        assert!(!again.has_work() && !again.over_tokens);
        assert_eq!(torii_cutoff(&p.kept, &p.removed), Some(p.kept[0].send_at));
    }

    #[test]
    fn byte_sizes_are_exact() {
        let rs = vec![rec("user", "héllo \"q\" <b>", 5), rec("assistant", "x", 0)];
        assert_eq!(
            history_bytes(&rs),
            crate::store::history::to_bytes(&rs).len() as u64
        );
        assert_eq!(
            history_bytes(&[]),
            crate::store::history::to_bytes(&[]).len() as u64
        );
    }
}
