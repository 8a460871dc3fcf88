//! The mission list and a mission's detail: missions with their tasks, latest workers,
//! workspace and schedule in a fixed number of queries, and the derived fields computed
//! by buildd-core.

use super::checkins::last_check;
use super::mission_tasks::{TASK_JSON, TASK_JSON_POSTGRES};
use super::missions::{find_mission, MissionRow, MISSION_COLUMNS};
use super::schedules::{settings, ScheduleRow, SCHEDULE_COLUMNS};
use super::task_memo::{TaskJson, TaskMemo};
use crate::config::CheckinConfig;
use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use buildd_core::merge_policy::{effective_policy, MergePolicy};
use buildd_core::{
    compute_progress, progress_of, MissionDetail, MissionGate, MissionListItem, MissionStatus,
    MissionTask, Schedule, ScheduleSummary, SubMission, WorkerStatus, WorkspaceRef,
};
use std::collections::HashMap;

/// Filters of the mission list; the same filter selects missions, tasks and workers.
pub struct MissionFilter<'a> {
    pub team_id: &'a str,
    pub status: Option<&'a str>,
    pub workspace_id: Option<&'a str>,
    pub mission_id: Option<&'a str>,
}

const FILTER: &str = "m.team_id = ?1 AND (?2 IS NULL OR m.status = ?2) \
    AND (?3 IS NULL OR m.workspace_id = ?3) AND (?4 IS NULL OR m.id = ?4)";

/// Tasks of the selected missions as the list embeds them, newest first, each with its
/// latest worker.
async fn tasks_by_mission(
    tx: &mut Tx,
    f: &MissionFilter<'_>,
) -> ApiResult<HashMap<String, Vec<MissionTask>>> {
    let sql = format!(
        "SELECT t.mission_id, \
           json_group_array({TASK_JSON} ORDER BY t.created_at DESC, t.rowid DESC) \
         FROM tasks t JOIN missions m ON m.id = t.mission_id \
         LEFT JOIN workers w ON w.id = t.latest_worker_id \
         WHERE {FILTER} GROUP BY t.mission_id"
    );
    let postgres = format!(
        "SELECT t.mission_id, \
           json_agg({TASK_JSON_POSTGRES} ORDER BY t.created_at DESC, t.rowid DESC)::text \
         FROM tasks t JOIN missions m ON m.id = t.mission_id \
         LEFT JOIN workers w ON w.id = t.latest_worker_id \
         WHERE {FILTER} GROUP BY t.mission_id"
    );
    let rows: Vec<(String, String)> = sql::query_as(&sql)
        .postgres(postgres)
        .bind(f.team_id)
        .bind(f.status)
        .bind(f.workspace_id)
        .bind(f.mission_id)
        .bind(false)
        .fetch_all(tx)
        .await?;
    rows.into_iter()
        .map(|(mission, json)| {
            let tasks: Vec<MissionTask> = serde_json::from_str(&json)?;
            Ok((mission, tasks))
        })
        .collect()
}

async fn workspace_refs(tx: &mut Tx, team_id: &str) -> ApiResult<HashMap<String, WorkspaceRef>> {
    let rows: Vec<(String, String)> =
        sql::query_as("SELECT id, name FROM workspaces WHERE team_id = ?")
            .bind(team_id)
            .fetch_all(tx)
            .await?;
    Ok(rows
        .into_iter()
        .map(|(id, name)| (id.clone(), WorkspaceRef { id, name }))
        .collect())
}

async fn schedules(tx: &mut Tx, team_id: &str) -> ApiResult<HashMap<String, ScheduleRow>> {
    let rows: Vec<ScheduleRow> = sql::query_as(&format!(
        "SELECT {SCHEDULE_COLUMNS} FROM schedules s WHERE s.team_id = ?"
    ))
    .bind(team_id)
    .fetch_all(tx)
    .await?;
    Ok(rows.into_iter().map(|s| (s.id.clone(), s)).collect())
}

fn last_activity(row: &MissionRow, tasks: &[MissionTask]) -> Option<String> {
    tasks
        .iter()
        .filter_map(|t| t.updated_at.clone())
        .chain(row.last_task_started_at.clone())
        .max()
}

/// `GET /api/missions` items matching `f`, in Buildd's order.
pub async fn mission_list(tx: &mut Tx, f: &MissionFilter<'_>) -> ApiResult<Vec<MissionListItem>> {
    let rows: Vec<MissionRow> = sql::query_as(&format!(
        "SELECT {MISSION_COLUMNS} FROM missions m WHERE {FILTER} \
         ORDER BY m.priority DESC, last_task_started_at DESC NULLS LAST, m.updated_at DESC"
    ))
    .bind(f.team_id)
    .bind(f.status)
    .bind(f.workspace_id)
    .bind(f.mission_id)
    .fetch_all(tx)
    .await?;
    let mut tasks = tasks_by_mission(tx, f).await?;
    let workspaces = workspace_refs(tx, f.team_id).await?;
    let schedules = schedules(tx, f.team_id).await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let tasks = tasks.remove(&row.id).unwrap_or_default();
            let schedule = row
                .schedule_id
                .as_ref()
                .and_then(|id| schedules.get(id))
                .map(ScheduleRow::to_summary);
            list_item(&row, tasks, &workspaces, schedule)
        })
        .collect())
}

