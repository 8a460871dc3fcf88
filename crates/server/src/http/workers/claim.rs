//! `POST /api/workers/claim`: a runner takes pending tasks. A task whose dependencies have
//! not all finished (buildd-core's `dependency_satisfied`) is not claimable; an empty answer
//! says why in `diagnostics.reason`.

use crate::body::JsonObject;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::flows::claims::{Queue, Readiness};
use crate::flows::leases::lease_until;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::task_started;
use crate::store::tasks::{self, find_task, TaskRow};
use crate::store::workers::{self, NewWorker};
use crate::store::workspaces::team_workspace;
use crate::time::now;
use axum::extract::State;
use axum::Json;
use buildd_core::plan_output::branch_name;
use buildd_core::{AccountLevel, ClaimDiagnostics, ClaimResponse, ClaimedWorker};
use chrono::Utc;
use serde_json::Value;

const MAX_TASKS_LIMIT: i64 = 20;

/// Why candidates were passed over, counted while scanning.
#[derive(Default)]
struct Skipped {
    blocked: i64,
    deferred: i64,
    paused: i64,
    out_of_budget: i64,
    raced: i64,
}

impl Skipped {
    fn reason(&self) -> &'static str {
        if self.blocked > 0 {
            "deps_blocked"
        } else if self.out_of_budget > 0 {
            "budget_exhausted"
        } else if self.paused > 0 {
            "context_paused"
        } else if self.deferred > 0 {
            "all_candidates_deferred"
        } else if self.raced > 0 {
            "race_lost"
        } else {
            "no_pending_tasks"
        }
    }
}

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
    body: JsonObject,
) -> ApiResult<Json<ClaimResponse>> {
    if caller.level == AccountLevel::Trigger {
        return Err(ApiError::Forbidden(
            "Trigger-level API keys cannot claim tasks".into(),
        ));
    }
    let runner = body.required_string("runner", "runner is required")?;
    let workspace_id = body.string("workspaceId")?.value();
    let task_id = body.string("taskId")?.value();
    let max_tasks = body.integer("maxTasks")?.value().unwrap_or(3);
    if !(1..=MAX_TASKS_LIMIT).contains(&max_tasks) {
        return Err(ApiError::bad(format!(
            "maxTasks must be an integer from 1 to {MAX_TASKS_LIMIT}"
        )));
    }

    let mut tx = state.db.write().await?;
    if let Some(ws) = &workspace_id {
        if team_workspace(&mut tx, &caller.team_id, ws).await.is_err() {
            return Ok(empty("no_workspaces", None));
        }
    }
    let queue = Queue::read(
        &mut tx,
        &caller.team_id,
        workspace_id.as_deref(),
        task_id.as_deref(),
    )
    .await?;
    if queue.candidates.is_empty() {
        return Ok(empty("no_pending_tasks", Some(0)));
    }

    let at = now();
    let mut skipped = Skipped::default();
    let mut claimed = Vec::new();
    for task in &queue.candidates {
        if claimed.len() as i64 >= max_tasks {
            break;
        }
        match queue.readiness(task, &at) {
            Readiness::Deferred => skipped.deferred += 1,
            Readiness::Paused => skipped.paused += 1,
            Readiness::OutOfBudget => skipped.out_of_budget += 1,
            Readiness::Blocked => skipped.blocked += 1,
            Readiness::Ready => match take(&mut tx, &caller, &runner, task, &at).await? {
                Some(worker) => claimed.push(worker),
                None => skipped.raced += 1,
            },
        }
    }
    tx.commit().await?;
    if claimed.is_empty() {
        return Ok(empty(skipped.reason(), Some(queue.candidates.len() as i64)));
    }
    Ok(Json(ClaimResponse {
        workers: claimed,
        diagnostics: None,
    }))
}

/// Moves `task` from pending to assigned and opens its worker; `None` if it was no longer
/// pending.
async fn take(
    tx: &mut Tx,
    caller: &Caller,
    runner: &str,
    task: &TaskRow,
    at: &str,
) -> ApiResult<Option<ClaimedWorker>> {
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
    if let Some(m) = &task.mission_id {
        task_started(tx, m, at).await?;
    }
    let row = find_task(tx, &caller.team_id, &task.id).await?;
    let mut full = row.to_task();
    full.workspace = Some(
        team_workspace(tx, &caller.team_id, &row.workspace_id)
            .await?
            .to_workspace(),
    );
    Ok(Some(ClaimedWorker {
        id: worker.id,
        task_id: task.id.clone(),
        branch,
        task: full,
        resolved_context_providers: Vec::new(),
    }))
}
