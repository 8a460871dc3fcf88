//! Finding pull requests: by number or id, a team's list, the open ones a change concerns,
//! and those quiet long enough to be told about.

use super::row::{PrRow, PR_COLUMNS};
use crate::db::sql;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};

/// The PR `number` of `workspace_id`.
pub async fn find_pr(tx: &mut Tx, workspace_id: &str, number: i64) -> ApiResult<Option<PrRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {PR_COLUMNS} FROM pull_requests p WHERE p.workspace_id = ? AND p.number = ?"
    ))
    .bind(workspace_id)
    .bind(number)
    .fetch_optional(tx)
    .await?)
}

/// The PR `id`, which a review of it names.
pub async fn pr_by_id(tx: &mut Tx, id: &str) -> ApiResult<PrRow> {
    sql::query_as(&format!(
        "SELECT {PR_COLUMNS} FROM pull_requests p WHERE p.id = ?"
    ))
    .bind(id)
    .fetch_optional(tx)
    .await?
    .ok_or_else(|| ApiError::Internal(format!("pull request {id} vanished")))
}

/// The PR `id` if it is still open.
pub async fn open_pr_by_id(tx: &mut Tx, id: &str) -> ApiResult<Option<PrRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {PR_COLUMNS} FROM pull_requests p WHERE p.id = ? AND p.state = 'open'"
    ))
    .bind(id)
    .fetch_optional(tx)
    .await?)
}

/// The team's newest 200 PRs, of `mission_id` and `workspace_id` when given.
pub async fn team_prs(
    tx: &mut Tx,
    team_id: &str,
    mission_id: Option<&str>,
    workspace_id: Option<&str>,
) -> ApiResult<Vec<PrRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {PR_COLUMNS} FROM pull_requests p WHERE p.team_id = ?1 \
         AND (?2 IS NULL OR p.mission_id = ?2) AND (?3 IS NULL OR p.workspace_id = ?3) \
         ORDER BY p.number DESC LIMIT 200"
    ))
    .bind(team_id)
    .bind(mission_id)
    .bind(workspace_id)
    .fetch_all(tx)
    .await?)
}

/// The open PRs of `workspace_id` other than `except_id`.
pub async fn other_open_prs(
    tx: &mut Tx,
    workspace_id: &str,
    except_id: &str,
) -> ApiResult<Vec<PrRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {PR_COLUMNS} FROM pull_requests p WHERE p.workspace_id = ? AND p.state = 'open' \
         AND p.id <> ?"
    ))
    .bind(workspace_id)
    .bind(except_id)
    .fetch_all(tx)
    .await?)
}

/// The open PRs of `mission_id`, or of `workspace_id`, or of both when both are given.
pub async fn open_prs(
    tx: &mut Tx,
    mission_id: Option<&str>,
    workspace_id: Option<&str>,
) -> ApiResult<Vec<PrRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {PR_COLUMNS} FROM pull_requests p WHERE p.state = 'open' \
         AND (?1 IS NULL OR p.mission_id = ?1) AND (?2 IS NULL OR p.workspace_id = ?2)"
    ))
    .bind(mission_id)
    .bind(workspace_id)
    .fetch_all(tx)
    .await?)
}

/// When PR `p` last moved: reported, CI ran, a review began or ended (`MAX` on SQLite).
macro_rules! moved {
    ($max:literal) => {
        concat!(
            $max,
            "(p.updated_at, \
               COALESCE((SELECT MAX(c.created_at) FROM check_runs c WHERE c.pr_id = p.id), ''), \
               COALESCE((SELECT MAX(COALESCE(r.decided_at, r.created_at)) FROM pr_reviews r \
                         WHERE r.pr_id = p.id), ''))"
        )
    };
}

/// Open PRs of a mission that last moved at or before `quiet_since` and were not told
/// about since: their ids.
pub async fn quiet_prs(tx: &mut Tx, quiet_since: &str) -> ApiResult<Vec<String>> {
    let quiet: Vec<(String,)> = sql::query_as(concat!(
        "SELECT id FROM (SELECT p.id, p.stall_notified_at AS told, ",
        moved!("MAX"),
        " AS moved FROM pull_requests p WHERE p.state = 'open' AND p.mission_id IS NOT NULL) \
         WHERE moved <= ? AND (told IS NULL OR told < moved)"
    ))
    .postgres(concat!(
        "SELECT id FROM (SELECT p.id, p.stall_notified_at AS told, ",
        moved!("GREATEST"),
        " AS moved FROM pull_requests p WHERE p.state = 'open' AND p.mission_id IS NOT NULL) quiet \
         WHERE moved <= ? AND (told IS NULL OR told < moved)"
    ))
    .bind(quiet_since)
    .fetch_all(tx)
    .await?;
    Ok(quiet.into_iter().map(|(id,)| id).collect())
}

/// When PR `id` last moved, as [`quiet_prs`] reckons it, read again in the transaction
/// that would tell about it.
pub async fn pr_moved(tx: &mut Tx, id: &str) -> ApiResult<Option<String>> {
    let moved: Option<(String,)> = sql::query_as(concat!(
        "SELECT ",
        moved!("MAX"),
        " FROM pull_requests p WHERE p.id = ?"
    ))
    .postgres(concat!(
        "SELECT ",
        moved!("GREATEST"),
        " FROM pull_requests p WHERE p.id = ?"
    ))
    .bind(id)
    .fetch_optional(tx)
    .await?;
    Ok(moved.map(|(m,)| m))
}

/// The workspace's next PR number.
pub async fn next_number(tx: &mut Tx, workspace_id: &str) -> ApiResult<i64> {
    let (next,): (i64,) = sql::query_as(
        "SELECT COALESCE(MAX(number), 0) + 1 FROM pull_requests WHERE workspace_id = ?",
    )
    .bind(workspace_id)
    .fetch_one(tx)
    .await?;
    Ok(next)
}
