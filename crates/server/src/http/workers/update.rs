//! `PATCH /api/workers/{id}`: a worker reports progress, or finishes its task. A planning
//! run's output is checked against the planning schema; a run that returns no plan at all is
//! force-failed. Instructions queued for the worker are handed over in the answer.

use super::pr_report::pr_report;
use crate::body::Body;
use crate::db::work;
use crate::error::{ApiError, ApiResult};
use crate::flows::prs::record::PrReport;
use crate::flows::reports::{self, Applied, Ending, Report, Step};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::tasks::{find_task, find_task_held, TaskRow};
use crate::store::turns::hold_mission;
use crate::store::workers::{find_worker, Session, WorkerRow};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use buildd_core::plan_output::validate_planning_output;
use buildd_core::requests::workers::WorkerReport;
use buildd_core::requests::Patch;
use buildd_core::reviewer::{validate_reviewer_output, ReviewerOutput};
use buildd_core::spend::UsageReport;
use buildd_core::{OutputRequirement, TaskMode, TaskStatus, WorkerStatus, PLAN_NOT_VALIDATED};
use serde_json::{json, Map, Value};

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(request): Body<WorkerReport>,
) -> ApiResult<Json<Value>> {
    let fields = Fields::read(request)?;
    let Applied {
        worker,
        instructions,
    } = state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let worker = find_worker(tx, &caller.team_id, &id).await?;
                if worker.account_id.as_deref() != Some(caller.account_id.as_str()) {
                    return Err(ApiError::Forbidden("Forbidden".into()));
                }
                // A report that ends its task decides from the mission's other tasks: on
                // Postgres it takes the mission's turn before it writes anything, as whatever
                // opens a run does, so two writes never hold each other's rows.
                if tx.is_postgres() && !fields.said.is_progress() {
                    let task = find_task(tx, &caller.team_id, &worker.task_id).await?;
                    if let Some(mission) = &task.mission_id {
                        hold_mission(tx, mission).await?;
                    }
                }
                // Then the task's turn, and the worker read again under it: on Postgres a
                // lease's expiry, a Stop or a reassignment through another server may have
                // ended this worker since the first read, and its report must then be refused
                // rather than written over theirs. SQLite's one writer already ran them apart.
                let task = find_task_held(tx, &caller.team_id, &worker.task_id).await?;
                let worker = if tx.is_postgres() {
                    find_worker(tx, &caller.team_id, &id).await?
                } else {
                    worker
                };
                still_working(&worker, &task)?;
                let pr = pr_report(&fields.request, worker.pr_number);
                let report = fields.into_report(&worker, &task, pr)?;
                reports::apply(tx, &worker, &task, report).await
            }),
        )
        .await?;
    let mut out = serde_json::to_value(worker.to_worker())?;
    if let Some(text) = instructions {
        out["instructions"] = Value::String(text);
    }
    Ok(Json(out))
}

/// What a report's `status` asks for.
enum Said {
    Progress(Option<WorkerStatus>),
    Completed,
    Failed(String),
}

impl Said {
    fn is_progress(&self) -> bool {
        matches!(self, Said::Progress(_))
    }
}

/// A report as read, before its worker and task are known.
struct Fields {
    said: Said,
    usage: UsageReport,
    request: WorkerReport,
}

impl Fields {
    fn read(request: WorkerReport) -> ApiResult<Self> {
        Ok(Self {
            said: said(&request),
            usage: request.usage()?,
            request,
        })
    }

    /// The report of `worker` on `task`; a completion is checked against what the task
    /// must deliver.
    fn into_report(
        self,
        worker: &WorkerRow,
        task: &TaskRow,
        pr: Option<PrReport>,
    ) -> ApiResult<Report> {
        let r = self.request;
        let session = session_of(&r, worker);
        let pr_url = r.pr_url.clone().or(worker.pr_url.clone());
        let pr_number = r.pr_number.or(worker.pr_number);
        let step = match self.said {
            Said::Progress(status) => Step::Progress {
                status,
                current_action: r.current_action.into_update(),
            },
            Said::Failed(error) => Step::Ended(Ending {
                result: json!({"error": error}),
                error: Some(error),
                verdict: None,
            }),
            Said::Completed => {
                let mut result = Map::new();
                for (k, v) in [
                    ("summary", r.summary.map(Value::String)),
                    ("branch", worker.branch.clone().map(Value::String)),
                    ("prUrl", pr_url.clone().map(Value::String)),
                    ("prNumber", pr_number.map(Value::from)),
                    ("nextSuggestion", r.next_suggestion.map(Value::String)),
                ] {
                    if let Some(v) = v {
                        result.insert(k.into(), v);
                    }
                }
                let has_pr = pr_url.is_some() || pr_number.is_some();
                let output = check_output(task, r.structured_output, has_pr)?;
                Step::Ended(completion(result, output))
            }
        };
        Ok(Report {
            session,
            milestones: r.milestones,
            appended: r.append_milestones,
            pr_url,
            pr_number,
            pr,
            usage: self.usage,
            step,
        })
    }
}

