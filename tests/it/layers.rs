//! The layers hold in one direction, checked by reading the sources:
//! command modules never import each other; `store` and `llm` import
//! nothing above them; the view imports no command; and the modules (two levels deep: `engine::reset`,
//! `store::torii`, `llm`, …) import each other without a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module a file belongs to, two levels deep: `src/engine/summarize/
/// refresh.rs` → `engine::summarize`, `src/output.rs` → `output`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .filter(|c| c != "mod")
        .collect();
    parts.iter().take(2).cloned().collect::<Vec<_>>().join("::")
}

/// Every `crate::a::b` a file names (in `use` lines and paths), outside
/// comments and `#[cfg(test)]` modules, as `a::b` (or `a` when `b` is not a
/// module of `a`).
fn imports(text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let path: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':' || *c == '{')
            .collect();
        let mut segs = path.split("::").filter(|s| !s.is_empty());
        let Some(a) = segs.next() else { continue };
        let a = a.trim_end_matches('{').to_string();
        let two = segs
            .next()
            .map(|b| format!("{a}::{}", b.trim_start_matches('{')));
        match two {
            Some(t) if modules.contains(&t) => out.insert(t),
            _ => out.insert(a),
        };
        // `use crate::engine::{batch, reset}`: each braced module too.
        if let Some(open) = path.find('{') {
            let inner_end = rest.find('}').unwrap_or(rest.len());
            let head = path[..open].trim_end_matches("::");
            for item in rest[open + 1..inner_end].split(',') {
                let name = item.trim().split("::").next().unwrap_or("").trim();
                let cand = format!("{head}::{name}");
                if modules.contains(&cand) {
                    out.insert(cand);
                }
            }
        }
    }
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let m = module_of(&src, f);
        let text = std::fs::read_to_string(f).unwrap();
        // `super::x` is `crate::<parent>::x`: the parent of the file's own
        // module (`commands/compact.rs` → `commands`).
        let rel = f.strip_prefix(&src).unwrap().with_extension("");
        let mut own: Vec<String> = rel
            .iter()
            .map(|c| c.to_string_lossy().into_owned())
            .filter(|c| c != "mod")
            .collect();
        own.pop();
        let text = if own.is_empty() {
            text
        } else {
            text.replace("super::", &format!("crate::{}::", own.join("::")))
        };
        let deps = imports(&text, &modules);
        g.entry(m.clone()).or_default().extend(
            deps.into_iter()
                .filter(|d| *d != m && !m.starts_with(&format!("{d}::"))),
        );
    }
    g
}

