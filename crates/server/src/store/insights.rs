//! The Insights page's rows (`GET /api/insights`): the team's merged PRs, its failed tasks
//! and retries, what each worker spent, the spans agents worked and the active hours its
//! missions keep, each one statement from a moment on. The rows are returned as they are;
//! buildd-core's `weekly` and `busy_hours` make the figures where they are drawn.

use super::schedules::active_hours;
use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use buildd_core::insights::busy_hours::BusyInterval;
use buildd_core::insights::spend_series::SpendPoint;
use buildd_core::insights::team::{deliverable, MissionHours};
use buildd_core::insights::weekly::{MergedPr, TaskTally};
use buildd_core::money::Usd;
use buildd_core::{TaskClass, TaskStatus, WorkerStatus};
use serde_json::{Map, Value};

/// PRs merged since `?2`, with their task's class (its parent's for a retry) and when the
/// task was first claimed.
const MERGED: &str = "SELECT p.workspace_id, p.mission_id, p.number, t.task_class, \
    pt.task_class AS parent_class, \
    (SELECT MIN(w.started_at) FROM workers w WHERE w.task_id = p.task_id) AS claimed_at, \
    p.created_at AS opened_at, p.merged_at \
    FROM pull_requests p \
    LEFT JOIN tasks t ON t.id = p.task_id \
    LEFT JOIN tasks pt ON pt.id = t.parent_task_id \
    WHERE p.team_id = ?1 AND p.state = 'merged' AND p.merged_at >= ?2 \
    ORDER BY p.merged_at, p.number";

#[derive(sqlx::FromRow)]
struct MergedRow {
    workspace_id: String,
    mission_id: Option<String>,
    number: i64,
    task_class: Option<String>,
    parent_class: Option<String>,
    claimed_at: Option<String>,
    opened_at: String,
    merged_at: String,
}

pub async fn merged(tx: &mut Tx, team_id: &str, since: &str) -> ApiResult<Vec<MergedPr>> {
    let rows: Vec<MergedRow> = sql::query_as(MERGED)
        .bind(team_id)
        .bind(since)
        .fetch_all(tx)
        .await?;
    Ok(rows
        .into_iter()
        .map(|r| MergedPr {
            workspace_id: r.workspace_id,
            mission_id: r.mission_id,
            number: r.number,
            // A PR of no task (reported by hand) is nobody's deliverable.
            deliverable: r.task_class.as_deref().is_some_and(|class| {
                deliverable(
                    TaskClass::parse(class),
                    r.parent_class.as_deref().map(TaskClass::parse),
                )
            }),
            claimed_at: r.claimed_at,
            opened_at: Some(r.opened_at),
            merged_at: r.merged_at,
        })
        .collect())
}

/// Tasks failed or retries filed since `?2`; a failure is dated by its last worker's end,
/// else by the task's last change.
const TASKS: &str = "SELECT t.workspace_id, t.task_class, t.status, t.created_at, \
    CASE WHEN t.status = 'failed' THEN COALESCE(lw.completed_at, t.updated_at) END \
      AS finished_at \
    FROM tasks t LEFT JOIN workers lw ON lw.id = t.latest_worker_id \
    WHERE t.team_id = ?1 AND ((t.status = 'failed' AND t.updated_at >= ?2) \
      OR (t.task_class = 'attempt' AND t.created_at >= ?2)) \
    ORDER BY t.created_at, t.rowid";

#[derive(sqlx::FromRow)]
struct TaskRow {
    workspace_id: String,
    task_class: String,
    status: String,
    created_at: String,
    finished_at: Option<String>,
}

pub async fn tasks(tx: &mut Tx, team_id: &str, since: &str) -> ApiResult<Vec<TaskTally>> {
    let rows: Vec<TaskRow> = sql::query_as(TASKS)
        .bind(team_id)
        .bind(since)
        .fetch_all(tx)
        .await?;
    Ok(rows
        .into_iter()
        .map(|r| TaskTally {
            workspace_id: r.workspace_id,
            class: TaskClass::parse(&r.task_class),
            status: TaskStatus::parse(&r.status),
            created_at: Some(r.created_at),
            finished_at: r.finished_at,
        })
        .collect())
}

/// Each worker that cost something and last reported since `?2`, with its task's mission.
const SPEND: &str = "SELECT COALESCE(w.completed_at, w.updated_at) AS at, w.cost_micros, \
    w.started_at, t.mission_id, w.workspace_id \
    FROM workers w JOIN tasks t ON t.id = w.task_id \
    WHERE t.team_id = ?1 AND w.cost_micros > 0 \
      AND COALESCE(w.completed_at, w.updated_at) >= ?2 \
    ORDER BY at, w.id";

#[derive(sqlx::FromRow)]
struct SpendRow {
    at: String,
    cost_micros: i64,
    started_at: Option<String>,
    mission_id: Option<String>,
    workspace_id: String,
}

pub async fn spend(tx: &mut Tx, team_id: &str, since: &str) -> ApiResult<Vec<SpendPoint>> {
    let rows: Vec<SpendRow> = sql::query_as(SPEND)
        .bind(team_id)
        .bind(since)
        .fetch_all(tx)
        .await?;
    Ok(rows
        .into_iter()
        .map(|r| SpendPoint {
            at: r.at,
            cost_usd: Usd::from_micros(r.cost_micros).to_decimal_string(),
            started_at: r.started_at,
            mission_id: r.mission_id,
            workspace_id: Some(r.workspace_id),
        })
        .collect())
}

/// Each worker that started and was still on, or ended, since `?2`.
const BUSY: &str = "SELECT w.started_at, w.completed_at, w.updated_at, w.status, \
    w.workspace_id \
    FROM workers w JOIN tasks t ON t.id = w.task_id \
    WHERE t.team_id = ?1 AND w.started_at IS NOT NULL \
      AND (w.completed_at IS NULL OR w.completed_at >= ?2) AND w.updated_at >= ?2 \
    ORDER BY w.started_at, w.id";

#[derive(sqlx::FromRow)]
struct BusyRow {
    started_at: Option<String>,
    completed_at: Option<String>,
    updated_at: String,
    status: String,
    workspace_id: String,
}

pub async fn busy(tx: &mut Tx, team_id: &str, since: &str) -> ApiResult<Vec<BusyInterval>> {
    let rows: Vec<BusyRow> = sql::query_as(BUSY)
        .bind(team_id)
        .bind(since)
        .fetch_all(tx)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            BusyInterval::of_times(
                r.started_at,
                r.completed_at,
                r.updated_at,
                WorkerStatus::parse(&r.status).is_live(),
                Some(r.workspace_id),
            )
        })
        .collect())
}

/// The check-in schedules' templates of the team's active missions.
const HOURS: &str = "SELECT s.task_template FROM missions m \
    JOIN schedules s ON s.id = m.schedule_id \
    WHERE m.team_id = ?1 AND m.status = 'active' ORDER BY m.created_at, m.id";

/// The active hours the team's active missions set, with their zones' offsets at `now_ms`.
pub async fn active(tx: &mut Tx, team_id: &str, now_ms: i64) -> ApiResult<Vec<MissionHours>> {
    let templates: Vec<(String,)> = sql::query_as(HOURS).bind(team_id).fetch_all(tx).await?;
    Ok(templates
        .into_iter()
        .filter_map(|(template,)| {
            let template: Map<String, Value> = serde_json::from_str(&template).ok()?;
            let context = template.get("context")?.as_object()?;
            Some(MissionHours::of(&active_hours(context)?, now_ms))
        })
        .collect())
}
