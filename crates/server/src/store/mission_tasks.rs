//! A mission's tasks as Buildd embeds them in a mission, each with its latest worker, built
//! as JSON by SQLite: one row per mission instead of one per task, so thousands of tasks
//! answer in milliseconds. Postgres, slower at building JSON than at handing rows over,
//! hands over the rows.

use super::tasks::terminal_statuses;
use crate::db::sql::{self, Flag};
use crate::db::Tx;
use crate::error::ApiResult;
use buildd_core::money::Usd;
use buildd_core::{MissionTask, TaskClass, TaskMode, TaskStatus, WorkerStatus, WorkerSummary};
use std::collections::HashSet;

/// The fields of a task as Buildd embeds it in a mission, but its result. `?5` (detail) adds
/// priority and createdAt.
macro_rules! task_fields {
    () => {
        "'id', t.id, 'title', t.title, 'status', t.status, \
         'priority', CASE WHEN ?5 <> 0 THEN t.priority END, \
         'roleSlug', t.role_slug, \
         'createdAt', CASE WHEN ?5 <> 0 THEN t.created_at END, \
         'updatedAt', t.updated_at, 'kind', t.kind, 'mode', t.mode, 'category', t.category, \
         'parentTaskId', t.parent_task_id, 'creationSource', t.creation_source, \
         'taskClass', t.task_class, 'dependsOn', json(t.depends_on), \
         'costUsd', printf('%d.%06d', t.cost_micros / 1000000, t.cost_micros % 1000000), \
         'workers', CASE WHEN w.id IS NULL THEN json('[]') ELSE json_array(json_object( \
             'id', w.id, 'status', w.status, 'prUrl', w.pr_url, 'mergedAt', w.merged_at, \
             'prNumber', w.pr_number, 'prLifecycleStatus', w.pr_lifecycle_status, \
             'startedAt', w.started_at, 'completedAt', w.completed_at, \
             'currentAction', w.current_action, 'waitingFor', json(w.waiting_for))) END"
    };
}

/// [`task_fields!`] as Postgres builds JSON.
macro_rules! task_fields_postgres {
    () => {
        "'id', t.id, 'title', t.title, 'status', t.status, \
         'priority', CASE WHEN ?5 <> 0 THEN t.priority END, \
         'roleSlug', t.role_slug, \
         'createdAt', CASE WHEN ?5 <> 0 THEN t.created_at END, \
         'updatedAt', t.updated_at, 'kind', t.kind, 'mode', t.mode, 'category', t.category, \
         'parentTaskId', t.parent_task_id, 'creationSource', t.creation_source, \
         'taskClass', t.task_class, 'dependsOn', t.depends_on::json, \
         'costUsd', (t.cost_micros / 1000000)::text || '.' \
             || lpad((t.cost_micros % 1000000)::text, 6, '0'), \
         'workers', CASE WHEN w.id IS NULL THEN '[]'::json ELSE json_build_array( \
             json_build_object( \
             'id', w.id, 'status', w.status, 'prUrl', w.pr_url, 'mergedAt', w.merged_at, \
             'prNumber', w.pr_number, 'prLifecycleStatus', w.pr_lifecycle_status, \
             'startedAt', w.started_at, 'completedAt', w.completed_at, \
             'currentAction', w.current_action, 'waitingFor', w.waiting_for::json)) END"
    };
}

/// A task as Buildd embeds it in a mission. The detail (`?5`) carries every result (`null`
/// for none); the list only planning runs' results, which tell a plan in review, and omits
/// the field for the rest, as Buildd's list does, rather than say they have none.
pub const TASK_JSON: &str = concat!(
    "CASE WHEN ?5 <> 0 OR t.mode = 'planning' THEN json_object(",
    task_fields!(),
    ", 'result', json(t.result)) ELSE json_object(",
    task_fields!(),
    ") END"
);

/// [`TASK_JSON`] as Postgres builds JSON.
pub const TASK_JSON_POSTGRES: &str = concat!(
    "CASE WHEN ?5 <> 0 OR t.mode = 'planning' THEN json_build_object(",
    task_fields_postgres!(),
    ", 'result', t.result::json) ELSE json_build_object(",
    task_fields_postgres!(),
    ") END"
);

