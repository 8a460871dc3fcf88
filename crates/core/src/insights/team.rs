//! The Insights page's read, `GET /api/insights?weeks=N`: the rows the team's weekly
//! figures and busiest hours are computed from (merged PRs, task outcomes, spend points, the
//! spans agents worked, the active hours missions set), each from one query on the server.
//! The figures themselves are [`weekly`](super::weekly) and
//! [`busy_hours`](super::busy_hours), run where they are drawn. On a hosted Buildd, whose
//! answers carry none of these rows, [`of_buildd_tasks`] reads what its task list allows.

use super::busy_hours::BusyInterval;
use super::weekly::{TaskTally, TeamActivity};
use crate::enums::{TaskClass, TaskStatus};
use crate::requests::{FieldError, Request};
use crate::task::TaskListItem;
use chrono::{Datelike, Duration, SecondsFormat};
use serde::{Deserialize, Serialize};

/// Weeks read when the query does not say, and the most it may ask for.
pub const DEFAULT_WEEKS: i64 = 12;
pub const MAX_WEEKS: i64 = 52;

/// `GET /api/insights`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InsightsQuery {
    /// The weeks read, this one included.
    #[serde(
        default,
        deserialize_with = "crate::requests::query_number",
        skip_serializing_if = "Option::is_none"
    )]
    pub weeks: Option<i64>,
}

impl Request for InsightsQuery {
    fn validate(&self) -> Result<(), FieldError> {
        match self.weeks {
            Some(w) if !(1..=MAX_WEEKS).contains(&w) => Err(FieldError::new(
                "weeks",
                format!("weeks must be between 1 and {MAX_WEEKS}"),
            )),
            _ => Ok(()),
        }
    }
}

impl InsightsQuery {
    pub fn weeks(&self) -> i64 {
        self.weeks.unwrap_or(DEFAULT_WEEKS).clamp(1, MAX_WEEKS)
    }

    /// The first moment read: 00:00 UTC on the Monday of the ISO week `weeks - 1` before
    /// `now_ms`'s, so every week read is whole.
    pub fn since(&self, now_ms: i64) -> String {
        let day = super::utc(now_ms).date_naive();
        let monday = day - Duration::days(i64::from(day.weekday().num_days_from_monday()));
        let first = monday - Duration::weeks(self.weeks() - 1);
        first
            .and_hms_opt(0, 0, 0)
            .map(|t| t.and_utc().to_rfc3339_opts(SecondsFormat::Millis, true))
            .unwrap_or_default()
    }
}

/// A mission's active hours, with its zone's offset east of UTC now (the browser carries no
/// zone tables).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissionHours {
    pub start: u32,
    pub end: u32,
    pub timezone: String,
    pub offset_seconds: i32,
}

impl MissionHours {
    /// `hours` with its zone's offset at `now_ms` (UTC for a zone that does not read).
    #[cfg(feature = "tz")]
    pub fn of(hours: &crate::checkin::ActiveHours, now_ms: i64) -> MissionHours {
        use chrono::Offset;
        let tz: chrono_tz::Tz = hours.timezone.parse().unwrap_or(chrono_tz::Tz::UTC);
        MissionHours {
            start: hours.start,
            end: hours.end,
            timezone: hours.timezone.clone(),
            offset_seconds: super::utc(now_ms)
                .with_timezone(&tz)
                .offset()
                .fix()
                .local_minus_utc(),
        }
    }
}

/// `GET /api/insights`'s answer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamInsights {
    /// The first moment read ([`InsightsQuery::since`]).
    pub since: String,
    /// Merged PRs, task outcomes and spend points.
    #[serde(flatten)]
    pub activity: TeamActivity,
    /// The spans agents worked.
    #[serde(default)]
    pub busy: Vec<BusyInterval>,
    /// The active hours of the team's active missions that set some.
    #[serde(default)]
    pub active_hours: Vec<MissionHours>,
}

/// Whether a merged PR's task is a deliverable: real work, or a retry of real work (a
/// retry's PR is its task's).
pub fn deliverable(class: TaskClass, parent: Option<TaskClass>) -> bool {
    match class {
        TaskClass::Attempt => parent == Some(TaskClass::Work),
        class => class == TaskClass::Work,
    }
}

/// The active hours the team keeps: the window most missions set (the earliest start of
/// equals), `None` when none sets one.
pub fn common_hours(hours: &[MissionHours]) -> Option<&MissionHours> {
    let key = |h: &MissionHours| (h.start, h.end, h.offset_seconds);
    hours.iter().max_by(|a, b| {
        let count = |h: &MissionHours| hours.iter().filter(|o| key(o) == key(h)).count();
        count(a).cmp(&count(b)).then_with(|| key(b).cmp(&key(a)))
    })
}

/// What a hosted Buildd's task list (`GET /api/tasks`) allows: failures, dated by the task's
/// last change (its list says when a task changed, not when it finished), and retries.
/// Merges, spend and agents' spans are not in its answers.
pub fn of_buildd_tasks(tasks: &[TaskListItem], since_ms: i64) -> TeamActivity {
    let tasks = tasks
        .iter()
        .filter(|t| {
            super::ms(t.updated_at.as_deref()).is_some_and(|at| at >= since_ms)
                || super::ms(t.created_at.as_deref()).is_some_and(|at| at >= since_ms)
        })
        .map(|t| TaskTally {
            workspace_id: t.workspace_id.clone(),
            class: if crate::progress::looks_like_attempt(
                &t.title,
                t.parent_task_id.is_some(),
                &t.mode,
            ) {
                TaskClass::Attempt
            } else {
                TaskClass::Work
            },
            status: t.status.clone(),
            created_at: t.created_at.clone(),
            finished_at: (t.status == TaskStatus::Failed)
                .then(|| t.updated_at.clone())
                .flatten(),
        })
        .collect();
    TeamActivity {
        tasks,
        ..TeamActivity::default()
    }
}

#[cfg(test)]
mod tests;
