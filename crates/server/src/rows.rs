//! Rows as stored in SQLite, and their conversion into Buildd's JSON shapes.

use buildd_core::*;
use serde_json::Value;

fn json_or(text: Option<&str>, default: Value) -> Value {
    text.and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(default)
}

fn json_opt(text: Option<&str>) -> Option<Value> {
    text.and_then(|t| serde_json::from_str(t).ok())
}

fn strings(text: &str) -> Vec<String> {
    serde_json::from_str(text).unwrap_or_default()
}

#[derive(sqlx::FromRow, Clone, Debug)]
pub struct MissionRow {
    pub id: String,
    pub team_id: String,
    pub workspace_id: Option<String>,
    pub title: String,
    pub description: Option<String>,
    pub status: String,
    pub cost_budget_usd: Option<String>,
    pub priority: i64,
    pub default_output_requirement: Option<String>,
    pub default_backend: Option<String>,
    pub schedule_id: Option<String>,
    pub parent_mission_id: Option<String>,
    pub depends_on_mission_id: Option<String>,
    pub gate_condition: String,
    pub dependency_met_at: Option<String>,
    pub max_concurrent_tasks: Option<i64>,
    pub last_task_started_at: Option<String>,
    pub working_branch: Option<String>,
    pub requires_review: bool,
    pub merge_policy: Option<String>,
    pub orchestration_mode: String,
    pub is_held: bool,
    pub start_at: Option<String>,
    pub goal_criteria: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    pub mode: String,
}

pub const MISSION_COLUMNS: &str = "m.id, m.team_id, m.workspace_id, m.title, m.description, \
    m.status, m.cost_budget_usd, m.priority, m.default_output_requirement, m.default_backend, \
    m.schedule_id, m.parent_mission_id, m.depends_on_mission_id, m.gate_condition, \
    m.dependency_met_at, m.max_concurrent_tasks, m.last_task_started_at, m.working_branch, \
    m.requires_review, m.merge_policy, m.orchestration_mode, m.is_held, m.start_at, \
    m.goal_criteria, m.created_at, m.updated_at, m.mode";

impl MissionRow {
    pub fn status(&self) -> MissionStatus {
        MissionStatus::parse(&self.status)
    }

    pub fn to_mission(&self) -> Mission {
        Mission {
            id: self.id.clone(),
            team_id: self.team_id.clone(),
            workspace_id: self.workspace_id.clone(),
            title: self.title.clone(),
            description: self.description.clone(),
            status: self.status(),
            cost_budget_usd: self.cost_budget_usd.clone(),
            priority: self.priority,
            default_output_requirement: self.default_output_requirement.clone(),
            default_backend: self.default_backend.clone(),
            schedule_id: self.schedule_id.clone(),
            parent_mission_id: self.parent_mission_id.clone(),
            initiative_id: None,
            last_evaluation_task_id: None,
            depends_on_mission_id: self.depends_on_mission_id.clone(),
            gate_condition: self.gate_condition.clone(),
            dependency_met_at: self.dependency_met_at.clone(),
            context_artifact_ids: vec![],
            max_concurrent_tasks: self.max_concurrent_tasks,
            pacing_mode: "eager".into(),
            pacing_max_per_hour: None,
            last_task_started_at: self.last_task_started_at.clone(),
            working_branch: self.working_branch.clone(),
            primary_pr_number: None,
            primary_pr_url: None,
            last_notified_sha: None,
            requires_review: self.requires_review,
            merge_policy: json_opt(self.merge_policy.as_deref()),
            orchestration_mode: OrchestrationMode::parse(&self.orchestration_mode),
            decomposition_skipped: false,
            is_held: self.is_held,
            start_at: self.start_at.clone(),
            start_resolution: None,
            released_at: None,
            external_issue_id: None,
            external_issue_url: None,
            goal_criteria: json_opt(self.goal_criteria.as_deref()),
            goal_criteria_state: None,
            auto_verify: None,
            created_by_user_id: None,
            created_at: self.created_at.clone(),
            updated_at: self.updated_at.clone(),
            mode: self.mode.clone(),
        }
    }
}

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
    pub status: String,
    pub priority: i64,
    pub mode: String,
    pub task_class: String,
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
    pub output_requirement: String,
    pub output_schema: Option<String>,
    pub role_slug: Option<String>,
    pub depends_on: String,
    pub result: Option<String>,
    pub kind: Option<String>,
    pub complexity: Option<String>,
    pub backend: String,
    pub requires_review: bool,
    pub start_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// The latest worker's PR.
    pub pr_url: Option<String>,
    pub pr_number: Option<i64>,
    pub merged_at: Option<String>,
}

