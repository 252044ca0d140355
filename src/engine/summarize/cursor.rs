//! Where a merge stopped, to the record (store::summary::Cursor), so that a
//! rerun neither skips a record in the cursor's second nor merges again a
//! record without a sendAt.

use chrono::TimeZone;
use sha2::{Digest, Sha256};

use super::{cursor_of, local_time};
use crate::store::history::Record;
use crate::store::summary::{Cursor, ExactCursor};

/// Index of the first record of `conversation` the summary does not hold.
///
/// With our exact cursor: just after the `tail_count` records from the
/// first one with sendAt `last_send_at`, if they hash the same; if they
/// changed, from that record again (merge twice rather than skip); if it is
/// gone, after the last record at or before its time. With only Agenvoy's
/// `last_message_time`: Agenvoy's rule, after the last record whose local
/// time is at or before it. No cursor: from the start.
pub fn position(conversation: &[Record], cursor: &Cursor) -> usize {
    if let Some(e) = exact_of(cursor) {
        let start = match e.last_send_at {
            0 => Some(0),
            t => conversation.iter().position(|r| r.send_at == t),
        };
        return match start {
            Some(s) => {
                let end = s.saturating_add(e.tail_count);
                let same =
                    end <= conversation.len() && tail_hash(&conversation[s..end]) == e.tail_hash;
                if same {
                    end
                } else {
                    s
                }
            }
            None => conversation
                .iter()
                .rposition(|r| r.send_at != 0 && r.send_at <= e.last_send_at)
                .map_or(0, |i| i + 1),
        };
    }
    match &cursor.time {
        Some(t) => conversation
            .iter()
            .rposition(|r| cursor_of(r).is_some_and(|rt| rt.as_str() <= t.as_str()))
            .map_or(0, |i| i + 1),
        None => 0,
    }
}

/// Our fields count only while they describe the record Agenvoy's field
/// names: if Agenvoy moved `last_message_time` since (keeping our fields,
/// or a clock change), its rule applies.
fn exact_of(c: &Cursor) -> Option<&ExactCursor> {
    let e = c.exact.as_ref()?;
    let named = (e.last_send_at != 0).then(|| local_time(e.last_send_at));
    (named == c.time).then_some(e)
}

/// The cursor after the first `merged` records of `conversation`.
pub fn cursor_at(conversation: &[Record], merged: usize) -> Cursor {
    let done = &conversation[..merged];
    let last = done
        .iter()
        .rev()
        .map(|r| r.send_at)
        .find(|t| *t != 0)
        .unwrap_or(0);
    let start = match last {
        0 => 0,
        t => done
            .iter()
            .position(|r| r.send_at == t)
            .expect("last is in done"),
    };
    Cursor {
        time: (last != 0).then(|| local_time(last)),
        exact: Some(ExactCursor {
            last_send_at: last,
            tail_count: merged - start,
            tail_hash: tail_hash(&done[start..]),
        }),
        merged_chars: None,
    }
}

/// What identifies the records merged at the cursor's time: sendAt, role
/// and text of each, hashed (SHA-256, first 128 bits in hex).
pub fn tail_hash(records: &[Record]) -> String {
    let mut h = Sha256::new();
    for r in records {
        h.update(r.send_at.to_string());
        h.update([0]);
        h.update(&r.role);
        h.update([0]);
        h.update(r.text().as_bytes());
        h.update([0xff]);
    }
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The conversation needs to be exact from this time (ns) on for
/// `position` to be right: the exact cursor's time, or an hour before
/// Agenvoy's local one (time zone changes); 0 for the whole of it.
pub fn since(cursor: &Cursor) -> i64 {
    if let Some(e) = exact_of(cursor) {
        return e.last_send_at;
    }
    let Some(t) = &cursor.time else { return 0 };
    chrono::NaiveDateTime::parse_from_str(t, "%Y-%m-%d %H:%M:%S")
        .ok()
        .and_then(|n| chrono::Local.from_local_datetime(&n).earliest())
        .and_then(|l| l.timestamp_nanos_opt())
        .map_or(0, |ns| (ns - 3_600_000_000_000).max(0))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn rec(role: &str, text: &str, t: i64) -> Record {
        serde_json::from_value(json!({"role": role, "content": text, "sendAt": t})).unwrap()
    }

    const T: i64 = 1_764_547_200_000_000_000;

    #[test]
    fn a_record_in_the_cursors_second_is_not_skipped() {
        let mut conv = vec![rec("user", "q", T), rec("assistant", "a", T + 300_000_000)];
        let c = cursor_at(&conv[..1], 1);
        assert_eq!(position(&conv, &c), 1, "the reply 0.3 s later is new");
        // Agenvoy's rule alone would skip it
        let agenvoy = Cursor {
            time: c.time.clone(),
            exact: None,
            merged_chars: None,
        };
        assert_eq!(position(&conv, &agenvoy), 2);
        conv.push(rec("user", "next", T + 5_000_000_000));
        assert_eq!(position(&conv, &cursor_at(&conv, 2)), 2);
    }

    #[test]
    fn records_without_a_time_are_merged_once() {
        let conv = vec![
            rec("user", "q", T),
            rec("assistant", "a", 0),
            rec("assistant", "b", 0),
        ];
        let c = cursor_at(&conv, 3);
        assert_eq!(
            (c.exact.as_ref().unwrap().tail_count, position(&conv, &c)),
            (3, 3)
        );
        let untimed = vec![rec("user", "x", 0), rec("assistant", "y", 0)];
        let c = cursor_at(&untimed, 2);
        assert_eq!((c.time.as_deref(), position(&untimed, &c)), (None, 2));
        let mut more = untimed.clone();
        more.push(rec("user", "z", 0));
        assert_eq!(position(&more, &c), 2);
    }

    #[test]
    fn changed_or_missing_records_are_merged_again_not_skipped() {
        let conv = vec![
            rec("user", "q", T),
            rec("assistant", "a", 0),
            rec("user", "r", T + 9_000_000_000),
        ];
        let c = cursor_at(&conv, 2);
        let mut edited = conv.clone();
        edited[1] = rec("assistant", "edited", 0);
        assert_eq!(
            position(&edited, &c),
            0,
            "from the record at the cursor's time"
        );
        let gone = vec![rec("user", "p", T - 5), rec("user", "r", T + 9_000_000_000)];
        assert_eq!(
            position(&gone, &c),
            1,
            "after the last record at or before it"
        );
        // a cursor Agenvoy moved since (our fields kept) follows Agenvoy
        let moved = Cursor {
            time: Some(local_time(T + 9_000_000_000)),
            exact: c.exact.clone(),
            merged_chars: None,
        };
        assert_eq!(position(&conv, &moved), 3);
    }

    #[test]
    fn since_covers_the_cursor() {
        let conv = vec![rec("user", "q", T)];
        assert_eq!(since(&cursor_at(&conv, 1)), T);
        let agenvoy = Cursor {
            time: Some(local_time(T)),
            exact: None,
            merged_chars: None,
        };
        assert!(since(&agenvoy) <= T - 3_599_000_000_000);
        assert_eq!(since(&Cursor::default()), 0);
    }
}
