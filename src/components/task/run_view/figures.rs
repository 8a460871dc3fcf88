//! A run's figures as the Run card lists them: turns, cost, tokens, commits, lines, why it
//! ended.

use buildd_core::spend::{attempt_usage, grouped};
use buildd_core::task::TaskWorker;

/// The run's figures, as (label, value), those it reported.
pub fn figures(run: &TaskWorker) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let count = |n: Option<i64>| n.filter(|n| *n > 0).map(|n| grouped(n as u64));
    out.extend(count(run.turns).map(|t| ("Turns", t)));
    if let Some(u) = attempt_usage(run) {
        out.push(("Cost", u.cost.to_string()));
        out.push((
            "Tokens",
            format!(
                "{} in · {} out",
                grouped(u.input_tokens),
                grouped(u.output_tokens)
            ),
        ));
    }
    out.extend(count(run.commit_count).map(|c| ("Commits", c)));
    out.extend(count(run.files_changed).map(|f| ("Files changed", f)));
    if run.lines_added.unwrap_or(0) + run.lines_removed.unwrap_or(0) > 0 {
        let lines = format!(
            "+{}/−{}",
            run.lines_added.unwrap_or(0),
            run.lines_removed.unwrap_or(0)
        );
        out.push(("Lines", lines));
    }
    out.extend(
        run.terminal_reason
            .clone()
            .map(|r| ("Ended", buildd_core::words(&r).into_owned())),
    );
    out
}