/// Tasks joined with their latest worker, whose PR they carry.
pub const TASK_FROM: &str = "tasks t LEFT JOIN workers lw ON lw.id = t.latest_worker_id";

pub const TASK_COLUMNS: &str = "t.id, t.team_id, t.workspace_id, t.mission_id, \
    t.parent_task_id, t.title, t.description, t.context, t.status, t.priority, t.mode, \
    t.task_class, t.runner_preference, t.required_capabilities, t.claimed_by, t.claimed_at, \
    t.expires_at, t.created_by_account_id, t.created_by_worker_id, t.creation_source, \
    t.schedule_id, t.category, t.project, t.output_requirement, t.output_schema, t.role_slug, \
    t.depends_on, t.result, t.kind, t.complexity, t.backend, t.requires_review, t.start_at, \
    t.created_at, t.updated_at, lw.pr_url, lw.pr_number, lw.merged_at";

impl TaskRow {
    pub fn status(&self) -> TaskStatus {
        TaskStatus::parse(&self.status)
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
            mode: TaskMode::parse(&self.mode),
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
            category: self.category.clone(),
            project: self.project.clone(),
            output_requirement: Some(self.output_requirement.clone()),
            output_schema: json_opt(self.output_schema.as_deref()),
            mission_id: self.mission_id.clone(),
            role_slug: self.role_slug.clone(),
            depends_on: self.depends_on(),
            result: self.result(),
            kind: self.kind.clone(),
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
            task_class: Some(TaskClass::parse(&self.task_class)),
            created_at: Some(self.created_at.clone()),
            updated_at: Some(self.updated_at.clone()),
            workspace: None,
            mission: None,
            workers: None,
            pr_url: self.pr_url.clone(),
            pr_number: self.pr_number,
            merged_at: self.merged_at.clone(),
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
            mode: TaskMode::parse(&self.mode),
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
            output_requirement: Some(self.output_requirement.clone()),
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

#[derive(sqlx::FromRow, Clone, Debug)]
pub struct WorkerRow {
    pub id: String,
    pub task_id: String,
    pub workspace_id: String,
    pub account_id: Option<String>,
    pub name: String,
    pub runner: String,
    pub status: String,
    pub branch: Option<String>,
    pub current_action: Option<String>,
    pub pr_url: Option<String>,
    pub pr_number: Option<i64>,
    pub merged_at: Option<String>,
    pub pr_lifecycle_status: Option<String>,
    pub error: Option<String>,
    pub started_at: Option<String>,
    pub completed_at: Option<String>,
    pub instruction_history: String,
    pub created_at: String,
    pub updated_at: String,
}

pub const WORKER_COLUMNS: &str = "w.id, w.task_id, w.workspace_id, w.account_id, w.name, \
    w.runner, w.status, w.branch, w.current_action, w.pr_url, w.pr_number, w.merged_at, \
    w.pr_lifecycle_status, w.error, w.started_at, w.completed_at, w.instruction_history, \
    w.created_at, w.updated_at";

/// Newest first: by start, then creation.
pub const WORKER_ORDER: &str = "COALESCE(w.started_at, w.created_at) DESC, w.created_at DESC";

impl WorkerRow {
    pub fn status(&self) -> WorkerStatus {
        WorkerStatus::parse(&self.status)
    }

    /// Finished: it takes no more updates or instructions.
    pub fn is_finished(&self) -> bool {
        matches!(
            self.status(),
            WorkerStatus::Completed | WorkerStatus::Failed | WorkerStatus::Error
        )
    }

    pub fn history(&self) -> Vec<InstructionEntry> {
        serde_json::from_str(&self.instruction_history).unwrap_or_default()
    }

    /// The full row, as the worker protocol returns it.
    pub fn to_worker(&self) -> Worker {
        let history = self.history();
        let pending: Vec<&str> = history
            .iter()
            .filter(|e| e.delivery_state.as_deref() == Some("pending"))
            .map(|e| e.message.as_str())
            .collect();
        Worker {
            id: self.id.clone(),
            task_id: self.task_id.clone(),
            workspace_id: self.workspace_id.clone(),
            account_id: self.account_id.clone(),
            name: self.name.clone(),
            runner: self.runner.clone(),
            branch: self.branch.clone(),
            status: self.status(),
            current_action: self.current_action.clone(),
            pr_url: self.pr_url.clone(),
            pr_number: self.pr_number,
            merged_at: self.merged_at.clone(),
            pr_lifecycle_status: self.pr_lifecycle_status.clone(),
            error: self.error.clone(),
            pending_instructions: (!pending.is_empty()).then(|| pending.join("\n\n")),
            instruction_history: history,
            started_at: self.started_at.clone(),
            completed_at: self.completed_at.clone(),
            created_at: self.created_at.clone(),
            updated_at: self.updated_at.clone(),
        }
    }

    pub fn to_task_worker(&self) -> TaskWorker {
        TaskWorker {
            id: self.id.clone(),
            status: WorkerStatus::parse(&self.status),
            branch: self.branch.clone(),
            pr_url: self.pr_url.clone(),
            pr_number: self.pr_number,
            merged_at: self.merged_at.clone(),
            error: self.error.clone(),
            current_action: self.current_action.clone(),
            started_at: self.started_at.clone(),
            completed_at: self.completed_at.clone(),
            created_at: Some(self.created_at.clone()),
        }
    }
}

#[derive(sqlx::FromRow, Clone, Debug)]
pub struct WorkspaceRow {
    pub id: String,
    pub team_id: String,
    pub name: String,
    pub repo: Option<String>,
    pub local_path: Option<String>,
    pub access_mode: String,
    pub data_class: String,
    pub max_concurrent_tasks: i64,
    pub git_config: String,
    pub config_status: String,
    pub last_migration_number: i64,
    pub created_at: String,
    pub updated_at: String,
}

pub const WORKSPACE_COLUMNS: &str = "ws.id, ws.team_id, ws.name, ws.repo, ws.local_path, \
    ws.access_mode, ws.data_class, ws.max_concurrent_tasks, ws.git_config, ws.config_status, \
    ws.last_migration_number, ws.created_at, ws.updated_at";

impl WorkspaceRow {
    pub fn to_workspace(&self) -> Workspace {
        Workspace {
            id: self.id.clone(),
            name: self.name.clone(),
            repo: self.repo.clone(),
            local_path: self.local_path.clone(),
            memory: Value::Object(Default::default()),
            projects: Value::Array(vec![]),
            github_repo_id: None,
            github_installation_id: None,
            access_mode: Some(self.access_mode.clone()),
            data_class: Some(self.data_class.clone()),
            max_concurrent_tasks: Some(self.max_concurrent_tasks),
            git_config: Some(json_or(
                Some(&self.git_config),
                Value::Object(Default::default()),
            )),
            config_status: Some(self.config_status.clone()),
            webhook_config: None,
            discord_config: None,
            slack_config: None,
            release_config: None,
            work_tracker_config: None,
            last_migration_number: self.last_migration_number,
            team_id: Some(self.team_id.clone()),
            created_at: Some(self.created_at.clone()),
            updated_at: Some(self.updated_at.clone()),
        }
    }

    pub fn to_task_workspace(&self) -> TaskWorkspace {
        TaskWorkspace {
            id: self.id.clone(),
            name: self.name.clone(),
            repo: self.repo.clone(),
        }
    }
}

#[derive(sqlx::FromRow, Clone, Debug)]
pub struct ScheduleRow {
    pub id: String,
    pub workspace_id: Option<String>,
    pub name: String,
    pub cron_expression: Option<String>,
    pub timezone: String,
    pub task_template: String,
    pub enabled: bool,
    pub one_shot: bool,
    pub next_run_at: Option<String>,
    pub last_run_at: Option<String>,
    pub last_task_id: Option<String>,
    pub total_runs: i64,
    pub consecutive_failures: i64,
    pub last_error: Option<String>,
    pub last_deferral_reason: Option<String>,
    pub last_deferred_at: Option<String>,
    pub last_state_key: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

pub const SCHEDULE_COLUMNS: &str = "s.id, s.workspace_id, s.name, s.cron_expression, \
    s.timezone, s.task_template, s.enabled, s.one_shot, s.next_run_at, s.last_run_at, \
    s.last_task_id, s.total_runs, s.consecutive_failures, s.last_error, \
    s.last_deferral_reason, s.last_deferred_at, s.last_state_key, s.created_at, s.updated_at";

impl ScheduleRow {
    pub fn to_summary(&self) -> ScheduleSummary {
        ScheduleSummary {
            cron_expression: self.cron_expression.clone(),
            next_run_at: self.next_run_at.clone(),
            last_run_at: self.last_run_at.clone(),
            last_deferral_reason: self.last_deferral_reason.clone(),
            last_deferred_at: self.last_deferred_at.clone(),
        }
    }
}