#[test]
fn command_modules_never_import_each_other() {
    let g = graph();
    let mut bad = Vec::new();
    for (m, deps) in &g {
        if !m.starts_with("commands::") {
            continue;
        }
        for d in deps.iter().filter(|d| d.starts_with("commands::")) {
            bad.push(format!("{m} → {d}"));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn lower_layers_import_nothing_above_them() {
    let g = graph();
    let above = |layer: &str| -> &'static [&'static str] {
        match layer {
            "store" => &[
                "engine", "commands", "cli", "cli_util", "llm", "output", "view",
            ],
            "llm" => &["engine", "commands", "cli", "cli_util", "output", "view"],
            "engine" => &["commands", "cli", "cli_util", "output", "view"],
            // The view is a face over cli_util and the engine, beside the
            // commands: it never borrows a command's code, nor they its.
            "cli_util" => &["commands", "view"],
            "view" => &["commands"],
            _ => &[],
        }
    };
    let mut bad = Vec::new();
    for (m, deps) in &g {
        let layer = m.split("::").next().unwrap();
        for d in deps {
            let top = d.split("::").next().unwrap();
            if above(layer).contains(&top) {
                bad.push(format!("{m} → {d}"));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn no_import_circles() {
    let g = graph();
    // Depth-first search for a back edge; report the circle found.
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|s| s == n) {
            let mut c = stack[i..].to_vec();
            c.push(n.to_owned());
            return Some(c);
        }
        if done.contains(n) {
            return None;
        }
        stack.push(n.to_owned());
        for d in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(d, g, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(n.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    for n in g.keys() {
        if let Some(c) = visit(n, &g, &mut Vec::new(), &mut done) {
            panic!("import circle: {}", c.join(" → "));
        }
    }
}

/// The reader sees what it must: braced lists, `super::` and plain paths
/// (else the tests above would pass on any source).
#[test]
fn the_reader_sees_imports_in_every_spelling() {
    let g = graph();
    let reset = &g["commands::reset"];
    assert!(reset.contains("cli_util::targets"), "{reset:?}");
    assert!(reset.contains("engine::reset"), "{reset:?}");
    let modules: BTreeSet<String> = [
        "commands::reset",
        "commands::summarize",
        "engine::summarize",
    ]
    .map(String::from)
    .into();
    let seen = imports(
        "use crate::commands::{batch_ui, summarize, Context};\nfn f() { crate::engine::summarize::x(); }\n// crate::commands::reset\n",
        &modules,
    );
    assert!(seen.contains("commands::summarize"), "{seen:?}");
    assert!(seen.contains("engine::summarize"), "{seen:?}");
    assert!(
        !seen.contains("commands::reset"),
        "comments are not imports"
    );
}

/// The code of `file`, outside comments and `#[cfg(test)]` modules.
fn code_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    text.split("#[cfg(test)]")
        .next()
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every write goes through the one runner (engine::batch): no command
/// module, nor the command layer's shared code, nor the view, takes a lock, checks for
/// Agenvoy, builds the stores a write applies to, or writes the operation
/// log itself. (Before the runner owned them, undo, trash restore/prune,
/// import, errors edit/prune and check --repair each did, and differed.)
#[test]
fn only_the_runner_locks_and_writes_the_operation_log() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let forbidden = [
        "lock::session(",
        "lock::store(",
        "lock::limits(",
        "lock::operation(",
        "ensure_not_running(",
        "Stores::new(",
        "Journal::new(",
        "journal.begin(",
        "journal.record(",
        "journal.note(",
        "journal.finish(",
        "close_incomplete(",
    ];
    let mut files = Vec::new();
    sources(&src.join("commands"), &mut files);
    sources(&src.join("cli_util"), &mut files);
    sources(&src.join("view"), &mut files);
    let mut bad = Vec::new();
    for f in &files {
        let code = code_of(f);
        for word in forbidden {
            if code.contains(word) {
                bad.push(format!(
                    "{}: {word}",
                    f.strip_prefix(&src).unwrap().display()
                ));
            }
        }
    }
    assert!(bad.is_empty(), "writes outside the runner: {bad:#?}");
    // and the check reads what it must: the runner itself does these
    let runner = code_of(&src.join("engine/batch/mod.rs"));
    for word in [
        "lock::store(",
        "lock::session(",
        "ensure_not_running(",
        "Journal::new(",
    ] {
        assert!(runner.contains(word), "the runner no longer does {word}");
    }
}

/// One clock: every read of the wall clock goes through `timefmt` (which
/// test builds can fix with SESSIONCTL_NOW), so ages in tables, cut-offs
/// such as `--older-than`, TTLs and oplog times agree.
#[test]
fn the_clock_is_read_only_in_timefmt() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut bad = Vec::new();
    for f in files.iter().filter(|f| !f.ends_with("timefmt.rs")) {
        let code = code_of(f);
        for word in ["Utc::now()", "Local::now()", "SystemTime::now()"] {
            if code.contains(word) {
                bad.push(format!(
                    "{}: {word}",
                    f.strip_prefix(&src).unwrap().display()
                ));
            }
        }
    }
    assert!(bad.is_empty(), "clock reads outside timefmt: {bad:#?}");
}

/// One HTTP client: every request is built by `net::client` (one user
/// agent, timeouts, no proxy for the daemon) and its body read under
/// `net::MAX_BODY`. Before, four modules each built their own, and the
/// embedding client had no cap, retry or user agent.
#[test]
fn http_clients_are_built_only_in_net() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut bad = Vec::new();
    for f in files.iter().filter(|f| !f.ends_with("net.rs")) {
        let code = code_of(f);
        for word in [
            "Client::builder(",
            "Client::new(",
            "ClientBuilder",
            "reqwest::blocking::get(",
            "reqwest::get(",
        ] {
            if code.contains(word) {
                bad.push(format!(
                    "{}: {word}",
                    f.strip_prefix(&src).unwrap().display()
                ));
            }
        }
    }
    assert!(bad.is_empty(), "HTTP outside net: {bad:#?}");
    let net = code_of(&src.join("net.rs"));
    assert!(
        net.contains("Client::builder("),
        "net no longer builds the client"
    );
}
