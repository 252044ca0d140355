//! Cross-session error memory (ToriiDB db 2): records keyed
//! `<tool_name>:<unix-nanos>`, 90-day TTL, only `outcome=resolved` kept;
//! a lookup hit refreshes the TTL; an edit rewrites `action` and keeps the
//! TTL (docs/agenvoy-format.md#toriidb-db-2-error-memory).

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::store::torii::{Db, INTERNAL_PREFIX};

mod fields;
mod listing;
pub mod ops;

use fields::Fields;
pub use listing::{list_with, Shown};

pub const TTL_SECS: i64 = 7_776_000;

#[derive(Debug, Clone, Serialize)]
pub struct ErrorItem {
    pub key: String,
    pub id: String,
    pub tool_name: String,
    pub keywords: Vec<String>,
    pub symptom: String,
    pub cause: String,
    pub action: String,
    pub outcome: String,
    /// Unix seconds, as Agenvoy stores it.
    pub timestamp: i64,
    /// `timestamp` as RFC 3339.
    pub recorded_at: Option<String>,
    /// Absolute Unix seconds (ToriiDB's `expire_at`); null: never.
    pub expire_at: Option<i64>,
    /// `expire_at` as RFC 3339.
    pub expires_at: Option<String>,
    #[serde(skip)]
    pub has_vector: bool,
    #[serde(skip)]
    pub expired: bool,
    /// The record as stored, field order and unknown fields included.
    #[serde(skip)]
    pub raw: Map<String, Value>,
}

fn secs_rfc3339(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0)
        .map(crate::timefmt::rfc3339)
        .unwrap_or_default()
}

/// Every record of the store that parses as one (internal keys aside).
/// `raw` is left empty: `resolve` fills it for the record it returns.
/// Values are decoded one at a time and dropped: memory stays the index
/// and the list.
pub fn all(db: &Db, now: i64) -> Result<Vec<ErrorItem>> {
    let mut items: Vec<ErrorItem> = Vec::new();
    db.for_each_entry(|k, e| {
        if !k.starts_with(INTERNAL_PREFIX) {
            items.extend(listed(k, e, now));
        }
    })?;
    // Agenvoy lists keys descending: with fixed-width nanos, newest first.
    items.sort_by(|a, b| b.key.cmp(&a.key));
    Ok(items)
}

/// The listed fields of the record `e` at key `k`; None when its value is
/// not a record.
fn listed(k: &str, e: &crate::store::torii::Entry, now: i64) -> Option<ErrorItem> {
    let l = Fields::decode(&e.value)?;
    Some(Shown::new(k, &l, e).item(e, now))
}

/// The ids of every record `resolve` looks among.
pub fn id_index(db: &Db) -> Result<IdIndex> {
    let mut ids = IdIndex::default();
    db.for_each_entry(|k, e| {
        if !k.starts_with(INTERNAL_PREFIX) {
            if let Some(l) = Fields::decode(&e.value) {
                ids.add(&l.id);
            }
        }
    })?;
    Ok(ids)
}

/// The record as stored (field order and unknown fields kept), for edits.
fn with_raw(db: &Db, mut item: ErrorItem) -> Result<ErrorItem> {
    if let Some(Ok(Value::Object(raw))) =
        db.entry(&item.key)?.map(|e| serde_json::from_str(&e.value))
    {
        item.raw = raw;
    }
    Ok(item)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Sort {
    /// Newest first (Agenvoy's order)
    #[default]
    Age,
    /// By tool name, then newest first
    Tool,
    /// Soonest to expire first
    Expires,
}

#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub tool: Option<String>,
    pub keyword: Option<String>,
    pub outcome: Option<String>,
    pub expired: bool,
}

/// The records `f` lets through, sorted, at most `limit`.
pub fn list(
    db: &Db,
    now: i64,
    f: &Filter,
    sort: Sort,
    limit: Option<usize>,
) -> Result<Vec<ErrorItem>> {
    list_with(db, now, f, sort, limit, None, |s, e| s.item(e, now))
}