/// The mission's tasks as its detail embeds them, all or only `ids`, newest first, with
/// their rowids.
pub async fn read_tasks(
    tx: &mut Tx,
    team_id: &str,
    mission_id: &str,
    ids: Option<&HashSet<String>>,
) -> ApiResult<Vec<(i64, MissionTask)>> {
    let ids = ids.map(serde_json::to_string).transpose()?;
    if tx.is_postgres() {
        return read_rows(tx, team_id, mission_id, ids).await;
    }
    let (rowids, tasks): (String, String) = sql::query_as(&read_sql(ids.is_some()))
        .bind(team_id)
        .bind(None::<&str>)
        .bind(None::<&str>)
        .bind(mission_id)
        .bind(true)
        .bind(ids)
        .fetch_one(tx)
        .await?;
    let rowids: Vec<i64> = serde_json::from_str(&rowids)?;
    let tasks: Vec<MissionTask> = serde_json::from_str(&tasks)?;
    Ok(rowids.into_iter().zip(tasks).rev().collect())
}

/// What [`read_tasks`] runs: every task of the mission, or those of a list of ids (`?6`).
fn read_sql(listed: bool) -> String {
    let (from, which) = if listed {
        // Each by its key, the list driving (CROSS JOIN keeps it outside): left to itself,
        // the planner walks one of the team's indexes, every task the team ever had.
        (
            "json_each(?6) ids CROSS JOIN tasks t ON t.id = ids.value",
            "1",
        )
    } else {
        // The index hands rows over oldest first (created_at, then rowid): nothing is sorted.
        ("tasks t INDEXED BY tasks_by_mission", "?6 IS NULL")
    };
    format!(
        "SELECT json_group_array(t.rowid), json_group_array({TASK_JSON}) \
         FROM {from} LEFT JOIN workers w ON w.id = t.latest_worker_id \
         WHERE {which} AND t.mission_id = ?4 AND t.team_id = ?1"
    )
}

/// [`read_tasks`] on Postgres: the columns, made into tasks here. Postgres building the
/// same JSON ([`TASK_JSON_POSTGRES`]) took about 12 ms of its CPU for a mission of 500 tasks,
/// at every poll of its page; reading the rows takes a fraction of that.
async fn read_rows(
    tx: &mut Tx,
    team_id: &str,
    mission_id: &str,
    ids: Option<String>,
) -> ApiResult<Vec<(i64, MissionTask)>> {
    let (from, which) = match ids {
        Some(_) => ("json_each(?) ids JOIN tasks t ON t.id = ids.value", "TRUE"),
        None => ("tasks t", "? IS NULL"),
    };
    let select = format!(
        "SELECT t.rowid, t.id, t.title, t.status, t.priority, t.role_slug, t.created_at, \
           t.updated_at, t.kind, t.mode, t.category, t.parent_task_id, t.creation_source, \
           t.task_class, t.depends_on, t.cost_micros, t.result, w.id AS worker_id, \
           w.status AS worker_status, w.pr_url, w.merged_at, w.pr_number, \
           w.pr_lifecycle_status, w.started_at, w.completed_at, w.current_action, w.waiting_for \
         FROM {from} LEFT JOIN workers w ON w.id = t.latest_worker_id \
         WHERE {which} AND t.mission_id = ? AND t.team_id = ? \
         ORDER BY t.created_at DESC, t.rowid DESC"
    );
    let rows: Vec<EmbeddedRow> = sql::query_as(&select)
        .bind(ids)
        .bind(mission_id)
        .bind(team_id)
        .fetch_all(tx)
        .await?;
    rows.into_iter()
        .map(|row| Ok((row.rowid, row.task()?)))
        .collect()
}

/// A task's columns and its latest worker's, as [`read_rows`] reads them.
#[derive(sqlx::FromRow)]
struct EmbeddedRow {
    rowid: i64,
    id: String,
    title: String,
    status: String,
    priority: i64,
    role_slug: Option<String>,
    created_at: String,
    updated_at: String,
    kind: Option<String>,
    mode: String,
    category: Option<String>,
    parent_task_id: Option<String>,
    creation_source: Option<String>,
    task_class: String,
    depends_on: String,
    cost_micros: i64,
    result: Option<String>,
    worker_id: Option<String>,
    worker_status: Option<String>,
    pr_url: Option<String>,
    merged_at: Option<String>,
    pr_number: Option<i64>,
    pr_lifecycle_status: Option<String>,
    started_at: Option<String>,
    completed_at: Option<String>,
    current_action: Option<String>,
    waiting_for: Option<String>,
}

