//! Where a planning task is in its life, for the banner on its page. Derived from the task
//! and its mission's tasks each time; nothing here is stored.

use crate::client::ClientTask;
use crate::enums::{TaskMode, TaskStatus, WorkerStatus};
use crate::mission::MissionTask;
use crate::plan::finished_unfiled;
pub use crate::task::PlanRejection;

#[derive(Clone, Debug, PartialEq)]
pub enum PlanPhase {
    /// Pending or claimed, no agent working yet.
    WaitingForWorker,
    /// An agent is producing the plan.
    Generating,
    /// Completed with a plan that waits for a person.
    InReview,
    /// Approved: the children exist.
    Approved {
        children: usize,
    },
    /// Rejected with feedback; the revision replaces it.
    Rejected {
        feedback: String,
        revision: Option<String>,
    },
    /// A later planning run of the mission replaced this plan before anyone reviewed it.
    Replaced,
    /// Completed without steps: the organizer found nothing to dispatch.
    NoSteps,
    /// Failed, with the reason when known (a run without a validated plan is force-failed).
    Failed {
        error: Option<String>,
    },
    Cancelled,
}

fn has_steps(task: &ClientTask) -> bool {
    task.result
        .as_ref()
        .and_then(|r| r.structured_output.as_ref())
        .and_then(|o| o.get("plan"))
        .and_then(|p| p.as_array())
        .is_some_and(|p| !p.is_empty())
}

/// The phase of planning task `task`; `None` for an execution task. `tasks` are its
/// mission's tasks (empty when the task has no mission).
pub fn plan_phase(task: &ClientTask, tasks: &[MissionTask]) -> Option<PlanPhase> {
    if task.mode != TaskMode::Planning {
        return None;
    }
    let children = tasks
        .iter()
        .filter(|t| t.parent_task_id.as_deref() == Some(task.id.as_str()))
        .count();
    let working = tasks.iter().find(|t| t.id == task.id).is_some_and(|t| {
        t.workers
            .iter()
            .any(|w| matches!(w.status, WorkerStatus::Running | WorkerStatus::WaitingInput))
    });
    Some(match task.status {
        TaskStatus::Pending | TaskStatus::Assigned | TaskStatus::InProgress if working => {
            PlanPhase::Generating
        }
        TaskStatus::Pending | TaskStatus::Assigned | TaskStatus::InProgress => {
            PlanPhase::WaitingForWorker
        }
        TaskStatus::Failed => PlanPhase::Failed {
            error: task.result.as_ref().and_then(|r| r.error.clone()),
        },
        TaskStatus::Cancelled => PlanPhase::Cancelled,
        _ => finished_phase(task, tasks, children),
    })
}

fn finished_phase(task: &ClientTask, tasks: &[MissionTask], children: usize) -> PlanPhase {
    if children > 0 {
        return PlanPhase::Approved { children };
    }
    if let Some(r) = task.context.as_ref().and_then(|c| c.plan_rejection.clone()) {
        return PlanPhase::Rejected {
            feedback: r.feedback,
            revision: r.revision_task_id,
        };
    }
    if !has_steps(task) {
        PlanPhase::NoSteps
    } else if tasks.is_empty() || finished_unfiled(tasks).is_some_and(|t| t.id == task.id) {
        PlanPhase::InReview
    } else {
        PlanPhase::Replaced
    }
}

#[cfg(test)]
mod tests;
