//! `show SESSION --summary`: the rolling summary as people read it — the
//! read-only view Agenvoy's own UI has — and how far it lags behind.

use anyhow::Result;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::commands::{Context, Done};
use crate::engine::sessions::{self, SessionDetail};
use crate::output::{self, Outline};
use crate::store::layout::SessionDir;
use crate::timefmt;

#[derive(Serialize)]
struct SummaryView<'a> {
    session: &'a str,
    /// summary.json as it is (null when there is none).
    summary: Option<Map<String, Value>>,
    cursor: Option<&'a str>,
    #[serde(serialize_with = "sessions::ser_time")]
    summarized_up_to: Option<chrono::DateTime<chrono::Utc>>,
    /// Records after the cursor: what the next `summarize` merges.
    behind: Option<usize>,
}

pub fn run(ctx: &Context, dir: &SessionDir, d: &SessionDetail) -> Result<Done> {
    let fields = sessions::load_summary(dir)?.map(|(s, _)| s.fields);
    let meta = d.summary.as_ref();
    let view = SummaryView {
        session: &d.id,
        summary: fields,
        cursor: meta.and_then(|m| m.cursor.as_deref()),
        summarized_up_to: meta.and_then(|m| m.summarized_up_to),
        behind: meta.and_then(|m| m.behind),
    };
    if ctx.out.json {
        ctx.out
            .envelope("show", false, std::slice::from_ref(&view), &[])?;
    } else {
        ctx.out.line(&render(&view))?;
    }
    Ok(Done {
        sessions: 1,
        ..Done::default()
    })
}

fn render(v: &SummaryView) -> String {
    let Some(fields) = &v.summary else {
        return format!(
            "{} has no rolling summary yet; `sessionctl summarize {}` makes one",
            v.session, v.session
        );
    };
    let mut out = vec![format!("rolling summary of {}", v.session)];
    let up_to = match (v.cursor, v.summarized_up_to) {
        (Some(c), Some(t)) => format!("up to {c} ({})", timefmt::age(t, timefmt::now())),
        (Some(c), None) => format!("up to {c}"),
        (None, _) => "no cursor (never summarised by the cursor rules)".into(),
    };
    let lag = match v.behind {
        Some(0) => "up to date".to_owned(),
        Some(n) => format!(
            "{n} record(s) behind: `sessionctl summarize {}` merges them",
            v.session
        ),
        None => "lag unknown".to_owned(),
    };
    out.push(format!("{up_to}; {lag}"));
    out.extend(
        output::summary_outline(fields)
            .into_iter()
            .map(|l| match l {
                Outline::Blank => String::new(),
                Outline::Heading(h) => h,
                Outline::Text(t) => t,
            }),
    );
    out.join("\n")
}
