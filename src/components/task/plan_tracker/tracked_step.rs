//! `<TrackedStep>`: one step of an approved plan and what became of it.

use super::tracked::{pr_name, state_tone, StepRow};
use crate::components::shared::status_badge::StatusBadge;
use buildd_core::duration::span;
use buildd_core::money::Usd;
use leptos::prelude::*;

/// One step of the plan: its state, its task and how that went, its PR.
#[component]
pub fn TrackedStep(row: Memo<StepRow>) -> impl IntoView {
    let facts = move || {
        row.with(|r| {
            let mut facts: Vec<String> = Vec::new();
            if r.attempts > 1 {
                facts.push(format!("attempt {}", r.attempts));
            }
            if let Some(s) = r.seconds {
                facts.push(format!("ran {}", span(s)));
            }
            // A task no run has reported on reads $0: not a cost to show.
            if let Some(c) = r.cost.filter(|c| *c > Usd::ZERO) {
                facts.push(format!("cost {c}"));
            }
            facts.join(" · ")
        })
    };
    let status = move || {
        row.with(|r| match &r.task {
            Some((_, status)) => view! { <StatusBadge status=status.clone() /> }.into_any(),
            None => view! { <span>"no task filed"</span> }.into_any(),
        })
    };
    let title = move || {
        row.with(|r| match &r.task {
            Some((id, _)) => view! {
                <a href=format!("/tasks/{id}") data-testid="tracked-task">
                    <strong>{r.title.clone()}</strong>
                </a>
            }
            .into_any(),
            None => view! { <strong>{r.title.clone()}</strong> }.into_any(),
        })
    };
    let pr = move || {
        row.with(|r| {
            r.pr.clone().map(|(url, stage)| {
                view! {
                    <a
                        href=url.clone()
                        target="_blank"
                        rel="noopener noreferrer"
                        data-testid="tracked-pr"
                    >
                        {format!("PR {}", pr_name(&url))}
                    </a>
                    {format!(" {}", stage.label())}
                }
            })
        })
    };
    view! {
        <li
            class="tracked-step"
            data-testid="tracked-step"
            data-state=move || row.with(|r| r.state.label())
        >
            <div class="step-card__head">
                <span
                    class=move || format!("badge badge--{}", row.with(|r| state_tone(r.state)))
                    data-testid="tracked-state"
                >
                    {move || row.with(|r| r.state.label())}
                </span>
                <code class="step-card__ref">{move || row.with(|r| r.step_ref.clone())}</code>
                {title}
            </div>
            <div class="step-card__meta small muted">
                {status} <span data-testid="tracked-facts">{facts}</span> {pr}
            </div>
        </li>
    }
}
