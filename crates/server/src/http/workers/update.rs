//! `PATCH /api/workers/{id}`: a worker reports progress, or finishes its task. A planning
//! run's output is checked against the planning schema; a run that returns no plan at all is
//! force-failed. Instructions queued for the worker are handed over in the answer.

use super::pr_report::pr_report;
use crate::body::{Field, JsonObject};
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::flows::leases::renew;
use crate::flows::outcomes::task_finished;
use crate::flows::prs::record::route_pr;
use crate::flows::prs::review::apply_verdict;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::tasks::{find_task, set_outcome};
use crate::store::workers::{
    self, deliver_pending, find_worker, report_progress, set_milestones, Finish, Progress,
    WorkerRow,
};
use crate::time::now;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use buildd_core::plan_output::validate_planning_output;
use buildd_core::reviewer::validate_reviewer_output;
use buildd_core::{TaskMode, TaskStatus, WorkerStatus, PLAN_NOT_VALIDATED};
use serde_json::{json, Map, Value};

/// Statuses a worker may report while it works.
const PROGRESS: [WorkerStatus; 5] = [
    WorkerStatus::Idle,
    WorkerStatus::Starting,
    WorkerStatus::Running,
    WorkerStatus::WaitingInput,
    WorkerStatus::Paused,
];

/// What a report asks for.
enum Report {
    Progress(Option<WorkerStatus>),
    Completed,
    Failed(String),
}

fn read_report(body: &JsonObject) -> ApiResult<Report> {
    Ok(match body.string("status")? {
        Field::Absent | Field::Null => Report::Progress(None),
        Field::Set(s) => match WorkerStatus::known(&s) {
            Some(WorkerStatus::Completed) => Report::Completed,
            Some(WorkerStatus::Failed) | Some(WorkerStatus::Error) => Report::Failed(
                body.string("error")?
                    .value()
                    .filter(|e| !e.trim().is_empty())
                    .unwrap_or_else(|| "The worker reported a failure".into()),
            ),
            Some(p) if PROGRESS.contains(&p) => Report::Progress(Some(p)),
            _ => {
                return Err(ApiError::bad(
                    "status must be one of: idle, starting, running, waiting_input, paused, \
                     completed, failed",
                ))
            }
        },
    })
}

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: JsonObject,
) -> ApiResult<Json<Value>> {
    let report = read_report(&body)?;
    let current_action = body.string("currentAction")?;
    let milestones = milestone_list(&body, "milestones")?;
    let appended = milestone_list(&body, "appendMilestones")?;
    let pr_url = body.string("prUrl")?.value();
    let pr_number = body.integer("prNumber")?.value();
    let summary = body.string("summary")?.value();
    let next_suggestion = body.string("nextSuggestion")?.value();
    let structured = match body.0.get("structuredOutput") {
        None | Some(Value::Null) => None,
        Some(v @ Value::Object(_)) => Some(v.clone()),
        Some(_) => return Err(ApiError::bad("structuredOutput must be an object")),
    };

    let mut tx = state.db.write().await?;
    let worker = find_worker(&mut tx, &caller.team_id, &id).await?;
    let pr_report = pr_report(&body, worker.pr_number)?;
    if worker.account_id.as_deref() != Some(caller.account_id.as_str()) {
        return Err(ApiError::Forbidden("Forbidden".into()));
    }
    let task = find_task(&mut tx, &caller.team_id, &worker.task_id).await?;
    if worker.is_finished() || task.status().is_terminal() {
        let (error, reason) = if worker.is_finished() {
            ("Worker already completed", "worker_finished")
        } else {
            (
                "Worker was terminated - task may have been reassigned",
                "task_finished",
            )
        };
        return Err(ApiError::Detailed(
            StatusCode::CONFLICT,
            json!({"error": error, "abort": true, "reason": reason,
                   "actualStatus": worker.status, "hasDeliverables": worker.pr_url.is_some()}),
        ));
    }
    if milestones.is_some() || appended.is_some() {
        let mut list = milestones.unwrap_or_else(|| worker.milestones());
        list.extend(appended.unwrap_or_default());
        set_milestones(&mut tx, &id, list).await?;
    }
    let at = now();
    let pr_url = pr_url.or(worker.pr_url.clone());
    let pr_number = pr_number.or(worker.pr_number);

    let progress = matches!(report, Report::Progress(_));
    match report {
        Report::Progress(status) => {
            let progress = Progress {
                status: status.as_ref(),
                current_action: current_action.clone().patch(),
                pr_url: pr_url.as_deref(),
                pr_number,
            };
            report_progress(&mut tx, &id, &progress, &at).await?;
            renew(&mut tx, &task.id, &id, chrono::Utc::now()).await?;
        }
        Report::Completed => {
            let mut result = Map::new();
            for (k, v) in [
                ("summary", summary.map(Value::String)),
                ("branch", worker.branch.clone().map(Value::String)),
                ("prUrl", pr_url.clone().map(Value::String)),
                ("prNumber", pr_number.map(Value::from)),
                ("nextSuggestion", next_suggestion.map(Value::String)),
            ] {
                if let Some(v) = v {
                    result.insert(k.into(), v);
                }
            }
            let planning = TaskMode::parse(&task.mode) == TaskMode::Planning;
            // A reviewer's answer is its verdict on a PR.
            let reviewer = serde_json::from_str::<Value>(&task.context)
                .ok()
                .is_some_and(|c| c.get("reviewerFor").is_some());
            let mut review = None;
            let outcome = match (planning, structured) {
                (true, None) => Err(PLAN_NOT_VALIDATED.to_string()),
                (true, Some(output)) => {
                    if let Err(errors) = validate_planning_output(&output) {
                        return Err(invalid_output("planning", errors));
                    }
                    result.insert("structuredOutput".into(), output);
                    Ok(())
                }
                (false, output) if reviewer => {
                    let checked = match &output {
                        Some(o) => validate_reviewer_output(o),
                        None => Err(vec!["verdict: required".to_string()]),
                    };
                    match checked {
                        Ok(verdict) => {
                            result
                                .insert("structuredOutput".into(), serde_json::to_value(&verdict)?);
                            review = Some(verdict);
                            Ok(())
                        }
                        Err(errors) => return Err(invalid_output("reviewer", errors)),
                    }
                }
                (false, output) => {
                    if task.output_requirement == "pr_required"
                        && pr_url.is_none()
                        && pr_number.is_none()
                    {
                        return Err(ApiError::Detailed(
                            StatusCode::BAD_REQUEST,
                            json!({"error": "This task requires a pull request before completing. Use create_pr to open one.",
                                   "hint": "create_pr"}),
                        ));
                    }
                    if let Some(o) = output {
                        result.insert("structuredOutput".into(), o);
                    }
                    Ok(())
                }
            };
            match outcome {
                Ok(()) => {
                    finish(
                        &mut tx,
                        &worker,
                        &pr_url,
                        pr_number,
                        WorkerStatus::Completed,
                        None,
                        &at,
                    )
                    .await?
                }
                Err(message) => {
                    result.insert("error".into(), Value::String(message.clone()));
                    finish(
                        &mut tx,
                        &worker,
                        &pr_url,
                        pr_number,
                        WorkerStatus::Failed,
                        Some(&message),
                        &at,
                    )
                    .await?
                }
            }
            let status = if result.contains_key("error") {
                TaskStatus::Failed
            } else {
                TaskStatus::Completed
            };
            set_task_outcome(
                &mut tx,
                &task.id,
                status.clone(),
                &Value::Object(result),
                &at,
            )
            .await?;
            if let Some(verdict) = &review {
                apply_verdict(&mut tx, &task, verdict).await?;
            }
            // Its PR is recorded and routed (merged, or sent for review) before anything
            // asks whether the mission still has open work.
            route_pr(
                &mut tx,
                &worker,
                &task,
                pr_report.as_ref(),
                status == TaskStatus::Completed,
            )
            .await?;
            task_finished(&mut tx, &caller.team_id, &task.id).await?;
        }
        Report::Failed(error) => {
            finish(
                &mut tx,
                &worker,
                &pr_url,
                pr_number,
                WorkerStatus::Failed,
                Some(&error),
                &at,
            )
            .await?;
            let result = json!({"error": error});
            set_task_outcome(&mut tx, &task.id, TaskStatus::Failed, &result, &at).await?;
            route_pr(&mut tx, &worker, &task, pr_report.as_ref(), false).await?;
            task_finished(&mut tx, &caller.team_id, &task.id).await?;
        }
    }
    // A PR reported with progress is recorded too.
    if progress {
        route_pr(&mut tx, &worker, &task, pr_report.as_ref(), false).await?;
    }
    // Queued instructions reach the worker in this answer, once.
    let instructions = deliver_pending(&mut tx, &id).await?;
    let row = find_worker(&mut tx, &caller.team_id, &id).await?;
    tx.commit().await?;
    let mut out = serde_json::to_value(row.to_worker())?;
    if let Some(text) = instructions {
        out["instructions"] = Value::String(text);
    }
    Ok(Json(out))
}

