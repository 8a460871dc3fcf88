//! What came of a task: its latest run in a line (and a warning when its runner went quiet),
//! the run's error in full, earlier attempts, the failure or summary, Run it again for
//! failed work, and its PR with where it stands.

use super::retry_task::RetryTask;
use super::task_pr_status::TaskPrStatus;
use crate::components::shared::markdown::Markdown;
use crate::format::time_ago;
use crate::state::refresh::PolledRead;
use buildd_core::client::ClientTask;
use buildd_core::markdown::is_web_address;
use buildd_core::pull_request::PullRequestList;
use buildd_core::runs::{quiet_for, run_duration, span};
use buildd_core::TaskStatus;
use leptos::prelude::*;

/// The latest run of the task in a line: which attempt, where it is, what it does, on which
/// branch, how long it has taken and when its runner last reported.
fn run_line(task: &ClientTask, now_ms: i64) -> Option<String> {
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
fn earlier(task: &ClientTask, now_ms: i64) -> Vec<String> {
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
fn quiet_notice(silent: &str) -> String {
    format!(
        "Its runner has not reported for {silent}: it may have stopped. A claim lapses after \
         an hour without a report, and the task goes back to the queue."
    )
}

/// What the card says when the task has no result.
fn no_result(status: &TaskStatus) -> &'static str {
    match status {
        TaskStatus::Pending => "Not started yet.",
        TaskStatus::Assigned | TaskStatus::InProgress => "A runner is working on it.",
        TaskStatus::Completed => "Finished without a summary.",
        TaskStatus::Failed => "Failed without a reason given.",
        TaskStatus::Cancelled => "Cancelled.",
        _ => "No result yet.",
    }
}

#[component]
pub fn TaskResult(
    task: Memo<ClientTask>,
    /// The PRs of the task's mission; `None` where the API lists none.
    prs: PolledRead<Option<PullRequestList>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let task_id = task.with_untracked(|t| t.id.clone());
    let now_ms = move || js_sys::Date::now() as i64;
    let failed = Memo::new(move |_| task.with(|t| t.status == TaskStatus::Failed));
    let error = Memo::new(move |_| task.with(|t| t.result.as_ref().and_then(|r| r.error.clone())));
    let summary =
        Memo::new(move |_| task.with(|t| t.result.as_ref().and_then(|r| r.summary.clone())));
    // The run's own error when it says more than the task's one-line result.
    let run_error = Memo::new(move |_| {
        task.with(|t| {
            t.workers.first().and_then(|r| r.error.clone()).filter(|e| {
                error.with(|task_error| Some(e) != task_error.as_ref() || e.len() > 200)
            })
        })
    });
    let quiet = move || {
        task.with(|t| {
            t.workers
                .first()
                .and_then(|r| quiet_for(r, now_ms()))
                .map(span)
        })
    };
    let earlier = Memo::new(move |_| task.with(|t| earlier(t, now_ms())));
    let has_earlier = Memo::new(move |_| earlier.with(|lines| !lines.is_empty()));
    let pr = move || {
        task.with(|t| {
            t.pr_url.clone().filter(|u| is_web_address(u)).map(|url| {
                let label = t
                    .pr_number
                    .map(|n| format!("PR #{n}"))
                    .unwrap_or_else(|| "Pull request".into());
                let state = if t.merged_at.is_some() {
                    "merged"
                } else {
                    "open"
                };
                view! {
                    <p>
                        <a
                            class="pr-link"
                            href=url
                            target="_blank"
                            rel="noopener noreferrer"
                            data-testid="task-pr"
                        >
                            {format!("{label} · {state}")}
                        </a>
                    </p>
                }
            })
        })
    };
    let outcome = move || match (failed.get(), error.get()) {
        (true, Some(e)) => view! {
            <p class="notice notice--danger" role="alert" data-testid="task-error">
                <strong>"Failed: "</strong>
                {e}
            </p>
        }
        .into_any(),
        // Queued again after a failure: the reason stays in view.
        (false, Some(e)) => view! {
            <p class="notice notice--muted" data-testid="task-last-error">
                {format!("The last run failed: {e}")}
            </p>
        }
        .into_any(),
        _ => ().into_any(),
    };
    let summary = move || match summary.get() {
        Some(s) => view! {
            <div data-testid="task-summary">
                <Markdown source=s />
            </div>
        }
        .into_any(),
        None if failed.get() && error.with(Option::is_some) => ().into_any(),
        None => view! {
            <p class="muted" data-testid="task-no-result">
                {move || task.with(|t| no_result(&t.status))}
            </p>
        }
        .into_any(),
    };
    view! {
        <h2 class="card__title">"Result"</h2>
        {move || {
            task.with(|t| run_line(t, now_ms()))
                .map(|line| {
                    view! {
                        <p class="small muted" data-testid="task-run">
                            {line}
                        </p>
                    }
                })
        }}
        {move || {
            quiet()
                .map(|silent| {
                    view! {
                        <p class="notice notice--warn" role="status" data-testid="run-quiet">
                            {quiet_notice(&silent)}
                        </p>
                    }
                })
        }}
        {move || {
            run_error
                .get()
                .map(|e| {
                    view! {
                        <details class="run-error" open=failed data-testid="run-error">
                            <summary>"The run's error, in full"</summary>
                            <pre>{e}</pre>
                        </details>
                    }
                })
        }}
        {move || {
            has_earlier
                .get()
                .then(|| {
                    view! {
                        <details class="small" data-testid="earlier-runs">
                            <summary>
                                {move || format!("Earlier attempts ({})", earlier.with(Vec::len))}
                            </summary>
                            <ol class="earlier-runs">
                                {move || {
                                    earlier
                                        .get()
                                        .into_iter()
                                        .map(|line| view! { <li>{line}</li> })
                                        .collect_view()
                                }}
                            </ol>
                        </details>
                    }
                })
        }}
        {outcome}
        {summary}
        {move || {
            let task_id = task_id.clone();
            failed.get().then(|| view! { <RetryTask task_id refresh /> })
        }}
        {pr}
        <TaskPrStatus prs task_id=task.with_untracked(|t| t.id.clone()) />
    }
}
