//! `task_schedules`: where a mission's check-in settings live.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The keys of a mission's check-in settings in its schedule's template context.
pub mod context_keys {
    /// `true` while check-ins are on.
    pub const HEARTBEAT: &str = "heartbeat";
    /// The Organizer checklist.
    pub const CHECKLIST: &str = "heartbeatChecklist";
    pub const HOURS_START: &str = "activeHoursStart";
    pub const HOURS_END: &str = "activeHoursEnd";
    pub const HOURS_TIMEZONE: &str = "activeHoursTimezone";
}

/// A full `task_schedules` row, as embedded in `GET /api/missions/{id}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Schedule {
    pub id: String,
    pub workspace_id: Option<String>,
    pub name: String,
    pub cron_expression: Option<String>,
    #[serde(default = "utc")]
    pub timezone: String,
    #[serde(default)]
    pub task_template: Value,
    #[serde(default)]
    pub enabled: bool,
    #[serde(default)]
    pub one_shot: bool,
    pub next_run_at: Option<String>,
    pub last_run_at: Option<String>,
    pub last_task_id: Option<String>,
    #[serde(default)]
    pub total_runs: i64,
    #[serde(default)]
    pub consecutive_failures: i64,
    pub last_error: Option<String>,
    pub last_deferral_reason: Option<String>,
    pub last_deferred_at: Option<String>,
    /// Buildd's limits and bookkeeping of a schedule; this server runs check-ins by its own
    /// rules and answers Buildd's defaults.
    #[serde(default = "one")]
    pub max_concurrent_from_schedule: i64,
    #[serde(default = "five")]
    pub pause_after_failures: i64,
    pub last_checked_at: Option<String>,
    pub last_trigger_value: Option<Value>,
    #[serde(default)]
    pub total_checks: i64,
    pub last_heartbeat_state_hash: Option<String>,
    pub last_overdue_alert_at: Option<String>,
    pub pending_suggestion: Option<Value>,
    pub created_by_user_id: Option<String>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
}

fn utc() -> String {
    "UTC".into()
}

fn one() -> i64 {
    1
}

fn five() -> i64 {
    5
}

impl Schedule {
    /// `taskTemplate.context`, where the check-in switches live.
    pub fn context(&self) -> Option<&serde_json::Map<String, Value>> {
        self.task_template.get("context")?.as_object()
    }

    /// Whether check-ins are on (`taskTemplate.context.heartbeat === true`).
    pub fn is_heartbeat(&self) -> bool {
        self.context()
            .and_then(|c| c.get("heartbeat"))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }
}

/// Active hours as the mission detail reports them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActiveHoursJson {
    pub start: u32,
    pub end: u32,
    pub timezone: String,
}

/// A mission's check-in settings and where they stand, on `GET /api/missions/{id}` as
/// `checkIns` (read from the schedule's template, as Buildd stores them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckInSettings {
    /// Check-ins run (the schedule is a heartbeat and is enabled).
    pub enabled: bool,
    /// The checklist each organizer run follows: the custom one, else the default.
    pub checklist: String,
    /// Whether `checklist` is the mission's own.
    pub custom_checklist: bool,
    pub active_hours: Option<ActiveHoursJson>,
    /// When the next check-in may run (the next tick inside the active hours).
    pub next_check_in_at: Option<String>,
    pub interval_seconds: i64,
    /// The latest check-in.
    pub last_check: Option<crate::organizer_runs::CheckIn>,
}
