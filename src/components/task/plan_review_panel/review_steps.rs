//! `<ReviewSteps>`: a plan's steps while it is in review: what changed since the plan it
//! replaces, its waves, and a card a step to comment on.

use super::read_plan::Plan;
use crate::components::task::plan_compare::comparison::Comparison;
use crate::components::task::plan_compare::PlanCompare;
use crate::components::task::plan_waves::PlanWaves;
use crate::components::task::step_card::StepCard;
use crate::state::rows::{row_memo, unique_keys};
use leptos::prelude::*;
use std::collections::BTreeMap;

#[component]
pub fn ReviewSteps(
    plan: Memo<Plan>,
    /// On a revision, what changed since the plan it replaces.
    comparison: Memo<Option<Comparison>>,
    /// Comments pinned to steps, by step ref.
    comments: RwSignal<BTreeMap<String, String>>,
    /// Whether Reject's feedback is being written: each card offers a comment box.
    writing: Signal<bool>,
) -> impl IntoView {
    let steps = Memo::new(move |_| plan.with(|p| p.steps.clone()));
    let keys =
        Memo::new(move |_| steps.with(|s| unique_keys(s.iter().map(|s| s.step_ref.clone()))));
    let step = move |key: String| {
        let step = row_memo(move || {
            let at = keys.with(|k| k.iter().position(|k| *k == key))?;
            steps.with(|s| s.get(at).cloned())
        });
        view! { <StepCard step comparison comments writing /> }
    };
    let has_comparison = Memo::new(move |_| comparison.with(Option::is_some));
    let compare = move || {
        has_comparison.get().then(|| {
            let comparison = Memo::new(move |_| comparison.get().unwrap_or_default());
            view! { <PlanCompare comparison /> }
        })
    };
    let waves = move || {
        plan.with(|p| {
            p.resolved.clone().map(|resolved| {
                let changes = comparison.with(|c| {
                    c.as_ref().map_or_else(Vec::new, |c| {
                        p.steps.iter().map(|s| c.change_of(&s.step_ref)).collect()
                    })
                });
                view! { <PlanWaves steps=p.steps.clone() resolved changes /> }
            })
        })
    };
    view! {
        {compare}
        {waves}
        <ol class="step-cards">
            <For each=move || keys.get() key=String::clone children=step />
        </ol>
    }
}
