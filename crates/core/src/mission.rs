//! Mission shapes: the bare row (PATCH/POST), the list item and the detail, with the
//! progress-bar segments they carry.

use crate::enums::{
    MissionGate, MissionStatus, OrchestrationMode, PrLifecycle, TaskCategory, TaskClass, TaskKind,
    TaskMode, TaskStatus, WorkerStatus,
};
use crate::schedule::Schedule;
use crate::task::TaskResult;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Every column of `missions`, as `PATCH /api/missions/{id}` returns it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mission {
    pub id: String,
    pub team_id: String,
    pub workspace_id: Option<String>,
    pub title: String,
    pub description: Option<String>,
    pub status: MissionStatus,
    pub cost_budget_usd: Option<String>,
    #[serde(default)]
    pub priority: i64,
    pub default_output_requirement: Option<String>,
    pub default_backend: Option<String>,
    pub schedule_id: Option<String>,
    pub parent_mission_id: Option<String>,
    pub initiative_id: Option<String>,
    pub last_evaluation_task_id: Option<String>,
    pub depends_on_mission_id: Option<String>,
    #[serde(default = "default_gate_condition")]
    pub gate_condition: MissionGate,
    pub dependency_met_at: Option<String>,
    #[serde(default)]
    pub context_artifact_ids: Vec<String>,
    pub max_concurrent_tasks: Option<i64>,
    #[serde(default = "default_pacing_mode")]
    pub pacing_mode: String,
    pub pacing_max_per_hour: Option<i64>,
    pub last_task_started_at: Option<String>,
    pub working_branch: Option<String>,
    pub primary_pr_number: Option<i64>,
    pub primary_pr_url: Option<String>,
    pub last_notified_sha: Option<String>,
    #[serde(default)]
    pub requires_review: bool,
    pub merge_policy: Option<Value>,
    #[serde(default = "default_orchestration_mode")]
    pub orchestration_mode: OrchestrationMode,
    #[serde(default)]
    pub decomposition_skipped: bool,
    #[serde(default)]
    pub is_held: bool,
    pub start_at: Option<String>,
    pub start_resolution: Option<String>,
    pub released_at: Option<String>,
    pub external_issue_id: Option<String>,
    pub external_issue_url: Option<String>,
    pub goal_criteria: Option<Value>,
    pub goal_criteria_state: Option<Value>,
    pub auto_verify: Option<bool>,
    pub created_by_user_id: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// `dispatch` or `interactive` (this server's addition; Buildd sends none).
    #[serde(default = "dispatch")]
    pub mode: String,
    /// What its tasks cost so far, every worker of every task (this server's addition, a
    /// decimal string as Buildd writes money; Buildd's answers carry none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spend_usd: Option<String>,
}

fn default_gate_condition() -> MissionGate {
    MissionGate::Merged
}

fn default_pacing_mode() -> String {
    "eager".into()
}

fn default_orchestration_mode() -> OrchestrationMode {
    OrchestrationMode::Auto
}

/// `{id, name}` of a mission's workspace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkspaceRef {
    pub id: String,
    pub name: String,
}

/// The latest worker of a task, as embedded in mission responses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerSummary {
    pub id: String,
    pub status: WorkerStatus,
    pub pr_url: Option<String>,
    pub merged_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pr_number: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Text, read typed by [`WorkerSummary::pr_lifecycle`]: see [`MissionTask::kind`].
    pub pr_lifecycle_status: Option<String>,
    /// When Buildd last asked GitHub about the PR (`Some(None)`: never), kept as Buildd
    /// sends it.
    #[serde(
        default,
        deserialize_with = "crate::present::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub pr_last_checked_at: Option<Option<String>>,
    /// When the run started and ended (this server's addition), for its duration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completed_at: Option<String>,
    /// What the agent is doing, while it runs (this server's addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_action: Option<String>,
    /// The question the agent waits on (this server's addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting_for: Option<serde_json::Value>,
}

impl WorkerSummary {
    /// A PR that is neither merged nor closed.
    pub fn has_open_pr(&self) -> bool {
        self.pr_url.is_some()
            && self.merged_at.is_none()
            && !matches!(
                self.pr_lifecycle(),
                Some(PrLifecycle::Merged | PrLifecycle::Closed)
            )
    }

    /// Where its PR stands, as its worker row records it.
    pub fn pr_lifecycle(&self) -> Option<PrLifecycle> {
        self.pr_lifecycle_status.as_deref().map(PrLifecycle::parse)
    }
}

/// A task as embedded in `GET /api/missions` and `GET /api/missions/{id}`. The list omits
/// `priority`, `createdAt` and (but for planning runs) `result`. Buildd omits `taskClass`
/// and `dependsOn`; this server adds them so every surface classifies tasks the same way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissionTask {
    pub id: String,
    pub title: String,
    pub status: TaskStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<i64>,
    pub role_slug: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// `None`: the answer did not carry it (Buildd's mission list); `Some(None)`: the task
    /// has none (`result: null`, as a detail says). Kept apart, so a missing result is never
    /// read as "no result".
    #[serde(
        default,
        deserialize_with = "crate::present::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub result: Option<Option<TaskResult>>,
    pub updated_at: Option<String>,
    /// Kept as text, as `category` and a worker's `prLifecycleStatus` are: this type is
    /// the dashboard's first read, and an enum each cost its first load a kilobyte. Read
    /// typed by [`MissionTask::kind`] and [`MissionTask::category`].
    pub kind: Option<String>,
    #[serde(default = "default_mode")]
    pub mode: TaskMode,
    pub category: Option<String>,
    pub parent_task_id: Option<String>,
    pub creation_source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_class: Option<TaskClass>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<String>,
    #[serde(default)]
    pub workers: Vec<WorkerSummary>,
    /// What all its workers cost (this server's addition, a decimal string).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<String>,
}

