//! A mission's row on the command center: its step in the loop, health, progress, what it
//! waits for and what it spent of its budget, kept up to date in place.

use crate::components::shared::health_chip::HealthChip;
use crate::components::shared::progress_bar::ProgressBar;
use crate::state::refresh::PolledRead;
use buildd_core::budget::spend_brief_of;
use buildd_core::client::ClientMission;
use buildd_core::command_center::stuck_on_failure;
use buildd_core::completion::completion_brief;
use buildd_core::grouping::{health, Health};
use buildd_core::plan::{plan_in_review, planned_nothing};
use buildd_core::planning_loop::{loop_step, LoopStep};
use buildd_core::{compute_progress, MissionProgress, TaskMode};
use leptos::prelude::*;

/// What the mission waits for, at `step`.
fn waits_for(mission: &ClientMission, step: LoopStep, progress: &MissionProgress) -> String {
    match step {
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
        LoopStep::Loop if stuck_on_failure(mission, progress) => {
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
    }
}

/// The class of `step`'s place in the strip of a mission at `at`.
fn step_class(step: LoopStep, at: LoopStep) -> &'static str {
    match step.cmp(&at) {
        std::cmp::Ordering::Less => "step step--past",
        std::cmp::Ordering::Equal => "step step--current",
        std::cmp::Ordering::Greater => "step",
    }
}

/// What a row shows of its mission.
#[derive(Clone, PartialEq)]
struct Row {
    title: String,
    mode: String,
    step: LoopStep,
    health: Health,
    progress: MissionProgress,
    waits: String,
    /// "$1.40 of $5.00 spent", when there is something to say.
    spend: Option<String>,
}

fn row(mission: &ClientMission) -> Row {
    let step = loop_step(&mission.tasks);
    let progress = compute_progress(&mission.status, &mission.tasks);
    Row {
        title: mission.title.clone(),
        mode: mission.mode.clone(),
        step,
        health: health(mission, &progress),
        waits: waits_for(mission, step, &progress),
        spend: spend_brief_of(
            mission.spend_usd.as_deref(),
            mission.cost_budget_usd.as_deref(),
        ),
        progress,
    }
}

/// Mission `id` of `missions`. Its row is drawn again in place when what it shows changes.
#[component]
pub fn MissionRow(
    id: String,
    missions: PolledRead<Vec<ClientMission>>,
    selected: Signal<bool>,
) -> impl IntoView {
    let href = format!("/missions/{id}");
    let shown = Memo::new(move |_| {
        missions
            .with_data(|all| all.iter().find(|m| m.id == id).map(row))
            .flatten()
    });
    let title_href = href.clone();
    let content = move || {
        shown.get().map(|r| {
            let strip = LoopStep::ALL
                .iter()
                .map(|s| {
                    let label = format!("{} {}", s.number(), s.label());
                    view! { <span class=step_class(*s, r.step)>{label}</span> }
                })
                .collect_view();
            view! {
                <div class="command-row__head">
                    <a href=title_href.clone() class="command-row__title">
                        {r.title}
                    </a>
                    <span class="command-row__chips">
                        // How it is worked, apart from its health: interactive is never "blocked".
                        <span class="chip chip--outline" data-testid="mission-mode">
                            {r.mode}
                        </span>
                        <HealthChip health=r.health />
                        {r
                            .spend
                            .map(|s| {
                                view! {
                                    <span class="muted small" data-testid="mission-spend">
                                        {s}
                                    </span>
                                }
                            })}
                    </span>
                </div>
                <div
                    class="steps"
                    data-testid="step-strip"
                    role="img"
                    aria-label=format!("Step {} of 5: {}", r.step.number(), r.step.label())
                >
                    {strip}
                </div>
                {(r.progress.total_tasks > 0)
                    .then(|| view! { <ProgressBar progress=r.progress /> })}
                <p class="muted small" data-testid="waits-for">
                    {r.waits}
                </p>
            }
        })
    };
    view! {
        <li
            class=move || {
                if selected.get() { "command-row command-row--selected" } else { "command-row" }
            }
            aria-current=move || selected.get().then_some("true")
            data-testid="command-row"
            data-href=href
        >
            {content}
        </li>
    }
}
