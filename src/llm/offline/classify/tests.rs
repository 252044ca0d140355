use super::*;

fn lines(s: &str) -> Vec<String> {
    match user_sentence(s) {
        UserKind::Decisions(d) => d.iter().map(Decision::line).collect(),
        other => panic!("{s}: {other:?}"),
    }
}

#[test]
fn explicit_decisions_in_three_languages() {
    assert_eq!(
        lines("And switch to fs4 for the locking and bump MSRV to 1.75."),
        ["要：switch to fs4 for the locking and bump MSRV to 1.75"]
    );
    assert_eq!(
        lines("Don't add a retry loop around the lock, it would only hide the bug."),
        ["不要：add a retry loop around the lock"],
        "a reason clause is left out"
    );
    assert_eq!(
        lines("Also add a benchmark to CI, fail the build if it gets more than 20% slower."),
        ["要：add a benchmark to CI, fail the build if it gets more than 20% slower"],
        "a detail with a value stays"
    );
    assert_eq!(
        lines("And keep 14 days of them, compressed."),
        ["要：keep 14 days of them, compressed"]
    );
    assert_eq!(
        lines("那就不用 YAML 了，改成 TOML，用 `toml` 0.8。"),
        ["不要：YAML", "要：改成 TOML，用 `toml` 0.8"]
    );
    assert_eq!(lines("就用 PostgreSQL 16 吧。"), ["要：就用 PostgreSQL 16"]);
    assert_eq!(
        lines("夜間の自動再起動はしないでください。"),
        ["不要：夜間の自動再起動"]
    );
    assert_eq!(
        lines("監視は Prometheus で行きましょう。"),
        ["要：監視は Prometheus で行きましょう"]
    );
}

#[test]
fn reversals_name_the_old_value() {
    let d = &decisions_in("make it 10 minutes not 5 for the TTL, prices only change hourly.")[0];
    assert!(d.reverses && d.old_value.as_deref() == Some("5"), "{d:?}");
    let d = &decisions_in("The upstream is slower than I thought: timeout 10 s → 30 s.")[0];
    assert_eq!(d.old_value.as_deref(), Some("10 s"));
    let d = &decisions_in("Actually, make it Friday, not Thursday.")[0];
    assert_eq!(d.old_value.as_deref(), Some("Thursday"));
    assert!(!decisions_in("Use Redis for the cache.")[0].reverses);
}

#[test]
fn statements_of_fact_are_not_decisions() {
    for s in [
        "This test always fails on CI.",
        "这个特别重要。",
        "今は JSON にしています。",
        "We need a cache for the pricing API responses.",
        "我们的 CLI 要支持 YAML 配置文件，现在 `Config` 结构在 src/config.rs，用的是 serde_json。",
        "本番の web-03 で /var/log のディスク使用率が 92% になっています。",
    ] {
        assert_eq!(user_sentence(s), UserKind::Other, "{s}");
    }
}

#[test]
fn questions_pending_items_and_proposals_are_open() {
    for s in [
        "这个要产品确认，先记为待定。",
        "Should we backport this to the 0.9 branch?",
        "Let's leave the backport TBD until Maria confirms the MSRV policy.",
        "Maybe we should also split engine/export.rs, it's 700 lines?",
        "另外 `--config` 参数要不要支持环境变量 MYTOOL_CONFIG？",
        "ディスク増設の予算は部長の確認が必要です。",
        "web-04 にも同じ設定を入れるべきですか？",
        "Is 30 s enough?",
    ] {
        assert!(matches!(user_sentence(s), UserKind::Open(_)), "{s}");
    }
    for s in [
        "So what is the root cause?",
        "Can you dig into it?",
        "回滚方案呢？",
        "原因を調べてもらえますか？",
    ] {
        assert_eq!(user_sentence(s), UserKind::Other, "{s}");
    }
    for s in [
        "Thanks, that's exactly what I needed.",
        "なるほど。",
        "Morning.",
    ] {
        assert_eq!(user_sentence(s), UserKind::SmallTalk, "{s}");
    }
}

#[test]
fn approvals_and_proposals() {
    assert_eq!(
        user_sentence("Yes, do that."),
        UserKind::Approval {
            strong: true,
            rest: "do that".into()
        }
    );
    assert_eq!(
        user_sentence("LGTM, merge it once CI is green."),
        UserKind::Approval {
            strong: true,
            rest: "merge it once CI is green".into()
        }
    );
    assert!(is_deictic("do that") && !is_deictic("merge it once CI is green"));
    assert_eq!(
        proposal("I suggest we keep the guard alive until after the rename.").as_deref(),
        Some("keep the guard alive until after the rename")
    );
    assert!(proposal("あわせて、cron を入れておきましょうか？").is_some());
    assert!(proposal("The root cause is a race.").is_none());
}

/// Common ways of saying a decision, a deferral or an approval, in three
/// languages, written apart from the evaluation data.
#[test]
fn common_phrasings_are_classified() {
    // a decision said on its own or after an approval ("OK, keep …")
    let stated = |s: &str| match user_sentence(s) {
        UserKind::Decisions(d) => d,
        UserKind::Approval { rest, .. } => decisions_in(&rest),
        _ => Vec::new(),
    };
    let want = |s: &str| stated(s).iter().any(|d| d.polarity == Polarity::Want);
    let dont = |s: &str| stated(s).iter().any(|d| d.polarity == Polarity::DontWant);
    for s in [
        "We'll go with Postgres.",
        "Postgres it is.",
        "Final decision: Postgres for the ledger.",
        "Decided: we keep the monolith.",
        "OK, keep the monolith for now.",
        "I'll take option A.",
        "Please use UTC everywhere.",
        "Make sure the backup runs before the migration.",
        "就用 Redis 吧。",
        "定了，用 Redis。",
        "拍板：用 Redis 做缓存。",
        "改成每天一次。",
        "按方案二来。",
        "监控统一用 Prometheus。",
        "A 案で確定です。",
        "B 案でお願いします。",
        "監視は Datadog にします。",
        "やっぱり MySQL に戻します。",
    ] {
        assert!(want(s), "{s}: {:?}", user_sentence(s));
    }
    // ("その方向で": the request points back at the proposal, which it takes)
    for s in ["その方向で進めてください。", "それで進めてください。"] {
        assert!(
            matches!(user_sentence(s), UserKind::Approval { strong: true, .. }),
            "{s}: {:?}",
            user_sentence(s)
        );
    }
    for s in [
        "Let's not touch the schema.",
        "No new dependencies.",
        "We're dropping the Windows build.",
        "The Windows build is out.",
        "Not doing the rewrite this quarter.",
        "Skip the migration.",
        "别动生产库。",
        "先不做灰度。",
        "今回は見送ります。",
        "Redis はやめましょう。",
    ] {
        assert!(dont(s), "{s}: {:?}", user_sentence(s));
    }
    for s in [
        "Let's revisit this next week.",
        "Park that for now.",
        "I'll get back to you on the retention.",
        "Let me check with legal first.",
        "We'll decide after the demo.",
        "这个先放一放。",
        "这个下周再说。",
        "回头再讨论。",
        "一旦保留で。",
        "来週決めましょう。",
    ] {
        assert!(
            matches!(user_sentence(s), UserKind::Defer(_) | UserKind::Open(_)),
            "{s}: {:?}",
            user_sentence(s)
        );
    }
    for s in [
        "Ship it.",
        "Sounds good, merge it.",
        "+1",
        "Yep.",
        "Works for me.",
        "行。",
        "可以。",
        "そうしましょう。",
    ] {
        assert!(
            matches!(user_sentence(s), UserKind::Approval { .. }),
            "{s}: {:?}",
            user_sentence(s)
        );
    }
}

#[test]
fn japanese_clauses_joined_by_a_comma_and_terse_verbal_nouns() {
    let l = lines("通知の件名は英語で、本文には絵文字を入れないでください。");
    assert_eq!(l.len(), 2, "{l:?}");
    assert!(l[0].starts_with("要：") && l[0].contains("英語"), "{l:?}");
    assert!(
        l[1].starts_with("不要：") && l[1].contains("絵文字"),
        "{l:?}"
    );
    let l = lines("今回は Sectigo で契約。");
    assert!(
        l[0].starts_with("要：") && l[0].contains("Sectigo"),
        "{l:?}"
    );
    // a reason before the decision stays with it, in one line
    let l = lines("`Cancel` は冪等じゃないので、リトライ対象から外してください。");
    assert_eq!(l.len(), 1, "{l:?}");
    assert!(l[0].contains("Cancel"), "{l:?}");
}

