//! Merging a PR: by itself when the auto-threshold tier allows it, or on a reviewer's or a
//! person's word. A merge is a squash and records a release; then the mission may
//! complete, or plans again.

use super::rails::evaluate;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::flows::completion::maybe_complete;
use crate::flows::organizer::{wake, Trigger};
use crate::store::prs::PrRow;
use crate::time::{new_id, now};

/// Merges `pr` when its evaluation lets it merge by itself; returns whether it merged.
pub async fn maybe_auto_merge(tx: &mut Tx, pr: &PrRow) -> ApiResult<bool> {
    let (_, evaluation) = evaluate(tx, pr).await?;
    if evaluation.auto_merge {
        merge(tx, pr, "auto-merge").await?;
    }
    Ok(evaluation.auto_merge)
}

/// Squash-merges `pr`: the PR, its workers and the release record; then the mission may
/// complete, or plans again.
pub async fn merge(tx: &mut Tx, pr: &PrRow, by: &str) -> ApiResult<()> {
    let at = now();
    sqlx::query(
        "UPDATE pull_requests SET state = 'merged', merged_at = ?, merged_by = ?, updated_at = ? \
         WHERE id = ? AND state = 'open'",
    )
    .bind(&at)
    .bind(by)
    .bind(&at)
    .bind(&pr.id)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE workers SET merged_at = ?, pr_lifecycle_status = 'merged', updated_at = ? \
         WHERE workspace_id = ? AND pr_number = ?",
    )
    .bind(&at)
    .bind(&at)
    .bind(&pr.workspace_id)
    .bind(pr.number)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO release_events (id, team_id, workspace_id, pr_id, mission_id, merged_by, created_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(new_id())
    .bind(&pr.team_id)
    .bind(&pr.workspace_id)
    .bind(&pr.id)
    .bind(&pr.mission_id)
    .bind(by)
    .bind(&at)
    .execute(&mut **tx)
    .await?;
    if let Some(mission) = &pr.mission_id {
        let completed = maybe_complete(tx, mission).await?;
        let (open,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM tasks WHERE mission_id = ? \
             AND status NOT IN ('completed', 'failed', 'cancelled')",
        )
        .bind(mission)
        .fetch_one(&mut **tx)
        .await?;
        // With work still open the merge unblocks it; the organizer plans once it is done.
        if !completed && open == 0 {
            let trigger = Trigger {
                source: "wake:pr_merged",
                task_id: pr.task_id.as_deref(),
            };
            wake(tx, mission, trigger).await?;
        }
    }
    Ok(())
}
