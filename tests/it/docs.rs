//! The repo explains itself: comments point at docs/ in the repo, never at
//! files a reader of the repo does not have (the specification notes the
//! code was first written from) or at numbers of a tracker it does not
//! contain; and every `docs/<page>.md#<anchor>` link, in a comment or in
//! the Markdown pages, names a page and a heading that exist.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

/// "issue 17", "Issue 16:", "issues #3", "issue-12": a tracker number.
static TRACKER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\bissues?[\s#-]*#?\d+").unwrap());
static DOC_LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"docs/([A-Za-z0-9_.-]+\.md)(?:#([\w-]+))?").unwrap());
static RELATIVE_LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\]\(([A-Za-z0-9_.-]+\.md)?(?:#([^)\s]+))?\)").unwrap());

/// Names of the specification notes the code was written from. `bot.md` is
/// left out: it is also the name of a file in every Agenvoy session folder,
/// which comments rightly mention; a citation of it would carry a `§`.
const OUTSIDE_FILES: [&str; 9] = [
    "agenvoy-behaviour.md",
    "agenvoy-behavior.md",
    "behaviour.md",
    "behavior.md",
    "product.md",
    "storage.md",
    "toriidb.md",
    "design.md",
    "style-anchors.md",
];

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files_under(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_under(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// The comment text of each line of Rust source, with its line number: a
/// line that is a comment (`//`, `///`, `//!`), or what follows `// ` after
/// code. String literals are not comments and are not looked at.
fn comments(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("//") {
            out.push((i + 1, t));
        } else if let Some(at) = line.find(" // ") {
            // not inside a string: an even number of quotes before it
            if line[..at].matches('"').count() % 2 == 0 {
                out.push((i + 1, &line[at + 1..]));
            }
        }
    }
    out
}

/// What in `text` cites something outside the repository.
fn citations(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut found: Vec<String> = OUTSIDE_FILES
        .iter()
        .filter(|name| {
            lower.match_indices(*name).any(|(at, _)| {
                // a whole file name, not the tail of another one
                // (`agenvoy-behaviour.md` is listed on its own)
                let before = lower[..at].chars().next_back();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
            })
        })
        .map(|name| (*name).to_owned())
        .collect();
    if lower.contains("spec/") {
        found.push("spec/".into());
    }
    if text.contains('§') {
        found.push("a § section number".into());
    }
    if let Some(m) = TRACKER.find(text) {
        found.push(format!("a tracker number ({})", m.as_str()));
    }
    found
}

/// GitHub's anchor of a heading: lower case, everything but letters,
/// digits, `-`, `_` and spaces dropped, spaces made `-`; a repeated
/// heading gets `-1`, `-2`, ….
fn anchors(markdown: &str) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if fenced || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let slug: String = line[hashes..]
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.push(if *n == 0 { slug } else { format!("{slug}-{n}") });
        *n += 1;
    }
    out
}

/// Every `docs/<page>.md` and `docs/<page>.md#<anchor>` named in `text`.
fn doc_links(text: &str) -> Vec<(String, Option<String>)> {
    DOC_LINK
        .captures_iter(text)
        .map(|c| (c[1].to_owned(), c.get(2).map(|a| a.as_str().to_owned())))
        .collect()
}

/// Links of a page in docs/ to a sibling page or to itself: `(page.md#a)`,
/// `(#a)`.
fn relative_links(text: &str) -> Vec<(Option<String>, Option<String>)> {
    RELATIVE_LINK
        .captures_iter(text)
        .filter(|c| c.get(1).is_some() || c.get(2).is_some())
        .map(|c| {
            (
                c.get(1).map(|p| p.as_str().to_owned()),
                c.get(2).map(|a| a.as_str().to_owned()),
            )
        })
        .collect()
}

/// The headings' anchors of every page in docs/.
fn pages() -> BTreeMap<String, Vec<String>> {
    let mut files = Vec::new();
    files_under(&manifest().join("docs"), "md", &mut files);
    files
        .iter()
        .map(|f| {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            (name, anchors(&std::fs::read_to_string(f).unwrap()))
        })
        .collect()
}

/// Why a link to `page`#`anchor` leads nowhere, if it does.
fn broken(
    pages: &BTreeMap<String, Vec<String>>,
    page: &str,
    anchor: Option<&str>,
) -> Option<String> {
    let Some(heads) = pages.get(page) else {
        return Some(format!("docs/{page} does not exist"));
    };
    match anchor {
        Some(a) if !heads.iter().any(|h| h == a) => {
            Some(format!("docs/{page} has no heading with anchor #{a}"))
        }
        _ => None,
    }
}

/// Rust sources whose comments are held to this: all but this file,
/// whose own test feeds the checker the citations it must catch.
fn rust_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "examples"] {
        files_under(&manifest().join(dir), "rs", &mut files);
    }
    files.retain(|f| !f.ends_with("tests/it/docs.rs"));
    files
}

/// The Markdown pages of the repository (its own, not the fixture's).
fn markdown_pages() -> Vec<PathBuf> {
    let root = manifest();
    let mut files = Vec::new();
    files_under(&root.join("docs"), "md", &mut files);
    for f in [
        "README.md",
        "BENCHMARKS.md",
        "tests/RELIABILITY.md",
        "bench/NOTES.md",
    ] {
        if root.join(f).exists() {
            files.push(root.join(f));
        }
    }
    files
}

