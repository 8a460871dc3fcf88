//! A worker's report of its PR: number, url, branches, head commit and changed files.

use super::{find_pr, PrRow};
use crate::body::JsonObject;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::rows::{TaskRow, WorkerRow};
use crate::time::{new_id, now};
use buildd_core::pull_request::PrFile;
use serde_json::Value;

const FILE_STATUSES: [&str; 4] = ["added", "modified", "removed", "renamed"];

/// `files` as reported: the list, or `Err` naming what is wrong with it (the listing is then
/// "malformed"); `None` when it was not sent.
fn read_files(value: Option<&Value>) -> Option<Result<Vec<PrFile>, String>> {
    let value = value.filter(|v| !v.is_null())?;
    let Some(items) = value.as_array() else {
        return Some(Err("files must be an array".into()));
    };
    let mut files = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let field = |k: &str| item.get(k);
        let path = field("path")
            .and_then(Value::as_str)
            .filter(|p| !p.is_empty());
        let status = field("status")
            .and_then(Value::as_str)
            .filter(|s| FILE_STATUSES.contains(s));
        let count = |k: &str| match field(k) {
            None => Some(0),
            Some(v) => v.as_i64().filter(|n| *n >= 0),
        };
        let patch = match field("patch") {
            None | Some(Value::Null) => Some(None),
            Some(Value::String(p)) => Some(Some(p.clone())),
            Some(_) => None,
        };
        match (path, status, count("additions"), count("deletions"), patch) {
            (Some(path), Some(status), Some(additions), Some(deletions), Some(patch)) => files
                .push(PrFile {
                    path: path.into(),
                    status: status.into(),
                    additions,
                    deletions,
                    patch,
                }),
            _ => return Some(Err(format!("files[{i}] is not a valid file entry"))),
        }
    }
    Some(Ok(files))
}

/// Records the PR a worker reports (when `prNumber` is given) and links it to the worker;
/// returns the PR as stored.
pub async fn record_pr(
    tx: &mut Tx,
    worker: &WorkerRow,
    task: &TaskRow,
    body: &JsonObject,
) -> ApiResult<Option<PrRow>> {
    let Some(number) = body.integer("prNumber")?.value() else {
        return Ok(None);
    };
    if number <= 0 {
        return Err(ApiError::bad("prNumber must be a positive integer"));
    }
    let url = body.string("prUrl")?.value();
    let base = body.string("baseBranch")?.value();
    let head = body.string("headBranch")?.value().or(worker.branch.clone());
    let sha = body.string("headSha")?.value();
    let (files, files_state) = match read_files(body.0.get("files")) {
        None => (None, "missing"),
        Some(Ok(files)) => (Some(serde_json::to_string(&files)?), "listed"),
        Some(Err(_)) => (None, "malformed"),
    };
    let at = now();
    match find_pr(tx, &task.workspace_id, number).await? {
        Some(existing) => {
            sqlx::query(
                "UPDATE pull_requests SET url = COALESCE(?, url), base_branch = COALESCE(?, base_branch), \
                 head_branch = COALESCE(?, head_branch), head_sha = COALESCE(?, head_sha), \
                 files = CASE WHEN ? = 'missing' THEN files ELSE ? END, \
                 files_state = CASE WHEN ? = 'missing' THEN files_state ELSE ? END, \
                 task_id = CASE WHEN ? THEN task_id ELSE ? END, mission_id = ?, updated_at = ? \
                 WHERE id = ?",
            )
            .bind(&url)
            .bind(&base)
            .bind(&head)
            .bind(&sha)
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
                 url, base_branch, head_branch, head_sha, files, files_state, created_at, updated_at) \
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(new_id())
            .bind(&task.team_id)
            .bind(&task.workspace_id)
            .bind(&task.id)
            .bind(&task.mission_id)
            .bind(number)
            .bind(&url)
            .bind(&base)
            .bind(&head)
            .bind(&sha)
            .bind(&files)
            .bind(files_state)
            .bind(&at)
            .bind(&at)
            .execute(&mut **tx)
            .await?;
        }
    }
    find_pr(tx, &task.workspace_id, number).await
}
