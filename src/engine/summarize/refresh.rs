//! One session's summary brought up to date: the conversation (archive and
//! history.json, each record once) from the cursor on, merged chunk by
//! chunk, with summary.json and an exact cursor saved after each chunk.

use serde_json::{Map, Value};

use crate::engine::sessions;
use crate::engine::summarize::{self, cursor, stream, Outcome};
use crate::error::Error;
use crate::llm::Summarizer;
use crate::store::archive::{Archive, ArchivedMessage};
use crate::store::history::Record;
use crate::store::layout::{DataRoot, SessionDir};
use crate::store::summary::{self as meta, Cursor};
use crate::store::{atomic, trash};

/// How to refresh.
#[derive(Debug, Clone, Copy)]
pub struct Mode {
    /// Start from an empty summary and merge the whole conversation.
    pub rebuild: bool,
    pub chunk_chars: usize,
    pub dry_run: bool,
}

/// A failed refresh, with what it merged (and saved) before failing.
pub struct Failure {
    pub error: Error,
    pub outcome: Box<Outcome>,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure {
            error,
            outcome: Box::default(),
        }
    }
}

/// Bring one session's summary up to date (or rebuild it). The caller holds
/// the session lock and has checked that Agenvoy does not run (reset does).
pub fn refresh(
    root: &DataRoot,
    dir: &SessionDir,
    summarizer: &dyn Summarizer,
    rebuild: bool,
    chunk_chars: usize,
    dry_run: bool,
    journal: &crate::store::oplog::Journal,
) -> Result<(Outcome, bool), Failure> {
    let mode = Mode {
        rebuild,
        chunk_chars,
        dry_run,
    };
    refresh_with(root, dir, summarizer, mode, journal, &mut || Ok(()))
}

/// Records the summary lacks (read-only; no summarizer is asked).
pub fn pending(root: &DataRoot, dir: &SessionDir) -> crate::Result<usize> {
    refresh(
        root,
        dir,
        &crate::llm::offline::Offline,
        false,
        summarize::DEFAULT_CHUNK_CHARS,
        true,
        crate::store::oplog::Journal::none(),
    )
    .map(|(o, _)| o.count)
    .map_err(|f| f.error)
}

/// `refresh`, calling `before_write` before the first file is written.
pub fn refresh_with(
    root: &DataRoot,
    dir: &SessionDir,
    summarizer: &dyn Summarizer,
    mode: Mode,
    journal: &crate::store::oplog::Journal,
    before_write: &mut dyn FnMut() -> crate::Result<()>,
) -> Result<(Outcome, bool), Failure> {
    let history = sessions::load_history(dir)?
        .map(|h| h.records)
        .unwrap_or_default();
    let existing = sessions::load_summary(dir)?.map(|(s, _)| s.fields);
    let at = load_meta(dir)?;
    let mut outcome = Outcome {
        cursor_before: at.time.clone(),
        cursor_after: at.time.clone(),
        ..Default::default()
    };
    let since = if mode.rebuild { 0 } else { cursor::since(&at) };
    let conv = load_conversation(root, dir, &history, since)?.records;
    let (mut summary, from) = if mode.rebuild {
        (Map::new(), 0)
    } else {
        let summary = existing.clone().unwrap_or_default();
        if at == Cursor::default() && !summary.is_empty() {
            // Agenvoy's migration of a pre-cursor summary: the cursor goes
            // to the end, nothing is merged (docs/agenvoy-format.md#summary-cursor).
            let end = cursor::cursor_at(&conv, conv.len());
            outcome.cursor_after = end.time.clone();
            outcome.cursor_only = !conv.is_empty();
            if !mode.dry_run && !conv.is_empty() {
                before_write()?;
                crate::engine::undo::keep_summary(journal, root, dir)?;
                save_meta(dir, &end)?;
            }
            return Ok((outcome, false));
        }
        (summary, cursor::position(&conv, &at))
    };
    let todo = &conv[from..];
    // What the summary holds so far, for its size budget: nothing after a
    // rebuild or before the first merge; unknown for a summary we did not
    // count (Agenvoy's, an older sessionctl's).
    let source_before = if mode.rebuild || (from == 0 && summary.is_empty()) {
        Some(0)
    } else {
        at.merged_chars.map(|n| n as usize)
    };
    let upto = summarize::source_prefix(todo);
    if mode.dry_run || todo.is_empty() {
        if mode.dry_run {
            outcome.count = todo.len();
            outcome.chunks = summarize::chunks(todo, mode.chunk_chars).len();
            let end = cursor::cursor_at(&conv, conv.len()).time;
            outcome.cursor_after = end.or(outcome.cursor_after);
        }
        return Ok((outcome, mode.rebuild));
    }
    before_write()?;
    crate::engine::undo::keep_summary(journal, root, dir)?;
    if let (true, Some(old)) = (mode.rebuild, &existing) {
        let t = trash::new_path(root, &dir.id)?;
        trash::create(root, &t, &dir.id)?;
        let bytes = serde_json::to_vec_pretty(old).expect("a summary serialises");
        atomic::write_atomic(root, &t.join("summary.json"), &bytes)?;
    }
    let mut save = |s: &Map<String, Value>, merged: usize| {
        let mut c = cursor::cursor_at(&conv, from + merged);
        c.merged_chars = source_before.map(|b| (b + upto[merged]) as u64);
        save_summary(dir, s, &c)?;
        Ok(c.time)
    };
    match summarize::merge(
        &mut summary,
        todo,
        summarizer,
        mode.chunk_chars,
        source_before,
        &mut outcome,
        &mut save,
    ) {
        Ok(()) => Ok((outcome, mode.rebuild)),
        Err(error) => Err(Failure {
            error,
            outcome: Box::new(outcome),
        }),
    }
}

