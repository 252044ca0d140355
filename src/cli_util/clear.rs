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
        Col::id("ACTION").optional(3),
        // db1 keys and archive rows removed, in headers short enough for a
        // 56-character session id
        Col::num("DB1 KEYS"),
        Col::num("ARCHIVED"),
        Col::text("FILES").optional(2),
    ];
    if !dry {
        // the trash entry's path, or its name where that does not fit
        cols.push(Col::id("MOVED TO").optional(1));
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
            row.push(match &r.trash {
                Some(p) => {
                    let name = p
                        .file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                    Field::from(ctx.root.relative(p)).or_short(name)
                }
                None if !r.changed => String::new().into(),
                None => "(purged)".into(),
            });
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
