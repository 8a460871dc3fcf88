//! The Plan Review Panel: a plan in review, its steps and waves, what approving it will
//! cost, and the two decisions a person makes on it: Approve Plan (children are created) or
//! Reject with feedback, overall and pinned to steps (a revised planning run is filed). A
//! revision is compared with the plan it replaces; once approved, the panel tracks what
//! became of each step.

pub mod approved_children;
pub mod decision_bar;
pub mod read_plan;
pub mod reject_form;
pub mod review_state;
pub mod review_steps;

use self::approved_children::ApprovedChildren;
use self::decision_bar::DecisionBar;
use self::read_plan::read_plan;
use self::review_state::ReviewState;
use self::review_steps::ReviewSteps;
use crate::components::task::plan_compare::comparison::Comparison;
use crate::components::task::plan_tracker::PlanTracker;
use buildd_core::client::ClientMission;
use leptos::prelude::*;
use serde_json::Value;

const MOVED_ON: &str = "This plan is no longer in review: it was approved or replaced \
                        meanwhile. Your feedback is kept here; the server will refuse it for \
                        this plan.";

#[component]
pub fn PlanReviewPanel(
    /// The planning task whose plan this is.
    plan_id: String,
    #[prop(into)] output: Signal<Value>,
    state: ReviewState,
    /// The plan left review elsewhere while a person was writing feedback on it: the panel
    /// stays, with their text, and says so.
    #[prop(into)]
    moved_on: Signal<bool>,
    /// Its mission: the tasks the approved plan filed, spend and budget.
    mission: Memo<Option<ClientMission>>,
    /// On a revision, what changed since the plan it replaces.
    comparison: Memo<Option<Comparison>>,
) -> impl IntoView {
    let plan = Memo::new(move |_| output.with(read_plan));
    let steps = Memo::new(move |_| plan.with(|p| p.steps.clone()));
    let ready_now = move || {
        plan.with(|p| {
            p.resolved
                .as_ref()
                .map_or(0, |r| r.waves.first().map_or(0, Vec::len))
        })
    };
    let decided = Memo::new(move |_| state.approve.answer().is_some());
    let writing = Signal::derive(move || state.rejecting.get() && !decided.get());
    let section_class = move || {
        if decided.get() {
            "card plan-review plan-review--decided"
        } else {
            "card plan-review"
        }
    };
    let dispatchable = move || {
        let (count, ready) = (steps.with(Vec::len), ready_now());
        if decided.get() {
            format!("{count} steps filed · {ready} could start at once")
        } else {
            format!("{count} steps · {ready} can start as soon as the plan is approved")
        }
    };
    // Once approved, the steps are told by what became of them.
    let body = move || {
        if decided.get() {
            let plan_id = plan_id.clone();
            view! { <PlanTracker plan_id steps mission /> }.into_any()
        } else {
            view! { <ReviewSteps plan comparison comments=state.comments writing /> }.into_any()
        }
    };
    view! {
        <section class=section_class data-testid="plan-review">
            <h2 class="card__title">
                {move || if decided.get() { "Plan approved" } else { "Plan in review" }}
            </h2>
            {move || {
                moved_on
                    .get()
                    .then(|| {
                        view! {
                            <p
                                class="notice notice--warn"
                                role="status"
                                data-testid="plan-moved-on"
                            >
                                {MOVED_ON}
                            </p>
                        }
                    })
            }}
            <p class="prewrap">{move || plan.with(|p| p.summary.clone())}</p>
            <p class="muted small" data-testid="plan-dispatchable">
                {dispatchable}
            </p>
            {move || {
                plan.with(|p| {
                    p.warnings
                        .iter()
                        .map(|w| {
                            view! {
                                <p class="notice notice--warn" data-testid="plan-warning">
                                    {w.clone()}
                                </p>
                            }
                        })
                        .collect_view()
                })
            }}
            <ApprovedChildren state steps />
            {body}
            <DecisionBar state plan decided mission />
        </section>
    }
}
