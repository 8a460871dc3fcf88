//! A claim is a lease: a runner that keeps reporting keeps its task; one that stops
//! reporting for [`CLAIM_TTL_MINUTES`] loses it, and the task goes back to the queue for
//! another runner instead of staying assigned to a runner that is gone.

use crate::db::{Db, Tx};
use crate::error::ApiResult;
use crate::store::notes::system_note;
use crate::time::iso;
use chrono::{DateTime, Duration, Utc};

/// How long a claim holds a task without a report from its runner.
pub const CLAIM_TTL_MINUTES: i64 = 60;

/// When a claim taken or renewed at `now` runs out.
pub fn lease_until(now: DateTime<Utc>) -> String {
    iso(now + Duration::minutes(CLAIM_TTL_MINUTES))
}

/// Renews the claim on `task_id` when `worker_id` holds it (its latest worker): its runner
/// just reported. A worker the task has moved on from renews nothing.
pub async fn renew(
    tx: &mut Tx,
    task_id: &str,
    worker_id: &str,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    sqlx::query(
        "UPDATE tasks SET expires_at = ? \
         WHERE id = ? AND latest_worker_id = ? \
           AND status IN ('assigned', 'in_progress') AND expires_at IS NOT NULL",
    )
    .bind(lease_until(now))
    .bind(task_id)
    .bind(worker_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Fails the unfinished workers of `task_id` with `why`: the task is back in the queue, and
/// their runner's late reports are refused (409 `abort`).
pub async fn drop_runner(tx: &mut Tx, task_id: &str, why: &str, at: &str) -> ApiResult<()> {
    sqlx::query(
        "UPDATE workers SET status = 'failed', error = ?1, current_action = NULL, \
         completed_at = ?2, updated_at = ?2 \
         WHERE task_id = ?3 AND status NOT IN ('completed', 'failed', 'error')",
    )
    .bind(why)
    .bind(at)
    .bind(task_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Returns every task whose claim ran out by `now` to the queue, one transaction each: its
/// worker fails (a late report from it is refused), the mission's feed says so. Returns
/// how many tasks went back.
pub async fn release_expired(db: &Db, now: DateTime<Utc>) -> ApiResult<usize> {
    let at = iso(now);
    let expired: Vec<(String, String, Option<String>, String, String)> = {
        let mut tx = db.read().await?;
        sqlx::query_as(
            "SELECT id, team_id, mission_id, title, expires_at FROM tasks \
             WHERE status IN ('assigned', 'in_progress') AND expires_at IS NOT NULL \
               AND expires_at < ?",
        )
        .bind(&at)
        .fetch_all(&mut *tx)
        .await?
    };
    let mut released = 0;
    for (task_id, team_id, mission_id, title, expires_at) in expired {
        let mut tx = db.write().await?;
        // Unless its runner reported (or finished) since it was read.
        let moved = sqlx::query(
            "UPDATE tasks SET status = 'pending', claimed_by = NULL, claimed_at = NULL, \
             expires_at = NULL, updated_at = ? \
             WHERE id = ? AND status IN ('assigned', 'in_progress') AND expires_at = ?",
        )
        .bind(&at)
        .bind(&task_id)
        .bind(&expires_at)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if moved == 0 {
            continue;
        }
        let why =
            format!("Claim expired: no report from the runner for {CLAIM_TTL_MINUTES} minutes");
        drop_runner(&mut tx, &task_id, &why, &at).await?;
        if let Some(mission) = &mission_id {
            system_note(
                &mut tx,
                &team_id,
                mission,
                Some(&task_id),
                "warning",
                &format!("\"{title}\" went back to the queue"),
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
