//! `log [--session S] [--limit N]`: the operation log, newest first.

use anyhow::Result;

use crate::cli::LogArgs;
use crate::commands::{Context, Done};
use crate::engine::undo::why_not;
use crate::output::preview_ids;
use crate::store::layout::DataRoot;
use crate::store::oplog::{self, Log, Op};
use crate::table::{Col, Field, Grid};

pub fn run(ctx: &Context, args: &LogArgs) -> Result<Done> {
    let log = oplog::read(&ctx.root)?;
    if log.torn_tail {
        ctx.out.warn(&format!(
            "{}: the last line is torn (a write was interrupted); it is ignored",
            oplog::path(&ctx.root).display()
        ));
    }
    if log.malformed > 0 {
        // said, not hidden: an operation recorded there is not undoable
        ctx.out.warn(&format!(
            "{}: {} line(s) are not operation records (damaged, or another program's); they are ignored",
            oplog::path(&ctx.root).display(),
            log.malformed
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
        let rows: Vec<Row> = ops.iter().map(|o| Row::of(&ctx.root, &log, o)).collect();
        ctx.out.envelope("log", false, &rows, &[])?;
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
        // session ids are never cut: their count where they do not fit
        Col::id("SESSIONS"),
        Col::id("STATE"),
        Col::text("UNDO"),
    ]);
    for o in ops {
        t.row(vec![
            (&o.id).into(),
            (&o.time).into(),
            (&o.command).into(),
            Field::from(preview_ids(&session_ids(o))).or_short(match session_ids(o).len() {
                0 => "-".to_owned(),
                1 => "1 session".to_owned(),
                n => format!("{n} sessions"),
            }),
            // the other operation's id where it fits, `log --json` has it
            Field::from(state(o)).or_short(match (&o.undone_by, o.done, &o.undoes) {
                (Some(_), _, _) => "undone".to_owned(),
                (None, true, Some(_)) if !o.sessions.is_empty() => "an undo".to_owned(),
                _ => state(o),
            }),
            match why_not(&ctx.root, &log, o) {
                None => "yes".to_owned(),
                Some(_) if o.undone_by.is_some() => "-".to_owned(),
                Some(why) => format!("no: {why}"),
            }
            .into(),
        ]);
    }
    ctx.out.grid(&t)?;
    Ok(Done::default())
}

/// An operation as `log --json` shows it: as recorded, and whether `undo`
/// can reverse it.
#[derive(serde::Serialize)]
struct Row<'a> {
    #[serde(flatten)]
    op: &'a Op,
    undoable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    not_undoable: Option<String>,
}

impl<'a> Row<'a> {
    fn of(root: &DataRoot, log: &Log, op: &'a Op) -> Row<'a> {
        let why = why_not(root, log, op);
        Row {
            op,
            undoable: why.is_none(),
            not_undoable: why,
        }
    }
}

/// Each session once, in the order the operation first changed it (one
/// session can have several change entries: one per tier or per step).
fn session_ids(o: &Op) -> Vec<&str> {
    let mut seen = std::collections::HashSet::new();
    o.sessions
        .iter()
        .map(|c| c.session.as_str())
        .filter(|s| seen.insert(*s))
        .collect()
}

fn state(o: &Op) -> String {
    match (&o.undone_by, o.done, &o.undoes) {
        (Some(by), _, _) => format!("undone by {by}"),
        (None, false, _) => "incomplete".into(),
        (None, true, Some(_)) if o.sessions.is_empty() => "refused; changed nothing".into(),
        (None, true, Some(t)) => format!("undid {t}"),
        (None, true, None) => "done".into(),
    }
}
