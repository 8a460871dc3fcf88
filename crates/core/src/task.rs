//! Task shapes: the full row (`GET /api/tasks/{id}`), the list items of `GET /api/tasks`,
//! and the worker result.

use crate::enums::{
    MissionStatus, TaskCategory, TaskClass, TaskKind, TaskMode, TaskStatus, WorkerStatus,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `tasks.result`, written when a worker completes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commits: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub added: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pr_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pr_number: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structured_output: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_suggestion: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_question: Option<Value>,
    /// Why the task failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `{id, name, repo, …}` of the task's workspace. Never carries secrets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskWorkspace {
    pub id: String,
    pub name: String,
    pub repo: Option<String>,
}

/// `{id, title, status}` of the task's mission.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskMissionRef {
    pub id: String,
    pub title: String,
    pub status: MissionStatus,
}

/// A worker of a task, as `GET /api/tasks/{id}?include=workers` lists them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskWorker {
    pub id: String,
    pub status: WorkerStatus,
    pub branch: Option<String>,
    pub pr_url: Option<String>,
    pub pr_number: Option<i64>,
    pub merged_at: Option<String>,
    pub error: Option<String>,
    pub current_action: Option<String>,
    pub started_at: Option<String>,
    pub completed_at: Option<String>,
    pub created_at: Option<String>,
    /// The head commit of its branch, as Buildd reports it.
    #[serde(default)]
    pub last_commit_sha: Option<String>,
    /// When its runner last reported.
    #[serde(default)]
    pub updated_at: Option<String>,
    /// What this attempt cost so far (a decimal string), and its tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<i64>,
    /// What the session did, as Buildd's runner counts it.
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
    /// Its newest milestones, oldest first (this server's addition: Buildd shows them only
    /// to a browser session).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub milestones: Vec<Value>,
    /// How many milestones were ever reported, of which `milestones` holds the newest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub milestones_reported: Option<i64>,
    /// The question the agent waits on, until a person answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting_for: Option<Value>,
    /// Why its session ended, in the runner's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminal_reason: Option<String>,
}

/// Every column of `tasks`, as `GET /api/tasks/{id}`, `POST /api/tasks` and
/// `PATCH /api/tasks/{id}` return it. `prUrl`, `prNumber` and `mergedAt` are the latest
/// worker's PR, which this server adds at the top level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    pub id: String,
    pub workspace_id: String,
    pub external_id: Option<String>,
    pub external_url: Option<String>,
    pub external_issue_id: Option<String>,
    pub external_issue_url: Option<String>,
    pub title: String,
    pub description: Option<String>,
    #[serde(default)]
    pub context: Value,
    pub status: TaskStatus,
    #[serde(default)]
    pub priority: i64,
    #[serde(default = "default_mode")]
    pub mode: TaskMode,
    pub runner_preference: Option<String>,
    #[serde(default)]
    pub required_capabilities: Vec<String>,
    pub claimed_by: Option<String>,
    pub claimed_at: Option<String>,
    pub expires_at: Option<String>,
    pub created_by_account_id: Option<String>,
    pub created_by_worker_id: Option<String>,
    pub creation_source: Option<String>,
    pub schedule_id: Option<String>,
    pub parent_task_id: Option<String>,
    pub ci_retry_pr_number: Option<i64>,
    pub ci_retry_head_sha: Option<String>,
    pub conflict_retry_pr_number: Option<i64>,
    pub conflict_retry_head_sha: Option<String>,
    pub category: Option<TaskCategory>,
    pub project: Option<String>,
    pub output_requirement: Option<String>,
    pub output_schema: Option<Value>,
    pub mission_id: Option<String>,
    pub role_slug: Option<String>,
    #[serde(default)]
    pub depends_on: Vec<String>,
    pub result: Option<TaskResult>,
    pub kind: Option<TaskKind>,
    pub complexity: Option<String>,
    pub tier: Option<String>,
    pub predicted_model: Option<String>,
    pub classified_by: Option<String>,
    pub backend: Option<String>,
    #[serde(default)]
    pub requires_review: bool,
    pub release: Option<String>,
    pub release_result: Option<Value>,
    pub path_manifest: Option<Vec<String>>,
    pub start_at: Option<String>,
    pub loop_config: Option<Value>,
    #[serde(default)]
    pub loop_iteration: i64,
    pub loop_state: Option<Value>,
    /// What the task is about, as Buildd records it (`{kind, branch, source, …}`).
    pub subject_anchor: Option<Value>,
    pub subject_kind: Option<String>,
    pub subject_pr_number: Option<i64>,
    pub subject_head_sha: Option<String>,
    pub subject_branch: Option<String>,
    pub subject_error_signature: Option<String>,
    pub subject_mission_id: Option<String>,
    pub subject_dedupe_scope: Option<String>,
    pub subject_superseded_by_task_id: Option<String>,
    pub subject_resolution: Option<String>,
    pub task_class: Option<TaskClass>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workspace: Option<crate::workspace::Workspace>,
    /// `Some(None)`: a task of no mission, as a detail says (`mission: null`).
    #[serde(
        default,
        deserialize_with = "crate::present::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub mission: Option<Option<TaskMissionRef>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<Vec<TaskWorker>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pr_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pr_number: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_at: Option<String>,
    /// What all its workers cost (this server's addition, a decimal string).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<String>,
    /// Who stopped it, when it was stopped (this server's addition: Buildd records neither).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<TaskStop>,
}

