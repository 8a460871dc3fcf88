//! The worker protocol's JSON: claims, the worker row, and steering messages.

use crate::enums::{DeliveryState, MessageKind, PrLifecycle, WorkerStatus};
use crate::task::Task;
use serde::{Deserialize, Serialize};

/// How many of a run's milestones the server keeps, the newest; Buildd keeps 50.
pub const MILESTONES_KEPT: usize = 200;

/// A worker row, as `PATCH /api/workers/{id}` returns it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Worker {
    pub id: String,
    pub task_id: String,
    pub workspace_id: String,
    pub account_id: Option<String>,
    pub name: String,
    pub runner: String,
    pub branch: Option<String>,
    pub status: WorkerStatus,
    pub current_action: Option<String>,
    pub pr_url: Option<String>,
    pub pr_number: Option<i64>,
    pub merged_at: Option<String>,
    pub pr_lifecycle_status: Option<PrLifecycle>,
    pub error: Option<String>,
    pub pending_instructions: Option<String>,
    #[serde(default)]
    pub instruction_history: Vec<InstructionEntry>,
    pub started_at: Option<String>,
    pub completed_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// What the agent reported of its session; this server keeps only the milestones.
    #[serde(flatten)]
    pub session: WorkerSession,
}

/// A worker's report of its session: milestones, cost and usage, commits, diagnostics.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WorkerSession {
    pub milestones: Vec<serde_json::Value>,
    pub waiting_for: Option<serde_json::Value>,
    /// A decimal string, as Buildd stores money.
    pub cost_usd: Option<String>,
    pub input_tokens: i64,
    pub output_tokens: i64,
    pub turns: i64,
    pub local_ui_url: Option<String>,
    pub conflict_detected_at: Option<String>,
    pub pr_last_checked_at: Option<String>,
    pub last_commit_sha: Option<String>,
    pub commit_count: i64,
    pub files_changed: i64,
    pub lines_added: i64,
    pub lines_removed: i64,
    pub result_meta: Option<serde_json::Value>,
    pub mcp_calls: Vec<serde_json::Value>,
    pub exit_cause: Option<String>,
    pub subagent_spans: Vec<serde_json::Value>,
    pub subagent_spans_observed: i64,
    pub background_agent_ms: i64,
}

/// One claimed task: `POST /api/workers/claim` → `{workers: [...]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimedWorker {
    pub id: String,
    pub task_id: String,
    pub branch: String,
    /// The full task row with its workspace (`mode` tells planning from execution).
    pub task: Task,
    /// One line per source of context Buildd gives the agent; this server has none.
    #[serde(default)]
    pub resolved_context_providers: Vec<String>,
}

/// Why a claim came back empty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimDiagnostics {
    /// `no_workspaces`, `no_pending_tasks`, `deps_blocked`, `all_candidates_deferred`,
    /// `context_paused` or `race_lost`.
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_tasks: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_tasks: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimResponse {
    pub workers: Vec<ClaimedWorker>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<ClaimDiagnostics>,
}

/// A steering message to a worker, or the agent's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InstructionEntry {
    #[serde(rename = "type")]
    pub kind: MessageKind,
    pub message: String,
    /// Epoch milliseconds.
    pub timestamp: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delivery_state: Option<DeliveryState>,
}

/// `GET /api/tasks/{id}/messages`: the steering history of the task's newest worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskMessages {
    pub task_id: String,
    pub worker_id: Option<String>,
    #[serde(default)]
    pub messages: Vec<InstructionEntry>,
}

/// `POST /api/workers/{id}/instruct`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Instructed {
    pub ok: bool,
    pub message: String,
    pub worker_id: String,
}

/// The steering history keeps this many entries, newest last.
pub const INSTRUCTION_HISTORY_CAP: usize = 30;

/// The exact error a planning run gets when it finishes without a validated plan.
pub const PLAN_NOT_VALIDATED: &str =
    "the plan was not returned as validated JSON, so no child tasks could be created";
