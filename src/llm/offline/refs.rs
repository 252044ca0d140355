//! The identifiers a discussion names, kept as a list of short items: a
//! package with its version, a commit with its message, a merge request, a ticket,
//! a host or an address, a port, a file.
//!
//! A long agent session states them once, often inside a command's output
//! ("[feat/x a41c9e2] webhooks: store…", "ssh loadgen-01.stg.internal"),
//! and the sentence around them rarely scores as a fact; what a later turn
//! asks for ("which pgx version?", "what was the MR?") is exactly them. A
//! discussion keeps them as a list of short items (`refs`, an extra key
//! beside `description`): "pgx v5.6.0", "a41c9e2 webhooks: store…",
//! "MR !412", a dozen of them in the room of two prose facts. Each item
//! names its own subject.

use std::sync::LazyLock;

use regex::Regex;

use super::lexicon::words;

/// A commit message kept after its id, at most (bytes).
const MESSAGE_BYTES: usize = 44;
/// Items read from one message, at most (the last ones), and from one
/// line.
const MAX_ITEMS: usize = 64;
const LINE_ITEMS: usize = 16;
/// Longest line read, in bytes: a minified file or a base64 blob holds
/// no identifier a reader asks for.
const LINE_BYTES: usize = 10_000;

/// `name version`, `name@version`, `name==version`, `name:version`,
/// `name (v1.2.3)`: the name is an ASCII token, the version two to four
/// numbers.
static NAMED_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)([A-Za-z][A-Za-z0-9_.+/-]*?)(\s+\(?|@|==|:)(v?[0-9]+\.[0-9]+(?:\.[0-9]+){0,2}(?:-[A-Za-z][A-Za-z0-9.]*|(?:rc|alpha|beta|a|b|dev|post)[0-9]*)?)",
    )
    .unwrap()
});
/// What follows a version when it changed: " → 7.2.4", " -> v5.6.0", " to 16.4".
static UPGRADE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:→|->|=>|to)\s*(v?[0-9]+\.[0-9]+(?:\.[0-9]+){0,2}(?:-[A-Za-z][A-Za-z0-9.]*)?)",
    )
    .unwrap()
});
/// "go1.22.5", "python3.12": a lowercase name running into its version.
static GLUED_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)([a-z]{2,})([0-9]+\.[0-9]+(?:\.[0-9]+)?(?:rc|alpha|beta|a|b|dev)?[0-9]*)(?-u:\b)",
    )
    .unwrap()
});
static HEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u:\b)[0-9a-f]{7,40}(?-u:\b)").unwrap());
/// What `git commit` prints: "[branch 1a2b3c4] message".
static COMMITTED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\[[^\]\s]+(?: \([^)]*\))? ([0-9a-f]{7,40})\] (.+)$").unwrap());
static CHANGE_REQUEST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(MR|PR|merge request|pull request)\s?([!#]?)([0-9]{1,6})(?-u:\b)")
        .unwrap()
});
/// "!412" as GitLab prints a merge request, "#5120" as an issue.
static BARE_REFERENCE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[\s(])([!#])([0-9]{2,6})(?-u:\b)").unwrap());
static TICKET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)[A-Z][A-Z0-9]{1,9}-[0-9]{1,10}(?:-[0-9]{1,6})?(?-u:\b)").unwrap()
});
static HOST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)localhost:[0-9]{2,5}(?-u:\b)|(?-u:\b)(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:internal|local|lan|corp|int|intra|com|net|io|org|dev|cloud|svc)(?::[0-9]{2,5})?(?-u:\b)",
    )
    .unwrap()
});
static ADDRESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?::[0-9]{2,5}|/[0-9]{1,2})?(?-u:\b)")
        .unwrap()
});
static PORT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:(?:^|[\s`'(=])(:)|(?-u:\b)port\s)([0-9]{2,5})(?-u:\b)").unwrap()
});
static FILE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\.(?:sql|go|rs|py|ts|tsx|js|mjs|java|kt|rb|php|ya?ml|json|toml|conf|sh|tf|ini|cfg|xml|properties|proto|gradle)(?-u:\b)",
    )
    .unwrap()
});

/// The identifiers `text` names, in order, each once (see `merge`).
/// `fenced` code (commands and their output) gives only what a command
/// states on purpose: pinned versions, the commits it made, the merge
/// requests, tickets, hosts and addresses it reaches; prose and inline
/// code give files and ports too.
pub fn references(text: &str) -> Vec<String> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut in_fence = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let trimmed = line.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        for (i, r) in line_references(trimmed, in_fence) {
            out.push((start + i, r));
        }
    }
    out.sort_by_key(|(i, _)| *i);
    // (a discussion keeps a few dozen: a dump of thousands costs no more
    // than its last ones)
    let skip = out.len().saturating_sub(MAX_ITEMS);
    let mut refs: Vec<String> = Vec::new();
    for (_, r) in out.into_iter().skip(skip) {
        merge(&mut refs, r);
    }
    refs
}

/// All a message names (`references`), then the versions its code blocks
/// pin, named as packages: what a discussion adds to its `refs`.
pub fn named_in(text: &str) -> Vec<String> {
    let mut refs = references(text);
    for p in code_pins(text) {
        merge(&mut refs, pin(&p));
    }
    refs
}

/// The versions a message's code blocks pin ("room-runtime 2.6.1"), in
/// order, each once. Prose sentences leave code out (see
/// `text::sentences`), but a dependency line, a `FROM` image or a
/// `required_version` is what a later reader asks for.
fn code_pins(text: &str) -> Vec<String> {
    static PINS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
        [
            // Gradle / Maven coordinates: "group:artifact:1.2.3"
            r#"["']([A-Za-z][\w.-]*):([A-Za-z][\w.-]*):(v?\d+\.\d+[\w.+-]*)["']"#,
            // requirements.txt: "name==1.2.3"
            r"^\s*()([A-Za-z][\w.-]*)\s*==\s*(\d+\.\d+[\w.+-]*)",
            // package.json: "\"name\": \"^1.2.3\""
            r#"^\s*"()(@?[\w./-]+)"\s*:\s*"[\^~>=]*(\d+\.\d+[\w.+-]*)""#,
            // Cargo.toml / pubspec / terraform: name = "1.2" / name: ^1.2.3
            // (quoted or with a range mark: not "learning_rate: 0.001")
            r#"^\s*()([A-Za-z][\w-]*)\s*[=:]\s*(?:\{[^}]*version\s*=\s*)?(?:["'][\^~>= ]*|[\^~])(\d+\.\d+[\w.+-]*)"#,
            // go.mod: "module/path v1.2.3"
            r"^\s*(?:require\s+)?()([\w.-]+/[\w./-]+)\s+(v\d+\.\d+[\w.+-]*)",
            // Dockerfile / compose: "FROM image:tag", "image: name:tag"
            r"^\s*(?i:from|image:)\s+()([\w./-]+):(v?\d[\w.+-]*)",
        ]
        .iter()
        .map(|p| Regex::new(&format!("(?m){p}")).unwrap())
        .collect()
    });
    let mut pins: Vec<String> = Vec::new();
    let mut in_fence = false;
    let mut block = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            if in_fence {
                for re in PINS.iter() {
                    for c in re.captures_iter(&block) {
                        // (an address is no version: "10.0.0.12")
                        if c[3].split('.').count() >= 4 {
                            continue;
                        }
                        let pin = format!("{} {}", &c[2], &c[3]);
                        if !pins.contains(&pin) {
                            pins.push(pin);
                        }
                    }
                }
                block.clear();
            }
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            block.push_str(line);
            block.push('\n');
        }
    }
    pins
}

/// Which earlier item an item replaces: the same commit, merge request or
/// package ("pgx v5.5.0" by "pgx v5.6.0"), else the same text. Read from
/// the text alone, so a list read back from a summary merges as it did
/// when it was made.
pub fn key_of(item: &str) -> String {
    let mut tokens = item.split(' ');
    let first = tokens.next().unwrap_or("");
    let second = tokens.next();
    if is_commit_id(first) {
        return format!("c:{}", &first[..7]);
    }
    // an address is one service, named or not ("pg-primary 10.0.0.5:5432"
    // and "10.0.0.5:6432" are two)
    if let Some(m) = ADDRESS.find(item) {
        return format!("a:{}", m.as_str());
    }
    // ("!412", "#77": a mark, then ASCII digits)
    let number = |t: &str| {
        t.strip_prefix(['!', '#'])
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
            .map(str::to_owned)
    };
    let request = match (first, second) {
        ("MR" | "PR", Some(n)) => number(n),
        (n, None) if n.starts_with('#') => number(n),
        _ => None,
    };
    if let Some(n) = request {
        return format!("m:{n}");
    }
    if let (Some(v), None) = (second, tokens.next()) {
        let v = v.trim_start_matches('v');
        if v.split('.').count() >= 2 && v.starts_with(|c: char| c.is_ascii_digit()) {
            return format!("v:{}", first.to_lowercase());
        }
    }
    format!("x:{}", item.to_lowercase())
}

fn is_commit_id(t: &str) -> bool {
    // (git abbreviates to 7 and more as a repository grows; a container's
    // id is 12)
    ((7..=10).contains(&t.len()) || t.len() == 40)
        && t.chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        && t.chars().any(|c| c.is_ascii_digit())
        && t.chars().any(|c| c.is_ascii_alphabetic())
}

/// Add `item` to the list: an item of the same key leaves it, and the
/// newest mention goes last (a commit named again without its message
/// keeps the message it was shown with).
pub fn merge(refs: &mut Vec<String>, item: String) {
    let key = key_of(&item);
    let old = refs
        .iter()
        .position(|x| key_of(x) == key)
        .map(|i| refs.remove(i));
    // (named again without its message or its name, an item keeps them;
    // "Redis 7.2.1" is no part of "Redis 7.2.10")
    let item = match old {
        Some(o) if o.starts_with(&format!("{item} ")) || o.ends_with(&format!(" {item}")) => o,
        _ => item,
    };
    refs.push(item);
}

/// The item to drop first: the oldest file (a path the repository
/// keeps), else the oldest bare address or port (it says what is where
/// only with a name), else the oldest item.
pub fn weakest(refs: &[String]) -> usize {
    let whole = |re: &Regex, r: &str| re.find(r).is_some_and(|m| m.len() == r.len());
    refs.iter()
        .position(|r| whole(&FILE, r))
        .or_else(|| {
            refs.iter()
                .position(|r| whole(&ADDRESS, r) || r.starts_with(':'))
        })
        .unwrap_or(0)
}

fn line_references(line: &str, fenced: bool) -> Vec<(usize, String)> {
    if line.len() > LINE_BYTES {
        return Vec::new();
    }
    let mut out = Vec::new();
    // (markdown emphasis and code marks are no part of a name:
    // "**k6** (v0.52.0)", "`pgx` v5.6.0")
    let plain = line.replace("**", "  ").replace('`', " ");
    let mut taken: Vec<(usize, usize)> = Vec::new();
    let free =
        |taken: &[(usize, usize)], a: usize, b: usize| taken.iter().all(|&(x, y)| b <= x || a >= y);
    // (a full stop after a name ends the sentence; a dot and a letter or
    // digit would continue the name)
    let continues = |rest: &str| {
        let mut cs = rest.chars();
        match (cs.next(), cs.next()) {
            (Some('.'), Some(c)) => c.is_ascii_alphanumeric(),
            (Some(c), _) => c == '-' || c == '_',
            _ => false,
        }
    };
    if let Some(c) = COMMITTED.captures(&plain) {
        let id = c.get(1).unwrap();
        taken.push((id.start(), id.end()));
        out.push((id.start(), commit(id.as_str(), Some(&c[2]))));
    }
    for m in ADDRESS.find_iter(&plain) {
        taken.push((m.start(), m.end()));
        // (a four-part version "0.9.9.14" is no address)
        let unroutable = m.as_str().starts_with("0.") && !m.as_str().starts_with("0.0.0.0");
        if !continues(&plain[m.end()..]) && !unroutable {
            // "| redis-01 | 10.20.1.11:6379 |": an address with the name of
            // what is there
            let text = match name_before(&plain[..m.start()]) {
                Some(n) => format!("{n} {}", m.as_str()),
                None => m.as_str().to_owned(),
            };
            out.push((m.start(), text));
        }
    }
    for m in HOST.find_iter(&plain) {
        let before = plain[..m.start()].chars().next_back();
        let labels = m
            .as_str()
            .split(':')
            .next()
            .unwrap_or("")
            .split('.')
            .count();
        let labels = if m.as_str().starts_with("localhost") {
            3
        } else {
            labels
        };
        let ported = m.as_str().contains(':');
        // (a web page and a mailbox are no hosts of the system)
        let web = m.as_str().starts_with("www.") || m.as_str().starts_with("docs.");
        if free(&taken, m.start(), m.end())
            && before != Some('@')
            && !continues(&plain[m.end()..])
            && (labels >= 3 || ported)
            && !web
        {
            taken.push((m.start(), m.end()));
            out.push((m.start(), m.as_str().to_owned()));
        }
    }
    for c in NAMED_VERSION.captures_iter(&plain) {
        let (name, sep, version) = (c.get(1).unwrap(), &c[2], c.get(3).unwrap());
        if !free(&taken, name.start(), version.end()) {
            continue;
        }
        // "Redis 7.0.15 → 7.2.4", "pgx v5.5.0 -> v5.6.0": the version it
        // went to
        let (version, end) = match UPGRADE.captures(&plain[version.end()..]) {
            Some(u) => (
                u.get(1).unwrap().as_str(),
                version.end() + u.get(0).unwrap().end(),
            ),
            None => (version.as_str(), version.end()),
        };
        let after = &plain[end..];
        if let Some(r) = named_version(name.as_str(), sep, version, after) {
            // "| Fluent Bit 3.0.7 |", "Visual Studio 17.9": a capitalised
            // word before a capitalised name is part of it (not a verb,
            // "Upgrade Redis 7.2")
            let head = &plain[..name.start()];
            let first = head
                .strip_suffix(' ')
                .and_then(|h| h.rsplit([' ', '|', '(', '\n', '\t']).next())
                .filter(|w| {
                    let lower = w.to_lowercase();
                    name.as_str().starts_with(|c: char| c.is_ascii_uppercase())
                        && w.len() >= 3
                        && w.starts_with(|c: char| c.is_ascii_uppercase())
                        && w.chars().all(|c| c.is_ascii_alphabetic())
                        && !is_common(&lower)
                        && !words("imperative_verbs").contains(&lower.as_str())
                });
            let (start, r) = match first {
                Some(w) => (name.start() - 1 - w.len(), format!("{w} {r}")),
                None => (name.start(), r),
            };
            taken.push((start, end));
            out.push((start, r));
        }
    }
    for c in GLUED_VERSION.captures_iter(&plain) {
        let m = c.get(0).unwrap();
        if free(&taken, m.start(), m.end()) && !continues(&plain[m.end()..]) {
            taken.push((m.start(), m.end()));
            out.push((m.start(), format!("{} {}", &c[1], &c[2])));
        }
    }
    for m in HEX.find_iter(&plain) {
        let t = m.as_str();
        let before = plain[..m.start()].chars().next_back();
        let after = plain[m.end()..].chars().next();
        // (a pod's or a build's hash, a UUID, a digest: no commit)
        if is_commit_id(t)
            && free(&taken, m.start(), m.end())
            && !before.is_some_and(|b| "-./#_:".contains(b))
            && !after.is_some_and(|a| "-_/".contains(a))
        {
            taken.push((m.start(), m.end()));
            // "a41c9e2 webhooks: store…" as `git log --oneline` prints it
            // (its refs "(HEAD -> main, origin/main)" left out)
            // (`sha1sum` puts two spaces before its file name)
            let message = (m.start() == 0 && !plain[m.end()..].starts_with("  "))
                .then(|| plain[m.end()..].trim())
                .map(
                    |m| match m.strip_prefix('(').and_then(|r| r.split_once(')')) {
                        Some((_, rest)) => rest.trim(),
                        None => m,
                    },
                )
                .filter(|m| !m.is_empty());
            out.push((m.start(), commit(t, message)));
        }
    }
    for c in CHANGE_REQUEST.captures_iter(&plain) {
        let m = c.get(0).unwrap();
        let kind = c[1].to_uppercase();
        let kind = if kind.starts_with("MERGE") || kind == "MR" {
            "MR"
        } else {
            "PR"
        };
        let mark = match &c[2] {
            "" if kind == "MR" => "!",
            "" => "#",
            m => m,
        };
        // ("a new PR 42 minutes": a record, not a request)
        if c[2].is_empty() && before_unit(&plain[m.end()..]) {
            continue;
        }
        taken.push((m.start(), m.end()));
        out.push((m.start(), format!("{kind} {mark}{}", &c[3])));
    }
    for c in BARE_REFERENCE.captures_iter(&plain) {
        let m = c.get(2).unwrap();
        if !free(&taken, m.start() - 1, m.end()) {
            continue;
        }
        // (a colour "#999999" is no issue)
        if &c[1] == "#" && m.as_str().len() == 6 {
            continue;
        }
        let text = match &c[1] {
            "!" => format!("MR !{}", m.as_str()),
            _ => format!("#{}", m.as_str()),
        };
        out.push((m.start(), text));
    }
    for m in TICKET.find_iter(&plain) {
        let project = m.as_str().split('-').next().unwrap_or("");
        // (a part of a longer id "EST-FD-2026-01", "ASL-2025-Q4" is none)
        let before = plain[..m.start()].chars().next_back();
        let whole = !before.is_some_and(|b| b == '-' || b.is_ascii_alphanumeric())
            && !plain[m.end()..].starts_with('-');
        let named = project.chars().take(2).all(|c| c.is_ascii_uppercase());
        if free(&taken, m.start(), m.end())
            && whole
            && named
            && !words("ticket_non_projects").contains(&project.to_lowercase().as_str())
        {
            taken.push((m.start(), m.end()));
            out.push((m.start(), m.as_str().to_owned()));
        }
    }
    if !fenced {
        for m in FILE.find_iter(&plain) {
            let before = plain[..m.start()].chars().next_back();
            // ("Node.js", "Next.js" name frameworks)
            let framework = m.as_str().ends_with(".js")
                && !m.as_str().contains('/')
                && m.as_str().starts_with(|c: char| c.is_ascii_uppercase());
            // (".github/…", ".golangci.yml": the dot is part of the name)
            let dotted = before == Some('.')
                && !plain[..m.start() - 1].ends_with(|c: char| c.is_ascii_alphanumeric());
            let start = if dotted { m.start() - 1 } else { m.start() };
            if free(&taken, m.start(), m.end())
                && before != Some('@')
                && !framework
                && !continues(&plain[m.end()..])
            {
                taken.push((start, m.end()));
                out.push((start, plain[start..m.end()].to_owned()));
            }
        }
        for c in PORT.captures_iter(&plain) {
            let m = c.get(2).unwrap();
            let next = plain[m.end()..].chars().next();
            // (":00" is the top of an hour; "left port 12 hours ago")
            if free(&taken, m.start(), m.end())
                && !m.as_str().starts_with('0')
                && !before_unit(&plain[m.end()..])
                && !next.is_some_and(|n| n == ':' || n == '.')
            {
                out.push((m.start(), format!(":{}", m.as_str())));
            }
        }
    }
    out.sort_by_key(|(i, _)| *i);
    out.truncate(LINE_ITEMS);
    out
}

/// The name right before a value ("redis-01 | 10.20.1.11", "sentinel
/// (10.20.1.21)"): a token of three letters or more, not a common word
/// ("at 10.20.3.15", "via 10.0.0.1" name nothing).
fn name_before(head: &str) -> Option<&str> {
    let head = head.trim_end_matches([' ', '|', ':', '(', '=', '\t']);
    // (a name is short: look no further back than 64 bytes)
    let from = (head.len().saturating_sub(64)..=head.len())
        .find(|&i| head.is_char_boundary(i))
        .unwrap_or(head.len());
    let head = &head[from..];
    let start = head
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || "_.-".contains(c)))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let name = head[start..].trim_matches(['.', '-']);
    let lower = name.to_lowercase();
    let named = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.len() >= 3
        && !words("version_non_names").contains(&lower.as_str())
        && !is_common(&lower);
    named.then_some(name)
}