#[test]
fn chinese_topic_then_adverb_then_verb_instructs() {
    let l = lines("客服先只给只读权限。");
    assert!(l[0].starts_with("要：") && l[0].contains("只读"), "{l:?}");
    let l = lines("先在预发环境上跑一遍。");
    assert!(l[0].starts_with("要："), "{l:?}");
    let l = lines("超时还是 20 秒吧，10 秒太短了。");
    assert!(l[0].contains("20 秒"), "{l:?}");
}

#[test]
fn reports_and_figures_are_not_decisions() {
    assert_eq!(
        user_sentence("監査チームは、ログを外に出さない構成なら OK とのことです。"),
        UserKind::Other
    );
    assert!(
        !matches!(
            user_sentence("先月のアラートは約 340 件で、半分が夜間でした。"),
            UserKind::Decisions(_)
        ),
        "a figure joined by で、 describes"
    );
}

#[test]
fn japanese_permission_volition_and_none_of() {
    let l = lines("残りの 3 件は次のスプリントに回していい。");
    assert!(l[0].starts_with("要："), "{l:?}");
    let l = lines("古いステージングは今日中に止めよう。");
    assert!(l[0].starts_with("要："), "{l:?}");
    let l = lines("夜間バッチの再実行は無しで。");
    assert!(l[0].starts_with("不要："), "{l:?}");
    let l = lines("旧プランは候補から外してください。");
    assert!(l[0].starts_with("不要："), "{l:?}");
    // a step after another, decided now, is no deferral
    let l = lines("本番の DB 変更は、2 人でレビューしてから流すことにします。");
    assert!(l[0].starts_with("要："), "{l:?}");
    assert!(is_deferral("コストを見てからにします。"));
    assert!(matches!(
        user_sentence("公開するかどうかは広報の確認次第です。"),
        UserKind::Open(_)
    ));
}

#[test]
fn a_terse_report_of_how_things_go_is_no_decision() {
    for s in [
        "lag draining, p95 0.4s",
        "raw obs getting big, 143 stations at 1/min",
        "consumer lag at 40k msgs, was ~0.3s before",
    ] {
        assert!(terse_decision(s).is_none(), "{s}");
    }
    for s in [
        "canary 5% starting 10:00",
        "time off: a free morning after any night with more than 2 pages",
        "prod tomorrow 10:00 UTC",
        "retention 30d, logging at debug for 2 days",
        "replicas 3, rolling update",
        "rate limiting 100 req/min per key",
        "standup moving to 9:30",
    ] {
        assert!(terse_decision(s).is_some(), "{s}");
    }
}

#[test]
fn a_chinese_topic_then_only_or_all_then_a_verb_instructs() {
    for s in [
        "回收商只处理隔断和文件柜。",
        "旧椅子全部带走。",
        "库里只留后四位。",
    ] {
        assert!(lines(s)[0].starts_with("要："), "{s}");
    }
    // a state, a past, a question, a wish: no instruction
    for s in [
        "我们只有两台服务器。",
        "数据全部丢了。",
        "这个接口只支持JSON。",
        "旧椅子全部带走？",
        "想统一做个埋点 SDK。",
        "他只吃素。",
        "老板只看结果。",
        "我只想睡觉。",
        "这个函数只处理字符串。",
    ] {
        assert!(
            !matches!(user_sentence(s), UserKind::Decisions(_)),
            "{s}: {:?}",
            user_sentence(s)
        );
    }
}

#[test]
fn a_no_that_reports_what_there_is_not_rules_nothing_out() {
    for s in [
        "no errors in the logs",
        "No new vendor is needed.",
        "no decision is required now",
        "no id-columns configured",
    ] {
        assert!(!matches!(user_sentence(s), UserKind::Decisions(_)), "{s}");
    }
    for s in [
        "no Redis in the hot path",
        "No new dependencies are to be added.",
    ] {
        assert!(lines(s)[0].starts_with("不要："), "{s}");
    }
}

#[test]
fn a_short_value_concluded_by_then_decides() {
    for (s, body) in [
        ("so 10 min off then i guess", "10 min off"),
        ("70 then.", "70"),
        ("2 vans then", "2 vans"),
        ("Two vans on Saturdays, then.", "Two vans on Saturdays"),
    ] {
        assert_eq!(lines(s), [format!("要：{body}")], "{s}");
    }
    // no value, or a time that is past or a bound: nothing settled
    for s in [
        "and then",
        "back in 2019 then",
        "until 5 then",
        "we meet at 5 then",
    ] {
        assert!(stated_decision(s).is_none(), "{s}");
    }
}

#[test]
fn worked_out_is_no_letting_go() {
    // 算了一下 / 算了一遍: "worked out", not "forget it"
    for s in [
        "我还是算了一下成本，大概要 3 万。",
        "财务又算了一遍，数字没问题。",
    ] {
        assert!(
            !matches!(user_sentence(s), UserKind::Decisions(ref d) if d.iter().any(|d| d.polarity == Polarity::DontWant)),
            "{s}"
        );
    }
}

#[test]
fn a_story_is_no_none() {
    // おはなし (a story) holds はなし (none): only a "none" that ends its
    // phrase says no
    for s in [
        "それから、おはなし会の日程のことで一つ訂正があります。",
        "会場は1階の児童室のおはなしコーナーを考えていますが、2階の多目的室も候補です。",
    ] {
        assert!(
            !matches!(user_sentence(s), UserKind::Decisions(ref d) if d.iter().any(|d| d.polarity == Polarity::DontWant)),
            "{s}"
        );
    }
    let l = lines("なので、おはなし会は第2土曜ではなく第3土曜にします。");
    assert!(l[0].starts_with("要："), "{l:?}");
    let l = lines("やっぱり Redis はやめます、メモリが足りないので。");
    assert!(l[0].starts_with("不要："), "{l:?}");
    let l = lines("Redis はやめたいので。");
    assert!(l[0].starts_with("不要："), "{l:?}");
    // a none that goes on: なしに, なしにして
    let l = lines("ステッカーはなしに決めました。");
    assert!(l[0].starts_with("不要："), "{l:?}");
    let l = lines("BGMはなしにして、静かにやりましょう。");
    assert!(l[0].starts_with("不要："), "{l:?}");
    let l = lines("CPU limit はなしで。");
    assert!(l[0].starts_with("不要："), "{l:?}");
    let l = lines("ログ出力はなしにします。");
    assert!(l[0].starts_with("不要："), "{l:?}");
}

#[test]
fn japanese_introductions_and_feelings_decide_nothing() {
    // both end in します, like a decision
    for s in [
        "みなと生活協同組合 情報システム課の武田と申します。",
        "このままだと少し遅い気がします。",
    ] {
        assert!(matches!(user_sentence(s), UserKind::Other), "{s}");
    }
    // who will do it is a decision, though it ends in がします
    for s in [
        "議事録は私がします。",
        "発注は総務がします。",
        "料金は 3,000 円に変更いたします。",
        "キャッシュは Memcached にします、運用が楽なので。",
        "2 人で確認してからやるルールにします。",
    ] {
        assert!(lines(s)[0].starts_with("要："), "{s}");
    }
}

#[test]
fn japanese_questions_that_ask_whether_something_is_so_ask_for_information() {
    assert_eq!(
        user_sentence("監視用のダッシュボードってありましたっけ？"),
        UserKind::Other
    );
    assert_eq!(
        user_sentence("このバケットにライフサイクルはありますか？"),
        UserKind::Other
    );
    assert!(matches!(
        user_sentence("ログの保存先はどうしましょう？"),
        UserKind::Open(_)
    ));
}

#[test]
fn chinese_values_set_by_a_verb_and_later_lets_deferrals() {
    let l = lines("备份本地留 3 天，30 天的放冷存储");
    assert!(l[0].starts_with("要：") && l[0].contains("30 天"), "{l:?}");
    let l = lines("调度器先别升级，先只调超时");
    assert!(l[0].starts_with("不要："), "{l:?}");
    assert!(!matches!(
        user_sentence("现在每次构建要 4 分多钟。"),
        UserKind::Decisions(_)
    ));
    assert!(is_deferral(
        "Whether we also ship an ARM build, let's leave that for after the launch."
    ));
    assert!(!is_deferral(
        "Then not yet for db-old, I'll talk to the vendor first."
    ));
}

