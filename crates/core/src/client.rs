//! What the dashboard reads: the fields of Buildd's answers it shows, and nothing else.
//! Lean on purpose: the browser parses less, ships less code, and a Buildd that adds or
//! drops a field it does not show never breaks it. The server writes the full shapes
//! (`Mission`, `MissionDetail`, `Task`); every captured Buildd answer parses into both.

use crate::budget::budget_of;
use crate::checkin::DEFAULT_CHECKLIST;
use crate::enums::{MissionStatus, OrchestrationMode, TaskClass, TaskMode, TaskStatus};
use crate::merge_policy::{effective_policy, EffectivePolicy, MergePolicy};
use crate::mission::{IdRef, MissionTask, WorkspaceRef};
use crate::money::Usd;
use crate::schedule::{ActiveHoursJson, CheckInSettings};
use crate::task::{PlanRejection, TaskMissionRef, TaskResult, TaskWorker};
use crate::workspace::Workspace;
use serde::Deserialize;

/// A mission as the list and the mission page read it (`GET /api/missions` items and
/// `GET /api/missions/{id}` alike).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientMission {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    pub status: MissionStatus,
    pub workspace_id: Option<String>,
    #[serde(default)]
    pub is_held: bool,
    #[serde(default)]
    pub priority: i64,
    #[serde(default = "auto")]
    pub orchestration_mode: OrchestrationMode,
    pub depends_on_mission_id: Option<String>,
    pub dependency_met_at: Option<String>,
    pub workspace: Option<WorkspaceRef>,
    #[serde(default)]
    pub tasks: Vec<MissionTask>,
    pub next_run_at: Option<String>,
    /// Why the latest check-in deferred (the mission list carries it).
    pub last_deferral_reason: Option<String>,
    pub last_deferred_at: Option<String>,
    pub last_activity_at: Option<String>,
    pub updated_at: Option<String>,
    pub blocked_reason: Option<String>,
    /// This server's reading of the check-in schedule (`GET /api/missions/{id}`).
    pub check_ins: Option<CheckInSettings>,
    /// Buildd's schedule, read when `checkIns` is absent.
    pub schedule: Option<ClientSchedule>,
    #[serde(default)]
    pub requires_review: bool,
    /// `dispatch` or `interactive`.
    #[serde(default = "dispatch")]
    pub mode: String,
    pub merge_policy: Option<MergePolicy>,
    pub effective_merge_policy: Option<EffectivePolicy>,
    pub workspace_merge_policy: Option<MergePolicy>,
    /// The budget, a decimal string (`"25.00"`), when set.
    #[serde(default, deserialize_with = "money_text")]
    pub cost_budget_usd: Option<String>,
    /// What its tasks spent so far (this server's addition; Buildd's answers carry none).
    #[serde(default, deserialize_with = "money_text")]
    pub spend_usd: Option<String>,
}

impl ClientMission {
    /// What it spent, when the answer says (this server's missions do; Buildd's do not).
    pub fn spend(&self) -> Option<Usd> {
        self.spend_usd.as_deref().and_then(Usd::parse)
    }

    /// Its budget, when it has one.
    pub fn budget(&self) -> Option<Usd> {
        budget_of(self.cost_budget_usd.as_deref())
    }

