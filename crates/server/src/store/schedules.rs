//! A mission's check-in schedule: created with the mission, named "Mission: <title>", and the
//! home of its Organizer checklist and active hours (`taskTemplate.context`, as Buildd keeps
//! them).

use super::missions::MissionRow;
use crate::config::CheckinConfig;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::{iso, new_id, now};
use buildd_core::checkin::{next_checkin, ActiveHours, DEFAULT_CHECKLIST};
use buildd_core::organizer_runs::CheckIn;
use buildd_core::schedule::{ActiveHoursJson, CheckInSettings, Schedule};
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

pub const SCHEDULE_COLUMNS: &str = "s.id, s.cron_expression, s.task_template, s.next_run_at, \
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
    Ok(sqlx::query_as(&format!(
        "SELECT {SCHEDULE_COLUMNS} FROM schedules s WHERE s.id = ?"
    ))
    .bind(id)
    .fetch_optional(&mut **tx)
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
        .get("heartbeatChecklist")
        .and_then(Value::as_str)
        .filter(|c| !c.trim().is_empty())
        .unwrap_or(DEFAULT_CHECKLIST)
        .to_string()
}

pub fn active_hours(context: &Map<String, Value>) -> Option<ActiveHours> {
    let hour = |k: &str| context.get(k).and_then(Value::as_u64).map(|h| h as u32);
    Some(ActiveHours {
        start: hour("activeHoursStart")?,
        end: hour("activeHoursEnd")?,
        timezone: context
            .get("activeHoursTimezone")
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

/// Creates the mission's schedule and links it. `heartbeat` turns check-ins on.
pub async fn create_schedule(
    tx: &mut Tx,
    mission: &MissionRow,
    context: &Map<String, Value>,
    config: &CheckinConfig,
) -> ApiResult<String> {
    let id = new_id();
    let at = now();
    let heartbeat = context.get("heartbeat").and_then(Value::as_bool) == Some(true);
    sqlx::query(
        "INSERT INTO schedules (id, team_id, workspace_id, name, cron_expression, task_template, \
         enabled, next_run_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&id)
    .bind(&mission.team_id)
    .bind(&mission.workspace_id)
    .bind(format!("Mission: {}", mission.title))
    .bind(cron_for(config))
    .bind(template(&mission.title, mission.priority, context))
    .bind(heartbeat && mission.status == "active")
    .bind(iso(Utc::now() + config.interval))
    .bind(&at)
    .bind(&at)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE missions SET schedule_id = ? WHERE id = ?")
        .bind(&id)
        .bind(&mission.id)
        .execute(&mut **tx)
        .await?;
    Ok(id)
}

/// Writes a new template context (and whether check-ins run) onto schedule `id`.
pub async fn save_context(
    tx: &mut Tx,
    schedule: &ScheduleRow,
    mission: &MissionRow,
    context: &Map<String, Value>,
) -> ApiResult<()> {
    let heartbeat = context.get("heartbeat").and_then(Value::as_bool) == Some(true);
    sqlx::query(
        "UPDATE schedules SET task_template = ?, enabled = ?, name = ?, updated_at = ? WHERE id = ?",
    )
    .bind(template(&mission.title, mission.priority, context))
    .bind(heartbeat && mission.status == "active")
    .bind(format!("Mission: {}", mission.title))
    .bind(now())
    .bind(&schedule.id)
    .execute(&mut **tx)
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

#[derive(sqlx::FromRow)]
pub struct CheckinRow {
    at: String,
    outcome: String,
    reason: Option<String>,
    text: String,
    task_id: Option<String>,
}

pub const CHECKIN_COLUMNS: &str = "at, outcome, reason, text, task_id";

impl CheckinRow {
    pub fn into_check_in(self) -> CheckIn {
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
    let row: Option<CheckinRow> = sqlx::query_as(&format!(
        "SELECT {CHECKIN_COLUMNS} FROM checkins WHERE mission_id = ? \
         ORDER BY at DESC, rowid DESC LIMIT 1"
    ))
    .bind(mission_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(CheckinRow::into_check_in))
}
