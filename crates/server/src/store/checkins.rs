//! A mission's check-ins as recorded, whatever each decided, and which missions are due one.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::new_id;
use buildd_core::organizer_runs::CheckIn;
use buildd_core::CheckinOutcome;

#[derive(sqlx::FromRow)]
struct CheckinRow {
    at: String,
    #[sqlx(try_from = "String")]
    outcome: CheckinOutcome,
    reason: Option<String>,
    text: String,
    task_id: Option<String>,
}

const CHECKIN_COLUMNS: &str = "at, outcome, reason, text, task_id";

impl CheckinRow {
    fn into_check_in(self) -> CheckIn {
        CheckIn {
            at: self.at,
            outcome: self.outcome,
            reason: self.reason,
            text: self.text,
            task_id: self.task_id,
        }
    }
}

/// The mission's latest check-in.
pub async fn last_check(tx: &mut Tx, mission_id: &str) -> ApiResult<Option<CheckIn>> {
    let row: Option<CheckinRow> = sql::query_as(&format!(
        "SELECT {CHECKIN_COLUMNS} FROM checkins WHERE mission_id = ? \
         ORDER BY at DESC, rowid DESC LIMIT 1"
    ))
    .bind(mission_id)
    .fetch_optional(tx)
    .await?;
    Ok(row.map(CheckinRow::into_check_in))
}

/// The mission's newest `limit` check-ins, newest first.
pub async fn recent(tx: &mut Tx, mission_id: &str, limit: i64) -> ApiResult<Vec<CheckIn>> {
    let rows: Vec<CheckinRow> = sql::query_as(&format!(
        "SELECT {CHECKIN_COLUMNS} FROM checkins WHERE mission_id = ? \
         ORDER BY at DESC, rowid DESC LIMIT ?"
    ))
    .bind(mission_id)
    .bind(limit)
    .fetch_all(tx)
    .await?;
    Ok(rows.into_iter().map(CheckinRow::into_check_in).collect())
}

/// The missions, of every team, whose check-in is due at `at`: check-ins on, and the
/// mission active or waiting on budget (`MissionStatus::checks_in`).
pub async fn due_missions(tx: &mut Tx, at: &str) -> ApiResult<Vec<String>> {
    let due: Vec<(String,)> = sql::query_as(
        "SELECT m.id FROM missions m JOIN schedules s ON s.id = m.schedule_id \
         WHERE s.enabled = 1 AND m.status IN ('active', 'budget_exhausted') \
         AND json_extract(s.task_template, '$.context.heartbeat') = 1 \
         AND (s.next_run_at IS NULL OR s.next_run_at <= ?)",
    )
    .postgres(
        "SELECT m.id FROM missions m JOIN schedules s ON s.id = m.schedule_id \
         WHERE s.enabled = 1 AND m.status IN ('active', 'budget_exhausted') \
         AND (s.task_template::jsonb #> '{context,heartbeat}') IN ('1'::jsonb, 'true'::jsonb) \
         AND (s.next_run_at IS NULL OR s.next_run_at <= ?)",
    )
    .bind(at)
    .fetch_all(tx)
    .await?;
    Ok(due.into_iter().map(|(id,)| id).collect())
}

/// Records a check-in of mission `mission_id`: `started` an organizer run (`task_id`), or
/// `deferred` for `reason`.
pub async fn record(tx: &mut Tx, mission_id: &str, check_in: &CheckIn) -> ApiResult<()> {
    sql::query(
        "INSERT INTO checkins (id, mission_id, at, outcome, reason, text, task_id) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(new_id())
    .bind(mission_id)
    .bind(&check_in.at)
    .bind(check_in.outcome.as_str())
    .bind(&check_in.reason)
    .bind(&check_in.text)
    .bind(&check_in.task_id)
    .execute(tx)
    .await?;
    Ok(())
}
