//! A mission as stored, and the shape the API answers with.

use crate::db::sql::Flag;
use crate::store::json_text::json_opt;
use buildd_core::budget::budget_of;
use buildd_core::money::Usd;
use buildd_core::{Mission, MissionGate, MissionStatus, OrchestrationMode, WorkMode};

#[derive(sqlx::FromRow, Clone, Debug)]
pub struct MissionRow {
    pub id: String,
    pub team_id: String,
    pub workspace_id: Option<String>,
    pub title: String,
    pub description: Option<String>,
    #[sqlx(try_from = "String")]
    pub status: MissionStatus,
    pub cost_budget_usd: Option<String>,
    pub priority: i64,
    pub default_output_requirement: Option<String>,
    pub default_backend: Option<String>,
    pub schedule_id: Option<String>,
    pub parent_mission_id: Option<String>,
    pub depends_on_mission_id: Option<String>,
    #[sqlx(try_from = "String")]
    pub gate_condition: MissionGate,
    pub dependency_met_at: Option<String>,
    pub max_concurrent_tasks: Option<i64>,
    pub last_task_started_at: Option<String>,
    pub working_branch: Option<String>,
    #[sqlx(try_from = "Flag")]
    pub requires_review: bool,
    pub merge_policy: Option<String>,
    #[sqlx(try_from = "String")]
    pub orchestration_mode: OrchestrationMode,
    #[sqlx(try_from = "Flag")]
    pub is_held: bool,
    pub start_at: Option<String>,
    pub goal_criteria: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    #[sqlx(try_from = "String")]
    pub mode: WorkMode,
    pub spend_micros: i64,
}

pub(in crate::store) const MISSION_COLUMNS: &str =
    "m.id, m.team_id, m.workspace_id, m.title, m.description, \
    m.status, m.cost_budget_usd, m.priority, m.default_output_requirement, m.default_backend, \
    m.schedule_id, m.parent_mission_id, m.depends_on_mission_id, m.gate_condition, \
    m.dependency_met_at, m.max_concurrent_tasks, \
    (SELECT s.at FROM mission_starts s WHERE s.mission_id = m.id) AS last_task_started_at, \
    m.working_branch, \
    m.requires_review, m.merge_policy, m.orchestration_mode, m.is_held, m.start_at, \
    m.goal_criteria, m.created_at, m.updated_at, m.mode, m.spend_micros";

impl MissionRow {
    pub fn status(&self) -> MissionStatus {
        self.status.clone()
    }

    /// What its tasks cost so far.
    pub fn spend(&self) -> Usd {
        Usd::from_micros(self.spend_micros)
    }

    /// Its budget, when it has one.
    pub fn budget(&self) -> Option<Usd> {
        budget_of(self.cost_budget_usd.as_deref())
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
            orchestration_mode: self.orchestration_mode.clone(),
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
            mode: self.mode.as_str().to_string(),
            spend_usd: Some(self.spend().to_decimal_string()),
        }
    }
}
