//! One pull request of the mission: where it stands, what holds it and why, its checks,
//! size, review and migration verdicts, and Merge when it waits for a person.

use super::confirm::Confirm;
use super::pr_review_line::PrReviewLine;
use crate::api;
use crate::components::shared::form_error::FormError;
use crate::components::shared::pr_checks::PrChecks;
use crate::format::size_line;
use crate::state::mutation::Mutation;
use buildd_core::markdown::is_web_address;
use buildd_core::pull_request::{merge_outlook, PrState, PullRequest, StatementVerdict, Verdict};
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

/// The rows of its migration verdicts: (file, statement).
fn statements(pr: &PullRequest) -> Vec<(String, StatementVerdict)> {
    pr.evaluation
        .migrations
        .iter()
        .flat_map(|m| m.files.iter())
        .flat_map(|f| {
            f.statements
                .iter()
                .map(move |s| (f.path.clone(), s.clone()))
        })
        .collect()
}

/// PR `pr`; `confirming` is the one PR of the list whose merge is being confirmed.
#[component]
pub fn PrItem(
    pr: Memo<PullRequest>,
    confirming: RwSignal<Option<i64>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let (number, workspace) = pr.with_untracked(|p| (p.number, p.workspace_id.clone()));
    let state = Memo::new(move |_| pr.with(|p| state_label(p.evaluation.state)));
    let open = Memo::new(move |_| pr.with(|p| p.state == "open"));
    let can_merge = Memo::new(move |_| pr.with(|p| p.evaluation.mergeable_by_person) && open.get());
    // Rails hold it, beyond the tier's own hold: the person merges past them.
    let held = Memo::new(move |_| {
        pr.with(|p| p.evaluation.reasons.len() > usize::from(p.evaluation.tier_hold.is_some()))
    });
    let merge = Mutation::send_then_clear(
        confirming,
        refresh,
        move |c, (): &()| {
            let workspace = workspace.clone();
            async move { api::merge_pr(&c, number, &workspace).await }
        },
        |e| e.refusal(),
    );
    let link = move || {
        pr.with(|p| match p.url.clone().filter(|u| is_web_address(u)) {
            Some(url) => view! {
                <a class="pr-link" href=url target="_blank" rel="noopener noreferrer">
                    {format!("#{number}")}
                </a>
            }
            .into_any(),
            None => view! { <span class="pr-link">{format!("#{number}")}</span> }.into_any(),
        })
    };
    let reasons = move || {
        pr.with(|p| {
            (!p.evaluation.reasons.is_empty()).then(|| {
                view! {
                    <ul class="pr__reasons">
                        {p
                            .evaluation
                            .reasons
                            .iter()
                            .map(|r| view! { <li data-testid="pr-reason">{r.clone()}</li> })
                            .collect_view()}
                    </ul>
                }
            })
        })
    };
    let verdicts = move || {
        let statements = pr.with(statements);
        (!statements.is_empty()).then(|| {
            view! {
                <table class="verdicts" data-testid="migration-verdicts">
                    <thead>
                        <tr>
                            <th>"Verdict"</th>
                            <th>"Why"</th>
                            <th>"Statement"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {statements
                            .into_iter()
                            .map(|(path, s)| {
                                let verdict = match s.verdict {
                                    Verdict::Expand => "EXPAND",
                                    Verdict::Contract => "CONTRACT",
                                };
                                view! {
                                    <tr class=format!("verdict--{}", verdict.to_lowercase())>
                                        <td>
                                            <strong>{verdict}</strong>
                                        </td>
                                        <td>{s.reason}</td>
                                        <td>
                                            <code title=path>{s.statement}</code>
                                        </td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            }
        })
    };
    let merging = move || {
        if confirming.get() == Some(number) {
            view! {
                <Confirm
                    name="merge"
                    confirm="Merge"
                    working="Merging…"
                    busy=move || merge.busy()
                    on_confirm=move |()| merge.dispatch(())
                    on_cancel=move |()| confirming.set(None)
                >
                    <p>{format!("Squash-merge PR #{number} into its base branch?")}</p>
                    {move || {
                        held.get()
                            .then(|| {
                                view! {
                                    <p class="small" data-testid="merge-warning">
                                        "You merge past what holds it, listed above."
                                    </p>
                                }
                            })
                    }}
                </Confirm>
            }
            .into_any()
        } else {
            view! {
                <div class="actions">
                    <button
                        class="button"
                        data-testid="merge-pr"
                        on:click=move |_| {
                            merge.clear();
                            confirming.set(Some(number));
                        }
                    >
                        "Merge…"
                    </button>
                </div>
            }
            .into_any()
        }
    };
    view! {
        <li class="pr" data-testid="pr" data-pr=number.to_string()>
            <div class="pr__head">
                {link}
                <span class="pr__title">
                    {move || {
                        pr.with(|p| p.title.clone().unwrap_or_else(|| format!("PR #{number}")))
                    }}
                </span>
                <span class=move || format!("chip chip--{}", state.get().1) data-testid="pr-state">
                    {move || state.get().0}
                </span>
            </div>
            <p class="pr__outlook" data-testid="pr-outlook">
                {move || pr.with(merge_outlook)}
            </p>
            <p class="muted small">
                {move || {
                    pr.with(size_line)
                        .map(|size| {
                            view! {
                                <span data-testid="pr-size">{size}</span>
                                " · "
                            }
                        })
                }} {move || pr.with(|p| p.policy.reason.clone())}
            </p>
            {move || open.get().then(|| view! { <PrChecks pr /> })}
            <PrReviewLine pr />
            {reasons}
            {verdicts}
            {move || can_merge.get().then(merging)}
            <FormError error=move || merge.error() testid="merge-error" />
        </li>
    }
}
