//! Property tests of the compaction engine over random histories: after
//! compact, tokens ≤ target or only protected turns remain; every record
//! that left history.json is archived byte-identical; no orphan tool call
//! or result; history.json starts with a user record.

use proptest::prelude::*;
use serde_json::{json, Value};

use sessionctl::engine::compact::{self, is_paired, removable_prefixes, Options, Task};
use sessionctl::engine::tokens::Counter;
use sessionctl::llm::offline::Offline;
use sessionctl::store::archive::Archive;
use sessionctl::store::history::{self, Record};
use sessionctl::store::layout::DataRoot;
use sessionctl::store::torii::Db;

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{1,200}",
        "[一-龥]{1,80}",
        "[a-zA-Z0-9(){};=<>\" ]{1,120}",
        Just(String::new()),
    ]
}

fn record() -> impl Strategy<Value = Record> {
    (
        prop_oneof![3 => Just("user"), 3 => Just("assistant"), 1 => Just("system")],
        text(),
        any::<bool>(),
        prop::option::weighted(
            0.85,
            1_700_000_000_000_000_000i64..1_800_000_000_000_000_000,
        ),
        prop::option::of("[a-z]{1,8}"),
    )
        .prop_map(|(role, t, parts, send_at, sender)| {
            let content = if parts {
                json!([{"type":"text","text":t},{"type":"image_url","image_url":{"url":"x"}}])
            } else {
                json!(t)
            };
            serde_json::from_value(json!({
                "role": role, "content": content,
                "sendAt": send_at.unwrap_or(0), "sender": sender.unwrap_or_default()
            }))
            .unwrap()
        })
}

/// A task history: question, then steps of 1–3 parallel calls each with
/// their results, sometimes a write_todo, steering or assistant text.
fn task() -> impl Strategy<Value = Vec<Value>> {
    prop::collection::vec((1usize..4, any::<bool>(), 0u8..4, text()), 0..14).prop_map(|steps| {
        let mut msgs = vec![json!({"role":"user","content":"the question"})];
        for (i, (parallel, todo, extra, t)) in steps.into_iter().enumerate() {
            let calls: Vec<Value> = (0..parallel)
                .map(|j| {
                    let name = if todo && j == 0 { "write_todo" } else { "read_file" };
                    json!({"id":format!("c{i}_{j}"),"type":"function","function":{"name":name,"arguments":"{\"p\":1}"}})
                })
                .collect();
            msgs.push(json!({"role":"assistant","content":"","tool_calls":calls}));
            for j in 0..parallel {
                msgs.push(json!({"role":"tool","tool_call_id":format!("c{i}_{j}"),"content":t.repeat(3)}));
            }
            match extra {
                1 => msgs.push(json!({"role":"user","content":format!("steer {t}")})),
                2 => msgs.push(json!({"role":"assistant","content":format!("thinking {t}")})),
                _ => {}
            }
        }
        msgs
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn compact_invariants(
        records in prop::collection::vec(record(), 0..60),
        tasks in prop::collection::vec(task(), 0..3),
        budget in 50u64..3000,
        keep_last in 0usize..4,
        max_bytes in prop::option::of(200u64..20_000),
    ) {
        let tasks: Vec<Task> = tasks
            .into_iter()
            .enumerate()
            .map(|(i, messages)| Task { name: format!("t{i}.json"), messages })
            .collect();
        let opts = Options {
            counter: Counter::Heuristic,
            budget,
            max_bytes: max_bytes.unwrap_or(u64::MAX),
            keep_last,
            raw_tools_budget: None,
            summarizer: &Offline,
        };
        let file_bytes = compact::history_bytes(&records);
        let plan = compact::plan(records.clone(), file_bytes, 0, &tasks, &opts).unwrap();

        // nothing reordered, nothing invented
        let mut joined = plan.removed.clone();
        joined.extend(plan.kept.clone());
        prop_assert_eq!(&joined, &records);
        if !plan.removed.is_empty() && !plan.kept.is_empty() {
            prop_assert!(plan.kept[0].is_user(), "history.json must start with a user record");
        }
        // under the target, or nothing more could be cut
        if plan.over_tokens {
            prop_assert!(
                plan.tokens_after as u64 <= plan.target_tokens
                    || removable_prefixes(&plan.kept, keep_last).is_empty(),
                "tokens {} > target {} with cuts left", plan.tokens_after, plan.target_tokens
            );
        }
        if plan.over_bytes {
            prop_assert!(
                plan.bytes_after <= opts.max_bytes * 4 / 5
                    || removable_prefixes(&plan.kept, keep_last).is_empty()
            );
        }
        prop_assert_eq!(plan.bytes_after, if plan.removed.is_empty() { file_bytes } else { compact::history_bytes(&plan.kept) });
        for t in &plan.changed_tasks {
            prop_assert!(is_paired(&t.messages), "orphan call or result in {}", t.name);
            prop_assert_eq!(&t.messages[0], &json!({"role":"user","content":"the question"}));
        }

        // apply to a real store: every removed record is archived, byte-identical
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("sessions/s/history")).unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        history::write(&root, &root.path().join("sessions/s/history.json"), &records).unwrap();
        let session = root.session("s").unwrap();
        let mut archive = Archive::open_write(&root, &root.archive_path()).unwrap();
        let mut db1 = Db::load(&root.store_dir(), 1).unwrap();
        let keys = db1.session_keys("s", 1);
        compact::apply(&plan, &session, &root, &mut archive, &mut db1, keys, 1).unwrap();
        for r in &plan.removed {
            let n: i64 = archive.connection().query_row(
                "SELECT COUNT(*) FROM messages WHERE session_id='s' AND send_at=?1 AND role=?2 AND content=?3",
                rusqlite::params![r.send_at, r.role, r.text().as_ref()],
                |x| x.get(0),
            ).unwrap();
            prop_assert!(n >= 1, "removed record not archived");
        }
        let written = history::parse(&std::fs::read(session.history_json()).unwrap(), &session.history_json()).unwrap();
        prop_assert_eq!(&written, &plan.kept);
        archive.fts_integrity_check().unwrap();
    }

    #[test]
    fn fold_never_orphans(t in task()) {
        if let Some((out, n)) = compact::fold_tool_steps(&t, &Offline).unwrap() {
            prop_assert!(is_paired(&out));
            prop_assert!(n >= 2);
            prop_assert_eq!(&out[0], &t[0]);
            let todos = out.iter()
                .flat_map(|m| m.get("tool_calls").and_then(Value::as_array).cloned().unwrap_or_default())
                .filter(|c| c["function"]["name"] == "write_todo")
                .count();
            prop_assert!(todos <= 1, "only the latest write_todo pair survives");
        }
    }
}
