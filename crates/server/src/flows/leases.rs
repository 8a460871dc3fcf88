//! A claim is a lease: a runner that keeps reporting keeps its task; one that stops
//! reporting for [`CLAIM_TTL_MINUTES`] loses it, and the task goes back to the queue for
//! another runner instead of staying assigned to a runner that is gone. A report renews the
//! lease at most once every [`RENEW_STEP_MINUTES`] minutes: runners report every few
//! seconds, and rewriting the task each time would make a report as dear as a status change.

use crate::db::{Db, Tx};
use crate::error::ApiResult;
use crate::store::notes::system_note;
use crate::store::tasks::{self, Requeue, TaskRow};
use crate::store::workers::fail_unfinished;
use crate::time::iso;
use buildd_core::NoteKind;
use chrono::{DateTime, Duration, Utc};

/// How long a claim holds a task without a report from its runner.
pub const CLAIM_TTL_MINUTES: i64 = 60;

/// A claim or renewal sets the lease this far past [`CLAIM_TTL_MINUTES`], so the reports in
/// between need not move it at all and it still outlives every report by the whole TTL.
pub const RENEW_STEP_MINUTES: i64 = 1;

/// When a claim taken or renewed at `now` runs out.
pub fn lease_until(now: DateTime<Utc>) -> String {
    iso(now + Duration::minutes(CLAIM_TTL_MINUTES + RENEW_STEP_MINUTES))
}

/// Renews the claim on `task` when `worker_id` holds it (its latest worker): its runner
/// just reported. A worker the task has moved on from renews nothing; a lease that still
/// runs [`CLAIM_TTL_MINUTES`] from `now` is left as it is. `task` is as read earlier in this
/// transaction: nothing in a request moves a lease earlier (a requeue clears it, and then
/// there is nothing to renew), so a lease it shows long enough needs no statement at all,
/// which is what nearly every report finds.
pub async fn renew(
    tx: &mut Tx,
    task: &TaskRow,
    worker_id: &str,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    let needed = iso(now + Duration::minutes(CLAIM_TTL_MINUTES));
    match task.expires_at.as_deref() {
        Some(at) if at < needed.as_str() => {
            tasks::renew_lease(tx, &task.id, worker_id, &needed, &lease_until(now)).await
        }
        _ => Ok(()),
    }
}

/// Returns every task whose claim ran out by `now` to the queue, one transaction each: its
/// worker fails (a late report from it is refused), the mission's feed says so. Returns
/// how many tasks went back.
pub async fn release_expired(db: &Db, now: DateTime<Utc>) -> ApiResult<usize> {
    let at = iso(now);
    let expired = {
        let mut tx = db.read().await?;
        tasks::expired_claims(&mut tx, &at).await?
    };
    let mut released = 0;
    for claim in expired {
        let mut tx = db.write().await?;
        // Unless its runner reported (or finished) since it was read.
        let requeue = Requeue {
            task_id: &claim.id,
            lease: Some(&claim.expires_at),
            clear_result: false,
            at: &at,
        };
        if !tasks::requeue(&mut tx, &requeue).await? {
            continue;
        }
        let why =
            format!("Claim expired: no report from the runner for {CLAIM_TTL_MINUTES} minutes");
        fail_unfinished(&mut tx, &claim.id, &why, &at).await?;
        if let Some(mission) = &claim.mission_id {
            system_note(
                &mut tx,
                &claim.team_id,
                mission,
                Some(&claim.id),
                NoteKind::Warning,
                &format!("\"{}\" went back to the queue", claim.title),
                Some(format!(
                    "Its runner stopped reporting for {CLAIM_TTL_MINUTES} minutes; \
                     the next runner to claim work picks it up."
                )),
            )
            .await?;
        }
        tx.commit().await?;
        released += 1;
    }
    Ok(released)
}