    /// The mission as it is set up, without its tasks: cloning 10,000 tasks to read the
    /// settings cost milliseconds for nothing. Every field is named, so a new one must be
    /// decided on here.
    pub fn without_tasks(&self) -> ClientMission {
        let ClientMission {
            tasks: _,
            id,
            title,
            description,
            status,
            workspace_id,
            is_held,
            priority,
            orchestration_mode,
            depends_on_mission_id,
            dependency_met_at,
            workspace,
            next_run_at,
            last_deferral_reason,
            last_deferred_at,
            last_activity_at,
            updated_at,
            blocked_reason,
            check_ins,
            schedule,
            requires_review,
            mode,
            merge_policy,
            effective_merge_policy,
            workspace_merge_policy,
            cost_budget_usd,
            spend_usd,
        } = self;
        ClientMission {
            tasks: Vec::new(),
            id: id.clone(),
            title: title.clone(),
            description: description.clone(),
            status: status.clone(),
            workspace_id: workspace_id.clone(),
            is_held: *is_held,
            priority: *priority,
            orchestration_mode: orchestration_mode.clone(),
            depends_on_mission_id: depends_on_mission_id.clone(),
            dependency_met_at: dependency_met_at.clone(),
            workspace: workspace.clone(),
            next_run_at: next_run_at.clone(),
            last_deferral_reason: last_deferral_reason.clone(),
            last_deferred_at: last_deferred_at.clone(),
            last_activity_at: last_activity_at.clone(),
            updated_at: updated_at.clone(),
            blocked_reason: blocked_reason.clone(),
            check_ins: check_ins.clone(),
            schedule: schedule.clone(),
            requires_review: *requires_review,
            mode: mode.clone(),
            merge_policy: merge_policy.clone(),
            effective_merge_policy: effective_merge_policy.clone(),
            workspace_merge_policy: workspace_merge_policy.clone(),
            cost_budget_usd: cost_budget_usd.clone(),
            spend_usd: spend_usd.clone(),
        }
    }
}

/// Money as Buildd sends it, a decimal string, or as a number where a body was echoed.
fn money_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Option::<serde_json::Value>::deserialize(d)? {
        Some(serde_json::Value::String(s)) => Some(s),
        Some(serde_json::Value::Number(n)) => Some(n.to_string()),
        _ => None,
    })
}

/// The check-in schedule fields the mission page reads.
#[derive(Clone, Debug, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientSchedule {
    #[serde(default)]
    pub enabled: bool,
    pub next_run_at: Option<String>,
    pub last_deferral_reason: Option<String>,
    pub last_deferred_at: Option<String>,
    #[serde(default)]
    pub task_template: ClientTemplate,
}

#[derive(Clone, Debug, PartialEq, Default, Deserialize)]
pub struct ClientTemplate {
    #[serde(default)]
    pub context: ClientTemplateContext,
}

#[derive(Clone, Debug, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientTemplateContext {
    pub heartbeat: Option<bool>,
    pub heartbeat_checklist: Option<String>,
    pub active_hours_start: Option<u32>,
    pub active_hours_end: Option<u32>,
    pub active_hours_timezone: Option<String>,
}

impl ClientMission {
    /// Takes the workspace default from `workspace`'s row where the answer lacks it (Buildd
    /// sends neither it nor `effectiveMergePolicy`), so [`ClientMission::effective_policy`]
    /// resolves the same way as where the server reports it.
    pub fn inherit_from(&mut self, workspace: &Workspace) {
        if self.workspace_merge_policy.is_none()
            && self.workspace_id.as_deref() == Some(&workspace.id)
        {
            self.workspace_merge_policy = workspace.merge_policy();
        }
    }

    /// The policy the mission's PRs follow and why: as this server reports it, else resolved
    /// here from what the mission carries (see [`ClientMission::inherit_from`]).
    pub fn effective_policy(&self) -> EffectivePolicy {
        self.effective_merge_policy.clone().unwrap_or_else(|| {
            effective_policy(
                false,
                self.requires_review,
                self.merge_policy.as_ref(),
                self.workspace_merge_policy.as_ref(),
            )
        })
    }

