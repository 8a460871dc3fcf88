//! A step of a plan in review: its ref, title and description, what it needs and what it
//! depends on.

use crate::components::shared::markdown::Markdown;
use buildd_core::enums::words;
use buildd_core::plan_output::PlanStep;
use leptos::prelude::*;

#[component]
pub fn StepCard(step: Memo<PlanStep>) -> impl IntoView {
    let description = Memo::new(move |_| step.with(|s| s.description.clone()));
    let meta = move || {
        step.with(|step| {
            let deps = step
                .depends_on
                .iter()
                .map(|d| view! { <span class="dep-chip">{format!("⤷ {d}")}</span> })
                .collect_view();
            view! {
                {step.priority.map(|p| view! { <span>{format!("priority {p}")}</span> })}
                {step.role_slug.clone().map(|r| view! { <span>{format!("needs {r}")}</span> })}
                {step
                    .output_requirement
                    .as_deref()
                    .map(|o| view! { <span>{format!("output: {}", words(o))}</span> })}
                {(!step.depends_on.is_empty()).then(|| view! { <span>"Depends on"</span> })}
                {deps}
            }
        })
    };
    view! {
        <li class="step-card" data-testid="plan-step">
            <div class="step-card__head">
                <code class="step-card__ref">{move || step.with(|s| s.step_ref.clone())}</code>
                <strong>{move || step.with(|s| s.title.clone())}</strong>
            </div>
            <div class="small">
                <Markdown source=description />
            </div>
            <div class="step-card__meta small muted">{meta}</div>
        </li>
    }
}
