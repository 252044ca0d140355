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

/// Destructive commands call this first: a session whose history.json or
/// summary.json does not parse is refused (exit 65) before anything changes.
pub fn validate(dir: &SessionDir) -> Result<()> {
    load_history(dir)?;
    load_summary(dir)?;
    load_cursor(dir)?;
    Ok(())
}

fn nanos_to_time(ns: i64) -> Option<DateTime<Utc>> {
    (ns != 0).then(|| crate::timefmt::from_nanos(ns))
}

/// One row of `sessions list`.
#[derive(Debug, Clone, Serialize)]
pub struct SessionRow {
    #[serde(rename = "session")]
    pub id: String,
    /// What config.json says (remembered with the row's facts).
    #[serde(skip)]
    pub config: SessionConfig,
    pub records: usize,
    pub bytes: u64,
    /// history.json's records as Agenvoy sends them, counted with `counter`.
    pub tokens: usize,
    /// The model from config.json (`null` when it names none).
    pub model: Option<String>,
    /// The token counter chosen from the model (`Counter::for_agent`), the
    /// same one `show` and `compact` use for this session.
    pub counter: Counter,
    /// Newest record time, else history.json's modification time.
    #[serde(serialize_with = "ser_time")]
    pub last_at: Option<DateTime<Utc>>,
    /// Oldest record time (in history.json or the archive).
    #[serde(skip)]
    pub first_at: Option<DateTime<Utc>>,
    pub has_summary: bool,
    #[serde(skip)]
    pub summary_at: Option<DateTime<Utc>>,
    pub torii_keys: u64,
    pub archived: u64,
    /// The model's window and the share of its budget history.json uses
    /// (set by callers that resolve windows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<BudgetUse>,
    /// Why part of this row could not be read (the row still lists).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// An exact count made for this row, for the caller to remember.
    #[serde(skip)]
    pub counted: Option<token_cache::Entry>,
    /// What this row read from the session's files, for the caller to
    /// remember (`row_cache`); `None` when nothing new is worth keeping.
    #[serde(skip)]
    pub facts: Option<Facts>,
}

/// A model's window, where it came from, and how much of the budget (80%
/// of the window) some tokens take.
#[derive(Debug, Clone, Serialize)]
pub struct BudgetUse {
    pub agent: String,
    pub window: u64,
    pub window_source: crate::engine::limits::WindowSource,
    pub budget: u64,
    pub tokens: usize,
    /// `tokens` as a percentage of `budget`.
    pub used_percent: f64,
}

/// The window of a session's model (the cached table: no network) and the
/// share of its budget `tokens` take.
pub fn budget_use(
    dir: &SessionDir,
    cache: &crate::engine::limits::LimitsCache,
    tokens: usize,
) -> BudgetUse {
    budget_use_of(load_config(dir).ok().flatten(), cache, tokens)
}

/// `budget_use` of a config already read (a row's).
pub fn budget_use_of(
    config: Option<SessionConfig>,
    cache: &crate::engine::limits::LimitsCache,
    tokens: usize,
) -> BudgetUse {
    let agent = config
        .as_ref()
        .and_then(|c| c.model.clone())
        .unwrap_or_else(|| UNKNOWN_AGENT.into());
    let w = crate::engine::limits::window_for(&agent, cache, config.as_ref());
    BudgetUse {
        used_percent: if w.budget == 0 {
            0.0
        } else {
            tokens as f64 * 100.0 / w.budget as f64
        },
        agent,
        window: w.window,
        window_source: w.source,
        budget: w.budget,
        tokens,
    }
}

/// Whether `row` counts tokens, and the counts it may reuse.
#[derive(Clone, Copy)]
pub enum RowTokens<'a> {
    /// `tokens` stays 0 (callers that only filter by time).
    Skip,
    Count(&'a TokenCache),
}

