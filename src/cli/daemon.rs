//! How writes reach the stores while Agenvoy runs (docs/architecture.md#backends).

use clap::Args;

use crate::daemon::{Via, DEFAULT_TIMEOUT_SECS, DEFAULT_URL};

#[derive(Debug, Args, Clone)]
pub struct DaemonArgs {
    /// How writes reach the stores: auto (through Agenvoy's daemon when it runs for this
    /// root, else the files), files, daemon
    #[arg(long, global = true, help_heading = "Global options", value_enum, default_value_t = Via::Auto, env = "SESSIONCTL_VIA", value_name = "HOW")]
    pub via: Via,

    /// Agenvoy's daemon (loopback only)
    #[arg(long, global = true, help_heading = "Global options", env = "AGENVOY_DAEMON_URL", default_value = DEFAULT_URL, value_name = "URL")]
    pub daemon_url: String,

    /// Seconds to wait for one answer of the daemon
    #[arg(long, global = true, help_heading = "Global options", default_value_t = DEFAULT_TIMEOUT_SECS, value_name = "SECS")]
    pub timeout: u64,
}

impl DaemonArgs {
    pub fn timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.timeout)
    }
}
