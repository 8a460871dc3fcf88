//! `POST /api/github/pr {workerId, title, head, base?, body?, draft?, prUrl?}`: the PR an
//! agent opens with Buildd's `create_pr`, recorded by `flows::prs::open`. A worker that
//! already has its PR gets that one back.

use super::caller::Caller;
use super::state::AppState;
use crate::body::Body;
use crate::db::work;
use crate::error::{ApiError, ApiResult};
use crate::flows::prs::open::{open_pr, Opening};
use crate::store::workers::{find_worker, WorkerRow};
use axum::extract::State;
use axum::Json;
use buildd_core::requests::prs::OpenPr;
use buildd_core::{AccountLevel, OpenedPr, PrOpened};

pub async fn open(
    State(state): State<AppState>,
    caller: Caller,
    Body(request): Body<OpenPr>,
) -> ApiResult<Json<PrOpened>> {
    if caller.level == AccountLevel::Trigger {
        return Err(ApiError::Forbidden(
            "Trigger-level API keys cannot open pull requests".into(),
        ));
    }
    let (worker_id, opening) = read_request(&request)?;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
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
            }),
        )
        .await
}

/// The worker a request names, and the PR it asks for.
fn read_request(request: &OpenPr) -> ApiResult<(String, Opening)> {
    let (title, head) = request.title_and_head()?;
    let opening = Opening {
        title,
        head,
        base: request.base(),
        url: request.url(),
        number: request.number()?,
    };
    Ok((request.worker_id()?, opening))
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
