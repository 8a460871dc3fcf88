use crate::components::shared::health_chip::HealthChip;
use crate::components::shared::inline_markdown::InlineMarkdown;
use crate::components::shared::progress_bar::ProgressBar;
use crate::components::shared::state_chip::StateChip;
use crate::format::{time_ago, time_until};
use buildd_core::client::ClientMission;
use buildd_core::grouping::{health, health_beside, mission_state, MissionState};
use buildd_core::plan::plan_in_review;
use buildd_core::{compute_progress, OrchestrationMode};
use leptos::prelude::*;
use leptos_router::components::A;

/// A mission on the list: title, state, progress and last activity.
#[component]
pub fn MissionCard(item: ClientMission) -> impl IntoView {
    let progress = compute_progress(&item.status, &item.tasks);
    let state = mission_state(&item, &item.tasks, &progress);
    let health = health_beside(state, health(&item, &progress));
    let href = format!("/missions/{}", item.id);
    let has_bar = progress.total_tasks > 0;
    let activity = time_ago(item.last_activity_at.as_deref());
    let last = match state {
        MissionState::Completed | MissionState::Archived => "last active",
        _ => "active",
    };
    let workspace = item.workspace.map(|w| w.name);
    let plan = plan_in_review(&item.tasks).map(|t| format!("/tasks/{}", t.id));
    let next_check_in = item
        .next_run_at
        .as_deref()
        // A manual mission has no check-ins: never a countdown.
        .filter(|_| {
            state == MissionState::Active && item.orchestration_mode != OrchestrationMode::Manual
        })
        .map(time_until);
    let mode = match item.orchestration_mode {
        OrchestrationMode::Manual => "manual",
        _ => "auto",
    };
    view! {
        <article class="card mission-card" data-testid="mission-card" data-mission-id=item.id.clone()>
            <div class="mission-card__head">
                <A href=href attr:class="mission-card__title">{item.title.clone()}</A>
                <StateChip state=state />
            </div>
            {item
                .description
                .clone()
                .map(|d| view! { <p class="mission-card__description"><InlineMarkdown source=d /></p> })}
            {if has_bar {
                Some(view! { <ProgressBar progress=progress /> }.into_any())
            } else if plan.is_none() {
                Some(view! { <p class="muted small">"No deliverables yet"</p> }.into_any())
            } else {
                None
            }}
            {plan.map(|href| view! {
                <a href=href class="mission-card__cta" data-testid="plan-review-link">"A plan waits for your review →"</a>
            })}
            <div class="mission-card__meta muted small">
                {health.map(|h| view! { <HealthChip health=h /> })}
                <span data-testid="mission-mode">{mode}</span>
                {workspace.map(|w| view! { <span>{w}</span> })}
                {next_check_in.map(|t| view! { <span>{format!("next check-in {t}")}</span> })}
                {(!activity.is_empty()).then(|| view! { <span>{format!("{last} {activity}")}</span> })}
            </div>
        </article>
    }
}
