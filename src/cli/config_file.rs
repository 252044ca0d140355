//! `~/.config/sessionctl/config.toml` (or `$XDG_CONFIG_HOME/sessionctl/`):
//! settings below flags and the environment, above the defaults.
//!
//! ```toml
//! root = "~/agenvoy"          # the data root
//! offline = true
//! summarizer = "openai"       # offline | openai | anthropic
//! embed_url = "http://127.0.0.1:11434"
//! embed_model = "nomic-embed-text"
//! keep_last = 4
//! log = "~/.local/state/sessionctl/runs.ndjson"
//! ```

use std::path::{Path, PathBuf};

use clap::ArgMatches;
use serde::Serialize;

use crate::cli::{Cli, Command, ErrorsCommand, SummarizerKind};
use crate::error::{Error, Result};

pub const KEYS: [&str; 7] = [
    "root",
    "offline",
    "summarizer",
    "embed_url",
    "embed_model",
    "keep_last",
    "log",
];

/// Where an effective setting came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Flag,
    Env,
    File,
    Default,
}

/// The settings a config file may hold; all optional.
#[derive(Debug, Default, Clone)]
pub struct FileConfig {
    pub path: Option<PathBuf>,
    pub root: Option<PathBuf>,
    pub offline: Option<bool>,
    pub summarizer: Option<SummarizerKind>,
    pub embed_url: Option<String>,
    pub embed_model: Option<String>,
    pub keep_last: Option<usize>,
    pub log: Option<PathBuf>,
}

/// `$XDG_CONFIG_HOME/sessionctl/config.toml` when that is set (and
/// absolute, as the XDG Base Directory spec asks), else `~/.config/sessionctl/config.toml`.
pub fn path() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let base = xdg.or_else(|| home().map(|h| h.join(".config")))?;
    Some(base.join("sessionctl").join("config.toml"))
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// `~/x` → `$HOME/x`.
pub(crate) fn expand(text: &str) -> PathBuf {
    match (text.strip_prefix("~/"), home()) {
        (Some(rest), Some(h)) => h.join(rest),
        _ => PathBuf::from(text),
    }
}

/// The config file's settings; none when it does not exist. Bad TOML is
/// bad data (65); an unknown key or a wrong type is a usage error (64),
/// named with the file.
pub fn load() -> Result<FileConfig> {
    let Some(path) = path() else {
        return Ok(FileConfig::default());
    };
    // a FIFO or device there must not hang every command: only a regular
    // file is read (65 naming it otherwise), and only a small one
    let Some(bytes) =
        crate::store::files::read_outside(&path, crate::store::files::MAX_SMALL_FILE)?
    else {
        return Ok(FileConfig::default());
    };
    let text = String::from_utf8(bytes).map_err(|_| Error::data(&path, "is not UTF-8 text"))?;
    parse(&text, &path)
}

pub fn parse(text: &str, path: &Path) -> Result<FileConfig> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        Error::data(path, format!("not valid TOML: {}", e.message()))
    })?;
    let mut c = FileConfig {
        path: Some(path.to_owned()),
        ..FileConfig::default()
    };
    for (key, value) in &table {
        let wrong = |want: &str| {
            Error::usage(format!(
                "{}: `{key}` must be {want}, not {}",
                path.display(),
                value.type_str()
            ))
            .with_hint(format!("fix or remove it in {}", path.display()))
        };
        let text = || value.as_str().ok_or_else(|| wrong("a string"));
        match key.as_str() {
            "root" => c.root = Some(expand(text()?)),
            "log" => c.log = Some(expand(text()?)),
            "offline" => c.offline = Some(value.as_bool().ok_or_else(|| wrong("true or false"))?),
            "summarizer" => {
                let name = text()?;
                let kind = <SummarizerKind as clap::ValueEnum>::from_str(name, true)
                    .map_err(|_| wrong("offline, openai or anthropic"))?;
                c.summarizer = Some(kind);
            }
            "embed_url" => c.embed_url = Some(text()?.to_owned()),
            "embed_model" => c.embed_model = Some(text()?.to_owned()),
            "keep_last" => {
                let n = value
                    .as_integer()
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| wrong("a whole number"))?;
                c.keep_last = Some(n);
            }
            _ => {
                return Err(
                    Error::usage(format!("{}: unknown key `{key}`", path.display()))
                        .with_hint(format!("known keys: {}", KEYS.join(", "))),
                )
            }
        }
    }
    Ok(c)
}

