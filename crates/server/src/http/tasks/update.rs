//! `PATCH /api/tasks/{id}`: a person edits a task, or moves its status.

use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use crate::flows::outcomes::{requeue_blocked, task_finished};
use crate::flows::task_checks::{check_dependencies, check_no_cycle, reopen_mission};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::find_mission;
use crate::store::tasks::{self, find_task, TaskPatch};
use crate::store::workers::{self, fail_unfinished};
use crate::time::now;
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
    const SETTABLE: [TaskStatus; 4] = [
        TaskStatus::Pending,
        TaskStatus::Completed,
        TaskStatus::Failed,
        TaskStatus::Cancelled,
    ];
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

    let mut tx = state.db.write().await?;
    let row = find_task(&mut tx, &caller.team_id, &id).await?;
    if let Field::Set(m) = &mission_id {
        find_mission(&mut tx, &caller.team_id, m).await?;
    }
    if let Field::Set(deps) = &depends_on {
        check_dependencies(&mut tx, &caller.team_id, &row.workspace_id, &id, deps).await?;
        check_no_cycle(&mut tx, &caller.team_id, &id, deps).await?;
    }
    let ends = matches!(status, Some(TaskStatus::Completed | TaskStatus::Failed));
    if ends && workers::live_count(&mut tx, &id).await? > 0 {
        return Err(ApiError::Conflict(
            "Cannot change status directly — task has an active worker. \
             Use complete_task via the worker instead."
                .into(),
        ));
    }
    let at = now();
    let patch = TaskPatch {
        title,
        description: description.patch(),
        priority: priority.value(),
        role_slug: role_slug.patch(),
        mission_id: mission_id.clone().patch(),
        depends_on: depends_on.value(),
        status: status.clone(),
    };
    let clear_claim = patch.requeues();
    tasks::update(&mut tx, &id, &patch, &at).await?;
    if status.as_ref().is_some_and(TaskStatus::is_terminal) && !row.status().is_terminal() {
        task_finished(&mut tx, &caller.team_id, &id).await?;
    }
    if status == Some(TaskStatus::Pending) && row.status() == TaskStatus::Failed {
        requeue_blocked(&mut tx, &caller.team_id, &id).await?;
    }
    // Back in the queue: a runner still on it has lost it, and its reports are refused.
    if clear_claim {
        fail_unfinished(&mut tx, &id, "Returned to the queue by a person", &at).await?;
    }
    let updated = find_task(&mut tx, &caller.team_id, &id).await?;
    if let Some(m) = &updated.mission_id {
        let reopens = status.as_ref().is_some_and(|s| !s.is_terminal())
            || matches!(mission_id, Field::Set(_));
        if reopens {
            reopen_mission(&mut tx, m, &at).await?;
        }
    }
    tx.commit().await?;
    Ok(Json(updated.to_task()))
}
