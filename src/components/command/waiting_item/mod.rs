//! One thing waiting on you, with its age and its action in place: Approve or Reject a plan
//! (Reject opens its feedback box here), Run it again for failed work, Merge for a PR held
//! for a person (or, on Buildd, an open PR judged by the policy first), Close for a
//! mission whose work is done, Raise budget for one that spent it, an answer for an agent
//! that waits on a question or for the organizer's question. The rest lead to where they
//! are dealt with. A refusal shows beside the action, and typed feedback stays.

mod quick_actions;
mod request;
mod review_plan;

use super::answer_question::AnswerQuestion;
use super::merge_from_task::MergeFromTask;
use crate::components::shared::answer_agent::AnswerAgent;
use crate::components::shared::form_error::FormError;
use crate::components::shared::raise_budget::RaiseBudget;
use crate::format::time_ago;
use buildd_core::command_center::{WaitAction, WaitItem, WaitKind};
use leptos::prelude::*;
use quick_actions::{close, merge, retry};
use request::Actions;
use review_plan::review_plan;

fn kind_label(kind: WaitKind) -> &'static str {
    match kind {
        WaitKind::PlanInReview => "Plan in review",
        WaitKind::Dormant => "Close mission",
        WaitKind::PrHeld => "PR held for you",
        WaitKind::PrOpen => "PR to merge",
        WaitKind::Question => "Question",
        WaitKind::Deferred => "Check-ins stopped",
        WaitKind::Failed => "Work failed",
        WaitKind::OutOfBudget => "Out of budget",
        WaitKind::AgentWaiting => "Agent waiting",
    }
}

#[component]
pub fn WaitingItem(item: Memo<WaitItem>, refresh: Callback<()>) -> impl IntoView {
    // An item's kind, and so its action, is part of its key: it does not change.
    let (kind, action, mission_id) =
        item.with_untracked(|i| (i.kind, i.action.clone(), i.mission_id.clone()));
    let (error, actions): Actions = match action {
        WaitAction::ReviewPlan { task_id } => review_plan(task_id, refresh),
        WaitAction::Retry { task_id } => retry(task_id, refresh),
        WaitAction::Merge {
            number,
            workspace_id,
        } => merge(number, workspace_id, refresh),
        // Its own refusal and Buildd's answer show beside it.
        WaitAction::MergeFromTask { task_id } => {
            let mission_id = mission_id.clone();
            let view = view! { <MergeFromTask mission_id task_id refresh /> };
            (Signal::stored(None), view.into_any())
        }
        WaitAction::Close => close(mission_id.clone(), refresh),
        // The shared form shows its own refusal, beside its amount.
        WaitAction::RaiseBudget { budget, .. } => {
            let view = view! { <RaiseBudget mission_id budget=Signal::stored(budget) refresh /> };
            (Signal::stored(None), view.into_any())
        }
        // The shared form shows its own refusal and keeps what was typed.
        WaitAction::Answer {
            worker_id,
            prompt,
            options,
            live,
        } => {
            let view = view! { <AnswerAgent worker_id prompt options live refresh /> };
            (Signal::stored(None), view.into_any())
        }
        WaitAction::AnswerQuestion {
            note_id,
            options,
            default_choice,
        } => {
            let mission_id = mission_id.clone();
            let view =
                view! { <AnswerQuestion mission_id note_id options default_choice refresh /> };
            (Signal::stored(None), view.into_any())
        }
        WaitAction::Open => (Signal::stored(None), ().into_any()),
    };
    // The mission is named once: beside the item only when its title does not.
    let mission = move || {
        item.with(|i| (!i.title.contains(&i.mission_title)).then(|| i.mission_title.clone()))
    };
    let age = move || item.with(|i| time_ago(Some(&i.since)));
    view! {
        <li data-testid="waiting-item" data-subject=item.with_untracked(|i| i.subject.clone())>
            <div class="waiting__line">
                <span class="chip chip--outline">{kind_label(kind)}</span>
                <a href=move || {
                    item.with(|i| i.href.clone())
                }>{move || item.with(|i| i.title.clone())}</a>
                {move || mission().map(|m| view! { <span class="muted small">{m}</span> })}
                {move || {
                    let age = age();
                    (!age.is_empty())
                        .then(|| {
                            view! {
                                <span class="muted small" data-testid="waiting-age">
                                    {age}
                                </span>
                            }
                        })
                }}
            </div>
            <div class="waiting__actions">{actions}</div>
            <FormError error testid="waiting-error" />
        </li>
    }
}
