//! `errors list`: the records that pass a filter, sorted, each handed to
//! the caller once with its decoded value. Only a small sort key is kept
//! per record, with whatever the caller makes of it (for `--json`, the
//! record's bytes already serialised), never the decoded values.

use std::borrow::Cow;

use serde::Serialize;

use super::fields::Fields;
use super::{secs_rfc3339, ErrorItem, Filter, IdIndex, Sort};
use crate::error::Result;
use crate::store::torii::{Db, Entry, INTERNAL_PREFIX};

/// One record as listings show it, borrowed from its decoded value: the
/// fields and field order of `ErrorItem`'s JSON, so either serialises to
/// the same bytes.
#[derive(Serialize)]
pub struct Shown<'a> {
    pub key: &'a str,
    pub id: &'a str,
    pub tool_name: &'a str,
    pub keywords: &'a [Cow<'a, str>],
    pub symptom: &'a str,
    pub cause: &'a str,
    pub action: &'a str,
    pub outcome: &'a str,
    pub timestamp: i64,
    pub recorded_at: Option<String>,
    pub expire_at: Option<i64>,
    pub expires_at: Option<String>,
}

impl<'a> Shown<'a> {
    pub(super) fn new(key: &'a str, l: &'a Fields<'a>, e: &Entry) -> Shown<'a> {
        Shown {
            key,
            id: &l.id,
            tool_name: &l.tool_name,
            keywords: &l.keywords,
            symptom: &l.symptom,
            cause: &l.cause,
            action: &l.action,
            outcome: &l.outcome,
            timestamp: l.timestamp.unwrap_or(0),
            recorded_at: l.timestamp.filter(|t| *t != 0).map(secs_rfc3339),
            expire_at: e.expire_at,
            expires_at: e.expire_at.map(secs_rfc3339),
        }
    }

    /// The owned item (`raw` left empty) of the entry `e` shown.
    pub fn item(&self, e: &Entry, now: i64) -> ErrorItem {
        ErrorItem {
            key: self.key.to_owned(),
            id: self.id.to_owned(),
            tool_name: self.tool_name.to_owned(),
            keywords: self.keywords.iter().map(|k| k.to_string()).collect(),
            symptom: self.symptom.to_owned(),
            cause: self.cause.to_owned(),
            action: self.action.to_owned(),
            outcome: self.outcome.to_owned(),
            timestamp: self.timestamp,
            recorded_at: self.recorded_at.clone(),
            expire_at: self.expire_at,
            expires_at: self.expires_at.clone(),
            has_vector: e.vector.is_some(),
            expired: e.is_expired(now),
            raw: serde_json::Map::new(),
        }
    }
}

impl Filter {
    fn passes(&self, l: &Fields, keyword: Option<&str>) -> bool {
        self.tool
            .as_ref()
            .is_none_or(|t| l.tool_name.eq_ignore_ascii_case(t))
            && keyword.is_none_or(|k| l.keywords.iter().any(|kw| kw.to_lowercase().contains(k)))
            && self
                .outcome
                .as_ref()
                .is_none_or(|o| l.outcome.eq_ignore_ascii_case(o))
    }
}

/// What a record is sorted by, and what the caller made of it.
struct Row<T> {
    key: String,
    timestamp: i64,
    expire_at: Option<i64>,
    /// Only for `Sort::Tool`; empty (no allocation) otherwise.
    tool: String,
    made: T,
}

/// The records `f` lets through (internal keys aside), in `sort` order,
/// at most `limit`: `make` is called once per record listed, and what it
/// returns comes back sorted. Ties fall back to the key, newest first
/// (Agenvoy's order).
///
/// Without a limit every record passing the filter is made while its
/// value is decoded (in log order), and kept until the sort. With one,
/// the scan keeps only the sort keys, and the records that make the cut
/// are read back and made at the end: `--limit 20` of 100k records holds
/// 20 made records, not 100k, and makes only those.
///
/// `ids`, when given, gets the id of every record `errors show` would look
/// among (expired and filtered-out ones too), so the ids a listing shows
/// can be cut to prefixes that are unique among all of them.
pub fn list_with<T>(
    db: &Db,
    now: i64,
    f: &Filter,
    sort: Sort,
    limit: Option<usize>,
    mut ids: Option<&mut IdIndex>,
    mut make: impl FnMut(&Shown, &Entry) -> T,
) -> Result<Vec<T>> {
    let Some(n) = limit else {
        let mut rows = Vec::new();
        scan(db, now, f, sort, ids.as_deref_mut(), |row, shown, e| {
            rows.push(row.with(make(shown, e)));
        })?;
        sort_rows(&mut rows, sort);
        return Ok(rows.into_iter().map(|r| r.made).collect());
    };
    let mut rows = Vec::new();
    scan(db, now, f, sort, ids, |row, _, _| rows.push(row))?;
    sort_rows(&mut rows, sort);
    rows.truncate(n);
    let keys: Vec<&str> = rows.iter().map(|r| r.key.as_str()).collect();
    let mut made = Vec::with_capacity(keys.len());
    // The same lines decoded by the same rules: every key is there and
    // every value decodes as it did in the scan.
    db.for_each_of(&keys, |k, e| {
        if let Some(l) = Fields::decode(&e.value) {
            made.push(make(&Shown::new(k, &l, e), e));
        }
        Ok(())
    })?;
    Ok(made)
}

impl Row<()> {
    fn with<T>(self, made: T) -> Row<T> {
        Row {
            key: self.key,
            timestamp: self.timestamp,
            expire_at: self.expire_at,
            tool: self.tool,
            made,
        }
    }
}

/// Hand each record `f` lets through to `take`, in log order, with its
/// sort key.
fn scan(
    db: &Db,
    now: i64,
    f: &Filter,
    sort: Sort,
    mut ids: Option<&mut IdIndex>,
    mut take: impl FnMut(Row<()>, &Shown, &Entry),
) -> Result<()> {
    let keyword = f.keyword.as_ref().map(|k| k.to_lowercase());
    db.for_each_entry(|k, e| {
        if k.starts_with(INTERNAL_PREFIX) {
            return;
        }
        let expired = e.is_expired(now);
        if ids.is_none() && !f.expired && expired {
            return;
        }
        let Some(l) = Fields::decode(&e.value) else {
            return;
        };
        if let Some(ids) = ids.as_deref_mut() {
            ids.add(&l.id);
        }
        if (!f.expired && expired) || !f.passes(&l, keyword.as_deref()) {
            return;
        }
        let shown = Shown::new(k, &l, e);
        let row = Row {
            key: k.to_owned(),
            timestamp: shown.timestamp,
            expire_at: e.expire_at,
            tool: match sort {
                Sort::Tool => l.tool_name.to_string(),
                _ => String::new(),
            },
            made: (),
        };
        take(row, &shown, e);
    })
}

fn sort_rows<T>(rows: &mut [Row<T>], sort: Sort) {
    let newest = |a: &Row<T>, b: &Row<T>| b.key.cmp(&a.key);
    match sort {
        Sort::Age => rows.sort_unstable_by(|a, b| b.timestamp.cmp(&a.timestamp).then(newest(a, b))),
        Sort::Tool => rows.sort_unstable_by(|a, b| {
            a.tool
                .cmp(&b.tool)
                .then(b.timestamp.cmp(&a.timestamp))
                .then(newest(a, b))
        }),
        Sort::Expires => rows.sort_unstable_by(|a, b| {
            let at = |r: &Row<T>| r.expire_at.unwrap_or(i64::MAX);
            at(a).cmp(&at(b)).then(newest(a, b))
        }),
    }
}
