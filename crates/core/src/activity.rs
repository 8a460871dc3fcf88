//! Activity: every task of the team, missions or not, newest change first. The filters a
//! lead narrows it by (and shares in a link), the page the server answers, the same filters
//! applied to a hosted Buildd's task list (which takes none of them), and the grouping the
//! page shows.

use crate::enums::{TaskClass, TaskMode, TaskStatus, WorkerStatus};
use crate::requests::{FieldError, Request};
use crate::task::{TaskListItem, TaskStop};
use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};

/// `missionId` that asks for the tasks of no mission.
pub const NO_MISSION: &str = "none";

/// Tasks on a page when the query does not say.
pub const PAGE_SIZE: i64 = 50;

/// `GET /api/activity`: every filter optional; `cursor` is the `nextCursor` of the page
/// before.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityQuery {
    /// Statuses, comma-separated; `active` is every unfinished one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// A mission's id, or `none` for the tasks of no mission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mission_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<TaskMode>,
    /// Words of the title, or a task's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
    /// Changed on or after this day (`2026-12-05`) or time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// Changed before the end of this day, or before this time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    #[serde(
        default,
        deserialize_with = "crate::requests::query_number",
        skip_serializing_if = "Option::is_none"
    )]
    pub limit: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

impl Request for ActivityQuery {
    fn validate(&self) -> Result<(), FieldError> {
        self.statuses()?;
        if let Some(TaskMode::Other(_)) = &self.mode {
            return Err(FieldError::new(
                "mode",
                format!("mode must be one of: {}", TaskMode::list()),
            ));
        }
        self.changed_since()?;
        self.changed_before()?;
        crate::requests::queries::check_limit(self.limit, 200)?;
        self.after()?;
        Ok(())
    }
}

impl ActivityQuery {
    /// The statuses asked for, `active` spelled out.
    pub fn statuses(&self) -> Result<Option<Vec<TaskStatus>>, FieldError> {
        let query = crate::requests::queries::TaskListQuery {
            status: self.status.clone(),
            ..Default::default()
        };
        query.statuses()
    }

    pub fn limit(&self) -> i64 {
        self.limit.unwrap_or(PAGE_SIZE)
    }

    /// The words searched for, when any.
    pub fn search(&self) -> Option<&str> {
        self.q.as_deref().map(str::trim).filter(|q| !q.is_empty())
    }

    /// `since` as a time the stored ones compare with.
    pub fn changed_since(&self) -> Result<Option<String>, FieldError> {
        bound(self.since.as_deref(), "since", false)
    }

    /// `until` as a time: a day runs to its end.
    pub fn changed_before(&self) -> Result<Option<String>, FieldError> {
        bound(self.until.as_deref(), "until", true)
    }

    /// Where the page starts: after this change time and row.
    pub fn after(&self) -> Result<Option<(String, i64)>, FieldError> {
        let Some(cursor) = &self.cursor else {
            return Ok(None);
        };
        cursor
            .rsplit_once('|')
            .and_then(|(at, row)| Some((at.to_string(), row.parse().ok()?)))
            .map(Some)
            .ok_or_else(|| FieldError::new("cursor", "cursor must be a page's nextCursor"))
    }

    /// Whether `task` (of a hosted Buildd's list) passes every filter.
    pub fn admits(&self, task: &TaskListItem) -> bool {
        let statuses = self.statuses().ok().flatten();
        let updated = task.updated_at.as_deref().unwrap_or("");
        statuses.is_none_or(|s| s.contains(&task.status))
            && match self.mission_id.as_deref() {
                None => true,
                Some(NO_MISSION) => task.mission_id.is_none(),
                Some(m) => task.mission_id.as_deref() == Some(m),
            }
            && self
                .workspace_id
                .as_deref()
                .is_none_or(|w| task.workspace_id == w)
            && self.mode.as_ref().is_none_or(|m| &task.mode == m)
            && self.search().is_none_or(|q| {
                task.id == q || task.title.to_lowercase().contains(&q.to_lowercase())
            })
            && self
                .changed_since()
                .ok()
                .flatten()
                .is_none_or(|s| updated >= s.as_str())
            && self
                .changed_before()
                .ok()
                .flatten()
                .is_none_or(|u| updated < u.as_str())
    }
}

/// A day or a time as stored (RFC 3339 in UTC, milliseconds); `end` takes a day to the
/// start of the next.
fn bound(value: Option<&str>, field: &str, end: bool) -> Result<Option<String>, FieldError> {
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let at = if let Ok(day) = NaiveDate::parse_from_str(value, "%Y-%m-%d") {
        let day = if end {
            day.succ_opt().unwrap_or(day)
        } else {
            day
        };
        day.and_hms_opt(0, 0, 0).map(|t| t.and_utc())
    } else {
        DateTime::parse_from_rfc3339(value)
            .ok()
            .map(|t| t.with_timezone(&Utc))
    };
    at.map(|t| Some(t.to_rfc3339_opts(SecondsFormat::Millis, true)))
        .ok_or_else(|| {
            FieldError::of(
                field,
                "must be a day such as 2026-12-05, or a time such as 2026-12-05T09:00:00Z",
            )
        })
}