impl EmbeddedRow {
    /// The task as [`TASK_JSON`] has it in a detail (`?5` set), field for field (a cost
    /// written by buildd-core's rule, which the SQL's matches for the costs the API takes,
    /// none negative).
    fn task(self) -> ApiResult<MissionTask> {
        let result = match &self.result {
            Some(text) => serde_json::from_str(text)?,
            None => None,
        };
        let workers = match self.worker_id {
            None => Vec::new(),
            Some(id) => vec![WorkerSummary {
                id,
                status: WorkerStatus::parse(self.worker_status.as_deref().unwrap_or_default()),
                pr_url: self.pr_url,
                merged_at: self.merged_at,
                pr_number: self.pr_number,
                pr_lifecycle_status: self.pr_lifecycle_status,
                pr_last_checked_at: None,
                started_at: self.started_at,
                completed_at: self.completed_at,
                current_action: self.current_action,
                waiting_for: match &self.waiting_for {
                    Some(text) => serde_json::from_str(text)?,
                    None => None,
                },
            }],
        };
        Ok(MissionTask {
            id: self.id,
            title: self.title,
            status: TaskStatus::parse(&self.status),
            priority: Some(self.priority),
            role_slug: self.role_slug,
            created_at: Some(self.created_at),
            result: Some(result),
            updated_at: Some(self.updated_at),
            kind: self.kind,
            mode: TaskMode::parse(&self.mode),
            category: self.category,
            parent_task_id: self.parent_task_id,
            creation_source: self.creation_source,
            task_class: Some(TaskClass::parse(&self.task_class)),
            depends_on: serde_json::from_str(&self.depends_on)?,
            workers,
            cost_usd: Some(Usd::from_micros(self.cost_micros).to_decimal_string()),
        })
    }
}

/// Both walk the mission's entries in `tasks_by_mission_mode_status` (migration 0020).
const OPEN_WORK: &str = "SELECT EXISTS (SELECT 1 FROM tasks WHERE mission_id = ? \
     AND team_id = ? AND status NOT IN (SELECT value FROM json_each(?)))";
const RUNS: &str = "SELECT id FROM tasks WHERE mission_id = ? AND team_id = ? AND mode = ?";

/// Whether mission `mission_id` has a task not finished for good
/// ([`buildd_core::TaskStatus::is_terminal`]), without reading its tasks.
pub async fn has_open_work(tx: &mut Tx, team_id: &str, mission_id: &str) -> ApiResult<bool> {
    let (Flag(open),): (Flag,) = sql::query_as(OPEN_WORK)
        .bind(mission_id)
        .bind(team_id)
        .bind(terminal_statuses())
        .fetch_one(tx)
        .await?;
    Ok(open)
}

/// The organizer runs of mission `mission_id` as its detail embeds them, results and all
/// (`store::mission_runs` lists them as `/runs` does).
pub async fn embedded_runs(
    tx: &mut Tx,
    team_id: &str,
    mission_id: &str,
) -> ApiResult<Vec<MissionTask>> {
    let runs: Vec<(String,)> = sql::query_as(RUNS)
        .bind(mission_id)
        .bind(team_id)
        .bind(TaskMode::Planning.as_str())
        .fetch_all(tx)
        .await?;
    if runs.is_empty() {
        return Ok(Vec::new());
    }
    let ids: HashSet<String> = runs.into_iter().map(|(id,)| id).collect();
    let runs = read_tasks(tx, team_id, mission_id, Some(&ids)).await?;
    Ok(runs.into_iter().map(|(_, t)| t).collect())
}

/// The tasks of one mission, newest first, as embedded in its detail, read afresh (any
/// transaction; a read-only one goes through the task memo).
pub async fn mission_tasks(
    tx: &mut Tx,
    team_id: &str,
    mission_id: &str,
) -> ApiResult<Vec<MissionTask>> {
    Ok(read_tasks(tx, team_id, mission_id, None)
        .await?
        .into_iter()
        .map(|(_, task)| task)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Db;

    /// A finished task's questions about its mission read the mission's index entries, not
    /// its tasks' rows one by one nor the whole table.
    #[tokio::test]
    async fn open_work_and_runs_are_read_from_the_mission_index() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.read().await.unwrap();
        for sql in [OPEN_WORK, RUNS] {
            let text = crate::db::query_plan(&mut tx, sql, 3).await;
            assert!(
                text.contains("INDEX tasks_by_mission_mode_status"),
                "{text}"
            );
            assert!(!text.contains("SCAN tasks"), "{text}");
        }
    }

    /// A mission page rebuilt after a few changes reads those tasks by key, whatever the
    /// size of the team's history; the whole mission, through the mission's index.
    #[tokio::test]
    async fn changed_tasks_are_read_by_key_and_a_mission_by_its_index() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.read().await.unwrap();
        let listed = crate::db::query_plan(&mut tx, &read_sql(true), 6).await;
        assert!(
            listed.contains("SEARCH t USING INDEX sqlite_autoindex_tasks_1 (id=?)"),
            "{listed}"
        );
        assert!(!listed.contains("team"), "{listed}");
        let whole = crate::db::query_plan(&mut tx, &read_sql(false), 6).await;
        assert!(whole.contains("INDEX tasks_by_mission"), "{whole}");
    }
}
