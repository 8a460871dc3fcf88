//! What came of a task: its latest run in a line (and a warning when its runner went quiet),
//! the run's error in full, earlier attempts, the failure or summary, Run it again for
//! failed work, and its PR with where it stands.

pub mod earlier_runs;
pub mod run_lines;
pub mod task_outcome;
pub mod task_pr_link;

use self::earlier_runs::EarlierRuns;
use self::run_lines::{earlier, quiet_notice, run_line};
use self::task_outcome::TaskOutcome;
use self::task_pr_link::TaskPrLink;
use crate::components::task::retry_task::RetryTask;
use crate::components::task::task_pr_status::TaskPrStatus;
use crate::state::refresh::PolledRead;
use buildd_core::client::ClientTask;
use buildd_core::pull_request::PullRequestList;
use buildd_core::runs::{quiet_for, span};
use buildd_core::TaskStatus;
use leptos::prelude::*;

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
        <EarlierRuns earlier />
        <TaskOutcome task />
        {move || {
            let task_id = task_id.clone();
            failed.get().then(|| view! { <RetryTask task_id refresh /> })
        }}
        <TaskPrLink task />
        <TaskPrStatus prs task_id=task.with_untracked(|t| t.id.clone()) />
    }
}
