//! What a command-center row shows of its mission: its step in the loop, health, progress,
//! what it waits for and its spend (pure, so a row is drawn again only when this changes).

use buildd_core::budget::spend_brief_of;
use buildd_core::client::ClientMission;
use buildd_core::command_center::stuck_on_failure;
use buildd_core::completion::completion_brief;
use buildd_core::grouping::{health, Health};
use buildd_core::plan::{plan_in_review, planned_nothing};
use buildd_core::planning_loop::{loop_step, LoopStep};
use buildd_core::{compute_progress, MissionProgress, TaskMode};

/// What the mission waits for, at `step`.
pub fn waits_for(mission: &ClientMission, step: LoopStep, progress: &MissionProgress) -> String {
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
pub fn step_class(step: LoopStep, at: LoopStep) -> &'static str {
    match step.cmp(&at) {
        std::cmp::Ordering::Less => "step step--past",
        std::cmp::Ordering::Equal => "step step--current",
        std::cmp::Ordering::Greater => "step",
    }
}

/// What a row shows of its mission.
#[derive(Clone, PartialEq)]
pub struct Row {
    pub title: String,
    pub mode: String,
    pub step: LoopStep,
    pub health: Health,
    pub progress: MissionProgress,
    pub waits: String,
    /// "$1.40 of $5.00 spent", when there is something to say.
    pub spend: Option<String>,
}

/// The row of `mission`.
pub fn row(mission: &ClientMission) -> Row {
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
