//! What undo must give back, tier by tier (shared by tests/it/undo.rs and
//! tests/it/undo_props.rs).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{db, snapshot, sqlite};

/// Every tier of every session, as undo must give it back: session files
/// byte for byte, archive rows (all columns) and session_meta, and the
/// replayed db1/db2 entries with their creation time, TTL and vector.
/// db index, key, value, created_at, expire_at, vector.
type ToriiEntry = (u8, String, String, i64, Option<i64>, Option<String>);

#[derive(Debug, PartialEq)]
pub struct State {
    files: BTreeMap<PathBuf, Vec<u8>>,
    rows: Vec<(i64, String, i64, String, String, String)>,
    meta: Vec<(String, i64)>,
    torii: Vec<ToriiEntry>,
}

pub fn state(r: &Path) -> State {
    let files = snapshot(r)
        .into_iter()
        .filter(|(p, _)| p.starts_with("sessions") && !p.starts_with("sessions/.Trash"))
        .collect();
    let c = sqlite(r);
    let rows = c
        .prepare("SELECT id, session_id, send_at, role, content, sender FROM messages ORDER BY id")
        .unwrap()
        .query_map([], |x| {
            Ok((
                x.get(0)?,
                x.get(1)?,
                x.get(2)?,
                x.get(3)?,
                x.get(4)?,
                x.get(5)?,
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let meta = c
        .prepare("SELECT session_id, start_at FROM session_meta ORDER BY session_id")
        .unwrap()
        .query_map([], |x| Ok((x.get(0)?, x.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut torii = Vec::new();
    for i in [1u8, 2] {
        for (k, e) in db(r, i).all() {
            torii.push((
                i,
                k.to_owned(),
                e.value.clone(),
                e.created_at,
                e.expire_at,
                e.vector.clone(),
            ));
        }
    }
    torii.sort();
    State {
        files,
        rows,
        meta,
        torii,
    }
}