    /// The mission's check-in settings: as this server reports them, else read from Buildd's
    /// schedule (without a next check-in that honours active hours).
    pub fn check_in_settings(&self) -> CheckInSettings {
        if let Some(c) = &self.check_ins {
            return c.clone();
        }
        let schedule = self.schedule.clone().unwrap_or_default();
        let context = &schedule.task_template.context;
        let enabled =
            self.schedule.is_some() && schedule.enabled && context.heartbeat == Some(true);
        let custom = context
            .heartbeat_checklist
            .clone()
            .filter(|c| !c.trim().is_empty() && c != DEFAULT_CHECKLIST);
        let active_hours = match (context.active_hours_start, context.active_hours_end) {
            (Some(start), Some(end)) => Some(ActiveHoursJson {
                start,
                end,
                timezone: context
                    .active_hours_timezone
                    .clone()
                    .unwrap_or_else(|| "UTC".into()),
            }),
            _ => None,
        };
        CheckInSettings {
            enabled,
            custom_checklist: custom.is_some(),
            checklist: custom.unwrap_or_else(|| DEFAULT_CHECKLIST.into()),
            active_hours,
            next_check_in_at: schedule.next_run_at.filter(|_| enabled),
            interval_seconds: crate::checkin::DEFAULT_INTERVAL_SECS,
            last_check: None,
        }
    }
}

fn dispatch() -> String {
    "dispatch".into()
}

fn auto() -> OrchestrationMode {
    OrchestrationMode::Auto
}

/// `GET /api/missions`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ClientMissionList {
    pub missions: Vec<ClientMission>,
}

/// `GET /api/missions` as the command center reads it: each mission without its
/// description, workspace, check-in schedule and merge policies, which no row or waiting
/// item shows. Fewer fields decoded is less code in the dashboard's first load; a test
/// over every captured list holds the rest equal to [`ClientMissionList`].
#[derive(Deserialize)]
pub struct BoardMissionList {
    missions: Vec<BoardMission>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BoardMission {
    id: String,
    title: String,
    status: MissionStatus,
    workspace_id: Option<String>,
    #[serde(default)]
    is_held: bool,
    #[serde(default)]
    priority: i64,
    #[serde(default = "auto")]
    orchestration_mode: OrchestrationMode,
    depends_on_mission_id: Option<String>,
    dependency_met_at: Option<String>,
    #[serde(default)]
    tasks: Vec<MissionTask>,
    next_run_at: Option<String>,
    last_deferral_reason: Option<String>,
    last_deferred_at: Option<String>,
    last_activity_at: Option<String>,
    updated_at: Option<String>,
    blocked_reason: Option<String>,
    #[serde(default)]
    requires_review: bool,
    #[serde(default = "dispatch")]
    mode: String,
    #[serde(default, deserialize_with = "money_text")]
    cost_budget_usd: Option<String>,
    #[serde(default, deserialize_with = "money_text")]
    spend_usd: Option<String>,
}

impl BoardMissionList {
    /// The missions, with what the board does not read left empty.
    pub fn into_missions(self) -> Vec<ClientMission> {
        self.missions
            .into_iter()
            .map(|m| ClientMission {
                id: m.id,
                title: m.title,
                description: None,
                status: m.status,
                workspace_id: m.workspace_id,
                is_held: m.is_held,
                priority: m.priority,
                orchestration_mode: m.orchestration_mode,
                depends_on_mission_id: m.depends_on_mission_id,
                dependency_met_at: m.dependency_met_at,
                workspace: None,
                tasks: m.tasks,
                next_run_at: m.next_run_at,
                last_deferral_reason: m.last_deferral_reason,
                last_deferred_at: m.last_deferred_at,
                last_activity_at: m.last_activity_at,
                updated_at: m.updated_at,
                blocked_reason: m.blocked_reason,
                check_ins: None,
                schedule: None,
                requires_review: m.requires_review,
                mode: m.mode,
                merge_policy: None,
                effective_merge_policy: None,
                workspace_merge_policy: None,
                cost_budget_usd: m.cost_budget_usd,
                spend_usd: m.spend_usd,
            })
            .collect()
    }
}

/// A task as its page reads it (`GET /api/tasks/{id}`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientTask {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    pub status: TaskStatus,
    #[serde(default = "execution")]
    pub mode: TaskMode,
    pub task_class: Option<TaskClass>,
    pub mission_id: Option<String>,
    pub parent_task_id: Option<String>,
    #[serde(default)]
    pub depends_on: Vec<String>,
    pub result: Option<TaskResult>,
    pub updated_at: Option<String>,
    pub mission: Option<TaskMissionRef>,
    pub pr_url: Option<String>,
    pub pr_number: Option<i64>,
    pub merged_at: Option<String>,
    pub context: Option<ClientTaskContext>,
    /// When it was filed: for a revised plan, when the plan before it was sent back.
    #[serde(default)]
    pub created_at: Option<String>,
    /// Its runs, newest first (`?include=workers`).
    #[serde(default)]
    pub workers: Vec<TaskWorker>,
    /// What all its attempts cost (this server's addition; Buildd's task carries none).
    #[serde(default, deserialize_with = "money_text")]
    pub cost_usd: Option<String>,
    #[serde(default)]
    pub priority: i64,
    /// Not claimed before this time.
    #[serde(default)]
    pub start_at: Option<String>,
    /// Who stopped it, when and why (this server's addition).
    #[serde(default)]
    pub stopped: Option<crate::task::TaskStop>,
}