/// A record by key, or by a unique id prefix (like git). An ambiguous
/// prefix lists the candidates (exit 64); no match is exit 66.
pub fn resolve(db: &Db, now: i64, wanted: &str) -> Result<ErrorItem> {
    let items = all(db, now)?;
    if let Some(i) = items.iter().find(|i| i.key == wanted) {
        return with_raw(db, i.clone());
    }
    let matches: Vec<&ErrorItem> = items
        .iter()
        .filter(|i| !wanted.is_empty() && i.id.starts_with(wanted))
        .collect();
    match matches.as_slice() {
        [one] => with_raw(db, (*one).clone()),
        [] => Err(
            Error::no_input(format!("no error record has the key or id {wanted:?}"))
                .with_hint("`sessionctl errors list --expired` shows every record"),
        ),
        many => {
            const SHOWN: usize = 10;
            let mut list = many
                .iter()
                .take(SHOWN)
                .map(|i| format!("{} ({})", i.id, i.key))
                .collect::<Vec<_>>()
                .join(", ");
            if many.len() > SHOWN {
                list.push_str(&format!(" and {} more", many.len() - SHOWN));
            }
            Err(Error::usage(format!(
                "id prefix {wanted:?} matches {} records: {list}",
                many.len()
            ))
            .with_hint("give more characters of the id, or the full key"))
        }
    }
}

/// Bytes of each id an `IdIndex` keeps: ids are SHA-256 hex, and among
/// even millions of them no two share 16 leading characters by chance.
const ID_HEAD: usize = 16;

/// The ids of every record `resolve` looks among, each cut to its first
/// `ID_HEAD` bytes, so a listing of a few records can show prefixes unique
/// among all of them while holding 24 bytes a record, not the records.
#[derive(Debug, Default)]
pub struct IdIndex {
    /// (head, full length), sorted once `sort` is called.
    heads: Vec<([u8; ID_HEAD], usize)>,
    sorted: bool,
}

fn id_head(id: &str) -> [u8; ID_HEAD] {
    let mut head = [0u8; ID_HEAD];
    let n = id.len().min(ID_HEAD);
    head[..n].copy_from_slice(&id.as_bytes()[..n]);
    head
}

impl IdIndex {
    pub fn add(&mut self, id: &str) {
        self.heads.push((id_head(id), id.len()));
        self.sorted = false;
    }

    fn sort(&mut self) {
        if !self.sorted {
            self.heads.sort_unstable();
            self.sorted = true;
        }
    }

    /// What a listing shows for the record `key` with `id` so that `errors
    /// show` finds it: the shortest prefix of the id (at least `min`
    /// characters) that no other id starts with, or the key when no prefix
    /// of the id is unique (a duplicate id, an id another one starts with).
    pub fn shown(&mut self, id: &str, key: &str, min: usize) -> String {
        self.sort();
        let head = id_head(id);
        let at = self.heads.partition_point(|(h, _)| *h < head);
        let same = self.heads[at..]
            .iter()
            .take_while(|(h, _)| *h == head)
            .count();
        if same > 1 || id.is_empty() {
            return key.to_owned();
        }
        let common = |other: Option<&([u8; ID_HEAD], usize)>| {
            other.map_or(0, |(h, len)| {
                let n = (*len).min(id.len()).min(ID_HEAD);
                h[..n]
                    .iter()
                    .zip(&head[..n])
                    .take_while(|(a, b)| a == b)
                    .count()
            })
        };
        let before = at.checked_sub(1).and_then(|i| self.heads.get(i));
        // `same` is 0 when the id was not added: its neighbour is at `at`
        let after = self.heads.get(at + same);
        let mut need = (common(before).max(common(after)) + 1).max(min);
        if need > id.len() {
            if common(before).max(common(after)) >= id.len() {
                return key.to_owned();
            }
            need = id.len();
        }
        while !id.is_char_boundary(need) {
            need += 1;
        }
        id[..need].to_owned()
    }
}

/// ToriiDB treats an expired record as gone (`Get` misses it, compaction
/// drops it): an edit must not bring it back for another 90 days or
/// forever. Only `--touch`, which asks for a fresh TTL, may revive one.
pub fn ensure_editable(item: &ErrorItem, touch: bool) -> Result<()> {
    if item.expired && !touch {
        return Err(Error::no_input(format!(
            "error record {} ({}) has expired: Agenvoy no longer sees it",
            item.id, item.key
        ))
        .with_hint(
            "--touch revives it with a fresh 90-day TTL; `sessionctl errors prune --expired` removes it",
        ));
    }
    Ok(())
}

