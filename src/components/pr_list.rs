//! The mission's pull requests: where each stands (CI pending, failing, ready, merged, held),
//! every rail that holds it and why, the migration verdicts, and Merge for a PR that waits
//! for a person, with the agent reviewer's latest verdict.

use crate::api;
use crate::components::confirm::Confirm;
use crate::components::pr_checks::PrChecks;
use crate::components::pr_review::PrReviewLine;
use crate::components::task_prs::TaskPrList;
use crate::state::refresh::Polled;
use crate::state::write::Write;
use buildd_core::markdown::is_web_address;
use buildd_core::pull_request::{
    diff_size, merge_outlook, PrState, PullRequest, PullRequestList, Verdict,
};
use buildd_core::task_prs::TaskPr;
use leptos::prelude::*;

/// The merge being confirmed or sent, and a refusal with the PR it is about. Lives above
/// the refreshed list.
#[derive(Clone, Copy, Default)]
pub struct MergeState {
    pub confirming: RwSignal<Option<i64>>,
    pub merge: Write<(i64, String)>,
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

/// "+40/−4", and for a policy with a size cap the lines it counts against that cap.
pub fn size_line(pr: &PullRequest) -> Option<String> {
    let size = diff_size(pr.files.as_deref()?);
    let policy = &pr.policy.policy;
    let lines = format!("+{}/−{}", size.additions, size.deletions);
    let Some(cap) = policy.size_cap() else {
        return Some(lines);
    };
    let locks = match size.lock_files {
        0 => String::new(),
        1 => ", a lock file not counted".into(),
        n => format!(", {n} lock files not counted"),
    };
    Some(format!("{lines} · {} of {cap} lines{locks}", size.counted))
}

#[component]
fn PrItem(pr: PullRequest, state: MergeState, refresh: Callback<()>) -> impl IntoView {
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
