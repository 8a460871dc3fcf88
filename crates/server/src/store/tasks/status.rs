//! A task's way through the queue: claimed, its lease renewed, back to pending, finished
//! with a result, or cancelled.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use buildd_core::TaskStatus;
use serde_json::Value;

/// buildd-core's finished-for-good statuses ([`TaskStatus::is_terminal`]) as a JSON array,
/// for a query to read with `json_each`: the rule stays in one place.
pub fn terminal_statuses() -> String {
    let terminal: Vec<&str> = TaskStatus::ALL
        .iter()
        .filter(|s| s.is_terminal())
        .map(TaskStatus::as_str)
        .collect();
    serde_json::to_string(&terminal).expect("strings serialize")
}

/// Pending again and unclaimed: what every return to the queue writes.
const BACK_TO_PENDING: &str =
    "status = 'pending', claimed_by = NULL, claimed_at = NULL, expires_at = NULL";

/// Assigns pending task `id` to `account_id` until `expires_at`; `false` when it was no
/// longer pending (another claim took it).
pub async fn claim(
    tx: &mut Tx,
    id: &str,
    account_id: &str,
    at: &str,
    expires_at: &str,
) -> ApiResult<bool> {
    let moved = sql::query(
        "UPDATE tasks SET status = 'assigned', claimed_by = ?, claimed_at = ?, expires_at = ?, \
         updated_at = ? WHERE id = ? AND status = 'pending'",
    )
    .bind(account_id)
    .bind(at)
    .bind(expires_at)
    .bind(at)
    .bind(id)
    .execute(tx)
    .await?
    .rows_affected();
    Ok(moved > 0)
}

/// Extends the claim on `task_id` to `until` when `worker_id` (its latest worker) holds it
/// and its lease runs out before `needed`.
pub async fn renew_lease(
    tx: &mut Tx,
    task_id: &str,
    worker_id: &str,
    needed: &str,
    until: &str,
) -> ApiResult<()> {
    sql::query(
        "UPDATE tasks SET expires_at = ? \
         WHERE id = ? AND latest_worker_id = ? \
           AND status IN ('assigned', 'in_progress') AND expires_at < ?",
    )
    .bind(until)
    .bind(task_id)
    .bind(worker_id)
    .bind(needed)
    .execute(tx)
    .await?;
    Ok(())
}

/// A return of a task to the queue.
pub struct Requeue<'a> {
    pub task_id: &'a str,
    /// Only while the task is claimed under this lease: a runner that reported since the
    /// lease was read keeps its task.
    pub lease: Option<&'a str>,
    /// A failed task forgets its result.
    pub clear_result: bool,
    pub at: &'a str,
}

/// Puts a task back in the queue, unclaimed; returns whether it moved.
pub async fn requeue(tx: &mut Tx, r: &Requeue<'_>) -> ApiResult<bool> {
    let moved = sql::query(&format!(
        "UPDATE tasks SET {BACK_TO_PENDING}, \
         result = CASE WHEN ?1 <> 0 THEN NULL ELSE result END, updated_at = ?2 \
         WHERE id = ?3 \
           AND (?4 IS NULL OR (status IN ('assigned', 'in_progress') AND expires_at = ?4))"
    ))
    .bind(r.clear_result)
    .bind(r.at)
    .bind(r.task_id)
    .bind(r.lease)
    .execute(tx)
    .await?
    .rows_affected();
    Ok(moved > 0)
}

/// Puts every task `account_id` holds back in the queue.
pub async fn requeue_claims_of(tx: &mut Tx, account_id: &str, at: &str) -> ApiResult<()> {
    sql::query(&format!(
        "UPDATE tasks SET {BACK_TO_PENDING}, updated_at = ? \
         WHERE status IN ('assigned', 'in_progress') AND claimed_by = ?"
    ))
    .bind(at)
    .bind(account_id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Sets task `id`'s status and result (`None` clears it).
pub async fn set_outcome(
    tx: &mut Tx,
    id: &str,
    status: &TaskStatus,
    result: Option<&Value>,
    at: &str,
) -> ApiResult<()> {
    sql::query("UPDATE tasks SET status = ?, result = ?, updated_at = ? WHERE id = ?")
        .bind(status.as_str())
        .bind(result.map(Value::to_string))
        .bind(at)
        .bind(id)
        .execute(tx)
        .await?;
    Ok(())
}

/// Cancels task `id` unless it already finished.
pub async fn cancel(tx: &mut Tx, id: &str, at: &str) -> ApiResult<()> {
    sql::query(
        "UPDATE tasks SET status = 'cancelled', updated_at = ? WHERE id = ? \
         AND status IN ('pending', 'assigned', 'in_progress')",
    )
    .bind(at)
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}