/// Compact's `fold` stage: merge the conversation up to the last of the
/// records compact is about to remove (the first `removed.len()` of
/// history.json), so they reach the summary before they leave. The caller
/// holds the session lock. Returns how many records were merged.
pub fn fold_records(
    root: &DataRoot,
    dir: &SessionDir,
    removed: &[Record],
    summarizer: &dyn Summarizer,
    dry_run: bool,
    journal: &crate::store::oplog::Journal,
) -> crate::Result<usize> {
    if removed.is_empty() {
        return Ok(0);
    }
    let history = sessions::load_history(dir)?
        .map(|h| h.records)
        .unwrap_or_default();
    let at = load_meta(dir)?;
    let conv = load_conversation(root, dir, &history, cursor::since(&at))?;
    let from = cursor::position(&conv.records, &at);
    let upto = conv
        .history_at
        .get(removed.len().min(history.len()).saturating_sub(1))
        .map_or(from, |i| i + 1);
    let todo = &conv.records[from..upto.max(from)];
    if dry_run || todo.is_empty() {
        return Ok(todo.len());
    }
    crate::engine::undo::keep_summary(journal, root, dir)?;
    let mut summary = sessions::load_summary(dir)?
        .map(|(s, _)| s.fields)
        .unwrap_or_default();
    let mut outcome = Outcome::default();
    let source_before = if from == 0 && summary.is_empty() {
        Some(0)
    } else {
        at.merged_chars.map(|n| n as usize)
    };
    let upto = summarize::source_prefix(todo);
    let mut save = |s: &Map<String, Value>, merged: usize| {
        let mut c = cursor::cursor_at(&conv.records, from + merged);
        c.merged_chars = source_before.map(|b| (b + upto[merged]) as u64);
        save_summary(dir, s, &c)?;
        Ok(c.time)
    };
    summarize::merge(
        &mut summary,
        todo,
        summarizer,
        summarize::DEFAULT_CHUNK_CHARS,
        source_before,
        &mut outcome,
        &mut save,
    )?;
    Ok(outcome.count)
}

/// The session's conversation from `since` on (see `stream`). The archive
/// is read only; rows older than `since` are kept as their times alone.
fn load_conversation(
    root: &DataRoot,
    dir: &SessionDir,
    history: &[Record],
    since: i64,
) -> crate::Result<stream::Conversation> {
    let mut rows: Vec<ArchivedMessage> = Vec::new();
    if let Some(archive) = Archive::open_read(root, &root.archive_path())? {
        archive.for_each_message(&dir.id, |mut m| {
            if m.send_at != 0 && m.send_at < since {
                m.content = String::new(); // before the cursor: only its time matters
            }
            rows.push(m);
            Ok(())
        })?;
    }
    Ok(stream::conversation(rows, history, since))
}

fn load_meta(dir: &SessionDir) -> crate::Result<Cursor> {
    let path = dir.summary_meta();
    match dir.read(&path)? {
        Some(bytes) => meta::parse_meta(&bytes, &path),
        None => Ok(Cursor::default()),
    }
}

/// Persist a merged summary, then its cursor. Summary first: a crash
/// before the cursor moves merges a chunk again, it never skips one.
fn save_summary(dir: &SessionDir, summary: &Map<String, Value>, at: &Cursor) -> crate::Result<()> {
    let mut bytes = serde_json::to_vec_pretty(summary).expect("a summary serialises");
    bytes.push(b'\n');
    dir.write(&dir.summary_json(), &bytes)?;
    crate::failpoint("summary-before-cursor");
    save_meta(dir, at)
}

fn save_meta(dir: &SessionDir, at: &Cursor) -> crate::Result<()> {
    dir.write(&dir.summary_meta(), &meta::meta_bytes(at))
}