impl MissionTask {
    /// Its kind, typed.
    pub fn kind(&self) -> Option<TaskKind> {
        self.kind.as_deref().map(TaskKind::parse)
    }

    /// Its category, typed.
    pub fn category(&self) -> Option<TaskCategory> {
        self.category.as_deref().map(TaskCategory::parse)
    }

    /// What its attempts cost, when the answer says (this server's tasks do; Buildd's do not);
    /// a figure that is not a cost reads as unknown.
    pub fn cost(&self) -> Option<crate::money::Usd> {
        self.cost_usd
            .as_deref()
            .and_then(crate::money::Usd::parse)
            .filter(|c| !c.is_negative())
    }

    /// The task's result, when the answer carried one.
    pub fn result(&self) -> Option<&TaskResult> {
        self.result.as_ref().and_then(Option::as_ref)
    }
}

fn dispatch() -> String {
    "dispatch".into()
}

fn default_mode() -> TaskMode {
    TaskMode::Execution
}

/// The schedule fields lifted into a mission list item.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleSummary {
    pub cron_expression: Option<String>,
    pub next_run_at: Option<String>,
    pub last_run_at: Option<String>,
    pub last_deferral_reason: Option<String>,
    pub last_deferred_at: Option<String>,
}

/// How one counted task is drawn in a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SegmentState {
    /// Done: completed, and its PR merged or it had none.
    Solid,
    /// Completed with a PR still open.
    Half,
    /// A worker is on it right now.
    Ghost,
    /// Failed.
    Notch,
    /// Not started or waiting.
    Empty,
}

impl SegmentState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Solid => "solid",
            Self::Half => "half",
            Self::Ghost => "ghost",
            Self::Notch => "notch",
            Self::Empty => "empty",
        }
    }
}

/// One `{taskId, state}` of a progress bar.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Segment {
    pub task_id: String,
    #[serde(default = "empty_state")]
    pub state: SegmentState,
}

fn empty_state() -> SegmentState {
    SegmentState::Empty
}

/// An item of `GET /api/missions` → `{missions: [...]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissionListItem {
    #[serde(flatten)]
    pub mission: Mission,
    pub workspace: Option<WorkspaceRef>,
    #[serde(default)]
    pub tasks: Vec<MissionTask>,
    pub schedule: Option<ScheduleSummary>,
    #[serde(default)]
    pub total_tasks: u32,
    #[serde(default)]
    pub completed_tasks: u32,
    #[serde(default)]
    pub progress: u32,
    #[serde(default)]
    pub segments: Vec<Segment>,
    #[serde(default)]
    pub active_agents: u32,
    pub cron_expression: Option<String>,
    pub last_run_at: Option<String>,
    pub next_run_at: Option<String>,
    pub last_deferral_reason: Option<String>,
    pub last_deferred_at: Option<String>,
    pub last_activity_at: Option<String>,
    pub completed_at: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MissionList {
    pub missions: Vec<MissionListItem>,
}

/// `{id, title, status}` of a sub-mission.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubMission {
    pub id: String,
    pub title: String,
    pub status: MissionStatus,
}

/// `GET /api/missions/{id}`: the bare mission plus tasks, workspace, schedule and the
/// computed fields. A task is a [`MissionTask`], or whatever serializes as one (the server
/// answers with tasks it serialized before).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissionDetail<T = MissionTask> {
    #[serde(flatten)]
    pub mission: Mission,
    pub workspace: Option<WorkspaceRef>,
    #[serde(default = "Vec::new")]
    pub tasks: Vec<T>,
    #[serde(default)]
    pub sub_missions: Vec<SubMission>,
    pub schedule: Option<Schedule>,
    /// Check-in settings read from the schedule (this server's addition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_ins: Option<crate::schedule::CheckInSettings>,
    /// The merge policy the mission's PRs follow, and why (this server's addition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effective_merge_policy: Option<crate::merge_policy::EffectivePolicy>,
    /// The workspace default the mission inherits when it has no policy of its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workspace_merge_policy: Option<crate::merge_policy::MergePolicy>,
    #[serde(default)]
    pub total_tasks: u32,
    #[serde(default)]
    pub completed_tasks: u32,
    #[serde(default)]
    pub progress: u32,
    #[serde(default)]
    pub segments: Vec<Segment>,
    #[serde(default)]
    pub skill_slugs: Vec<String>,
    pub output_schema: Option<Value>,
    pub model: Option<String>,
    pub last_heartbeat_status: Option<String>,
    pub last_heartbeat_at: Option<String>,
    pub evaluation_status: Option<String>,
    pub last_evaluation_at: Option<String>,
    pub evaluation_rationale: Option<String>,
    #[serde(default)]
    pub blocked: bool,
    pub blocked_reason: Option<String>,
    pub blocked_by_mission_id: Option<String>,
    pub blocked_by_mission_title: Option<String>,
}

/// `POST /api/missions` → 201: the bare mission plus the organizer task it started.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissionCreated {
    #[serde(flatten)]
    pub mission: Mission,
    pub organizer_task: Option<IdRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heartbeat_info: Option<String>,
}

/// `{id}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IdRef {
    pub id: String,
}

/// `{success: true}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Success {
    pub success: bool,
}
