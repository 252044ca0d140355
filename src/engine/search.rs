//! Search routing (docs/agenvoy-format.md#search): `semantic` (default) → cosine over the
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
use crate::store::torii::{session_of_key, Db, Entry, LiveLine, LiveLines};

#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    pub session: String,
    /// Unix nanoseconds, as a string: jq and JavaScript round integers
    /// above 2^53.
    #[serde(serialize_with = "nanos_string")]
    pub send_at: i64,
    /// RFC 3339; null when the message has no time.
    pub time: Option<String>,
    pub role: String,
    /// `semantic` or `keyword`: how this hit was found.
    pub by: &'static str,
    /// The raw score: bm25 (higher is better) for the archive, cosine for
    /// vectors, 0 for a recent message found by substring.
    pub score: f64,
    /// 0–1, relative to the best hit of this search.
    pub relevance: f64,
    pub text: String,
    #[serde(skip)]
    pub snippet: String,
    /// `archive` or `torii`.
    pub source: &'static str,
}

pub fn nanos_string<S: serde::Serializer>(n: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(n)
}

/// A message found: (session, send_at, role, text).
type Message = (String, i64, String, String);

fn hit(
    (session, send_at, role, text): Message,
    snippet: String,
    by: &'static str,
    score: f64,
    source: &'static str,
) -> Hit {
    Hit {
        session,
        send_at,
        time: (send_at != 0).then(|| crate::timefmt::rfc3339(crate::timefmt::from_nanos(send_at))),
        role,
        by,
        score,
        relevance: 0.0,
        text,
        snippet,
        source,
    }
}

/// The words and "quoted phrases" of a query, lower-cased for matching.
pub fn terms(query: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = query.trim();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('"') {
            let end = after.find('"').unwrap_or(after.len());
            let phrase = after[..end].trim();
            if !phrase.is_empty() {
                out.push(phrase.to_owned());
            }
            rest = after.get(end + 1..).unwrap_or("").trim_start();
        } else {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '"')
                .unwrap_or(rest.len());
            out.push(rest[..end].to_owned());
            rest = rest[end..].trim_start();
        }
    }
    out
}

/// The terms as an FTS5 query over the content column: each term one
/// quoted phrase (so `OR`, `NEAR(`, `*` in user text are just text), all of
/// them required.
pub fn fts_query(terms: &[String]) -> String {
    terms
        .iter()
        .map(|t| format!("content : \"{}\"", t.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// Relevance 0–1 of each hit: its score over the best score of its kind.
/// bm25 values of a small archive are tiny (0.000001), so the raw score
/// says little; a substring hit in recent messages ranks as a full match.
fn set_relevance(hits: &mut [Hit]) {
    let best = hits
        .iter()
        .filter(|h| h.source == "archive" || h.by == "semantic")
        .map(|h| h.score)
        .fold(f64::MIN, f64::max);
    for h in hits.iter_mut() {
        h.relevance = if h.source == "torii" && h.by == "keyword" {
            1.0
        } else if best > 0.0 {
            (h.score / best).clamp(0.0, 1.0)
        } else {
            1.0
        };
    }
}

#[derive(Debug, Clone, Default)]
pub struct Scope<'a> {
    /// Empty: every session.
    pub sessions: &'a [String],
    pub role: Option<&'a str>,
    pub since: Option<i64>,
}

impl Scope<'_> {
    /// The sort key that visits db1 key `key` newest first (its time), if
    /// its session and time are in scope: what `keyword_in_lines` is given.
    pub fn newest_first(&self, key: &str) -> Option<i64> {
        self.admits_key(key).map(|(_, nanos)| nanos)
    }

    /// The session and nanos of db1 key `key` if its session and time are
    /// in scope (the role needs the value).
    fn admits_key<'k>(&self, key: &'k str) -> Option<(&'k str, i64)> {
        // the session (as `session_of_key`) and the time in one split: a
        // resumed search asks this of every live key
        let (session, rest) = key.rsplit_once(':')?;
        let nanos: i64 = rest.parse().ok()?;
        if session.is_empty() {
            return None;
        }
        debug_assert_eq!(session_of_key(key), Some(session));
        if !self.sessions.is_empty() && !self.sessions.iter().any(|s| s == session) {
            return None;
        }
        if self.since.is_some_and(|t| nanos < t) {
            return None;
        }
        Some((session, nanos))
    }
}

