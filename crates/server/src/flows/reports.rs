//! A runner's report on its worker, in the caller's transaction. Its cost is counted first,
//! so spend that reaches the mission's budget stops it before anything plans more work.
//! Progress moves the worker and renews its claim; an end finishes the worker and its task, applies a reviewer's
//! verdict, routes the PR (merged, or sent for review) before anything asks whether the
//! mission still has open work, and runs what follows the task's end. Either way the
//! instructions queued for the worker are handed over, once.

use super::budget;
use super::leases::renew;
use super::outcomes::task_finished;
use super::prs::record::{route_pr, PrReport};
use super::prs::review::apply_verdict;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::tasks::{set_outcome, TaskRow};
use crate::store::workers::{
    self, deliver_pending, find_worker, record_session, record_usage, report_progress,
    set_milestones, Finish, Progress, Session, WorkerRow,
};
use crate::time::now;
use buildd_core::reviewer::ReviewerOutput;
use buildd_core::spend::UsageReport;
use buildd_core::{TaskStatus, WorkerStatus};
use serde_json::Value;

/// What a report says, checked.
pub struct Report {
    /// The whole milestone list, replacing the worker's.
    pub milestones: Option<Vec<Value>>,
    /// Milestones reached since the last report.
    pub appended: Option<Vec<Value>>,
    /// The worker's PR after this report: the one it names, else the one it named before.
    pub pr_url: Option<String>,
    pub pr_number: Option<i64>,
    /// The PR fields of the report, for the rails.
    pub pr: Option<PrReport>,
    /// The worker's running totals of cost and tokens, where the report states them.
    pub usage: UsageReport,
    /// The rest of what it says of its session.
    pub session: Session,
    pub step: Step,
}

/// Where the worker is.
pub enum Step {
    /// Still working: its status when it says one, its current action when it names one
    /// (`Some(None)` clears it).
    Progress {
        status: Option<WorkerStatus>,
        current_action: Option<Option<String>>,
    },
    /// Done, one way or the other.
    Ended(Ending),
}

/// How a worker ended.
pub struct Ending {
    /// The task's result.
    pub result: Value,
    /// Why it failed; `None` when it completed.
    pub error: Option<String>,
    /// A reviewer's verdict on the PR it reviewed.
    pub verdict: Option<ReviewerOutput>,
}

/// What a report left: the worker as it now stands, and the instructions it handed over.
pub struct Applied {
    pub worker: WorkerRow,
    pub instructions: Option<String>,
}

/// Applies `report` of `worker` on `task`.
pub async fn apply(
    tx: &mut Tx,
    worker: &WorkerRow,
    task: &TaskRow,
    mut report: Report,
) -> ApiResult<Applied> {
    if report.milestones.is_some() || report.appended.is_some() {
        // A whole list is the runner's newest; appended ones add to the count.
        let (mut list, mut reported) = match report.milestones.take() {
            Some(list) => {
                let n = list.len() as i64;
                (list, worker.milestones_reported.max(n))
            }
            None => (worker.milestones(), worker.milestones_reported),
        };
        let appended = report.appended.take().unwrap_or_default();
        reported += appended.len() as i64;
        list.extend(appended);
        set_milestones(tx, &worker.id, list, reported).await?;
    }
    record_session(tx, &worker.id, &report.session).await?;
    // Spend is counted before anything that would plan or claim more work asks the budget.
    record_usage(tx, &worker.id, &report.usage).await?;
    if let (Some(_), Some(mission)) = (report.usage.cost_usd, &task.mission_id) {
        budget::enforce(tx, mission).await?;
    }
    let at = now();
    let (progressed, instructions) = match &report.step {
        Step::Progress {
            status,
            current_action,
        } => {
            let progress = Progress {
                // The status it already has is not written again: that would rewrite its
                // index entry, a page more on disk for most reports.
                status: status.as_ref().filter(|s| **s != worker.status()),
                current_action: current_action.clone(),
                pr_url: report.pr_url.as_deref(),
                pr_number: report.pr_number,
            };
            let row = report_progress(tx, &worker.id, &progress, &at).await?;
            renew(tx, task, &worker.id, chrono::Utc::now()).await?;
            // A PR reported with progress is recorded too.
            route_pr(tx, worker, task, report.pr.as_ref(), false).await?;
            let instructions = deliver_pending(tx, worker).await?;
            // Recording a PR (which may merge it) or handing instructions over writes the
            // worker again.
            let current = report.pr.is_none() && instructions.is_none();
            (current.then_some(row), instructions)
        }
        Step::Ended(ending) => {
            end(tx, worker, task, &report, ending, &at).await?;
            (None, deliver_pending(tx, worker).await?)
        }
    };
    let worker = match progressed {
        Some(row) => row,
        None => find_worker(tx, &task.team_id, &worker.id).await?,
    };
    Ok(Applied {
        worker,
        instructions,
    })
}

/// Finishes `worker` and `task` as `ending` says, and runs what follows.
async fn end(
    tx: &mut Tx,
    worker: &WorkerRow,
    task: &TaskRow,
    report: &Report,
    ending: &Ending,
    at: &str,
) -> ApiResult<()> {
    let completed = ending.error.is_none();
    let finish = Finish {
        status: if completed {
            WorkerStatus::Completed
        } else {
            WorkerStatus::Failed
        },
        error: ending.error.as_deref(),
        pr_url: report.pr_url.as_deref(),
        pr_number: report.pr_number,
    };
    workers::finish(tx, &worker.id, &finish, at).await?;
    let status = if completed {
        TaskStatus::Completed
    } else {
        TaskStatus::Failed
    };
    set_outcome(tx, &task.id, &status, Some(&ending.result), at).await?;
    if let Some(verdict) = &ending.verdict {
        apply_verdict(tx, task, verdict).await?;
    }
    route_pr(tx, worker, task, report.pr.as_ref(), completed).await?;
    task_finished(tx, &task.team_id, &task.id).await
}
