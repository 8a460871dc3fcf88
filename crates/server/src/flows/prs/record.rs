//! A worker's report of its PR — number, url, title, branches, head commit and changed
//! files — recorded and linked to its task, then routed through the rails.

use super::merge::maybe_auto_merge;
use super::review::request_review;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::store::prs::{find_pr, PrRow};
use crate::store::tasks::TaskRow;
use crate::store::workers::WorkerRow;
use crate::time::{new_id, now};
use buildd_core::pull_request::PrFile;

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
            sqlx::query(
                "UPDATE pull_requests SET url = COALESCE(?, url), title = COALESCE(?, title), \
                 base_branch = COALESCE(?, base_branch), \
                 head_branch = COALESCE(?, head_branch), head_sha = COALESCE(?, head_sha), \
                 files = CASE WHEN ? = 'missing' THEN files ELSE ? END, \
                 files_state = CASE WHEN ? = 'missing' THEN files_state ELSE ? END, \
                 task_id = CASE WHEN ? THEN task_id ELSE ? END, mission_id = ?, updated_at = ? \
                 WHERE id = ?",
            )
            .bind(url)
            .bind(title)
            .bind(base)
            .bind(&head)
            .bind(sha)
            .bind(files_state)
            .bind(&files)
            .bind(files_state)
            .bind(files_state)
            // A fix pushed by an attempt (a reviewer retry) stays its deliverable's PR.
            .bind(task.task_class == "attempt" && existing.task_id.is_some())
            .bind(&task.id)
            .bind(&task.mission_id)
            .bind(&at)
            .bind(&existing.id)
            .execute(&mut **tx)
            .await?;
        }
        None => {
            sqlx::query(
                "INSERT INTO pull_requests (id, team_id, workspace_id, task_id, mission_id, number, \
                 url, title, base_branch, head_branch, head_sha, files, files_state, created_at, \
                 updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(new_id())
            .bind(&task.team_id)
            .bind(&task.workspace_id)
            .bind(&task.id)
            .bind(&task.mission_id)
            .bind(number)
            .bind(url)
            .bind(title)
            .bind(base)
            .bind(&head)
            .bind(sha)
            .bind(&files)
            .bind(files_state)
            .bind(&at)
            .bind(&at)
            .execute(&mut **tx)
            .await?;
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
    if let Some(pr) = pr.filter(|p| p.state == "open") {
        if !maybe_auto_merge(tx, &pr).await? && done {
            request_review(tx, &pr).await?;
        }
    }
    Ok(())
}
