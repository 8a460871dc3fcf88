//! A step of a plan in review: its ref, title and description, what it needs and what it
//! depends on.

use crate::components::shared::markdown::Markdown;
use buildd_core::plan_output::PlanStep;
use leptos::prelude::*;

#[component]
pub fn StepCard(step: PlanStep) -> impl IntoView {
    let deps = step
        .depends_on
        .iter()
        .map(|d| view! { <span class="dep-chip">{format!("⤷ {d}")}</span> })
        .collect_view();
    view! {
        <li class="step-card" data-testid="plan-step">
            <div class="step-card__head">
                <code class="step-card__ref">{step.step_ref.clone()}</code>
                <strong>{step.title.clone()}</strong>
            </div>
            <div class="small"><Markdown source=step.description.clone() /></div>
            <div class="step-card__meta small muted">
                {step.priority.map(|p| view! { <span>{format!("priority {p}")}</span> })}
                {step.role_slug.clone().map(|r| view! { <span>{format!("needs {r}")}</span> })}
                {step.output_requirement.clone().map(|o| view! { <span>{format!("output: {}", o.replace('_', " "))}</span> })}
                {(!step.depends_on.is_empty()).then(|| view! { <span>"Depends on"</span> })}
                {deps}
            </div>
        </li>
    }
}
