//! `completions` and `man`, and the files in completions/ and man/: all
//! generated here from the clap definitions (tests/it/generated.rs checks the
//! committed copies).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::{Cli, CompletionsArgs, ManArgs};
use crate::commands::Done;

/// The committed static scripts: (file name under completions/, shell).
const STATIC_SCRIPTS: [(&str, Shell); 5] = [
    ("sessionctl.bash", Shell::Bash),
    ("_sessionctl", Shell::Zsh),
    ("sessionctl.fish", Shell::Fish),
    ("sessionctl.elv", Shell::Elvish),
    ("_sessionctl.ps1", Shell::PowerShell),
];

pub fn completions(args: &CompletionsArgs) -> Result<Done> {
    let script = if args.static_script {
        static_script(args.shell)
    } else {
        dynamic_script(args.shell)?
    };
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(Done::default())
}

pub fn man(args: &ManArgs) -> Result<Done> {
    let pages = man_pages();
    let Some(dir) = &args.dir else {
        let mut out = std::io::stdout().lock();
        out.write_all(&pages[0].1)?;
        out.flush()?;
        return Ok(Done::default());
    };
    std::fs::create_dir_all(dir).map_err(|e| crate::Error::write(dir, e))?;
    for (name, page) in &pages {
        let path = dir.join(name);
        std::fs::write(&path, page).map_err(|e| crate::Error::write(&path, e))?;
    }
    Ok(Done::default())
}

/// Commands and options only; what completions/ holds.
pub fn static_script(shell: Shell) -> Vec<u8> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "sessionctl", &mut buf);
    buf
}

/// A script that asks `SESSIONCTL_COMPLETE=<shell> sessionctl -- <words>` for every
/// completion, so session ids, error ids and agent names are offered.
fn dynamic_script(shell: Shell) -> Result<Vec<u8>> {
    let name = shell.to_string();
    let shells = clap_complete::env::Shells::builtins();
    let completer = shells
        .completer(&name)
        .with_context(|| format!("no dynamic completion for {name}"))?;
    let mut buf = Vec::new();
    completer.write_registration(
        COMPLETE_VAR,
        "sessionctl",
        "sessionctl",
        "sessionctl",
        &mut buf,
    )?;
    Ok(buf)
}

/// The variable the completion scripts set when they call sessionctl;
/// namespaced, as a stray `COMPLETE` in a cron environment would turn
/// every run into a completion request.
pub const COMPLETE_VAR: &str = "SESSIONCTL_COMPLETE";

/// Answer a completion request (`SESSIONCTL_COMPLETE=bash sessionctl -- …`) and
/// return true, or return false for a normal run.
pub fn complete_from_env() -> bool {
    clap_complete::CompleteEnv::with_factory(Cli::command)
        .var(COMPLETE_VAR)
        .try_complete(std::env::args_os(), std::env::current_dir().ok().as_deref())
        .unwrap_or_else(|e| e.exit())
}

/// Every committed generated file, by path relative to the repository.
pub fn generated_files() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = STATIC_SCRIPTS
        .iter()
        .map(|(name, shell)| (Path::new("completions").join(name), static_script(*shell)))
        .collect();
    files.extend(
        man_pages()
            .into_iter()
            .map(|(name, page)| (Path::new("man").join(name), page)),
    );
    files
}

/// `sessionctl.1` first, then one page per subcommand (`sessionctl-errors-list.1`).
/// They name the release, not the commit `--version` adds (it changes with
/// every commit), so the committed pages stay put.
pub fn man_pages() -> Vec<(String, Vec<u8>)> {
    let mut cmd = Cli::command().version(env!("CARGO_PKG_VERSION"));
    // Built, subcommands carry the global options: each page lists them.
    cmd.build();
    let mut subs = Vec::new();
    for sub in cmd.get_subcommands() {
        add_pages(sub, "sessionctl", &mut subs);
    }
    let names: Vec<String> = subs.iter().map(|(n, _)| n.clone()).collect();
    let mut pages = vec![("sessionctl".to_owned(), cmd)];
    pages.extend(subs);
    pages
        .into_iter()
        .map(|(name, cmd)| {
            let see_also: Vec<String> = if name == "sessionctl" {
                names.iter().map(|n| format!("{n}(1)")).collect()
            } else {
                vec!["sessionctl(1)".to_owned()]
            };
            (format!("{name}.1"), page(cmd, &see_also))
        })
        .collect()
}

