use serde_json::json;

use super::*;

fn rec(role: &str, text: &str, t: i64) -> Record {
    serde_json::from_value(json!({"role": role, "content": text, "sendAt": t})).unwrap()
}

fn row(id: i64, r: &Record) -> ArchivedMessage {
    ArchivedMessage {
        id,
        session_id: "s".into(),
        send_at: r.send_at,
        role: r.role.clone(),
        content: r.text().into_owned(),
        sender: r.sender.clone(),
    }
}

fn texts(c: &Conversation) -> Vec<String> {
    c.records.iter().map(|r| r.text().into_owned()).collect()
}

#[test]
fn compacted_records_come_from_the_archive_once_and_in_order() {
    let all = [
        rec("user", "a", 10),
        rec("assistant", "b", 0),
        rec("user", "c", 30),
        rec("assistant", "d", 0),
    ];
    let archived: Vec<_> = all
        .iter()
        .enumerate()
        .map(|(i, r)| row(i as i64 + 1, r))
        .collect();
    // compact removed the first exchange from history.json
    let c = conversation(archived.clone(), &all[2..], 0);
    assert_eq!(texts(&c), ["a", "b", "c", "d"]);
    assert_eq!(c.history_at, [2, 3]);
    // nothing removed: the same, each record once
    assert_eq!(
        texts(&conversation(archived, &all, 0)),
        ["a", "b", "c", "d"]
    );
}

#[test]
fn identical_records_without_a_time_are_counted_not_collapsed() {
    let h = [rec("user", "ok", 0), rec("user", "ok", 0)];
    let c = conversation(vec![row(1, &h[0])], &h, 0);
    assert_eq!(texts(&c), ["ok", "ok"]);
    assert_eq!(c.history_at, [0, 1]);
}

#[test]
fn unarchived_history_records_take_their_place_by_time() {
    let a = [rec("user", "old", 10), rec("user", "older reply", 20)];
    let h = [rec("user", "new", 25), rec("user", "newest", 40)];
    // "newest" is archived, "new" is not (Agenvoy's insert failed)
    let archived = vec![row(1, &a[0]), row(2, &a[1]), row(3, &h[1])];
    let c = conversation(archived, &h, 0);
    assert_eq!(texts(&c), ["old", "older reply", "new", "newest"]);
    // rows repaired into the archive later (a higher id) still sort by time
    let archived = vec![row(7, &a[0]), row(2, &a[1]), row(3, &h[1])];
    assert_eq!(
        texts(&conversation(archived, &h, 0))[..2],
        ["old", "older reply"]
    );
}

#[test]
fn a_partial_build_agrees_with_a_full_one_from_since_on() {
    let all: Vec<Record> = (0..12)
        .map(|i| {
            rec(
                if i % 2 == 0 { "user" } else { "assistant" },
                &format!("m{}", i % 4),
                if i % 3 == 2 { 0 } else { 100 + i },
            )
        })
        .collect();
    let archived: Vec<_> = all
        .iter()
        .enumerate()
        .map(|(i, r)| row(i as i64 + 1, r))
        .collect();
    let history = &all[5..];
    let full = conversation(archived.clone(), history, 0);
    for since in [103, 106, 108] {
        let part = conversation(archived.clone(), history, since);
        let from = |c: &Conversation| c.records.iter().position(|r| r.send_at >= since).unwrap();
        assert_eq!(
            full.records[from(&full)..],
            part.records[from(&part)..],
            "since {since}"
        );
    }
}