fn rel(p: &Path) -> String {
    p.strip_prefix(manifest())
        .unwrap_or(p)
        .display()
        .to_string()
}

#[test]
fn comments_cite_no_file_outside_the_repo_and_no_tracker_number() {
    let mut bad = Vec::new();
    for f in rust_sources() {
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, c) in comments(&text) {
            for what in citations(c) {
                bad.push(format!("{}:{n}: cites {what}: {}", rel(&f), c.trim()));
            }
        }
    }
    // Test pages are read as the code's comments are.
    let reliability = manifest().join("tests/RELIABILITY.md");
    let text = std::fs::read_to_string(&reliability).unwrap();
    for (i, line) in text.lines().enumerate() {
        for what in citations(line) {
            bad.push(format!("{}:{}: cites {what}", rel(&reliability), i + 1));
        }
    }
    assert!(
        bad.is_empty(),
        "say the rule, or link docs/agenvoy-format.md / docs/architecture.md:\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_docs_link_names_a_page_and_a_heading_that_exist() {
    let pages = pages();
    assert!(
        pages.contains_key("agenvoy-format.md") && pages.contains_key("architecture.md"),
        "the pages comments point at are missing: {:?}",
        pages.keys()
    );
    let mut bad = Vec::new();
    for f in rust_sources() {
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, c) in comments(&text) {
            for (page, anchor) in doc_links(c) {
                if let Some(why) = broken(&pages, &page, anchor.as_deref()) {
                    bad.push(format!("{}:{n}: {why}", rel(&f)));
                }
            }
        }
    }
    for f in markdown_pages() {
        let text = std::fs::read_to_string(&f).unwrap();
        let in_docs = f.parent() == Some(manifest().join("docs").as_path());
        let own = f.file_name().unwrap().to_string_lossy().into_owned();
        for (i, line) in text.lines().enumerate() {
            let mut links = doc_links(line);
            if in_docs {
                links.extend(
                    relative_links(line)
                        .into_iter()
                        .map(|(p, a)| (p.unwrap_or_else(|| own.clone()), a)),
                );
            }
            for (page, anchor) in links {
                if let Some(why) = broken(&pages, &page, anchor.as_deref()) {
                    bad.push(format!("{}:{}: {why}", rel(&f), i + 1));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "links that lead nowhere:\n{}",
        bad.join("\n")
    );
}

/// The checks above see what they must (else they would pass on anything).
#[test]
fn the_checker_catches_citations_and_broken_anchors() {
    let src = "let x = \"see toriidb.md\"; // fine: the string is no comment\n\
               /// replay (toriidb.md §1.4)\n\
               //! daemon API (Issue 17): writes\n\
               // the persona file bot.md is kept\n\
               fn f() {} // per agenvoy-behaviour.md\n\
               // issue-16 and issues #3\n";
    let found: Vec<(usize, Vec<String>)> = comments(src)
        .into_iter()
        .map(|(n, c)| (n, citations(c)))
        .filter(|(_, c)| !c.is_empty())
        .collect();
    let lines: Vec<usize> = found.iter().map(|(n, _)| *n).collect();
    assert_eq!(lines, [2, 3, 5, 6], "{found:?}");
    assert!(found[0].1.contains(&"toriidb.md".to_owned()), "{found:?}");
    assert!(found[0].1.iter().any(|c| c.contains('§')), "{found:?}");
    assert!(
        found[2].1 == ["agenvoy-behaviour.md"],
        "one name, not its tail too: {found:?}"
    );
    assert!(citations("see spec/toriidb.md").contains(&"spec/".to_owned()));
    assert!(citations("keeps 8 decisions; issues are reported").is_empty());

    let md = "# sessionctl's data\n## ToriiDB db 2: error memory\n```\n# not a heading\n```\n\
              ### Stage: trim\n### Stage: trim\n#### `start_at` and FTS5\n";
    assert_eq!(
        anchors(md),
        [
            "sessionctls-data",
            "toriidb-db-2-error-memory",
            "stage-trim",
            "stage-trim-1",
            "start_at-and-fts5"
        ]
    );
    let pages: BTreeMap<String, Vec<String>> = [("format.md".to_owned(), anchors(md))]
        .into_iter()
        .collect();
    let links =
        doc_links("see docs/format.md#stage-trim-1, docs/format.md#nowhere and docs/gone.md.");
    let verdicts: Vec<Option<String>> = links
        .iter()
        .map(|(p, a)| broken(&pages, p, a.as_deref()))
        .collect();
    assert!(verdicts[0].is_none(), "{verdicts:?}");
    assert!(
        verdicts[1].as_ref().is_some_and(|w| w.contains("#nowhere")),
        "{verdicts:?}"
    );
    assert!(
        verdicts[2]
            .as_ref()
            .is_some_and(|w| w.contains("does not exist")),
        "{verdicts:?}"
    );
    assert_eq!(
        relative_links("[a](format.md#x) [b](#y) [c](https://e.com) [d](json.md)"),
        [
            (Some("format.md".into()), Some("x".into())),
            (None, Some("y".into())),
            (Some("json.md".into()), None)
        ]
    );
}
