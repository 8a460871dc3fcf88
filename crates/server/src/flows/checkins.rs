//! The check-in scheduler: every mission with check-ins on is looked at once per interval;
//! the organizer starts only when buildd-core's `decide_checkin` finds the mission stuck.
//! Every check-in is recorded, with its reason when it deferred.

use super::organizer::{dependency_blocked, open_run, Trigger};
use crate::config::CheckinConfig;
use crate::db::{Db, Tx};
use crate::error::{ApiError, ApiResult};
use crate::store::checkins::{due_missions, record};
use crate::store::mission_tasks::mission_tasks;
use crate::store::missions::existing_mission;
use crate::store::schedules::{
    active_hours, find_schedule, record_run, template_context, CheckinRun,
};
use crate::store::turns::hold_mission;
use crate::time::iso;
use buildd_core::checkin::{
    decide_checkin, state_key, within_active_hours, CheckinDecision, CheckinFacts,
};
use buildd_core::completion::is_dormant;
use buildd_core::organizer_runs::CheckIn;
use buildd_core::plan::plan_in_review;
use buildd_core::{CheckinOutcome, MissionStatus, OrchestrationMode, TaskMode, TriggerSource};
use chrono::{DateTime, Utc};

/// Runs every check-in due at `now`; returns how many ran.
pub async fn tick(db: &Db, now: DateTime<Utc>, config: &CheckinConfig) -> ApiResult<usize> {
    let due = {
        let mut tx = db.read().await?;
        due_missions(&mut tx, &iso(now)).await?
    };
    let mut ran = 0;
    for mission_id in &due {
        // One transaction per check-in: a failure leaves the others, and half of none.
        let mut tx = db.write().await?;
        ran += usize::from(check_in(&mut tx, mission_id, now, config).await?.is_some());
        tx.commit().await?;
    }
    Ok(ran)
}

/// One check-in of mission `mission_id` at `now`, recorded whatever it decides; `None`, and
/// nothing recorded, when the mission is no longer one that checks in (paused, completed or
/// cancelled since it was found due).
pub async fn check_in(
    tx: &mut Tx,
    mission_id: &str,
    now: DateTime<Utc>,
    config: &CheckinConfig,
) -> ApiResult<Option<CheckinDecision>> {
    // The mission's turn before anything is read: a report ending its last task, a budget's
    // stop or a person's Pause through another server lands wholly before or after this.
    hold_mission(tx, mission_id).await?;
    let mission = existing_mission(tx, mission_id).await?;
    if !mission.status().checks_in() {
        return Ok(None);
    }
    let schedule = match &mission.schedule_id {
        Some(id) => find_schedule(tx, id).await?,
        None => None,
    }
    .ok_or_else(|| ApiError::Internal(format!("mission {mission_id} has no schedule")))?;
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
    let mode = mission.orchestration_mode.clone();
    let facts = CheckinFacts {
        out_of_budget: (mission.status() == MissionStatus::BudgetExhausted)
            .then(|| (mission.spend(), mission.budget())),
        dormant: is_dormant(&mission.status(), mission.requires_review, &mode, &tasks),
        manual: mode == OrchestrationMode::Manual,
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
    let mut decision = decide_checkin(&facts, now, config.grace);
    let mut started_task = None;
    if decision == CheckinDecision::Start {
        let trigger = Trigger {
            source: TriggerSource::Backstop,
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
        CheckinDecision::Start => (
            CheckinOutcome::Started,
            None,
            "stuck, organizer started".to_string(),
        ),
        CheckinDecision::Defer { reason, text } => {
            (CheckinOutcome::Deferred, Some(*reason), text.clone())
        }
    };
    let check_in = CheckIn {
        at: at.clone(),
        outcome,
        reason: reason.map(str::to_string),
        text,
        task_id: started_task.clone(),
    };
    record(tx, mission_id, &check_in).await?;
    let remember = decision.remembers_state();
    let run = CheckinRun {
        at: &at,
        next_run_at: &iso(now + config.interval),
        started_task: started_task.as_deref(),
        deferral_reason: reason,
        state_key: remember.then_some(key.as_str()),
    };
    record_run(tx, &schedule.id, &run).await?;
    Ok(Some(decision))
}
