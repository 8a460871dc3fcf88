//! A mission's row on the command center.

use crate::components::shared::health_chip::HealthChip;
use crate::components::shared::progress_bar::ProgressBar;
use buildd_core::client::ClientMission;
use buildd_core::command_center::stuck_on_failure;
use buildd_core::completion::completion_brief;
use buildd_core::grouping::health;
use buildd_core::plan::{plan_in_review, planned_nothing};
use buildd_core::planning_loop::LoopStep;
use buildd_core::{compute_progress, TaskMode};
use leptos::prelude::*;

/// One mission's row: its step in the loop, health, progress and what it waits for.
#[component]
pub fn MissionRow(mission: ClientMission, step: LoopStep, selected: Signal<bool>) -> impl IntoView {
    let progress = compute_progress(&mission.status, &mission.tasks);
    let health = health(&mission, &progress);
    let waits = match step {
        LoopStep::Brief => "waits for its first organizer run".to_string(),
        LoopStep::Loop if plan_in_review(&mission.tasks).is_some() => {
            "a plan waits for your review".to_string()
        }
        LoopStep::Loop
            if mission
                .tasks
                .iter()
                .any(|t| t.mode == TaskMode::Planning && !t.status.is_terminal()) =>
        {
            "the organizer is planning".to_string()
        }
        LoopStep::Loop if stuck_on_failure(&mission, &progress) => {
            "work failed and nothing will retry it: waits on you".to_string()
        }
        LoopStep::Loop if planned_nothing(&mission.tasks).is_some() => {
            "planned nothing; waits for a note, Run or a check-in".to_string()
        }
        LoopStep::Loop => "waits for the organizer's next run".to_string(),
        _ => completion_brief(
            &mission.orchestration_mode,
            mission.requires_review,
            &mission.tasks,
        ),
    };
    let strip = LoopStep::ALL
        .iter()
        .map(|s| {
            view! {
                <span class="step" class:step--current=*s == step class:step--past=*s < step>
                    {format!("{} {}", s.number(), s.label())}
                </span>
            }
        })
        .collect_view();
    let href = format!("/missions/{}", mission.id);
    let row_href = href.clone();
    view! {
        <li class="command-row" class:command-row--selected=move || selected.get()
            aria-current=move || selected.get().then_some("true")
            data-testid="command-row" data-href=row_href>
            <div class="command-row__head">
                <a href=href class="command-row__title">{mission.title.clone()}</a>
                <span class="command-row__chips">
                    // How it is worked, apart from its health: interactive is never "blocked".
                    <span class="chip chip--outline" data-testid="mission-mode">{mission.mode.clone()}</span>
                    <HealthChip health=health />
                </span>
            </div>
            <div class="steps" data-testid="step-strip" aria-label=format!("Step {} of 5: {}", step.number(), step.label())>
                {strip}
            </div>
            {(progress.total_tasks > 0).then(|| view! { <ProgressBar progress=progress /> })}
            <p class="muted small" data-testid="waits-for">{waits}</p>
        </li>
    }
}