/// A stop word, a linking word or a time word (lower case): no name.
fn is_common(lower: &str) -> bool {
    ["stopwords", "link_words", "time_words"]
        .iter()
        .any(|list| words(list).contains(&lower))
}

/// A commit, with the first sentence of its message when it was shown
/// with one (no "; ", "." or other sentence end in it: the item is read
/// as one sentence).
fn commit(id: &str, message: Option<&str>) -> String {
    let Some(m) = message else {
        return id.to_owned();
    };
    let end = ["。", "！", "？", ". ", "! ", "? "]
        .iter()
        .filter_map(|e| m.find(e))
        .min()
        .unwrap_or(m.len());
    let m = m[..end].replace(';', ",");
    let m = m.trim().trim_end_matches(['.', '!', '?']);
    if m.is_empty() {
        return id.to_owned();
    }
    format!("{id} {}", super::text::clip(m, MESSAGE_BYTES))
}

/// Does an amount's unit follow ("42 minutes", "1.5 mg/mL", " 12 hours")?
fn before_unit(after: &str) -> bool {
    let a = after.trim_start().to_lowercase();
    let word: String = a.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    a.starts_with(['%', '°']) || words("amount_units").contains(&word.as_str())
}

/// A pinned version as `code_pins` gives it ("github.com/jackc/pgx/v5
/// v5.6.0"), named as a package: "pgx v5.6.0".
fn pin(pinned: &str) -> String {
    match pinned.rsplit_once(' ') {
        Some((name, version)) => match short_name(name) {
            Some(short) => format!("{short} {version}"),
            None => pinned.to_owned(),
        },
        None => pinned.to_owned(),
    }
}

