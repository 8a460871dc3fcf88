//! The check-in fields of a mission create or update: `isHeartbeat`, `heartbeatChecklist`
//! and the three active-hours fields, checked and merged into the schedule's template
//! context.

use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use crate::flows::missions::CheckinChange;
use buildd_core::checkin::{validate_active_hours, CHECKLIST_LIMIT};
use serde_json::{Map, Value};

pub(super) struct CheckinFields {
    pub(super) heartbeat: Field<bool>,
    checklist: Field<String>,
    start: Field<i64>,
    end: Field<i64>,
    timezone: Field<String>,
}

fn hour(body: &JsonObject, key: &str) -> ApiResult<Field<i64>> {
    match body.0.get(key) {
        Some(v) if !v.is_null() && v.as_i64().is_none() => Err(ApiError::bad(format!(
            "{key} must be an integer from 0 to 23"
        ))),
        _ => body.integer(key),
    }
}

impl CheckinFields {
    pub(super) fn read(body: &JsonObject) -> ApiResult<Self> {
        let checklist = body.string("heartbeatChecklist")?;
        if let Field::Set(c) = &checklist {
            if c.chars().count() > CHECKLIST_LIMIT {
                return Err(ApiError::bad(format!(
                    "heartbeatChecklist must be at most {CHECKLIST_LIMIT} characters (it has {})",
                    c.chars().count()
                )));
            }
        }
        Ok(Self {
            heartbeat: body.boolean("isHeartbeat")?,
            checklist,
            start: hour(body, "activeHoursStart")?,
            end: hour(body, "activeHoursEnd")?,
            timezone: body.string("activeHoursTimezone")?,
        })
    }
}

impl CheckinChange for CheckinFields {
    /// Whether the body touches anything kept on the schedule.
    fn any(&self) -> bool {
        !(self.heartbeat.is_absent()
            && self.checklist.is_absent()
            && self.start.is_absent()
            && self.end.is_absent()
            && self.timezone.is_absent())
    }

    /// Merges the fields into `context`: a non-blank checklist replaces the default, an empty
    /// or null one clears it; the active hours as they stand after the update must be all
    /// set or all null.
    fn apply(&self, context: &mut Map<String, Value>) -> ApiResult<()> {
        match &self.heartbeat {
            Field::Set(true) => {
                context.insert("heartbeat".into(), Value::Bool(true));
            }
            Field::Set(false) | Field::Null => {
                context.remove("heartbeat");
            }
            Field::Absent => {}
        }
        match &self.checklist {
            Field::Set(c) if !c.trim().is_empty() => {
                context.insert("heartbeatChecklist".into(), Value::String(c.clone()));
            }
            Field::Absent => {}
            _ => {
                context.remove("heartbeatChecklist");
            }
        }
        let merged = |field: &Field<i64>, key: &str| match field {
            Field::Set(v) => Some(*v),
            Field::Null => None,
            Field::Absent => context.get(key).and_then(Value::as_i64),
        };
        let start = merged(&self.start, "activeHoursStart");
        let end = merged(&self.end, "activeHoursEnd");
        let timezone = match &self.timezone {
            Field::Set(t) => Some(t.clone()),
            Field::Null => None,
            Field::Absent => context
                .get("activeHoursTimezone")
                .and_then(Value::as_str)
                .map(str::to_string),
        };
        let hours =
            validate_active_hours(start, end, timezone.as_deref()).map_err(ApiError::BadRequest)?;
        for key in ["activeHoursStart", "activeHoursEnd", "activeHoursTimezone"] {
            context.remove(key);
        }
        if let Some(h) = hours {
            context.insert("activeHoursStart".into(), h.start.into());
            context.insert("activeHoursEnd".into(), h.end.into());
            context.insert("activeHoursTimezone".into(), h.timezone.into());
        }
        Ok(())
    }
}