/// The session, nanos, role and text of a db1 entry in scope.
fn db1_message<'a>(
    key: &'a str,
    value: &str,
    scope: &Scope<'_>,
) -> Option<(&'a str, i64, String, String)> {
    let (session, nanos) = scope.admits_key(key)?;
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

/// The needles of a query whose bytes appear verbatim in a log line that
/// holds them: lower-cased printable ASCII that no JSON writer escapes (Go
/// writes < > & as \u003c…; some writers escape /). Others (none, for
/// most queries) cannot be tested on raw bytes.
fn raw_needles(query: &str) -> Vec<Vec<u8>> {
    terms(query)
        .iter()
        .map(|t| t.to_lowercase())
        .filter(|n| {
            n.bytes().all(|b| {
                (0x20..0x7f).contains(&b) && !matches!(b, b'"' | b'\\' | b'<' | b'>' | b'&' | b'/')
            })
        })
        .map(String::into_bytes)
        .collect()
}

/// A test on a raw db1 log line that every line holding a keyword match
/// of `query` passes: the log line holds the value's JSON as a JSON
/// string, where the raw needles appear verbatim. Most lines fail it, and
/// are never decoded.
pub fn raw_test(query: &str) -> impl Fn(&[u8]) -> bool + Sync {
    let raw = raw_needles(query);
    move |line: &[u8]| raw.iter().all(|n| contains_ascii_ci(line, n))
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
) -> crate::Result<Vec<Hit>> {
    use std::cmp::Reverse;
    // `keyword_newest` over `live_keys_where_raw`, without reading every
    // live line first: the keys in scope are visited newest first in the
    // order that gives (entries decoded already first, in index order,
    // then in file order) through a heap popped only as far as the visit
    // goes, and only the lines of the keys visited are read.
    const ON_DISK: u64 = 1 << 63;
    let mut newest: std::collections::BinaryHeap<(i64, Reverse<u64>, u32)> = db1
        .live_lines(now)
        .filter_map(|(pos, key, at)| {
            let (_, nanos) = scope.admits_key(key)?;
            let tie = at.map_or(pos as u64, |offset| ON_DISK | offset);
            Some((nanos, Reverse(tie), u32::try_from(pos).ok()?))
        })
        .collect();
    let (mut hits, mut seen) = archive_part(archive_hits);
    let test = RecentTest::new(query);
    let mut found = 0;
    if limit > 0 {
        let order = std::iter::from_fn(|| newest.pop().map(|(_, _, pos)| pos as usize));
        db1.visit_where_raw(order, raw_test(query), |key, e| {
            if let Some(h) = test.hit(key, e, scope, &mut seen) {
                hits.push(h);
                found += 1;
            }
            Ok(found < limit)
        })?;
    }
    Ok(ranked(hits, limit))
}

/// `keyword` over the db1 lines `Db::live_lines_resumed` found (their
/// sort keys from `Scope::newest_first`): the same visit, newest first
/// and equal times in file order, reading a doubling batch of lines at a
/// time and decoding only those that pass the raw test, until `limit`.
pub fn keyword_in_lines(
    archive_hits: Vec<ArchiveHit>,
    mut recent: LiveLines,
    query: &str,
    scope: &Scope<'_>,
    limit: usize,
) -> crate::Result<Vec<Hit>> {
    let (mut hits, mut seen) = archive_part(archive_hits);
    let test = RecentTest::new(query);
    let raw = raw_test(query);
    let mut found = 0;
    let mut batch = 64;
    let mut newest = std::collections::BinaryHeap::from(std::mem::take(&mut recent.lines));
    while found < limit && !newest.is_empty() {
        let next: Vec<LiveLine> = std::iter::from_fn(|| newest.pop()).take(batch).collect();
        let mut passed: Vec<Option<Vec<u8>>> = vec![None; next.len()];
        recent.for_each_line(&next, |i, line| {
            if raw(line) {
                passed[i] = Some(line.to_vec());
            }
            Ok(())
        })?;
        for line in passed.iter().flatten() {
            let Some((key, e)) = crate::store::torii::entry_of_line(line) else {
                continue;
            };
            if let Some(h) = test.hit(&key, &e, scope, &mut seen) {
                hits.push(h);
                found += 1;
                if found == limit {
                    break;
                }
            }
        }
        batch = (batch * 2).min(1 << 14);
    }
    Ok(ranked(hits, limit))
}

/// `keyword` as it was: every live line read and tested, then the
/// matches visited newest first. The reference `keyword` is tested
/// against.
#[cfg(test)]
pub fn keyword_all_lines(
    archive_hits: Vec<ArchiveHit>,
    db1: &Db,
    now: i64,
    query: &str,
    scope: &Scope<'_>,
    limit: usize,
) -> crate::Result<Vec<Hit>> {
    let keys = db1.live_keys_where_raw(now, raw_test(query))?;
    keyword_newest(archive_hits, keys, |k| db1.entry(k), query, scope, limit)
}

/// `keyword` over db1 entries already picked by `raw_test` (entries that
/// fail it may be given too; they are tested again), every one decoded:
/// the reference `keyword_newest` is tested against.
#[cfg(test)]
pub fn keyword_among<'a>(
    archive_hits: Vec<ArchiveHit>,
    recent: impl IntoIterator<Item = (&'a str, &'a Entry)>,
    query: &str,
    scope: &Scope<'_>,
    limit: usize,
) -> Vec<Hit> {
    let (mut hits, mut seen) = archive_part(archive_hits);
    let test = RecentTest::new(query);
    for (key, e) in recent {
        hits.extend(test.hit(key, e, scope, &mut seen));
    }
    ranked(hits, limit)
}

