//! A step of a plan in review: its ref, title and description, what it needs and what it
//! depends on; on a revision, how it changed and what became of the comments on it; while
//! the plan is being sent back, a comment pinned to it.

use super::plan_compare::comment_outcome_note::CommentOutcomeNote;
use super::plan_compare::comparison::Comparison;
use super::step_comment::StepComment;
use crate::components::shared::markdown::Markdown;
use buildd_core::enums::words;
use buildd_core::plan_diff::StepChange;
use buildd_core::plan_output::PlanStep;
use leptos::prelude::*;
use std::collections::BTreeMap;

#[component]
pub fn StepCard(
    step: Memo<PlanStep>,
    /// The revision compared with the one it replaces, if it is a revision.
    comparison: Memo<Option<Comparison>>,
    /// The comments being written on the plan's steps, by ref.
    comments: RwSignal<BTreeMap<String, String>>,
    /// Whether the plan is being sent back (comments can be written).
    #[prop(into)]
    writing: Signal<bool>,
) -> impl IntoView {
    let description = Memo::new(move |_| step.with(|s| s.description.clone()));
    let step_ref = Memo::new(move |_| step.with(|s| s.step_ref.clone()));
    let change = Memo::new(move |_| {
        step_ref.with(|r| comparison.with(|c| c.as_ref().and_then(|c| c.change_of(r))))
    });
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
    // Added and changed steps say so; an unchanged one says nothing.
    let marker = move || {
        change
            .get()
            .filter(|c| matches!(c, StepChange::Added | StepChange::Changed))
            .map(|c| {
                view! {
                    <span
                        class=format!("badge step-change step-change--{}", c.label())
                        data-testid="step-change"
                    >
                        {c.label()}
                    </span>
                }
            })
    };
    let outcomes = move || {
        let on = step_ref.with(|r| {
            comparison.with(|c| c.as_ref().map(|c| c.comments_on_ref(r)).unwrap_or_default())
        });
        on.into_iter()
            .map(|(comment, outcome)| view! { <CommentOutcomeNote comment outcome /> })
            .collect_view()
    };
    view! {
        <li class="step-card" data-testid="plan-step" data-ref=step_ref>
            <div class="step-card__head">
                {marker} <code class="step-card__ref">{step_ref}</code>
                <strong>{move || step.with(|s| s.title.clone())}</strong>
            </div>
            <div class="small">
                <Markdown source=description />
            </div>
            <div class="step-card__meta small muted">{meta}</div>
            {outcomes}
            <StepComment step_ref comments writing />
        </li>
    }
}
