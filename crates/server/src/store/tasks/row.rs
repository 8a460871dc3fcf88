//! A task as stored, joined with its latest worker (whose PR it carries), and the shapes
//! the API answers with.

use crate::db::sql::Flag;
use crate::store::json_text::{json_opt, json_or, strings};
use buildd_core::money::Usd;
use buildd_core::{
    OutputRequirement, Task, TaskCategory, TaskClass, TaskKind, TaskListItem, TaskMode, TaskResult,
    TaskStatus, TaskStop, TaskWorkspace,
};
use serde_json::Value;

#[derive(sqlx::FromRow, Clone, Debug)]
pub struct TaskRow {
    pub id: String,
    pub team_id: String,
    pub workspace_id: String,
    pub mission_id: Option<String>,
    pub parent_task_id: Option<String>,
    pub title: String,
    pub description: Option<String>,
    pub context: String,
    #[sqlx(try_from = "String")]
    pub status: TaskStatus,
    pub priority: i64,
    #[sqlx(try_from = "String")]
    pub mode: TaskMode,
    #[sqlx(try_from = "String")]
    pub task_class: TaskClass,
    pub runner_preference: String,
    pub required_capabilities: String,
    pub claimed_by: Option<String>,
    pub claimed_at: Option<String>,
    pub expires_at: Option<String>,
    pub created_by_account_id: Option<String>,
    pub created_by_worker_id: Option<String>,
    pub creation_source: Option<String>,
    pub schedule_id: Option<String>,
    pub category: Option<String>,
    pub project: Option<String>,
    #[sqlx(try_from = "String")]
    pub output_requirement: OutputRequirement,
    pub output_schema: Option<String>,
    pub role_slug: Option<String>,
    pub depends_on: String,
    pub result: Option<String>,
    pub kind: Option<String>,
    pub complexity: Option<String>,
    pub backend: String,
    #[sqlx(try_from = "Flag")]
    pub requires_review: bool,
    pub start_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// The latest worker's PR.
    pub pr_url: Option<String>,
    pub pr_number: Option<i64>,
    pub merged_at: Option<String>,
    /// What all its workers cost, in micro-dollars.
    pub cost_micros: i64,
    /// Who stopped it, when and why.
    pub stopped_by: Option<String>,
    pub stopped_at: Option<String>,
    pub stop_reason: Option<String>,
}

/// Tasks joined with their latest worker, whose PR they carry.
pub(super) const TASK_FROM: &str = "tasks t LEFT JOIN workers lw ON lw.id = t.latest_worker_id";

pub(super) const TASK_COLUMNS: &str = "t.id, t.team_id, t.workspace_id, t.mission_id, \
    t.parent_task_id, t.title, t.description, t.context, t.status, t.priority, t.mode, \
    t.task_class, t.runner_preference, t.required_capabilities, t.claimed_by, t.claimed_at, \
    t.expires_at, t.created_by_account_id, t.created_by_worker_id, t.creation_source, \
    t.schedule_id, t.category, t.project, t.output_requirement, t.output_schema, t.role_slug, \
    t.depends_on, t.result, t.kind, t.complexity, t.backend, t.requires_review, t.start_at, \
    t.created_at, t.updated_at, lw.pr_url, lw.pr_number, lw.merged_at, t.cost_micros, \
    t.stopped_by, t.stopped_at, t.stop_reason";

impl TaskRow {
    pub fn status(&self) -> TaskStatus {
        self.status.clone()
    }

    pub fn category(&self) -> Option<TaskCategory> {
        self.category.as_deref().map(TaskCategory::parse)
    }

    pub fn depends_on(&self) -> Vec<String> {
        strings(&self.depends_on)
    }

    pub fn result(&self) -> Option<TaskResult> {
        self.result
            .as_deref()
            .and_then(|r| serde_json::from_str(r).ok())
    }

