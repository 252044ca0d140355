//! docs/json.md against real output: every command's `--json` is run and
//! each result must have every field the page lists for it (unless marked
//! optional) and no field it does not list; the envelope and error entries
//! likewise. A section of the page no run exercises is a failure too.

use crate::common::*;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

/// Section title (`sessions list`, `Envelope`, …) → (field → optional).
type Doc = BTreeMap<String, BTreeMap<String, bool>>;

fn doc() -> Doc {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/json.md")).unwrap();
    let mut doc = Doc::new();
    let mut titles: Vec<String> = Vec::new();
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            // "`reset`, `remove`" names two commands; "Envelope" one section.
            titles = if h.contains('`') {
                h.split(',')
                    .map(|t| t.trim().trim_matches('`').to_owned())
                    .collect()
            } else {
                vec![h.trim().to_owned()]
            };
            continue;
        }
        let Some(row) = line.strip_prefix("| `") else {
            continue;
        };
        let cells: Vec<&str> = row.split('|').collect();
        let field = cells[0].trim().trim_end_matches('`').to_owned();
        let optional = cells[1..]
            .iter()
            .any(|c| c.trim_start().starts_with("optional"));
        for t in &titles {
            doc.entry(t.clone())
                .or_default()
                .insert(field.clone(), optional);
        }
    }
    doc
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .cloned()
        .collect()
}

/// The object's fields against the section's: none missing, none unknown.
fn conforms(what: &str, v: &Value, fields: &BTreeMap<String, bool>) {
    let have = keys(v);
    let unknown: Vec<_> = have.iter().filter(|k| !fields.contains_key(*k)).collect();
    let missing: Vec<_> = fields
        .iter()
        .filter(|(f, optional)| !**optional && !have.contains(*f))
        .map(|(f, _)| f)
        .collect();
    assert!(
        unknown.is_empty() && missing.is_empty(),
        "{what}: not in docs/json.md: {unknown:?}; documented but missing: {missing:?}\n{v}"
    );
}

struct Checker {
    doc: Doc,
    seen: BTreeSet<String>,
}

impl Checker {
    fn run(&mut self, root: &std::path::Path, args: &[&str]) {
        let mut cmd = sessionctl(root);
        if args.starts_with(&["trash", "prune"]) {
            // what remove just put in the Trash is then an hour old
            cmd.env("SESSIONCTL_NOW", an_hour_from_now());
        }
        let out = cmd.args(args).arg("--json").output().unwrap();
        let v = json_of(&out);
        conforms(&format!("{args:?} envelope"), &v, &self.doc["Envelope"]);
        for e in v["errors"].as_array().unwrap() {
            conforms(&format!("{args:?} error"), e, &self.doc["Errors"]);
        }
        let command = v["command"].as_str().unwrap().to_owned();
        let fields = self
            .doc
            .get(&command)
            .unwrap_or_else(|| panic!("docs/json.md has no section for `{command}`"));
        let results = v["results"].as_array().unwrap();
        for r in results {
            conforms(&format!("{args:?} result"), r, fields);
        }
        if !results.is_empty() {
            self.seen.insert(command);
        }
        self.seen.insert("Envelope".into());
        if !v["errors"].as_array().unwrap().is_empty() {
            self.seen.insert("Errors".into());
        }
    }
}

#[test]
fn every_command_prints_what_docs_json_md_says() {
    let mut c = Checker {
        doc: doc(),
        seen: BTreeSet::new(),
    };
    let root = fixture_copy();
    let r = root.path();
    let exported = tempfile::tempdir().unwrap();
    let bundle = exported.path().join("discord-9001");
    for args in [
        &["sessions", "list"][..],
        &["show", "tui-alice"],
        &["show", "no-such-session"],
        &["search", "nginx", "--by", "keyword"],
        &["errors", "list"],
        &["errors", "show", "3f1c"],
        &["errors", "search", "permission"],
        &[
            "errors",
            "edit",
            "3f1c",
            "--action",
            "retry with 120s",
            "--yes",
        ],
        &["limits", "show"],
        &[
            "limits",
            "learn",
            "openai@gpt-4o",
            "--from-error",
            "maximum context length is 100000 tokens",
        ],
        &["compact", "--all", "--budget", "300", "--yes"],
        &["summarize", "--all", "--yes"],
        &["reset", "tui-alice", "--mode", "summary", "--yes"],
        &["remove", "tui-alice-2", "--yes"],
        &["log"],
        &["trash", "list"],
        &["undo", "--yes"],
        &["limits", "forget", "openai@gpt-4o", "--yes"],
        &["config", "show"],
        &[
            "export",
            "discord-9001",
            "-o",
            exported.path().to_str().unwrap(),
        ],
        &["remove", "discord-9001", "--yes"],
        &["trash", "prune", "--older-than", "1s", "--dry-run"],
        &[
            "import",
            bundle.to_str().unwrap(),
            "--as",
            "discord-copy",
            "--yes",
        ],
    ] {
        c.run(r, args);
    }
    let entry = std::fs::read_dir(r.join("sessions/.Trash"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .find(|n| n.starts_with("discord-9001_"))
        .expect("remove left a trash entry");
    c.run(
        r,
        &["trash", "restore", &entry, "--as", "discord-back", "--yes"],
    );

    // check: a finding; errors prune: an expired record.
    let root = fixture_copy();
    let r = root.path();
    {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(r.join(".store/db_2/record.aof"))
            .unwrap();
        let value = json!({"id": "aa01", "timestamp": 1764600000, "tool_name": "read_file",
            "keywords": ["read_file"], "symptom": "old", "action": "x", "outcome": "resolved"});
        let line = json!({"ts":1,"cmd":"SET","key":"read_file:1764600000000000001",
            "value": value.to_string(), "expire_at": 1700000000});
        writeln!(f, "{line}").unwrap();
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(r.join(".store/db_1/record.aof"))
            .unwrap();
        write!(f, "{{\"cmd\":\"SET\",\"key\":\"torn").unwrap();
    }
    c.run(r, &["check"]);
    c.run(r, &["errors", "prune", "--dry-run"]);

    // limits refresh against a real server.
    let server = TestServer::start(|_, _| {
        Reply::json(200, r#"{"claude":{"claude-sonnet-4-5":{"in":180000}}}"#)
    });
    c.run(r, &["limits", "refresh", "--url", &server.url, "--dry-run"]);

    let unexercised: Vec<_> = c.doc.keys().filter(|s| !c.seen.contains(*s)).collect();
    assert!(
        unexercised.is_empty(),
        "sections of docs/json.md no run produced: {unexercised:?}"
    );
}

/// A line clap refuses is the envelope too, naming the command it was for
/// and saying on one line what is missing.
#[test]
fn a_refused_line_is_an_envelope_naming_its_command() {
    let root = fixture_copy();
    let out = sessionctl(root.path())
        .args(["--json", "errors", "edit"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let v = json_of(&out);
    assert_eq!(v["command"], "errors edit");
    assert_eq!(v["ok"], false);
    let message = v["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("<ID>"), "{message}");
}