/// A person stopped a task: who (the key's account), when, and why if they said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskStop {
    pub by: String,
    pub at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

fn default_mode() -> TaskMode {
    TaskMode::Execution
}

/// An item of the unpaginated `GET /api/tasks` → `{tasks: [...]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskListItem {
    pub id: String,
    pub workspace_id: String,
    pub external_id: Option<String>,
    pub external_url: Option<String>,
    pub title: String,
    pub status: TaskStatus,
    #[serde(default)]
    pub priority: i64,
    #[serde(default = "default_mode")]
    pub mode: TaskMode,
    pub runner_preference: Option<String>,
    #[serde(default)]
    pub required_capabilities: Vec<String>,
    pub claimed_by: Option<String>,
    pub claimed_at: Option<String>,
    pub expires_at: Option<String>,
    pub start_at: Option<String>,
    pub created_by_account_id: Option<String>,
    pub created_by_worker_id: Option<String>,
    pub creation_source: Option<String>,
    pub parent_task_id: Option<String>,
    /// Text, as the command center reads it: an enum reader would be a first-load cost.
    pub category: Option<String>,
    pub project: Option<String>,
    pub output_requirement: Option<String>,
    pub mission_id: Option<String>,
    #[serde(default)]
    pub depends_on: Vec<String>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
    pub workspace: Option<TaskWorkspace>,
    /// The latest worker's PR, which this server adds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pr_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pr_number: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_at: Option<String>,
}

/// `GET /api/tasks` without `limit`.
/// `POST /api/tasks`'s answer: the task, and what Buildd's intake did with it (here always
/// `created`: this server folds no task into another).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskCreated {
    #[serde(flatten)]
    pub task: Task,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject_intake_outcome: Option<IntakeOutcome>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IntakeOutcome {
    pub action: String,
    pub task_id: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskList {
    pub tasks: Vec<TaskListItem>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_windows: Option<Value>,
}

/// An item of the paginated `GET /api/tasks?limit=…`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskPageItem {
    pub id: String,
    pub workspace_id: String,
    pub title: String,
    pub status: TaskStatus,
    #[serde(default)]
    pub priority: i64,
    pub category: Option<TaskCategory>,
    pub description_preview: Option<String>,
}

/// `GET /api/tasks?limit=…&offset=…`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskPage {
    pub tasks: Vec<TaskPageItem>,
    pub total: u64,
    pub pending_count: u64,
    pub has_more: bool,
}

/// The first 150 characters of a description, as Buildd's `descriptionPreview`.
pub fn description_preview(description: Option<&str>) -> Option<String> {
    description.map(|d| d.chars().take(150).collect())
}

/// `taskClass` of a task created through `POST /api/tasks`: housekeeping titles are
/// bookkeeping, everything else is deliverable work.
pub fn class_for_new_task(title: &str) -> TaskClass {
    const BOOKKEEPING_PREFIXES: [&str; 5] = [
        "[friction] ",
        "Aggregate results:",
        "Evaluate mission completion:",
        "Mission:",
        "Close mission",
    ];
    if BOOKKEEPING_PREFIXES.iter().any(|p| title.starts_with(p)) {
        TaskClass::Bookkeeping
    } else {
        TaskClass::Work
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn housekeeping_titles_are_bookkeeping() {
        assert_eq!(
            class_for_new_task("Mission: Ship it"),
            TaskClass::Bookkeeping
        );
        assert_eq!(
            class_for_new_task("[friction] flaky CI"),
            TaskClass::Bookkeeping
        );
        assert_eq!(
            class_for_new_task("Aggregate results: x"),
            TaskClass::Bookkeeping
        );
        assert_eq!(class_for_new_task("Close mission"), TaskClass::Bookkeeping);
        assert_eq!(class_for_new_task("Add /healthz"), TaskClass::Work);
        assert_eq!(
            class_for_new_task("mission: lower case is work"),
            TaskClass::Work
        );
    }

    #[test]
    fn preview_is_150_characters() {
        let long = "é".repeat(200);
        assert_eq!(
            description_preview(Some(&long)).unwrap().chars().count(),
            150
        );
        assert_eq!(description_preview(None), None);
    }
}

/// `POST /api/tasks/{id}/approve-plan` → the ids of the children it created.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApprovedPlan {
    pub tasks: Vec<String>,
}

/// `POST /api/tasks/{id}/reject-plan` → the revised planning task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RejectedPlan {
    pub task_id: String,
}

/// What reject-plan records on the rejected planning task (`context.planRejection`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanRejection {
    #[serde(default)]
    pub feedback: String,
    pub rejected_at: Option<String>,
    /// The revised planning task reject-plan created.
    pub revision_task_id: Option<String>,
    /// The reviewer's comments pinned to steps (this server's addition).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub step_comments: Vec<crate::plan_feedback::StepComment>,
}