/// Tokens of a loaded history.json with the session's counter: exact
/// counts come from `cache` while the file is unchanged, and a fresh one
/// is returned for the caller to store.
fn history_tokens(
    id: &str,
    h: &LoadedHistory,
    counter: Counter,
    cache: &TokenCache,
) -> (usize, Option<token_cache::Entry>) {
    if !counter.is_exact() {
        // the estimate runs at hundreds of MB/s: not worth a cache
        return (counter.records(&h.records), None);
    }
    if let Some(n) = cache.get(id, &h.fingerprint, counter.name()) {
        return (n, None);
    }
    let tokens = counter.records(&h.records);
    let now_ns = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128);
    let entry = h
        .fingerprint
        .is_settled(now_ns)
        .then(|| token_cache::Entry {
            fingerprint: h.fingerprint,
            counter: counter.name().to_owned(),
            tokens,
        });
    (tokens, entry)
}

/// Nanosecond times as strings: jq and JavaScript round integers above 2^53.
pub fn ser_nanos<S: serde::Serializer>(t: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(n) => s.collect_str(n),
        None => s.serialize_none(),
    }
}

pub use crate::timefmt::ser_time;

/// Build a row; unreadable files become `problems`, not failures, so one
/// broken session does not hide the others.
pub fn row(
    dir: &SessionDir,
    torii_counts: &HashMap<&str, u64>,
    archive_counts: &HashMap<String, SessionCount>,
    tokens: RowTokens<'_>,
) -> SessionRow {
    row_cached(dir, torii_counts, archive_counts, tokens, None)
}

/// `row`, taking what it would read from the session's files from `cache`
/// while those files are unchanged (then it only stats them). A row read
/// from the files carries its `facts` for the caller to store.
pub fn row_cached(
    dir: &SessionDir,
    torii_counts: &HashMap<&str, u64>,
    archive_counts: &HashMap<String, SessionCount>,
    tokens: RowTokens<'_>,
    cache: Option<&RowCache>,
) -> SessionRow {
    let stamp = cache.and_then(|_| Stamp::of(dir));
    let counts = (torii_counts, archive_counts);
    if let (Some(cache), Some(stamp)) = (cache, &stamp) {
        let cached = cache.get(&dir.id, stamp);
        if let Some(row) = cached.and_then(|f| row_from_facts(dir, f, counts, tokens)) {
            return row;
        }
    }
    let mut row = read_row(dir, counts, tokens);
    if let Some(stamp) = stamp.filter(|_| row.problems.is_empty()) {
        let now_ns = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as i128);
        row.facts = row.facts.take().and_then(|mut f| {
            f.stamp = stamp;
            f.settled(now_ns)
        });
    } else {
        row.facts = None;
    }
    row
}

type Counts<'a> = (&'a HashMap<&'a str, u64>, &'a HashMap<String, SessionCount>);

/// A row with nothing read yet: the tiers' counts filled in.
fn empty_row(dir: &SessionDir, config: SessionConfig, (torii, archive): Counts<'_>) -> SessionRow {
    let archived = archive.get(&dir.id).copied().unwrap_or_default();
    let kept = config.clone();
    SessionRow {
        config: kept,
        id: dir.id.clone(),
        records: 0,
        bytes: 0,
        tokens: 0,
        counter: config.counter(),
        model: config.model,
        last_at: None,
        first_at: archived.oldest_send_at.and_then(nanos_to_time),
        has_summary: false,
        summary_at: None,
        torii_keys: torii.get(dir.id.as_str()).copied().unwrap_or(0),
        archived: archived.messages,
        budget: None,
        problems: Vec::new(),
        counted: None,
        facts: None,
    }
}

