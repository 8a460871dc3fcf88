//! Finding workers: by id within a team, and a task's workers.

use super::row::{WorkerRow, WORKER_COLUMNS, WORKER_ORDER};
use crate::db::sql;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};

/// The worker `id` of the caller's team; another team's worker is "not found".
pub async fn find_worker(tx: &mut Tx, team_id: &str, id: &str) -> ApiResult<WorkerRow> {
    sql::query_as(&format!(
        "SELECT {WORKER_COLUMNS} FROM workers w JOIN tasks t ON t.id = w.task_id \
         WHERE w.id = ? AND t.team_id = ?"
    ))
    .bind(id)
    .bind(team_id)
    .fetch_optional(tx)
    .await?
    .ok_or(ApiError::NotFound("Worker not found"))
}

/// The workers of task `task_id`, newest first.
pub async fn of_task(tx: &mut Tx, task_id: &str) -> ApiResult<Vec<WorkerRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {WORKER_COLUMNS} FROM workers w WHERE w.task_id = ? ORDER BY {WORKER_ORDER}"
    ))
    .bind(task_id)
    .fetch_all(tx)
    .await?)
}

/// The newest worker of task `task_id`.
pub async fn newest_of_task(tx: &mut Tx, task_id: &str) -> ApiResult<Option<WorkerRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {WORKER_COLUMNS} FROM workers w WHERE w.task_id = ? ORDER BY {WORKER_ORDER} LIMIT 1"
    ))
    .bind(task_id)
    .fetch_optional(tx)
    .await?)
}

/// How many workers of task `task_id` an agent is working in now.
pub async fn live_count(tx: &mut Tx, task_id: &str) -> ApiResult<i64> {
    let (live,): (i64,) = sql::query_as(
        "SELECT COUNT(*) FROM workers WHERE task_id = ? \
         AND status IN ('running', 'waiting_input')",
    )
    .bind(task_id)
    .fetch_one(tx)
    .await?;
    Ok(live)
}

/// The team's agents waiting on a person: their task and question, oldest wait first. A
/// question of a task that completed or was stopped is no longer asked.
pub async fn waiting_of_team(tx: &mut Tx, team_id: &str) -> ApiResult<Vec<Waiting>> {
    Ok(sql::query_as(
        "SELECT t.id AS task_id, t.title, t.workspace_id, t.mission_id, w.id AS worker_id, \
         w.waiting_for, w.updated_at, w.status \
         FROM workers w INDEXED BY workers_waiting JOIN tasks t ON t.id = w.task_id \
         WHERE w.waiting_for IS NOT NULL AND t.team_id = ? \
         AND t.status NOT IN ('completed', 'cancelled') \
         ORDER BY w.updated_at, w.id",
    )
    .bind(team_id)
    .fetch_all(tx)
    .await?)
}

/// A waiting agent as [`waiting_of_team`] reads it.
#[derive(sqlx::FromRow)]
pub struct Waiting {
    pub task_id: String,
    pub title: String,
    pub workspace_id: String,
    pub mission_id: Option<String>,
    pub worker_id: String,
    pub waiting_for: String,
    pub updated_at: String,
    pub status: String,
}