fn list_item(
    row: &MissionRow,
    tasks: Vec<MissionTask>,
    workspaces: &HashMap<String, WorkspaceRef>,
    schedule: Option<ScheduleSummary>,
) -> MissionListItem {
    let mission = row.to_mission();
    let progress = compute_progress(&mission.status, &tasks);
    let active_agents = tasks
        .iter()
        .filter(|t| t.workers.iter().any(|w| w.status == WorkerStatus::Running))
        .count() as u32;
    let completed_at = matches!(
        mission.status,
        MissionStatus::Completed | MissionStatus::Archived | MissionStatus::BudgetExhausted
    )
    .then(|| mission.updated_at.clone());
    let s = schedule.clone();
    MissionListItem {
        workspace: row
            .workspace_id
            .as_ref()
            .and_then(|id| workspaces.get(id).cloned()),
        last_activity_at: last_activity(row, &tasks),
        total_tasks: progress.total_tasks,
        completed_tasks: progress.completed_tasks,
        progress: progress.progress,
        segments: progress.segments,
        active_agents,
        cron_expression: s.as_ref().and_then(|s| s.cron_expression.clone()),
        last_run_at: s.as_ref().and_then(|s| s.last_run_at.clone()),
        next_run_at: s.as_ref().and_then(|s| s.next_run_at.clone()),
        last_deferral_reason: s.as_ref().and_then(|s| s.last_deferral_reason.clone()),
        last_deferred_at: s.as_ref().and_then(|s| s.last_deferred_at.clone()),
        completed_at,
        schedule,
        tasks,
        mission,
    }
}

/// The rest of a mission's detail in one round trip: its workspace, its schedule, its
/// sub-missions, and the mission it waits on, each as JSON.
const DETAIL_EXTRAS_JSON: &str = "SELECT \
    (SELECT json_object('id', ws.id, 'name', ws.name) FROM workspaces ws \
       WHERE ws.id = m.workspace_id AND ws.team_id = m.team_id), \
    (SELECT json_object('id', s.id, 'workspaceId', s.workspace_id, 'name', s.name, \
       'cronExpression', s.cron_expression, 'timezone', s.timezone, \
       'taskTemplate', json(s.task_template), \
       'enabled', json(CASE WHEN s.enabled THEN 'true' ELSE 'false' END), \
       'oneShot', json(CASE WHEN s.one_shot THEN 'true' ELSE 'false' END), \
       'nextRunAt', s.next_run_at, 'lastRunAt', s.last_run_at, 'lastTaskId', s.last_task_id, \
       'totalRuns', s.total_runs, 'consecutiveFailures', s.consecutive_failures, \
       'lastError', s.last_error, 'lastDeferralReason', s.last_deferral_reason, \
       'lastDeferredAt', s.last_deferred_at, 'createdAt', s.created_at, 'updatedAt', s.updated_at) \
       FROM schedules s WHERE s.id = m.schedule_id AND s.team_id = m.team_id), \
    (SELECT json_group_array(json_object('id', c.id, 'title', c.title, 'status', c.status) \
       ORDER BY c.created_at) FROM missions c \
       WHERE c.parent_mission_id = m.id AND c.team_id = m.team_id), \
    (SELECT json_object('id', b.id, 'title', b.title, 'status', b.status) FROM missions b \
       WHERE b.id = m.depends_on_mission_id AND b.team_id = m.team_id \
         AND m.dependency_met_at IS NULL) \
    FROM missions m WHERE m.id = ? AND m.team_id = ?";

