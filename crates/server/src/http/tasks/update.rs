//! `PATCH /api/tasks/{id}`: a person edits a task, or moves its status.

use crate::body::Body;
use crate::db::work;
use crate::error::ApiResult;
use crate::flows::task_edits::edit;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::tasks::{find_task, Stop, TaskPatch};
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::requests::tasks::TaskPatch as Request;
use buildd_core::{Task, TaskStatus};

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(request): Body<Request>,
) -> ApiResult<Json<Task>> {
    caller.require_admin()?;
    let patch = TaskPatch {
        title: request.title(),
        description: request.description.clone().into_update(),
        priority: request.priority.clone().value(),
        role_slug: request.role_slug.clone().into_update(),
        mission_id: request.mission_id.clone().into_update(),
        depends_on: request.depends_on.clone().value(),
        status: request.status.clone(),
        // Ending it as cancelled is a stop: who did it is the key's to say.
        stop: (request.status == Some(TaskStatus::Cancelled)).then(|| Stop {
            by: caller.name.clone(),
            reason: request.reason.clone().filter(|r| !r.trim().is_empty()),
        }),
    };
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let row = find_task(tx, &caller.team_id, &id).await?;
                let updated = edit(tx, &row, &patch).await?;
                Ok(Json(updated.to_task()))
            }),
        )
        .await
}
