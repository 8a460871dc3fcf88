//! Missions close themselves when their work is done (buildd-core's `completion_check`),
//! unless they require review: then they wait, dormant, for a person's Close mission.
//! Closing — by itself or by a person — stops check-ins and lets dependent missions start.

use super::organizer::{wake, Trigger};
use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::mission_tasks::mission_tasks;
use crate::store::missions::mission_by_id;
use crate::store::schedules::{find_schedule, save_context, template_context};
use crate::time::now;
use buildd_core::completion::completion_check;

/// Completes mission `id` if it is active, its work is done and it does not require review.
/// Returns whether it completed (exactly once, however many completions race here).
pub async fn maybe_complete(tx: &mut Tx, id: &str) -> ApiResult<bool> {
    let Some(mission) = mission_by_id(tx, id).await? else {
        return Ok(false);
    };
    if mission.status != "active" || mission.requires_review {
        return Ok(false);
    }
    let tasks = mission_tasks(tx, &mission.team_id, id).await?;
    if completion_check(&tasks).is_err() {
        return Ok(false);
    }
    let at = now();
    let done = sqlx::query(
        "UPDATE missions SET status = 'completed', updated_at = ? WHERE id = ? AND status = 'active'",
    )
    .bind(&at)
    .bind(id)
    .execute(&mut **tx)
    .await?
    .rows_affected()
        == 1;
    if done {
        closed(tx, id, &at).await?;
    }
    Ok(done)
}

/// After mission `id` completed: its check-ins stop and the missions waiting on it start.
pub async fn closed(tx: &mut Tx, id: &str, at: &str) -> ApiResult<()> {
    if let Some(mission) = mission_by_id(tx, id).await? {
        if let Some(schedule_id) = &mission.schedule_id {
            if let Some(schedule) = find_schedule(tx, schedule_id).await? {
                let context = template_context(&schedule.task_template);
                save_context(tx, &schedule, &mission, &context).await?;
            }
        }
    }
    let dependents: Vec<(String,)> = sqlx::query_as(
        "UPDATE missions SET dependency_met_at = ? \
         WHERE depends_on_mission_id = ? AND dependency_met_at IS NULL RETURNING id",
    )
    .bind(at)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    for (dependent,) in dependents {
        let trigger = Trigger {
            source: "wake:dependency_met",
            task_id: None,
        };
        wake(tx, &dependent, trigger).await?;
    }
    Ok(())
}
