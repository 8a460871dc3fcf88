//! `POST /api/missions` and `PATCH /api/missions/{id}`.

use super::fields::{hour, raw};
use super::{FieldError, Patch, Request};
use crate::budget::parse_budget;
use crate::checkin::CHECKLIST_LIMIT;
use crate::enums::{MissionStatus, OrchestrationMode, StartMode, WorkMode};
use crate::lifecycle::parse_settable_status;
use crate::merge_policy::{check_merge_policy, MergePolicy};
use crate::money::Usd;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `POST /api/missions`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewMission {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<MissionStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orchestration_mode: Option<OrchestrationMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_review: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_id: Option<String>,
    /// `held`: its tasks wait until a person arms it; `armed` (the default): they do not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_mode: Option<StartMode>,
    /// How the mission is worked; it cannot be cleared.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub mode: Patch<WorkMode>,
    /// A number or a decimal string; null is no budget.
    #[serde(
        default,
        deserialize_with = "raw",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub cost_budget_usd: Patch<Value>,
    /// Checked key by key (`check_merge_policy`); null inherits.
    #[serde(
        default,
        deserialize_with = "raw",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub merge_policy: Patch<Value>,
    // The check-in settings, kept on the mission's schedule: see [`CheckinSettings`].
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub is_heartbeat: Patch<bool>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub heartbeat_checklist: Patch<String>,
    #[serde(
        default,
        deserialize_with = "hour",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub active_hours_start: Patch<i64>,
    #[serde(
        default,
        deserialize_with = "hour",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub active_hours_end: Patch<i64>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub active_hours_timezone: Patch<String>,
}

/// `PATCH /api/missions/{id}`: only what it names changes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissionPatch {
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub title: Patch<String>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub description: Patch<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<MissionStatus>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub priority: Patch<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orchestration_mode: Option<OrchestrationMode>,
    /// How the mission is worked; it cannot be cleared.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub mode: Patch<WorkMode>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub requires_review: Patch<bool>,
    #[serde(
        default,
        deserialize_with = "raw",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub cost_budget_usd: Patch<Value>,
    #[serde(
        default,
        deserialize_with = "raw",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub merge_policy: Patch<Value>,
    /// `true` arms a held mission: its organizer may plan and its tasks be claimed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arm: Option<bool>,
    /// Buildd schedules check-ins by it when they are turned on; this server runs them on
    /// its own interval and takes it as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cron_expression: Option<String>,
    // The check-in settings, kept on the mission's schedule: see [`CheckinSettings`].
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub is_heartbeat: Patch<bool>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub heartbeat_checklist: Patch<String>,
    #[serde(
        default,
        deserialize_with = "hour",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub active_hours_start: Patch<i64>,
    #[serde(
        default,
        deserialize_with = "hour",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub active_hours_end: Patch<i64>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub active_hours_timezone: Patch<String>,
}

/// The check-in settings a create or update carries; they live on the mission's schedule
/// (see [`crate::schedule::context_keys`]). Written out in both requests rather than
/// flattened into them, so a refusal names its field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckinSettings {
    pub is_heartbeat: Patch<bool>,
    pub heartbeat_checklist: Patch<String>,
    pub active_hours_start: Patch<i64>,
    pub active_hours_end: Patch<i64>,
    pub active_hours_timezone: Patch<String>,
}

macro_rules! checkins_of {
    ($request:ty) => {
        impl $request {
            pub fn checkins(&self) -> CheckinSettings {
                CheckinSettings {
                    is_heartbeat: self.is_heartbeat.clone(),
                    heartbeat_checklist: self.heartbeat_checklist.clone(),
                    active_hours_start: self.active_hours_start.clone(),
                    active_hours_end: self.active_hours_end.clone(),
                    active_hours_timezone: self.active_hours_timezone.clone(),
                }
            }
        }
    };
}

checkins_of!(NewMission);
checkins_of!(MissionPatch);

impl Request for NewMission {
    fn validate(&self) -> Result<(), FieldError> {
        self.title()?;
        if let Some(s) = &self.status {
            settable(s)?;
        }
        known_orchestration(self.orchestration_mode.as_ref())?;
        self.checkins().validate()?;
        merge_policy(&self.merge_policy)?;
        known_mode(&self.mode)?;
        budget(&self.cost_budget_usd)?;
        match self.start_mode {
            Some(StartMode::Other(_)) => Err(FieldError::new(
                "startMode",
                "startMode must be \"armed\" or \"held\"",
            )),
            _ => Ok(()),
        }
    }
}

