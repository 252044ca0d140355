//! What a session holds in every tier: the data behind `sessions list`,
//! `show`, and the validation destructive commands run first.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::engine::row_cache::{Facts, RowCache, Stamp};
pub use crate::engine::session_config::{load_config, load_model, SessionConfig, UNKNOWN_AGENT};
use crate::engine::tokens::Counter;
use crate::error::{Error, Result};
use crate::store::archive::{Archive, SessionCount};
use crate::store::history::{self, Record};
use crate::store::layout::SessionDir;
use crate::store::summary::{self, Summary};
use crate::store::tasks::{self, TaskStats};
use crate::store::token_cache::{self, Fingerprint, TokenCache};
use crate::store::torii::Db;

mod detail;
mod row;

pub use detail::*;
pub use row::*;

/// history.json, parsed, with its size and time.
#[derive(Debug, Clone)]
pub struct LoadedHistory {
    pub records: Vec<Record>,
    pub bytes: u64,
    /// Which version of the file was read (for cached token counts).
    pub fingerprint: Fingerprint,
    pub modified: Option<DateTime<Utc>>,
}

pub fn load_history(dir: &SessionDir) -> Result<Option<LoadedHistory>> {
    let path = dir.history_json();
    let Some(meta) = dir.inspect(&path)? else {
        return Ok(None);
    };
    let Some(bytes) = dir.read(&path)? else {
        return Ok(None);
    };
    let records = history::parse(&bytes, &path)?;
    Ok(Some(LoadedHistory {
        records,
        bytes: meta.len(),
        fingerprint: Fingerprint::of(&meta),
        modified: meta.modified().ok().map(DateTime::<Utc>::from),
    }))
}

pub fn load_summary(dir: &SessionDir) -> Result<Option<(Summary, Option<DateTime<Utc>>)>> {
    let path = dir.summary_json();
    let Some(meta) = dir.inspect(&path)? else {
        return Ok(None);
    };
    let Some(bytes) = dir.read(&path)? else {
        return Ok(None);
    };
    let s = summary::parse(&bytes, &path)?;
    Ok(Some((s, meta.modified().ok().map(DateTime::<Utc>::from))))
}

/// When the newest record the summary holds was sent, by its cursor in
/// summary.meta.json (our exact sendAt, else Agenvoy's local
/// `last_message_time`). Not the file's mtime: a copy or a restore makes
/// that "just now" while the summary is as old as ever.
pub fn summarized_up_to(dir: &SessionDir) -> Option<DateTime<Utc>> {
    let path = dir.summary_meta();
    let cursor = summary::parse_meta(&dir.read_small(&path).ok()??, &path).ok()?;
    match cursor.exact {
        Some(e) if e.last_send_at != 0 => nanos_to_time(e.last_send_at),
        _ => cursor.time.as_deref().and_then(parse_local),
    }
}

/// `YYYY-MM-DD HH:MM:SS` in local time, as Agenvoy writes its cursor.
fn parse_local(text: &str) -> Option<DateTime<Utc>> {
    use chrono::TimeZone;
    let t = chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S").ok()?;
    chrono::Local
        .from_local_datetime(&t)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
}

pub fn load_cursor(dir: &SessionDir) -> Result<Option<String>> {
    let path = dir.summary_meta();
    match dir.read_small(&path)? {
        Some(bytes) => summary::parse_cursor(&bytes, &path),
        None => Ok(None),
    }
}

/// `history/*.json` of a session, sorted; a `history/` that leads out of
/// the root is refused.
pub fn task_files(dir: &SessionDir) -> Result<Vec<std::path::PathBuf>> {
    let tasks_dir = dir.tasks_dir();
    match dir.inspect(&tasks_dir)? {
        Some(m) if m.is_dir() => {}
        _ => return Ok(Vec::new()),
    }
    let Some(entries) = dir.read_dir(&tasks_dir)? else {
        return Ok(Vec::new());
    };
    let mut files: Vec<std::path::PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

/// Tokens of the rolling summary as it is sent (its fields as JSON).
pub fn summary_tokens(s: &Summary, counter: Counter) -> usize {
    counter.count(&serde_json::to_string(&s.fields).unwrap_or_default())
}

fn nanos_to_time(ns: i64) -> Option<DateTime<Utc>> {
    (ns != 0).then(|| crate::timefmt::from_nanos(ns))
}

fn list_json_files(
    session: &SessionDir,
    dir: &std::path::Path,
    note: &mut impl FnMut(Error),
) -> Vec<(String, std::path::PathBuf)> {
    // A `history/` that is a symlink out of the root is refused, not listed.
    match session.inspect(dir) {
        Ok(Some(m)) if m.is_dir() => {}
        Ok(_) => return Vec::new(),
        Err(e) => {
            note(e);
            return Vec::new();
        }
    }
    let entries = match session.read_dir(dir) {
        Ok(Some(e)) => e,
        Ok(None) => return Vec::new(),
        Err(e) => {
            note(e);
            return Vec::new();
        }
    };
    let mut out: Vec<(String, std::path::PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(n, _)| n.ends_with(".json"))
        .collect();
    out.sort();
    out
}
