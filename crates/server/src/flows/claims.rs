//! The queue a runner claims from: the tasks a claim may take now, in claim order — not
//! before their start time, not while their mission is paused, held or out of budget, and
//! only once every dependency settled (buildd-core's `dependency_satisfied`, applied by the
//! claim queue's triggers) — and, when there are none, why.

use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::claim_queue::{self, QueueCounts, QueueFilter};

pub use claim_queue::claimable;

/// Why a claim took nothing: the first reason that held any task back, in the order
/// Buildd's runner reads them (a blocked dependency before a stopped mission before a start
/// time to come); `raced` when claimable tasks were there but went to other claims.
pub fn reason(counts: &QueueCounts, raced: bool) -> &'static str {
    if counts.blocked > 0 {
        "deps_blocked"
    } else if counts.out_of_budget > 0 {
        "budget_exhausted"
    } else if counts.paused > 0 {
        "context_paused"
    } else if counts.deferred > 0 {
        "all_candidates_deferred"
    } else if raced {
        "race_lost"
    } else {
        "no_pending_tasks"
    }
}

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