/// The row from remembered facts; `None` when they lack what is asked
/// (tokens by this counter).
fn row_from_facts(
    dir: &SessionDir,
    f: &Facts,
    counts: Counts<'_>,
    tokens: RowTokens<'_>,
) -> Option<SessionRow> {
    let config = SessionConfig {
        model: f.model.clone(),
        num_ctx: match &f.num_ctx {
            Some((n, key)) => Some((*n, crate::engine::session_config::num_ctx_key(key)?)),
            None => None,
        },
        loopback_url: f.loopback_url,
    };
    let mut row = empty_row(dir, config, counts);
    if let RowTokens::Count(cache) = tokens {
        let name = row.counter.name();
        row.tokens = if row.counter.is_exact() {
            // exact counts have one home, the token cache
            cache.get(&dir.id, f.stamp.history.as_ref()?, name)?
        } else {
            match &f.tokens {
                Some((counter, n)) if counter == name => *n,
                _ => return None,
            }
        };
    }
    row.records = f.records;
    row.bytes = f.bytes;
    row.has_summary = f.has_summary;
    row.summary_at = f.summary_at;
    finish_times(dir, &mut row, f.last_at, f.first_at);
    Some(row)
}

/// Times from history.json (`last`, `first`), else from what remains.
fn finish_times(
    dir: &SessionDir,
    row: &mut SessionRow,
    last: Option<DateTime<Utc>>,
    first: Option<DateTime<Utc>>,
) {
    row.last_at = last;
    row.first_at = row.first_at.or(first);
    if row.last_at.is_none() {
        // A reset session has no history left, but it still has an age:
        // the newest of what remains, so `--idle-for` can select it again.
        row.last_at = remaining_activity(dir);
        row.first_at = row.first_at.or(row.last_at);
    }
}

/// The row read from the session's files.
fn read_row(dir: &SessionDir, counts: Counts<'_>, tokens: RowTokens<'_>) -> SessionRow {
    let mut problems = Vec::new();
    let config = load_config(dir).unwrap_or_else(|e| {
        problems.push(e.to_string());
        None
    });
    let mut row = empty_row(dir, config.unwrap_or_default(), counts);
    row.problems = problems;
    let counter = row.counter;
    let (mut last, mut first) = (None, None);
    match load_history(dir) {
        Ok(Some(h)) => {
            row.records = h.records.len();
            row.bytes = h.bytes;
            if let RowTokens::Count(cache) = tokens {
                (row.tokens, row.counted) = history_tokens(&dir.id, &h, counter, cache);
            }
            let sent = || h.records.iter().map(|r| r.send_at).filter(|t| *t != 0);
            last = sent().max().and_then(nanos_to_time).or(h.modified);
            first = sent().min().and_then(nanos_to_time).or(h.modified);
        }
        Ok(None) => {}
        Err(e) => row.problems.push(e.to_string()),
    }
    match load_summary(dir) {
        Ok(Some(_)) => {
            row.has_summary = true;
            row.summary_at = summarized_up_to(dir);
        }
        Ok(None) => {}
        Err(e) => row.problems.push(e.to_string()),
    }
    row.facts = Some(Facts {
        stamp: Stamp::default(),
        model: row.model.clone(),
        records: row.records,
        bytes: row.bytes,
        tokens: match tokens {
            RowTokens::Count(_) => Some((counter.name().to_owned(), row.tokens)),
            RowTokens::Skip => None,
        },
        last_at: last,
        first_at: first,
        has_summary: row.has_summary,
        summary_at: row.summary_at,
        num_ctx: row.config.num_ctx.map(|(n, k)| (n, k.to_owned())),
        loopback_url: row.config.loopback_url,
    });
    finish_times(dir, &mut row, last, first);
    row
}

/// Files a reset keeps (usage.log grows with every LLM call), and the
/// folder itself: the last sign of activity when history.json is gone.
const ACTIVITY_FILES: [&str; 7] = [
    "usage.log",
    "config.json",
    "status.json",
    "summary.json",
    "summary.meta.json",
    ".history",
    "bot.md",
];

fn remaining_activity(dir: &SessionDir) -> Option<DateTime<Utc>> {
    ACTIVITY_FILES
        .iter()
        .map(|name| dir.path.join(name))
        .chain(std::iter::once(dir.path.clone()))
        .filter_map(|p| dir.inspect(&p).ok().flatten())
        .filter_map(|m| m.modified().ok())
        .max()
        .map(DateTime::<Utc>::from)
}