/// Agenvoy's keyword lookup: case-insensitive Contains over the tool name,
/// symptom and cause, and each keyword in either direction.
pub fn keyword_matches(i: &ErrorItem, query: &str) -> bool {
    let q = query.to_lowercase();
    [&i.tool_name, &i.symptom, &i.cause]
        .iter()
        .any(|f| f.to_lowercase().contains(&q))
        || i.keywords.iter().any(|k| {
            let k = k.to_lowercase();
            !k.is_empty() && (k.contains(&q) || q.contains(&k))
        })
}

/// Live records for `search`, optionally of one tool (Agenvoy's
/// `<tool>:*` pattern).
pub fn searchable(db: &Db, now: i64, tool: Option<&str>) -> Result<Vec<ErrorItem>> {
    Ok(all(db, now)?
        .into_iter()
        .filter(|i| !i.expired)
        .filter(|i| tool.is_none_or(|t| i.key.starts_with(&format!("{t}:"))))
        .collect())
}

/// Keyword search, newest first (Agenvoy re-sorts hits by timestamp).
pub fn search_keyword(items: Vec<ErrorItem>, query: &str, limit: usize) -> Vec<ErrorItem> {
    let mut hits: Vec<ErrorItem> = items
        .into_iter()
        .filter(|i| keyword_matches(i, query))
        .collect();
    hits.sort_by_key(|h| std::cmp::Reverse(h.timestamp));
    hits.truncate(limit);
    hits
}

/// Semantic search: cosine of stored vectors with the query vector, best
/// first. Records without a vector of the query's length are skipped and
/// counted.
pub fn search_semantic(
    db: &Db,
    items: Vec<ErrorItem>,
    query: &[f32],
    limit: usize,
) -> Result<(Vec<(ErrorItem, f64)>, usize)> {
    let mut skipped = 0;
    let mut scored: Vec<(ErrorItem, f64)> = Vec::new();
    for i in items {
        let Some(e) = db.entry(&i.key)? else { continue };
        match e
            .vector_f32()
            .and_then(|v| crate::llm::embed::cosine(query, &v))
        {
            Some(score) => scored.push((i, score)),
            None => skipped += 1,
        }
    }
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.key.cmp(&b.0.key)));
    scored.truncate(limit);
    Ok((scored, skipped))
}

/// The new stored value after an edit: the record as it was, with only the
/// edited fields replaced (field order and unknown fields kept).
pub fn edited_value(
    item: &ErrorItem,
    action: Option<&str>,
    cause: Option<&str>,
    keywords: Option<&[String]>,
) -> String {
    let mut raw = item.raw.clone();
    if let Some(a) = action {
        raw.insert("action".into(), a.into());
    }
    if let Some(c) = cause {
        raw.insert("cause".into(), c.into());
    }
    if let Some(k) = keywords {
        // as Agenvoy stores them: trimmed, lower-cased, de-duplicated
        let mut seen = Vec::new();
        for kw in k {
            let kw = kw.trim().to_lowercase();
            if !kw.is_empty() && !seen.contains(&kw) {
                seen.push(kw);
            }
        }
        raw.insert("keywords".into(), seen.into());
    }
    Value::Object(raw).to_string()
}

