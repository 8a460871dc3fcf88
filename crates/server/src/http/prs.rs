//! `GET /api/prs`, `POST /api/prs/{number}/checks`, `POST /api/prs/{number}/merge`.

use super::cache::{read_key, Lookup};
use super::caller::Caller;
use super::state::AppState;
use crate::body::{Body, Params};
use crate::db::work;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::flows::prs::merge::{maybe_auto_merge, merge};
use crate::flows::prs::rails::{context, evaluate};
use crate::flows::prs::review::{recheck_approval, request_review};
use crate::store::prs::{find_pr, insert_check, team_prs, PrRow};
use crate::store::tasks::task_by_id;
use crate::store::workspaces::team_workspace;
use crate::time::now;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use buildd_core::pr_rails::Files;
use buildd_core::pull_request::{CheckRun, PullRequest, PullRequestList};
use buildd_core::requests::prs::{workspace_of, CheckRunReport, MergePr};
use buildd_core::requests::queries::PrListQuery;
use buildd_core::AccountLevel;
use buildd_core::{CheckStatus, MergeTier, PrStatus};
use serde_json::{json, Value};

/// A PR as the API shows it: files without patches, check runs, policy and evaluation.
async fn view(tx: &mut Tx, pr: &PrRow) -> ApiResult<PullRequest> {
    let title: Option<String> = match (&pr.title, &pr.task_id) {
        (Some(title), _) => Some(title.clone()),
        (None, Some(t)) => task_by_id(tx, t).await?.map(|t| t.title),
        (None, None) => None,
    };
    let ctx = context(tx, pr).await?;
    let evaluation = ctx.evaluation(pr);
    let files = match pr.files() {
        Files::Listed(files) => Some(
            files
                .into_iter()
                .map(|mut f| {
                    f.patch = None;
                    f
                })
                .collect(),
        ),
        _ => None,
    };
    Ok(PullRequest {
        number: pr.number,
        url: pr.url.clone(),
        title,
        task_id: pr.task_id.clone(),
        mission_id: pr.mission_id.clone(),
        workspace_id: pr.workspace_id.clone(),
        base_branch: pr.base_branch.clone(),
        head_branch: pr.head_branch.clone(),
        head_sha: pr.head_sha.clone(),
        state: pr.state.clone(),
        merged_at: pr.merged_at.clone(),
        created_at: Some(pr.created_at.clone()),
        files,
        checks: ctx.checks,
        policy: ctx.policy,
        evaluation,
        reviews: ctx.reviews,
    })
}

/// `GET /api/prs?missionId=&workspaceId=`.
/// `GET /api/prs[?missionId=…][&workspaceId=…]`: polled, so kept with an `ETag` and gzip.
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<PrListQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let key = read_key(&caller.team_id, "/prs", &query);
    let mut tx = state.db.read().await?;
    let pending = match state.cache.lookup(&mut tx, key, &headers).await? {
        Lookup::Hit(response) => return Ok(response),
        Lookup::Miss(pending) => pending,
    };
    let rows = team_prs(
        &mut tx,
        &caller.team_id,
        query.mission_id.as_deref(),
        query.workspace_id.as_deref(),
    )
    .await?;
    let mut prs = Vec::with_capacity(rows.len());
    for row in &rows {
        prs.push(view(&mut tx, row).await?);
    }
    state.cache.keep(pending, &PullRequestList { prs })
}

async fn team_pr(tx: &mut Tx, caller: &Caller, workspace: &str, number: i64) -> ApiResult<PrRow> {
    team_workspace(tx, &caller.team_id, workspace).await?;
    find_pr(tx, workspace, number)
        .await?
        .ok_or(ApiError::NotFound("Pull request not found"))
}

/// `POST /api/prs/{number}/checks`: a CI check run for the PR (GitHub's check_run fields);
/// the PR is evaluated again and merges if it now may.
pub async fn record_check(
    State(state): State<AppState>,
    caller: Caller,
    Path(number): Path<i64>,
    Body(request): Body<CheckRunReport>,
) -> ApiResult<(StatusCode, Json<PullRequest>)> {
    if caller.level == AccountLevel::Trigger {
        return Err(ApiError::Forbidden(
            "Trigger-level API keys cannot report check runs".into(),
        ));
    }
    let workspace = workspace_of(&request.workspace_id)?;
    let [sha, name, status] = [request.head_sha, request.name, request.status]
        .map(|v| v.unwrap_or_default().trim().to_string());
    let (conclusion, details_url) = (request.conclusion, request.details_url);
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let pr = team_pr(tx, &caller, &workspace, number).await?;
                let check = CheckRun {
                    name,
                    head_sha: sha,
                    status: CheckStatus::from(status),
                    conclusion,
                    details_url,
                };
                insert_check(tx, &pr.id, &check, &now()).await?;
                if pr.state == PrStatus::Open && !maybe_auto_merge(tx, &pr).await? {
                    request_review(tx, &pr).await?;
                    // An approval that waited for CI on this commit is decided now.
                    recheck_approval(tx, &pr).await?;
                }
                let pr = find_pr(tx, &pr.workspace_id, number)
                    .await?
                    .ok_or(ApiError::NotFound("Pull request not found"))?;
                let out = view(tx, &pr).await?;
                Ok((StatusCode::CREATED, Json(out)))
            }),
        )
        .await
}

/// `POST /api/prs/{number}/merge` `{workspaceId}`: a person (admin key) merges once CI
/// passed for the head commit; an agent (worker key) only under auto-threshold, and only
/// where the PR could merge by itself. Answers Buildd's `{ok, merged}` with the PR.
pub async fn merge_endpoint(
    State(state): State<AppState>,
    caller: Caller,
    Path(number): Path<i64>,
    Body(request): Body<MergePr>,
) -> ApiResult<Json<Value>> {
    let agent = caller.level == AccountLevel::Worker;
    if !agent {
        caller.require_admin()?;
    }
    let workspace = workspace_of(&request.workspace_id)?;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let pr = team_pr(tx, &caller, &workspace, number).await?;
                if pr.state != PrStatus::Open {
                    return Err(ApiError::Conflict(format!(
                        "Pull request is already {}",
                        pr.state
                    )));
                }
                let (policy, evaluation) = evaluate(tx, &pr).await?;
                let tier = &policy.policy.tier;
                if agent && !policy.policy.may_auto_merge() {
                    let who = match tier {
                        MergeTier::Human => "a person",
                        _ => "the reviewer's verdict",
                    };
                    return Err(ApiError::Forbidden(format!(
                        "merge is gated by the merge policy tier: {tier} PRs are merged by {who}"
                    )));
                }
                let allowed = if agent {
                    evaluation.auto_merge
                } else {
                    evaluation.mergeable_by_person
                };
                if !allowed {
                    return Err(ApiError::Detailed(
                        StatusCode::CONFLICT,
                        json!({"error": format!("Merge refused: {}", evaluation.reasons.join("; ")),
                           "reasons": evaluation.reasons}),
                    ));
                }
                let by = if agent { "agent" } else { "account" };
                merge(tx, &pr, &format!("{by}:{}", caller.account_id)).await?;
                let pr = find_pr(tx, &pr.workspace_id, number)
                    .await?
                    .ok_or(ApiError::NotFound("Pull request not found"))?;
                let mut out = serde_json::to_value(view(tx, &pr).await?)?;
                out["ok"] = json!(true);
                out["merged"] = json!(true);
                Ok(Json(out))
            }),
        )
        .await
}