fn add_pages(cmd: &clap::Command, parent: &str, pages: &mut Vec<(String, clap::Command)>) {
    if cmd.get_name() == "help" {
        return;
    }
    let name = format!("{parent}-{}", cmd.get_name());
    let named = cmd
        .clone()
        .display_name(name.replace('-', " "))
        .name(name.clone());
    pages.push((name.clone(), named));
    for sub in cmd.get_subcommands() {
        add_pages(sub, &name, pages);
    }
}

fn page(cmd: clap::Command, see_also: &[String]) -> Vec<u8> {
    let has_args = cmd.get_arguments().any(|a| !a.is_hide_set());
    let has_subs = cmd.get_subcommands().any(|s| s.get_name() != "help");
    let has_extra = cmd.get_after_long_help().is_some() || cmd.get_after_help().is_some();
    let has_version = cmd.get_version().is_some() || cmd.get_long_version().is_some();
    let man = clap_mangen::Man::new(cmd);
    let mut buf = Vec::new();
    let w: &mut dyn Write = &mut buf;
    let rendered = (|| -> std::io::Result<()> {
        man.render_title(w)?;
        man.render_name_section(w)?;
        man.render_synopsis_section(w)?;
        man.render_description_section(w)?;
        if has_args {
            man.render_options_section(w)?;
        }
        if has_subs {
            man.render_subcommands_section(w)?;
        }
        if has_extra {
            man.render_extra_section(w)?;
        }
        w.write_all(common_sections(see_also).as_bytes())?;
        if has_version {
            man.render_version_section(w)?;
        }
        Ok(())
    })();
    rendered.expect("writing to a Vec cannot fail");
    once_preamble(String::from_utf8(buf).expect("roff is UTF-8"))
}

/// Each clap_mangen section call repeats its two-line preamble; the page
/// needs it once.
fn once_preamble(page: String) -> Vec<u8> {
    const PREAMBLE: &str = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";
    match page.split_once(PREAMBLE) {
        Some((head, rest)) => {
            format!("{head}{PREAMBLE}{}", rest.replace(PREAMBLE, "")).into_bytes()
        }
        None => page.into_bytes(),
    }
}

/// EXIT STATUS, ENVIRONMENT, FILES and SEE ALSO, the same on every page
/// but for the pages it points to.
fn common_sections(see_also: &[String]) -> String {
    let mut s = String::new();
    section(&mut s, "EXIT STATUS", EXIT_STATUS);
    section(&mut s, "ENVIRONMENT", ENVIRONMENT);
    section(&mut s, "FILES", FILES);
    s.push_str(".SH \"SEE ALSO\"\n");
    let pages: Vec<String> = see_also
        .iter()
        .map(|p| format!("\\fB{}\\fR", roff(p)))
        .collect();
    s.push_str(&pages.join(", "));
    s.push_str("\n.PP\nREADME.md in the source tree: set-up, the cron lines, the config file.\n");
    s
}

/// A section of `term: description` entries, one tagged paragraph each.
fn section(out: &mut String, title: &str, entries: &[(&str, &str)]) {
    out.push_str(&format!(".SH \"{title}\"\n"));
    for (term, text) in entries {
        out.push_str(&format!(".TP\n\\fB{}\\fR\n{}\n", roff(term), roff(text)));
    }
}

