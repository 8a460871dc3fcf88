//! `<ChangedStep>`: one step of a revision that is not as it was: its change, the fields
//! changed, its description word by word, its dependencies, and (once removed) the comments
//! on it.

use super::comment_outcome_note::CommentOutcomeNote;
use super::comparison::Comparison;
use super::step_refs::refs;
use super::word_diff::WordDiff;
use crate::components::shared::inline_markdown::InlineMarkdown;
use buildd_core::plan_diff::{StepChange, StepDiff};
use leptos::prelude::*;

/// One step added, removed or changed: what changed in it.
#[component]
pub fn ChangedStep(step: Memo<StepDiff>, comparison: Memo<Comparison>) -> impl IntoView {
    let change = move || step.with(|s| s.change);
    let head = move || {
        step.with(|s| {
            let shown_ref = s
                .new_ref
                .clone()
                .or_else(|| s.old_ref.clone())
                .unwrap_or_default();
            let renamed = match (&s.old_ref, &s.new_ref) {
                (Some(old), Some(new)) if old != new => Some(format!(" (was {old})")),
                _ => None,
            };
            view! {
                <span class=format!(
                    "badge step-change step-change--{}",
                    s.change.label(),
                )>{s.change.label()}</span>
                <code class="step-card__ref">{shown_ref}</code>
                {renamed}
                <strong>{s.title.clone()}</strong>
            }
        })
    };
    let fields = move || {
        step.with(|s| {
            (!s.fields.is_empty()).then(|| {
                let names: Vec<&str> = s.fields.iter().map(|f| f.label()).collect();
                view! {
                    <p class="small" data-testid="compare-fields">
                        {format!("Changed: {}", names.join(", "))}
                    </p>
                }
            })
        })
    };
    let description = move || {
        step.with(|s| {
            s.description.clone().map(|segments| {
                view! {
                    <p class="word-diff small" data-testid="word-diff">
                        <WordDiff segments />
                    </p>
                }
            })
        })
    };
    let dependencies = move || {
        step.with(|s| {
            let mut parts = Vec::new();
            if !s.dependencies_added.is_empty() {
                parts.push(format!("now depends on {}", refs(&s.dependencies_added)));
            }
            if !s.dependencies_removed.is_empty() {
                parts.push(format!("no longer on {}", refs(&s.dependencies_removed)));
            }
            (!parts.is_empty()).then(|| {
                let mut line = parts.join("; ");
                if let Some(first) = line.get_mut(..1) {
                    first.make_ascii_uppercase();
                }
                view! {
                    <p class="small" data-testid="compare-dependencies">
                        <InlineMarkdown source=line />
                    </p>
                }
            })
        })
    };
    let comments = move || {
        let on = step.with(|s| comparison.with(|c| c.comments_on(s)));
        on.into_iter()
            .map(|(comment, outcome)| view! { <CommentOutcomeNote comment outcome /> })
            .collect_view()
    };
    view! {
        <li
            class="plan-compare__step"
            data-testid="compare-step"
            data-change=move || change().label()
        >
            <div class="step-card__head">{head}</div>
            {fields}
            {description}
            {dependencies}
            // A removed step has no card of its own: its comments are told here.
            {move || (change() == StepChange::Removed).then(comments)}
        </li>
    }
}