#[test]
fn cjk_questions_without_a_question_mark_decide_nothing() {
    for q in [
        "納品形式はどうしましょう",
        "この設定で本番に出しますか",
        "那周末的排班呢",
        "夜班没人接怎么办",
        // asking for advice: a question word and a word of asking or weighing
        "你觉得备份放哪台机器比较好",
        "报表用什么格式合适",
    ] {
        assert!(is_question(q), "{q}");
        assert!(!matches!(user_sentence(q), UserKind::Decisions(_)), "{q}");
    }
    // 还是 is "still" as often as "or": no question by it alone
    assert!(!is_question("3 天以内还是只要组长批"));
    assert!(!is_question("还是用 Redis 吧"));
    // "anything will do" answers; a choice weighed with no question word decides
    assert!(!is_question("格式用什么都行"));
    assert!(!is_question("先用 CSV 比较好"));
}

#[test]
fn removal_verbs_rule_out_what_they_name() {
    let l = lines("scrap the loyalty banner, nobody clicks it");
    assert!(
        l[0].starts_with("不要：") && l[0].contains("loyalty banner"),
        "{l:?}"
    );
    let l = lines("drop the cache TTL to 5 min");
    assert!(l[0].starts_with("要："), "{l:?}");
    // a policy of removing is a "do"
    for policy in [
        "delete old backups after 30 days",
        "drop partitions older than a year",
    ] {
        let l = lines(policy);
        assert!(l[0].starts_with("要："), "{l:?}");
    }
    // "drop it" leaves the polarity to what "it" was
    let l = lines("Drop it.");
    assert!(l[0].starts_with("要："), "{l:?}");
    assert!(!matches!(
        user_sentence("no budget for a second QA contractor this year."),
        UserKind::Decisions(_)
    ));
}

#[test]
fn a_polite_request_to_change_the_product_decides_one_for_work_does_not() {
    let l = lines("中国語の案内も加えていただけますでしょうか。");
    assert!(l[0].starts_with("要：") && l[0].contains("中国語"), "{l:?}");
    for work in [
        "移行手順のドラフトを書いていただけますか。",
        "候補を整理していただけますでしょうか。",
        "設定方法を教えていただけますか。",
    ] {
        assert!(
            !matches!(user_sentence(work), UserKind::Decisions(_)),
            "{work}"
        );
    }
}

#[test]
fn a_polite_request_to_switch_off_is_a_dont_of_what_it_names() {
    // (new text) done ahead with おいて, after a reason clause
    let l = lines("深夜は利用者がいないので、自動アナウンスは切っておいていただけますか。");
    assert_eq!(l, ["不要：自動アナウンス"]);
    let l = lines("バックアップ通知のメールは停止していただけますでしょうか。");
    assert_eq!(l, ["不要：バックアップ通知のメール"]);
    // moving in time is a change too, and a "do"
    let l = lines("点検の開始を一週間遅らせていただけますか。");
    assert!(l[0].starts_with("要：") && l[0].contains("遅らせ"), "{l:?}");
}

#[test]
fn a_thing_named_and_put_off_not_now_is_not_wanted_now() {
    // (new text)
    assert_eq!(
        lines("read replicas not now, maybe after the migration"),
        ["不要：read replicas not now"]
    );
    assert_eq!(
        lines("dark mode - next release, not now"),
        ["不要：dark mode not now"]
    );
    // a bare "not now", a question, or a clause that says more is not one
    for s in [
        "Not now, let's see how the migration goes first",
        "can we skip replicas not now?",
        "we should add replicas but not now",
        "not nowhere near ready",
    ] {
        let said = match user_sentence(s) {
            UserKind::Decisions(ds) => ds.iter().map(|d| d.line()).collect(),
            _ => Vec::new(),
        };
        assert!(
            !said.iter().any(|l| l.starts_with("不要：")),
            "{s}: {said:?}"
        );
    }
}

#[test]
fn deferring_to_someone_or_to_later_is_a_deferral() {
    for s in [
        "We will defer it to the steering committee on 4 May.",
        "Keep the old rate for now and we'll come back to it.",
        "売上から引くのか分けるのか、経理に聞かないと分からない。",
    ] {
        assert!(matches!(user_sentence(s), UserKind::Defer(_)), "{s}");
    }
}

#[test]
fn a_will_be_and_a_state_foretells_it_does_not_decide() {
    for s in [
        "we'll be wrecked after brooklyn on a saturday",
        "I'll be late for the standup anyway.",
        "it will be fine on the small instance",
    ] {
        assert!(
            !matches!(user_sentence(s), UserKind::Decisions(_)),
            "{s}: {:?}",
            user_sentence(s)
        );
    }
    for s in [
        "we'll be using Postgres for the ledger",
        "We'll use Postgres for the ledger.",
    ] {
        assert!(
            matches!(user_sentence(s), UserKind::Decisions(_)),
            "{s}: {:?}",
            user_sentence(s)
        );
    }
}

#[test]
fn asking_someone_first_is_a_deferral_asking_for_something_is_not() {
    // the user's own errand: a person, maybe a time, nothing asked for
    for s in [
        "asking her",
        "ill ask him tonight and get back to u",
        "gotta ask finance first",
        "Ask Marta after standup.",
        "asking them mon",
        "ask the landlord first",
        "水道のことは大家さんに聞いてからにする",
        "部長に聞いてみるわー",
        "件数は経理に確認のうえ、改めてご連絡いたします。",
    ] {
        assert!(
            matches!(user_sentence(s), UserKind::Defer(_)),
            "{s}: {:?}",
            user_sentence(s)
        );
    }
    // what to ask for is decided ("ask for", "ask X to", "ask that")
    for s in [
        "ask Finance to create it with read-only permissions",
        "Ask for a 99.95% uptime commitment.",
        "We shall ask that flash photography be excluded.",
        "ask her to book the 7pm slot",
    ] {
        assert!(
            !matches!(user_sentence(s), UserKind::Defer(_)),
            "{s}: {:?}",
            user_sentence(s)
        );
    }
}

#[test]
fn formal_register_decisions() {
    for (s, body) in [
        (
            "We agree that refunds should go back to the original card.",
            "refunds should go back to the original card",
        ),
        (
            "Site managers are to approve overtime before the shift.",
            "Site managers are to approve overtime before the shift",
        ),
        (
            "Please ask Legal to review the clause.",
            "ask Legal to review the clause",
        ),
        // (an amount of money a budget line should be is set, whatever
        // the line is called)
        (
            "Materials and supplies should be $18,000 per year.",
            "Materials and supplies should be $18,000 per year",
        ),
    ] {
        match user_sentence(s) {
            UserKind::Decisions(ds) => assert_eq!(ds[0].body, body, "{s}"),
            other => panic!("{s}: {other:?}"),
        }
    }
    // agreeing with an assessment, a passive "is to be": no decision
    for s in [
        "I agree that the report is slow.",
        "The cause is to be found in the parser.",
        "The total should be around $500.",
        // (forecasts and sums, from an outside review)
        "The bill should be $85 roughly.",
        "So the total should be $451.",
        "The monthly payment should be $1,343 at that rate.",
        "Your refund should be $120 within 5 business days.",
        "Tuition should be $58,000 next year.",
    ] {
        assert!(!matches!(user_sentence(s), UserKind::Decisions(_)), "{s}");
    }
}

#[test]
fn a_bare_no_turns_down_the_phrase_before_it_and_the_rest_is_its_reason() {
    assert_eq!(
        lines("The smoothing window, no: riders already complain that the map lags, and a 3-fix window adds 20 seconds of lag."),
        ["不要：The smoothing window"]
    );
    assert_eq!(lines("Dark mode, no."), ["不要：Dark mode"]);
}

