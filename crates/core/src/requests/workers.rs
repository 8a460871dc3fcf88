//! The worker protocol's requests: a claim, a runner's heartbeat, a worker's report, and a
//! person's message to an agent.

use super::fields::{object, objects, raw};
use super::{FieldError, Patch, Request};
use crate::enums::WorkerStatus;
use crate::spend::{read_usage_report, UsageReport};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `POST /api/workers/claim`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Claim {
    #[serde(default)]
    pub runner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tasks: Option<i64>,
}

/// At most this many tasks in one claim.
pub const MAX_TASKS_LIMIT: i64 = 20;

impl Request for Claim {
    fn validate(&self) -> Result<(), FieldError> {
        self.runner()?;
        if !(1..=MAX_TASKS_LIMIT).contains(&self.max_tasks()) {
            return Err(FieldError::new(
                "maxTasks",
                format!("maxTasks must be an integer from 1 to {MAX_TASKS_LIMIT}"),
            ));
        }
        Ok(())
    }
}

impl Claim {
    pub fn runner(&self) -> Result<String, FieldError> {
        match self.runner.as_deref().map(str::trim) {
            Some(r) if !r.is_empty() => Ok(r.to_string()),
            _ => Err(FieldError::new("runner", "runner is required")),
        }
    }

    /// How many tasks the runner takes at most; 3 unless it says.
    pub fn max_tasks(&self) -> i64 {
        self.max_tasks.unwrap_or(3)
    }
}

/// `POST /api/workers/heartbeat`: a runner says it is there and asks how much work waits.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Heartbeat {
    #[serde(default)]
    pub local_ui_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_worker_count: Option<i64>,
}

impl Request for Heartbeat {
    fn validate(&self) -> Result<(), FieldError> {
        if self
            .local_ui_url
            .as_deref()
            .is_none_or(|u| u.trim().is_empty())
        {
            return Err(FieldError::new("localUiUrl", "localUiUrl is required"));
        }
        if self.active_worker_count.is_some_and(|n| n < 0) {
            return Err(FieldError::of(
                "activeWorkerCount",
                "must be a non-negative integer",
            ));
        }
        Ok(())
    }
}

/// `PATCH /api/workers/{id}`: a worker's report — progress, or its end — with the PR it
/// opened and what its session used.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerReport {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<WorkerStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub current_action: Patch<String>,
    /// The whole list of milestones, replacing what was kept.
    #[serde(
        default,
        deserialize_with = "objects",
        skip_serializing_if = "Option::is_none"
    )]
    pub milestones: Option<Vec<Value>>,
    /// More milestones after those kept.
    #[serde(
        default,
        deserialize_with = "objects",
        skip_serializing_if = "Option::is_none"
    )]
    pub append_milestones: Option<Vec<Value>>,
    /// What an agent waiting on a person asks (`{type, prompt, options?}`); null once
    /// answered.
    #[serde(
        default,
        deserialize_with = "raw",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub waiting_for: Patch<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pr_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pr_number: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_suggestion: Option<String>,
    #[serde(
        default,
        deserialize_with = "object",
        skip_serializing_if = "Option::is_none"
    )]
    pub structured_output: Option<Value>,
    // What the session used so far: `spend::read_usage_report` reads them.
    #[serde(
        default,
        deserialize_with = "raw",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub cost_usd: Patch<Value>,
    #[serde(
        default,
        deserialize_with = "raw",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub input_tokens: Patch<Value>,
    #[serde(
        default,
        deserialize_with = "raw",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub output_tokens: Patch<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_meta: Option<Value>,
    // What the session did, as Buildd's runner counts it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit_count: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files_changed: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_added: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_removed: Option<i64>,
    // The PR's head and files: the rails read them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_sha: Option<String>,
    /// Buildd's runner's name for the head commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_commit_sha: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_branch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_branch: Option<String>,
    /// Kept as sent: a listing that does not read is a malformed listing, which the rails
    /// hold, not a refused report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<Value>,
}

/// Statuses a worker may report while it works.
pub const PROGRESS_STATUSES: [WorkerStatus; 5] = [
    WorkerStatus::Idle,
    WorkerStatus::Starting,
    WorkerStatus::Running,
    WorkerStatus::WaitingInput,
    WorkerStatus::Paused,
];

