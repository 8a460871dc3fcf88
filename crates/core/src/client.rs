//! What the dashboard reads: the fields of Buildd's answers it shows, and nothing else.
//! Lean on purpose: the browser parses less, ships less code, and a Buildd that adds or
//! drops a field it does not show never breaks it. The server writes the full shapes
//! (`Mission`, `MissionDetail`, `Task`); every captured Buildd answer parses into both.

use crate::enums::{MissionStatus, OrchestrationMode, TaskClass, TaskMode, TaskStatus};
use crate::mission::{MissionTask, WorkspaceRef};
use crate::plan_phase::PlanRejection;
use crate::task::{TaskMissionRef, TaskResult};
use serde::Deserialize;

/// A mission as the list and the mission page read it (`GET /api/missions` items and
/// `GET /api/missions/{id}` alike).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientMission {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    pub status: MissionStatus,
    #[serde(default)]
    pub workspace_id: Option<String>,
    #[serde(default)]
    pub is_held: bool,
    #[serde(default = "auto")]
    pub orchestration_mode: OrchestrationMode,
    #[serde(default)]
    pub depends_on_mission_id: Option<String>,
    #[serde(default)]
    pub dependency_met_at: Option<String>,
    #[serde(default)]
    pub workspace: Option<WorkspaceRef>,
    #[serde(default)]
    pub tasks: Vec<MissionTask>,
    #[serde(default)]
    pub next_run_at: Option<String>,
    #[serde(default)]
    pub last_activity_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default)]
    pub blocked_reason: Option<String>,
}

fn auto() -> OrchestrationMode {
    OrchestrationMode::Auto
}

/// `GET /api/missions`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ClientMissionList {
    pub missions: Vec<ClientMission>,
}

/// A task as its page reads it (`GET /api/tasks/{id}`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientTask {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    pub status: TaskStatus,
    #[serde(default = "execution")]
    pub mode: TaskMode,
    #[serde(default)]
    pub task_class: Option<TaskClass>,
    #[serde(default)]
    pub mission_id: Option<String>,
    #[serde(default)]
    pub parent_task_id: Option<String>,
    #[serde(default)]
    pub depends_on: Vec<String>,
    #[serde(default)]
    pub result: Option<TaskResult>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default)]
    pub mission: Option<TaskMissionRef>,
    #[serde(default)]
    pub pr_url: Option<String>,
    #[serde(default)]
    pub pr_number: Option<i64>,
    #[serde(default)]
    pub merged_at: Option<String>,
    #[serde(default)]
    pub context: Option<ClientTaskContext>,
}

/// The parts of a task's `context` the task page shows: how plan review went.
#[derive(Clone, Debug, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientTaskContext {
    /// On a revised planning task: the reviewer's feedback and the plan it replaces.
    #[serde(default)]
    pub plan_feedback: Option<String>,
    #[serde(default)]
    pub previous_plan_task_id: Option<String>,
    /// On a rejected planning task.
    #[serde(default)]
    pub plan_rejection: Option<PlanRejection>,
}

fn execution() -> TaskMode {
    TaskMode::Execution
}
