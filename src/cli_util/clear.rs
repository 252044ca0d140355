//! What `reset` and `remove` share: the report table.

use anyhow::Result;

use crate::cli_util::Context;
use crate::engine::reset::ClearReport;
use crate::table::{Col, Field, Grid};

pub fn render(ctx: &Context, reports: &[ClearReport]) -> Result<()> {
    let dry = reports.first().is_some_and(|r| r.dry_run);
    if reports.is_empty() {
        return Ok(());
    }
    let mut cols = vec![
        Col::id("SESSION"),
        Col::id("ACTION").optional(2),
        Col::num("TORII KEYS"),
        Col::num("ARCHIVE ROWS"),
        Col::text("FILES").optional(1),
    ];
    if !dry {
        cols.push(Col::id("MOVED TO"));
    }
    let mut t = Grid::new(cols);
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
        let mut row: Vec<Field> = vec![
            (&r.session).into(),
            action.into(),
            r.removed_torii_keys.to_string().into(),
            r.removed_archive_rows.to_string().into(),
            files.into(),
        ];
        if !dry {
            row.push(
                match &r.trash {
                    Some(p) => ctx.root.relative(p),
                    None if !r.changed => String::new(),
                    None => "(purged)".into(),
                }
                .into(),
            );
        }
        t.row(row);
    }
    if dry {
        ctx.out
            .line("dry run: nothing was changed; this is what would be cleared")?;
    }
    ctx.out.grid(&t)?;
    Ok(())
}
