//! An approved plan against what became of it (buildd-core's `plan_outcome`): each step
//! with its task's status, attempts, duration, cost and PR; one line of how many steps are
//! done, in flight, failed and not started; and the mission's work filed after the plan.
//! It reads the page's mission, so it moves as the rest of the page does.

pub mod added_after;
pub mod tracked;
pub mod tracked_step;

use self::added_after::AddedAfter;
use self::tracked::track;
use self::tracked_step::TrackedStep;
use crate::state::rows::{row_memo, unique_keys};
use buildd_core::client::ClientMission;
use buildd_core::plan_output::PlanStep;
use leptos::prelude::*;

/// The live view of approved plan `plan_id`.
#[component]
pub fn PlanTracker(
    plan_id: String,
    steps: Memo<Vec<PlanStep>>,
    mission: Memo<Option<ClientMission>>,
) -> impl IntoView {
    let tracked =
        Memo::new(move |_| steps.with(|s| mission.with(|m| track(&plan_id, s, m.as_ref()))));
    let keys = Memo::new(move |_| {
        tracked.with(|t| unique_keys(t.rows.iter().map(|r| r.step_ref.clone())))
    });
    let row = move |key: String| {
        let row = row_memo(move || {
            let at = keys.with(|k| k.iter().position(|k| *k == key))?;
            tracked.with(|t| t.rows.get(at).cloned())
        });
        view! { <TrackedStep row /> }
    };
    let added = Memo::new(move |_| tracked.with(|t| t.added_after.clone()));
    view! {
        <div class="plan-tracker" data-testid="plan-tracker">
            <p class="plan-tracker__summary" role="status" data-testid="plan-outcome-summary">
                {move || tracked.with(|t| t.summary.clone())}
            </p>
            <ol class="step-cards">
                <For each=move || keys.get() key=String::clone children=row />
            </ol>
            <AddedAfter added />
        </div>
    }
}