/// What prune removes: expired records and/or records not `resolved`.
pub fn prunable(db: &Db, now: i64, expired: bool, not_resolved: bool) -> Result<Vec<ErrorItem>> {
    Ok(all(db, now)?
        .into_iter()
        .filter(|i| (expired && i.expired) || (not_resolved && i.outcome != "resolved"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The listed fields decode as they did through a whole `Value` map:
    /// last duplicate wins, other types read as empty, non-objects and
    /// numbers serde_json rejects skip the record.
    #[test]
    fn listed_fields_decode_as_the_whole_object_did() {
        let by_map = |v: &str| -> Option<(String, String, Vec<String>, Option<i64>)> {
            let Ok(Value::Object(m)) = serde_json::from_str::<Value>(v) else {
                return None;
            };
            let s = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            let kws = m.get("keywords").and_then(Value::as_array).map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_owned))
                    .collect()
            });
            Some((
                s("id"),
                s("action"),
                kws.unwrap_or_default(),
                m.get("timestamp").and_then(Value::as_i64),
            ))
        };
        let by_listed = |v: &str| {
            let l = Fields::decode(v)?;
            let kws = l.keywords.iter().map(|k| k.to_string()).collect();
            Some((l.id.into_owned(), l.action.into_owned(), kws, l.timestamp))
        };
        for v in [
            r#"{"id":"a","action":"x","keywords":["k",1,"m"],"timestamp":5}"#,
            r#"{"id":"a","id":"b","action":null,"timestamp":1.5,"extra":{"deep":[1]}}"#,
            r#"{"id":7,"keywords":"k","timestamp":18446744073709551615}"#,
            r#"{"id":"a","other":1e400}"#,
            r#"["id","a"]"#,
            r#""text""#,
            r#"{"id":"\u00e9"} "#,
            r#"{"id":"a"} x"#,
            r#"{"id":"a\"b\u00e9","action":"\n","keywords":["\t",{"k":1}],"timestamp":-3}"#,
            r#"{"id":"a","extra":[1,{"n":[2,1e400]}]}"#,
            r#"{"id":"a","keywords":[[1e400]]}"#,
            r#"{"id":"a","extra":{"\ud800":1}}"#,
            r#"{"id":"a","timestamp":9223372036854775808,"action":true}"#,
            r#"{"id":"a","timestamp":-9223372036854775808,"cause":{"x":"y"}}"#,
        ] {
            assert_eq!(by_listed(v), by_map(v), "{v}");
        }
    }

    #[test]
    fn shown_ids_are_unique_among_all_ids_and_as_short_as_allowed() {
        let mut all = IdIndex::default();
        for id in [
            "00000000aa",
            "00000000ab",
            "00000001ff",
            "f00",
            "abc",
            "abcd",
            "dup",
            "dup",
        ] {
            all.add(id);
        }
        let mut shown = |id: &str, min| all.shown(id, &format!("key-of-{id}"), min);
        assert_eq!(shown("00000000aa", 4), "00000000aa");
        assert_eq!(shown("00000001ff", 4), "00000001");
        assert_eq!(shown("f00", 4), "f00", "shorter than the minimum: whole");
        assert_eq!(shown("f00", 1), "f");
        // another id starts with it, or repeats it: only the key finds it
        assert_eq!(shown("abc", 2), "key-of-abc");
        assert_eq!(shown("abcd", 2), "abcd");
        assert_eq!(shown("dup", 1), "key-of-dup");
        // sha256-like ids that share more than the kept head
        let mut long = IdIndex::default();
        let a = format!("{}0", "e".repeat(20));
        let b = format!("{}1", "e".repeat(20));
        long.add(&a);
        long.add(&b);
        long.add("ffff");
        assert_eq!(long.shown(&a, "ka", 8), "ka");
        assert_eq!(long.shown("ffff", "kf", 2), "ff");
    }

    proptest::proptest! {
        /// What is shown always finds exactly its record the way `resolve`
        /// does: the key, or a prefix no other id starts with.
        #[test]
        fn a_shown_id_finds_its_record_and_only_it(
            ids in proptest::collection::vec("[0-9a-f]{1,20}", 1..40),
            min in 1usize..10,
        ) {
            let mut all = IdIndex::default();
            for id in &ids {
                all.add(id);
            }
            for (n, id) in ids.iter().enumerate() {
                let key = format!("tool:{n}");
                let shown = all.shown(id, &key, min);
                if shown != key {
                    let matching = ids.iter().filter(|other| other.starts_with(&shown)).count();
                    proptest::prop_assert_eq!(matching, 1, "{} for {}", shown, id);
                    proptest::prop_assert!(id.starts_with(&shown));
                    proptest::prop_assert!(shown.len() >= min.min(id.len()));
                } else {
                    // only when no prefix would do
                    let clash = ids.iter().enumerate().any(|(m, other)| m != n && other.starts_with(id.as_str()));
                    proptest::prop_assert!(clash, "{} shown as its key", id);
                }
            }
        }
    }
}