/// Everything `show` prints about one session.
#[derive(Debug, Clone, Serialize)]
pub struct SessionDetail {
    #[serde(rename = "session")]
    pub id: String,
    pub path: String,
    pub history: Option<HistoryDetail>,
    pub summary: Option<SummaryDetail>,
    pub tasks: Vec<TaskDetail>,
    pub pending: Vec<String>,
    pub files: Vec<FileDetail>,
    pub torii: ToriiDetail,
    pub archive: Option<ArchiveDetail>,
    pub tokens: TokenDetail,
    /// The model's window and the share of its budget a request takes
    /// (set by `show`, which resolves windows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<BudgetUse>,
    pub problems: Vec<String>,
}

/// Tokens as `compact` counts them, with the session's one counter.
#[derive(Debug, Clone, Serialize)]
pub struct TokenDetail {
    pub model: Option<String>,
    pub counter: Counter,
    /// history.json's records (also `history.tokens`).
    pub history: usize,
    pub summary: usize,
    /// The largest task history (`history/*.json`).
    pub largest_task: usize,
    /// What `compact` compares with the budget: history + summary +
    /// largest task history.
    pub request: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct HistoryDetail {
    pub records: usize,
    pub user: usize,
    pub assistant: usize,
    pub bytes: u64,
    pub tokens: usize,
    #[serde(serialize_with = "ser_time")]
    pub first_at: Option<DateTime<Utc>>,
    #[serde(serialize_with = "ser_time")]
    pub last_at: Option<DateTime<Utc>>,
    /// First record's sendAt (ns): where `session_meta.start_at` should point.
    #[serde(serialize_with = "ser_nanos")]
    pub first_send_at: Option<i64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SummaryDetail {
    pub valid: bool,
    pub legacy: bool,
    pub key_decisions: usize,
    pub past_discussions: usize,
    pub current_topic: Option<String>,
    pub cursor: Option<String>,
    /// When the newest summarised record was sent (`summarized_up_to`).
    #[serde(serialize_with = "ser_time")]
    pub summarized_up_to: Option<DateTime<Utc>>,
    /// Records of the conversation after the cursor: what the next
    /// `summarize` merges (set by `show`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub behind: Option<usize>,
    #[serde(serialize_with = "ser_time")]
    pub modified: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TaskDetail {
    pub file: String,
    pub tokens: usize,
    #[serde(flatten)]
    pub stats: TaskStats,
}

#[derive(Debug, Clone, Serialize)]
pub struct FileDetail {
    pub name: String,
    pub bytes: u64,
    #[serde(serialize_with = "ser_time")]
    pub modified: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ToriiDetail {
    pub keys: usize,
    pub with_vector: usize,
    pub first_key: Option<String>,
    pub last_key: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ArchiveDetail {
    pub messages: u64,
    #[serde(serialize_with = "ser_nanos")]
    pub start_at: Option<i64>,
    #[serde(serialize_with = "ser_nanos")]
    pub oldest_send_at: Option<i64>,
    #[serde(serialize_with = "ser_nanos")]
    pub newest_send_at: Option<i64>,
}

const OTHER_FILES: [&str; 8] = [
    "history.json",
    "summary.json",
    "summary.meta.json",
    "action.log",
    "usage.log",
    "config.json",
    "bot.md",
    "status.json",
];

pub fn detail(dir: &SessionDir, db1: &Db, archive: Option<&Archive>, now: i64) -> SessionDetail {
    let mut problems = Vec::new();
    let mut note = |e: Error| problems.push(e.to_string());

    let config = load_config(dir).unwrap_or_else(|e| {
        note(e);
        None
    });
    let config = config.unwrap_or_default();
    let counter = config.counter();

    let history = match load_history(dir) {
        Ok(h) => h.map(|h| {
            let times: Vec<i64> = h
                .records
                .iter()
                .map(|r| r.send_at)
                .filter(|t| *t != 0)
                .collect();
            HistoryDetail {
                records: h.records.len(),
                user: h.records.iter().filter(|r| r.is_user()).count(),
                assistant: h.records.iter().filter(|r| r.is_assistant()).count(),
                bytes: h.bytes,
                tokens: counter.records(&h.records),
                first_at: times.iter().min().copied().and_then(nanos_to_time),
                last_at: times.iter().max().copied().and_then(nanos_to_time),
                first_send_at: h.records.first().map(|r| r.send_at).filter(|t| *t != 0),
            }
        }),
        Err(e) => {
            note(e);
            None
        }
    };

    let cursor = load_cursor(dir).unwrap_or_else(|e| {
        note(e);
        None
    });
    let mut summary_count = 0;
    let summary = match load_summary(dir) {
        Ok(s) => s.map(|(s, modified)| {
            summary_count = summary_tokens(&s, counter);
            SummaryDetail {
                valid: s.is_valid(),
                legacy: s.is_legacy(),
                key_decisions: s.key_decisions(),
                past_discussions: s.past_discussions(),
                current_topic: s.current_topic().map(str::to_owned),
                cursor: cursor.clone(),
                summarized_up_to: summarized_up_to(dir),
                behind: None,
                modified,
            }
        }),
        Err(e) => {
            note(e);
            None
        }
    };

    let tasks: Vec<TaskDetail> = list_json_files(dir, &dir.tasks_dir(), &mut note)
        .into_iter()
        .filter_map(|(name, path)| match dir.read(&path) {
            Ok(Some(bytes)) => match tasks::parse(&bytes, &path) {
                Ok(msgs) => Some(TaskDetail {
                    file: name,
                    tokens: counter.messages(&msgs),
                    stats: tasks::stats(&msgs),
                }),
                Err(e) => {
                    note(e);
                    None
                }
            },
            Ok(None) => None,
            Err(e) => {
                note(e);
                None
            }
        })
        .collect();
    let pending = list_json_files(dir, &dir.pending_dir(), &mut note)
        .into_iter()
        .map(|(name, _)| name)
        .collect();

    let files = OTHER_FILES
        .iter()
        .filter_map(|name| match dir.inspect(&dir.path.join(name)) {
            Ok(Some(m)) => Some(FileDetail {
                name: (*name).to_owned(),
                bytes: m.len(),
                modified: m.modified().ok().map(DateTime::<Utc>::from),
            }),
            Ok(None) => None,
            Err(e) => {
                note(e);
                None
            }
        })
        .collect();

    let keys = db1.session_keys(&dir.id, now);
    let torii = ToriiDetail {
        keys: keys.len(),
        with_vector: keys.iter().filter(|k| db1.has_vector(k)).count(),
        first_key: keys.first().cloned(),
        last_key: keys.last().cloned(),
    };

    let archive = archive.map(|a| {
        let detail = (|| {
            let span = a.span(&dir.id)?;
            Ok::<_, Error>(ArchiveDetail {
                messages: a.count_session(&dir.id)?,
                start_at: a.start_at(&dir.id)?,
                oldest_send_at: span.map(|s| s.0),
                newest_send_at: span.map(|s| s.1),
            })
        })();
        detail.unwrap_or_else(|e| {
            note(e);
            ArchiveDetail {
                messages: 0,
                start_at: None,
                oldest_send_at: None,
                newest_send_at: None,
            }
        })
    });

    if let (Some(h), Some(a)) = (&history, &archive) {
        if let (Some(first), Some(start)) = (h.first_send_at, a.start_at) {
            if start > first {
                problems.push(format!(
                    "session_meta.start_at ({start}) points past the first record of history.json ({first})"
                ));
            }
        }
    }

    let history_tokens = history.as_ref().map_or(0, |h| h.tokens);
    let largest_task = tasks.iter().map(|t| t.tokens).max().unwrap_or(0);
    let tokens = TokenDetail {
        model: config.model,
        counter,
        history: history_tokens,
        summary: summary_count,
        largest_task,
        request: history_tokens + summary_count + largest_task,
    };

    SessionDetail {
        id: dir.id.clone(),
        path: dir.path.display().to_string(),
        history,
        summary,
        tasks,
        pending,
        files,
        torii,
        archive,
        tokens,
        budget: None,
        problems,
    }
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