/// A task as Activity lists it, with its retries nested under it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityTask {
    pub id: String,
    pub title: String,
    pub status: TaskStatus,
    #[serde(default = "execution")]
    pub mode: TaskMode,
    #[serde(default)]
    pub task_class: Option<TaskClass>,
    pub workspace_id: String,
    #[serde(default)]
    pub mission_id: Option<String>,
    #[serde(default)]
    pub mission_title: Option<String>,
    #[serde(default)]
    pub parent_task_id: Option<String>,
    #[serde(default)]
    pub priority: i64,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default)]
    pub start_at: Option<String>,
    /// Its latest run: how it stands, and what the agent is doing.
    #[serde(default)]
    pub worker_status: Option<WorkerStatus>,
    #[serde(default)]
    pub current_action: Option<String>,
    /// Its agent waits on a person.
    #[serde(default)]
    pub waiting: bool,
    #[serde(default)]
    pub cost_usd: Option<String>,
    #[serde(default)]
    pub pr_number: Option<i64>,
    #[serde(default)]
    pub stopped: Option<TaskStop>,
    /// Retries of this task, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<ActivityTask>,
}

fn execution() -> TaskMode {
    TaskMode::Execution
}

impl ActivityTask {
    /// An item of a hosted Buildd's list, as far as it tells.
    pub fn of_buildd(task: &TaskListItem) -> Self {
        Self {
            id: task.id.clone(),
            title: task.title.clone(),
            status: task.status.clone(),
            mode: task.mode.clone(),
            task_class: None,
            workspace_id: task.workspace_id.clone(),
            mission_id: task.mission_id.clone(),
            mission_title: None,
            parent_task_id: task.parent_task_id.clone(),
            priority: task.priority,
            created_at: task.created_at.clone(),
            updated_at: task.updated_at.clone(),
            start_at: task.start_at.clone(),
            worker_status: None,
            current_action: None,
            waiting: false,
            cost_usd: None,
            pr_number: task.pr_number,
            stopped: None,
            attempts: Vec::new(),
        }
    }
}

/// `GET /api/activity`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityPage {
    pub tasks: Vec<ActivityTask>,
    /// How many tasks pass the filters, on every page.
    pub total: u64,
    /// The next page's `cursor`, when there is one.
    #[serde(default)]
    pub next_cursor: Option<String>,
}

/// The cursor of the page after the one that ended at a task changed at `updated_at`,
/// stored as row `row`.
pub fn cursor_after(updated_at: &str, row: i64) -> String {
    format!("{updated_at}|{row}")
}

/// Activity from a hosted Buildd's task list: its tasks that pass `query`'s filters, newest
/// change first, on pages of the query's size (the cursor is a position in that list).
pub fn of_buildd_list(list: &[TaskListItem], query: &ActivityQuery) -> ActivityPage {
    let mut passed: Vec<&TaskListItem> = list.iter().filter(|t| query.admits(t)).collect();
    passed.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then(b.id.cmp(&a.id)));
    let start = query
        .after()
        .ok()
        .flatten()
        .map_or(0, |(_, row)| row.max(0) as usize);
    let end = (start + query.limit() as usize).min(passed.len());
    let tasks: Vec<ActivityTask> = passed[start.min(end)..end]
        .iter()
        .map(|t| ActivityTask::of_buildd(t))
        .collect();
    ActivityPage {
        total: passed.len() as u64,
        next_cursor: (end < passed.len()).then(|| cursor_after("", end as i64)),
        tasks,
    }
}

/// How Activity groups a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grouping {
    None,
    Status,
    Mission,
}

impl Grouping {
    pub fn parse(value: &str) -> Self {
        match value {
            "status" => Self::Status,
            "mission" => Self::Mission,
            _ => Self::None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Status => "status",
            Self::Mission => "mission",
        }
    }
}

/// The page's tasks in groups, each with its heading: by status in the order work moves
/// (what waits on you first), or by mission in the order they first appear, the tasks of
/// no mission last. Positions are into `tasks`, in their order.
pub fn groups(tasks: &[ActivityTask], grouping: Grouping) -> Vec<(String, Vec<usize>)> {
    let key = |t: &ActivityTask| -> (usize, String) {
        match grouping {
            Grouping::None => (0, String::new()),
            Grouping::Status => {
                let rank = TaskStatus::ALL
                    .iter()
                    .position(|s| *s == t.status)
                    .unwrap_or(TaskStatus::ALL.len());
                (rank, t.status.label().into_owned())
            }
            Grouping::Mission => match &t.mission_id {
                Some(m) => (0, t.mission_title.clone().unwrap_or_else(|| m.clone())),
                None => (1, "No mission".to_string()),
            },
        }
    };
    let mut out: Vec<((usize, String), Vec<usize>)> = Vec::new();
    for (i, t) in tasks.iter().enumerate() {
        let k = key(t);
        match out.iter_mut().find(|(g, _)| *g == k) {
            Some((_, members)) => members.push(i),
            None => out.push((k, vec![i])),
        }
    }
    // Statuses in the order work moves; missions as they first appear, no mission last
    // (a stable sort keeps the rest in place).
    out.sort_by_key(|((rank, _), _)| *rank);
    out.into_iter().map(|((_, label), m)| (label, m)).collect()
}

#[cfg(test)]
mod tests;