impl Request for WorkerReport {
    fn validate(&self) -> Result<(), FieldError> {
        if let Some(s) = &self.status {
            let ends = matches!(
                s,
                WorkerStatus::Completed | WorkerStatus::Failed | WorkerStatus::Error
            );
            if !ends && !PROGRESS_STATUSES.contains(s) {
                return Err(FieldError::new(
                    "status",
                    "status must be one of: idle, starting, running, waiting_input, paused, \
                     completed, failed",
                ));
            }
        }
        self.usage()?;
        if self.pr_number.is_some_and(|n| n <= 0) {
            return Err(FieldError::of("prNumber", "must be a positive integer"));
        }
        for (field, n) in [
            ("turns", self.turns),
            ("commitCount", self.commit_count),
            ("filesChanged", self.files_changed),
            ("linesAdded", self.lines_added),
            ("linesRemoved", self.lines_removed),
        ] {
            if n.is_some_and(|n| n < 0) {
                return Err(FieldError::of(field, "must be a non-negative integer"));
            }
        }
        if let Patch::Value(w) = &self.waiting_for {
            if !w.is_object() {
                return Err(FieldError::of("waitingFor", "must be an object or null"));
            }
        }
        Ok(())
    }
}

impl WorkerReport {
    /// The session's running totals the report states (a cost, tokens), checked.
    pub fn usage(&self) -> Result<UsageReport, FieldError> {
        let mut body = Map::new();
        for (key, value) in [
            ("costUsd", &self.cost_usd),
            ("inputTokens", &self.input_tokens),
            ("outputTokens", &self.output_tokens),
        ] {
            if let Patch::Value(v) = value {
                body.insert(key.into(), v.clone());
            }
        }
        if let Some(meta) = &self.result_meta {
            body.insert("resultMeta".into(), meta.clone());
        }
        read_usage_report(&body).map_err(|errors| {
            let field = errors
                .first()
                .and_then(|e| e.split(' ').next())
                .unwrap_or("costUsd")
                .to_string();
            FieldError::new(&field, errors.join("; "))
        })
    }

    /// The head commit it reports: `headSha`, or the runner's `lastCommitSha`.
    pub fn head_sha(&self) -> Option<&str> {
        self.head_sha.as_deref().or(self.last_commit_sha.as_deref())
    }

    /// The failure it reports, in words.
    pub fn failure(&self) -> String {
        self.error
            .clone()
            .filter(|e| !e.trim().is_empty())
            .unwrap_or_else(|| "The worker reported a failure".into())
    }
}

/// `POST /api/workers/{id}/respond`: a person answers an agent waiting on a question.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Respond {
    #[serde(default)]
    pub message: Option<String>,
}

impl Request for Respond {
    fn validate(&self) -> Result<(), FieldError> {
        Instruct::new(self.message.as_deref().unwrap_or("")).validate()
    }
}

impl Respond {
    pub fn new(message: &str) -> Self {
        Self {
            message: Some(message.to_string()),
        }
    }

    pub fn message(&self) -> Result<String, FieldError> {
        Instruct::new(self.message.as_deref().unwrap_or("")).message()
    }
}

/// `POST /api/workers/{id}/instruct`: a person's message for a running agent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Instruct {
    #[serde(default)]
    pub message: Option<String>,
    /// `urgent` or `normal`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
}

/// Longest message a person can send an agent.
pub const MESSAGE_LIMIT: usize = 4000;

impl Request for Instruct {
    fn validate(&self) -> Result<(), FieldError> {
        let message = self.message()?;
        if message.chars().count() > MESSAGE_LIMIT {
            return Err(FieldError::of(
                "message",
                &format!("must be at most {MESSAGE_LIMIT} characters"),
            ));
        }
        match self.priority.as_deref() {
            None | Some("urgent" | "normal") => Ok(()),
            Some(_) => Err(FieldError::of(
                "priority",
                "must be \"urgent\" or \"normal\"",
            )),
        }
    }
}

impl Instruct {
    pub fn new(message: &str) -> Self {
        Self {
            message: Some(message.to_string()),
            priority: None,
        }
    }

    pub fn message(&self) -> Result<String, FieldError> {
        match self.message.as_deref().map(str::trim) {
            Some(m) if !m.is_empty() => Ok(m.to_string()),
            _ => Err(FieldError::new("message", "Message is required")),
        }
    }
}
