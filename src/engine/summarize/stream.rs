//! The whole conversation of a session, each record once: the archive
//! (every record Agenvoy ever appended, including those compact or the
//! history cap removed from history.json) merged with history.json.
//!
//! A history record and an archive row are the same record when session,
//! sendAt, role and text are equal; matching walks both in order, so two
//! identical records without a sendAt stay two records. Order: archive rows
//! by time (a row without a sendAt takes the time of the row inserted
//! before it), history records where their archived copy is, and history
//! records missing from the archive by time among the archive rows.

use std::collections::{HashMap, VecDeque};

use serde_json::{Map, Value};

use crate::store::archive::ArchivedMessage;
use crate::store::history::Record;

/// The conversation, and where each history record is in it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Conversation {
    pub records: Vec<Record>,
    /// `history_at[i]`: index in `records` of history record `i`.
    pub history_at: Vec<usize>,
}

/// A time for every record: its sendAt, or the one of the record before.
fn effective_times(send_at: impl Iterator<Item = i64>) -> Vec<i64> {
    let mut last = 0;
    send_at
        .map(|t| {
            if t != 0 {
                last = t;
            }
            last
        })
        .collect()
}

fn archived_record(m: ArchivedMessage) -> Record {
    Record {
        role: m.role,
        content: Value::String(m.content),
        send_at: m.send_at,
        sender: m.sender,
        extra: Map::new(),
    }
}

/// Build the conversation. Only its part from `since` (ns) on needs to be
/// exact: archive rows older than that are left out (they are before any
/// cursor that far on), and older history records go first, unmatched.
/// With `since` 0 the whole conversation is built.
pub fn conversation(
    mut archived: Vec<ArchivedMessage>,
    history: &[Record],
    since: i64,
) -> Conversation {
    archived.sort_by_key(|m| m.id);
    let times = effective_times(archived.iter().map(|m| m.send_at));
    let mut rows: Vec<(i64, i64, Record)> = archived
        .into_iter()
        .zip(times)
        .filter(|(_, t)| *t >= since)
        .map(|(m, t)| (t, m.id, archived_record(m)))
        .collect();
    rows.sort_by_key(|(t, id, _)| (*t, *id));

    let mut by_key: HashMap<(i64, &str, String), VecDeque<usize>> = HashMap::new();
    for (i, (_, _, r)) in rows.iter().enumerate() {
        by_key.entry(key(r)).or_default().push_back(i);
    }
    let history_times = effective_times(history.iter().map(|r| r.send_at));
    let mut out = Conversation::default();
    let mut next_row = 0; // rows before this are in `out`
    let mut unarchived: Vec<usize> = Vec::new(); // history records waiting for their place
    let mut matched_at: Vec<Option<usize>> = vec![None; history.len()];
    for (i, h) in history.iter().enumerate() {
        if history_times[i] < since {
            matched_at[i] = Some(out.records.len());
            out.records.push(h.clone());
            continue;
        }
        let found = by_key.get_mut(&key(h)).and_then(|q| {
            while q.front().is_some_and(|&m| m < next_row) {
                q.pop_front();
            }
            q.pop_front()
        });
        match found {
            Some(m) => {
                flush(
                    &mut out,
                    &rows[next_row..m],
                    &mut unarchived,
                    history,
                    &history_times,
                    &mut matched_at,
                );
                matched_at[i] = Some(out.records.len());
                out.records.push(h.clone());
                next_row = m + 1;
            }
            None => unarchived.push(i),
        }
    }
    flush(
        &mut out,
        &rows[next_row..],
        &mut unarchived,
        history,
        &history_times,
        &mut matched_at,
    );
    out.history_at = matched_at
        .into_iter()
        .map(|at| at.expect("every history record was placed"))
        .collect();
    out
}

/// Emit archive-only `rows` and the waiting unarchived history records,
/// merged by time (archive first on ties).
fn flush(
    out: &mut Conversation,
    rows: &[(i64, i64, Record)],
    unarchived: &mut Vec<usize>,
    history: &[Record],
    times: &[i64],
    matched_at: &mut [Option<usize>],
) {
    let mut waiting = unarchived.drain(..).peekable();
    for (t, _, r) in rows {
        while let Some(&i) = waiting.peek().filter(|&&i| times[i] < *t) {
            matched_at[i] = Some(out.records.len());
            out.records.push(history[i].clone());
            waiting.next();
        }
        out.records.push(r.clone());
    }
    for i in waiting {
        matched_at[i] = Some(out.records.len());
        out.records.push(history[i].clone());
    }
}

fn key(r: &Record) -> (i64, &str, String) {
    (r.send_at, r.role.as_str(), r.text().into_owned())
}

#[cfg(test)]
mod tests;
