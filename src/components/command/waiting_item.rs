//! One thing waiting on you, with its age and its action in place: Approve or Reject a plan
//! (Reject opens its feedback box here), Run it again for failed work, Merge for a PR held
//! for a person, Close for a mission whose work is done. Questions and the rest lead to where
//! they are answered. A refusal shows beside the action, and typed feedback stays.

use crate::api;
use crate::format::time_ago;
use crate::state::write::{refused, Write};
use buildd_core::command_center::{WaitAction, WaitItem, WaitKind};
use leptos::prelude::*;

fn kind_label(kind: WaitKind) -> &'static str {
    match kind {
        WaitKind::PlanInReview => "Plan in review",
        WaitKind::Dormant => "Close mission",
        WaitKind::PrHeld => "PR held for you",
        WaitKind::Question => "Question",
        WaitKind::Deferred => "Check-ins stopped",
        WaitKind::Failed => "Work failed",
    }
}

#[component]
pub fn WaitingItem(item: WaitItem, refresh: Callback<()>) -> impl IntoView {
    let act: Write = Write::new();
    let feedback = RwSignal::new(String::new());
    let rejecting = RwSignal::new(false);
    let confirming = RwSignal::new(false);
    // The mission is named once: beside the item only when its title does not.
    let mission = (!item.title.contains(&item.mission_title)).then_some(item.mission_title.clone());
    let age = time_ago(Some(&item.since));
    let mission_id = item.mission_id.clone();
    let busy = move || act.busy();
    let actions = match item.action.clone() {
        WaitAction::ReviewPlan { task_id } => {
            let approve_id = task_id.clone();
            let approve = move |_| {
                let id = approve_id.clone();
                act.send(
                    |c| async move { api::approve_plan(&c, &id).await },
                    refused("Not approved"),
                    move |_| refresh.run(()),
                );
            };
            let reject = move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                let text = feedback.get_untracked().trim().to_string();
                if text.is_empty() {
                    act.fail("Feedback is required: say what the revision should change.".into());
                    return;
                }
                let id = task_id.clone();
                act.send(
                    |c| async move { api::reject_plan(&c, &id, &text).await },
                    refused("Not sent back"),
                    move |_| {
                        feedback.set(String::new());
                        rejecting.set(false);
                        refresh.run(());
                    },
                );
            };
            view! {
                <button class="button button--primary button--small" data-testid="waiting-approve"
                    prop:disabled=busy on:click=approve>"Approve"</button>
                <button class="button button--small" data-testid="waiting-reject"
                    prop:disabled=busy on:click=move |_| rejecting.update(|r| *r = !*r)>"Reject"</button>
                <form class="form waiting__form" class:hidden=move || !rejecting.get() on:submit=reject>
                    <textarea rows=2 placeholder="What should the revised plan change?"
                        data-testid="waiting-feedback"
                        prop:value=move || feedback.get()
                        on:input=move |ev| feedback.set(event_target_value(&ev))></textarea>
                    <button class="button button--small" type="submit" prop:disabled=busy
                        data-testid="waiting-send-feedback">"Send back"</button>
                </form>
            }
            .into_any()
        }
        WaitAction::Retry { task_id } => {
            let retry = move |_| {
                let id = task_id.clone();
                act.send(
                    |c| async move { api::queue_again(&c, &id).await },
                    refused("Not queued"),
                    move |()| refresh.run(()),
                );
            };
            view! {
                <button class="button button--primary button--small" data-testid="waiting-retry"
                    prop:disabled=busy on:click=retry>"Run it again"</button>
            }
            .into_any()
        }
        WaitAction::Merge {
            number,
            workspace_id,
        } => {
            let merge = move |_| {
                let ws = workspace_id.clone();
                act.send(
                    move |c| async move { api::merge_pr(&c, number, &ws).await },
                    refused("Not merged"),
                    move |()| refresh.run(()),
                );
            };
            view! {
                <button class="button button--primary button--small" data-testid="waiting-merge"
                    prop:disabled=busy on:click=merge>{format!("Merge #{number}")}</button>
            }
            .into_any()
        }
        WaitAction::Close => {
            let close = move |_| {
                let id = mission_id.clone();
                act.send(
                    |c| async move { api::close_mission(&c, &id).await },
                    refused("Not closed"),
                    move |()| refresh.run(()),
                );
            };
            view! {
                <button class="button button--small" data-testid="waiting-close"
                    class:hidden=move || confirming.get()
                    on:click=move |_| confirming.set(true)>"Close…"</button>
                <span class="waiting__confirm" class:hidden=move || !confirming.get()>
                    "Close it? Its check-ins stop. "
                    <button class="button button--primary button--small" data-testid="waiting-confirm-close"
                        prop:disabled=busy on:click=close>"Close mission"</button>
                    <button class="button button--ghost button--small"
                        on:click=move |_| confirming.set(false)>"Cancel"</button>
                </span>
            }
            .into_any()
        }
        WaitAction::Open => ().into_any(),
    };
    view! {
        <li data-testid="waiting-item">
            <div class="waiting__line">
                <span class="chip chip--outline">{kind_label(item.kind)}</span>
                <a href=item.href>{item.title}</a>
                {mission.map(|m| view! { <span class="muted small">{m}</span> })}
                {(!age.is_empty()).then(|| view! { <span class="muted small" data-testid="waiting-age">{age}</span> })}
            </div>
            <div class="waiting__actions">{actions}</div>
            {move || act.error().map(|e| view! { <p class="form__error" role="alert" data-testid="waiting-error">{e}</p> })}
        </li>
    }
}
