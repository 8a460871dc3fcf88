//! `POST /api/tasks`: a task filed through the API.

use crate::body::JsonObject;
use crate::error::{ApiError, ApiResult};
use crate::flows::task_checks::{check_dependencies, reopen_mission, resolve_workspace};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::find_mission;
use crate::store::tasks::{self, find_task, NewTask};
use crate::store::workers::find_worker;
use axum::extract::State;
use axum::Json;
use buildd_core::{class_for_new_task, OutputRequirement};
use serde_json::{json, Value};

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
