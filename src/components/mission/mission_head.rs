//! The top of a mission's page: its title, state, goal, a plan awaiting review and its
//! progress.

use super::progress_card::ProgressCard;
use crate::components::shared::health_chip::HealthChip;
use crate::components::shared::markdown::Markdown;
use crate::components::shared::state_chip::StateChip;
use buildd_core::client::ClientMission;
use buildd_core::grouping::{health, health_beside, mission_state};
use buildd_core::plan::plan_in_review;
use buildd_core::{compute_progress, MissionStatus};
use leptos::prelude::*;

#[component]
pub fn MissionHead(detail: ClientMission) -> impl IntoView {
    let progress = compute_progress(&detail.status, &detail.tasks);
    let state = mission_state(&detail, &detail.tasks, &progress);
    let health = health_beside(state, health(&detail, &progress));
    let status = detail.status.clone();
    let workspace = detail.workspace.clone().map(|w| w.name);
    let plan = plan_in_review(&detail.tasks).map(|t| (t.id.clone(), t.title.clone()));
    view! {
        <header class="mission-head">
            <h1 data-testid="mission-title">{detail.title.clone()}</h1>
            <div class="chips">
                <StateChip state=state />
                {health.map(|h| view! { <HealthChip health=h /> })}
                // The stored status, when the state chip does not already say it (every
                // state but a finished or paused one implies "active").
                {(detail.status != MissionStatus::Active
                    && !state.label().eq_ignore_ascii_case(&detail.status.as_str().replace('_', " ")))
                .then(|| view! {
                    <span class="chip chip--outline chip--muted" data-testid="mission-status">
                        {format!("status: {}", detail.status)}
                    </span>
                })}
                {workspace.map(|w| view! { <span class="muted small">{format!("workspace {w}")}</span> })}
            </div>
            {detail
                .description
                .clone()
                .map(|d| view! { <div class="mission-head__description" data-testid="mission-description"><Markdown source=d /></div> })}
            {detail
                .blocked_reason
                .clone()
                .map(|r| view! { <p class="notice notice--warn">{r}</p> })}
        </header>
        {plan.map(|(id, title)| view! {
            <section class="card plan-waiting" data-testid="plan-awaiting-review">
                <h2 class="card__title">"Plan awaiting review"</h2>
                <p>
                    {format!("{title} finished planning. Its steps start once a person approves the plan; sending it back asks for a revision.")}
                </p>
                <a class="button button--primary" href=format!("/tasks/{id}")>"Review the plan"</a>
            </section>
        })}
        <ProgressCard progress=progress status=status />
    }
}
