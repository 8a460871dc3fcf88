//! Plan review: `POST /api/tasks/{id}/approve-plan` and `POST /api/tasks/{id}/reject-plan`.
//! Both act only on a plan in review (buildd-core's `plan_in_review`): a completed planning
//! run with no children that no later run replaced. A rejection's `feedback` is required, as
//! in Buildd; its `stepComments` (`[{ref, comment}]`, each naming a step of the plan) go to
//! the revision's context beside it, so the organizer reads which step each remark is about.

use crate::body::Body;
use crate::db::work;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::mission_tasks::mission_tasks;
use crate::store::missions::existing_mission;
use crate::store::tasks::{
    self, child_count, find_task_held, insert_unless_taken, record_plan_rejection, NewTask, TaskRow,
};
use crate::time::{new_id, now};
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::plan::plan_in_review;
use buildd_core::plan_output::{branch_name, resolve_plan, validate_planning_output};
use buildd_core::plan_phase::PlanRejection;
use buildd_core::requests::tasks::RejectPlan;
use buildd_core::{ApprovedPlan, RejectedPlan, TaskClass, TaskMode, TaskStatus};
use serde_json::{json, Value};

/// The planning task `id` and its output, if it is in review; otherwise Buildd's refusal.
async fn plan_under_review(tx: &mut Tx, caller: &Caller, id: &str) -> ApiResult<(TaskRow, Value)> {
    // Two reviews of one plan at once (two tabs, two replicas) decide one after the other,
    // the second reading the task as the first left it.
    let task = find_task_held(tx, &caller.team_id, id).await?;
    if task.mode != TaskMode::Planning {
        return Err(ApiError::bad("Task is not a planning task"));
    }
    if task.status() != TaskStatus::Completed {
        return Err(ApiError::bad("Planning task has not completed yet"));
    }
    if child_count(tx, id).await? > 0 {
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

pub async fn approve_plan(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<ApprovedPlan>> {
    caller.require_admin()?;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let (plan_task, output) = plan_under_review(tx, &caller, &id).await?;
                let plan =
                    validate_planning_output(&output).map_err(|e| ApiError::bad(e.join("; ")))?;
                let resolved = resolve_plan(&plan.plan).map_err(ApiError::BadRequest)?;
                let default_requirement = match &plan_task.mission_id {
                    Some(m) => existing_mission(tx, m).await?.default_output_requirement,
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
                    let depends_on: Vec<String> = resolved.depends_on[i]
                        .iter()
                        .map(|&d| ids[d].clone())
                        .collect();
                    let context = match resolved.base_branch[i] {
                        Some(b) => json!({"baseBranch": branch_name(&ids[b], &plan.plan[b].title)}),
                        None => json!({}),
                    };
                    let task = NewTask {
                        id: child.clone(),
                        mission_id: plan_task.mission_id.clone(),
                        parent_task_id: Some(id.clone()),
                        description: Some(step.description.clone()),
                        creation_source: Some("api".into()),
                        priority: step.priority.unwrap_or(0),
                        role_slug: step.role_slug.clone(),
                        output_requirement: requirement,
                        required_capabilities: step.required_capabilities.clone(),
                        depends_on,
                        context,
                        created_by_account_id: Some(caller.account_id.clone()),
                        created_at: at.clone(),
                        updated_at: at.clone(),
                        ..NewTask::new(&caller.team_id, &plan_task.workspace_id, step.title.clone())
                    };
                    tasks::insert(tx, &task).await?;
                }
                Ok(Json(ApprovedPlan { tasks: ids }))
            }),
        )
        .await
}

pub async fn reject_plan(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(request): Body<RejectPlan>,
) -> ApiResult<Json<RejectedPlan>> {
    caller.require_admin()?;
    let feedback = request.feedback()?;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let (old, output) = plan_under_review(tx, &caller, &id).await?;
                let refs: Vec<&str> = output["plan"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|step| step["ref"].as_str())
                    .collect();
                let step_comments = request.review(&refs)?.step_comments;
                let mut context: serde_json::Map<String, Value> =
                    serde_json::from_str(&old.context).unwrap_or_default();
                context.remove("planRejection");
                context.remove("planStepComments");
                context.insert("planFeedback".into(), Value::String(feedback.clone()));
                if !step_comments.is_empty() {
                    context.insert(
                        "planStepComments".into(),
                        serde_json::to_value(&step_comments)?,
                    );
                }
                context.insert("previousPlanTaskId".into(), Value::String(id.clone()));
                let revision = NewTask {
                    mission_id: old.mission_id.clone(),
                    parent_task_id: old.parent_task_id.clone(),
                    description: old.description.clone(),
                    context: Value::Object(context),
                    mode: TaskMode::Planning,
                    task_class: TaskClass::Bookkeeping,
                    creation_source: Some("api".into()),
                    priority: old.priority,
                    role_slug: old.role_slug.clone(),
                    created_by_account_id: Some(caller.account_id.clone()),
                    ..NewTask::new(
                        &caller.team_id,
                        &old.workspace_id,
                        format!("{} (revised)", old.title),
                    )
                };
                if !insert_unless_taken(tx, &revision).await? {
                    return Err(ApiError::Conflict(
                        "The mission already has a planning task in flight".into(),
                    ));
                }
                let (revision, at) = (revision.id, revision.created_at);
                // The rejected plan keeps its context and records the rejection and its revision.
                let rejection = serde_json::to_value(PlanRejection {
                    feedback: feedback.clone(),
                    rejected_at: Some(at.clone()),
                    revision_task_id: Some(revision.clone()),
                    step_comments,
                })?;
                record_plan_rejection(tx, &id, &rejection, &at).await?;
                Ok(Json(RejectedPlan { task_id: revision }))
            }),
        )
        .await
}
