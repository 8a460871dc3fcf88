//! `POST /api/tasks`, `PATCH /api/tasks/{id}` and the plan review's reject.

use super::fields::{object, strings};
use super::{FieldError, Patch, Request};
use crate::enums::{OutputRequirement, TaskCategory, TaskMode, TaskStatus};
use crate::plan_feedback::{read_plan_feedback, PlanFeedback, FEEDBACK_REQUIRED};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `POST /api/tasks`: work filed by a person, an agent, a runner or another tool.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewTask {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Only `execution`: planning runs are opened by a mission's organizer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<TaskMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mission_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_task_id: Option<String>,
    /// The agent's worker when an agent files it; its task becomes the parent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by_worker_id: Option<String>,
    /// Where it came from; anything Buildd does not know reads as `api`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creation_source: Option<String>,
    #[serde(
        default,
        deserialize_with = "strings",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub depends_on: Patch<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role_slug: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<TaskCategory>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_review: Option<bool>,
    #[serde(
        default,
        deserialize_with = "object",
        skip_serializing_if = "Option::is_none"
    )]
    pub context: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_requirement: Option<OutputRequirement>,
    /// Not claimed before this time (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_at: Option<String>,
}

/// Where a new task says it came from; Buildd keeps these and calls anything else `api`.
pub const CREATION_SOURCES: [&str; 6] =
    ["dashboard", "api", "mcp", "github", "local_ui", "schedule"];

impl Request for NewTask {
    fn validate(&self) -> Result<(), FieldError> {
        self.title()?;
        if self
            .mode
            .as_ref()
            .is_some_and(|m| *m != TaskMode::Execution)
        {
            return Err(FieldError::new(
                "mode",
                "mode must be \"execution\": planning tasks are opened by a mission's organizer",
            ));
        }
        if let Some(at) = &self.start_at {
            start_time(at)?;
        }
        if let Some(OutputRequirement::Other(_)) = &self.output_requirement {
            return Err(FieldError::new(
                "outputRequirement",
                format!(
                    "outputRequirement must be one of: {}",
                    OutputRequirement::list()
                ),
            ));
        }
        Ok(())
    }
}

impl NewTask {
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
            _ => Err(FieldError::new("title", "Title is required")),
        }
    }

    /// The source as kept: a known one, else `api`.
    pub fn source(&self) -> String {
        self.creation_source
            .clone()
            .filter(|s| CREATION_SOURCES.contains(&s.as_str()))
            .unwrap_or_else(|| "api".into())
    }
}

/// `PATCH /api/tasks/{id}`: a person edits a task, or moves its status.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskPatch {
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub title: Patch<String>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub description: Patch<String>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub priority: Patch<i64>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub role_slug: Patch<String>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub mission_id: Patch<String>,
    #[serde(
        default,
        deserialize_with = "strings",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub depends_on: Patch<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<TaskStatus>,
    /// Why a person ends the task (a stop's reason), kept with who did it and when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// When a task waiting on a start time may be claimed; null: now.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub start_at: Patch<String>,
}

/// Statuses a person may set: back to the queue, or an end.
pub const SETTABLE_TASK_STATUSES: [TaskStatus; 4] = [
    TaskStatus::Pending,
    TaskStatus::Completed,
    TaskStatus::Failed,
    TaskStatus::Cancelled,
];

impl Request for TaskPatch {
    fn validate(&self) -> Result<(), FieldError> {
        match &self.title {
            Patch::Absent => {}
            Patch::Value(t) if !t.trim().is_empty() => {}
            _ => return Err(FieldError::of("title", "must be a non-empty string")),
        }
        if matches!(self.priority, Patch::Null) {
            return Err(FieldError::of("priority", "must be an integer"));
        }
        if matches!(self.depends_on, Patch::Null) {
            return Err(FieldError::of("dependsOn", "must be an array of task IDs"));
        }
        if self
            .status
            .as_ref()
            .is_some_and(|s| !SETTABLE_TASK_STATUSES.contains(s))
        {
            return Err(FieldError::new(
                "status",
                "Invalid status. Allowed: pending, completed, failed, cancelled",
            ));
        }
        if let Patch::Value(at) = &self.start_at {
            start_time(at)?;
        }
        Ok(())
    }
}

