//! An approved plan's steps against what became of them (buildd-core's `plan_outcome`),
//! owned row by row, and how a row's parts read.

use buildd_core::client::ClientMission;
use buildd_core::money::Usd;
use buildd_core::plan_outcome::{plan_outcome, StepState};
use buildd_core::plan_output::PlanStep;
use buildd_core::task_prs::TaskPrStage;
use buildd_core::TaskStatus;

/// One step's row, owned, so a row re-renders only when its step's outcome changes.
#[derive(Clone, Debug, PartialEq)]
pub struct StepRow {
    pub step_ref: String,
    pub title: String,
    pub state: StepState,
    pub task: Option<(String, TaskStatus)>,
    pub attempts: usize,
    pub seconds: Option<i64>,
    pub cost: Option<Usd>,
    pub pr: Option<(String, TaskPrStage)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tracked {
    pub rows: Vec<StepRow>,
    pub summary: String,
    /// Id and title of each task filed after the plan.
    pub added_after: Vec<(String, String)>,
}

pub fn track(plan_id: &str, steps: &[PlanStep], mission: Option<&ClientMission>) -> Tracked {
    let tasks = mission.map_or(&[][..], |m| &m.tasks[..]);
    let outcome = plan_outcome(plan_id, steps, tasks);
    Tracked {
        rows: outcome
            .steps
            .iter()
            .map(|s| StepRow {
                step_ref: s.step.step_ref.clone(),
                title: s.step.title.clone(),
                state: s.state,
                task: s.task.map(|t| (t.id.clone(), t.status.clone())),
                attempts: s.attempts,
                seconds: s.seconds,
                cost: s.cost,
                pr: s.pr.clone(),
            })
            .collect(),
        summary: outcome.summary(),
        added_after: outcome
            .added_after
            .iter()
            .map(|t| (t.id.clone(), t.title.clone()))
            .collect(),
    }
}

/// "#4" for a GitHub PR's address, else the address.
pub fn pr_name(url: &str) -> String {
    match url.rsplit_once("/pull/") {
        Some((_, n)) => format!("#{n}"),
        None => url.to_string(),
    }
}

/// The state badge's tone.
pub fn state_tone(state: StepState) -> &'static str {
    match state {
        StepState::Done => "ok",
        StepState::InFlight => "info",
        StepState::Failed => "bad",
        StepState::NotStarted | StepState::Cancelled => "neutral",
    }
}
