//! One pull request of the mission: where it stands, what holds it and why, its checks,
//! size, review and migration verdicts, and Merge when it waits for a person.

pub mod merge_pr;
pub mod migration_verdicts;
pub mod pr_facts;
pub mod pr_reasons;

use self::merge_pr::MergePr;
use self::migration_verdicts::MigrationVerdicts;
use self::pr_facts::state_label;
use self::pr_reasons::PrReasons;
use crate::api;
use crate::components::mission::pr_review_line::PrReviewLine;
use crate::components::shared::form_error::FormError;
use crate::components::shared::pr_checks::PrChecks;
use crate::format::size_line;
use crate::state::mutation::Mutation;
use buildd_core::markdown::is_web_address;
use buildd_core::pull_request::{merge_outlook, PullRequest};
use buildd_core::PrStatus;
use leptos::prelude::*;

/// PR `pr`; `confirming` is the one PR of the list whose merge is being confirmed.
#[component]
pub fn PrItem(
    pr: Memo<PullRequest>,
    confirming: RwSignal<Option<i64>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let (number, workspace) = pr.with_untracked(|p| (p.number, p.workspace_id.clone()));
    let state = Memo::new(move |_| pr.with(|p| state_label(p.evaluation.state)));
    let open = Memo::new(move |_| pr.with(|p| p.state == PrStatus::Open));
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
            <PrReasons pr />
            <MigrationVerdicts pr />
            {move || {
                can_merge.get().then(|| view! { <MergePr number confirming merge held /> })
            }}
            <FormError error=move || merge.error() testid="merge-error" />
        </li>
    }
}
