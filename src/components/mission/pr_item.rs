//! One pull request of the mission: where it stands, what holds it and why, its checks,
//! size, review and migration verdicts, and Merge when it waits for a person.

use super::confirm::Confirm;
use super::pr_list::MergeState;
use super::pr_review_line::PrReviewLine;
use crate::api;
use crate::components::shared::pr_checks::PrChecks;
use crate::format::size_line;
use buildd_core::markdown::is_web_address;
use buildd_core::pull_request::{merge_outlook, PrState, PullRequest, Verdict};
use leptos::prelude::*;

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
pub fn PrItem(pr: PullRequest, state: MergeState, refresh: Callback<()>) -> impl IntoView {
    let (label, tone) = state_label(pr.evaluation.state);
    let number = pr.number;
    let title = pr.title.clone().unwrap_or_else(|| format!("PR #{number}"));
    let can_merge = pr.evaluation.mergeable_by_person && pr.state == "open";
    // Rails hold it, beyond the tier's own hold: the person merges past them.
    let held = pr.evaluation.reasons.len() > usize::from(pr.evaluation.tier_hold.is_some());
    let workspace = pr.workspace_id.clone();
    let merge = Callback::new(move |()| {
        let workspace = workspace.clone();
        state.merge.send_then_clear(
            state.confirming,
            move |c| async move { api::merge_pr(&c, number, &workspace).await },
            move |e| (number, e.refusal()),
            refresh,
        );
    });
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
            <p class="pr__outlook" data-testid="pr-outlook">{merge_outlook(&pr)}</p>
            <p class="muted small">
                {size_line(&pr).map(|size| view! { <span data-testid="pr-size">{size}</span>" · " })}
                {pr.policy.reason.clone()}
            </p>
            {(pr.state == "open").then(|| view! { <PrChecks pr=pr.clone() /> })}
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
            {can_merge.then(|| view! {
                {move || if state.confirming.get() == Some(number) {
                    view! {
                        <Confirm
                            name="merge"
                            confirm="Merge" working="Merging…"
                            busy=move || state.merge.busy()
                            on_confirm=merge
                            on_cancel=move |()| state.confirming.set(None)
                        >
                            <p>{format!("Squash-merge PR #{number} into its base branch?")}</p>
                            {held.then(|| view! {
                                <p class="small" data-testid="merge-warning">
                                    "You merge past what holds it, listed above."
                                </p>
                            })}
                        </Confirm>
                    }
                    .into_any()
                } else {
                    view! {
                        <div class="actions">
                            <button class="button" data-testid="merge-pr" on:click=move |_| { state.merge.clear_error(); state.confirming.set(Some(number)); }>
                                "Merge…"
                            </button>
                        </div>
                    }
                    .into_any()
                }}
            })}
            {move || state.merge.error().filter(|(n, _)| *n == number).map(|(_, e)| view! {
                <p class="form__error" role="alert" data-testid="merge-error">{e}</p>
            })}
        </li>
    }
}