/// Text safe in roff: backslashes and hyphens escaped, no line read as a
/// request.
fn roff(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    escaped
        .lines()
        .map(|l| {
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

const EXIT_STATUS: &[(&str, &str)] = &[
    ("0", "done"),
    ("1", "declined at the prompt; or check found problems"),
    ("64", "usage error (bad id, bad duration, missing --yes or --mode, bad config file key)"),
    ("65", "bad data: a file that does not parse (the error names it), a symlink out of the root, a FIFO"),
    ("66", "no such session, or the root has neither sessions/ nor .store/"),
    ("69", "a network source is unreachable or answered an HTTP error"),
    ("70", "an internal error (a bug: please report it)"),
    ("73", "cannot write (read-only or full disk)"),
    ("74", "an I/O error while reading"),
    ("75", "locked by another sessionctl, or Agenvoy is running: retry later"),
];

const ENVIRONMENT: &[(&str, &str)] = &[
    ("AGENVOY_HOME", "the data root (as --root) [default: ~/.config/agenvoy]"),
    ("HOME", "where the default data root and the config file are"),
    ("XDG_CONFIG_HOME", "where the config file is [default: ~/.config]"),
    ("SESSIONCTL_OFFLINE", "any value but 0, false or empty: as --offline"),
    ("SESSIONCTL_LOG", "as --log: append one NDJSON line per run to this file"),
    ("SESSIONCTL_LLM_BASE_URL, SESSIONCTL_LLM_MODEL, SESSIONCTL_LLM_API_KEY", "the model server, model and key of the openai and anthropic summarizers (the key is never printed)"),
    ("SESSIONCTL_EMBED_BASE_URL, SESSIONCTL_EMBED_MODEL, SESSIONCTL_EMBED_API_KEY", "an OpenAI-compatible embeddings server for semantic search"),
    ("SESSIONCTL_VIA", "as --via: auto, files or daemon [default: auto]"),
    ("AGENVOY_DAEMON_URL", "as --daemon-url: Agenvoy's daemon (loopback only) [default: http://127.0.0.1:17989]"),
    ("USER, LOGNAME", "who ran an operation, as the operation log records it"),
    ("TERM", "with no terminal on stdin or stdout and no TERM, the operation log marks a run as cron"),
    ("NO_COLOR", "any non-empty value: no colour (--color always still colours)"),
    ("COLUMNS", "the width tables fit on a terminal [default: the terminal's]"),
    ("VISUAL, EDITOR", "the editor errors edit opens"),
    ("SESSIONCTL_COMPLETE", "set by the completion scripts when they ask sessionctl for candidates"),
    ("limits refresh --token-env NAME", "reads the API token from the variable NAME"),
    ("SESSIONCTL_FAILPOINT, SESSIONCTL_KILL_AT, SESSIONCTL_FAIL_ENOSPC, SESSIONCTL_NOW, SESSIONCTL_TORII_LOAD_DELAY_MS, SESSIONCTL_TORII_LOAD_COUNT, SESSIONCTL_TORII_SNAPSHOT_MIN, SESSIONCTL_ROWS_SETTLED, SESSIONCTL_VIEW_PANIC, SESSIONCTL_VIEW_SLOW_READ_MS", "test hooks, compiled in only with the `testing` feature that test builds turn on (a crash point, a kill at the N-th durable step, a full disk, a fixed clock, a slow load, a count of loads, the smallest log whose index is kept, files taken as settled, a panic in the view, a slow read in the view); an installed sessionctl ignores them"),
];

const FILES: &[(&str, &str)] = &[
    ("~/.config/agenvoy/", "the default data root: sessions/<id>/ (history.json, summary.json, summary.meta.json, history/, pending/) and .store/ (ToriiDB db_N/, the SQLite archive history.db)"),
    ("<root>/sessions/.Trash/", "what reset, remove and compact took away, as bundles with a manifest (`trash list|restore|prune`)"),
    ("<root>/.sessionctl/oplog.jsonl", "the operation log `log` lists and `undo` reverses"),
    ("<root>/.sessionctl/ops/", "what an operation overwrote (summaries, histories, error records), kept for undo"),
    ("<root>/.sessionctl/", "sessionctl's own locks and caches (limits.json, tokens.json, rows.json, summarized.json, torii-db1.idx and torii-db2.idx: the ToriiDB index a read resumes from), the operation log (oplog.jsonl) and what undo needs (ops/)"),
    ("~/.config/sessionctl/config.toml", "settings: root, offline, summarizer, embed_url, embed_model, keep_last, log (flags and environment win)"),
];
