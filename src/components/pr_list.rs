//! The mission's pull requests: where each stands (CI pending, failing, ready, merged, held),
//! every rail that holds it and why, the migration verdicts, and Merge for a PR that waits
//! for a person, with the agent reviewer's latest verdict.

use crate::api;
use crate::components::pr_review::PrReviewLine;
use crate::state::connection::Connection;
use crate::state::refresh::Polled;
use buildd_core::markdown::is_web_address;
use buildd_core::pull_request::{PrState, PullRequest, PullRequestList, Verdict};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The merge being confirmed or sent. Lives above the refreshed list.
#[derive(Clone, Copy)]
pub struct MergeState {
    pub confirming: RwSignal<Option<i64>>,
    pub busy: RwSignal<bool>,
    pub error: RwSignal<Option<(i64, String)>>,
}

impl MergeState {
    pub fn new() -> Self {
        Self {
            confirming: RwSignal::new(None),
            busy: RwSignal::new(false),
            error: RwSignal::new(None),
        }
    }
}

impl Default for MergeState {
    fn default() -> Self {
        Self::new()
    }
}

fn state_label(state: PrState) -> (&'static str, &'static str) {
    match state {
        PrState::Merged => ("merged", "ok"),
        PrState::Closed => ("closed", "muted"),
        PrState::CiPending => ("CI pending", "info"),
        PrState::CiFailing => ("CI failing", "bad"),
        PrState::Held => ("held", "warn"),
        PrState::Ready => ("ready", "ok"),
    }
}

#[component]
fn PrItem(
    pr: PullRequest,
    connection: Connection,
    state: MergeState,
    refresh: Callback<()>,
) -> impl IntoView {
    let (label, tone) = state_label(pr.evaluation.state);
    let number = pr.number;
    let title = pr.title.clone().unwrap_or_else(|| format!("PR #{number}"));
    let can_merge = pr.evaluation.mergeable_by_person && pr.state == "open";
    // Rails hold it, beyond the tier's own hold: the person merges past them.
    let held = pr.evaluation.reasons.len() > usize::from(pr.evaluation.tier_hold.is_some());
    let workspace = pr.workspace_id.clone();
    let merge = move |_| {
        let (connection, workspace) = (connection.clone(), workspace.clone());
        state.busy.set(true);
        state.error.set(None);
        spawn_local(async move {
            match api::merge_pr(&connection, number, &workspace).await {
                Ok(_) => {
                    state.confirming.set(None);
                    refresh.run(());
                }
                Err(e) => state.error.set(Some((number, e.refusal()))),
            }
            state.busy.set(false);
        });
    };
    let statements: Vec<_> = pr
        .evaluation
        .migrations
        .iter()
        .flat_map(|m| m.files.iter())
        .flat_map(|f| {
            f.statements
                .iter()
                .map(move |s| (f.path.clone(), s.clone()))
        })
        .collect();
    view! {
        <li class="pr" data-testid="pr" data-pr=number.to_string()>
            <div class="pr__head">
                {match pr.url.clone().filter(|u| is_web_address(u)) {
                    Some(url) => view! { <a class="pr-link" href=url target="_blank" rel="noopener noreferrer">{format!("#{number}")}</a> }.into_any(),
                    None => view! { <span class="pr-link">{format!("#{number}")}</span> }.into_any(),
                }}
                <span class="pr__title">{title}</span>
                <span class=format!("chip chip--{tone}") data-testid="pr-state">{label}</span>
            </div>
            <p class="muted small">{pr.policy.reason.clone()}</p>
            <PrReviewLine pr=pr.clone() />
            {(!pr.evaluation.reasons.is_empty()).then(|| view! {
                <ul class="pr__reasons">
                    {pr.evaluation.reasons.iter().map(|r| view! { <li data-testid="pr-reason">{r.clone()}</li> }).collect_view()}
                </ul>
            })}
            {(!statements.is_empty()).then(|| view! {
                <table class="verdicts" data-testid="migration-verdicts">
                    <thead><tr><th>"Verdict"</th><th>"Why"</th><th>"Statement"</th></tr></thead>
                    <tbody>
                        {statements.into_iter().map(|(path, s)| {
                            let verdict = match s.verdict { Verdict::Expand => "EXPAND", Verdict::Contract => "CONTRACT" };
                            view! {
                                <tr class=format!("verdict--{}", verdict.to_lowercase())>
                                    <td><strong>{verdict}</strong></td>
                                    <td>{s.reason}</td>
                                    <td><code title=path>{s.statement}</code></td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            })}
            {can_merge.then(|| {
                let merge = merge.clone();
                view! {
                    {move || if state.confirming.get() == Some(number) {
                        let merge = merge.clone();
                        view! {
                            <div class="confirm" role="alertdialog" data-testid="merge-confirm">
                                <p>{format!("Squash-merge PR #{number} into its base branch?")}</p>
                                {held.then(|| view! {
                                    <p class="small" data-testid="merge-warning">
                                        "You merge past what holds it, listed above."
                                    </p>
                                })}
                                <div class="actions">
                                    <button class="button button--primary" data-testid="confirm-merge" prop:disabled=move || state.busy.get() on:click=merge>
                                        {move || if state.busy.get() { "Merging…" } else { "Merge" }}
                                    </button>
                                    <button class="button" on:click=move |_| state.confirming.set(None)>"Cancel"</button>
                                </div>
                            </div>
                        }
                        .into_any()
                    } else {
                        view! {
                            <div class="actions">
                                <button class="button" data-testid="merge-pr" on:click=move |_| { state.error.set(None); state.confirming.set(Some(number)); }>
                                    "Merge…"
                                </button>
                            </div>
                        }
                        .into_any()
                    }}
                }
            })}
            {move || state.error.get().filter(|(n, _)| *n == number).map(|(_, e)| view! {
                <p class="form__error" role="alert" data-testid="merge-error">{e}</p>
            })}
        </li>
    }
}

#[component]
pub fn PrList(
    prs: Polled<PullRequestList>,
    connection: Connection,
    state: MergeState,
    refresh: Callback<()>,
) -> impl IntoView {
    view! {
        <section class="card" data-testid="pr-list">
            <h2 class="card__title">"Pull requests"</h2>
            {move || match prs.get() {
                None => view! { <p class="muted">"Loading…"</p> }.into_any(),
                Some(Err(_)) => view! { <p class="muted">"This server does not list pull requests."</p> }.into_any(),
                Some(Ok(list)) if list.prs.is_empty() => view! { <p class="muted">"No pull requests yet."</p> }.into_any(),
                Some(Ok(list)) => view! {
                    <ul class="prs">
                        {list.prs.into_iter().map(|pr| view! {
                            <PrItem pr=pr connection=connection.clone() state=state refresh=refresh />
                        }).collect_view()}
                    </ul>
                }
                .into_any(),
            }}
        </section>
    }
}