/// What `report` says of its session beyond progress. A worker back at work without a
/// question has had its answer (Buildd clears `waitingFor` so too).
fn session_of(report: &WorkerReport, worker: &WorkerRow) -> Session {
    let meta = report.result_meta.as_ref();
    let meta_text = |key: &str| meta.and_then(|m| m.get(key)).and_then(Value::as_str);
    let waiting_for = match &report.waiting_for {
        Patch::Value(w) => Some(Some(w.clone())),
        Patch::Null => Some(None),
        Patch::Absent
            if report.status == Some(WorkerStatus::Running) && worker.waiting_for.is_some() =>
        {
            Some(None)
        }
        Patch::Absent => None,
    };
    Session {
        turns: report
            .turns
            .or_else(|| meta.and_then(|m| m.get("numTurns")).and_then(Value::as_i64)),
        commit_count: report.commit_count,
        files_changed: report.files_changed,
        lines_added: report.lines_added,
        lines_removed: report.lines_removed,
        waiting_for,
        terminal_reason: meta_text("terminalReason")
            .or_else(|| meta_text("stopReason"))
            .map(str::to_string),
    }
}

/// What a report's `status` asks for (its values already checked).
fn said(report: &WorkerReport) -> Said {
    match &report.status {
        Some(WorkerStatus::Completed) => Said::Completed,
        Some(WorkerStatus::Failed | WorkerStatus::Error) => Said::Failed(report.failure()),
        status => Said::Progress(status.clone()),
    }
}

/// A finished worker, or one whose task finished (it was reassigned or cancelled), takes no
/// more reports: 409 with `abort`, so its runner stops.
fn still_working(worker: &WorkerRow, task: &TaskRow) -> ApiResult<()> {
    if !worker.is_finished() && !task.status().is_terminal() {
        return Ok(());
    }
    // A stopped task's runner must abort even when its worker opened a PR: Buildd's runner
    // stops only for `abort` without deliverables and with an end other than `completed`.
    if task.status() == TaskStatus::Cancelled {
        return Err(ApiError::Detailed(
            StatusCode::CONFLICT,
            json!({"error": "Task was stopped by a person", "abort": true,
                   "reason": worker.error.as_deref().unwrap_or("task_cancelled"),
                   "actualStatus": "failed", "hasDeliverables": false}),
        ));
    }
    let (error, reason) = if worker.is_finished() {
        ("Worker already completed", "worker_finished")
    } else {
        (
            "Worker was terminated - task may have been reassigned",
            "task_finished",
        )
    };
    Err(ApiError::Detailed(
        StatusCode::CONFLICT,
        json!({"error": error, "abort": true, "reason": reason,
               "actualStatus": worker.status, "hasDeliverables": worker.pr_url.is_some()}),
    ))
}

/// What a completed task's output turns out to be.
enum Output {
    /// Its `structuredOutput`, if any, and a reviewer's verdict.
    Accepted(Option<Value>, Option<ReviewerOutput>),
    /// A planning run that returned no plan: it fails with this.
    Refused(String),
}

/// Checks `structured` against what `task` must deliver: a planning run a valid plan, a
/// reviewer a verdict, a `pr_required` task a PR (`has_pr`).
fn check_output(task: &TaskRow, structured: Option<Value>, has_pr: bool) -> ApiResult<Output> {
    let planning = task.mode == TaskMode::Planning;
    // A reviewer's answer is its verdict on a PR.
    let reviewer = serde_json::from_str::<Value>(&task.context)
        .ok()
        .is_some_and(|c| c.get("reviewerFor").is_some());
    match (planning, structured) {
        (true, None) => Ok(Output::Refused(PLAN_NOT_VALIDATED.to_string())),
        (true, Some(output)) => {
            validate_planning_output(&output).map_err(|e| invalid_output("planning", e))?;
            Ok(Output::Accepted(Some(output), None))
        }
        (false, output) if reviewer => {
            let verdict = match &output {
                Some(o) => validate_reviewer_output(o),
                None => Err(vec!["verdict: required".to_string()]),
            }
            .map_err(|e| invalid_output("reviewer", e))?;
            Ok(Output::Accepted(
                Some(serde_json::to_value(&verdict)?),
                Some(verdict),
            ))
        }
        (false, _) if task.output_requirement == OutputRequirement::PrRequired && !has_pr => {
            Err(ApiError::Detailed(
                StatusCode::BAD_REQUEST,
                json!({"error": "This task requires a pull request before completing. Use create_pr to open one.",
                       "hint": "create_pr"}),
            ))
        }
        (false, output) => Ok(Output::Accepted(output, None)),
    }
}

/// The ending of a completed report: `result` with its output, or failed when it was refused.
fn completion(mut result: Map<String, Value>, output: Output) -> Ending {
    let (error, verdict) = match output {
        Output::Accepted(structured, verdict) => {
            if let Some(o) = structured {
                result.insert("structuredOutput".into(), o);
            }
            (None, verdict)
        }
        Output::Refused(message) => {
            result.insert("error".into(), Value::String(message.clone()));
            (Some(message), None)
        }
    };
    Ending {
        result: Value::Object(result),
        error,
        verdict,
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