/// Which settings the command line or the environment gave, read from
/// clap's matches (the parsed values alone cannot tell a default from an
/// explicit value).
#[derive(Debug, Clone, Default)]
pub struct Explicit {
    /// Filled from real matches; a `Cli` built otherwise applies no file.
    pub known: bool,
    pub sources: Vec<(&'static str, Source)>,
}

impl Explicit {
    pub fn from_matches(m: &ArgMatches) -> Self {
        let mut sources = Vec::new();
        for (key, id) in [
            ("root", "root"),
            ("offline", "offline"),
            ("log", "log"),
            ("summarizer", "summarizer"),
            ("keep_last", "keep_last"),
            ("embed_url", "embed_url"),
            ("embed_model", "embed_model"),
        ] {
            if let Some(s) = source_in(m, id) {
                sources.push((key, s));
            }
        }
        // Read by the embedder itself, not through clap.
        for (key, var) in [
            ("embed_url", "SESSIONCTL_EMBED_BASE_URL"),
            ("embed_model", "SESSIONCTL_EMBED_MODEL"),
        ] {
            let set = std::env::var_os(var).is_some_and(|v| !v.is_empty());
            if set && !sources.iter().any(|(k, _)| *k == key) {
                sources.push((key, Source::Env));
            }
        }
        Explicit {
            known: true,
            sources,
        }
    }

    pub fn source(&self, key: &str) -> Option<Source> {
        self.sources
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, s)| *s)
    }
}

/// Flag or env for `id` in the deepest (sub)command that has it.
fn source_in(m: &ArgMatches, id: &str) -> Option<Source> {
    use clap::parser::ValueSource;
    let mut found = None;
    let mut cur = Some(m);
    while let Some(c) = cur {
        if c.try_get_raw(id).is_ok() {
            found = match c.value_source(id) {
                Some(ValueSource::CommandLine) => Some(Source::Flag),
                Some(ValueSource::EnvVariable) => Some(Source::Env),
                _ => found,
            };
        }
        cur = c.subcommand().map(|(_, sub)| sub);
    }
    found
}

/// Fill what neither a flag nor the environment set from the file.
pub fn apply(cli: &mut Cli, file: &FileConfig) {
    let ex = cli.global.explicit.clone();
    if !ex.known {
        return;
    }
    let unset = |key: &str| ex.source(key).is_none();
    let g = &mut cli.global;
    if unset("root") {
        g.root = g.root.take().or_else(|| file.root.clone());
    }
    if unset("offline") {
        g.offline = g.offline || file.offline == Some(true);
    }
    if unset("log") {
        g.log = g.log.take().or_else(|| file.log.clone());
    }
    let llm = match &mut cli.command {
        Command::Reset(a) => Some(&mut a.llm),
        Command::Summarize(a) => Some(&mut a.llm),
        Command::Compact(a) => Some(&mut a.llm),
        Command::View(a) => Some(&mut a.llm),
        _ => None,
    };
    if let (Some(llm), Some(kind), true) = (llm, file.summarizer, unset("summarizer")) {
        llm.summarizer = kind;
    }
    if let (Some(n), true) = (file.keep_last, unset("keep_last")) {
        match &mut cli.command {
            Command::Compact(a) => a.keep_last = n,
            Command::View(a) => a.keep_last = n,
            _ => {}
        }
    }
    let embed = match &mut cli.command {
        Command::Search(a) => Some(&mut a.embed),
        Command::Errors(ErrorsCommand::Edit(a)) => Some(&mut a.embed),
        Command::Errors(ErrorsCommand::Search(a)) => Some(&mut a.embed),
        _ => None,
    };
    if let Some(e) = embed {
        if unset("embed_url") {
            e.embed_url = e.embed_url.take().or_else(|| file.embed_url.clone());
        }
        if unset("embed_model") {
            e.embed_model = e.embed_model.take().or_else(|| file.embed_model.clone());
        }
    }
}

/// One effective setting, for `config show`.
#[derive(Debug, Serialize)]
pub struct Setting {
    pub key: &'static str,
    pub value: serde_json::Value,
    pub source: Source,
}