/// [`DETAIL_EXTRAS_JSON`] as Postgres builds JSON.
const DETAIL_EXTRAS_JSON_POSTGRES: &str = "SELECT \
    (SELECT json_build_object('id', ws.id, 'name', ws.name)::text FROM workspaces ws \
       WHERE ws.id = m.workspace_id AND ws.team_id = m.team_id), \
    (SELECT json_build_object('id', s.id, 'workspaceId', s.workspace_id, 'name', s.name, \
       'cronExpression', s.cron_expression, 'timezone', s.timezone, \
       'taskTemplate', s.task_template::json, \
       'enabled', s.enabled <> 0, 'oneShot', s.one_shot <> 0, \
       'nextRunAt', s.next_run_at, 'lastRunAt', s.last_run_at, 'lastTaskId', s.last_task_id, \
       'totalRuns', s.total_runs, 'consecutiveFailures', s.consecutive_failures, \
       'lastError', s.last_error, 'lastDeferralReason', s.last_deferral_reason, \
       'lastDeferredAt', s.last_deferred_at, 'createdAt', s.created_at, \
       'updatedAt', s.updated_at)::text \
       FROM schedules s WHERE s.id = m.schedule_id AND s.team_id = m.team_id), \
    (SELECT COALESCE(json_agg(json_build_object('id', c.id, 'title', c.title, \
       'status', c.status) ORDER BY c.created_at), '[]')::text FROM missions c \
       WHERE c.parent_mission_id = m.id AND c.team_id = m.team_id), \
    (SELECT json_build_object('id', b.id, 'title', b.title, 'status', b.status)::text \
       FROM missions b WHERE b.id = m.depends_on_mission_id AND b.team_id = m.team_id \
         AND m.dependency_met_at IS NULL) \
    FROM missions m WHERE m.id = ? AND m.team_id = ?";

/// `GET /api/missions/{id}`, read in the read-only `tx` (its tasks come through `memo`).
pub async fn mission_detail(
    tx: &mut Tx,
    team_id: &str,
    id: &str,
    checkins: &CheckinConfig,
    memo: &TaskMemo,
) -> ApiResult<MissionDetail<TaskJson>> {
    let row = find_mission(tx, team_id, id).await?;
    let tasks = memo.mission_tasks(tx, team_id, id).await?;
    let (workspace, schedule, sub_missions, blocker): (
        Option<String>,
        Option<String>,
        String,
        Option<String>,
    ) = sql::query_as(DETAIL_EXTRAS_JSON)
        .postgres(DETAIL_EXTRAS_JSON_POSTGRES)
        .bind(id)
        .bind(team_id)
        .fetch_one(tx)
        .await?;
    let workspace: Option<WorkspaceRef> =
        workspace.map(|w| serde_json::from_str(&w)).transpose()?;
    let schedule: Option<Schedule> = schedule.map(|s| serde_json::from_str(&s)).transpose()?;
    let sub_missions: Vec<SubMission> = serde_json::from_str(&sub_missions)?;
    let blocker: Option<SubMission> = blocker.map(|b| serde_json::from_str(&b)).transpose()?;

    let mission = row.to_mission();
    let progress = progress_of(&mission.status, tasks.iter().map(|t| &t.0.task));
    let last_check = last_check(tx, id).await?;
    let check_ins = settings(schedule.as_ref(), last_check, checkins);
    let workspace_policy: Option<MergePolicy> = match &row.workspace_id {
        Some(ws) => sql::query_as::<(Option<String>,)>(
            "SELECT json_extract(git_config, '$.mergePolicy') FROM workspaces WHERE id = ?",
        )
        .bind(ws)
        .fetch_optional(tx)
        .await?
        .and_then(|(p,)| p)
        .and_then(|p| serde_json::from_str(&p).ok()),
        None => None,
    };
    let mission_policy: Option<MergePolicy> = row
        .merge_policy
        .as_deref()
        .and_then(|p| serde_json::from_str(p).ok());
    let effective = effective_policy(
        false,
        row.requires_review,
        mission_policy.as_ref(),
        workspace_policy.as_ref(),
    );
    let context = schedule.as_ref().and_then(|s| s.context().cloned());
    let from_context = |key: &str| context.as_ref().and_then(|c| c.get(key)).cloned();
    let blocked_reason = blocker.as_ref().map(|SubMission { title, .. }| {
        let what = if row.gate_condition == MissionGate::Completed {
            "complete"
        } else {
            "merge its PRs"
        };
        format!("Waiting for mission \"{title}\" to {what}")
    });
    Ok(MissionDetail {
        workspace,
        sub_missions,
        total_tasks: progress.total_tasks,
        completed_tasks: progress.completed_tasks,
        progress: progress.progress,
        segments: progress.segments,
        skill_slugs: from_context("skillSlugs")
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default(),
        output_schema: from_context("outputSchema"),
        model: from_context("model").and_then(|v| v.as_str().map(str::to_string)),
        last_heartbeat_status: None,
        last_heartbeat_at: None,
        evaluation_status: None,
        last_evaluation_at: None,
        evaluation_rationale: None,
        blocked: blocker.is_some(),
        blocked_reason,
        blocked_by_mission_id: blocker.as_ref().map(|b| b.id.clone()),
        blocked_by_mission_title: blocker.map(|b| b.title),
        schedule,
        check_ins: Some(check_ins),
        effective_merge_policy: Some(effective),
        workspace_merge_policy: workspace_policy,
        tasks: tasks.to_vec(),
        mission,
    })
}
