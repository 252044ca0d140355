//! Library errors. Each variant maps to one sysexits-style exit code so that
//! cron jobs and scripts can branch on the kind of failure, not its text.

use std::io;
use std::path::{Path, PathBuf};

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The command line asks for something impossible (bad id, missing flag).
    #[error("{msg}")]
    Usage { msg: String, hint: Option<String> },

    /// A file exists but its content cannot be used as it is.
    #[error("{}: {msg}", path.display())]
    Data {
        path: PathBuf,
        msg: String,
        hint: Option<String>,
    },

    /// Something the command needs does not exist.
    #[error("{msg}")]
    NoInput { msg: String, hint: Option<String> },

    /// Someone else holds the data right now; retrying later may succeed.
    #[error("{msg}")]
    Busy { msg: String, hint: Option<String> },

    /// A remote service did not answer usefully (network, HTTP error).
    #[error("{msg}")]
    Unavailable { msg: String, hint: Option<String> },

    /// We could not write (read-only file system, permissions, disk full).
    #[error("cannot write {}: {source}", path.display())]
    CantWrite { path: PathBuf, source: io::Error },

    #[error("reading {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },

    /// The terminal the view draws on failed it (no answer to a query, gone).
    #[error("the terminal: {msg}")]
    Terminal { msg: String },

    #[error("{}: {source}", path.display())]
    Sqlite {
        path: PathBuf,
        source: rusqlite::Error,
    },
}

pub mod exit {
    pub const OK: i32 = 0;
    pub const FINDINGS: i32 = 1;
    pub const USAGE: i32 = 64;
    pub const DATA: i32 = 65;
    pub const NO_INPUT: i32 = 66;
    pub const UNAVAILABLE: i32 = 69;
    pub const SOFTWARE: i32 = 70;
    pub const CANT_CREATE: i32 = 73;
    pub const IO: i32 = 74;
    pub const TEMP_FAIL: i32 = 75;
}

impl Error {
    pub fn usage(msg: impl Into<String>) -> Self {
        Error::Usage {
            msg: msg.into(),
            hint: None,
        }
    }

    pub fn data(path: impl AsRef<Path>, msg: impl Into<String>) -> Self {
        Error::Data {
            path: path.as_ref().to_path_buf(),
            msg: msg.into(),
            hint: None,
        }
    }

    pub fn no_input(msg: impl Into<String>) -> Self {
        Error::NoInput {
            msg: msg.into(),
            hint: None,
        }
    }

    pub fn unavailable(msg: impl Into<String>) -> Self {
        Error::Unavailable {
            msg: msg.into(),
            hint: None,
        }
    }

    pub fn busy(msg: impl Into<String>) -> Self {
        Error::Busy {
            msg: msg.into(),
            hint: None,
        }
    }

