//! Plan review: `POST /api/tasks/{id}/approve-plan` and `POST /api/tasks/{id}/reject-plan`.
//! Both act only on a plan in review (buildd-core's `plan_in_review`): a completed planning
//! run with no children that no later run replaced.

use super::caller::Caller;
use super::state::AppState;
use crate::body::JsonObject;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::store::mission_tasks::mission_tasks;
use crate::store::tasks::{find_task, TaskRow};
use crate::time::{new_id, now};
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::plan::plan_in_review;
use buildd_core::plan_output::{branch_name, resolve_plan, validate_planning_output};
use buildd_core::plan_phase::PlanRejection;
use buildd_core::{ApprovedPlan, RejectedPlan, TaskMode, TaskStatus};
use serde_json::{json, Value};

/// The planning task `id` and its output, if it is in review; otherwise Buildd's refusal.
async fn plan_under_review(tx: &mut Tx, caller: &Caller, id: &str) -> ApiResult<(TaskRow, Value)> {
    let task = find_task(tx, &caller.team_id, id).await?;
    if TaskMode::parse(&task.mode) != TaskMode::Planning {
        return Err(ApiError::bad("Task is not a planning task"));
    }
    if task.status() != TaskStatus::Completed {
        return Err(ApiError::bad("Planning task has not completed yet"));
    }
    let (children,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM tasks WHERE parent_task_id = ?")
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
    if children > 0 {
        return Err(ApiError::Conflict("Plan already approved".into()));
    }
    let context: Value = serde_json::from_str(&task.context).unwrap_or(Value::Null);
    if context.get("planRejection").is_some_and(|r| !r.is_null()) {
        return Err(ApiError::Conflict("Plan already rejected".into()));
    }
    let output = task
        .result()
        .and_then(|r| r.structured_output)
        .filter(|o| {
            o.get("plan")
                .and_then(Value::as_array)
                .is_some_and(|p| !p.is_empty())
        })
        .ok_or_else(|| ApiError::bad("No plan found in task result"))?;
    if let Some(mission) = &task.mission_id {
        let tasks = mission_tasks(tx, &caller.team_id, mission).await?;
        if plan_in_review(&tasks).map(|t| t.id.as_str()) != Some(id) {
            return Err(ApiError::Conflict(
                "A newer planning run replaced this plan; review that one".into(),
            ));
        }
    }
    Ok((task, output))
}

pub async fn approve(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<ApprovedPlan>> {
    caller.require_admin()?;
    let mut tx = state.db.write().await?;
    let (plan_task, output) = plan_under_review(&mut tx, &caller, &id).await?;
    let plan = validate_planning_output(&output).map_err(|e| ApiError::bad(e.join("; ")))?;
    let resolved = resolve_plan(&plan.plan).map_err(ApiError::BadRequest)?;
    let default_requirement: Option<String> = match &plan_task.mission_id {
        Some(m) => {
            sqlx::query_as::<_, (Option<String>,)>(
                "SELECT default_output_requirement FROM missions WHERE id = ?",
            )
            .bind(m)
            .fetch_one(&mut *tx)
            .await?
            .0
        }
        None => None,
    };

    // Every step's id is known before any is written: refs become ids and branch names as
    // each child is inserted, complete, in one statement.
    let at = now();
    let ids: Vec<String> = plan.plan.iter().map(|_| new_id()).collect();
    for (i, (step, child)) in plan.plan.iter().zip(&ids).enumerate() {
        let requirement = step
            .output_requirement
            .clone()
            .or_else(|| default_requirement.clone())
            .unwrap_or_else(|| "auto".into());
        let depends_on: Vec<&String> = resolved.depends_on[i].iter().map(|&d| &ids[d]).collect();
        let context = match resolved.base_branch[i] {
            Some(b) => json!({"baseBranch": branch_name(&ids[b], &plan.plan[b].title)}),
            None => json!({}),
        };
        sqlx::query(
            "INSERT INTO tasks (id, team_id, workspace_id, mission_id, parent_task_id, title, \
             description, mode, task_class, status, creation_source, priority, role_slug, \
             output_requirement, required_capabilities, depends_on, context, \
             created_by_account_id, created_at, updated_at) \
             VALUES (?, ?, ?, ?, ?, ?, ?, 'execution', 'work', 'pending', 'api', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(child)
        .bind(&caller.team_id)
        .bind(&plan_task.workspace_id)
        .bind(&plan_task.mission_id)
        .bind(&id)
        .bind(&step.title)
        .bind(&step.description)
        .bind(step.priority.unwrap_or(0))
        .bind(&step.role_slug)
        .bind(&requirement)
        .bind(serde_json::to_string(&step.required_capabilities)?)
        .bind(serde_json::to_string(&depends_on)?)
        .bind(context.to_string())
        .bind(&caller.account_id)
        .bind(&at)
        .bind(&at)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(Json(ApprovedPlan { tasks: ids }))
}

pub async fn reject(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: JsonObject,
) -> ApiResult<Json<RejectedPlan>> {
    caller.require_admin()?;
    let feedback = match body.string("feedback") {
        Ok(f) => f
            .value()
            .map(|f| f.trim().to_string())
            .filter(|f| !f.is_empty()),
        Err(_) => None,
    }
    .ok_or_else(|| ApiError::bad("Feedback is required"))?;
    let mut tx = state.db.write().await?;
    let (old, _) = plan_under_review(&mut tx, &caller, &id).await?;
    let mut context: serde_json::Map<String, Value> =
        serde_json::from_str(&old.context).unwrap_or_default();
    context.remove("planRejection");
    context.insert("planFeedback".into(), Value::String(feedback.clone()));
    context.insert("previousPlanTaskId".into(), Value::String(id.clone()));
    let revision = new_id();
    let at = now();
    let inserted = sqlx::query(
        "INSERT INTO tasks (id, team_id, workspace_id, mission_id, parent_task_id, title, \
         description, context, mode, task_class, status, creation_source, priority, role_slug, \
         created_by_account_id, created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'planning', 'bookkeeping', 'pending', 'api', ?, ?, ?, ?, ?)",
    )
    .bind(&revision)
    .bind(&caller.team_id)
    .bind(&old.workspace_id)
    .bind(&old.mission_id)
    .bind(&old.parent_task_id)
    .bind(format!("{} (revised)", old.title))
    .bind(&old.description)
    .bind(Value::Object(context).to_string())
    .bind(old.priority)
    .bind(&old.role_slug)
    .bind(&caller.account_id)
    .bind(&at)
    .bind(&at)
    .execute(&mut *tx)
    .await;
    match inserted {
        Ok(_) => {}
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            return Err(ApiError::Conflict(
                "The mission already has a planning task in flight".into(),
            ))
        }
        Err(e) => return Err(e.into()),
    }
    // The rejected plan keeps its context and records the rejection and its revision.
    let rejection = serde_json::to_value(PlanRejection {
        feedback: feedback.clone(),
        rejected_at: Some(at.clone()),
        revision_task_id: Some(revision.clone()),
    })?;
    sqlx::query(
        "UPDATE tasks SET context = json_set(context, '$.planRejection', json(?)),          updated_at = ? WHERE id = ?",
    )
    .bind(rejection.to_string())
    .bind(&at)
    .bind(&id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Json(RejectedPlan { task_id: revision }))
}