/// A path names its package by its last part that is no major version:
/// "github.com/jackc/pgx/v5" is pgx.
fn short_name(name: &str) -> Option<&str> {
    name.trim_end_matches(['.', '-', '/', '+'])
        .rsplit('/')
        .find(|p| {
            let major = p.starts_with('v') && p[1..].chars().all(|c| c.is_ascii_digit());
            !p.is_empty() && !major
        })
}

/// A package and its version, or `None` when the name names no package
/// ("to 16.4", "p99 118.4 ms") or the number is an address or an amount.
fn named_version(name: &str, sep: &str, version: &str, after: &str) -> Option<String> {
    let numbers = version.trim_start_matches('v');
    let dots = numbers.split('-').next().unwrap_or("").matches('.').count();
    // (a ratio "4.5:1", a fraction, a range "1.2-1.4", an amount
    // "12.345,67", a wildcard "2.20.x"; glued to a unit "7.80G", "3.5万")
    let mut next = after.chars();
    let continued = match (next.next(), next.next()) {
        (Some(':' | '/' | '-' | ','), Some(d)) => d.is_ascii_digit(),
        (Some('.'), Some(d)) => d.is_ascii_alphanumeric(),
        (Some(c), _) if c.is_ascii_alphanumeric() => true,
        (Some(c), _) => c.is_alphanumeric() && dots == 1,
        _ => false,
    };
    // (a coordinate "41.49831" or a year "2026.01" is no version either)
    let core = numbers
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()
        .unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    // (a date "31.12.2024")
    let date = parts.len() == 3 && parts[2].len() == 4;
    if continued || date || parts[0].len() >= 4 || parts[1..].iter().any(|p| p.len() > 4) {
        return None;
    }
    let short = short_name(name)?;
    let lower = short.to_lowercase();
    // ("Go 1.22.5" names a language; "go 1.22" and "to 16.4" name nothing)
    let capital = short.starts_with(|c: char| c.is_ascii_uppercase()) && dots >= 2;
    let non_name = words("version_non_names").contains(&lower.as_str());
    if short.len() < 2 || non_name || is_common(&lower) && !capital {
        return None;
    }
    // one dot ("Redis 7.2", "score 0.91", "took 3.5 s"): a version only
    // marked as one, pinned, or after a name that is a name (capital,
    // digit or joiner in it), and not an amount with its unit
    let marked = version.starts_with('v') || matches!(sep, "@" | "==" | ":");
    let joined = short.contains(|c: char| c.is_ascii_digit() || "-_.".contains(c));
    let proper = short.starts_with(|c: char| c.is_ascii_uppercase()) || joined;
    // ("the fix (2.21.22 …)": in brackets, only after a name that is one)
    if sep.contains('(') && !(marked || proper) {
        return None;
    }
    // (a capital alone makes "Redis 7.2" a version, not "SLO 99.5" or
    // "Humidity 45.2": a product's major version is small)
    let small = parts[0].parse::<u32>().is_ok_and(|major| major <= 30);
    if dots == 1 && (!(marked || joined || proper && small) || before_unit(after)) {
        return None;
    }
    Some(format!("{short} {version}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_keep_their_versions() {
        assert_eq!(
            references("I'd use **k6** (v0.52.0) from `loadgen-01.stg.internal`."),
            ["k6 v0.52.0", "loadgen-01.stg.internal"]
        );
        assert_eq!(
            references("```\nrequire (\n\tgithub.com/jackc/pgx/v5 v5.6.0\n\tgithub.com/hashicorp/golang-lru/v2 v2.0.7\n)\n$ go version\ngo version go1.22.5 linux/amd64\n```"),
            ["pgx v5.6.0", "golang-lru v2.0.7", "go 1.22.5"]
        );
        assert_eq!(
            references("We run Go 1.22.5, to 1.2.3 later"),
            ["Go 1.22.5"]
        );
        assert_eq!(
            pin("github.com/hashicorp/golang-lru/v2 v2.0.7"),
            "golang-lru v2.0.7"
        );
        assert_eq!(
            references("MySQL 8.0.28 で、Redis 7.2 も使う。"),
            ["MySQL 8.0.28", "Redis 7.2"]
        );
        // (a name of two capitalised words keeps both, but not a verb
        // before the name)
        assert_eq!(
            references("| Vector 0.39.0 | Fluent Bit 3.0.7 |\nUpgrade Redis 7.2.4 first."),
            ["Vector 0.39.0", "Fluent Bit 3.0.7", "Redis 7.2.4"]
        );
        // (amounts, steps, ratios and addresses are no versions)
        assert!(
            references("p99 118.4 ms, from 14.9 to 16.4, score 0.91, took 3.5 s, AA (4.5:1)")
                .is_empty()
        );
        assert_eq!(
            references("db at 10.20.3.15:5432 now."),
            ["10.20.3.15:5432"]
        );
        assert_eq!(
            references("| redis-01 | 10.20.1.11:6379 | master |\ncurl localhost:8086/api"),
            ["redis-01 10.20.1.11:6379", "localhost:8086"]
        );
        // (a name runs up to the text before it, whatever its script)
        assert_eq!(
            references("注意点として、BIOSがAGESA 1.0.0.7 以降、サーバーは 192.168.1.20"),
            ["AGESA 1.0.0.7", "192.168.1.20"]
        );
    }

    #[test]
    fn commits_requests_tickets_hosts_ports_files() {
        assert_eq!(
            references("```\n[feat/kestrel-webhooks a41c9e2] webhooks: store, signature verify; worker with retries\n```"),
            ["a41c9e2 webhooks: store, signature verify, worker…"]
        );
        assert_eq!(
            references("b81f0d4 (HEAD -> main, origin/main) skeleton: chi router"),
            ["b81f0d4 skeleton: chi router"]
        );
        assert_eq!(
            references("deployed e91f4b7 to staging, opened MR !412 and CHG-20250317-042."),
            ["e91f4b7", "MR !412", "CHG-20250317-042"]
        );
        // (a pod's hash, UTF-8 and a digest are none)
        assert!(references(
            "pod hookd-5d8f7b9c4-x2k9z is UTF-8 clean, sha256:3f2a1b4c5d6e7f8091a2b3c4d5e6f708"
        )
        .is_empty());
        assert_eq!(
            references("`cmd/hookd/main.go` starts chi on `:8443`; see kafka-1.prod.internal:9093"),
            ["cmd/hookd/main.go", ":8443", "kafka-1.prod.internal:9093"]
        );
    }

    #[test]
    fn what_looks_like_an_identifier_and_is_not() {
        // (an amount, a dose, a reading, a date, a colour, a record, a
        // part of a longer id, a standard)
        for text in [
            "Betrag 12.345,67 und Total 1.299,99",
            "RMB 3.5万, Price:19.99 (ok), USD 1.25 total",
            "Meloxicam 1.5 mg/mL twice; Pochi 4.2kg; used_memory_human 7.80G",
            "Deadline 31.12.2024, AWS SDK for Java 2.20.x",
            "SLO 99.5 and Humidity 45.2 on KWVR 101.9",
            "color: #999999; new PR 42 minutes; left port 12 hours ago",
            "EST-FD-2026-01, ASL-2025-Q4, PG-13, WD-40, DDR4-3200, [A-Z0-9-]",
            "the fix (2.21.22 and more), sha256:3f2a1b4c5d6e",
            "3f2a1b4c5d6e nginx:1.25 \"/docker-entrypoint\" 2 hours ago",
        ] {
            let found: Vec<String> = references(text)
                .into_iter()
                .filter(|r| r != "nginx 1.25")
                .collect();
            assert!(found.is_empty(), "{text}: {found:?}");
        }
        // (digits of other scripts are no version, and no panic)
        assert!(references("PR ２.５ is the one, MR ١.٢ too").is_empty());
        for hand_edited in ["PR ", "PR é", "MR ２", "#", "a1b2c3d"] {
            let mut refs = vec![hand_edited.to_owned()];
            merge(&mut refs, "PR #77".to_owned());
            assert_eq!(refs.last().unwrap(), "PR #77");
        }
    }

    #[test]
    fn upgrades_prereleases_and_dotfiles_stay_whole() {
        assert_eq!(
            references("Redis 7.0.15 → 7.2.4 and pgx v5.5.0 -> v5.6.0-rc1, Python 3.12rc1"),
            ["Redis 7.2.4", "pgx v5.6.0-rc1", "Python 3.12rc1"]
        );
        let mut refs = references("Redis 7.2.10 first");
        for r in references("rolled back to Redis 7.2.1") {
            merge(&mut refs, r);
        }
        assert_eq!(refs, ["Redis 7.2.1"]);
        assert_eq!(
            references("see `.github/workflows/ci.yml`, .golangci.yml and main.go和lib.rs"),
            [
                ".github/workflows/ci.yml",
                ".golangci.yml",
                "main.go",
                "lib.rs"
            ]
        );
        // (two services on one machine are two items)
        assert_eq!(
            references("pg-primary 10.0.0.5:5432, pgbouncer 10.0.0.5:6432"),
            ["pg-primary 10.0.0.5:5432", "pgbouncer 10.0.0.5:6432"]
        );
    }

    #[test]
    fn versions_pinned_in_code_blocks() {
        let text = "build.gradle.kts:\n\n```kotlin\ndependencies {\n    implementation(\"androidx.room:room-runtime:2.6.1\")\n    implementation(\"androidx.work:work-runtime-ktx:2.9.0\")\n}\n```\n\nrequirements:\n```\noracledb==2.4.1\n```\n```dockerfile\nFROM python:3.12-slim\n```\nKotlin is 1.9.22.";
        assert_eq!(
            code_pins(text),
            [
                "room-runtime 2.6.1",
                "work-runtime-ktx 2.9.0",
                "oracledb 2.4.1",
                "python 3.12-slim"
            ]
        );
        assert!(code_pins("```\nlet x = 1.5;\n```").is_empty());
        // (settings, addresses and times are no versions)
        assert!(code_pins("```yaml\nlearning_rate: 0.001\nhost: \"10.0.0.12\"\n```\n```\nlog(\"at '2024-03-01T12:30:45.123Z'\")\n```")
            .is_empty());
    }

    #[test]
    fn a_dump_costs_what_its_last_lines_cost() {
        let dump: String = (0..5_000).map(|i| format!("pkg{i} 1.{i}.0\n")).collect();
        let refs = references(&dump);
        assert_eq!(refs.len(), MAX_ITEMS);
        assert_eq!(refs.last().unwrap(), "pkg4999 1.4999.0");
        // (one line of ten thousand ids: no item, and quickly)
        let line = "a1b2c3d ".repeat(10_000);
        assert!(references(&line).is_empty());
        let line = "a1b2c3d ".repeat(1_000);
        assert_eq!(references(&line).len(), 1, "{LINE_ITEMS} found, one kept");
    }

    #[test]
    fn a_later_mention_replaces_an_item_by_its_key() {
        let mut refs = references("[main 1a2b3c4] pin pgx\npgx v5.5.0, go1.22 and PR 77");
        for r in references("now pgx v5.6.0 at 1a2b3c4, see #77") {
            merge(&mut refs, r);
        }
        assert_eq!(refs, ["go 1.22", "pgx v5.6.0", "1a2b3c4 pin pgx", "PR #77"]);
    }
}
