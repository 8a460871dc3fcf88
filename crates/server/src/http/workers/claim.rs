//! `POST /api/workers/claim`: a runner takes pending tasks, the first the claim queue
//! offers (`flows::claims`). A task whose dependencies have not all finished (buildd-core's
//! `dependency_satisfied`) is not claimable; an empty answer says why in
//! `diagnostics.reason`.

use crate::body::Body;
use crate::db::work;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::flows::claims;
use crate::flows::leases::lease_until;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::claim_queue::QueueFilter;
use crate::store::missions::task_started;
use crate::store::tasks::{self, find_task};
use crate::store::workers::{self, NewWorker};
use crate::store::workspaces::team_workspace;
use crate::time::now;
use axum::extract::State;
use axum::Json;
use buildd_core::plan_output::branch_name;
use buildd_core::requests::workers::Claim;
use buildd_core::{AccountLevel, ClaimDiagnostics, ClaimResponse, ClaimedWorker};
use chrono::Utc;
use serde_json::Value;

fn empty(reason: &str, pending: Option<i64>) -> Json<ClaimResponse> {
    Json(ClaimResponse {
        workers: vec![],
        diagnostics: Some(ClaimDiagnostics {
            reason: reason.into(),
            pending_tasks: pending,
            matched_tasks: pending.map(|_| 0),
        }),
    })
}

pub async fn claim(
    State(state): State<AppState>,
    caller: Caller,
    Body(request): Body<Claim>,
) -> ApiResult<Json<ClaimResponse>> {
    if caller.level == AccountLevel::Trigger {
        return Err(ApiError::Forbidden(
            "Trigger-level API keys cannot claim tasks".into(),
        ));
    }
    let runner = request.runner()?;
    let max_tasks = request.max_tasks();
    let (workspace_id, task_id) = (request.workspace_id, request.task_id);
    let filter = QueueFilter {
        team_id: &caller.team_id,
        workspace_id: workspace_id.as_deref(),
        task_id: task_id.as_deref(),
    };

    // An idle runner's claims find nothing most of the time: those are answered from a
    // snapshot, never queueing for the writer (a task that becomes claimable just after is
    // taken by the next claim, as if this one had come a moment earlier). A claim the writer
    // has no room for is refused before that read.
    state.db.admits(caller.lane())?;
    {
        let at = now();
        let mut tx = state.db.read().await?;
        if let Some(ws) = &workspace_id {
            if team_workspace(&mut tx, &caller.team_id, ws).await.is_err() {
                return Ok(empty("no_workspaces", None));
            }
        }
        if claims::claimable(&mut tx, &filter, &at, 1)
            .await?
            .is_empty()
        {
            let (reason, pending) = claims::why_none(&mut tx, &filter, &at, false).await?;
            return Ok(empty(reason, Some(pending)));
        }
    }

    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let filter = QueueFilter {
                    team_id: &caller.team_id,
                    workspace_id: workspace_id.as_deref(),
                    task_id: task_id.as_deref(),
                };
                let at = now();
                let ids = claims::claimable_to_take(tx, &filter, &at, max_tasks).await?;
                // The snapshot showed claimable tasks; none left means other claims took them.
                let mut raced = ids.is_empty();
                let mut claimed = Vec::new();
                for id in &ids {
                    match take(tx, &caller, &runner, id, &at).await? {
                        Some(worker) => claimed.push(worker),
                        None => raced = true,
                    }
                }
                if claimed.is_empty() {
                    // Nothing was written: an answer, with nothing to commit.
                    let (reason, pending) = claims::why_none(tx, &filter, &at, raced).await?;
                    return Ok(empty(reason, Some(pending)));
                }
                Ok(Json(ClaimResponse {
                    workers: claimed,
                    diagnostics: None,
                }))
            }),
        )
        .await
}

/// Moves task `id` from pending to assigned and opens its worker; `None` if it was no
/// longer pending.
async fn take(
    tx: &mut Tx,
    caller: &Caller,
    runner: &str,
    id: &str,
    at: &str,
) -> ApiResult<Option<ClaimedWorker>> {
    let task = find_task(tx, &caller.team_id, id).await?;
    let expires = lease_until(Utc::now());
    if !tasks::claim(tx, &task.id, &caller.account_id, at, &expires).await? {
        return Ok(None);
    }
    let context: Value = serde_json::from_str(&task.context).unwrap_or(Value::Null);
    let branch = context
        .get("headBranch")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| branch_name(&task.id, &task.title));
    let worker = NewWorker {
        account_id: Some(caller.account_id.clone()),
        branch: Some(branch.clone()),
        ..NewWorker::new(&task.id, &task.workspace_id, runner, at)
    };
    workers::insert(tx, &worker).await?;
    let row = find_task(tx, &caller.team_id, &task.id).await?;
    let mut full = row.to_task();
    full.workspace = Some(
        team_workspace(tx, &caller.team_id, &row.workspace_id)
            .await?
            .to_workspace(),
    );
    // Last, so the mission's start row is held only until the claim commits.
    if let Some(m) = &task.mission_id {
        task_started(tx, m, at).await?;
    }
    Ok(Some(ClaimedWorker {
        id: worker.id,
        task_id: task.id.clone(),
        branch,
        task: full,
        resolved_context_providers: Vec::new(),
    }))
}
