//! One row of `sessions list`: read from the files, or from the facts the
//! row cache remembers of unchanged ones.

use super::*;

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
    let now_ns = crate::timefmt::file_clock_ns();
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
        let now_ns = crate::timefmt::file_clock_ns();
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
