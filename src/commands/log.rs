//! `log [--session S] [--limit N]`: the operation log, newest first.

use anyhow::Result;
use comfy_table::Cell;

use crate::cli::LogArgs;
use crate::commands::{Context, Done};
use crate::store::oplog::{self, Op};

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
    let mut t = ctx
        .out
        .new_table(&["ID", "TIME", "COMMAND", "SESSIONS", "STATE"]);
    for o in ops {
        t.add_row(vec![
            Cell::new(&o.id),
            Cell::new(&o.time),
            Cell::new(&o.command),
            Cell::new(sessions(o)),
            Cell::new(state(o)),
        ]);
    }
    ctx.out.table(&t)?;
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
