//! `show SESSION --summary`: the rolling summary as people read it — the
//! read-only view Agenvoy's own UI has — and how far it lags behind.

use anyhow::Result;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::commands::{Context, Done};
use crate::engine::sessions::{self, SessionDetail};
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
    let text = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    out.push(String::new());
    out.push("Key decisions".into());
    let decisions = fields.get("key_decisions").and_then(Value::as_array);
    match decisions.filter(|d| !d.is_empty()) {
        Some(d) => out.extend(d.iter().map(|x| format!("  • {}", scalar(x)))),
        None => out.push("  (none)".into()),
    }
    out.push(String::new());
    out.push("Current discussion".into());
    match fields.get("current_discussion").and_then(Value::as_object) {
        Some(c) => {
            for (label, key) in [
                ("topic", "topic"),
                ("about", "description"),
                ("open questions", "perspectives"),
                ("direction", "direction"),
            ] {
                if let Some(t) = text(c.get(key)) {
                    out.push(format!("  {label}: {t}"));
                }
            }
        }
        None => out.push("  (none)".into()),
    }
    out.push(String::new());
    out.push("Past discussions".into());
    let past = fields.get("past_discussions").and_then(Value::as_array);
    match past.filter(|p| !p.is_empty()) {
        Some(p) => {
            for d in p {
                let topic = text(d.get("topic")).unwrap_or_else(|| "(no topic)".into());
                let when = text(d.get("last_discussed"))
                    .map(|w| format!(" ({w})"))
                    .unwrap_or_default();
                out.push(format!("  • {topic}{when}"));
                for key in ["description", "direction"] {
                    if let Some(t) = text(d.get(key)) {
                        out.push(format!("    {t}"));
                    }
                }
            }
        }
        None => out.push("  (none)".into()),
    }
    // A legacy or hand-edited summary: whatever else it holds, as JSON.
    let known = ["key_decisions", "current_discussion", "past_discussions"];
    for (k, val) in fields.iter().filter(|(k, _)| !known.contains(&k.as_str())) {
        out.push(String::new());
        out.push(k.clone());
        let pretty = serde_json::to_string_pretty(val).unwrap_or_default();
        out.extend(pretty.lines().map(|l| format!("  {l}")));
    }
    out.join("\n")
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
