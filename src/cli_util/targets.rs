//! Turning `SESSION… | --all` plus filters into session folders, and the
//! confirmation every destructive command asks for.

use std::collections::HashMap;
use std::io::{self, BufRead, IsTerminal, Write};

use anyhow::Result;

use crate::cli::{Filters, Targets, WriteArgs};
use crate::engine::batch::{SessionError, Target};
use crate::engine::sessions::{self, SessionRow};
use crate::error::Error;
use crate::store::layout::{validate_session_id, DataRoot, SessionDir};
use crate::store::torii::glob;

/// How explicit ids turn into folders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolve {
    /// Real session folders; a symlinked one is refused (65) for that id.
    Folders,
    /// Whatever stands at the id's place, a symlink included (`remove`
    /// takes the link away, never its target).
    Entries,
}

/// Explicit ids (validated: a bad id is a usage error for the whole
/// command) or every session, then narrowed by the filters. Ids come back
/// in the order given (or sorted, for --all), without duplicates. An id
/// with no folder comes back with `dir: None` (the operation decides); one
/// whose folder cannot be used is that session's error.
pub fn resolve(
    root: &DataRoot,
    t: &Targets,
    how: Resolve,
) -> Result<(Vec<Target>, Vec<SessionError>)> {
    if t.sessions.is_empty() && !t.all {
        return Err(Error::usage("name at least one SESSION, or pass --all")
            .with_hint("`sessionctl sessions list` shows the sessions under this root")
            .into());
    }
    let mut out: Vec<Target> = Vec::new();
    let mut errors = Vec::new();
    if t.all {
        let listing = root.session_ids()?;
        let sessions = root.sessions_phys()?;
        for id in listing.ids {
            match root.session_in(&sessions, &id) {
                Ok(dir) => out.push(Target { id, dir: Some(dir) }),
                Err(error) => errors.push(SessionError { session: id, error }),
            }
        }
    } else {
        for id in &t.sessions {
            validate_session_id(id)?;
        }
        for id in &t.sessions {
            if out.iter().any(|t| &t.id == id) || errors.iter().any(|e| &e.session == id) {
                continue;
            }
            let dir = match how {
                Resolve::Folders => match root.session(id) {
                    Ok(dir) => Ok(Some(dir)),
                    Err(Error::NoInput { .. }) => Ok(None),
                    Err(e) => Err(e),
                },
                Resolve::Entries => root.session_entry(id),
            };
            match dir {
                Ok(dir) => out.push(Target {
                    id: id.clone(),
                    dir,
                }),
                Err(error) => errors.push(SessionError {
                    session: id.clone(),
                    error,
                }),
            }
        }
    }
    if !t.filters.is_empty() {
        out = filter(out, &t.filters, |dir| {
            sessions::row(
                dir,
                &HashMap::new(),
                &HashMap::new(),
                sessions::RowTokens::Skip,
            )
        });
    }
    Ok((out, errors))
}

/// Apply the filters; `row_of` is only called when a time filter needs it.
pub fn filter<T: HasDir>(
    items: Vec<T>,
    f: &Filters,
    row_of: impl Fn(&SessionDir) -> SessionRow,
) -> Vec<T> {
    let now = crate::timefmt::now();
    items
        .into_iter()
        .filter(|item| {
            if !matches_id(f, item.id()) {
                return false;
            }
            if !f.has_time() {
                return true;
            }
            item.dir()
                .is_some_and(|dir| matches_times(f, &row_of(dir), now))
        })
        .collect()
}

/// The id filters: --match and --shard.
pub fn matches_id(f: &Filters, id: &str) -> bool {
    f.glob
        .as_ref()
        .is_none_or(|g| glob::path_match(g, id) == Ok(true))
        && f.shard.is_none_or(|(k, n)| shard_of(id, n) == k)
}

/// The time filters: --idle-for and --older-than. A session with no known
/// time never matches them (we cannot prove it is old).
pub fn matches_times(f: &Filters, row: &SessionRow, now: chrono::DateTime<chrono::Utc>) -> bool {
    let before = |t: Option<chrono::DateTime<chrono::Utc>>, cutoff| t.is_some_and(|t| t <= cutoff);
    f.idle_cutoff(now).is_none_or(|c| before(row.last_at, c))
        && f.older_than
            .is_none_or(|b| before(row.first_at, b.cutoff(now)))
}

pub trait HasDir {
    fn id(&self) -> &str;
    fn dir(&self) -> Option<&SessionDir>;
}

impl HasDir for Target {
    fn id(&self) -> &str {
        &self.id
    }
    fn dir(&self) -> Option<&SessionDir> {
        self.dir.as_ref()
    }
}

/// Stable shard number (1-based) of an id: FNV-1a, so every host agrees.
pub fn shard_of(id: &str, n: u32) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % u64::from(n)) as u32 + 1
}

/// Destructive commands need `--yes` without a terminal; on a terminal they
/// ask. Returns false when the user declined.
pub fn confirm(w: &WriteArgs, question: &str) -> Result<bool> {
    ask(Some(w.dry_run), w.yes, question)
}

/// `confirm` for any command: a dry run or `--yes` goes ahead; without a
/// terminal it is a usage error (64); on one, the user is asked.
/// `dry_run` is `None` for a command that has no `--dry-run` (so the hint
/// does not suggest one).
pub fn ask(dry_run: Option<bool>, yes: bool, question: &str) -> Result<bool> {
    if dry_run == Some(true) {
        return Ok(true);
    }
    if yes {
        return Ok(true);
    }
    if !io::stdin().is_terminal() {
        return Err(Error::usage(
            "refusing to change data without --yes (stdin is not a terminal)",
        )
        .with_hint(if dry_run.is_some() {
            "add --yes, or try --dry-run first to see what would change"
        } else {
            "add --yes to go ahead"
        })
        .into());
    }
    eprint!("{question} [y/N] ");
    io::stderr().flush()?;
    let mut answer = String::new();
    io::stdin().lock().read_line(&mut answer)?;
    Ok(matches!(
        answer.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_stable_and_cover_everything() {
        assert_eq!(shard_of("tui-alice", 4), shard_of("tui-alice", 4));
        let ids: Vec<String> = (0..1000).map(|i| format!("s{i}")).collect();
        let mut counts = [0; 4];
        for id in &ids {
            counts[(shard_of(id, 4) - 1) as usize] += 1;
        }
        assert!(counts.iter().all(|c| *c > 150), "{counts:?}");
    }
}
