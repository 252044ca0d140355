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
    let text = match v.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => return None,
    };
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
    for (key, e) in db1.live(now) {
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

/// Whether db1 holds any vector at all (else semantic search cannot work).
pub fn db1_dim(db1: &Db) -> Option<usize> {
    db1.all()
        .filter(|(k, _)| !k.starts_with(crate::store::torii::INTERNAL_PREFIX))
        .find_map(|(_, e)| e.vector_f32().map(|v| v.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_neutralise_fts_operators() {
        assert_eq!(phrase("a"), "content : \"a\"");
        assert_eq!(phrase("\"a\" OR"), "content : \"\"\"a\"\" OR\"");
    }
}
