//! `GET /api/tasks/{id}[?include=workers]`: a task with its workspace, mission and workers.

use crate::body::Params;
use crate::error::ApiResult;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::find_mission;
use crate::store::tasks::find_task;
use crate::store::workers::{self, WorkerRow};
use crate::store::workspaces::team_workspace;
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::requests::queries::TaskDetailQuery;
use buildd_core::{Task, TaskMissionRef};

pub async fn detail(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<TaskDetailQuery>,
) -> ApiResult<Json<Task>> {
    let include_workers = query.workers();
    let mut tx = state.db.read().await?;
    let row = find_task(&mut tx, &caller.team_id, &id).await?;
    let mut task = row.to_task();
    task.workspace = Some(
        team_workspace(&mut tx, &caller.team_id, &row.workspace_id)
            .await?
            .to_workspace(),
    );
    task.mission = Some(match &row.mission_id {
        Some(m) => {
            let mission = find_mission(&mut tx, &caller.team_id, m).await?;
            Some(TaskMissionRef {
                id: mission.id.clone(),
                title: mission.title.clone(),
                status: mission.status(),
            })
        }
        None => None,
    });
    if include_workers {
        let workers = workers::of_task(&mut tx, &id).await?;
        task.workers = Some(workers.iter().map(WorkerRow::to_task_worker).collect());
    }
    Ok(Json(task))
}
