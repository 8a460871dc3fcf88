//! What the Result card says in words: the latest run in a line, the earlier attempts, the
//! warning for a quiet runner, and what a task without a result has come to.

use crate::format::time_ago;
use buildd_core::client::ClientTask;
use buildd_core::runs::{run_duration, span};
use buildd_core::TaskStatus;

/// The latest run of the task in a line: which attempt, where it is, what it does, on which
/// branch, how long it has taken and when its runner last reported.
pub fn run_line(task: &ClientTask, now_ms: i64) -> Option<String> {
    let run = task.workers.first()?;
    let mut parts = vec![run.status.label().into_owned()];
    parts.extend(run.current_action.clone());
    parts.extend(run.branch.as_ref().map(|b| format!("branch {b}")));
    let when = match (&run.completed_at, &run.started_at) {
        (Some(done), _) => Some(format!("ended {}", time_ago(Some(done)))),
        (None, Some(start)) => Some(format!("started {}", time_ago(Some(start)))),
        (None, None) => None,
    };
    parts.extend(when);
    parts.extend(run_duration(run, now_ms).map(|d| {
        if run.completed_at.is_some() {
            format!("took {}", span(d))
        } else {
            format!("running for {}", span(d))
        }
    }));
    if run.completed_at.is_none() {
        parts.extend(
            run.updated_at
                .as_deref()
                .map(|u| format!("last report {}", time_ago(Some(u)))),
        );
    }
    let label = match task.workers.len() {
        1 => "Attempt 1".to_string(),
        n => format!("Attempt {n} of {n}"),
    };
    Some(format!("{label}: {}", parts.join(" · ")))
}

/// The attempts before the latest, a line each.
pub fn earlier(task: &ClientTask, now_ms: i64) -> Vec<String> {
    task.workers
        .iter()
        .skip(1)
        .map(|r| {
            let mut line = r.status.label().into_owned();
            if let Some(d) = run_duration(r, now_ms) {
                line.push_str(&format!(" after {}", span(d)));
            }
            if let Some(e) = &r.error {
                line.push_str(&format!(": {e}"));
            }
            line
        })
        .collect()
}

/// The warning for a live run whose runner has been silent for `silent`.
pub fn quiet_notice(silent: &str) -> String {
    format!(
        "Its runner has not reported for {silent}: it may have stopped. A claim lapses after \
         an hour without a report, and the task goes back to the queue."
    )
}

/// What the card says when the task has no result.
pub fn no_result(status: &TaskStatus) -> &'static str {
    match status {
        TaskStatus::Pending => "Not started yet.",
        TaskStatus::Assigned | TaskStatus::InProgress => "A runner is working on it.",
        TaskStatus::Completed => "Finished without a summary.",
        TaskStatus::Failed => "Failed without a reason given.",
        TaskStatus::Cancelled => "Cancelled.",
        _ => "No result yet.",
    }
}