/// Formal English probes of session 17: the passive of taking something
/// away, a date moved, an owner named.
#[test]
fn formal_passives_moves_owners_and_concurrence() {
    assert_eq!(
        lines("Support for IE11 will be discontinued."),
        ["不要：Support for IE11"]
    );
    assert_eq!(
        lines("The nightly job will be decommissioned."),
        ["不要：nightly job"]
    );
    assert_eq!(
        lines("The launch is postponed to 10 March to allow QA an additional week."),
        ["要：The launch is postponed to 10 March to allow QA an additional week"]
    );
    assert_eq!(
        lines("Priya will take ownership of the migration."),
        ["要：Priya will take ownership of the migration"]
    );
    // (a report of a past removal, or a move that did not happen, is none)
    assert!(!matches!(
        user_sentence("The launch was not postponed to March."),
        UserKind::Decisions(_)
    ));
    // (what can be done, what nobody does, what was done, what is heard,
    // what a vendor does: none is a decision)
    for s in [
        "Old snapshots can be deleted from the console.",
        "Messages may be dropped if the queue is full.",
        "Nothing will be removed.",
        "Apparently the v1 API will be deprecated by the vendor next quarter.",
        "The ticket has been moved to the backlog.",
        "I heard Bob will take over the billing service.",
        "Nobody will take ownership of the legacy code.",
    ] {
        assert!(
            !matches!(user_sentence(s), UserKind::Decisions(_)),
            "{s}: {:?}",
            user_sentence(s)
        );
    }
}

#[test]
fn none_of_it_in_katakana_and_polite_forms_and_dropped_latin_names() {
    // ナシ in katakana, and なし before a polite or volitional ending
    for s in [
        "延長コードはナシで。",
        "二次会は今回ナシでお願いします。",
        "紙の回覧板はなしにします。",
        "BGM はなしにしよう。",
        "延長コードはナシでいきましょう。",
        "のぼり旗は今回ナシでいいです。",
        "横断幕はやっぱナシで。",
        "抽選会はもうナシでいいよ。",
    ] {
        let l = lines(s);
        assert!(l[0].starts_with("不要："), "{s}: {l:?}");
    }
    // (なし as part of a description is no "don't": "砂糖なしのレモネードにする")
    let l = lines("砂糖なしのレモネードにする。");
    assert!(l[0].starts_with("要："), "{l:?}");
    // a Latin name, then 不 + verb + 了: no longer done
    for s in ["sourcemap 不传了。", "那 ws_compression 不加了"] {
        let l = lines(s);
        assert!(l[0].starts_with("不要："), "{s}: {l:?}");
    }
    // (a state or a symptom of a named thing is no decision about it)
    assert_no_dont(&["nginx 不卡了", "bug 不复现了", "CI 不过了", "Redis 不通了"]);
    // (ナシ inside a word, or a result of a check, is not "none of it")
    assert_no_dont(&["デザートはリンゴと洋ナシで。", "点検結果は異常ナシ"]);
    // "won't bother with", "pass on" at the start: a no
    for s in [
        "We won't bother with the laminator.",
        "Pass on the raffle this year.",
    ] {
        let l = lines(s);
        assert!(l[0].starts_with("不要："), "{s}: {l:?}");
    }
    // (handing something on, or not bothering someone, is no rejection)
    assert_no_dont(&[
        "I'll pass on the feedback to Dana.",
        "Pass on the full increase to customers from March 1.",
        "Hope I'm not bothering you on a Sunday.",
        "I won't bother you with the details.",
    ]);
    // "…就行": this much will do
    let l = lines("收据只打金额和日期就行。");
    assert!(l[0].starts_with("要："), "{l:?}");
}

/// None of `sentences` is a "don't".
fn assert_no_dont(sentences: &[&str]) {
    for s in sentences {
        let l = lines_or_none(s);
        assert!(!l.iter().any(|l| l.starts_with("不要：")), "{s}: {l:?}");
    }
}

