//! One thing waiting on you, with its age and its action in place: Approve or Reject a plan
//! (Reject opens its feedback box here), Run it again for failed work, Merge for a PR held
//! for a person (or, on Buildd, an open PR judged by the policy first), Close for a
//! mission whose work is done, Raise budget for one that spent it, an answer for an agent
//! that waits on a question or for the organizer's question.
//! The rest lead to where they are dealt with. A refusal shows beside the action, and typed feedback stays.

use super::answer_question::AnswerQuestion;
use super::merge_from_task::MergeFromTask;
use crate::api::{self, ApiError, Connection};
use crate::components::shared::answer_agent::AnswerAgent;
use crate::components::shared::form_error::FormError;
use crate::components::shared::raise_budget::RaiseBudget;
use crate::format::time_ago;
use crate::state::mutation::{refused, Mutation};
use buildd_core::command_center::{WaitAction, WaitItem, WaitKind};
use buildd_core::plan_feedback::PlanFeedback;
use leptos::prelude::*;

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

/// A request of the item's: `send` with this tab's connection, then `refresh`.
fn mutation<I: 'static, Fut>(
    refresh: Callback<()>,
    what: &'static str,
    send: impl Fn(Connection, &I) -> Fut + 'static,
) -> Mutation<I>
where
    Fut: std::future::Future<Output = Result<(), ApiError>> + 'static,
{
    Mutation::request(
        move |c, input| {
            let sent = send(c, input);
            async move {
                sent.await?;
                refresh.run(());
                Ok(())
            }
        },
        refused(what),
    )
}

#[component]
pub fn WaitingItem(item: Memo<WaitItem>, refresh: Callback<()>) -> impl IntoView {
    // An item's kind, and so its action, is part of its key: it does not change.
    let (kind, action, mission_id) =
        item.with_untracked(|i| (i.kind, i.action.clone(), i.mission_id.clone()));
    let feedback = RwSignal::new(String::new());
    let rejecting = RwSignal::new(false);
    let confirming = RwSignal::new(false);
    let button = "button button--primary button--small";
    let (error, actions): (Signal<Option<String>>, AnyView) = match action {
        WaitAction::ReviewPlan { task_id } => {
            let id = task_id.clone();
            let approve = mutation(refresh, "Not approved", move |c, (): &()| {
                let id = id.clone();
                async move { api::approve_plan(&c, &id).await.map(drop) }
            });
            let reject = Mutation::request(
                move |c, text: &String| {
                    let (id, text) = (task_id.clone(), text.clone());
                    async move {
                        api::reject_plan(&c, &id, &PlanFeedback::from_text(&text), false).await?;
                        feedback.set(String::new());
                        rejecting.set(false);
                        refresh.run(());
                        Ok(())
                    }
                },
                refused("Not sent back"),
            );
            let busy = Signal::derive(move || approve.busy() || reject.busy());
            // The last request's outcome: each clears the other's.
            let error = Signal::derive(move || approve.error().or_else(|| reject.error()));
            let send_back = move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                approve.clear();
                let text = feedback.get_untracked().trim().to_string();
                if text.is_empty() {
                    reject
                        .fail("Feedback is required: say what the revision should change.".into());
                    return;
                }
                reject.dispatch(text);
            };
            let view = view! {
                <button
                    class=button
                    data-testid="waiting-approve"
                    prop:disabled=busy
                    on:click=move |_| {
                        reject.clear();
                        approve.dispatch(());
                    }
                >
                    "Approve"
                </button>
                <button
                    class="button button--small"
                    data-testid="waiting-reject"
                    prop:disabled=busy
                    on:click=move |_| rejecting.update(|r| *r = !*r)
                >
                    "Reject"
                </button>
                <form
                    class="form waiting__form"
                    class:hidden=move || !rejecting.get()
                    on:submit=send_back
                >
                    <textarea
                        rows=2
                        placeholder="What should the revised plan change?"
                        data-testid="waiting-feedback"
                        prop:value=feedback
                        on:input=move |ev| feedback.set(event_target_value(&ev))
                    ></textarea>
                    <button
                        class="button button--small"
                        type="submit"
                        prop:disabled=busy
                        data-testid="waiting-send-feedback"
                    >
                        "Send back"
                    </button>
                </form>
            };
            (error, view.into_any())
        }
        WaitAction::Retry { task_id } => {
            let retry = mutation(refresh, "Not queued", move |c, (): &()| {
                let id = task_id.clone();
                async move { api::queue_again(&c, &id).await }
            });
            let busy = Signal::derive(move || retry.busy());
            let view = view! {
                <button
                    class=button
                    data-testid="waiting-retry"
                    prop:disabled=busy
                    on:click=move |_| retry.dispatch(())
                >
                    "Run it again"
                </button>
            };
            (Signal::derive(move || retry.error()), view.into_any())
        }
        WaitAction::Merge {
            number,
            workspace_id,
        } => {
            let merge = mutation(refresh, "Not merged", move |c, (): &()| {
                let workspace = workspace_id.clone();
                async move { api::merge_pr(&c, number, &workspace).await }
            });
            let busy = Signal::derive(move || merge.busy());
            let view = view! {
                <button
                    class=button
                    data-testid="waiting-merge"
                    prop:disabled=busy
                    on:click=move |_| merge.dispatch(())
                >
                    {format!("Merge #{number}")}
                </button>
            };
            (Signal::derive(move || merge.error()), view.into_any())
        }
        // Its own refusal and Buildd's answer show beside it.
        WaitAction::MergeFromTask { task_id } => {
            let mission_id = mission_id.clone();
            let view = view! { <MergeFromTask mission_id task_id refresh /> };
            (Signal::stored(None), view.into_any())
        }
        WaitAction::Close => {
            let close = mutation(refresh, "Not closed", move |c, (): &()| {
                let id = mission_id.clone();
                async move { api::close_mission(&c, &id).await }
            });
            let busy = Signal::derive(move || close.busy());
            let view = view! {
                <button
                    class="button button--small"
                    data-testid="waiting-close"
                    class:hidden=confirming
                    on:click=move |_| confirming.set(true)
                >
                    "Close…"
                </button>
                <span class="waiting__confirm" class:hidden=move || !confirming.get()>
                    "Close it? Its check-ins stop. "
                    <button
                        class=button
                        data-testid="waiting-confirm-close"
                        prop:disabled=busy
                        on:click=move |_| close.dispatch(())
                    >
                        "Close mission"
                    </button>
                    <button
                        class="button button--ghost button--small"
                        on:click=move |_| confirming.set(false)
                    >
                        "Cancel"
                    </button>
                </span>
            };
            (Signal::derive(move || close.error()), view.into_any())
        }
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
