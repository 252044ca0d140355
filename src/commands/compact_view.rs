//! `compact`'s table, apart from the report it shows: the report's shape
//! may change (fields renamed or added) while the layout stays — map the
//! report to a [`Line`] and the columns follow.

use crate::table::{Col, Field, Grid};

/// One session's row, already in words.
pub(crate) struct Line {
    pub session: String,
    /// `claude@claude-sonnet-4-5`
    pub model: String,
    /// Where the window came from: `table`, `learned`, `guess`, …
    pub window_source: String,
    pub budget: String,
    pub tokens_before: String,
    pub tokens_after: String,
    pub size: String,
    pub stages: String,
    pub result: String,
}

/// Narrow terminals keep the session, the token change and the result;
/// the window source, stages and size go first.
pub(crate) fn grid(lines: impl IntoIterator<Item = Line>) -> Grid {
    let mut g = Grid::new(vec![
        Col::id("SESSION"),
        Col::id("MODEL").optional(2),
        Col::num("BUDGET").optional(1),
        Col::num("TOKENS BEFORE"),
        Col::num("TOKENS AFTER"),
        Col::id("SIZE").optional(3),
        Col::text("STAGES").optional(4),
        Col::text("RESULT"),
    ]);
    for l in lines {
        g.row(vec![
            l.session.into(),
            Field::from(format!("{} ({})", l.model, l.window_source)).or_short(l.model),
            l.budget.into(),
            l.tokens_before.into(),
            l.tokens_after.into(),
            l.size.into(),
            l.stages.into(),
            l.result.into(),
        ]);
    }
    g
}
