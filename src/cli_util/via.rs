//! Writes while Agenvoy runs (docs/architecture.md#backends): which backend, the options the
//! daemon's API cannot honour.

use crate::cli_util::Context;
use crate::daemon::{Backend, Via};
use crate::error::{Error, Result};

impl Context {
    /// The backend writes use (`--via`), decided once per command. Under
    /// `--via auto`, `--force` means the files, as it always did.
    pub(crate) fn backend(&self, force: bool) -> Result<Backend> {
        let via = match self.daemon.via {
            Via::Auto if force => Via::Files,
            v => v,
        };
        crate::daemon::choose(
            &self.root,
            via,
            &self.daemon.daemon_url,
            self.daemon.timeout(),
        )
    }
}

/// Read commands keep reading the files (complete and safe); with -v they
/// say when Agenvoy runs, since what they read may be mid-update.
pub(crate) fn note_running(ctx: &Context) {
    if !ctx.out.verbose {
        return;
    }
    if let Ok(running) = crate::store::runtime::find_running(&ctx.root) {
        if let Some(r) = running.first() {
            ctx.out.info(&format!(
                "Agenvoy is running (pid {}, {}): what is read here may be mid-update",
                r.pid, r.how
            ));
        }
    }
}

/// Refuse (75) the first option in `given` that is set: the daemon's API
/// cannot honour it, and ignoring it silently would do something else
/// than asked.
pub(crate) fn refuse_options(backend: &Backend, given: &[(&str, bool)]) -> Result<()> {
    if !matches!(backend, Backend::Daemon(_)) {
        return Ok(());
    }
    match given.iter().find(|(_, set)| *set) {
        None => Ok(()),
        Some((option, _)) => Err(Error::busy(format!(
            "Agenvoy is running and its daemon cannot honour {option}"
        ))
        .with_hint(format!(
            "stop the Agenvoy TUI and `agenvoy --daemon`, then retry with --via files to use {option}"
        ))),
    }
}
