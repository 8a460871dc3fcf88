//! `POST /api/github/pr {workerId, title, head, base?, body?, draft?, prUrl?}`: the PR an
//! agent opens with Buildd's `create_pr`, recorded by `flows::prs::open`. A worker that
//! already has its PR gets that one back.

use super::caller::Caller;
use super::state::AppState;
use crate::body::JsonObject;
use crate::error::{ApiError, ApiResult};
use crate::flows::prs::open::{open_pr, Opening};
use crate::store::workers::{find_worker, WorkerRow};
use axum::extract::State;
use axum::Json;
use buildd_core::{AccountLevel, OpenedPr, PrOpened};

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
    let (worker_id, opening) = read_request(&body)?;
    state
        .db
        .transact(caller.lane(), move |tx| {
            Box::pin(async move {
                let worker = find_worker(tx, &caller.team_id, &worker_id).await?;
                may_open(&worker, &caller)?;
                let title = opening.title.clone();
                let (number, url, deduplicated) = match worker.pr_number {
                    Some(number) => (number, worker.pr_url.clone(), Some(true)),
                    None => {
                        let (number, url) = open_pr(tx, &caller.team_id, &worker, opening).await?;
                        (number, url, None)
                    }
                };
                Ok(Json(PrOpened {
                    ok: true,
                    pr: OpenedPr {
                        number: Some(number),
                        url,
                        state: "open".into(),
                        title: Some(title),
                    },
                    deduplicated,
                }))
            })
        })
        .await
}

/// The worker a body names, and the PR it asks for, read field by field in the order
/// refusals name them.
fn read_request(body: &JsonObject) -> ApiResult<(String, Opening)> {
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
    let url = body.non_blank_string("prUrl")?;
    let number = match &url {
        Some(url) => Some(number_in(url).ok_or_else(|| {
            ApiError::bad("prUrl must be a pull request's address, ending in /pull/<number>")
        })?),
        None => None,
    };
    let opening = Opening {
        title,
        head,
        base,
        url,
        number,
    };
    Ok((worker_id, opening))
}

/// The account that claimed `worker` (or an admin key) opens its PR, while it works.
fn may_open(worker: &WorkerRow, caller: &Caller) -> ApiResult<()> {
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
    Ok(())
}

/// The number in a PR address `…/pull/<n>`.
fn number_in(url: &str) -> Option<i64> {
    let (_, rest) = url.rsplit_once("/pull/")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok().filter(|n| *n > 0)
}
