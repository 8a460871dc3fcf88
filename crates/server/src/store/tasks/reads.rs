//! Finding tasks: by id, a mission's organizer run in flight, a plan's
//! children and the claims whose lease ran out.

use super::row::{TaskRow, TASK_COLUMNS, TASK_FROM};
use crate::db::sql;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use buildd_core::TaskStatus;
use serde_json::Value;

/// The task `id` of the caller's team; another team's task is "not found".
pub async fn find_task(tx: &mut Tx, team_id: &str, id: &str) -> ApiResult<TaskRow> {
    team_task(tx, team_id, id, "").await
}

/// The task `id` of the caller's team, as [`find_task`], held until the transaction ends
/// (the hold of `turns::hold_task`) in the same statement on Postgres: a write that decides
/// from the task reads it as the last write to it left it. SQLite's one writer needs no hold.
pub async fn find_task_held(tx: &mut Tx, team_id: &str, id: &str) -> ApiResult<TaskRow> {
    team_task(tx, team_id, id, " FOR NO KEY UPDATE OF t").await
}

/// The task `id` of team `team_id`, with `hold` after the statement on Postgres.
async fn team_task(tx: &mut Tx, team_id: &str, id: &str, hold: &str) -> ApiResult<TaskRow> {
    let select = format!("SELECT {TASK_COLUMNS} FROM {TASK_FROM} WHERE t.id = ? AND t.team_id = ?");
    let postgres = format!("{select}{hold}");
    sql::query_as(&select)
        .postgres(postgres)
        .bind(id)
        .bind(team_id)
        .fetch_optional(tx)
        .await?
        .ok_or(ApiError::NotFound("Task not found"))
}

/// The task `id`, whatever its team: for workflows that start from a row already scoped.
pub async fn task_by_id(tx: &mut Tx, id: &str) -> ApiResult<Option<TaskRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {TASK_COLUMNS} FROM {TASK_FROM} WHERE t.id = ?"
    ))
    .bind(id)
    .fetch_optional(tx)
    .await?)
}

/// The task `id` that a workflow already holds a reference to; gone is a fault.
pub async fn existing_task(tx: &mut Tx, id: &str) -> ApiResult<TaskRow> {
    task_by_id(tx, id)
        .await?
        .ok_or_else(|| ApiError::Internal(format!("task {id} vanished")))
}

/// The mission's organizer run in flight (the database allows one at a time).
pub async fn planning_in_flight(tx: &mut Tx, mission_id: &str) -> ApiResult<Option<TaskRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {TASK_COLUMNS} FROM {TASK_FROM} WHERE t.mission_id = ? AND t.mode = 'planning' \
         AND t.status IN ('pending', 'assigned', 'in_progress')"
    ))
    .bind(mission_id)
    .fetch_optional(tx)
    .await?)
}

/// How many tasks name `parent_id` as their parent.
pub async fn child_count(tx: &mut Tx, parent_id: &str) -> ApiResult<i64> {
    let (children,): (i64,) = sql::query_as("SELECT COUNT(*) FROM tasks WHERE parent_task_id = ?")
        .bind(parent_id)
        .fetch_one(tx)
        .await?;
    Ok(children)
}

/// A child of a plan, as its aggregation gathers it.
#[derive(sqlx::FromRow)]
pub struct ChildTask {
    pub id: String,
    pub title: String,
    pub status: String,
    pub result: Option<String>,
    pub context: String,
    pub created_at: String,
}

impl ChildTask {
    /// The task that gathers its siblings' results.
    pub fn is_aggregator(&self) -> bool {
        serde_json::from_str::<Value>(&self.context)
            .ok()
            .and_then(|c| c.get("aggregation").and_then(Value::as_bool))
            .unwrap_or(false)
    }

    pub fn status(&self) -> TaskStatus {
        TaskStatus::parse(&self.status)
    }
}

/// The children of `parent_id`, oldest first.
pub async fn children(tx: &mut Tx, parent_id: &str) -> ApiResult<Vec<ChildTask>> {
    Ok(sql::query_as(
        "SELECT id, title, status, result, context, created_at FROM tasks \
         WHERE parent_task_id = ? ORDER BY created_at, id",
    )
    .bind(parent_id)
    .fetch_all(tx)
    .await?)
}

/// How many tasks of the mission have not finished.
pub async fn open_count_in_mission(tx: &mut Tx, mission_id: &str) -> ApiResult<i64> {
    let (open,): (i64,) = sql::query_as(
        "SELECT COUNT(*) FROM tasks WHERE mission_id = ? \
         AND status NOT IN (SELECT value FROM json_each(?))",
    )
    .bind(mission_id)
    .bind(super::status::terminal_statuses())
    .fetch_one(tx)
    .await?;
    Ok(open)
}

/// A claim whose lease ran out.
#[derive(sqlx::FromRow)]
pub struct ExpiredClaim {
    pub id: String,
    pub team_id: String,
    pub mission_id: Option<String>,
    pub title: String,
    /// The lease as read: the requeue happens only while it is still the one.
    pub expires_at: String,
}

/// Every claimed task, of any team, whose lease ended before `at`.
pub async fn expired_claims(tx: &mut Tx, at: &str) -> ApiResult<Vec<ExpiredClaim>> {
    Ok(sql::query_as(
        "SELECT id, team_id, mission_id, title, expires_at FROM tasks \
         WHERE status IN ('assigned', 'in_progress') AND expires_at IS NOT NULL \
           AND expires_at < ?",
    )
    .bind(at)
    .fetch_all(tx)
    .await?)
}

/// Whether task `id` is one of mission `mission_id`'s.
pub async fn is_in_mission(tx: &mut Tx, id: &str, mission_id: &str) -> ApiResult<bool> {
    let (found,): (i64,) =
        sql::query_as("SELECT COUNT(*) FROM tasks WHERE id = ? AND mission_id = ?")
            .bind(id)
            .bind(mission_id)
            .fetch_one(tx)
            .await?;
    Ok(found > 0)
}
