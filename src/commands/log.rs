//! `log [--session S] [--limit N]`: the operation log, newest first.

use anyhow::Result;

use crate::cli::LogArgs;
use crate::commands::{Context, Done};
use crate::store::oplog::{self, Op};
use crate::table::{Col, Grid};

pub fn run(ctx: &Context, args: &LogArgs) -> Result<Done> {
    let log = oplog::read(&ctx.root)?;
    if log.torn_tail {
        ctx.out.warn(&format!(
            "{}: the last line is torn (a write was interrupted); it is ignored",
            oplog::path(&ctx.root).display()
        ));
    }
    let ops: Vec<&Op> = log
        .ops
        .iter()
        .rev()
        .filter(|o| {
            args.session
                .as_ref()
                .is_none_or(|s| o.sessions.iter().any(|c| &c.session == s))
        })
        .take(args.limit)
        .collect();
    if ctx.out.json {
        ctx.out.envelope("log", false, &ops, &[])?;
        return Ok(Done::default());
    }
    if ops.is_empty() {
        ctx.out.line("no operations recorded")?;
        return Ok(Done::default());
    }
    let mut t = Grid::new(vec![
        Col::id("ID"),
        Col::id("TIME").optional(1),
        Col::text("COMMAND"),
        Col::text("SESSIONS"),
        Col::id("STATE"),
    ]);
    for o in ops {
        t.row(vec![
            (&o.id).into(),
            (&o.time).into(),
            (&o.command).into(),
            sessions(o).into(),
            state(o).into(),
        ]);
    }
    ctx.out.grid(&t)?;
    Ok(Done::default())
}

fn sessions(o: &Op) -> String {
    let mut ids: Vec<&str> = o.sessions.iter().map(|c| c.session.as_str()).collect();
    ids.dedup();
    crate::output::preview_ids(&ids)
}

fn state(o: &Op) -> String {
    match (&o.undone_by, o.done, &o.undoes) {
        (Some(by), _, _) => format!("undone by {by}"),
        (None, false, _) => "incomplete".into(),
        (None, true, Some(t)) => format!("undid {t}"),
        (None, true, None) => "done".into(),
    }
}
