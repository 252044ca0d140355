//! Task histories as the stages see them: tool steps (an assistant call
//! message with its results), folding the oldest steps into one text
//! message, trimming without orphans, and the plain-text form for a model
//! that cannot read the earlier tool-call format.

use serde_json::{json, Value};

use super::*;

pub(super) fn role(m: &Value) -> &str {
    m.get("role").and_then(Value::as_str).unwrap_or("")
}

pub(super) fn text_of(m: &Value) -> String {
    crate::store::tasks::content_text(m).unwrap_or_default()
}

pub(super) fn calls(m: &Value) -> &[Value] {
    m.get("tool_calls")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

pub fn is_step(m: &Value) -> bool {
    role(m) == "assistant" && !calls(m).is_empty()
}

pub(super) fn call_id(c: &Value) -> &str {
    c.get("id").and_then(Value::as_str).unwrap_or("")
}

pub(super) fn call_name(c: &Value) -> &str {
    c.get("function")
        .and_then(|f| f.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("")
}

pub(super) fn call_args(c: &Value) -> &str {
    c.get("function")
        .and_then(|f| f.get("arguments"))
        .and_then(Value::as_str)
        .unwrap_or("")
}

pub(super) fn result_id(m: &Value) -> Option<&str> {
    (role(m) == "tool")
        .then(|| m.get("tool_call_id").and_then(Value::as_str))
        .flatten()
}

/// The latest write_todo call that has a result, as Agenvoy's plan pair:
/// an assistant message with only that call, then its result. The working
/// copy has every write_todo call and result removed (and an assistant
/// message left with no calls and no text dropped).
pub(super) fn take_plan_pair(msgs: &[Value]) -> (Vec<Value>, Vec<Value>) {
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

/// Agenvoy's fold size: round(20 % of the steps), at least 2, at most n − 1;
/// `None` below 3 steps.
pub fn fold_size(steps: usize) -> Option<usize> {
    if steps < 3 {
        return None;
    }
    let size = (steps as f64 * 0.2).round() as usize;
    Some(size.clamp(2, steps - 1))
}

/// Agenvoy's ToolHistory stage on one task history. Returns the new messages and the
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

/// Agenvoy's transcript: calls as `[call] name(args)`, results as `[result] …`,
/// assistant text as `[assistant] …`, user messages as `[context] …`.
pub(super) fn transcript(prefix: &[Value]) -> String {
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
pub(super) struct Unit {
    indices: Vec<usize>,
    is_step: bool,
}

/// TrimFallback on one task history: drop the oldest conversation
/// messages, then the oldest tool steps with all their results, until
/// `excess` tokens are freed. Keeps the question, the newest unit and the
/// latest write_todo step.
pub(super) fn trim_task(msgs: &[Value], excess: usize, c: Counter) -> (Vec<Value>, usize) {
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
pub(super) fn is_folded(m: &Value) -> bool {
    role(m) == "user" && {
        let t = text_of(m);
        t.starts_with(FOLD_HEADER) || t.starts_with(RAW_PREFIX)
    }
}

/// RawToolFallback, improved (docs/agenvoy-format.md#stage-raw-tool-fallback): the whole tool history as plain text
/// that keeps call names with short arguments, results cut head+tail to
/// `cap` characters, assistant text and steering messages.
pub(super) fn raw_text(msgs: &[Value], cap: usize) -> Vec<Value> {
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

/// No orphans: every tool result has its call, every call its results.
pub fn is_paired(msgs: &[Value]) -> bool {
    let s = crate::store::tasks::stats(msgs);
    s.orphan_calls == 0 && s.orphan_results == 0
}
