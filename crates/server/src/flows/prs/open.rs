//! A PR an agent opens with Buildd's `create_pr`. This server calls no GitHub: it records the
//! PR on the worker and its task — the number given, or the workspace's next one — and the
//! PR goes through the rails like one reported on completion.

use super::record::{route_pr, PrFiles, PrReport};
use crate::db::Tx;
use crate::error::ApiResult;
use crate::flows::leases::renew;
use crate::store::prs::next_number;
use crate::store::tasks::{find_task, TaskRow};
use crate::store::turns::hold_workspace;
use crate::store::workers::{find_worker, set_worker_pr, WorkerRow};
use crate::store::workspaces::{team_workspace, WorkspaceRow};
use crate::time::now;
use serde_json::Value;

/// The PR as the agent asks for it.
pub struct Opening {
    pub title: String,
    pub head: String,
    pub base: Option<String>,
    /// Its address and number, when the agent opened it itself.
    pub url: Option<String>,
    pub number: Option<i64>,
}

/// Opens the PR that `worker`, of team `team_id`, asks for; returns its number and address.
pub async fn open_pr(
    tx: &mut Tx,
    team_id: &str,
    worker: &WorkerRow,
    opening: Opening,
) -> ApiResult<(i64, Option<String>)> {
    let task = find_task(tx, team_id, &worker.task_id).await?;
    let number = match opening.number {
        Some(n) => n,
        None => {
            // PRs opened at once in one workspace number themselves one after the other.
            hold_workspace(tx, &task.workspace_id).await?;
            next_number(tx, &task.workspace_id).await?
        }
    };
    let workspace = team_workspace(tx, team_id, &task.workspace_id).await?;
    let url = opening.url.or_else(|| {
        let repo = workspace.repo.as_deref()?;
        Some(format!("https://github.com/{repo}/pull/{number}"))
    });
    let base = opening
        .base
        .unwrap_or_else(|| default_base(&task, &workspace, &opening.head));
    set_worker_pr(tx, &worker.id, url.as_deref(), number, &now()).await?;
    renew(tx, &task, &worker.id, chrono::Utc::now()).await?;
    let worker = find_worker(tx, team_id, &worker.id).await?;
    let report = PrReport {
        number,
        url: url.clone(),
        title: Some(opening.title),
        base: Some(base),
        head: Some(opening.head),
        sha: None,
        files: PrFiles::Missing,
    };
    route_pr(tx, &worker, &task, Some(&report), false).await?;
    Ok((number, url))
}

/// Where a PR goes when the agent names no base, in Buildd's order: the task's base branch
/// (a step stacked on another), its target, the workspace's target or default branch, `main`.
fn default_base(task: &TaskRow, workspace: &WorkspaceRow, head: &str) -> String {
    let context: Value = serde_json::from_str(&task.context).unwrap_or(Value::Null);
    let git: Value = serde_json::from_str(&workspace.git_config).unwrap_or(Value::Null);
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    text(&context, "baseBranch")
        .filter(|b| b != head)
        .or_else(|| text(&context, "targetBranch"))
        .or_else(|| text(&git, "targetBranch"))
        .or_else(|| text(&git, "defaultBranch"))
        .unwrap_or_else(|| "main".into())
}
