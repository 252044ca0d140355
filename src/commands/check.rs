//! `check [SESSION…] [--repair]`: verify every tier, fix what is safe.

use anyhow::Result;

use crate::cli::CheckArgs;
use crate::commands::{batch_ui, Context, Done};
use crate::engine::repair::{self, Finding};
use crate::error::exit;
use crate::output::ErrorEntry;
use crate::store::layout::SessionDir;
use crate::table::{Col, Grid};

pub fn run(ctx: &Context, args: &CheckArgs) -> Result<Done> {
    let whole_root = args.sessions.is_empty();
    let dirs: Vec<SessionDir> = if whole_root {
        ctx.root
            .session_ids()?
            .ids
            .iter()
            .map(|id| ctx.root.session(id))
            .collect::<crate::Result<_>>()?
    } else {
        let mut v = Vec::new();
        for id in &args.sessions {
            crate::store::layout::validate_session_id(id)?;
            v.push(ctx.root.session(id)?);
        }
        v
    };
    let op = repair::Repair {
        root: &ctx.root,
        dirs,
        whole_root,
    };
    let checked = if args.repair {
        let write = crate::cli::WriteArgs {
            dry_run: args.dry_run,
            yes: args.yes,
            purge: false,
            force: args.force,
        };
        let question = |_: &[&str], plan: &[String]| format!("Repair {}?", plan.join(", "));
        match ctx.run_one(&op, op.target(), batch_ui(ctx, &write, 1, question))? {
            Some(c) => c,
            None => {
                ctx.out.line("aborted; nothing changed")?;
                return Ok(exit::FINDINGS.into());
            }
        }
    } else {
        let ins = repair::inspect(&ctx.root, &op.dirs, whole_root)?;
        repair::Checked {
            findings: ins.findings,
            unreadable: ins.unreadable,
        }
    };
    if args.repair && checked.unreadable {
        // Something could not be read (a link out of the root, a FIFO, bad
        // data): the root is not in a state to change anything.
        ctx.out
            .warn("not repairing anything while some data cannot be read; fix the unreadable findings first");
    }
    let dirs = &op.dirs;
    let findings = checked.findings;

    let open: Vec<&Finding> = findings.iter().filter(|f| !f.repaired).collect();
    // Every finding is a result; each one still open is also an error
    // (exit 1, or 65 for what could not be read), so `ok` means "clean".
    let errors: Vec<ErrorEntry> = open
        .iter()
        .map(|f| ErrorEntry {
            session: (f.scope != "store").then(|| f.scope.clone()),
            code: match &f.blocked {
                Some((code, _)) => *code,
                None if f.kind == "unreadable" => exit::DATA,
                None => exit::FINDINGS,
            },
            message: match &f.blocked {
                Some((_, why)) => format!("{}: {} (not repaired: {why})", f.kind, f.detail),
                None => format!("{}: {}", f.kind, f.detail),
            },
            file: None,
            hint: f
                .repairable
                .then(|| "`sessionctl check --repair` fixes it".into()),
        })
        .collect();
    if ctx.out.json {
        ctx.out
            .envelope("check", args.dry_run, &findings, &errors)?;
    } else if findings.is_empty() {
        ctx.out.line(&format!(
            "checked {} session(s) and the shared stores: no findings",
            dirs.len()
        ))?;
    } else {
        let mut t = Grid::new(vec![
            Col::id("SCOPE"),
            Col::id("FINDING"),
            // a 56-character session id leaves room for the finding only
            Col::text("DETAIL").optional(2),
            Col::id("REPAIR").optional(1),
        ]);
        for f in &findings {
            t.row(vec![
                (&f.scope).into(),
                f.kind.into(),
                (&f.detail).into(),
                if f.repaired {
                    "repaired"
                } else if f.repairable {
                    "--repair"
                } else {
                    "-"
                }
                .into(),
            ]);
        }
        ctx.out.grid(&t)?;
        // A count under the table: on a terminal only, so piped output is
        // the rows alone.
        if args.dry_run {
            ctx.out.footer(&format!(
                "{} finding(s), {} would be repaired (dry run: nothing changed)",
                findings.len(),
                findings.iter().filter(|f| f.repairable).count()
            ))?;
        } else {
            ctx.out.footer(&format!(
                "{} finding(s), {} repaired",
                findings.len(),
                findings.len() - open.len()
            ))?;
        }
    }
    Ok(Done {
        // an unreadable file (65) outranks a held lock (75), which
        // outranks an open finding (1)
        code: crate::engine::batch::worst(errors.iter().map(|e| e.code)),
        sessions: dirs.len(),
        changed: findings
            .iter()
            .filter(|f| f.repaired)
            .map(|f| f.scope.clone())
            .collect(),
        failed: errors,
    })
}
