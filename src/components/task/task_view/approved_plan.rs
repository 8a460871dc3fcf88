//! `<ApprovedPlan>`: a plan approved elsewhere (earlier, or by Buildd itself), told by what
//! became of its steps.

use crate::components::task::plan_tracker::PlanTracker;
use buildd_core::client::ClientMission;
use buildd_core::plan_output::PlanStep;
use leptos::prelude::*;

#[component]
pub fn ApprovedPlan(
    /// Whether to show it (tracked).
    shown: Memo<bool>,
    plan_id: String,
    /// The plan's steps, as its output lists them.
    steps: Memo<Option<Vec<PlanStep>>>,
    mission: Memo<Option<ClientMission>>,
) -> impl IntoView {
    move || {
        shown.get().then(|| {
            let steps = Memo::new(move |_| steps.get().unwrap_or_default());
            view! {
                <section class="card" data-testid="plan-outcome">
                    <h2 class="card__title">"The approved plan"</h2>
                    <PlanTracker plan_id=plan_id.clone() steps mission />
                </section>
            }
        })
    }
}
