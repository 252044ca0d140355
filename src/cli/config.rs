//! `config show`: the settings in effect and where each came from.

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Every setting in effect and where it came from: flag, env, file or default
    #[command(after_help = "\
The file is $XDG_CONFIG_HOME/sessionctl/config.toml, else ~/.config/sessionctl/config.toml.
Keys: root, offline, summarizer, embed_url, embed_model, keep_last, log. Flags win over
the environment, which wins over the file, which wins over the defaults.

  root = \"~/agenvoy\"
  offline = true
  summarizer = \"offline\"        # offline | openai | anthropic
  embed_url = \"http://127.0.0.1:11434\"
  embed_model = \"nomic-embed-text\"
  keep_last = 4
  log = \"~/.local/state/sessionctl/runs.ndjson\"

An unknown key or a wrong type exits 64, a file that is not TOML 65; both name the file.

Example:
  sessionctl config show --json")]
    Show,
}
