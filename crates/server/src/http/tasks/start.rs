//! `POST /api/tasks/{id}/start {forceOverride?}`: a person runs a pending task now. One
//! waiting on its start time starts only with `forceOverride`, as Buildd answers (422 with
//! its `gateReason`), so a start time is never passed over by accident.

use crate::body::Body;
use crate::db::work;
use crate::error::{ApiError, ApiResult};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::tasks::{find_task, start_now};
use crate::time::now;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use buildd_core::requests::tasks::{StartTask, TaskStarted};
use buildd_core::TaskStatus;
use serde_json::json;

pub async fn start(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(request): Body<StartTask>,
) -> ApiResult<Json<TaskStarted>> {
    caller.require_admin()?;
    let force = request.force_override == Some(true);
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let task = find_task(tx, &caller.team_id, &id).await?;
                if task.status() != TaskStatus::Pending {
                    return Err(ApiError::Detailed(
                        StatusCode::BAD_REQUEST,
                        json!({"error": format!(
                            "Cannot start task with status: {}. Only pending tasks can be started.",
                            task.status
                        ), "status": task.status}),
                    ));
                }
                let at = now();
                if let Some(start_at) = task.start_at.as_deref().filter(|s| *s > at.as_str()) {
                    if !force {
                        return Err(ApiError::Detailed(
                            StatusCode::UNPROCESSABLE_ENTITY,
                            json!({"error": format!("Task is deferred until {start_at}"),
                                   "gateReason": "deferred_start", "startAt": start_at,
                                   "canForce": true}),
                        ));
                    }
                }
                start_now(tx, &id, &at).await?;
                Ok(Json(TaskStarted {
                    started: true,
                    task_id: id,
                    target_local_ui_url: None,
                }))
            }),
        )
        .await
}
