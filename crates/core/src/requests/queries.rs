//! Query strings: the filters and paging of the lists, read the same everywhere. A value
//! out of range or of the wrong kind is refused naming the parameter, never quietly
//! replaced.

use super::fields::query_number;
use super::{FieldError, Request};
use crate::enums::{MissionStatus, NoteKind, NoteStatus, TaskStatus};
use serde::{Deserialize, Serialize};

/// `limit`, when given, must lie in 1..=`max`.
pub fn check_limit(limit: Option<i64>, max: i64) -> Result<(), FieldError> {
    match limit {
        Some(n) if !(1..=max).contains(&n) => Err(FieldError::new(
            "limit",
            format!("limit must be an integer from 1 to {max}"),
        )),
        _ => Ok(()),
    }
}

fn check_offset(offset: Option<i64>) -> Result<(), FieldError> {
    match offset {
        Some(n) if n < 0 => Err(FieldError::new(
            "offset",
            "offset must be an integer of at least 0",
        )),
        _ => Ok(()),
    }
}

fn check_note_type(kind: Option<&NoteKind>) -> Result<(), FieldError> {
    match kind {
        Some(t) if !NoteKind::POSTABLE.contains(t) => Err(FieldError::new(
            "type",
            format!(
                "type must be one of: {}",
                NoteKind::names(NoteKind::POSTABLE)
            ),
        )),
        _ => Ok(()),
    }
}

/// `GET /api/tasks`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskListQuery {
    /// Statuses, comma-separated; `active` is every unfinished one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mission_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_id: Option<String>,
    #[serde(
        default,
        deserialize_with = "query_number",
        skip_serializing_if = "Option::is_none"
    )]
    pub limit: Option<i64>,
    #[serde(
        default,
        deserialize_with = "query_number",
        skip_serializing_if = "Option::is_none"
    )]
    pub offset: Option<i64>,
}

impl Request for TaskListQuery {
    fn validate(&self) -> Result<(), FieldError> {
        self.statuses()?;
        check_limit(self.limit, 200)?;
        check_offset(self.offset)
    }
}

impl TaskListQuery {
    /// The statuses asked for, `active` spelled out.
    pub fn statuses(&self) -> Result<Option<Vec<TaskStatus>>, FieldError> {
        let Some(value) = &self.status else {
            return Ok(None);
        };
        let mut out = Vec::new();
        for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if part == "active" {
                out.extend(TaskStatus::ALL.iter().filter(|s| !s.is_terminal()).cloned());
            } else if let Some(s) = TaskStatus::known(part) {
                out.push(s);
            } else {
                return Err(FieldError::new(
                    "status",
                    format!("status must be one of: {}, active", TaskStatus::list()),
                ));
            }
        }
        Ok(Some(out))
    }
}

/// `GET /api/missions`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissionListQuery {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<MissionStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_id: Option<String>,
}

impl Request for MissionListQuery {
    fn validate(&self) -> Result<(), FieldError> {
        match &self.status {
            Some(MissionStatus::Other(_)) => Err(FieldError::new(
                "status",
                format!("status must be one of: {}", MissionStatus::list()),
            )),
            _ => Ok(()),
        }
    }
}

/// `GET /api/missions/{id}/notes`: newest first, a page after `cursor`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NotesQuery {
    #[serde(
        default,
        deserialize_with = "query_number",
        skip_serializing_if = "Option::is_none"
    )]
    pub limit: Option<i64>,
    /// The id of the last note of the page before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<NoteKind>,
}

impl Request for NotesQuery {
    fn validate(&self) -> Result<(), FieldError> {
        check_limit(self.limit, 100)?;
        check_note_type(self.kind.as_ref())
    }
}

/// `GET /api/notes`: the team's notes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamNotesQuery {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<NoteStatus>,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<NoteKind>,
}

impl Request for TeamNotesQuery {
    fn validate(&self) -> Result<(), FieldError> {
        super::notes::status_of(self.status.as_ref())?;
        check_note_type(self.kind.as_ref())
    }
}

/// `GET /api/prs`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrListQuery {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mission_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_id: Option<String>,
}

impl Request for PrListQuery {}

/// `GET /api/tasks/{id}?include=workers`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskDetailQuery {
    /// Comma-separated: `workers` adds the task's workers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include: Option<String>,
}

impl Request for TaskDetailQuery {}

impl TaskDetailQuery {
    pub fn workers(&self) -> bool {
        self.include
            .as_deref()
            .is_some_and(|i| i.split(',').any(|p| p.trim() == "workers"))
    }
}

/// `?force=true|false` (absent is false), as deleting and reassigning a task take it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ForceQuery {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force: Option<String>,
}

impl Request for ForceQuery {
    fn validate(&self) -> Result<(), FieldError> {
        self.force().map(|_| ())
    }
}

impl ForceQuery {
    pub fn force(&self) -> Result<bool, FieldError> {
        match self.force.as_deref() {
            None | Some("false") => Ok(false),
            Some("true") => Ok(true),
            Some(_) => Err(FieldError::new("force", "force must be true or false")),
        }
    }
}

/// `POST /api/mcp?workspace=…&worker=…`: the agent's workspace and worker.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct McpQuery {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worker: Option<String>,
}

impl Request for McpQuery {}
