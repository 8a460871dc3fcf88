//! `PATCH /api/tasks/{id}`: a person edits a task, or moves its status.

use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use crate::flows::task_edits::edit;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::tasks::{find_task, TaskPatch};
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::{Task, TaskStatus};

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: JsonObject,
) -> ApiResult<Json<Task>> {
    caller.require_admin()?;
    let patch = read_patch(&body)?;
    state
        .db
        .transact(caller.lane(), move |tx| {
            Box::pin(async move {
                let row = find_task(tx, &caller.team_id, &id).await?;
                let updated = edit(tx, &row, &patch).await?;
                Ok(Json(updated.to_task()))
            })
        })
        .await
}

/// Statuses a person may set: back to the queue, or an end.
const SETTABLE: [TaskStatus; 4] = [
    TaskStatus::Pending,
    TaskStatus::Completed,
    TaskStatus::Failed,
    TaskStatus::Cancelled,
];

/// The edit a PATCH body asks for, read field by field in the order refusals name them.
fn read_patch(body: &JsonObject) -> ApiResult<TaskPatch> {
    let title = body.non_blank_string("title")?;
    let description = body.string("description")?;
    let priority = body.integer("priority")?;
    if matches!(priority, Field::Null) {
        return Err(ApiError::bad("priority must be an integer"));
    }
    let role_slug = body.string("roleSlug")?;
    let mission_id = body.string("missionId")?;
    let depends_on = body.string_array("dependsOn")?;
    if matches!(depends_on, Field::Null) {
        return Err(ApiError::bad("dependsOn must be an array of task IDs"));
    }
    let status = match body.string("status")? {
        Field::Absent => None,
        Field::Set(s) if TaskStatus::known(&s).is_some_and(|s| SETTABLE.contains(&s)) => {
            Some(TaskStatus::parse(&s))
        }
        _ => {
            return Err(ApiError::bad(
                "Invalid status. Allowed: pending, completed, failed, cancelled",
            ))
        }
    };
    Ok(TaskPatch {
        title,
        description: description.patch(),
        priority: priority.value(),
        role_slug: role_slug.patch(),
        mission_id: mission_id.patch(),
        depends_on: depends_on.value(),
        status,
    })
}