fn lines_or_none(s: &str) -> Vec<String> {
    match user_sentence(s) {
        UserKind::Decisions(d) => d.iter().map(Decision::line).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn a_named_setting_that_is_correct_or_both_fine_is_accepted() {
    for s in [
        "The chilled threshold of 38°F is correct.",
        "The 48-hour notice and the 30-day window are both fine.",
    ] {
        let l = lines(s);
        assert!(l[0].starts_with("要："), "{s}: {l:?}");
    }
    // (a yes to a question of fact, or a doubt, is no acceptance)
    for s in [
        "Your understanding is correct.",
        "None of the 12 figures are correct.",
        "I'm not sure the 20% rate is correct.",
    ] {
        assert!(!matches!(user_sentence(s), UserKind::Decisions(_)), "{s}");
    }
    // "is to be set at": the formal register's order
    let l = lines("The reorder point is to be set at 12 units for every branch.");
    assert!(l[0].starts_with("要："), "{l:?}");
    let l = lines("Dormant accounts are to be removed from the mailing list.");
    assert!(l[0].starts_with("不要："), "{l:?}");
    // (what is to be made of it is no order)
    assert!(!matches!(
        user_sentence("It is unclear what is to be made of the figures."),
        UserKind::Decisions(_)
    ));
    // ("That is correct": a yes to a question of fact)
    assert!(!matches!(
        user_sentence("That is correct."),
        UserKind::Decisions(_)
    ));
}

#[test]
fn chinese_send_and_push_after_a_topic_and_japanese_removal_from_a_list() {
    for s in ["日报就发到运营群。", "周报推到群里就行"] {
        let l = lines(s);
        assert!(l[0].starts_with("要："), "{s}: {l:?}");
    }
    // (a report of what was sent is none)
    assert!(!matches!(
        user_sentence("他昨天就发了"),
        UserKind::Decisions(_)
    ));
    let l = lines("lodash は依存から消す。");
    assert!(l[0].starts_with("不要："), "{l:?}");
}

fn decided(s: &str) -> Vec<String> {
    match user_sentence(s) {
        UserKind::Decisions(d) => d.iter().map(Decision::line).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn grammatical_frames_settle_what_they_name_in_english() {
    // a subject given a value by a modal
    assert_eq!(
        decided("The warranty period should be 24 months."),
        ["要：The warranty period should be 24 months"]
    );
    assert_eq!(
        decided("The cut-off, however, must be 17:30 on weekdays."),
        ["要：The cut-off, however, must be 17:30 on weekdays"]
    );
    // a yes or a no to a thing
    assert_eq!(
        decided("Yes to the printed receipts."),
        ["要：the printed receipts"]
    );
    assert_eq!(
        decided("No to the loyalty stamps."),
        ["不要：the loyalty stamps"]
    );
    // a stated preference, and its negative
    assert_eq!(
        decided("We would rather not hire a second courier this winter."),
        ["不要：We would rather not hire a second courier this winter"]
    );
    assert_eq!(
        decided("I'd prefer to keep the paper forms for one more month."),
        ["要：I'd prefer to keep the paper forms for one more month"]
    );
    // a noun phrase concluded by "then"
    assert_eq!(
        decided("Two vans on Saturdays and one on Sundays, then."),
        ["要：Two vans on Saturdays and one on Sundays"]
    );
    // a named person given a task or a role
    assert_eq!(
        decided("Priya Nair will be the supplier contact."),
        ["要：Priya Nair will be the supplier contact"]
    );
    assert_eq!(
        decided("Oskar remains the budget owner."),
        ["要：Oskar remains the budget owner"]
    );
    // terse: a thing, then the word that takes it
    assert_eq!(decided("2 vans fine"), ["要：2 vans fine"]);
    assert_eq!(decided("export at 02:00 yes"), ["要：export at 02:00 yes"]);
    // "instead" makes a verb of showing an instruction
    assert_eq!(
        decided("show expired coupons greyed out instead"),
        ["要：show expired coupons greyed out instead"]
    );
    assert!(decided("show me the raw logs instead").is_empty());
    // two answers in one
    assert_eq!(
        decided("No to the stamps, yes to the receipts."),
        ["不要：the stamps", "要：the receipts"]
    );
}

#[test]
fn grammatical_frames_leave_reports_questions_and_pointers_alone() {
    for s in [
        // no value the modal gives; a pronoun for the subject
        "The report should be clearer.",
        "It should be 24 months.",
        // a question, a report of the future, a state of a person
        "Should the warranty period be 24 months?",
        "The courier will send it tomorrow.",
        "Priya will be on leave next week.",
        "We can talk about it later, then.",
        // the speaker or a pointer, not a thing
        "i'm fine",
        "that's fine",
        // a removal that points back leaves its polarity to what it points at
        "I would prefer to drop it.",
        // a copula is another rule's frame
        "the old printer is totally fine",
        // found by an adversarial review: a forecast, a hope, a state, a
        // goodbye, a "no" that opens a correction, a tool's task
        "The results should be 5% better than last year.",
        "Hopefully Sam will handle it.",
        "Jenkins will run the nightly tests.",
        "staging deploy ok",
        "Good night, then.",
        "No, to be clear, I want the green one",
        "We would have preferred a smaller van.",
        "The train should be at 7:40.",
        "Fair enough, then.",
        "I'd rather not say.",
        "Yes to some extent, but it's complicated.",
    ] {
        assert!(decided(s).is_empty(), "{s}: {:?}", decided(s));
    }
}

#[test]
fn grammatical_frames_settle_what_they_name_in_chinese_and_japanese() {
    // a copula that assigns, a choice, "not for now", "then let it be"
    assert_eq!(decided("押金拟调整为300元。"), ["要：押金拟调整为300元"]);
    assert_eq!(decided("对接人为行政部王芳。"), ["要：对接人为行政部王芳"]);
    assert_eq!(decided("打印机选第一款。"), ["要：打印机选第一款"]);
    assert_eq!(decided("夜班暂不安排保洁。"), ["不要：夜班暂不安排保洁"]);
    assert_eq!(
        decided("人太多了，那就分三组。"),
        ["要：人太多了，那就分三组"]
    );
    // a subject, a verb that gives it a value, the value
    assert_eq!(decided("盘点改到周四下午"), ["要：盘点改到周四下午"]);
    assert_eq!(decided("重试间隔调成 45 秒"), ["要：重试间隔调成 45 秒"]);
    // a subject ending in 数, two characters before 选
    assert_eq!(decided("并发数调整为200"), ["要：并发数调整为200"]);
    assert_eq!(decided("城市选杭州"), ["要：城市选杭州"]);
    // a space after a word that needs what follows parts nothing
    assert_eq!(decided("别 用Redis"), ["不要：用Redis"]);
    assert_eq!(decided("不用 加索引"), ["不要：加索引"]);
    // casual chat pauses with a space: each part is its own clause
    assert_eq!(
        decided("那算了 海报不印了 先把菜单做好"),
        ["不要：海报不印", "要：先把菜单做好"]
    );
    // a thing let go, a plain "will do" after its object, "X でいい"
    assert_eq!(decided("Slackはいいや"), ["不要：Slackはいいや"]);
    assert_eq!(
        decided("ログはS3に保存しとく"),
        ["要：ログはS3に保存しとく"]
    );
    assert_eq!(decided("定員12でいいけど"), ["要：定員12でいいけど"]);
    // the casual volitional keeps its よ; a thing asked for by は
    assert_eq!(decided("集合は駅前にしよ"), ["要：集合は駅前にしよ"]);
    assert_eq!(decided("名札の印刷はお願い"), ["要：名札の印刷はお願い"]);
    for s in [
        // a measure or a figure, a reason, the current state: not assigned
        "占比约为 40%。",
        "因为预算不够。",
        "目前押金为200元。",
        // a past pick, a tick box, a question
        "用户选了哪个城市？",
        "表单里只有简单的勾选。",
        "押金调整为多少？",
        // man-made, others' choices, a person's state, a conclusion
        "该事故人为失误导致",
        "大部分用户选择免费版",
        "我暂时不确定",
        "那就说明缓存没生效",
        "如果预算调整为50万的话再说",
        "运维把超时设置为30秒了",
        "负责人为此很生气",
        "我女儿选择学医",
        "对方暂时不回复",
        // what was done, or a report of last week
        "收银机设成了 UTC+8",
        "上周扩到 6 台之后，排队就少了",
        // a liking, a step of deliberation, a condition
        "通知が見えるのがいい",
        "担当は総務と相談する",
        "雨だったら中止する",
        // a plain する says how a thing behaves as often as what is decided
        "この関数は配列をソートする",
        // a habit, the weather, a question, "might be nice too", a removal
        "毎日ログは自動でローテートする",
        "天気がいい",
        "何にしよ",
        "カレーもいいかな",
        "ログは全部消しとく",
    ] {
        assert!(decided(s).is_empty(), "{s}: {:?}", decided(s));
    }
}

#[test]
fn yes_and_no_to_things_with_non_ascii_letters_split_safely() {
    assert_eq!(
        decided("No to the İİİİ İİİİ office, yes to the Zürich one."),
        ["不要：the İİİİ İİİİ office", "要：the Zürich one"]
    );
}

#[test]
fn a_preference_for_a_word_opening_with_a_wide_letter_is_read_whole() {
    assert_eq!(
        decided("I'd prefer évian for the meeting rooms."),
        ["要：I'd prefer évian for the meeting rooms"]
    );
}

#[test]
fn after_please_comes_a_verb_whichever() {
    assert_eq!(
        decided("Please revise the postdoc to $60,000."),
        ["要：revise the postdoc to $60,000"]
    );
    assert_eq!(
        decided("Kindly budget 60 hours of core time per year."),
        ["要：budget 60 hours of core time per year"]
    );
    for said in [
        "Please note that the office closes at 5.",
        "Please let me know by Friday.",
        "Please give me the totals per year.",
        "Please explain the MTDC base.",
        "Please confirm the rate with finance.",
        "Please, the numbers are wrong.",
        "Please revise the postdoc?",
        "please proceed.",
        "Please write a haiku about Kubernetes.",
        "Please enjoy the weekend.",
        "Please accept my apologies for the delay.",
        "Please sign the form before Friday.",
    ] {
        assert!(decided(said).is_empty(), "{said}: {:?}", decided(said));
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]
    /// The frames slice text by the offsets of what they matched: no mix
    /// of their words with letters wider than a byte (é, İ, CJK, emoji)
    /// cuts inside a character.
    #[test]
    fn no_sentence_of_frame_words_and_wide_letters_panics(
        s in "(I'd prefer |we would rather not |yes to |No to |, yes to |, then|should be |is fine| fine| ok|the retention period |Daniel remains the owner|show |instead| |, |，|、|。|é|İ|Ü|😀|東京|は|いいや|しとく|でいい|にしよ|选|为|拟调整为|暂不|那就|改到|设成了|7|30 秒|A|\\*\\*){0,16}"
    ) {
        let _ = user_sentence(&s);
    }
}

#[test]
fn the_agenda_and_what_was_said_to_others_decide_nothing() {
    for said in [
        "Let us move on to equipment.",
        "Moving on to the rota.",
        "he said fire code is fine as long as the aisle stays 36 inches",
    ] {
        assert!(decided(said).is_empty(), "{said}: {:?}", decided(said));
    }
    // (the agenda, then a decision; the speaker's own words)
    assert_eq!(
        decided("Move the job to Friday."),
        ["要：Move the job to Friday"]
    );
    assert_eq!(
        decided("Moving on, set the timeout to 30s."),
        ["要：set the timeout to 30s"]
    );
    assert_eq!(
        decided("I said no, we're going with Redis."),
        ["要：we're going with Redis"]
    );
}

#[test]
fn a_dont_that_removes_drops_its_verb_so_it_never_reads_as_the_opposite() {
    // ("不要：Cancel the meeting" would read "don't cancel the meeting")
    assert_eq!(decided("Cancel the meeting."), ["不要：the meeting"]);
    assert_eq!(
        decided("Don't cancel the meeting."),
        ["不要：cancel the meeting"]
    );
}

#[test]
fn chinese_directives_by_their_grammar() {
    for (said, want) in [
        ("灰度比例 20% 偏保守，请调整为 30%。", "要："),
        ("双轨运行同意上述方案。", "要："),
        ("物化视图可以，每天 3 点刷新 OK。", "要："),
        ("同意您的分析，由心内一病区试点。", "要："),
        ("管理员由该病区总务护士兼任。", "要："),
        ("补货频次按每周二、周五两次执行。", "要："),
        ("员工就别领新人券了，她们本来每天有一杯免费的", "不要："),
        ("外卖订单不给积分。", "不要："),
        ("Google Form 可以，中央厨房的阿强会用。", "要："),
        ("这个字段不导入", "不要："),
    ] {
        let d = decided(said);
        assert!(d.iter().any(|x| x.starts_with(want)), "{said}: {d:?}");
    }
    for said in [
        "请问这个要怎么配置",
        "请帮我整理一下会议纪要。",
        "其余规则同意。",
        "店员自己注册会员领新人券算不算薅羊毛哈哈",
        "按钮太小了，老人看不清。",
        "客户不同意这个价格。",
        "贴在盒子上别人都能看到。",
        "G1、G2 分别测过了。",
        "是不是由IT部门负责比较好",
        "这个项目一直由小李负责维护",
        "测试跑下来都没问题",
        "供应商不给退款",
        "价格不算高",
        "这个问题别担心",
        "两种方案都可以",
        "请删除按钮点了没反应",
        "这个方案领导同意没",
        "AWS 按小时计费",
    ] {
        assert!(decided(said).is_empty(), "{said}: {:?}", decided(said));
    }
}

#[test]
fn waiting_on_someone_or_asking_them_puts_a_question_off() {
    for said in [
        "also still waiting on maggie to tell me whether she wants 227s on the shelf",
        "I intend to raise with the clinical lead whether the vaccine should be automated.",
        "SAP对接下季度再议，本期不做。",
        "加价这个我做不了主，下周跟老板聊了再说。",
        "輸入元に CSV をいただけるか問い合わせております。",
        "開始時刻は副店長と相談のうえ決めたいと思います。",
    ] {
        assert!(is_deferral(said), "{said}");
    }
    assert!(!is_deferral("Use the Postgres job table instead."));
}

#[test]
fn how_a_thing_works_accepts_nothing() {
    for said in [
        "I'd like to understand how the cache works.",
        "I would like to know how the cache works.",
        "not sure whether 30 s works",
        "the old endpoint still works",
        "I doubt the retry logic works",
        "none of these works",
        "please take a look at the logs",
    ] {
        assert!(decided(said).is_empty(), "{said}: {:?}", decided(said));
    }
    assert_eq!(decided("30 s works."), ["要：30 s works"]);
}

#[test]
fn terse_orders_without_a_subject() {
    assert_eq!(
        decided("add: netops patch calendar in #sre."),
        ["要：add netops patch calendar in #sre"]
    );
    assert_eq!(decided("drop: the legacy flag"), ["不要：the legacy flag"]);
    for said in [
        "add: dark mode toggle (merged yesterday)",
        "remove: legacy v1 API — done in #4512",
        "pin: not needed anymore",
        "drop: maybe later",
        "update: no budget for extra workers this quarter",
        "also want world peace",
        "want a regex for emails",
    ] {
        assert!(decided(said).is_empty(), "{said}: {:?}", decided(said));
    }
}

#[test]
fn staying_posting_renting_and_assigning_are_orders() {
    for said in [
        "stay on dynamo for now.",
        "post the results to #ci-flakes.",
        "rent 3 from Westside.",
        "assign them to the on-call rotation.",
        "extend the trial to 30 days.",
        "stay on dynamo, we can revisit it later.",
    ] {
        assert_eq!(decided(said).len(), 1, "{said}: {:?}", decided(said));
    }
    // (a farewell is no order, a noun no verb)
    for said in [
        "stay tuned!",
        "stay safe out there",
        "post is scheduled for Monday.",
    ] {
        assert!(decided(said).is_empty(), "{said}: {:?}", decided(said));
    }
}

#[test]
fn a_decision_beside_a_word_of_checking_is_no_deferral() {
    for said in [
        "Deploy it on Monday and report back.",
        "Let me check: yes, use the 30-day retention.",
        "I'll find out the exact price and we'll pick the cheaper plan.",
    ] {
        assert!(!is_deferral(said), "{said}");
    }
}

#[test]
fn a_casual_reason_decides_nothing() {
    assert!(
        decisions_in("寝室兼用なんで").is_empty(),
        "{:?}",
        decisions_in("寝室兼用なんで")
    );
    // a verbal noun after its particle is the terse form of a next step
    for s in ["今回は DigiCert で更新", "第7条は法務に相談"] {
        assert!(!decisions_in(s).is_empty(), "{s}");
    }
}

#[test]
fn a_particle_closes_a_casual_chinese_clause_before_a_figure() {
    // "吧 300M": the space after 吧 parts two clauses as a comma would, so
    // the choice is a "do" and what is dropped after it a "don't"
    let ds = decisions_in("那还是电信吧 300M够用了 打游戏要紧 移动那个就算了 手机号不动就行");
    let want: Vec<&str> = ds
        .iter()
        .filter(|d| d.polarity == Polarity::Want)
        .map(|d| d.body.as_str())
        .collect();
    let dont: Vec<&str> = ds
        .iter()
        .filter(|d| d.polarity == Polarity::DontWant)
        .map(|d| d.body.as_str())
        .collect();
    assert!(want.iter().any(|b| b.contains("电信")), "{ds:?}");
    assert!(dont.iter().all(|b| !b.contains("电信")), "{ds:?}");
    // (not after a word that needs what follows, nor between a name and
    // its CJK word: "用 Redis", "升到 v2 了")
    assert_eq!(split_at_cjk_spaces("别 用Redis").len(), 1);
    assert_eq!(split_at_cjk_spaces("升到 v2 了").len(), 1);
    assert_eq!(split_at_cjk_spaces("行吧 3500 先按这个找").len(), 2);
    // (a review's probes: 了 ends a verb before its object as often as a
    // clause, Japanese keeps its own spacing, 酒吧 is a place)
    assert_eq!(
        split_at_cjk_spaces("最后还是选了 Redis 不用 Memcached").len(),
        1
    );
    assert_eq!(split_at_cjk_spaces("就这样定了 Tom来顶班").len(), 1);
    assert_eq!(split_at_cjk_spaces("デプロイ完了 v2.1 は問題なし").len(), 1);
    assert_eq!(split_at_cjk_spaces("周五去酒吧 KTV就算了").len(), 1);
}

#[test]
fn a_sentence_of_thousands_of_clauses_is_read_in_linear_time() {
    // (each clause once: the sentence's lowercase form was made again for
    // every clause, 17 s for a 180k-character line of casual chat; this one
    // took 30 s in a debug build that way, 2 s read once)
    let s = "测试吧 a1 好的 ".repeat(20_000);
    let started = std::time::Instant::now();
    let _ = decisions_in(&s);
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(10), "{took:?}");
}

#[test]
fn a_change_names_the_value_it_changes_and_the_one_it_sets() {
    let c = value_then_change("the audit runs on march 3. ugh.", "make it march 10").unwrap();
    assert_eq!((c.was.as_str(), c.now.as_str()), ("march 3", "march 10"));
    assert!(!c.bare);
    // a Japanese ending follows the new value
    let c = value_then_change("", "上限は5件だと少ないって言われたので8件にしてください").unwrap();
    assert_eq!((c.was.as_str(), c.now.as_str()), ("5件", "8件"));
    assert!(c.bare);
    assert_eq!(c.subject.as_deref(), Some("上限"));
    // the two ends of a range are no change
    assert_eq!(value_then_change("", "make the quiet hours 22-23"), None);
    assert_eq!(value_then_change("", "静音は 22〜23 時にして"), None);
    // a bare number of another sentence is not the one it changes
    assert_eq!(
        value_then_change("学生は1000で！", "会費やっぱ高いって文句でた 1800にする"),
        None
    );
    // no verb of change, no old value, or the same value twice
    assert_eq!(
        value_then_change("", "the audit is on march 3, the release on march 10"),
        None
    );
    assert_eq!(value_then_change("", "make it march 10"), None);
    assert_eq!(value_then_change("it was 30s.", "make it 30s"), None);
}

#[test]
fn a_change_from_one_value_to_another_is_no_range() {
    let pair = |s: &str| value_then_change("", s).map(|c| (c.was, c.now, c.subject));
    assert_eq!(
        pair("lower the review line from $300 to $200"),
        Some(("300".into(), "200".into(), Some("review line".into())))
    );
    assert_eq!(
        pair("风控建议将人工复核线从 $300 下调至 $200，我们同意"),
        Some(("300".into(), "200".into(), Some("人工复核线".into())))
    );
    assert_eq!(
        pair("同期間隔を30分から60分に変更して"),
        Some(("30分".into(), "60分".into(), Some("同期間隔".into())))
    );
    // a span is no change: no verb of change, or none in the gap
    assert_eq!(pair("quiet hours from 22:00 to 07:00"), None);
    assert_eq!(pair("营业时间从 9 点到 18 点"), None);
    assert_eq!(pair("受付は9時から17時まで"), None);
    // (a full stop before "from" is a character of three bytes)
    assert_eq!(
        pair("経理部から回答がありました。 from 3 to 5 days, move it"),
        None
    );
}

#[test]
fn the_formal_register_sets_rules_of_things_not_of_people() {
    let polarity = |s: &str| match user_sentence(s) {
        UserKind::Decisions(ds) => Some(ds[0].polarity),
        _ => None,
    };
    for s in [
        "Tips shall not be reimbursable under any circumstances.",
        "Refunds are not to be issued in cash.",
    ] {
        assert_eq!(polarity(s), Some(Polarity::DontWant), "{s}");
    }
    for s in [
        "The notice period shall be 30 days.",
        "The kick-off date is to be 3 March.",
        "Room bookings are to be made through the portal.",
    ] {
        assert_eq!(polarity(s), Some(Polarity::Want), "{s}");
    }
    // a person's plans, and what is still to settle, set nothing
    for s in [
        "I shall be in Leeds on Tuesday.",
        "I shall not be available next week.",
        "The venue is to be decided.",
        "Some delay is to be expected.",
    ] {
        assert_eq!(polarity(s), None, "{s}");
    }
}

#[test]
fn a_thing_that_stays_as_set_is_a_decision_a_reading_is_not() {
    // (new text)
    assert!(decided("audit logs stay 400d, compliance asked.")[0]
        .starts_with("要：audit logs stay 400d"));
    assert_eq!(
        decided("the beta flag stays off"),
        ["要：the beta flag stays off"]
    );
    assert_eq!(
        decided("the weekly review remains on Thursdays"),
        ["要：the weekly review remains on Thursdays"]
    );
    assert!(decided("heap usage stays flat after the fix").is_empty());
    assert!(decided("the drivers usually stay in the depot overnight").is_empty());
    assert!(decided("one point remains unclear").is_empty());
    assert!(decided("I will remain the contact for the auditors").is_empty());
    assert!(decided("the banner stays up until someone closes it").is_empty());
}

#[test]
fn a_terse_report_of_what_happens_is_no_decision() {
    for s in [
        "nightly backup eats the first 20 min of the window",
        "build cache costs us 40s per job",
        "license renewal starts tue mar 3",
        "the scanner keeps dropping 2 frames a sec",
        "audit team digs back 6 months",
        "export job times out at 60s",
        "replica lag hit 12s at peak",
        "first sync ran 14m, second 2m",
    ] {
        assert!(terse_decision(s).is_none(), "{s}");
    }
    for s in [
        "batches of 5",
        "api logs 14d then cold storage",
        "alerts yes, 300 on api",
        "celery workers back to 4",
        "nodes 2 per zone, max 12",
        "kayaks 2, from the outfitter",
    ] {
        assert!(terse_decision(s).is_some(), "{s}");
    }
}

#[test]
fn a_chinese_report_of_what_happens_is_no_decision() {
    for s in [
        "打包镜像每次都要 6 分钟",
        "对账脚本在测试机上跑要 25 秒",
        "财务那边已经核对过",
        "补丁已经打上了",
        "夜班交接表时不时漏填",
        "坐地铁每次都要四十分钟",
        "每次都要等半个小时审批才能上",
        "下载每次都要好几分钟",
    ] {
        assert!(
            !matches!(user_sentence(s), UserKind::Decisions(_)),
            "{s}: {:?}",
            user_sentence(s)
        );
    }
    // how a rule holds, not how things went
    for s in [
        "一直用 A 方案就行",
        "以后总是先写测试再写代码",
        "经常同步吧，每周至少两次",
    ] {
        let l = lines(s);
        assert!(l.len() == 1 && l[0].starts_with("要："), "{s}: {l:?}");
    }
    let l = lines("正在用的那台先别动，先迁备用机");
    assert!(l.iter().any(|x| x.starts_with("不要：")), "{l:?}");
    // a "no longer", a choice its report gives the reason for
    let l = lines("这个报表已经不用了");
    assert!(l[0].starts_with("不要："), "{l:?}");
    let l = lines("导出经常超时，那就改成异步导出");
    assert!(
        l.len() == 1 && l[0].starts_with("要：") && l[0].contains("异步导出"),
        "{l:?}"
    );
}

/// A choice named first and put off after it ("atlantis vs GHA, decide w/
/// Priya next sprint"), a decision left to a talk with someone ("PM と相談
/// して決めたい"), a matter put on hold ("先挂起") wait; a choice made with a
/// date to look again, or a decision taken after the talk, does not.
#[test]
fn a_choice_put_off_or_on_hold_waits() {
    for s in [
        "atlantis vs GHA, decide w/ Priya next sprint",
        "Atlantis or GHA, we will decide with Priya next sprint.",
        "画像は来週 PM と相談して決めたい。",
        "画像は PM と相談して決めます。",
        "AED 是否采购要等预算批复，先挂起。",
    ] {
        assert!(is_deferral(s), "{s}");
    }
    for s in [
        "Redis or Memcached, let's go with Redis and revisit next month.",
        "画像は PM と相談して決めました。",
        "Postgres vs MySQL, we went with Postgres last year.",
    ] {
        assert!(!is_deferral(s), "{s}");
    }
}

#[test]
fn a_japanese_clause_with_its_subject_in_ga_describes() {
    // "…が…で、" says what is; a pick in で names its topic with は
    assert!(matches!(
        user_sentence("参加者の大半が近所の高校生で、社会人は数名です。"),
        UserKind::Other
    ));
    assert_eq!(
        lines("司会は佐藤さんで、受付は田中さんでお願いします。"),
        ["要：司会は佐藤さんで、受付は田中さんでお願いします"]
    );
}

#[test]
fn a_thing_put_off_may_be_named_before_who_puts_it_off() {
    assert!(is_deferral(
        "The roof felt I'll decide next month, after payday."
    ));
    assert!(is_deferral("the venue we'll decide after the site visit"));
    // (a clause before the comma decides, the one after gives the reason)
    assert_eq!(
        lines("Then not yet for the old gateway, I'll talk to the vendor first."),
        ["不要：not yet for the old gateway"]
    );
}

#[test]
fn doubt_beside_a_choice_still_decides() {
    assert_eq!(
        lines("I'm not sure, but let's use NATS for the event bus."),
        ["要：use NATS for the event bus"]
    );
    assert!(matches!(
        user_sentence("I'm not sure the rooftop takes groups of 30."),
        UserKind::Open(_)
    ));
}

#[test]
fn a_setting_left_open_is_no_question() {
    // a port, an endpoint or a ticket kept open is what is done with it
    assert!(!is_deferral(
        "Keep the old endpoint open until the migration is done."
    ));
    assert!(!is_deferral(
        "leave port 8443 open until Friday, then close it"
    ));
    assert!(is_deferral(
        "Let's keep the catering as an open item for now."
    ));
    assert!(is_deferral("leave both open for now"));
    // the assistant has no port to leave open: it waits on the user
    assert!(leaves_open(
        "i will leave the cancellation fee open until you have spoken to ruth.",
        true
    ));
}

#[test]
fn who_takes_a_part_in_ga_is_decided() {
    assert!(matches!(
        user_sentence("発注は佐藤さんが担当で、月末までに済ませます。"),
        UserKind::Decisions(_)
    ));
    assert!(matches!(
        user_sentence("B社が第一候補で、C社は予備です。"),
        UserKind::Decisions(_)
    ));
}

#[test]
fn a_label_announces_the_decision_after_it() {
    assert_eq!(
        lines("Final answer: launch in three weeks with the banner included."),
        ["要：Final answer: launch in three weeks with the banner included"]
    );
}

/// "grpc-web nope, the proxy eats it": terse chat's verdict after the
/// thing it is on. A no keeps its reason, a yes its words; a sentence's
/// own subject or an option's letter is no such thing.
#[test]
fn a_verdict_after_a_thing_decides_about_that_thing() {
    let kind = |s: &str| match user_sentence(s) {
        UserKind::Decisions(ds) => ds
            .iter()
            .map(|d| (d.polarity, d.body.clone()))
            .collect::<Vec<_>>(),
        _ => Vec::new(),
    };
    assert_eq!(
        kind("grpc-web nope, the proxy eats it"),
        vec![(
            Polarity::DontWant,
            "grpc-web (the proxy eats it)".to_owned()
        )]
    );
    assert_eq!(
        kind("sticky sessions nah"),
        vec![(Polarity::DontWant, "sticky sessions".to_owned())]
    );
    assert_eq!(
        kind("weekly digest yes, people asked"),
        vec![(Polarity::Want, "weekly digest yes, people asked".to_owned())]
    );
    assert_eq!(
        kind("blue-green deploys for sure"),
        vec![(Polarity::Want, "blue-green deploys for sure".to_owned())]
    );
    assert_eq!(
        kind("the old printer goes, nobody uses it"),
        Vec::<(Polarity, String)>::new(),
        "an article opens a sentence, not a thing"
    );
    assert_eq!(
        kind("old printer goes, nobody uses it"),
        vec![(
            Polarity::DontWant,
            "old printer (nobody uses it)".to_owned()
        )]
    );
    assert_eq!(
        kind("bookshelf stays"),
        vec![(Polarity::Want, "bookshelf stays".to_owned())]
    );
    assert!(thing_then_verdict("rest fine").is_none());
    assert!(thing_then_verdict("that sounds good yes").is_none());
    assert!(thing_then_verdict("c no, keyed by tenant").is_none());
    assert!(thing_then_verdict("42 no").is_none());
    assert!(thing_then_verdict("Option B yes").is_none());
}

/// `s` decides, its first decision of `polarity`.
#[track_caller]
fn assert_decides(s: &str, polarity: Polarity) {
    assert!(
        matches!(user_sentence(s), UserKind::Decisions(ref ds) if ds[0].polarity == polarity),
        "{s}: {:?}",
        user_sentence(s)
    );
}

/// `s` states no decision of its own.
#[track_caller]
fn assert_no_decision(s: &str) {
    assert!(
        !matches!(user_sentence(s), UserKind::Decisions(_)),
        "{s}: {:?}",
        user_sentence(s)
    );
}

/// "报名表不填身份证", "旧服务器不予续保": a thing then "not store/fill/
/// grant/accept" rules it out, as "不给", "不送" do; another party's
/// refusal ("快递公司不接受到付") is theirs.
#[test]
fn a_chinese_thing_then_not_granted_kept_or_accepted_is_a_dont() {
    for s in [
        "会员手机号不存。",
        "报名表不填身份证号。",
        "这台旧服务器本季度不予续保。",
        "夜间值班不接受外包。",
    ] {
        assert_decides(s, Polarity::DontWant);
    }
    assert_no_decision("快递公司不接受到付。");
}

/// "sell the couch", "book the hall for saturday": plain orders of
/// everyday plans; "承認は必要", "ステージ構成は OK": a Japanese topic given
/// a verdict of need or approval.
#[test]
fn everyday_orders_and_japanese_verdicts_on_a_topic_decide() {
    for s in [
        "sell the old bike, nobody rides it.",
        "book the community hall for saturday.",
        "hire a second driver for december.",
        "本番反映には承認は必要。",
        "ステージ構成は OK。",
    ] {
        assert_decides(s, Polarity::Want);
    }
}

/// "The two-site rollout is approved as you describe it", "Items 3 and 4
/// are agreed: …": a plan approved in the passive is decided; approved by
/// someone else is a report.
#[test]
fn a_plan_approved_in_the_passive_is_decided() {
    for s in [
        "The two-site rollout is approved as you describe it, starting with Leeds in March.",
        "Items 3 and 4 are agreed: invoices go out on the 1st, reminders on the 15th.",
    ] {
        assert_decides(s, Polarity::Want);
    }
    assert_no_decision("The change is approved by the landlord.");
}

/// "日当やっぱ8,000に上げる", "在庫アラートは全部入れとこ": a Japanese value
/// raised or lowered in the plain form, and "let's put it in" (入れとこ),
/// decide; "24h yes" is a terse yes whose thing opens with a digit.
#[test]
fn plain_japanese_changes_and_a_terse_yes_to_a_duration_decide() {
    for s in [
        "相談したけど、日当やっぱ8,000に上げる。",
        "在庫アラートは全部入れとこ、メールもSlackも。",
        "24h yes.",
    ] {
        assert_decides(s, Polarity::Want);
    }
}

/// Shapes of mixed and formal chat that settle: a Chinese thing then the
/// Latin "OK", a Japanese item sealed by "それで結構です" (what it names is
/// the decision), a sign-off given to someone (由…会签), a cut put bluntly
/// (直接砍), a figure approved by a superior (承認をいただきました), a
/// Japanese "we will include / put in" (含めます, 入れます) and the verb
/// "flip".
#[test]
fn mixed_and_formal_shapes_that_settle() {
    let want = [
        "重试那个 OK。",
        "10,000 元以上由财务总监会签。",
        "部長に確認いたしましたところ、懇親会の予算は80万円で承認をいただきました。",
        "派遣の方も対象に含めます。",
        "0.5 入れます。",
        "flip checkout to the new pricing service mon 09:00 utc.",
    ];
    for s in want {
        assert_decides(s, Polarity::Want);
    }
    assert_decides("看了下 arm32 占比 0.1%，直接砍", Polarity::DontWant);
    assert_no_decision("测试组的 runbook");
    assert_eq!(
        user_sentence("集合時刻は8時半、それで結構です。"),
        UserKind::Approval {
            strong: true,
            rest: "集合時刻は8時半".to_owned()
        }
    );
}

/// "报销按月结算，可以；": a closing 可以 seals what the sentence states,
/// whatever mark ends it; after a report ("老板说预算要砍一半，可以") it
/// seals nothing.
#[test]
fn a_closing_keyi_seals_the_course_before_it() {
    for s in ["报销按月结算，可以。", "报销按月结算，可以；"] {
        assert_eq!(
            user_sentence(s),
            UserKind::Approval {
                strong: true,
                rest: "报销按月结算".to_owned()
            },
            "{s}"
        );
    }
    assert!(
        !matches!(
            user_sentence("老板说预算要砍一半，可以"),
            UserKind::Approval { ref rest, .. } if !rest.is_empty()
        ),
        "{:?}",
        user_sentence("老板说预算要砍一半，可以")
    );
}

/// Deciding later, elsewhere or by someone else is a deferral; deciding
/// now, handing the call over, or naming what to settle today is not.
#[test]
fn deciding_later_or_elsewhere_is_put_off() {
    for s in [
        "receipts: decide w/ the front desk team monday",
        "pm owner decide at standup tmrw",
        "ugh, figure that out after we see them at easter",
        "値上げ幅は来月の理事会で決定します。",
        "3位決定戦は時間見てから決めたい",
        "キッチンカーの料金: 課長にご確認中",
        "分摊的事等财务领导定",
        "待议：门店排班",
        "decide in tomorrow's sync",
        "来週の打ち合わせで決めましょう",
        "会議で決めさせてください",
        "部長に確認中です。",
        "还在等甲方回复。",
        "Savings Plans 等 prod 稳定一周后再评估",
    ] {
        assert!(is_deferral(s), "{s}");
    }
    for s in [
        "you decide, both are fine",
        "do you want to decide on the venue?",
        "まずセトリの曲数決めたい",
        "じゃあBに決めよう",
        "受付はQR方式で進めたいと思いますが、システムは確認中です",
        "红、黄、蓝等三种颜色都定了",
        "会员等级定为三级",
        "先週の会議で決定した通り、土曜は休みです",
        "let the scheduler decide which node runs it",
        "the client should decide which shard to hit, not the proxy",
        "feature flag lets ops decide at deploy time",
        "let's not decide based on hype, go with Postgres",
        "going with Postgres, ops will decide instance size next week",
        "理事会で決定いたしました。",
        "定例で決めてあります",
        "会議で決定事項を共有しました",
        "では、A案に決めさせていただきます",
        "システムは確認中ですが、受付はQR方式で進めます",
        "Postgres 確定、インスタンスサイズは確認中",
        "確認中だった件、OKが出たのでA案で進めます",
        "超时等待时间定为30秒",
        "北京上海等城市确定为首批试点",
        "不用等老板批了，就用A方案",
        "等他确认完就上线",
        "Whatever we decide at the retro, the deploy freeze stays.",
        "I'd rather decide today than later, so Redis it is.",
        "Reviewers decide during review whether a PR merges; that's the policy.",
        "理事会で決定となりました",
        "予算は理事会で決定するルールとします。",
        "確認中のチケットはすべてクローズします。",
        "ログを確認中に原因が分かったので、ロールバックで対応します。",
        "不需要等领导批，直接上线。",
        "接口要等对方回复才返回结果。",
        "MySQL 等数据库统一定为 UTF8。",
    ] {
        assert!(!is_deferral(s), "{s}");
    }
}
