//! A mission's check-in schedule: created with the mission, named "Mission: <title>", and the
//! home of its Organizer checklist and active hours (`taskTemplate.context`, as Buildd keeps
//! them).

use super::missions::{set_schedule, MissionRow};
use crate::config::CheckinConfig;
use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::{iso, new_id, now};
use buildd_core::checkin::{next_checkin, ActiveHours, DEFAULT_CHECKLIST};
use buildd_core::organizer_runs::CheckIn;
use buildd_core::schedule::context_keys::{
    CHECKLIST, HEARTBEAT, HOURS_END, HOURS_START, HOURS_TIMEZONE,
};
use buildd_core::schedule::{ActiveHoursJson, CheckInSettings, Schedule};
use buildd_core::MissionStatus;
use buildd_core::ScheduleSummary;
use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};

/// A schedule as the server reads it back; the detail's `schedule` object is built in SQL.
#[derive(sqlx::FromRow, Clone, Debug)]
pub struct ScheduleRow {
    pub id: String,
    pub cron_expression: Option<String>,
    pub task_template: String,
    pub next_run_at: Option<String>,
    pub last_run_at: Option<String>,
    pub last_deferral_reason: Option<String>,
    pub last_deferred_at: Option<String>,
    pub last_state_key: Option<String>,
}

pub(in crate::store) const SCHEDULE_COLUMNS: &str =
    "s.id, s.cron_expression, s.task_template, s.next_run_at, \
    s.last_run_at, s.last_deferral_reason, s.last_deferred_at, s.last_state_key";

impl ScheduleRow {
    pub fn to_summary(&self) -> ScheduleSummary {
        ScheduleSummary {
            cron_expression: self.cron_expression.clone(),
            next_run_at: self.next_run_at.clone(),
            last_run_at: self.last_run_at.clone(),
            last_deferral_reason: self.last_deferral_reason.clone(),
            last_deferred_at: self.last_deferred_at.clone(),
        }
    }
}

pub async fn find_schedule(tx: &mut Tx, id: &str) -> ApiResult<Option<ScheduleRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {SCHEDULE_COLUMNS} FROM schedules s WHERE s.id = ?"
    ))
    .bind(id)
    .fetch_optional(tx)
    .await?)
}

/// `taskTemplate.context` of a schedule.
pub fn template_context(template: &str) -> Map<String, Value> {
    serde_json::from_str::<Value>(template)
        .ok()
        .and_then(|t| t.get("context").and_then(Value::as_object).cloned())
        .unwrap_or_default()
}

/// The checklist an organizer run follows: the mission's own, else the default.
pub fn effective_checklist(context: &Map<String, Value>) -> String {
    context
        .get(CHECKLIST)
        .and_then(Value::as_str)
        .filter(|c| !c.trim().is_empty())
        .unwrap_or(DEFAULT_CHECKLIST)
        .to_string()
}

pub fn active_hours(context: &Map<String, Value>) -> Option<ActiveHours> {
    let hour = |k: &str| context.get(k).and_then(Value::as_u64).map(|h| h as u32);
    Some(ActiveHours {
        start: hour(HOURS_START)?,
        end: hour(HOURS_END)?,
        timezone: context
            .get(HOURS_TIMEZONE)
            .and_then(Value::as_str)
            .unwrap_or("UTC")
            .to_string(),
    })
}

fn template(title: &str, priority: i64, context: &Map<String, Value>) -> String {
    let mut t =
        json!({"title": format!("Mission: {title}"), "mode": "planning", "priority": priority});
    if !context.is_empty() {
        t["context"] = Value::Object(context.clone());
    }
    t.to_string()
}

fn cron_for(config: &CheckinConfig) -> Option<&'static str> {
    (config.interval.num_seconds() == 3600).then_some("0 * * * *")
}

/// A schedule about to be written.
#[derive(Clone, Debug)]
pub struct NewSchedule {
    pub id: String,
    pub team_id: String,
    pub workspace_id: Option<String>,
    pub name: String,
    pub cron_expression: Option<String>,
    pub task_template: String,
    pub enabled: bool,
    pub next_run_at: Option<String>,
    pub last_run_at: Option<String>,
    pub total_runs: i64,
    pub created_at: String,
    pub updated_at: String,
}

impl NewSchedule {
    /// `mission`'s check-in schedule, its template carrying `context`: running when the
    /// context turns check-ins on and the mission is active, first due one interval from now.
    pub fn for_mission(
        mission: &MissionRow,
        context: &Map<String, Value>,
        config: &CheckinConfig,
    ) -> Self {
        let at = now();
        let heartbeat = context.get(HEARTBEAT).and_then(Value::as_bool) == Some(true);
        Self {
            id: new_id(),
            team_id: mission.team_id.clone(),
            workspace_id: mission.workspace_id.clone(),
            name: format!("Mission: {}", mission.title),
            cron_expression: cron_for(config).map(str::to_string),
            task_template: template(&mission.title, mission.priority, context),
            enabled: heartbeat && mission.status == MissionStatus::Active,
            next_run_at: Some(iso(Utc::now() + config.interval)),
            last_run_at: None,
            total_runs: 0,
            created_at: at.clone(),
            updated_at: at,
        }
    }
}

