//! `<RejectForm>`: Reject's feedback on a plan, sent with the comments pinned to its steps so
//! a revised planning run is filed.

use super::review_state::ReviewState;
use crate::components::shared::form_error::FormError;
use crate::state::capabilities::use_capabilities;
use buildd_core::capabilities::Extra;
use buildd_core::plan_output::PlanStep;
use leptos::prelude::*;

/// Hidden, not removed, while Reject is closed, so what is typed stays.
#[component]
pub fn RejectForm(state: ReviewState, steps: Memo<Vec<PlanStep>>) -> impl IntoView {
    let offered = use_capabilities();
    // Reject opens its form with the cursor in it.
    let feedback_box = NodeRef::<leptos::html::Textarea>::new();
    Effect::new(move |_| {
        if state.rejecting.get() {
            if let Some(el) = feedback_box.get() {
                let _ = el.focus();
            }
        }
    });
    let send_back = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        state.approve.clear();
        let review = steps.with_untracked(|s| state.outgoing(s));
        if review.feedback.is_empty() {
            state
                .reject
                .fail("Feedback is required: say what the revision should change.".into());
            return;
        }
        state.reject.dispatch(review);
    };
    let comment_count = move || {
        let n = state
            .comments
            .with(|c| c.values().filter(|v| !v.trim().is_empty()).count());
        let how = if offered.has(Extra::PlanStepComments) {
            ""
        } else {
            " This Buildd takes one feedback text: each comment is added to it as a line."
        };
        match n {
            0 => format!("Open a step above to pin a comment to it.{how}"),
            1 => format!("1 step comment goes with it.{how}"),
            n => format!("{n} step comments go with it.{how}"),
        }
    };
    view! {
        <form
            class="form reject-form"
            class:hidden=move || !state.rejecting.get()
            on:submit=send_back
            data-testid="reject-form"
        >
            <label class="field">
                <span class="field__label">"What should the revised plan change?"</span>
                <textarea
                    rows=4
                    node_ref=feedback_box
                    prop:value=state.feedback
                    on:input=move |ev| state.feedback.set(event_target_value(&ev))
                    data-testid="reject-feedback"
                ></textarea>
            </label>
            <p class="muted small" data-testid="step-comment-count">
                {comment_count}
            </p>
            {move || {
                state
                    .rejecting
                    .get()
                    .then(|| {
                        view! { <FormError error=move || state.error() testid="plan-error" /> }
                    })
            }}
            <div class="actions">
                <button
                    class="button button--primary"
                    type="submit"
                    prop:disabled=move || state.busy()
                    data-testid="send-feedback"
                >
                    "Send feedback and revise"
                </button>
            </div>
        </form>
    }
}
