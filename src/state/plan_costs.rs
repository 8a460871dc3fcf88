//! What a plan's forecast rests on (core's `forecast`): the cost of finished deliverables,
//! the mission's own or, when it has finished too few, its workspace's, read from the
//! mission list. The plan review panel and the mission's spend picture both ask here, so
//! they give the same estimate.

use crate::api::{self, ApiError, Connection};
use buildd_core::forecast::finished_deliverable_costs;
use buildd_core::mission::MissionTask;
use buildd_core::money::Usd;

/// A task's own cost, as the answer carries it; none reads as nothing.
pub fn cost_of(task: &MissionTask) -> Usd {
    task.cost().unwrap_or_default()
}

/// The finished deliverable costs of `tasks`, one mission's.
pub fn mission_costs(tasks: &[MissionTask]) -> Vec<Usd> {
    finished_deliverable_costs(tasks.iter(), cost_of)
}

/// The finished deliverable costs of every mission of `workspace`.
pub async fn workspace_costs(c: Connection, workspace: String) -> Result<Vec<Usd>, ApiError> {
    let list = api::missions(&c).await?;
    let tasks = list
        .missions
        .iter()
        .filter(|m| m.workspace_id.as_deref() == Some(workspace.as_str()))
        .flat_map(|m| m.tasks.iter());
    Ok(finished_deliverable_costs(tasks, cost_of))
}
