use serde_json::json;

use super::*;

fn rec(role: &str, text: &str, minute: i64) -> Record {
    let t = 1_767_225_600_000_000_000i64 + minute * 60_000_000_000;
    serde_json::from_value(json!({"role": role, "content": text, "sendAt": t})).unwrap()
}

fn run(records: &[Record]) -> Value {
    records
        .iter()
        .fold(json!({}), |s, r| apply(&s, r, crate::llm::SUMMARY_CAP))
}

#[test]
fn a_reversal_replaces_the_decision_and_its_stale_facts() {
    let s = run(&[
        rec("user", "Let's cache prices. Keep the TTL at 5 minutes.", 0),
        rec(
            "assistant",
            "Done: TTL stays 5 minutes in config/pricing.toml.",
            1,
        ),
        rec("user", "make it 10 minutes not 5 for the TTL.", 2),
    ]);
    assert_eq!(
        s["key_decisions"],
        json!([
            "要：cache prices",
            "要：make it 10 minutes not 5 for the TTL"
        ])
    );
    assert!(!s.to_string().contains("stays 5 minutes"), "{s}");
}

#[test]
fn pending_items_are_open_questions_never_decisions() {
    let s = run(&[
        rec("user", "预算方面，这个要产品确认，先记为待定。", 0),
        rec("user", "Should we backport this to 0.9?", 1),
    ]);
    assert_eq!(s["key_decisions"], json!([]));
    let p = s["current_discussion"]["perspectives"].as_str().unwrap();
    assert!(
        p.contains("Open: 预算方面") && p.contains("Open: Should we backport"),
        "{p}"
    );
}

#[test]
fn yes_do_that_adopts_the_proposal() {
    let s = run(&[
        rec("user", "The nightly import is slow since 2.3.0.", 0),
        rec("assistant", "The root cause is one fsync per row. I suggest we restore batching with 5,000 rows per transaction.", 1),
        rec("user", "Yes, do that.", 2),
    ]);
    assert_eq!(
        s["key_decisions"],
        json!(["要：restore batching with 5,000 rows per transaction"])
    );
    assert!(s["current_discussion"]["description"]
        .as_str()
        .unwrap()
        .contains("root cause"));
}

#[test]
fn a_new_subject_after_a_pause_becomes_a_new_discussion() {
    let first = rec(
        "user",
        "The nightly backup job fails with connection reset since Tuesday.",
        0,
    );
    let reply = rec(
        "assistant",
        "The root cause is the proxy idle timeout of 60 s.",
        1,
    );
    let same_hour = rec("user", "Write the release notes for 2.3.1 please.", 5);
    let next_day = rec("user", "Write the release notes for 2.3.1 please.", 24 * 60);
    let s = run(&[first.clone(), reply.clone(), same_hour]);
    assert_eq!(
        s["past_discussions"],
        json!([]),
        "a change of subject within the hour continues"
    );
    let s = run(&[first, reply, next_day]);
    assert_eq!(
        s["past_discussions"][0]["topic"],
        "The nightly backup job fails with connection reset since Tuesday"
    );
    assert_eq!(
        s["past_discussions"][0]["last_discussed"],
        "2026-01-01 00:01"
    );
    assert_eq!(
        s["current_discussion"]["topic"],
        "Write the release notes for 2.3.1"
    );
}

#[test]
fn unknown_keys_survive_and_the_summary_stays_valid_and_bounded() {
    let start = json!({"key_decisions": ["要：keep it"], "legacy_note": "x",
        "current_discussion": {"topic": "t", "description": "d.", "perspectives": "two views", "direction": "", "mood": 1}});
    let mut s = start;
    for i in 0..200 {
        s = apply(&s, &rec("user", &format!("Use backend-{i} for job-{i}, it was measured at {i} ms. By the way: topic {i}."), i * 90), crate::llm::SUMMARY_CAP);
    }
    assert_eq!(s["legacy_note"], "x");
    assert!(crate::store::summary::is_valid(s.as_object().unwrap()));
    assert!(s["key_decisions"].as_array().unwrap().len() <= MAX_KEY_DECISIONS);
    assert!(s["past_discussions"].as_array().unwrap().len() <= MAX_PAST_DISCUSSIONS);
    assert!(
        s.to_string().chars().count() <= crate::llm::SUMMARY_CAP,
        "{}",
        s.to_string().len()
    );
}

#[test]
fn applying_to_its_own_output_is_stable() {
    // What to_json writes, from_json reads back to the same state.
    let s = run(&[
        rec(
            "user",
            "Switch to fs4 and bump MSRV to 1.75. Should we backport it?",
            0,
        ),
        rec(
            "assistant",
            "Done. The root cause was a race in src/store/atomic.rs:88. Committed as 9c1e4f2.",
            1,
        ),
    ]);
    assert_eq!(Memory::from_json(&s).to_json(), s);
}

#[test]
fn scratch_debug() {
    let s = run(&[
        rec("user", "ok so two problems. Bump max_conns to 50 on both instances so we get through the day, and restart them.", 0),
        rec("assistant", "Done with the code: commit 7f3a9c2 on branch fix/report-rows-close: `defer rows.Close()` right after the query.", 1),
        rec("user", "Hm, right. Make it 35 then.", 2),
    ]);
    println!("{}", serde_json::to_string_pretty(&s).unwrap());
    println!("{:?}", super::subject::quantities("Make it 35 then"));
    println!(
        "{:?}",
        super::subject::quantities(
            "Bump max_conns to 50 on both instances so we get through the day, and restart them"
        )
    );
    println!(
        "{:?}",
        super::subject::subject_before(
            "Bump max_conns to 50 on both instances so we get through the day, and restart them",
            18
        )
    );
}