    pub fn read(path: impl AsRef<Path>, source: io::Error) -> Self {
        Error::Read {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    pub fn write(path: impl AsRef<Path>, source: io::Error) -> Self {
        Error::CantWrite {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    pub fn sqlite(path: impl AsRef<Path>, source: rusqlite::Error) -> Self {
        Error::Sqlite {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    /// Attach a line telling the user how to get past this error.
    pub fn with_hint(mut self, text: impl Into<String>) -> Self {
        let text = Some(text.into());
        match &mut self {
            Error::Usage { hint, .. }
            | Error::Data { hint, .. }
            | Error::NoInput { hint, .. }
            | Error::Busy { hint, .. }
            | Error::Unavailable { hint, .. } => *hint = text,
            _ => {}
        }
        self
    }

    /// How to get past this error: the hint the error was given, else
    /// one for its kind (every error a user sees carries one).
    pub fn hint(&self) -> String {
        let set = match self {
            Error::Usage { hint, .. }
            | Error::Data { hint, .. }
            | Error::NoInput { hint, .. }
            | Error::Busy { hint, .. }
            | Error::Unavailable { hint, .. } => hint.as_deref(),
            _ => None,
        };
        match set {
            Some(h) => h.to_owned(),
            None => self.default_hint(),
        }
    }

    fn default_hint(&self) -> String {
        match self {
            Error::Usage { .. } => "see `sessionctl --help` (or COMMAND --help)".into(),
            Error::Data { path, .. } => data_hint(path),
            Error::NoInput { .. } => "check the name and the data root (--root, AGENVOY_HOME); \
                 `sessionctl sessions list` shows what is there"
                .into(),
            Error::Busy { .. } => {
                "another process holds it (Agenvoy or a second sessionctl); retry when it is done"
                    .into()
            }
            Error::Unavailable { .. } => {
                "check the URL and the network, or retry later; --offline skips the network".into()
            }
            Error::CantWrite { source, .. } => write_hint(source).into(),
            Error::Read { path, source } => match source.kind() {
                io::ErrorKind::NotFound => {
                    "check the path and the data root (--root, AGENVOY_HOME)".into()
                }
                io::ErrorKind::InvalidData => data_hint(path),
                io::ErrorKind::PermissionDenied => {
                    "sessionctl may not read it: check its owner and permissions".into()
                }
                _ => "check the disk and the file system, then run the command again".into(),
            },
            Error::Sqlite { path, source } => match sqlite_exit_code(source) {
                exit::TEMP_FAIL => {
                    "another process holds the archive (Agenvoy or a second sessionctl); \
                     retry when it is done"
                        .into()
                }
                exit::CANT_CREATE => format!(
                    "check that {} can be opened and written and the disk has room",
                    path.display()
                ),
                _ => data_hint(path),
            },
            Error::Terminal { .. } => "run it in a terminal emulator or tmux that answers its \
                 queries; scripts use the subcommands (sessions list, show, compact, reset, …)"
                .into(),
        }
    }

    /// The same failure (same kind, same exit code), its message led by
    /// `what` went wrong at a higher level.
    pub fn within(self, what: &str) -> Self {
        match self {
            Error::Usage { msg, hint } => Error::Usage {
                msg: format!("{what}: {msg}"),
                hint,
            },
            Error::Data { path, msg, hint } => Error::Data {
                path,
                msg: format!("{what}: {msg}"),
                hint,
            },
            Error::NoInput { msg, hint } => Error::NoInput {
                msg: format!("{what}: {msg}"),
                hint,
            },
            Error::Busy { msg, hint } => Error::Busy {
                msg: format!("{what}: {msg}"),
                hint,
            },
            Error::Unavailable { msg, hint } => Error::Unavailable {
                msg: format!("{what}: {msg}"),
                hint,
            },
            Error::CantWrite { path, source } => Error::CantWrite {
                source: std::io::Error::new(source.kind(), format!("{what}: {source}")),
                path,
            },
            Error::Read { path, source } => Error::Read {
                source: std::io::Error::new(source.kind(), format!("{what}: {source}")),
                path,
            },
            e @ (Error::Sqlite { .. } | Error::Terminal { .. }) => e,
        }
    }

    /// The file the error is about, when there is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Error::Data { path, .. }
            | Error::CantWrite { path, .. }
            | Error::Read { path, .. }
            | Error::Sqlite { path, .. } => Some(path),
            _ => None,
        }
    }

    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage { .. } => exit::USAGE,
            Error::Data { .. } => exit::DATA,
            Error::NoInput { .. } => exit::NO_INPUT,
            Error::Busy { .. } => exit::TEMP_FAIL,
            Error::Unavailable { .. } => exit::UNAVAILABLE,
            Error::CantWrite { .. } => exit::CANT_CREATE,
            Error::Read { source, .. } => match source.kind() {
                io::ErrorKind::NotFound => exit::NO_INPUT,
                io::ErrorKind::InvalidData => exit::DATA,
                _ => exit::IO,
            },
            Error::Sqlite { source, .. } => sqlite_exit_code(source),
            Error::Terminal { .. } => exit::IO,
        }
    }
}

/// A file whose content is unusable: the session's check when the file is
/// a session's, else the stores' (nothing was changed either way).
fn data_hint(path: &Path) -> String {
    let parts: Vec<&str> = path
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    let session = parts
        .windows(3)
        .rev()
        .find(|w| w[0] == "sessions")
        .map(|w| w[1]);
    match session {
        Some(id) => format!(
            "nothing was changed; `sessionctl check {id}` says what is wrong with the session, \
             or inspect {}",
            path.display()
        ),
        None => format!(
            "nothing was changed; `sessionctl check` says what is wrong with the stores, \
             or inspect {}",
            path.display()
        ),
    }
}

fn write_hint(err: &io::Error) -> &'static str {
    if is_read_only(err) {
        "the data root is read-only; run sessionctl where it can write, or remount"
    } else if err.raw_os_error() == Some(libc::ENOSPC) {
        "the disk is full: free some space and run the command again (nothing was lost)"
    } else {
        "check that the data root is writable and the disk has room, then run the command again"
    }
}

fn is_read_only(err: &io::Error) -> bool {
    matches!(
        err.kind(),
        io::ErrorKind::ReadOnlyFilesystem | io::ErrorKind::PermissionDenied
    )
}

fn sqlite_exit_code(err: &rusqlite::Error) -> i32 {
    use rusqlite::ffi::ErrorCode;
    match err.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => exit::TEMP_FAIL,
        Some(
            ErrorCode::ReadOnly
            | ErrorCode::DiskFull
            | ErrorCode::CannotOpen
            | ErrorCode::PermissionDenied
            | ErrorCode::SystemIoFailure,
        ) => exit::CANT_CREATE,
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => exit::DATA,
        _ => exit::DATA,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_hint_and_a_set_one_wins() {
        let io = |kind| io::Error::new(kind, "x");
        let errors = [
            Error::usage("u"),
            Error::data("/r/sessions/tui-alice/history.json", "d"),
            Error::data("/r/.store/db_1/record.aof", "d"),
            Error::no_input("n"),
            Error::busy("b"),
            Error::unavailable("h"),
            Error::write("/r/x", io(io::ErrorKind::ReadOnlyFilesystem)),
            Error::write("/r/x", io::Error::from_raw_os_error(libc::ENOSPC)),
            Error::write("/r/x", io(io::ErrorKind::Other)),
            Error::read("/r/x", io(io::ErrorKind::NotFound)),
            Error::read("/r/x", io(io::ErrorKind::InvalidData)),
            Error::read("/r/x", io(io::ErrorKind::PermissionDenied)),
            Error::read("/r/x", io(io::ErrorKind::Other)),
            Error::sqlite("/r/a.db", rusqlite::Error::InvalidQuery),
        ];
        for e in &errors {
            assert!(e.hint().len() > 10, "{e:?}: {:?}", e.hint());
        }
        assert!(errors[1].hint().contains("sessionctl check tui-alice"));
        assert!(errors[2].hint().contains("`sessionctl check`"));
        assert!(errors[7].hint().contains("disk is full"));
        assert_eq!(Error::busy("b").with_hint("wait").hint(), "wait");
    }
}
