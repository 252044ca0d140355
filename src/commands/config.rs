//! `config show`

use anyhow::Result;

use crate::cli::config_file::{self, FileConfig, Setting, Source};
use crate::cli::Cli;
use crate::commands::Done;
use crate::output::Output;
use crate::table::{Col, Grid};

pub fn show(cli: &Cli, file: &FileConfig) -> Result<Done> {
    let g = &cli.global;
    let out = Output::new(g.json, g.quiet, g.verbose, false);
    let path = config_file::path();
    let mut settings = vec![Setting {
        key: "file",
        value: path
            .as_ref()
            .map_or(serde_json::Value::Null, |p| p.display().to_string().into()),
        source: if std::env::var_os("XDG_CONFIG_HOME").is_some() {
            Source::Env
        } else {
            Source::Default
        },
    }];
    settings.extend(config_file::effective(cli, file));
    if out.json {
        out.envelope("config show", false, &settings, &[])?;
        return Ok(Done::default());
    }
    let mut t = Grid::new(vec![Col::id("SETTING"), Col::id("VALUE"), Col::id("FROM")]);
    for s in &settings {
        let value = match &s.value {
            serde_json::Value::Null => "-".to_owned(),
            serde_json::Value::String(v) => v.clone(),
            other => other.to_string(),
        };
        let from = serde_json::to_value(s.source)?
            .as_str()
            .unwrap_or("")
            .to_owned();
        t.row(vec![s.key.into(), value.into(), from.into()]);
    }
    out.grid(&t)?;
    if file.path.is_none() {
        out.footer("(no config file: every setting is a flag, the environment or a default)")?;
    }
    Ok(Done::default())
}
