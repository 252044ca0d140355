//! What a user types: time filters, a wrong root, colour settings.

use crate::common::*;

fn listed(root: &std::path::Path, args: &[&str]) -> Vec<String> {
    let out = sessionctl(root)
        .args(["sessions", "list", "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let v = json_of(&out);
    let list = v.get("results").unwrap_or(&v["sessions"]);
    list.as_array()
        .unwrap()
        .iter()
        .map(|s| {
            s.get("session")
                .unwrap_or(&s["id"])
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

#[test]
fn a_bare_m_is_refused_and_months_and_dates_work() {
    let root = fixture_copy();
    let r = root.path();
    let before = snapshot(r);
    // `6m` deleting nearly everything is a mistake not to allow
    let out = sessionctl(r)
        .args(["remove", "--all", "--idle-for", "6m", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64), "{}", stderr(&out));
    assert!(stderr(&out).contains("`min`") && stderr(&out).contains("`mo`"));
    assert_eq!(before, snapshot(r));

    // the fixture's records are from 2025-12-01; now is later than that
    assert_eq!(listed(r, &["--idle-for", "1mo"]).len(), 3);
    assert!(listed(r, &["--idle-for", "100y"]).is_empty());
    assert_eq!(listed(r, &["--idle-for", "1y6mo"]).len(), 0);
    assert_eq!(listed(r, &["--idle-since", "2025-12-31"]).len(), 3);
    assert!(listed(r, &["--idle-since", "2025-01-01"]).is_empty());
    assert_eq!(listed(r, &["--older-than", "2025-12-31"]).len(), 3);
    assert!(listed(r, &["--older-than", "2020-01-01"]).is_empty());
    let out = sessionctl(r)
        .args(["sessions", "list", "--older-than", "2025-13-40"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
}

#[test]
fn a_reset_session_keeps_an_age() {
    let root = fixture_copy();
    let r = root.path();
    let out = sessionctl(r)
        .args(["reset", "tui-alice", "--mode", "all", "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // what is left (usage.log, config.json, the folder) dates it: just now
    assert!(listed(r, &["--idle-for", "1h"])
        .iter()
        .all(|s| s != "tui-alice"));
    let tomorrow = (chrono::Local::now() + chrono::Duration::days(1))
        .format("%Y-%m-%d")
        .to_string();
    assert!(
        listed(r, &["--idle-since", &tomorrow]).contains(&"tui-alice".to_owned()),
        "a reset session must still be selectable by age"
    );
    let out = sessionctl(r)
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(!text.contains("\"last_at\":null"), "{text}");
}

#[test]
fn a_folder_that_is_not_an_agenvoy_root_is_66() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["sessions", "list"][..],
        &["compact", "--all", "--yes"],
        &["remove", "--all", "--idle-for", "7d", "--yes", "--json"],
    ] {
        let out = sessionctl(dir.path()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(66), "{args:?}: {}", stderr(&out));
        // with --json the error is the envelope on stdout, else a line on stderr
        let said = if args.contains(&"--json") {
            let v = json_of(&out);
            assert_eq!(v["ok"], false);
            assert_eq!(v["errors"][0]["code"], 66);
            v["errors"][0]["message"].as_str().unwrap().to_owned()
        } else {
            stderr(&out)
        };
        assert!(said.contains("neither sessions/ nor .store/"), "{said}");
    }
    // an empty but real root is fine
    std::fs::create_dir(dir.path().join("sessions")).unwrap();
    let out = sessionctl(dir.path())
        .args(["sessions", "list"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}
