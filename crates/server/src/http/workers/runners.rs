//! What Buildd's runner asks besides claims and reports: `POST /api/workers/heartbeat`
//! (how much claimable work waits, so it claims at once) and `GET /api/workers/{id}` (its
//! reconcile: a worker that is gone, or finished on the server, stops locally).

use crate::body::Body;
use crate::error::{ApiError, ApiResult};
use crate::flows::claims;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::tasks::find_task;
use crate::store::workers::find_worker;
use crate::store::workspaces::team_workspace;
use crate::time::now;
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::requests::workers::Heartbeat;
use buildd_core::{AccountLevel, HeartbeatAnswer, WorkerDetail};

/// `POST /api/workers/heartbeat {localUiUrl, activeWorkerCount?, environment?}`: any key of
/// the team; `pendingTaskCount` counts the team's tasks a claim could take now.
pub async fn heartbeat(
    State(state): State<AppState>,
    caller: Caller,
    Body(_): Body<Heartbeat>,
) -> ApiResult<Json<HeartbeatAnswer>> {
    let pending = if caller.level == AccountLevel::Trigger {
        0
    } else {
        let mut tx = state.db.read().await?;
        claims::claimable_count(&mut tx, &caller.team_id, &now()).await?
    };
    Ok(Json(HeartbeatAnswer {
        ok: true,
        pending_task_count: u64::try_from(pending).unwrap_or(0),
    }))
}

/// `GET /api/workers/{id}`: the worker with its task and workspace, for the account that
/// claimed it (403 `Forbidden` for another account of the team, as Buildd answers).
pub async fn detail(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<WorkerDetail>> {
    let mut tx = state.db.read().await?;
    let worker = find_worker(&mut tx, &caller.team_id, &id).await?;
    if worker.account_id.as_deref() != Some(caller.account_id.as_str()) {
        return Err(ApiError::Forbidden("Forbidden".into()));
    }
    // A worker goes with its task, so the task is there.
    let task = find_task(&mut tx, &caller.team_id, &worker.task_id).await?;
    let workspace = team_workspace(&mut tx, &caller.team_id, &worker.workspace_id)
        .await?
        .to_workspace();
    Ok(Json(WorkerDetail {
        worker: worker.to_worker(),
        task: Some(task.to_task()),
        workspace: Some(workspace),
    }))
}
