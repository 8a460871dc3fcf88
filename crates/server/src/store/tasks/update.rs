//! Changing a task as a person does (`PATCH`, `DELETE`), and recording a plan's rejection.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::now;
use buildd_core::TaskStatus;
use serde_json::Value;

/// What a person changes on a task; `None` leaves a field as it is, `Some(None)` clears it.
#[derive(Default)]
pub struct TaskPatch {
    pub title: Option<String>,
    pub description: Option<Option<String>>,
    pub priority: Option<i64>,
    /// An empty role clears it.
    pub role_slug: Option<Option<String>>,
    /// An empty id takes the task out of its mission.
    pub mission_id: Option<Option<String>>,
    pub depends_on: Option<Vec<String>>,
    pub status: Option<TaskStatus>,
    /// A person stops the task (with `status` cancelled): who, and why when they said.
    pub stop: Option<Stop>,
}

/// Who stopped a task, and why.
#[derive(Clone)]
pub struct Stop {
    pub by: String,
    pub reason: Option<String>,
}

impl TaskPatch {
    /// Back to pending: the claim goes, whoever held it.
    pub fn requeues(&self) -> bool {
        self.status == Some(TaskStatus::Pending)
    }
}

/// Writes `patch` onto task `id`.
pub async fn update(tx: &mut Tx, id: &str, patch: &TaskPatch, at: &str) -> ApiResult<()> {
    sql::query(
        "UPDATE tasks SET \
           title = COALESCE(?1, title), \
           description = CASE WHEN ?2 <> 0 THEN ?3 ELSE description END, \
           priority = COALESCE(?4, priority), \
           role_slug = CASE WHEN ?5 <> 0 THEN NULLIF(?6, '') ELSE role_slug END, \
           mission_id = CASE WHEN ?7 <> 0 THEN NULLIF(?8, '') ELSE mission_id END, \
           depends_on = COALESCE(?9, depends_on), \
           status = COALESCE(?10, status), \
           claimed_by = CASE WHEN ?11 <> 0 THEN NULL ELSE claimed_by END, \
           claimed_at = CASE WHEN ?11 <> 0 THEN NULL ELSE claimed_at END, \
           expires_at = CASE WHEN ?11 <> 0 THEN NULL ELSE expires_at END, \
           updated_at = ?12 \
         WHERE id = ?13",
    )
    .bind(&patch.title)
    .bind(patch.description.is_some())
    .bind(patch.description.clone().flatten())
    .bind(patch.priority)
    .bind(patch.role_slug.is_some())
    .bind(patch.role_slug.clone().flatten())
    .bind(patch.mission_id.is_some())
    .bind(patch.mission_id.clone().flatten())
    .bind(
        patch
            .depends_on
            .as_ref()
            .map(serde_json::to_string)
            .transpose()?,
    )
    .bind(patch.status.as_ref().map(TaskStatus::as_str))
    .bind(patch.requeues())
    .bind(at)
    .bind(id)
    .execute(tx)
    .await?;
    if let Some(stop) = &patch.stop {
        sql::query("UPDATE tasks SET stopped_by = ?, stopped_at = ?, stop_reason = ? WHERE id = ?")
            .bind(&stop.by)
            .bind(at)
            .bind(&stop.reason)
            .bind(id)
            .execute(tx)
            .await?;
    }
    Ok(())
}

/// Deletes task `id` (its workers go with it); the team's tasks that depended on it stop
/// waiting for it.
pub async fn delete(tx: &mut Tx, team_id: &str, id: &str) -> ApiResult<()> {
    sql::query(
        "UPDATE tasks SET depends_on = \
           (SELECT json_group_array(d.value) FROM json_each(tasks.depends_on) d WHERE d.value <> ?1), \
         updated_at = ?2 \
         WHERE team_id = ?3 AND EXISTS (SELECT 1 FROM json_each(tasks.depends_on) d WHERE d.value = ?1)",
    )
    .postgres(
        "UPDATE tasks SET depends_on = \
           (SELECT COALESCE(json_agg(d.value), '[]')::text FROM json_each(tasks.depends_on) d \
            WHERE d.value <> ?1), \
         updated_at = ?2 \
         WHERE team_id = ?3 AND EXISTS (SELECT 1 FROM json_each(tasks.depends_on) d WHERE d.value = ?1)",
    )
    .bind(id)
    .bind(now())
    .bind(team_id)
    .execute(tx)
    .await?;
    sql::query("DELETE FROM tasks WHERE id = ?")
        .bind(id)
        .execute(tx)
        .await?;
    Ok(())
}

/// Records on planning task `id` why its plan was rejected (`context.planRejection`).
pub async fn record_plan_rejection(
    tx: &mut Tx,
    id: &str,
    rejection: &Value,
    at: &str,
) -> ApiResult<()> {
    sql::query(
        "UPDATE tasks SET context = json_set(context, '$.planRejection', json(?)), \
         updated_at = ? WHERE id = ?",
    )
    .postgres(
        "UPDATE tasks SET context = \
           jsonb_set(context::jsonb, '{planRejection}', ?::jsonb)::text, \
         updated_at = ? WHERE id = ?",
    )
    .bind(rejection.to_string())
    .bind(at)
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Task `id` may be claimed now, whatever its start time said: a person started it.
pub async fn start_now(tx: &mut Tx, id: &str, at: &str) -> ApiResult<()> {
    sql::query(
        "UPDATE tasks SET start_at = NULL, \
         context = json_set(context, '$.manualStartAt', ?1), updated_at = ?1 WHERE id = ?2",
    )
    .postgres(
        "UPDATE tasks SET start_at = NULL, \
         context = jsonb_set(context::jsonb, '{manualStartAt}', to_jsonb(?1::text))::text, \
         updated_at = ?1 WHERE id = ?2",
    )
    .bind(at)
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}