/// Every setting as a command without its own flags for them sees it:
/// global options after `apply`, the others from env, file or default.
pub fn effective(cli: &Cli, file: &FileConfig) -> Vec<Setting> {
    let ex = &cli.global.explicit;
    let pick = |key: &'static str,
                explicit: Option<serde_json::Value>,
                from_file: Option<serde_json::Value>,
                default: serde_json::Value| {
        let (value, source) = match (ex.source(key), explicit, from_file) {
            (Some(s), Some(v), _) => (v, s),
            (_, _, Some(v)) => (v, Source::File),
            _ => (default, Source::Default),
        };
        Setting { key, value, source }
    };
    let path = |p: &Option<PathBuf>| {
        p.as_ref()
            .map(|p| serde_json::json!(p.display().to_string()))
    };
    let env = |var: &str| {
        std::env::var(var)
            .ok()
            .filter(|v| !v.is_empty())
            .map(serde_json::Value::from)
    };
    let g = &cli.global;
    let default_root = crate::store::layout::DataRoot::default_path()
        .map_or(serde_json::Value::Null, |p| {
            serde_json::json!(p.display().to_string())
        });
    vec![
        pick("root", path(&g.root), path(&file.root), default_root),
        pick(
            "offline",
            Some(g.offline.into()),
            file.offline.map(Into::into),
            false.into(),
        ),
        pick(
            "summarizer",
            None,
            file.summarizer.map(|k| summarizer_name(k).into()),
            "offline".into(),
        ),
        pick(
            "embed_url",
            env("SESSIONCTL_EMBED_BASE_URL"),
            file.embed_url.clone().map(Into::into),
            serde_json::Value::Null,
        ),
        pick(
            "embed_model",
            env("SESSIONCTL_EMBED_MODEL"),
            file.embed_model.clone().map(Into::into),
            crate::llm::embed::DEFAULT_MODEL.into(),
        ),
        pick(
            "keep_last",
            None,
            file.keep_last.map(Into::into),
            crate::engine::compact::DEFAULT_KEEP_LAST.into(),
        ),
        pick(
            "log",
            path(&g.log),
            path(&file.log),
            serde_json::Value::Null,
        ),
    ]
}

fn summarizer_name(k: SummarizerKind) -> String {
    clap::ValueEnum::to_possible_value(&k)
        .map(|v| v.get_name().to_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_types_and_errors() {
        let p = Path::new("/c/config.toml");
        let c = parse(
            "root = \"/data\"\noffline = true\nsummarizer = \"openai\"\nkeep_last = 4\n",
            p,
        )
        .unwrap();
        assert_eq!(c.root.as_deref(), Some(Path::new("/data")));
        assert_eq!((c.offline, c.keep_last), (Some(true), Some(4)));
        assert!(matches!(c.summarizer, Some(SummarizerKind::Openai)));
        let e = parse("colour = 1\n", p).unwrap_err();
        assert_eq!(e.exit_code(), 64);
        assert!(
            e.to_string().contains("/c/config.toml") && e.to_string().contains("colour"),
            "{e}"
        );
        assert_eq!(parse("keep_last = -1\n", p).unwrap_err().exit_code(), 64);
        let bad = parse("root = \n", p).unwrap_err();
        assert_eq!(bad.exit_code(), 65);
        assert!(bad.to_string().contains("/c/config.toml"), "{bad}");
    }

    fn cli_of(args: &[&str], file: &FileConfig) -> Cli {
        use clap::{CommandFactory, FromArgMatches};
        let m = Cli::command().try_get_matches_from(args).unwrap();
        let mut cli = Cli::from_arg_matches(&m).unwrap();
        cli.global.explicit = Explicit::from_matches(&m);
        apply(&mut cli, file);
        cli
    }

    /// The view runs compact and summarize itself: the file's keep_last and
    /// summarizer reach it as they reach those commands, and its own flags
    /// win.
    #[test]
    fn the_view_takes_keep_last_and_the_summarizer_from_the_file() {
        let file = parse(
            "keep_last = 7\nsummarizer = \"openai\"\n",
            Path::new("/c/config.toml"),
        )
        .unwrap();
        let Command::View(v) = cli_of(&["sessionctl", "view"], &file).command else {
            panic!("view")
        };
        assert_eq!(v.keep_last, 7);
        assert_eq!(v.llm.summarizer, SummarizerKind::Openai);
        let Command::View(v) = cli_of(
            &[
                "sessionctl",
                "view",
                "--keep-last",
                "3",
                "--summarizer",
                "offline",
            ],
            &file,
        )
        .command
        else {
            panic!("view")
        };
        assert_eq!(v.keep_last, 3);
        assert_eq!(v.llm.summarizer, SummarizerKind::Offline);
        let Command::Compact(c) = cli_of(&["sessionctl", "compact", "x"], &file).command else {
            panic!("compact")
        };
        assert_eq!(c.keep_last, 7);
    }
}
