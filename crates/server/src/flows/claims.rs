//! The queue a runner claims from: a team's pending tasks, and whether each may start now —
//! not before its start time, not while its mission is paused, held or out of budget, and
//! only once every dependency finished (buildd-core's `dependency_satisfied`).

use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::missions::stopped_missions;
use crate::store::tasks::{dependency_states, pending_queue, TaskRow};
use buildd_core::dependencies::dependency_satisfied;
use std::collections::{HashMap, HashSet};

/// Why a pending task may or may not be claimed now.
pub enum Readiness {
    Ready,
    /// Its start time has not come.
    Deferred,
    /// Its mission is paused, archived or held.
    Paused,
    /// Its mission spent its budget.
    OutOfBudget,
    /// A dependency has not finished, or left a PR open.
    Blocked,
}

/// Pending tasks in claim order, with what decides whether each may start.
pub struct Queue {
    pub candidates: Vec<TaskRow>,
    gates: HashMap<String, bool>,
    /// Missions whose tasks may not start, each with whether only its budget stops them.
    stopped: HashMap<String, bool>,
}

impl Queue {
    /// The team's pending tasks, in `workspace_id` and only `task_id` when given, highest
    /// priority first, then oldest.
    pub async fn read(
        tx: &mut Tx,
        team_id: &str,
        workspace_id: Option<&str>,
        task_id: Option<&str>,
    ) -> ApiResult<Self> {
        let candidates = pending_queue(tx, team_id, workspace_id, task_id).await?;
        let gates = dependency_gates(tx, team_id, &candidates).await?;
        let stopped = stopped_missions(tx, team_id).await?;
        Ok(Self {
            candidates,
            gates,
            stopped,
        })
    }

    /// Whether `task` may be claimed at `at`.
    pub fn readiness(&self, task: &TaskRow, at: &str) -> Readiness {
        let stopped = task.mission_id.as_ref().and_then(|m| self.stopped.get(m));
        if task.start_at.as_deref().is_some_and(|s| s > at) {
            Readiness::Deferred
        } else if let Some(&by_budget) = stopped {
            if by_budget {
                Readiness::OutOfBudget
            } else {
                Readiness::Paused
            }
        } else if task
            .depends_on()
            .iter()
            .all(|d| self.gates.get(d).copied().unwrap_or(false))
        {
            Readiness::Ready
        } else {
            Readiness::Blocked
        }
    }

    /// How many candidates may be claimed at `at`.
    pub fn ready_count(&self, at: &str) -> usize {
        self.candidates
            .iter()
            .filter(|t| matches!(self.readiness(t, at), Readiness::Ready))
            .count()
    }
}

/// For every dependency of the candidates: may its dependents start?
async fn dependency_gates(
    tx: &mut Tx,
    team_id: &str,
    candidates: &[TaskRow],
) -> ApiResult<HashMap<String, bool>> {
    let ids: HashSet<String> = candidates.iter().flat_map(TaskRow::depends_on).collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(dependency_states(tx, team_id, &ids)
        .await?
        .into_iter()
        .map(|d| (d.id, dependency_satisfied(&d.status, d.open_pr)))
        .collect())
}
