//! The queue a runner claims from: the tasks a claim may take now, in claim order — not
//! before their start time, not while their mission is paused, held or out of budget, and
//! only once every dependency settled (buildd-core's `dependency_satisfied`, applied by the
//! claim queue's triggers) — and, when there are none, why.

use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::claim_queue::{self, QueueFilter};
use buildd_core::claims::why_none as reason;

pub use claim_queue::{claimable, claimable_to_take};

/// Why a claim of `f` at `at` took nothing, and how many tasks it found pending.
pub async fn why_none(
    tx: &mut Tx,
    f: &QueueFilter<'_>,
    at: &str,
    raced: bool,
) -> ApiResult<(&'static str, i64)> {
    let counts = claim_queue::counts(tx, f, at).await?;
    Ok((reason(&counts, raced), counts.pending))
}

/// How many of the team's tasks a claim could take at `at`.
pub async fn claimable_count(tx: &mut Tx, team_id: &str, at: &str) -> ApiResult<i64> {
    claim_queue::claimable_count(tx, team_id, at).await
}
