//! `POST /api/missions/{id}/run`: opens an organizer run, a planning task
//! "Mission: <title>", unless one is already in flight (the database allows one per mission).

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::mission_views::find_mission;
use crate::rows::{TASK_COLUMNS, TASK_FROM};
use crate::state::AppState;
use crate::time::{new_id, now};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use buildd_core::MissionStatus;
use serde_json::{json, Value};

pub async fn run(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    caller.require_admin()?;
    let mut tx = state.db.write().await?;
    let mission = find_mission(&mut tx, &caller.team_id, &id).await?;
    if mission.status() != MissionStatus::Active {
        return Err(ApiError::bad(format!(
            "Cannot run mission with status: {}. Only active missions can be run.",
            mission.status
        )));
    }
    let workspace = mission.workspace_id.clone().ok_or_else(|| {
        ApiError::bad("workspaceId: the mission has no workspace for its organizer to plan in")
    })?;
    let task_id = new_id();
    let at = now();
    // The partial unique index turns a second run in flight into "nothing inserted".
    let inserted = sqlx::query(
        "INSERT INTO tasks (id, team_id, workspace_id, mission_id, title, description, context, \
         mode, task_class, status, creation_source, priority, created_by_account_id, created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, 'planning', 'bookkeeping', 'pending', 'orchestrator', ?, ?, ?, ?) \
         ON CONFLICT DO NOTHING",
    )
    .bind(&task_id)
    .bind(&caller.team_id)
    .bind(&workspace)
    .bind(&id)
    .bind(format!("Mission: {}", mission.title))
    .bind("Plan the mission's next step.")
    .bind(json!({"manualRun": true, "triggerSource": "manual"}).to_string())
    .bind(mission.priority)
    .bind(&caller.account_id)
    .bind(&at)
    .bind(&at)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        > 0;
    let task: crate::rows::TaskRow = sqlx::query_as(&format!(
        "SELECT {TASK_COLUMNS} FROM {TASK_FROM} WHERE t.mission_id = ? AND t.mode = 'planning' \
         AND t.status IN ('pending', 'assigned', 'in_progress')"
    ))
    .bind(&id)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    let task = serde_json::to_value(task.to_task())?;
    Ok(if inserted {
        (StatusCode::CREATED, Json(json!({"task": task})))
    } else {
        (StatusCode::OK, Json(json!({"task": task, "deduped": true})))
    })
}
