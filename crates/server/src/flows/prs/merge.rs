//! Merging a PR: by itself when the auto-threshold tier allows it, or on a reviewer's or a
//! person's word. A merge is a squash and records a release; then the mission may
//! complete, or plans again.

use super::rails::evaluate;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::flows::completion::maybe_complete;
use crate::flows::organizer::{wake, Trigger};
use crate::store::prs::{mark_merged, record_release, PrRow};
use crate::store::tasks::open_count_in_mission;
use crate::store::workers::mark_pr_merged;
use crate::time::now;
use buildd_core::TriggerSource;

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
    mark_merged(tx, pr, by, &at).await?;
    mark_pr_merged(tx, &pr.workspace_id, pr.number, &at).await?;
    record_release(tx, pr, by, &at).await?;
    if let Some(mission) = &pr.mission_id {
        let completed = maybe_complete(tx, mission).await?;
        let open = open_count_in_mission(tx, mission).await?;
        // With work still open the merge unblocks it; the organizer plans once it is done.
        if !completed && open == 0 {
            let trigger = Trigger {
                source: TriggerSource::PrMerged,
                task_id: pr.task_id.as_deref(),
            };
            wake(tx, mission, trigger).await?;
        }
    }
    Ok(())
}