/// `keyword_among` over the db1 entries at `keys` (in the order
/// `keyword_among` would get them), decoding only the ones that can make
/// the first `limit`: a recent message found by substring always ranks
/// 1.0 and ties go newest first, so the keys are visited newest first
/// (equal times in the order given) and the visit stops at `limit` hits.
pub fn keyword_newest<'a>(
    archive_hits: Vec<ArchiveHit>,
    keys: Vec<&'a str>,
    mut entry: impl FnMut(&str) -> crate::Result<Option<&'a Entry>>,
    query: &str,
    scope: &Scope<'_>,
    limit: usize,
) -> crate::Result<Vec<Hit>> {
    let (mut hits, mut seen) = archive_part(archive_hits);
    let test = RecentTest::new(query);
    // A key without a time, or out of scope by its session or time, is
    // never a hit (see `db1_message`): dropped before its entry is read.
    let mut timed: Vec<(i64, &str)> = keys
        .into_iter()
        .filter_map(|k| Some((scope.admits_key(k)?.1, k)))
        .collect();
    timed.sort_by_key(|&(nanos, _)| std::cmp::Reverse(nanos));
    let mut found = 0;
    for (_, key) in timed {
        if found == limit {
            break;
        }
        let Some(e) = entry(key)? else { continue };
        if let Some(h) = test.hit(key, e, scope, &mut seen) {
            hits.push(h);
            found += 1;
        }
    }
    Ok(ranked(hits, limit))
}

/// The archive's hits in rank order, and the (session, sendAt) they hold.
fn archive_part(archive_hits: Vec<ArchiveHit>) -> (Vec<Hit>, HashSet<(String, i64)>) {
    let mut seen: HashSet<(String, i64)> = HashSet::new();
    let mut hits: Vec<Hit> = Vec::new();
    for h in archive_hits {
        if seen.insert((h.session_id.clone(), h.send_at)) {
            hits.push(hit(
                (h.session_id, h.send_at, h.role, h.content),
                h.snippet,
                "keyword",
                h.score,
                "archive",
            ));
        }
    }
    (hits, seen)
}

/// How a db1 entry is tested for a keyword query.
struct RecentTest {
    needles: Vec<String>,
    raw: Vec<Vec<u8>>,
}

impl RecentTest {
    fn new(query: &str) -> RecentTest {
        RecentTest {
            needles: terms(query).iter().map(|t| t.to_lowercase()).collect(),
            raw: raw_needles(query),
        }
    }