impl NewMission {
    pub fn new(title: &str) -> Self {
        Self {
            title: Some(title.to_string()),
            ..Self::default()
        }
    }

    /// The title, trimmed; required.
    pub fn title(&self) -> Result<String, FieldError> {
        match self.title.as_deref().map(str::trim) {
            Some(t) if !t.is_empty() => Ok(t.to_string()),
            _ => Err(FieldError::new("title", "title is required")),
        }
    }

    /// Whether it starts held.
    pub fn held(&self) -> bool {
        self.start_mode == Some(StartMode::Held)
    }

    /// The budget asked for: `None` when none was given or it was null.
    pub fn budget(&self) -> Result<Option<Usd>, FieldError> {
        Ok(budget(&self.cost_budget_usd)?.flatten())
    }

    pub fn merge_policy(&self) -> Result<Option<MergePolicy>, FieldError> {
        Ok(merge_policy(&self.merge_policy)?.flatten())
    }
}

impl Request for MissionPatch {
    fn validate(&self) -> Result<(), FieldError> {
        non_blank("title", &self.title)?;
        if let Some(s) = &self.status {
            settable(s)?;
        }
        if matches!(self.priority, Patch::Null) {
            return Err(FieldError::of("priority", "must be an integer"));
        }
        known_orchestration(self.orchestration_mode.as_ref())?;
        self.checkins().validate()?;
        budget(&self.cost_budget_usd)?;
        merge_policy(&self.merge_policy)?;
        known_mode(&self.mode)?;
        if matches!(self.requires_review, Patch::Null) {
            return Err(FieldError::of("requiresReview", "must be true or false"));
        }
        if self.arm == Some(false) {
            return Err(FieldError::new(
                "arm",
                "arm must be true: a mission is held only when it is created held",
            ));
        }
        Ok(())
    }
}

impl MissionPatch {
    /// The title trimmed, when it changes.
    pub fn title(&self) -> Option<String> {
        match &self.title {
            Patch::Value(t) => Some(t.trim().to_string()),
            _ => None,
        }
    }

    /// The budget change: `None` leaves it, `Some(None)` removes it.
    pub fn budget(&self) -> Result<Option<Option<Usd>>, FieldError> {
        budget(&self.cost_budget_usd)
    }

    /// The policy change: `None` leaves it, `Some(None)` inherits again.
    pub fn merge_policy(&self) -> Result<Option<Option<MergePolicy>>, FieldError> {
        merge_policy(&self.merge_policy)
    }
}

impl CheckinSettings {
    /// Whether a request touches them at all.
    pub fn any(&self) -> bool {
        !(self.is_heartbeat.is_absent()
            && self.heartbeat_checklist.is_absent()
            && self.active_hours_start.is_absent()
            && self.active_hours_end.is_absent()
            && self.active_hours_timezone.is_absent())
    }

