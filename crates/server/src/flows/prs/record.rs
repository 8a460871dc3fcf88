//! A worker's report of its PR — number, url, title, branches, head commit and changed
//! files — recorded and linked to its task, then routed through the rails.

use super::merge::maybe_auto_merge;
use super::review::request_review;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::store::prs::{self, find_pr, NewPr, PrRow, Reported};
use crate::store::tasks::TaskRow;
use crate::store::workers::WorkerRow;
use crate::time::now;
use buildd_core::pull_request::PrFile;
use buildd_core::PrStatus;
use buildd_core::TaskClass;

/// A PR's file listing as reported.
pub enum PrFiles {
    /// Not sent: what was recorded before stays.
    Missing,
    Listed(Vec<PrFile>),
    /// Sent, but not a valid listing: the rails hold the PR for a person.
    Malformed,
}

/// What a worker says about its PR; left-out fields keep what was recorded.
pub struct PrReport {
    pub number: i64,
    pub url: Option<String>,
    pub title: Option<String>,
    pub base: Option<String>,
    pub head: Option<String>,
    pub sha: Option<String>,
    pub files: PrFiles,
}

/// Records the PR a worker reports and links it to its task; returns the PR as stored.
pub async fn record_pr(
    tx: &mut Tx,
    worker: &WorkerRow,
    task: &TaskRow,
    report: &PrReport,
) -> ApiResult<PrRow> {
    let PrReport {
        number,
        url,
        title,
        base,
        sha,
        ..
    } = report;
    let number = *number;
    let head = report.head.clone().or(worker.branch.clone());
    let (files, files_state) = match &report.files {
        PrFiles::Missing => (None, "missing"),
        PrFiles::Listed(files) => (Some(serde_json::to_string(files)?), "listed"),
        PrFiles::Malformed => (None, "malformed"),
    };
    let at = now();
    match find_pr(tx, &task.workspace_id, number).await? {
        Some(existing) => {
            // A fix pushed by an attempt (a reviewer retry) stays its deliverable's PR.
            let keeps_task = task.task_class == TaskClass::Attempt && existing.task_id.is_some();
            let reported = Reported {
                url: url.as_deref(),
                title: title.as_deref(),
                base_branch: base.as_deref(),
                head_branch: head.as_deref(),
                head_sha: sha.as_deref(),
                files: files.as_deref(),
                files_state,
                task_id: (!keeps_task).then_some(task.id.as_str()),
                mission_id: task.mission_id.as_deref(),
            };
            prs::update_reported(tx, &existing.id, &reported, &at).await?;
        }
        None => {
            let pr = NewPr {
                task_id: Some(task.id.clone()),
                mission_id: task.mission_id.clone(),
                url: url.clone(),
                title: title.clone(),
                base_branch: base.clone(),
                head_branch: head,
                head_sha: sha.clone(),
                files,
                files_state: files_state.into(),
                created_at: at.clone(),
                updated_at: at,
                ..NewPr::new(&task.team_id, &task.workspace_id, number)
            };
            prs::insert(tx, &pr).await?;
        }
    }
    find_pr(tx, &task.workspace_id, number)
        .await?
        .ok_or_else(|| ApiError::Internal("the recorded PR vanished".into()))
}

/// Records the PR a report names, merges it when its policy lets it, and — once the work
/// is `done` — starts its review under agent-review. Work done without naming its PR
/// routes the one its worker reported earlier.
pub async fn route_pr(
    tx: &mut Tx,
    worker: &WorkerRow,
    task: &TaskRow,
    report: Option<&PrReport>,
    done: bool,
) -> ApiResult<()> {
    let pr = match report {
        Some(report) => Some(record_pr(tx, worker, task, report).await?),
        None if done => match worker.pr_number {
            Some(n) => find_pr(tx, &task.workspace_id, n).await?,
            None => None,
        },
        None => None,
    };
    if let Some(pr) = pr.filter(|p| p.state == PrStatus::Open) {
        if !maybe_auto_merge(tx, &pr).await? && done {
            request_review(tx, &pr).await?;
        }
    }
    Ok(())
}