/// `milestones` (the whole list) or `appendMilestones` (more of them): arrays of objects.
fn milestone_list(body: &JsonObject, key: &str) -> ApiResult<Option<Vec<Value>>> {
    match body.0.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) if items.iter().all(Value::is_object) => Ok(Some(items.clone())),
        Some(_) => Err(ApiError::bad(format!("{key} must be an array of objects"))),
    }
}

/// 400 naming every field of `structuredOutput` that the `kind` schema refuses.
fn invalid_output(kind: &str, errors: Vec<String>) -> ApiError {
    let errors: Vec<String> = errors
        .iter()
        .map(|e| format!("structuredOutput.{e}"))
        .collect();
    ApiError::Detailed(
        StatusCode::BAD_REQUEST,
        json!({"error": format!("Invalid {kind} output: {}", errors.join("; ")), "errors": errors}),
    )
}

async fn finish(
    tx: &mut Tx,
    worker: &WorkerRow,
    pr_url: &Option<String>,
    pr_number: Option<i64>,
    status: WorkerStatus,
    error: Option<&str>,
    at: &str,
) -> ApiResult<()> {
    let finish = Finish {
        status,
        error,
        pr_url: pr_url.as_deref(),
        pr_number,
    };
    workers::finish(tx, &worker.id, &finish, at).await
}

async fn set_task_outcome(
    tx: &mut Tx,
    task_id: &str,
    status: TaskStatus,
    result: &Value,
    at: &str,
) -> ApiResult<()> {
    set_outcome(tx, task_id, &status, Some(result), at).await
}
