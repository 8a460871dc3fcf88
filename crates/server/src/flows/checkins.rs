//! The check-in scheduler: every mission with check-ins on is looked at once per interval;
//! the organizer starts only when buildd-core's `decide_checkin` finds the mission stuck.
//! Every check-in is recorded, with its reason when it deferred.

use super::organizer::{dependency_blocked, open_run, Trigger};
use crate::config::CheckinConfig;
use crate::db::{Db, Tx};
use crate::error::ApiResult;
use crate::store::mission_tasks::mission_tasks;
use crate::store::missions::{MissionRow, MISSION_COLUMNS};
use crate::store::schedules::{active_hours, template_context, ScheduleRow, SCHEDULE_COLUMNS};
use crate::time::{iso, new_id};
use buildd_core::checkin::{
    decide_checkin, state_key, within_active_hours, CheckinDecision, CheckinFacts,
};
use buildd_core::completion::is_dormant;
use buildd_core::plan::plan_in_review;
use buildd_core::{OrchestrationMode, TaskMode};
use chrono::{DateTime, Utc};

/// Runs every check-in due at `now`; returns how many ran.
pub async fn tick(db: &Db, now: DateTime<Utc>, config: &CheckinConfig) -> ApiResult<usize> {
    let due: Vec<(String,)> = {
        let mut tx = db.read().await?;
        sqlx::query_as(
            "SELECT m.id FROM missions m JOIN schedules s ON s.id = m.schedule_id \
             WHERE s.enabled = 1 AND m.status IN ('active', 'budget_exhausted') \
             AND json_extract(s.task_template, '$.context.heartbeat') = 1 \
             AND (s.next_run_at IS NULL OR s.next_run_at <= ?)",
        )
        .bind(iso(now))
        .fetch_all(&mut *tx)
        .await?
    };
    for (mission_id,) in &due {
        // One transaction per check-in: a failure leaves the others, and half of none.
        let mut tx = db.write().await?;
        check_in(&mut tx, mission_id, now, config).await?;
        tx.commit().await?;
    }
    Ok(due.len())
}

/// One check-in of mission `mission_id` at `now`, recorded whatever it decides.
pub async fn check_in(
    tx: &mut Tx,
    mission_id: &str,
    now: DateTime<Utc>,
    config: &CheckinConfig,
) -> ApiResult<CheckinDecision> {
    let mission: MissionRow = sqlx::query_as(&format!(
        "SELECT {MISSION_COLUMNS} FROM missions m WHERE m.id = ?"
    ))
    .bind(mission_id)
    .fetch_one(&mut **tx)
    .await?;
    let schedule: ScheduleRow = sqlx::query_as(&format!(
        "SELECT {SCHEDULE_COLUMNS} FROM schedules s WHERE s.id = ?"
    ))
    .bind(&mission.schedule_id)
    .fetch_one(&mut **tx)
    .await?;
    let tasks = mission_tasks(tx, &mission.team_id, mission_id).await?;
    let context = template_context(&schedule.task_template);
    let hours = active_hours(&context);
    let organizer_runs = tasks.iter().filter(|t| t.mode == TaskMode::Planning);
    let last_run = organizer_runs
        .clone()
        .filter_map(|t| t.created_at.as_deref())
        .filter_map(|c| DateTime::parse_from_rfc3339(c).ok())
        .map(|c| c.with_timezone(&Utc))
        .max();
    let key = state_key(&tasks);
    let facts = CheckinFacts {
        manual: OrchestrationMode::parse(&mission.orchestration_mode) == OrchestrationMode::Manual,
        held: mission.is_held,
        dependency_blocked: dependency_blocked(&mission),
        within_active_hours: hours.as_ref().is_none_or(|h| within_active_hours(h, now)),
        open_tasks: tasks
            .iter()
            .filter(|t| t.mode != TaskMode::Planning && !t.status.is_terminal())
            .count(),
        planning_in_flight: organizer_runs.clone().any(|t| !t.status.is_terminal()),
        plan_in_review: plan_in_review(&tasks).is_some(),
        last_organizer_run_at: last_run,
        state_key: key.clone(),
        last_state_key: schedule.last_state_key.clone(),
    };
    let mut decision = if mission.status == "budget_exhausted" {
        CheckinDecision::Defer {
            reason: "budget_exhausted",
            text: "waiting on budget".into(),
        }
    } else if is_dormant(
        &mission.status(),
        mission.requires_review,
        &OrchestrationMode::parse(&mission.orchestration_mode),
        &tasks,
    ) {
        CheckinDecision::Defer {
            reason: "dormant",
            text: "deferred: the work is done and waits for you to close the mission".into(),
        }
    } else {
        decide_checkin(&facts, now, config.grace)
    };
    let mut started_task = None;
    if decision == CheckinDecision::Start {
        let trigger = Trigger {
            source: "backstop",
            task_id: None,
        };
        match open_run(tx, &mission, trigger).await? {
            Some(outcome) => started_task = Some(outcome.task().id.clone()),
            None => {
                decision = CheckinDecision::Defer {
                    reason: "no_workspace",
                    text: "deferred: the mission has no workspace to plan in".into(),
                }
            }
        }
    }
    let at = iso(now);
    let (outcome, reason, text) = match &decision {
        CheckinDecision::Start => ("started", None, "stuck, organizer started".to_string()),
        CheckinDecision::Defer { reason, text } => ("deferred", Some(*reason), text.clone()),
    };
    sqlx::query(
        "INSERT INTO checkins (id, mission_id, at, outcome, reason, text, task_id) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(new_id())
    .bind(mission_id)
    .bind(&at)
    .bind(outcome)
    .bind(reason)
    .bind(&text)
    .bind(&started_task)
    .execute(&mut **tx)
    .await?;
    // The state is remembered when the organizer ran or nothing had changed, so a mission
    // whose check-ins deferred for other reasons still counts as changed next time.
    let remember = matches!(
        decision,
        CheckinDecision::Start
            | CheckinDecision::Defer {
                reason: "heartbeat_no_change",
                ..
            }
    );
    sqlx::query(
        "UPDATE schedules SET last_run_at = ?1, next_run_at = ?2, \
         last_task_id = COALESCE(?3, last_task_id), \
         total_runs = total_runs + CASE WHEN ?3 IS NULL THEN 0 ELSE 1 END, \
         last_deferral_reason = ?4, last_deferred_at = CASE WHEN ?4 IS NULL THEN NULL ELSE ?1 END, \
         last_state_key = CASE WHEN ?5 THEN ?6 ELSE last_state_key END \
         WHERE id = ?7",
    )
    .bind(&at)
    .bind(iso(now + config.interval))
    .bind(&started_task)
    .bind(reason)
    .bind(remember)
    .bind(&key)
    .bind(&schedule.id)
    .execute(&mut **tx)
    .await?;
    Ok(decision)
}
