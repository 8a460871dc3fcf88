//! `/api/tasks`: create, detail, update.

use super::caller::Caller;
use super::paging;
use super::state::AppState;
use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use crate::flows::outcomes::{requeue_blocked, task_finished};
use crate::flows::task_checks::{
    check_dependencies, check_no_cycle, reopen_mission, resolve_workspace,
};
use crate::store::missions::find_mission;
use crate::store::tasks::{self, find_task, NewTask, TaskPatch};
use crate::store::workers::{self, fail_unfinished, find_worker, WorkerRow};
use crate::store::workspaces::team_workspace;
use crate::time::now;
use axum::extract::{Path, Query, State};
use axum::Json;
use buildd_core::{
    class_for_new_task, AccountLevel, OutputRequirement, Success, Task, TaskMissionRef, TaskStatus,
};
use serde_json::{json, Value};
use std::collections::HashMap;

fn output_requirement(value: &str) -> ApiResult<OutputRequirement> {
    OutputRequirement::known(value).ok_or_else(|| {
        ApiError::bad(format!(
            "outputRequirement must be one of: {}",
            OutputRequirement::list()
        ))
    })
}

/// Where a new task says it came from; Buildd keeps these and calls anything else `api`.
const CREATION_SOURCES: [&str; 6] = ["dashboard", "api", "mcp", "github", "local_ui", "schedule"];

/// `POST /api/tasks`: any key of the team, as in Buildd (runners and agents file work with
/// worker keys); an agent names its worker in `createdByWorkerId`, and its task becomes the
/// new task's parent unless `parentTaskId` says otherwise.
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> ApiResult<Json<Value>> {
    let title = body.required_string("title", "Title is required")?;
    if let Some(mode) = body.string("mode")?.value() {
        if mode != "execution" {
            return Err(ApiError::bad(
                "mode must be \"execution\": planning tasks are opened by a mission's organizer",
            ));
        }
    }
    let description = body.string("description")?.value();
    let priority = body.integer("priority")?.value().unwrap_or(0);
    let mission_id = body.string("missionId")?.value();
    let mut parent_task_id = body.string("parentTaskId")?.value();
    let created_by_worker = body.string("createdByWorkerId")?.value();
    let source = body
        .string("creationSource")?
        .value()
        .filter(|s| CREATION_SOURCES.contains(&s.as_str()))
        .unwrap_or_else(|| "api".into());
    let depends_on = body.string_array("dependsOn")?.value().unwrap_or_default();
    let role_slug = body.string("roleSlug")?.value().filter(|s| !s.is_empty());
    let category = body.string("category")?.value();
    let requires_review = body.boolean("requiresReview")?.value().unwrap_or(false);
    let context = body.object("context")?.value().unwrap_or_default();
    let requirement = match body.string("outputRequirement")?.value() {
        Some(r) => Some(output_requirement(&r)?),
        None => None,
    };

    let mut tx = state.db.write().await?;
    let workspace = resolve_workspace(
        &mut tx,
        &caller.team_id,
        body.string("workspaceId")?.value(),
    )
    .await?;
    let mission = match &mission_id {
        Some(m) => Some(find_mission(&mut tx, &caller.team_id, m).await?),
        None => None,
    };
    if let Some(worker) = &created_by_worker {
        let worker = find_worker(&mut tx, &caller.team_id, worker)
            .await
            .ok()
            .filter(|w| w.account_id.as_deref() == Some(caller.account_id.as_str()))
            .ok_or_else(|| {
                ApiError::bad("createdByWorkerId must be a worker of this key's account")
            })?;
        parent_task_id = parent_task_id.or(Some(worker.task_id));
    }
    if let Some(parent) = &parent_task_id {
        find_task(&mut tx, &caller.team_id, parent)
            .await
            .map_err(|_| ApiError::bad("parentTaskId references an unknown task"))?;
    }
    let requirement = requirement
        .map(|r| r.as_str().to_string())
        .or_else(|| {
            mission
                .as_ref()
                .and_then(|m| m.default_output_requirement.clone())
        })
        .unwrap_or_else(|| "auto".into());
    let task = NewTask {
        mission_id: mission_id.clone(),
        parent_task_id,
        description,
        context: Value::Object(context),
        priority,
        task_class: class_for_new_task(&title),
        created_by_account_id: Some(caller.account_id.clone()),
        created_by_worker_id: created_by_worker,
        creation_source: Some(source),
        category,
        role_slug,
        depends_on,
        requires_review,
        output_requirement: requirement,
        ..NewTask::new(&caller.team_id, &workspace.id, title)
    };
    let id = task.id.clone();
    check_dependencies(
        &mut tx,
        &caller.team_id,
        &workspace.id,
        &id,
        &task.depends_on,
    )
    .await?;
    tasks::insert(&mut tx, &task).await?;
    if let Some(m) = &mission_id {
        reopen_mission(&mut tx, m, &task.created_at).await?;
    }
    let row = find_task(&mut tx, &caller.team_id, &id).await?;
    tx.commit().await?;
    let mut out = serde_json::to_value(row.to_task())?;
    out["subjectIntakeOutcome"] = json!({"action": "created", "taskId": id});
    Ok(Json(out))
}

pub async fn detail(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Json<Task>> {
    let include_workers = query
        .get("include")
        .is_some_and(|i| i.split(',').any(|p| p.trim() == "workers"));
    let mut tx = state.db.read().await?;
    let row = find_task(&mut tx, &caller.team_id, &id).await?;
    let mut task = row.to_task();
    task.workspace = Some(
        team_workspace(&mut tx, &caller.team_id, &row.workspace_id)
            .await?
            .to_workspace(),
    );
    if let Some(m) = &row.mission_id {
        let mission = find_mission(&mut tx, &caller.team_id, m).await?;
        task.mission = Some(TaskMissionRef {
            id: mission.id.clone(),
            title: mission.title.clone(),
            status: mission.status(),
        });
    }
    if include_workers {
        let workers = workers::of_task(&mut tx, &id).await?;
        task.workers = Some(workers.iter().map(WorkerRow::to_task_worker).collect());
    }
    Ok(Json(task))
}

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

/// `DELETE /api/tasks/{id}[?force=true]`: an admin key deletes any task of the team, a
/// worker key the tasks its account created. A task a worker is on needs `force=true`, and
/// then its worker goes with it (its runner's reports get 404). Tasks that depended on it
/// stop waiting for it.
pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Json<Success>> {
    if caller.level == AccountLevel::Trigger {
        return Err(ApiError::admin_required());
    }
    let force = paging::force(&query)?;
    let mut tx = state.db.write().await?;
    let row = find_task(&mut tx, &caller.team_id, &id).await?;
    if caller.level != AccountLevel::Admin
        && row.created_by_account_id.as_deref() != Some(caller.account_id.as_str())
    {
        return Err(ApiError::Forbidden(
            "A worker key deletes only the tasks its account created".into(),
        ));
    }
    let status = row.status();
    if !force && matches!(status, TaskStatus::Assigned | TaskStatus::InProgress) {
        return Err(ApiError::bad(format!(
            "Cannot delete {status} tasks while a worker is on them. Wait for it to finish, or \
             delete with force=true"
        )));
    }
    tasks::delete(&mut tx, &caller.team_id, &id).await?;
    tx.commit().await?;
    Ok(Json(Success { success: true }))
}
