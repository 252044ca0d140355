//! What `reset` and `remove` share: the report table.

use anyhow::Result;
use comfy_table::Cell;

use crate::cli_util::Context;
use crate::engine::reset::ClearReport;
use crate::output::num;

pub fn render(ctx: &Context, reports: &[ClearReport]) -> Result<()> {
    let dry = reports.first().is_some_and(|r| r.dry_run);
    if reports.is_empty() {
        return Ok(());
    }
    let mut t = ctx.out.new_table(&[
        "SESSION",
        "ACTION",
        "TORII KEYS",
        "ARCHIVE ROWS",
        "FILES",
        if dry { "" } else { "MOVED TO" },
    ]);
    for r in reports {
        let action = match r.mode {
            Some(m) => format!(
                "{} --mode {}",
                r.action,
                serde_json::to_value(m)?.as_str().unwrap_or("")
            ),
            None => r.action.to_owned(),
        };
        let files = if r.removed_files == ["."] {
            "whole folder".into()
        } else if r.removed_files.is_empty() {
            "-".into()
        } else {
            r.removed_files.join(", ")
        };
        t.add_row(vec![
            Cell::new(&r.session),
            Cell::new(action),
            num(r.removed_torii_keys),
            num(r.removed_archive_rows),
            Cell::new(files),
            Cell::new(match &r.trash {
                Some(p) => ctx.root.relative(p),
                None if dry || !r.changed => String::new(),
                None => "(purged)".into(),
            }),
        ]);
    }
    if dry {
        ctx.out
            .line("dry run: nothing was changed; this is what would be cleared")?;
    }
    ctx.out.table(&t)?;
    Ok(())
}
