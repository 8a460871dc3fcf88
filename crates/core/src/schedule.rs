//! `task_schedules`: where a mission's check-in settings live.

use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
}

fn utc() -> String {
    "UTC".into()
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

/// The cron Buildd gives a mission's heartbeat by default. A PATCH that turns check-ins on
/// for a mission without a schedule must name it: Buildd creates the schedule only with a
/// cron (and a workspace).
pub const HEARTBEAT_CRON: &str = "*/30 * * * *";

/// Read back after a save: Buildd answers 200 to a checklist or active-hours edit of a
/// mission without a schedule and stores nothing, so a save is confirmed only by the
/// mission read again.
impl CheckInSettings {
    /// Whether the mission keeps checklist `sent` (`None`: the default).
    pub fn keeps_checklist(&self, sent: Option<&str>) -> bool {
        let default = crate::checkin::DEFAULT_CHECKLIST.trim();
        match sent.map(str::trim).filter(|t| !t.is_empty()) {
            None => !self.custom_checklist,
            Some(t) if t == default => !self.custom_checklist,
            Some(t) => self.custom_checklist && self.checklist.trim() == t,
        }
    }

    /// Whether the mission keeps active hours `sent` (`None`: any hour).
    pub fn keeps_hours(&self, sent: Option<&ActiveHoursJson>) -> bool {
        self.active_hours.as_ref() == sent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkin::{DEFAULT_CHECKLIST, DEFAULT_INTERVAL_SECS};

    fn settings(checklist: Option<&str>, hours: Option<ActiveHoursJson>) -> CheckInSettings {
        CheckInSettings {
            enabled: false,
            checklist: checklist.unwrap_or(DEFAULT_CHECKLIST).into(),
            custom_checklist: checklist.is_some(),
            active_hours: hours,
            next_check_in_at: None,
            interval_seconds: DEFAULT_INTERVAL_SECS,
            last_check: None,
        }
    }

    fn nine_to_six() -> ActiveHoursJson {
        ActiveHoursJson {
            start: 9,
            end: 18,
            timezone: "Europe/Paris".into(),
        }
    }

    #[test]
    fn a_checklist_not_stored_is_told_apart() {
        let unchanged = settings(None, None);
        assert!(!unchanged.keeps_checklist(Some("- [ ] CI green")));
        let stored = settings(Some("- [ ] CI green\n"), None);
        assert!(stored.keeps_checklist(Some("- [ ] CI green")));
        assert!(!stored.keeps_checklist(Some("- [ ] something else")));
    }

    #[test]
    fn the_default_is_kept_by_a_mission_without_its_own() {
        assert!(settings(None, None).keeps_checklist(None));
        assert!(settings(None, None).keeps_checklist(Some("  ")));
        assert!(settings(None, None).keeps_checklist(Some(DEFAULT_CHECKLIST)));
        assert!(!settings(Some("mine"), None).keeps_checklist(None));
    }

    #[test]
    fn active_hours_not_stored_are_told_apart() {
        assert!(!settings(None, None).keeps_hours(Some(&nine_to_six())));
        assert!(settings(None, Some(nine_to_six())).keeps_hours(Some(&nine_to_six())));
        assert!(!settings(None, Some(nine_to_six())).keeps_hours(None));
        assert!(settings(None, None).keeps_hours(None));
    }
}
