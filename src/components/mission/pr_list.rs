//! The mission's pull requests: where each stands (CI pending, failing, ready, merged, held),
//! every rail that holds it and why, the migration verdicts, and Merge for a PR that waits
//! for a person, with the agent reviewer's latest verdict.

use super::pr_item::PrItem;
use super::task_pr_list::TaskPrList;
use crate::state::refresh::Polled;
use crate::state::write::Write;
use buildd_core::pull_request::PullRequestList;
use buildd_core::task_prs::TaskPr;
use leptos::prelude::*;

/// The merge being confirmed or sent, and a refusal with the PR it is about. Lives above
/// the refreshed list.
#[derive(Clone, Copy, Default)]
pub struct MergeState {
    pub confirming: RwSignal<Option<i64>>,
    pub merge: Write<(i64, String)>,
}

#[component]
pub fn PrList(
    /// `Ok(None)`: the server does not list PRs.
    prs: Polled<Option<PullRequestList>>,
    /// The PRs the mission's tasks tell of, shown where the server lists none.
    #[prop(into)]
    from_tasks: Signal<Vec<TaskPr>>,
    state: MergeState,
    refresh: Callback<()>,
) -> impl IntoView {
    view! {
        <section class="card" data-testid="pr-list">
            <h2 class="card__title">"Pull requests"</h2>
            {move || match prs.get() {
                None => view! { <p class="muted">"Loading…"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="muted" role="alert">{format!("The pull requests could not be read: {e}")}</p> }.into_any(),
                Some(Ok(None)) => view! { <TaskPrList prs=from_tasks.get() /> }.into_any(),
                Some(Ok(Some(list))) if list.prs.is_empty() => view! { <p class="muted">"No pull requests yet."</p> }.into_any(),
                Some(Ok(Some(list))) => {
                    // Landed and closed PRs fold away under their count; open ones are listed.
                    let (done, open): (Vec<_>, Vec<_>) = list
                        .prs
                        .into_iter()
                        .partition(|pr| matches!(pr.state.as_str(), "merged" | "closed"));
                    let done_count = done.len();
                    view! {
                        {open.is_empty().then(|| view! { <p class="muted">"No open pull requests."</p> })}
                        <ul class="prs">
                            {open.into_iter().map(|pr| view! {
                                <PrItem pr=pr state=state refresh=refresh />
                            }).collect_view()}
                        </ul>
                        {(done_count > 0).then(|| view! {
                            <details class="prs-done" data-testid="prs-done">
                                <summary>{format!("Merged or closed ({done_count})")}</summary>
                                <ul class="prs">
                                    {done.into_iter().map(|pr| view! {
                                        <PrItem pr=pr state=state refresh=refresh />
                                    }).collect_view()}
                                </ul>
                            </details>
                        })}
                    }
                    .into_any()
                }
            }}
        </section>
    }
}