    /// The hit of db1 entry `key` if it is one not `seen` yet (then seen).
    fn hit(
        &self,
        key: &str,
        e: &Entry,
        scope: &Scope<'_>,
        seen: &mut HashSet<(String, i64)>,
    ) -> Option<Hit> {
        if !self
            .raw
            .iter()
            .all(|n| contains_ascii_ci(e.value.as_bytes(), n))
        {
            return None;
        }
        let (session, nanos, role, text) = db1_message(key, &e.value, scope)?;
        let lower = text.to_lowercase();
        if !self.needles.iter().all(|n| lower.contains(n.as_str()))
            || !seen.insert((session.to_owned(), nanos))
        {
            return None;
        }
        Some(hit(
            (session.to_owned(), nanos, role, text.clone()),
            text,
            "keyword",
            0.0,
            "torii",
        ))
    }
}

/// The first `limit` hits by relevance, newest first within equal
/// relevance (in the order found within equal times).
fn ranked(mut hits: Vec<Hit>, limit: usize) -> Vec<Hit> {
    set_relevance(&mut hits);
    hits.sort_by(|a, b| {
        b.relevance
            .total_cmp(&a.relevance)
            .then(b.send_at.cmp(&a.send_at))
    });
    hits.truncate(limit);
    hits
}

/// Whether `hay` contains `needle` (already lower-case ASCII), ignoring
/// ASCII case. memchr finds each place the first byte (either case) is,
/// so the bytes in between cost next to nothing.
fn contains_ascii_ci(hay: &[u8], needle: &[u8]) -> bool {
    if needle.is_empty() {
        return true;
    }
    let last_start = match hay.len().checked_sub(needle.len()) {
        Some(n) => n,
        None => return false,
    };
    // Jump between the places of the needle's rarest letter (either
    // case), not its first: a common first letter stops the scan every
    // few bytes of every line of the log.
    let at = rarest(needle);
    let (lower, upper) = (needle[at], needle[at].to_ascii_uppercase());
    memchr::memchr2_iter(lower, upper, &hay[at..=last_start + at]).any(|i| {
        hay[i..i + needle.len()]
            .iter()
            .zip(needle)
            .all(|(a, b)| a.to_ascii_lowercase() == *b)
    })
}

/// The position in `needle` of the byte least often seen in text (by
/// English letter frequency; anything else counts as rare).
fn rarest(needle: &[u8]) -> usize {
    const COMMON: &[u8] = b"etaoinshrdlcumwfgypbvkjxqz";
    let rank = |b: u8| COMMON.iter().position(|&c| c == b).unwrap_or(COMMON.len());
    (0..needle.len())
        .max_by_key(|&i| (rank(needle[i]), std::cmp::Reverse(i)))
        .unwrap_or(0)
}

