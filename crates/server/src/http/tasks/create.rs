//! `POST /api/tasks`: a task filed through the API.

use crate::body::Body;
use crate::db::work;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::flows::task_checks::resolve_workspace;
use crate::flows::task_edits::file;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::find_mission;
use crate::store::tasks::{find_task, NewTask};
use crate::store::workers::find_worker;
use axum::extract::State;
use axum::Json;
use buildd_core::requests::tasks::{start_time, NewTask as Request};
use buildd_core::{class_for_new_task, IntakeOutcome, TaskCategory, TaskCreated};
use serde_json::json;

/// `POST /api/tasks`: any key of the team, as in Buildd (runners and agents file work with
/// worker keys); an agent names its worker in `createdByWorkerId`, and its task becomes the
/// new task's parent unless `parentTaskId` says otherwise.
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Body(request): Body<Request>,
) -> ApiResult<Json<TaskCreated>> {
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let task = task_of(request, tx, &caller).await?;
                file(tx, &task).await?;
                let row = find_task(tx, &caller.team_id, &task.id).await?;
                Ok(Json(TaskCreated {
                    task: row.to_task(),
                    subject_intake_outcome: Some(IntakeOutcome {
                        action: "created".into(),
                        task_id: task.id,
                    }),
                }))
            }),
        )
        .await
}

/// The task to write: its workspace resolved, its mission's default output, and its parent
/// checked (an agent's own task when it names its worker).
async fn task_of(request: Request, tx: &mut Tx, caller: &Caller) -> ApiResult<NewTask> {
    let title = request.title()?;
    let source = request.source();
    let workspace = resolve_workspace(tx, &caller.team_id, request.workspace_id).await?;
    let mission = match &request.mission_id {
        Some(m) => Some(find_mission(tx, &caller.team_id, m).await?),
        None => None,
    };
    let mut parent_task_id = request.parent_task_id;
    if let Some(worker) = &request.created_by_worker_id {
        let worker = find_worker(tx, &caller.team_id, worker)
            .await
            .ok()
            .filter(|w| w.account_id.as_deref() == Some(caller.account_id.as_str()))
            .ok_or_else(|| {
                ApiError::bad("createdByWorkerId must be a worker of this key's account")
            })?;
        parent_task_id = parent_task_id.or(Some(worker.task_id));
    }
    if let Some(parent) = &parent_task_id {
        find_task(tx, &caller.team_id, parent)
            .await
            .map_err(|_| ApiError::bad("parentTaskId references an unknown task"))?;
    }
    let output_requirement = request
        .output_requirement
        .map(|r| r.as_str().to_string())
        .or_else(|| mission.and_then(|m| m.default_output_requirement))
        .unwrap_or_else(|| "auto".into());
    Ok(NewTask {
        mission_id: request.mission_id,
        parent_task_id,
        description: request.description,
        context: request.context.unwrap_or_else(|| json!({})),
        priority: request.priority.unwrap_or(0),
        task_class: class_for_new_task(&title),
        created_by_account_id: Some(caller.account_id.clone()),
        created_by_worker_id: request.created_by_worker_id,
        creation_source: Some(source),
        // As Buildd: a category it does not know is dropped, not stored.
        category: request
            .category
            .filter(|c| TaskCategory::known(c.as_str()).is_some()),
        role_slug: request.role_slug.filter(|s| !s.is_empty()),
        depends_on: request.depends_on.value().unwrap_or_default(),
        requires_review: request.requires_review.unwrap_or(false),
        output_requirement,
        start_at: request.start_at.as_deref().map(start_time).transpose()?,
        ..NewTask::new(&caller.team_id, &workspace.id, title)
    })
}