    /// What can be checked without the stored settings they merge into (the three hours'
    /// agreement is checked by [`CheckinSettings::apply`]).
    pub fn validate(&self) -> Result<(), FieldError> {
        if let Patch::Value(c) = &self.heartbeat_checklist {
            let count = c.chars().count();
            if count > CHECKLIST_LIMIT {
                return Err(FieldError::new(
                    "heartbeatChecklist",
                    format!(
                        "heartbeatChecklist must be at most {CHECKLIST_LIMIT} characters (it has {count})"
                    ),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(feature = "tz")]
impl CheckinSettings {
    /// Merges the settings into a schedule's template `context`: a non-blank checklist
    /// replaces the one there, an empty or null one clears it; the active hours as they
    /// stand after the merge must be all set or all null.
    pub fn apply(&self, context: &mut serde_json::Map<String, Value>) -> Result<(), FieldError> {
        use crate::checkin::validate_active_hours;
        use crate::schedule::context_keys::*;
        match &self.is_heartbeat {
            Patch::Value(true) => {
                context.insert(HEARTBEAT.into(), Value::Bool(true));
            }
            Patch::Value(false) | Patch::Null => {
                context.remove(HEARTBEAT);
            }
            Patch::Absent => {}
        }
        match &self.heartbeat_checklist {
            Patch::Value(c) if !c.trim().is_empty() => {
                context.insert(CHECKLIST.into(), Value::String(c.clone()));
            }
            Patch::Absent => {}
            _ => {
                context.remove(CHECKLIST);
            }
        }
        let merged = |field: &Patch<i64>, key: &str| match field {
            Patch::Value(v) => Some(*v),
            Patch::Null => None,
            Patch::Absent => context.get(key).and_then(Value::as_i64),
        };
        let start = merged(&self.active_hours_start, HOURS_START);
        let end = merged(&self.active_hours_end, HOURS_END);
        let timezone = match &self.active_hours_timezone {
            Patch::Value(t) => Some(t.clone()),
            Patch::Null => None,
            Patch::Absent => context
                .get(HOURS_TIMEZONE)
                .and_then(Value::as_str)
                .map(str::to_string),
        };
        let hours = validate_active_hours(start, end, timezone.as_deref()).map_err(|m| {
            let field = m.split(' ').next().unwrap_or(HOURS_START).to_string();
            FieldError::new(&field, m)
        })?;
        for key in [HOURS_START, HOURS_END, HOURS_TIMEZONE] {
            context.remove(key);
        }
        if let Some(h) = hours {
            context.insert(HOURS_START.into(), h.start.into());
            context.insert(HOURS_END.into(), h.end.into());
            context.insert(HOURS_TIMEZONE.into(), h.timezone.into());
        }
        Ok(())
    }
}

/// A text that may be left out, but not set to null or blank.
fn non_blank(field: &str, value: &Patch<String>) -> Result<(), FieldError> {
    match value {
        Patch::Absent => Ok(()),
        Patch::Value(t) if !t.trim().is_empty() => Ok(()),
        _ => Err(FieldError::of(field, "must be a non-empty string")),
    }
}

fn settable(status: &MissionStatus) -> Result<MissionStatus, FieldError> {
    parse_settable_status(status.as_str()).map_err(|m| FieldError::new("status", m))
}

fn known_orchestration(mode: Option<&OrchestrationMode>) -> Result<(), FieldError> {
    match mode {
        Some(OrchestrationMode::Other(_)) => Err(FieldError::new(
            "orchestrationMode",
            "orchestrationMode must be \"auto\" or \"manual\"",
        )),
        _ => Ok(()),
    }
}

fn known_mode(mode: &Patch<WorkMode>) -> Result<(), FieldError> {
    match mode {
        Patch::Null | Patch::Value(WorkMode::Other(_)) => Err(FieldError::new(
            "mode",
            "mode must be \"dispatch\" or \"interactive\"",
        )),
        _ => Ok(()),
    }
}

fn budget(value: &Patch<Value>) -> Result<Option<Option<Usd>>, FieldError> {
    match value {
        Patch::Absent => Ok(None),
        Patch::Null => Ok(Some(None)),
        Patch::Value(v) => parse_budget(v)
            .map(Some)
            .map_err(|m| FieldError::new("costBudgetUsd", m)),
    }
}

/// A merge policy as checked key by key: each problem placed as `{field, path, code,
/// message}` for a form.
fn merge_policy(value: &Patch<Value>) -> Result<Option<Option<MergePolicy>>, FieldError> {
    match value {
        Patch::Absent => Ok(None),
        Patch::Null => Ok(Some(None)),
        Patch::Value(v) => check_merge_policy(v)
            .map(|p| Some(Some(p)))
            .map_err(|errors| policy_refusal("mergePolicy", &errors)),
    }
}

/// The refusal of a merge policy under `prefix` (`mergePolicy`, `gitConfig.mergePolicy`):
/// the problems in words, and each as `{field, path, code, message}`.
pub fn policy_refusal(prefix: &str, errors: &[crate::merge_policy::PolicyError]) -> FieldError {
    let said: Vec<String> = errors.iter().map(|e| e.describe(prefix)).collect();
    let fields = errors
        .iter()
        .map(|e| {
            serde_json::json!({"field": e.field(prefix), "path": e.path, "code": e.code,
                               "message": e.message()})
        })
        .collect();
    let field = prefix.split('.').next().unwrap_or(prefix);
    FieldError::new(field, said.join("; ")).with_errors(fields)
}
