//! Hostile input: every parser of outside data gets arbitrary bytes and
//! must answer (Ok or a clean error), never panic or hang. Bounded case
//! counts keep this a few seconds in CI.

use crate::common::*;

use proptest::prelude::*;
use sessionctl::engine::{limits, summarize};
use sessionctl::store::{history, summary, tasks, torii};

fn json_like() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..400),
        // structured-ish: fragments of the real formats, cut anywhere
        (
            prop_oneof![
                Just(r#"[{"role":"user","content":[{"type":"text","text":"x"}],"sendAt":1,"sender":"a"}]"#),
                Just(r#"{"ts":1,"cmd":"SET","key":"a ","value":"
","expire_at":5,"vector":"AAAAAA=="}"#),
                Just(r#"{"key_decisions":[],"past_discussions":[{}],"current_discussion":{}}"#),
                Just(r#"[{"role":"assistant","tool_calls":[{"id":"a"}]},{"role":"tool","tool_call_id":"a"}]"#),
            ],
            0usize..200
        )
            .prop_map(|(s, cut)| s.as_bytes()[..cut.min(s.len())].to_vec()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    #[test]
    fn json_parsers_never_panic(bytes in json_like()) {
        let p = std::path::Path::new("x.json");
        let _ = history::parse(&bytes, p).map(|rs| rs.iter().map(|r| r.text().len()).sum::<usize>());
        let _ = summary::parse(&bytes, p).map(|s| s.is_valid());
        let _ = summary::parse_cursor(&bytes, p);
        let _ = tasks::parse(&bytes, p).map(|m| tasks::stats(&m));
        let _ = torii::aof::parse(&bytes);
    }

    #[test]
    fn aof_replay_never_panics(lines in proptest::collection::vec(json_like(), 0..20)) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("db_1")).unwrap();
        std::fs::write(dir.path().join("db_1/record.aof"), lines.join(&b'\n')).unwrap();
        let db = torii::Db::load(dir.path(), 1).unwrap();
        let _ = db.keys("*", 0);
    }

    #[test]
    fn text_parsers_never_panic(text in "\\PC{0,300}", tokens in proptest::option::of(0u64..10_000_000)) {
        if let Some((limit, _)) = limits::parse_overflow_error(&text, tokens) {
            prop_assert!((1_024..=10_000_000).contains(&limit));
        }
        let _ = summarize::parse_reply(&text);
        let _ = torii::glob::path_match(&text, "tui-alice:1764547200000000000");
    }
}

#[test]
fn a_huge_history_file_is_refused_without_reading_it() {
    let root = fixture_copy();
    let f = std::fs::File::create(root.path().join("sessions/tui-alice/history.json")).unwrap();
    f.set_len(1 << 30).unwrap(); // 1 GiB, sparse: no disk, no newline
    let started = std::time::Instant::now();
    let out = sessionctl(root.path())
        .args(["show", "tui-alice"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65));
    assert!(String::from_utf8_lossy(&out.stderr).contains("refusing to load it"));
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn toriidb_values_with_newlines_separators_and_bad_utf8_round_trip() {
    let root = fixture_copy();
    let r = root.path();
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(r.join(".store/db_1/record.aof"))
        .unwrap();
    f.write_all(b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"discord-9001:5\",\"value\":\"a\\nb\xe2\x80\xa8c\xff\"}\n").unwrap();
    f.write_all(&[b'x'; 1 << 20]).unwrap(); // a 1 MiB line of junk, then a torn tail
    drop(f);
    let d = db(r, 1);
    assert_eq!(
        d.get("discord-9001:5").unwrap().value,
        "a\nb\u{2028}c\u{FFFD}"
    );
    assert_eq!(d.report.oversize.len(), 1);
    // a write leaves a log ToriiDB reads, the odd value intact
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all", "--yes"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    logs_are_toriidb_readable(r);
    assert_eq!(
        db(r, 1).get("discord-9001:5").unwrap().value,
        "a\nb\u{2028}c\u{FFFD}"
    );
}

/// Sentences in the shapes the offline summarizer's rules read (labels,
/// corrections, removals, CJK values and particles, case-changing
/// letters), cut and glued at random.
fn conversation_text() -> impl Strategy<Value = String> {
    let shapes = proptest::sample::select(vec![
        "update: ",
        "And about the cap again: ",
        "kill avif. ",
        "Drop it. ",
        "For reporting-db, forget the replication, we use pg_upgrade. ",
        "Make it 3. ",
        "40 ページではなく 25 ページにします。",
        "検索の件ですが、",
        "不是 4 日，是 5 日跑。",
        "改成 2000 条，80% 提示可以。",
        "4 日那个不要了，",
        "关于节假日排班，",
        "你看着定吧，别太短就行。",
        "还有别的客户的箱码",
        "İSTANBUL ẞ: ",
        "Σ ΣΑΣ: ",
        "？",
        "：",
        "5 % ",
        "(",
        "（",
        "Another thing today: ",
        // (the shapes of session 17's rules)
        "O\u{212A}, go ahead. ",
        "Sounds reasonable, go ahead. ",
        "The smoothing window, no: ",
        "IE11 还支持吗？",
        "不缓存，",
        "Use JSON for the export. ",
        "Switch the export to CSV. ",
        "Export should be CSV after all. ",
        "moves to Monday. ",
        "```\nroom = \"2.6.1\"\n```\n",
        "Who owns the runbooks? ",
        "Both, actually — ",
        "Support for IE11 will be discontinued. ",
        "eu-central-1，",
        "それで進めてください。",
    ]);
    let piece = prop_oneof![shapes.prop_map(String::from), "\\PC{0,12}"];
    proptest::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    /// Whatever the text, the offline summarizer answers with a valid
    /// summary within its budget, record after record.
    #[test]
    fn offline_summaries_of_any_text_stay_valid(
        turns in proptest::collection::vec((any::<bool>(), conversation_text(), 0u32..2000), 1..8)
    ) {
        use sessionctl::llm::offline::Offline;
        use sessionctl::llm::Summarizer;
        let mut s = serde_json::json!({});
        let mut before = 0;
        let mut t = 1_767_225_600_000_000_000i64;
        for (user, text, minutes) in turns {
            t += i64::from(minutes) * 60_000_000_000;
            let r: history::Record = serde_json::from_value(serde_json::json!({
                "role": if user { "user" } else { "assistant" },
                "content": text,
                "sendAt": t,
            })).unwrap();
            let reply = Offline
                .merge_summary_within(&s, std::slice::from_ref(&r), None, Some(before))
                .unwrap();
            s = serde_json::from_str(&reply).unwrap();
            before += sessionctl::llm::source_chars(&r);
            prop_assert!(summary::is_valid(s.as_object().unwrap()), "{s}");
            let budget = sessionctl::llm::summary_budget(Some(before));
            prop_assert!(s.to_string().chars().count() <= budget, "{} > {budget}", s);
        }
    }
}