/// Semantic results: cosine of the query with each db1 vector in scope.
/// Returns the hits and how many vectors had another dimension.
pub fn semantic(
    db1: &Db,
    now: i64,
    query: &[f32],
    scope: &Scope<'_>,
    limit: usize,
) -> crate::Result<(Vec<Hit>, usize)> {
    let mut skipped = 0;
    let mut hits: Vec<Hit> = Vec::new();
    for (key, e) in db1.live_with_vector(now)? {
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
            hits.push(hit(
                (session.to_owned(), nanos, role, text.clone()),
                text,
                "semantic",
                score,
                "torii",
            ));
        }
    }
    hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.send_at.cmp(&a.send_at)));
    hits.truncate(limit);
    set_relevance(&mut hits);
    Ok((hits, skipped))
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
            let hits = keyword(Vec::new(), &db, 0, q, &Scope::default(), 10).unwrap();
            assert_eq!(hits.len(), 1, "{q}");
        }
    }

    /// A db1 (in `dir`) with one "logrotate daily" user message at each
    /// of `keys`.
    fn db1_of_messages(dir: &std::path::Path, keys: impl Iterator<Item = String>) -> Db {
        std::fs::create_dir_all(dir.join("db_1")).unwrap();
        let msg = r#"{"role":"user","content":"logrotate daily"}"#;
        let log: String = keys
            .map(|key| {
                let line = serde_json::json!({"ts": 1, "cmd": "SET", "key": key, "value": msg});
                format!("{line}\n")
            })
            .collect();
        std::fs::write(dir.join("db_1/record.aof"), log).unwrap();
        Db::load(dir, 1).unwrap()
    }

    /// The full-db1 path (a search that fell back to words) decodes only
    /// the newest matches the limit can show, not every match.
    #[test]
    fn full_db1_keyword_search_decodes_only_what_it_shows() {
        let dir = tempfile::tempdir().unwrap();
        let db = db1_of_messages(dir.path(), (1..=50).map(|i| format!("s:{i}")));
        let hits = keyword(Vec::new(), &db, 0, "logrotate", &Scope::default(), 2).unwrap();
        let shown: Vec<i64> = hits.iter().map(|h| h.send_at).collect();
        assert_eq!(shown, [50, 49]);
        assert_eq!(db.decoded_count(), 2, "every match was decoded");
    }

    /// Matches out of scope by session or time are known from their keys
    /// and never read: a narrow `--session`/`--since` with a common word
    /// does not read every match from the log.
    #[test]
    fn keys_out_of_scope_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let keys = (1..=40).map(|i| format!("{}:{i}", if i % 2 == 0 { "s1" } else { "s2" }));
        let db = db1_of_messages(dir.path(), keys);
        let sessions = ["s2".to_owned()];
        let scope = Scope {
            sessions: &sessions,
            role: None,
            since: Some(30),
        };
        let hits = keyword(Vec::new(), &db, 0, "logrotate", &scope, 20).unwrap();
        let shown: Vec<i64> = hits.iter().map(|h| h.send_at).collect();
        assert_eq!(shown, [39, 37, 35, 33, 31]);
        assert_eq!(db.decoded_count(), 5, "matches out of scope were read");
    }

    proptest::proptest! {
        /// Scanning from the rarest letter finds what a window-by-window
        /// comparison does, wherever the needle's letters sit.
        #[test]
        fn contains_ascii_ci_is_a_case_blind_window_search(
            hay in "[gGoOlLzZ x-]{0,24}",
            needle in "[golz x-]{0,4}",
        ) {
            let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
            let naive = needle.is_empty()
                || hay.windows(needle.len()).any(|w| w.to_ascii_lowercase() == needle);
            proptest::prop_assert_eq!(contains_ascii_ci(hay, needle), naive);
        }

        /// The lazy newest-first visit gives exactly what decoding every
        /// entry gives, and decodes no more than the hits it can use
        /// plus the entries it rejects on the way.
        #[test]
        fn newest_first_visit_equals_the_full_one(
            recent in proptest::collection::vec(
                ("s[12]", "[0-9]{1,2}|x", proptest::bool::ANY, "user|assistant"),
                0..40,
            ),
            archived in proptest::collection::vec(("s[12]", 0i64..100), 0..6),
            limit in 0usize..8,
            role in proptest::option::of("user|assistant"),
            since in proptest::option::of(0i64..100),
        ) {
            // keys are unique in a database ("s1:5" and "s1:05" are two)
            let mut unique = HashSet::new();
            let entries: Vec<(String, Entry)> = recent
                .iter()
                .filter(|(session, nanos, _, _)| unique.insert(format!("{session}:{nanos}")))
                .map(|(session, nanos, hit, role)| {
                    let word = if *hit { "LogRotate" } else { "other" };
                    let value = serde_json::json!({"role": role, "content": format!("use {word} daily")});
                    (format!("{session}:{nanos}"), Entry {
                        value: value.to_string(),
                        created_at: 0,
                        updated_at: None,
                        expire_at: None,
                        vector: None,
                    })
                })
                .collect();
            let archive = || {
                archived
                    .iter()
                    .map(|(session, send_at)| ArchiveHit {
                        session_id: session.clone(),
                        send_at: *send_at,
                        role: "user".into(),
                        content: "logrotate".into(),
                        snippet: "[logrotate]".into(),
                        score: *send_at as f64,
                    })
                    .collect::<Vec<_>>()
            };
            let scope = Scope { sessions: &[], role: role.as_deref(), since };
            let full = keyword_among(archive(), entries.iter().map(|(k, e)| (k.as_str(), e)), "logrotate", &scope, limit);
            let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
            let lazy = keyword_newest(
                archive(),
                keys,
                |k| Ok(entries.iter().find(|(key, _)| key == k).map(|(_, e)| e)),
                "logrotate",
                &scope,
                limit,
            )
            .unwrap();
            let shown = |hits: &[Hit]| {
                hits.iter()
                    .map(|h| (serde_json::to_string(h).unwrap(), h.snippet.clone()))
                    .collect::<Vec<_>>()
            };
            proptest::prop_assert_eq!(shown(&lazy), shown(&full));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// The heap-ordered visit of a whole db1 finds what reading every
        /// live line first does: same hits, same order, ties included
        /// (keys of equal times, an entry decoded before the search).
        #[test]
        fn db1_keyword_visit_equals_reading_every_line(
            lines in proptest::collection::vec(
                ("s[123]", "[0-9]{1,2}|x", 0u8..4, "user|assistant", proptest::bool::ANY),
                0..60,
            ),
            limit in 0usize..10,
            sessions in proptest::collection::vec("s[123]", 0..2),
            since in proptest::option::of(0i64..100),
            decode_first in proptest::option::of(0usize..60),
        ) {
            let dir = tempfile::tempdir().unwrap();
            std::fs::create_dir_all(dir.path().join("db_1")).unwrap();
            let log: String = lines
                .iter()
                .map(|(session, nanos, word, role, del)| {
                    let key = format!("{session}:{nanos}");
                    let line = if *del && *word == 0 {
                        serde_json::json!({"ts": 1, "cmd": "DEL", "key": key})
                    } else {
                        let text = ["logrotate daily", "LOGROTATE", "other", "log rotate"][*word as usize];
                        let value = serde_json::json!({"role": role, "content": text}).to_string();
                        serde_json::json!({"ts": 1, "cmd": "SET", "key": key, "value": value})
                    };
                    format!("{line}\n")
                })
                .collect();
            std::fs::write(dir.path().join("db_1/record.aof"), log).unwrap();
            let scope = Scope { sessions: &sessions, role: None, since };
            let shown = |hits: &[Hit]| {
                hits.iter()
                    .map(|h| (serde_json::to_string(h).unwrap(), h.snippet.clone()))
                    .collect::<Vec<_>>()
            };
            let load = || {
                let db = Db::load(dir.path(), 1).unwrap();
                if let Some(i) = decode_first {
                    let keys = db.keys("*", 0);
                    if let Some(k) = keys.get(i % keys.len().max(1)) {
                        db.entry(k).unwrap();
                    }
                }
                db
            };
            let (a, b) = (load(), load());
            let want = keyword_all_lines(Vec::new(), &a, 0, "logrotate", &scope, limit).unwrap();
            let got = keyword(Vec::new(), &b, 0, "logrotate", &scope, limit).unwrap();
            proptest::prop_assert_eq!(shown(&got), shown(&want));
        }
    }

    #[test]
    fn newest_first_visit_stops_at_the_limit() {
        let entries: Vec<(String, Entry)> = (0..1000)
            .map(|n| {
                let value = serde_json::json!({"role": "user", "content": "logrotate"});
                let e = Entry {
                    value: value.to_string(),
                    created_at: 0,
                    updated_at: None,
                    expire_at: None,
                    vector: None,
                };
                (format!("s1:{n}"), e)
            })
            .collect();
        let mut decoded = 0;
        let hits = keyword_newest(
            Vec::new(),
            entries.iter().map(|(k, _)| k.as_str()).collect(),
            |k| {
                decoded += 1;
                Ok(entries.iter().find(|(key, _)| key == k).map(|(_, e)| e))
            },
            "logrotate",
            &Scope::default(),
            20,
        )
        .unwrap();
        assert_eq!(hits.len(), 20);
        assert_eq!(hits[0].send_at, 999, "newest first");
        assert_eq!(decoded, 20, "only what the limit can show is decoded");
    }

    #[test]
    fn words_are_all_required_and_quotes_make_phrases() {
        assert_eq!(terms("nginx  logrotate"), ["nginx", "logrotate"]);
        assert_eq!(terms("\"log rotation\" nginx"), ["log rotation", "nginx"]);
        assert_eq!(terms("\"unclosed phrase"), ["unclosed phrase"]);
        assert_eq!(
            fts_query(&terms("a OR")),
            "content : \"a\" AND content : \"OR\""
        );
        assert_eq!(
            fts_query(&terms("x\"y")),
            "content : \"x\" AND content : \"y\""
        );
    }
}