    /// The bare row, as `PATCH /api/tasks/{id}` returns it.
    pub fn to_task(&self) -> Task {
        Task {
            id: self.id.clone(),
            workspace_id: self.workspace_id.clone(),
            external_id: None,
            external_url: None,
            external_issue_id: None,
            external_issue_url: None,
            title: self.title.clone(),
            description: self.description.clone(),
            context: json_or(Some(&self.context), Value::Object(Default::default())),
            status: self.status(),
            priority: self.priority,
            mode: self.mode.clone(),
            runner_preference: Some(self.runner_preference.clone()),
            required_capabilities: strings(&self.required_capabilities),
            claimed_by: self.claimed_by.clone(),
            claimed_at: self.claimed_at.clone(),
            expires_at: self.expires_at.clone(),
            created_by_account_id: self.created_by_account_id.clone(),
            created_by_worker_id: self.created_by_worker_id.clone(),
            creation_source: self.creation_source.clone(),
            schedule_id: self.schedule_id.clone(),
            parent_task_id: self.parent_task_id.clone(),
            ci_retry_pr_number: None,
            ci_retry_head_sha: None,
            conflict_retry_pr_number: None,
            conflict_retry_head_sha: None,
            category: self.category(),
            project: self.project.clone(),
            output_requirement: Some(self.output_requirement.to_string()),
            output_schema: json_opt(self.output_schema.as_deref()),
            mission_id: self.mission_id.clone(),
            role_slug: self.role_slug.clone(),
            depends_on: self.depends_on(),
            result: self.result(),
            kind: self.kind.as_deref().map(TaskKind::parse),
            complexity: self.complexity.clone(),
            tier: None,
            predicted_model: None,
            classified_by: None,
            backend: Some(self.backend.clone()),
            requires_review: self.requires_review,
            release: Some("inherit".into()),
            release_result: None,
            path_manifest: None,
            start_at: self.start_at.clone(),
            loop_config: None,
            loop_iteration: 0,
            loop_state: None,
            subject_anchor: None,
            subject_kind: None,
            subject_pr_number: None,
            subject_head_sha: None,
            subject_branch: None,
            subject_error_signature: None,
            subject_mission_id: None,
            subject_dedupe_scope: None,
            subject_superseded_by_task_id: None,
            subject_resolution: None,
            task_class: Some(self.task_class.clone()),
            created_at: Some(self.created_at.clone()),
            updated_at: Some(self.updated_at.clone()),
            workspace: None,
            mission: None,
            workers: None,
            pr_url: self.pr_url.clone(),
            pr_number: self.pr_number,
            merged_at: self.merged_at.clone(),
            cost_usd: Some(Usd::from_micros(self.cost_micros).to_decimal_string()),
            stopped: self.stopped_by.clone().map(|by| TaskStop {
                by,
                at: self.stopped_at.clone(),
                reason: self.stop_reason.clone(),
            }),
        }
    }

    pub fn to_list_item(&self, workspace: Option<TaskWorkspace>) -> TaskListItem {
        TaskListItem {
            id: self.id.clone(),
            workspace_id: self.workspace_id.clone(),
            external_id: None,
            external_url: None,
            title: self.title.clone(),
            status: self.status(),
            priority: self.priority,
            mode: self.mode.clone(),
            runner_preference: Some(self.runner_preference.clone()),
            required_capabilities: strings(&self.required_capabilities),
            claimed_by: self.claimed_by.clone(),
            claimed_at: self.claimed_at.clone(),
            expires_at: self.expires_at.clone(),
            start_at: self.start_at.clone(),
            created_by_account_id: self.created_by_account_id.clone(),
            created_by_worker_id: self.created_by_worker_id.clone(),
            creation_source: self.creation_source.clone(),
            parent_task_id: self.parent_task_id.clone(),
            category: self.category.clone(),
            project: self.project.clone(),
            output_requirement: Some(self.output_requirement.to_string()),
            mission_id: self.mission_id.clone(),
            depends_on: self.depends_on(),
            created_at: Some(self.created_at.clone()),
            updated_at: Some(self.updated_at.clone()),
            workspace,
            pr_url: self.pr_url.clone(),
            pr_number: self.pr_number,
            merged_at: self.merged_at.clone(),
        }
    }
}