/// The parts of a task's `context` the task page shows: how plan review went.
#[derive(Clone, Debug, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientTaskContext {
    /// On a revised planning task: the reviewer's feedback and the plan it replaces.
    pub plan_feedback: Option<String>,
    pub previous_plan_task_id: Option<String>,
    /// On a revised planning task: the reviewer's comments pinned to steps of the plan it
    /// replaces (this server's addition; Buildd has them inside `planFeedback`).
    #[serde(default)]
    pub plan_step_comments: Vec<crate::plan_feedback::StepComment>,
    /// On a rejected planning task.
    pub plan_rejection: Option<PlanRejection>,
}

fn execution() -> TaskMode {
    TaskMode::Execution
}

/// `POST /api/missions/{id}/run`: what pressing Run did.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientRunOutcome {
    pub task: Option<IdRef>,
    #[serde(default)]
    pub deduped: bool,
    #[serde(default)]
    pub skipped_blocked: bool,
    pub blocked_reason: Option<String>,
    #[serde(default)]
    pub skipped_pr_open: bool,
    #[serde(default)]
    pub skipped_budget_exhausted: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge_policy::PolicySource;
    use serde_json::json;

    /// Buildd's mission detail carries neither `effectiveMergePolicy` nor the workspace's.
    fn buildd_mission(policy: serde_json::Value) -> ClientMission {
        serde_json::from_value(json!({
            "id": "m1", "title": "T", "status": "active", "workspaceId": "w1",
            "mergePolicy": policy, "tasks": []
        }))
        .unwrap()
    }

    fn workspace(id: &str, git_config: serde_json::Value) -> Workspace {
        serde_json::from_value(json!({"id": id, "name": "ws", "gitConfig": git_config})).unwrap()
    }

    #[test]
    fn the_workspace_row_gives_the_inherited_policy() {
        let mut m = buildd_mission(serde_json::Value::Null);
        assert_eq!(m.effective_policy().source, PolicySource::Default);
        m.inherit_from(&workspace("w1", json!({"mergePolicy": {"tier": "human"}})));
        let p = m.effective_policy();
        assert_eq!(p.source, PolicySource::Workspace);
        assert_eq!(p.policy.tier.as_str(), "human");
    }

    #[test]
    fn another_workspace_or_the_mission_own_policy_wins_over_nothing() {
        let mut m = buildd_mission(serde_json::Value::Null);
        m.inherit_from(&workspace("w2", json!({"mergePolicy": {"tier": "human"}})));
        assert_eq!(m.effective_policy().source, PolicySource::Default);
        let mut own = buildd_mission(json!({"tier": "agent-review",
            "agentReview": {"reviewerRole": "reviewer"}}));
        own.inherit_from(&workspace("w1", json!({"mergePolicy": {"tier": "human"}})));
        assert_eq!(own.effective_policy().source, PolicySource::Mission);
        assert_eq!(
            own.workspace_merge_policy.map(|p| p.tier),
            Some("human".into())
        );
    }
}
