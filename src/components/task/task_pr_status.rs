//! Where a task's PR stands, on the task page: what merges it or stops it, its size and its
//! checks. Read from this server's PR list, where the API offers one.

use crate::components::shared::pr_checks::PrChecks;
use crate::format::size_line;
use crate::state::refresh::PolledRead;
use crate::state::rows::row_memo;
use buildd_core::pull_request::{merge_outlook, PullRequestList};
use buildd_core::PrStatus;
use leptos::prelude::*;

#[component]
pub fn TaskPrStatus(
    /// The PRs of the task's mission; `None` where the API lists none.
    prs: PolledRead<Option<PullRequestList>>,
    task_id: String,
) -> impl IntoView {
    let found = Memo::new(move |_| {
        prs.with_data(|p| {
            p.as_ref()?
                .prs
                .iter()
                .find(|pr| pr.task_id.as_deref() == Some(task_id.as_str()))
                .cloned()
        })
        .flatten()
    });
    let shown = Memo::new(move |_| found.with(Option::is_some));
    move || {
        shown.get().then(|| {
            let pr = row_memo(move || found.get());
            let open = Memo::new(move |_| pr.with(|p| p.state == PrStatus::Open));
            view! {
                <div class="task-pr" data-testid="task-pr-status">
                    <p data-testid="pr-outlook">{move || pr.with(merge_outlook)}</p>
                    {move || {
                        pr.with(size_line)
                            .map(|s| {
                                view! {
                                    <p class="muted small" data-testid="pr-size">
                                        {s}
                                    </p>
                                }
                            })
                    }}
                    {move || open.get().then(|| view! { <PrChecks pr /> })}
                </div>
            }
        })
    }
}