/// Why a task in `status` cannot be stopped, when it cannot: only queued or running work
/// stops (Buildd would overwrite a finished task's outcome, so the dashboard asks first).
pub fn stop_refused(status: &TaskStatus) -> Option<String> {
    status.is_terminal().then(|| {
        format!(
            "The task already ended ({}): only queued or running work can be stopped",
            status.label()
        )
    })
}

impl TaskPatch {
    /// A person stops the task: it ends cancelled, with `reason` when one is given.
    pub fn stop(reason: Option<&str>) -> Self {
        Self {
            status: Some(TaskStatus::Cancelled),
            reason: reason
                .map(str::trim)
                .filter(|r| !r.is_empty())
                .map(str::to_string),
            ..Self::default()
        }
    }

    /// The task back in the queue, to run again.
    pub fn requeue() -> Self {
        Self {
            status: Some(TaskStatus::Pending),
            ..Self::default()
        }
    }

    /// The title trimmed, when it changes.
    pub fn title(&self) -> Option<String> {
        match &self.title {
            Patch::Value(t) => Some(t.trim().to_string()),
            _ => None,
        }
    }
}

/// A start time as the server stores it (RFC 3339 in UTC, milliseconds), or why not.
pub fn start_time(at: &str) -> Result<String, FieldError> {
    chrono::DateTime::parse_from_rfc3339(at)
        .map(|t| {
            t.with_timezone(&chrono::Utc)
                .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
        })
        .map_err(|_| FieldError::of("startAt", "must be a time such as 2026-12-05T09:00:00Z"))
}

/// `POST /api/tasks/{id}/start`: run a pending task now. A task waiting on its start time
/// starts only with `forceOverride` (Buildd's gate).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StartTask {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_override: Option<bool>,
}

impl Request for StartTask {}

/// `POST /api/tasks/{id}/start`'s answer, in Buildd's shape (no runner is targeted here).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskStarted {
    pub started: bool,
    pub task_id: String,
    #[serde(default)]
    pub target_local_ui_url: Option<String>,
}

/// `POST /api/tasks/{id}/reject-plan`: a person's feedback, and comments pinned to steps
/// (`[{ref, comment}]`). Kept as sent until the plan is known, since each comment must name
/// one of its steps ([`read_plan_feedback`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RejectPlan {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_comments: Option<Value>,
}

impl Request for RejectPlan {
    fn validate(&self) -> Result<(), FieldError> {
        self.feedback().map(|_| ())
    }
}

impl RejectPlan {
    /// What the dashboard sends for `review`: the comments apart where the server takes
    /// them, else folded into the feedback as lines of their own (Buildd reads only that).
    pub fn of(review: &PlanFeedback, step_comments_taken: bool) -> Self {
        if !step_comments_taken || review.step_comments.is_empty() {
            return Self {
                feedback: Some(Value::String(review.to_text())),
                step_comments: None,
            };
        }
        Self {
            feedback: Some(Value::String(review.feedback.clone())),
            step_comments: serde_json::to_value(&review.step_comments).ok(),
        }
    }

    /// The overall feedback, trimmed; Buildd requires it.
    pub fn feedback(&self) -> Result<String, FieldError> {
        match &self.feedback {
            Some(Value::String(f)) if !f.trim().is_empty() => Ok(f.trim().to_string()),
            _ => Err(FieldError::new("feedback", FEEDBACK_REQUIRED)),
        }
    }

    /// The review, each comment checked against the steps of the plan (`plan_refs`).
    pub fn review(&self, plan_refs: &[&str]) -> Result<PlanFeedback, FieldError> {
        let body =
            serde_json::json!({"feedback": self.feedback, "stepComments": self.step_comments});
        read_plan_feedback(&body, Some(plan_refs)).map_err(|errors| {
            let field = if errors.iter().all(|e| e.starts_with("stepComments")) {
                "stepComments"
            } else {
                "feedback"
            };
            FieldError::new(field, errors.join("; "))
                .with_errors(errors.into_iter().map(Value::String).collect())
        })
    }
}
