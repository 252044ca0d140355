use super::*;
use crate::llm::offline::Offline;
use serde_json::json;

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
    // Agenvoy's fold sizes (docs/agenvoy-format.md#stage-tool-history)
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