/// Writes `schedule` and makes it mission `mission_id`'s.
pub async fn insert_for_mission(tx: &mut Tx, mission_id: &str, s: &NewSchedule) -> ApiResult<()> {
    sql::query(
        "INSERT INTO schedules (id, team_id, workspace_id, name, cron_expression, task_template, \
         enabled, next_run_at, last_run_at, total_runs, created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&s.id)
    .bind(&s.team_id)
    .bind(&s.workspace_id)
    .bind(&s.name)
    .bind(&s.cron_expression)
    .bind(&s.task_template)
    .bind(s.enabled)
    .bind(&s.next_run_at)
    .bind(&s.last_run_at)
    .bind(s.total_runs)
    .bind(&s.created_at)
    .bind(&s.updated_at)
    .execute(tx)
    .await?;
    set_schedule(tx, mission_id, &s.id).await
}

/// Creates the mission's schedule and links it; `heartbeat` in `context` turns check-ins on.
pub async fn create_schedule(
    tx: &mut Tx,
    mission: &MissionRow,
    context: &Map<String, Value>,
    config: &CheckinConfig,
) -> ApiResult<String> {
    let schedule = NewSchedule::for_mission(mission, context, config);
    insert_for_mission(tx, &mission.id, &schedule).await?;
    Ok(schedule.id)
}

/// Writes a new template context (and whether check-ins run) onto schedule `id`.
pub async fn save_context(
    tx: &mut Tx,
    schedule: &ScheduleRow,
    mission: &MissionRow,
    context: &Map<String, Value>,
) -> ApiResult<()> {
    let heartbeat = context.get(HEARTBEAT).and_then(Value::as_bool) == Some(true);
    sql::query(
        "UPDATE schedules SET task_template = ?, enabled = ?, name = ?, updated_at = ? WHERE id = ?",
    )
    .bind(template(&mission.title, mission.priority, context))
    .bind(heartbeat && mission.status == MissionStatus::Active)
    .bind(format!("Mission: {}", mission.title))
    .bind(now())
    .bind(&schedule.id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Runs the check-ins of mission `mission_id` again, as its reopening does.
pub async fn enable_for_mission(tx: &mut Tx, mission_id: &str, at: &str) -> ApiResult<()> {
    sql::query(
        "UPDATE schedules SET enabled = 1, updated_at = ? \
         WHERE id = (SELECT schedule_id FROM missions WHERE id = ?)",
    )
    .bind(at)
    .bind(mission_id)
    .execute(tx)
    .await?;
    Ok(())
}

/// What one check-in leaves on its schedule.
pub struct CheckinRun<'a> {
    pub at: &'a str,
    pub next_run_at: &'a str,
    /// The organizer run it started.
    pub started_task: Option<&'a str>,
    pub deferral_reason: Option<&'a str>,
    /// The mission's state, when the check-in remembers it for the next one.
    pub state_key: Option<&'a str>,
}

/// Records check-in `run` on schedule `id`.
pub async fn record_run(tx: &mut Tx, id: &str, run: &CheckinRun<'_>) -> ApiResult<()> {
    sql::query(
        "UPDATE schedules SET last_run_at = ?1, next_run_at = ?2, \
         last_task_id = COALESCE(?3, last_task_id), \
         total_runs = total_runs + CASE WHEN ?3 IS NULL THEN 0 ELSE 1 END, \
         last_deferral_reason = ?4, last_deferred_at = CASE WHEN ?4 IS NULL THEN NULL ELSE ?1 END, \
         last_state_key = CASE WHEN ?5 <> 0 THEN ?6 ELSE last_state_key END \
         WHERE id = ?7",
    )
    .bind(run.at)
    .bind(run.next_run_at)
    .bind(run.started_task)
    .bind(run.deferral_reason)
    .bind(run.state_key.is_some())
    .bind(run.state_key)
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}

/// What the mission detail says about check-ins.
pub fn settings(
    schedule: Option<&Schedule>,
    last_check: Option<CheckIn>,
    config: &CheckinConfig,
) -> CheckInSettings {
    let context = schedule
        .and_then(|s| s.context().cloned())
        .unwrap_or_default();
    let enabled = schedule.is_some_and(|s| s.is_heartbeat() && s.enabled);
    let hours = active_hours(&context);
    let next = schedule
        .and_then(|s| s.next_run_at.as_deref())
        .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
        .filter(|_| enabled)
        .map(|t| {
            iso(next_checkin(
                t.with_timezone(&Utc),
                config.interval,
                hours.as_ref(),
            ))
        });
    let checklist = effective_checklist(&context);
    CheckInSettings {
        enabled,
        custom_checklist: checklist != DEFAULT_CHECKLIST,
        checklist,
        active_hours: hours.map(|h| ActiveHoursJson {
            start: h.start,
            end: h.end,
            timezone: h.timezone,
        }),
        next_check_in_at: next,
        interval_seconds: config.interval.num_seconds(),
        last_check,
    }
}
