//! A mission on the list: title, state, progress, last activity and what it spent of its
//! budget.

use crate::components::shared::health_chip::HealthChip;
use crate::components::shared::inline_markdown::InlineMarkdown;
use crate::components::shared::progress_bar::ProgressBar;
use crate::components::shared::state_chip::StateChip;
use crate::format::{time_ago, time_until};
use buildd_core::budget::spend_brief_of;
use buildd_core::client::ClientMission;
use buildd_core::grouping::{health, health_beside, mission_state, MissionState};
use buildd_core::plan::plan_in_review;
use buildd_core::{compute_progress, OrchestrationMode};
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn MissionCard(mission: Memo<ClientMission>) -> impl IntoView {
    let progress = Memo::new(move |_| mission.with(|m| compute_progress(&m.status, &m.tasks)));
    let state =
        Memo::new(move |_| progress.with(|p| mission.with(|m| mission_state(m, &m.tasks, p))));
    let health = Memo::new(move |_| {
        progress.with(|p| mission.with(|m| health_beside(state.get(), health(m, p))))
    });
    let id = mission.with_untracked(|m| m.id.clone());
    let has_bar = Memo::new(move |_| progress.with(|p| p.total_tasks > 0));
    let plan = Memo::new(move |_| {
        mission.with(|m| plan_in_review(&m.tasks).map(|t| format!("/tasks/{}", t.id)))
    });
    let description = Memo::new(move |_| mission.with(|m| m.description.clone()));
    let meta = move || {
        mission.with(|m| {
            let state = state.get();
            let activity = time_ago(m.last_activity_at.as_deref());
            let last = match state {
                MissionState::Completed | MissionState::Archived => "last active",
                _ => "active",
            };
            let next_check_in = m
                .next_run_at
                .as_deref()
                // A manual mission has no check-ins: never a countdown.
                .filter(|_| {
                    state == MissionState::Active
                        && m.orchestration_mode != OrchestrationMode::Manual
                })
                .map(time_until);
            let mode = match m.orchestration_mode {
                OrchestrationMode::Manual => "manual",
                _ => "auto",
            };
            let workspace = m.workspace.as_ref().map(|w| w.name.clone());
            let spend = spend_brief_of(m.spend_usd.as_deref(), m.cost_budget_usd.as_deref());
            view! {
                <span data-testid="mission-mode">{mode}</span>
                {workspace.map(|w| view! { <span>{w}</span> })}
                {spend.map(|s| view! { <span data-testid="mission-spend">{s}</span> })}
                {next_check_in.map(|t| view! { <span>{format!("next check-in {t}")}</span> })}
                {(!activity.is_empty())
                    .then(|| view! { <span>{format!("{last} {activity}")}</span> })}
            }
        })
    };
    view! {
        <article class="card mission-card" data-testid="mission-card" data-mission-id=id.clone()>
            <div class="mission-card__head">
                <A href=format!("/missions/{id}") attr:class="mission-card__title">
                    {move || mission.with(|m| m.title.clone())}
                </A>
                {move || view! { <StateChip state=state.get() /> }}
            </div>
            {move || {
                description
                    .get()
                    .map(|d| {
                        view! {
                            <p class="mission-card__description">
                                <InlineMarkdown source=d />
                            </p>
                        }
                    })
            }}
            {move || {
                if has_bar.get() {
                    Some(progress.with(|p| view! { <ProgressBar progress=p.clone() /> }).into_any())
                } else if plan.with(Option::is_none) {
                    Some(view! { <p class="muted small">"No deliverables yet"</p> }.into_any())
                } else {
                    None
                }
            }}
            {move || {
                plan.get()
                    .map(|href| {
                        view! {
                            <a href=href class="mission-card__cta" data-testid="plan-review-link">
                                "A plan waits for your review →"
                            </a>
                        }
                    })
            }}
            <div class="mission-card__meta muted small">
                {move || health.get().map(|health| view! { <HealthChip health /> })} {meta}
            </div>
        </article>
    }
}
