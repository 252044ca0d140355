//! Turning `SESSION… | --all` plus filters into session folders, and the
//! confirmation every destructive command asks for.

use std::collections::HashMap;
use std::io::{self, BufRead, IsTerminal, Write};

use anyhow::Result;

use crate::cli::{Filters, Targets, WriteArgs};
use crate::engine::sessions::{self, SessionRow};
use crate::error::Error;
use crate::store::layout::{validate_session_id, DataRoot, SessionDir};
use crate::store::torii::glob;

/// Explicit ids (validated, must exist unless `allow_missing`) or every
/// session, then narrowed by the filters. Ids come back in the order given
/// (or sorted, for --all), without duplicates.
pub fn resolve(root: &DataRoot, t: &Targets, allow_missing: bool) -> Result<Vec<Target>> {
    if t.sessions.is_empty() && !t.all {
        return Err(Error::usage("name at least one SESSION, or pass --all")
            .with_hint("`sessionctl sessions list` shows the sessions under this root")
            .into());
    }
    let mut out: Vec<Target> = Vec::new();
    if t.all {
        let listing = root.session_ids()?;
        for id in listing.ids {
            let dir = root.session(&id)?;
            out.push(Target { id, dir: Some(dir) });
        }
    } else {
        for id in &t.sessions {
            validate_session_id(id)?;
        }
        for id in &t.sessions {
            if out.iter().any(|t| &t.id == id) {
                continue;
            }
            match root.session(id) {
                Ok(dir) => out.push(Target {
                    id: id.clone(),
                    dir: Some(dir),
                }),
                Err(Error::NoInput { .. }) if allow_missing => out.push(Target {
                    id: id.clone(),
                    dir: None,
                }),
                Err(e) => return Err(e.into()),
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
    Ok(out)
}

#[derive(Debug)]
pub struct Target {
    pub id: String,
    /// `None` when the folder is gone (only for commands that allow it).
    pub dir: Option<SessionDir>,
}

/// Apply the filters; `row_of` is only called when a time filter needs it.
pub fn filter<T: HasDir>(
    items: Vec<T>,
    f: &Filters,
    row_of: impl Fn(&SessionDir) -> SessionRow,
) -> Vec<T> {
    let now = chrono::Utc::now();
    items
        .into_iter()
        .filter(|item| {
            if !matches_id(f, item.id()) {
                return false;
            }
            if f.idle_for.is_none() && f.older_than.is_none() {
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
    let older = |t: Option<chrono::DateTime<chrono::Utc>>, secs: i64| {
        t.is_some_and(|t| (now - t).num_seconds() >= secs)
    };
    f.idle_for.is_none_or(|s| older(row.last_at, s))
        && f.older_than.is_none_or(|s| older(row.first_at, s))
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
    if w.dry_run || w.yes {
        return Ok(true);
    }
    if !io::stdin().is_terminal() {
        return Err(Error::usage(
            "refusing to change data without --yes (stdin is not a terminal)",
        )
        .with_hint("add --yes, or try --dry-run first to see what would change")
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
