//! Search routing (product.md): `semantic` (default) → cosine over the
//! vectors of ToriiDB db1; `keyword` → FTS5 over the SQLite archive plus a
//! case-insensitive substring scan of db1 (recent messages that may not be
//! archived yet), merged and de-duplicated by (session, sendAt).
//!
//! Semantic search is brute force: one cosine per stored vector. At 256
//! dimensions that is ~0.3 µs per entry, so 10^6 vectors take about a
//! third of a second; beyond a few million an index (HNSW) would be needed.

use std::collections::HashSet;

use serde::Serialize;
use serde_json::Value;

use crate::store::archive::ArchiveHit;
use crate::store::torii::{session_of_key, Db};

#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    pub session: String,
    pub send_at: i64,
    pub role: String,
    pub score: f64,
    pub text: String,
    #[serde(skip)]
    pub snippet: String,
    pub source: &'static str,
}

/// Quote user text as one FTS5 phrase in the content column, so operators
/// (`OR`, `NEAR(`, `*`, quotes) in it are just text.
pub fn phrase(query: &str) -> String {
    format!("content : \"{}\"", query.replace('"', "\"\""))
}

#[derive(Debug, Clone, Default)]
pub struct Scope<'a> {
    /// Empty: every session.
    pub sessions: &'a [String],
    pub role: Option<&'a str>,
    pub since: Option<i64>,
}

/// The session, nanos, role and text of a db1 entry in scope.
fn db1_message<'a>(
    key: &'a str,
    value: &str,
    scope: &Scope<'_>,
) -> Option<(&'a str, i64, String, String)> {
    let session = session_of_key(key)?;
    if !scope.sessions.is_empty() && !scope.sessions.iter().any(|s| s == session) {
        return None;
    }
    let nanos: i64 = key.rsplit_once(':')?.1.parse().ok()?;
    if scope.since.is_some_and(|t| nanos < t) {
        return None;
    }
    let v: Value = serde_json::from_str(value).ok()?;
    let role = v
        .get("role")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    if scope.role.is_some_and(|r| r != role) {
        return None;
    }
    let text = crate::store::tasks::content_text(&v)?;
    Some((session, nanos, role, text))
}

/// Keyword results: archive hits by rank, then db1 substring hits not
/// already found; newest first within equal score.
pub fn keyword(
    archive_hits: Vec<ArchiveHit>,
    db1: &Db,
    now: i64,
    query: &str,
    scope: &Scope<'_>,
    limit: usize,
) -> Vec<Hit> {
    let mut seen: HashSet<(String, i64)> = HashSet::new();
    let mut hits: Vec<Hit> = Vec::new();
    for h in archive_hits {
        if seen.insert((h.session_id.clone(), h.send_at)) {
            hits.push(Hit {
                session: h.session_id,
                send_at: h.send_at,
                role: h.role,
                score: h.score,
                text: h.content,
                snippet: h.snippet,
                source: "archive",
            });
        }
    }
    let needle = query.to_lowercase();
    // Most values cannot match: test the raw JSON bytes first, and decode
    // only the candidates. Only for needles of printable ASCII that no JSON
    // writer escapes (Go writes < > & as \u003c…; some writers escape /),
    // so the raw bytes hold them verbatim and no match is skipped.
    let ascii = needle.bytes().all(|b| {
        (0x20..0x7f).contains(&b) && !matches!(b, b'"' | b'\\' | b'<' | b'>' | b'&' | b'/')
    });
    let finder = needle.as_bytes();
    for (key, e) in db1.live(now) {
        if ascii && !contains_ascii_ci(e.value.as_bytes(), finder) {
            continue;
        }
        let Some((session, nanos, role, text)) = db1_message(key, &e.value, scope) else {
            continue;
        };
        if !text.to_lowercase().contains(&needle) || !seen.insert((session.to_owned(), nanos)) {
            continue;
        }
        hits.push(Hit {
            session: session.to_owned(),
            send_at: nanos,
            role,
            score: 0.0,
            snippet: text.clone(),
            text,
            source: "torii",
        });
    }
    hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.send_at.cmp(&a.send_at)));
    hits.truncate(limit);
    hits
}

/// Whether `hay` contains `needle` (already lower-case ASCII), ignoring
/// ASCII case.
fn contains_ascii_ci(hay: &[u8], needle: &[u8]) -> bool {
    if needle.is_empty() {
        return true;
    }
    let first = needle[0];
    hay.windows(needle.len()).any(|w| {
        w[0].to_ascii_lowercase() == first
            && w.iter()
                .zip(needle)
                .all(|(a, b)| a.to_ascii_lowercase() == *b)
    })
}

/// Semantic results: cosine of the query with each db1 vector in scope.
/// Returns the hits and how many vectors had another dimension.
pub fn semantic(
    db1: &Db,
    now: i64,
    query: &[f32],
    scope: &Scope<'_>,
    limit: usize,
) -> (Vec<Hit>, usize) {
    let mut skipped = 0;
    let mut hits: Vec<Hit> = Vec::new();
    for (key, e) in db1.live(now) {
        if e.vector.is_none() {
            continue;
        }
        let Some((session, nanos, role, text)) = db1_message(key, &e.value, scope) else {
            continue;
        };
        let Some(v) = e.vector_f32() else { continue };
        if v.len() != query.len() {
            skipped += 1;
            continue;
        }
        if let Some(score) = crate::llm::embed::cosine(query, &v) {
            hits.push(Hit {
                session: session.to_owned(),
                send_at: nanos,
                role,
                score,
                snippet: text.clone(),
                text,
                source: "torii",
            });
        }
    }
    hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.send_at.cmp(&a.send_at)));
    hits.truncate(limit);
    (hits, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_prefilter_never_drops_a_match() {
        assert!(contains_ascii_ci(
            br#"{"content":"Use LogRotate daily"}"#,
            b"logrotate"
        ));
        assert!(!contains_ascii_ci(b"nothing here", b"logrotate"));
        assert!(contains_ascii_ci(b"x", b""));
    }

    #[test]
    fn needles_a_writer_would_escape_skip_the_prefilter() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("db_1")).unwrap();
        // The message JSON as Go writes it: < > & escaped as \u003c \u003e \u0026.
        let msg = r#"{"role":"user","content":"use \u003cb\u003e \u0026 co"}"#;
        assert!(
            msg.contains(r"\u003c"),
            "the stored value holds the escapes"
        );
        let line = serde_json::json!({"ts": 1, "cmd": "SET", "key": "s:5", "value": msg});
        std::fs::write(dir.path().join("db_1/record.aof"), format!("{line}\n")).unwrap();
        let db = Db::load(dir.path(), 1).unwrap();
        for q in ["<b>", "& co", "USE"] {
            let hits = keyword(Vec::new(), &db, 0, q, &Scope::default(), 10);
            assert_eq!(hits.len(), 1, "{q}");
        }
    }

    #[test]
    fn phrases_neutralise_fts_operators() {
        assert_eq!(phrase("a"), "content : \"a\"");
        assert_eq!(phrase("\"a\" OR"), "content : \"\"\"a\"\" OR\"");
    }
}
