//! `<DecisionBar>`: what approving a plan will cost and the two decisions on it, Approve Plan
//! and Reject, with Reject's feedback form.

use super::read_plan::Plan;
use super::reject_form::RejectForm;
use super::review_state::ReviewState;
use crate::components::shared::form_error::FormError;
use crate::components::task::cost_forecast::CostForecast;
use buildd_core::client::ClientMission;
use buildd_core::forecast::steps_to_cost;
use leptos::prelude::*;

#[component]
pub fn DecisionBar(
    state: ReviewState,
    plan: Memo<Plan>,
    /// Approved here: the bar hides.
    decided: Memo<bool>,
    mission: Memo<Option<ClientMission>>,
) -> impl IntoView {
    let steps = Memo::new(move |_| plan.with(|p| p.steps.clone()));
    // While feedback is written the bar stops following the page, so no step it would
    // cover is out of reach for a comment.
    let bar_class = move || match (decided.get(), state.rejecting.get()) {
        (true, _) => "decision-bar hidden",
        (false, true) => "decision-bar decision-bar--writing",
        (false, false) => "decision-bar",
    };
    let step_count = Signal::derive(move || steps.with(|s| steps_to_cost(s)));
    // The decision stays in view while the steps are read.
    view! {
        <div class=bar_class>
            <CostForecast steps=step_count mission />
            {move || {
                (!state.rejecting.get())
                    .then(|| {
                        view! { <FormError error=move || state.error() testid="plan-error" /> }
                    })
            }}
            <div class="actions">
                <button
                    class="button button--primary"
                    on:click=move |_| {
                        state.reject.clear();
                        state.approve.dispatch(());
                    }
                    prop:disabled=move || state.busy() || !plan.with(|p| p.can_approve)
                    data-testid="approve-plan"
                >
                    {move || if state.busy() { "Working…" } else { "Approve Plan" }}
                </button>
                <button
                    class="button"
                    on:click=move |_| state.rejecting.update(|r| *r = !*r)
                    prop:disabled=move || state.busy()
                    aria-expanded=move || state.rejecting.get().to_string()
                    data-testid="reject-plan"
                >
                    "Reject"
                </button>
            </div>
            <RejectForm state steps />
        </div>
    }
}
