//! The queue a runner claims from: a team's pending tasks, and whether each may start now —
//! not before its start time, not while its mission is paused or held, and only once every
//! dependency finished (buildd-core's `dependency_satisfied`).

use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::tasks::{TaskRow, TASK_COLUMNS, TASK_FROM};
use buildd_core::dependencies::dependency_satisfied;
use buildd_core::TaskStatus;
use std::collections::{HashMap, HashSet};

/// Why a pending task may or may not be claimed now.
pub enum Readiness {
    Ready,
    /// Its start time has not come.
    Deferred,
    /// Its mission is paused, archived, out of budget or held.
    Paused,
    /// A dependency has not finished, or left a PR open.
    Blocked,
}

/// Pending tasks in claim order, with what decides whether each may start.
pub struct Queue {
    pub candidates: Vec<TaskRow>,
    gates: HashMap<String, bool>,
    paused: HashSet<String>,
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
        let candidates: Vec<TaskRow> = sqlx::query_as(&format!(
            "SELECT {TASK_COLUMNS} FROM {TASK_FROM} WHERE t.team_id = ?1 AND t.status = 'pending' \
             AND (?2 IS NULL OR t.workspace_id = ?2) AND (?3 IS NULL OR t.id = ?3) \
             ORDER BY t.priority DESC, t.created_at ASC"
        ))
        .bind(team_id)
        .bind(workspace_id)
        .bind(task_id)
        .fetch_all(&mut **tx)
        .await?;
        let gates = dependency_gates(tx, team_id, &candidates).await?;
        let paused = paused_missions(tx, team_id).await?;
        Ok(Self {
            candidates,
            gates,
            paused,
        })
    }

    /// Whether `task` may be claimed at `at`.
    pub fn readiness(&self, task: &TaskRow, at: &str) -> Readiness {
        if task.start_at.as_deref().is_some_and(|s| s > at) {
            Readiness::Deferred
        } else if task
            .mission_id
            .as_ref()
            .is_some_and(|m| self.paused.contains(m))
        {
            Readiness::Paused
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
    let rows: Vec<(String, String, bool)> = sqlx::query_as(
        "SELECT d.id, d.status, EXISTS (SELECT 1 FROM workers w WHERE w.task_id = d.id \
           AND w.pr_url IS NOT NULL AND w.merged_at IS NULL \
           AND COALESCE(w.pr_lifecycle_status, '') NOT IN ('merged', 'closed')) \
         FROM tasks d WHERE d.team_id = ? AND d.id IN (SELECT value FROM json_each(?))",
    )
    .bind(team_id)
    .bind(serde_json::to_string(&ids)?)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, status, open_pr)| {
            let ok = dependency_satisfied(&TaskStatus::parse(&status), open_pr);
            (id, ok)
        })
        .collect())
}

/// Missions whose tasks wait: paused, archived, or held before their start.
async fn paused_missions(tx: &mut Tx, team_id: &str) -> ApiResult<HashSet<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT id FROM missions WHERE team_id = ? \
         AND (status IN ('paused', 'archived', 'budget_exhausted') OR is_held = 1)",
    )
    .bind(team_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}
