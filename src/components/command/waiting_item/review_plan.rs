//! Approve or Reject a plan in review from its item: Reject opens a feedback box in place,
//! and what was typed stays when sending it back fails.

use super::request::{mutation, Actions, BUTTON};
use crate::api;
use crate::state::mutation::{refused, Mutation};
use buildd_core::plan_feedback::PlanFeedback;
use leptos::prelude::*;

pub fn review_plan(task_id: String, refresh: Callback<()>) -> Actions {
    let feedback = RwSignal::new(String::new());
    let rejecting = RwSignal::new(false);
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
            reject.fail("Feedback is required: say what the revision should change.".into());
            return;
        }
        reject.dispatch(text);
    };
    let view = view! {
        <button
            class=BUTTON
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
        <form class="form waiting__form" class:hidden=move || !rejecting.get() on:submit=send_back>
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
