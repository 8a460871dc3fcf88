//! Where a task's PR stands, on the task page: what merges it or stops it, its size and its
//! checks. Read from this server's PR list, where the API offers one.

use crate::components::shared::pr_checks::PrChecks;
use crate::format::size_line;
use crate::state::refresh::Polled;
use buildd_core::pull_request::{merge_outlook, PullRequestList};
use leptos::prelude::*;

#[component]
pub fn TaskPrStatus(
    /// The PRs of the task's mission; `Ok(None)` where the API lists none.
    prs: Polled<Option<PullRequestList>>,
    task_id: String,
) -> impl IntoView {
    let pr = Memo::new(move |_| {
        prs.with(|p| match p {
            Some(Ok(Some(list))) => list
                .prs
                .iter()
                .find(|pr| pr.task_id.as_deref() == Some(task_id.as_str()))
                .cloned(),
            _ => None,
        })
    });
    move || {
        pr.get().map(|pr| {
            let open = pr.state == "open";
            view! {
                <div class="task-pr" data-testid="task-pr-status">
                    <p data-testid="pr-outlook">{merge_outlook(&pr)}</p>
                    {size_line(&pr).map(|s| view! { <p class="muted small" data-testid="pr-size">{s}</p> })}
                    {open.then(|| view! { <PrChecks pr=pr.clone() /> })}
                </div>
            }
        })
    }
}
