//! Everything `show` says about one session, tier by tier.

use super::*;

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
