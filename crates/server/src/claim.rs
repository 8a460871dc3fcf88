//! `POST /api/workers/claim`: a runner takes pending tasks. A task whose dependencies have
//! not all finished (buildd-core's `dependency_satisfied`) is not claimable; an empty answer
//! says why in `diagnostics.reason`.

use crate::auth::Caller;
use crate::body::JsonObject;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::missions::team_workspace;
use crate::rows::{TaskRow, TASK_COLUMNS, TASK_FROM};
use crate::state::AppState;
use crate::time::{new_id, now};
use axum::extract::State;
use axum::Json;
use buildd_core::dependencies::dependency_satisfied;
use buildd_core::plan_output::branch_name;
use buildd_core::*;
use chrono::Utc;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

const MAX_TASKS_LIMIT: i64 = 20;

/// Why candidates were passed over, counted while scanning.
#[derive(Default)]
struct Skipped {
    blocked: i64,
    deferred: i64,
    paused: i64,
    raced: i64,
}

impl Skipped {
    fn reason(&self) -> &'static str {
        if self.blocked > 0 {
            "deps_blocked"
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
    let candidates: Vec<TaskRow> = sqlx::query_as(&format!(
        "SELECT {TASK_COLUMNS} FROM {TASK_FROM} WHERE t.team_id = ?1 AND t.status = 'pending' \
         AND (?2 IS NULL OR t.workspace_id = ?2) AND (?3 IS NULL OR t.id = ?3) \
         ORDER BY t.priority DESC, t.created_at ASC"
    ))
    .bind(&caller.team_id)
    .bind(&workspace_id)
    .bind(&task_id)
    .fetch_all(&mut *tx)
    .await?;
    if candidates.is_empty() {
        return Ok(empty("no_pending_tasks", Some(0)));
    }
    let gates = dependency_gates(&mut tx, &caller.team_id, &candidates).await?;
    let paused = paused_missions(&mut tx, &caller.team_id).await?;

    let at = now();
    let mut skipped = Skipped::default();
    let mut claimed = Vec::new();
    for task in &candidates {
        if claimed.len() as i64 >= max_tasks {
            break;
        }
        if task.start_at.as_deref().is_some_and(|s| s > at.as_str()) {
            skipped.deferred += 1;
            continue;
        }
        if task.mission_id.as_ref().is_some_and(|m| paused.contains(m)) {
            skipped.paused += 1;
            continue;
        }
        let ready = task
            .depends_on()
            .iter()
            .all(|d| gates.get(d).copied().unwrap_or(false));
        if !ready {
            skipped.blocked += 1;
            continue;
        }
        match take(&mut tx, &caller, &runner, task, &at).await? {
            Some(worker) => claimed.push(worker),
            None => skipped.raced += 1,
        }
    }
    tx.commit().await?;
    if claimed.is_empty() {
        return Ok(empty(skipped.reason(), Some(candidates.len() as i64)));
    }
    Ok(Json(ClaimResponse {
        workers: claimed,
        diagnostics: None,
    }))
}

/// For every dependency of the candidates: may its dependents start?
async fn dependency_gates(
    tx: &mut Tx,
    team_id: &str,
    candidates: &[TaskRow],
) -> ApiResult<HashMap<String, bool>> {
    let ids: HashSet<String> = candidates.iter().flat_map(TaskRow::depends_on).collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(String, String, bool)> = sqlx::query_as(
        "SELECT d.id, d.status, EXISTS (SELECT 1 FROM workers w WHERE w.task_id = d.id \
           AND w.pr_url IS NOT NULL AND w.merged_at IS NULL \
           AND COALESCE(w.pr_lifecycle_status, '') NOT IN ('merged', 'closed')) \
         FROM tasks d WHERE d.team_id = ? AND d.id IN (SELECT value FROM json_each(?))",
    )
    .bind(team_id)
    .bind(serde_json::to_string(&ids)?)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, status, open_pr)| {
            let ok = dependency_satisfied(&TaskStatus::parse(&status), open_pr);
            (id, ok)
        })
        .collect())
}

/// Missions whose tasks wait: paused, archived, or held before their start.
async fn paused_missions(tx: &mut Tx, team_id: &str) -> ApiResult<HashSet<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT id FROM missions WHERE team_id = ? \
         AND (status IN ('paused', 'archived', 'budget_exhausted') OR is_held = 1)",
    )
    .bind(team_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
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
    let expires = crate::leases::lease_until(Utc::now());
    let moved = sqlx::query(
        "UPDATE tasks SET status = 'assigned', claimed_by = ?, claimed_at = ?, expires_at = ?, \
         updated_at = ? WHERE id = ? AND status = 'pending'",
    )
    .bind(&caller.account_id)
    .bind(at)
    .bind(&expires)
    .bind(at)
    .bind(&task.id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if moved == 0 {
        return Ok(None);
    }
    let context: Value = serde_json::from_str(&task.context).unwrap_or(Value::Null);
    let branch = context
        .get("headBranch")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| branch_name(&task.id, &task.title));
    let worker_id = new_id();
    sqlx::query(
        "INSERT INTO workers (id, task_id, workspace_id, account_id, name, runner, branch, \
         status, started_at, created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, 'idle', ?, ?, ?)",
    )
    .bind(&worker_id)
    .bind(&task.id)
    .bind(&task.workspace_id)
    .bind(&caller.account_id)
    .bind(format!("{runner}-{}", &worker_id[..8]))
    .bind(runner)
    .bind(&branch)
    .bind(at)
    .bind(at)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    if let Some(m) = &task.mission_id {
        sqlx::query("UPDATE missions SET last_task_started_at = ? WHERE id = ?")
            .bind(at)
            .bind(m)
            .execute(&mut **tx)
            .await?;
    }
    let row = crate::tasks::find_task(tx, &caller.team_id, &task.id).await?;
    let mut full = row.to_task();
    full.workspace = Some(
        team_workspace(tx, &caller.team_id, &row.workspace_id)
            .await?
            .to_workspace(),
    );
    Ok(Some(ClaimedWorker {
        id: worker_id,
        task_id: task.id.clone(),
        branch,
        task: full,
    }))
}
