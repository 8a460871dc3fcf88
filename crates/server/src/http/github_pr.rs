//! `POST /api/github/pr {workerId, title, head, base?, body?, draft?, prUrl?}`: the PR an
//! agent opens with Buildd's `create_pr`. This server calls no GitHub: it records the PR on
//! the worker and its task — the number of `prUrl`, or the workspace's next one — and the
//! PR goes through the merge rails like one reported on completion.

use super::caller::Caller;
use super::state::AppState;
use crate::body::JsonObject;
use crate::error::{ApiError, ApiResult};
use crate::flows::leases::renew;
use crate::flows::prs::record::{route_pr, PrFiles, PrReport};
use crate::store::prs::next_number;
use crate::store::tasks::{find_task, TaskRow};
use crate::store::workers::{find_worker, set_worker_pr};
use crate::store::workspaces::{team_workspace, WorkspaceRow};
use crate::time::now;
use axum::extract::State;
use axum::Json;
use buildd_core::{AccountLevel, OpenedPr, PrOpened};
use serde_json::Value;

pub async fn open(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> ApiResult<Json<PrOpened>> {
    if caller.level == AccountLevel::Trigger {
        return Err(ApiError::Forbidden(
            "Trigger-level API keys cannot open pull requests".into(),
        ));
    }
    let worker_id = body.required_string("workerId", "workerId required")?;
    let (Some(title), Some(head)) = (
        body.non_blank_string("title")?,
        body.non_blank_string("head")?,
    ) else {
        return Err(ApiError::bad("title and head branch required"));
    };
    let base = body.non_blank_string("base")?;
    body.string("body")?;
    body.boolean("draft")?;
    let pr_url = body.non_blank_string("prUrl")?;
    let given_number = match &pr_url {
        Some(url) => Some(number_in(url).ok_or_else(|| {
            ApiError::bad("prUrl must be a pull request's address, ending in /pull/<number>")
        })?),
        None => None,
    };

    let mut tx = state.db.write().await?;
    let worker = find_worker(&mut tx, &caller.team_id, &worker_id).await?;
    if worker.account_id.as_deref() != Some(caller.account_id.as_str())
        && caller.level != AccountLevel::Admin
    {
        return Err(ApiError::Forbidden(
            "Worker belongs to different account".into(),
        ));
    }
    if worker.is_finished() {
        return Err(ApiError::Conflict(format!(
            "Worker already {}: its PR is the one it reported",
            worker.status
        )));
    }
    if let Some(number) = worker.pr_number {
        return Ok(Json(PrOpened {
            ok: true,
            pr: OpenedPr {
                number: Some(number),
                url: worker.pr_url.clone(),
                state: "open".into(),
                title: Some(title),
            },
            deduplicated: Some(true),
        }));
    }
    let task = find_task(&mut tx, &caller.team_id, &worker.task_id).await?;
    let number = match given_number {
        Some(n) => n,
        None => next_number(&mut tx, &task.workspace_id).await?,
    };
    let workspace = team_workspace(&mut tx, &caller.team_id, &task.workspace_id).await?;
    let url = pr_url.or_else(|| {
        let repo = workspace.repo.as_deref()?;
        Some(format!("https://github.com/{repo}/pull/{number}"))
    });
    let base = base.unwrap_or_else(|| default_base(&task, &workspace, &head));
    let at = now();
    set_worker_pr(&mut tx, &worker.id, url.as_deref(), number, &at).await?;
    renew(&mut tx, &task.id, &worker.id, chrono::Utc::now()).await?;
    let worker = find_worker(&mut tx, &caller.team_id, &worker.id).await?;
    let report = PrReport {
        number,
        url: url.clone(),
        title: Some(title.clone()),
        base: Some(base),
        head: Some(head),
        sha: None,
        files: PrFiles::Missing,
    };
    route_pr(&mut tx, &worker, &task, Some(&report), false).await?;
    tx.commit().await?;
    Ok(Json(PrOpened {
        ok: true,
        pr: OpenedPr {
            number: Some(number),
            url,
            state: "open".into(),
            title: Some(title),
        },
        deduplicated: None,
    }))
}

/// The number in a PR address `…/pull/<n>`.
fn number_in(url: &str) -> Option<i64> {
    let (_, rest) = url.rsplit_once("/pull/")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok().filter(|n| *n > 0)
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
