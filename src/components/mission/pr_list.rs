//! The mission's pull requests: where each stands (CI pending, failing, ready, merged, held),
//! every rail that holds it and why, the migration verdicts, and Merge for a PR that waits
//! for a person, with the agent reviewer's latest verdict. Open PRs are listed, landed and
//! closed ones fold away under their count.

use super::pr_item::PrItem;
use super::task_pr_list::TaskPrList;
use crate::components::shared::polled::Polled;
use crate::state::refresh::PolledRead;
use crate::state::rows::{positions, row_at};
use buildd_core::merge_policy::EffectivePolicy;
use buildd_core::pull_request::{PullRequest, PullRequestList};
use buildd_core::task_prs::TaskPr;
use buildd_core::PrStatus;
use leptos::prelude::*;
use std::sync::Arc;

/// The numbers of the PRs `landed` (merged or closed) or not.
fn numbers(prs: &[PullRequest], landed: bool) -> Vec<i64> {
    prs.iter()
        .filter(|pr| matches!(pr.state, PrStatus::Merged | PrStatus::Closed) == landed)
        .map(|pr| pr.number)
        .collect()
}

/// The PRs the server lists, keyed by number.
fn listed(prs: Memo<Vec<PullRequest>>, refresh: Callback<()>) -> impl IntoView {
    let open = Memo::new(move |_| prs.with(|p| numbers(p, false)));
    let done = Memo::new(move |_| prs.with(|p| numbers(p, true)));
    let empty = Memo::new(move |_| prs.with(Vec::is_empty));
    // The PR whose merge is being confirmed: one at a time.
    let confirming = RwSignal::new(None::<i64>);
    let at = positions(move || prs.with(|p| p.iter().map(|pr| pr.number).collect()));
    let item = move |number: i64| {
        let pr = row_at(at, number, move |i| prs.with(|p| p.get(i).cloned()));
        view! { <PrItem pr confirming refresh /> }
    };
    move || {
        if empty.get() {
            return view! { <p class="muted">"No pull requests yet."</p> }.into_any();
        }
        view! {
            {move || {
                open.with(Vec::is_empty)
                    .then(|| view! { <p class="muted">"No open pull requests."</p> })
            }}
            <ul class="prs">
                <For each=move || open.get() key=|n| *n children=item />
            </ul>
            {move || {
                let count = done.with(Vec::len);
                (count > 0)
                    .then(|| {
                        view! {
                            <details class="prs-done" data-testid="prs-done">
                                <summary>
                                    {move || format!("Merged or closed ({})", done.with(Vec::len))}
                                </summary>
                                <ul class="prs">
                                    <For each=move || done.get() key=|n| *n children=item />
                                </ul>
                            </details>
                        }
                    })
            }}
        }
        .into_any()
    }
}

#[component]
pub fn PrList(
    /// `None`: the server does not list PRs.
    prs: PolledRead<Option<PullRequestList>>,
    /// The PRs the mission's tasks tell of, shown where the server lists none.
    #[prop(into)]
    from_tasks: Signal<Vec<TaskPr>>,
    /// The mission's policy and workspace, for Merge on the PRs read from its tasks.
    #[prop(into)]
    policy: Signal<EffectivePolicy>,
    #[prop(into)] workspace_id: Signal<Option<String>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let shown = move |list: Memo<Arc<Option<PullRequestList>>>| {
        let offered = Memo::new(move |_| list.with(|l| l.is_some()));
        let prs = Memo::new(move |_| {
            list.with(|l| {
                l.as_ref()
                    .as_ref()
                    .map(|l| l.prs.clone())
                    .unwrap_or_default()
            })
        });
        move || {
            if offered.get() {
                untrack(|| listed(prs, refresh)).into_any()
            } else {
                view! { <TaskPrList prs=from_tasks policy workspace_id refresh /> }.into_any()
            }
        }
    };
    view! {
        <section class="card" data-testid="pr-list">
            <h2 class="card__title">"Pull requests"</h2>
            <Polled read=prs loading="Loading the pull requests…" let:list>
                {shown(list)}
            </Polled>
        </section>
    }
}
