//! Activity (`GET /api/activity`): the team's tasks, newest change first, with their latest
//! run and their retries nested under them. A page walks the `tasks_recent` index from the
//! cursor on, so its cost does not grow with the team's history.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use buildd_core::activity::{cursor_after, ActivityQuery, ActivityTask};
use buildd_core::money::Usd;
use buildd_core::{TaskClass, TaskMode, TaskStatus, TaskStop, WorkerStatus};
use std::collections::HashMap;

/// The columns of a listed task, its mission's title and its latest run.
const COLUMNS: &str = "t.rowid AS row, t.id, t.title, t.status, t.mode, t.task_class, \
    t.workspace_id, t.mission_id, m.title AS mission_title, t.parent_task_id, t.priority, \
    t.created_at, t.updated_at, t.start_at, lw.status AS worker_status, lw.current_action, \
    lw.waiting_for IS NOT NULL AS waiting, t.cost_micros, lw.pr_number, t.stopped_by, \
    t.stopped_at, t.stop_reason";

const FROM: &str = "tasks t INDEXED BY tasks_recent \
    LEFT JOIN workers lw ON lw.id = t.latest_worker_id \
    LEFT JOIN missions m ON m.id = t.mission_id";

/// Every filter of a query; `?1` is the team. Retries are listed under their task.
const FILTER: &str = "t.team_id = ?1 AND t.task_class != 'attempt' \
    AND (?2 IS NULL OR t.status IN (SELECT value FROM json_each(?2))) \
    AND (?3 IS NULL OR (?3 = 'none' AND t.mission_id IS NULL) OR t.mission_id = ?3) \
    AND (?4 IS NULL OR t.workspace_id = ?4) AND (?5 IS NULL OR t.mode = ?5) \
    AND (?6 IS NULL OR t.id = ?6 OR instr(lower(t.title), lower(?6)) > 0) \
    AND (?7 IS NULL OR t.updated_at >= ?7) AND (?8 IS NULL OR t.updated_at < ?8)";

/// The statement of a page: the filter, from the cursor on (`?9`, `?10`), newest first.
pub fn page_sql() -> String {
    format!(
        "SELECT {COLUMNS} FROM {FROM} WHERE {FILTER} \
         AND (?9 IS NULL OR (t.updated_at, t.rowid) < (?9, ?10)) \
         ORDER BY t.updated_at DESC, t.rowid DESC LIMIT ?11"
    )
}

#[derive(sqlx::FromRow)]
struct Row {
    row: i64,
    id: String,
    title: String,
    status: String,
    mode: String,
    task_class: String,
    workspace_id: String,
    mission_id: Option<String>,
    mission_title: Option<String>,
    parent_task_id: Option<String>,
    priority: i64,
    created_at: String,
    updated_at: String,
    start_at: Option<String>,
    worker_status: Option<String>,
    current_action: Option<String>,
    waiting: Option<bool>,
    cost_micros: i64,
    pr_number: Option<i64>,
    stopped_by: Option<String>,
    stopped_at: Option<String>,
    stop_reason: Option<String>,
}

fn task_of(r: Row) -> (i64, ActivityTask) {
    let stopped = r.stopped_by.map(|by| TaskStop {
        by,
        at: r.stopped_at,
        reason: r.stop_reason,
    });
    let task = ActivityTask {
        id: r.id,
        title: r.title,
        status: TaskStatus::parse(&r.status),
        mode: TaskMode::parse(&r.mode),
        task_class: Some(TaskClass::parse(&r.task_class)),
        workspace_id: r.workspace_id,
        mission_id: r.mission_id,
        mission_title: r.mission_title,
        parent_task_id: r.parent_task_id,
        priority: r.priority,
        created_at: Some(r.created_at),
        updated_at: Some(r.updated_at),
        start_at: r.start_at,
        worker_status: r.worker_status.as_deref().map(WorkerStatus::parse),
        current_action: r.current_action,
        waiting: r.waiting.unwrap_or(false),
        cost_usd: Some(Usd::from_micros(r.cost_micros).to_decimal_string()),
        pr_number: r.pr_number,
        stopped,
        attempts: Vec::new(),
    };
    (r.row, task)
}

/// The filters of `query` as the statements bind them, `?2` to `?8`.
struct Bound {
    statuses: Option<String>,
    since: Option<String>,
    until: Option<String>,
}

fn bound(query: &ActivityQuery) -> ApiResult<Bound> {
    let statuses = query
        .statuses()?
        .map(|s| s.iter().map(|s| s.as_str().to_string()).collect::<Vec<_>>());
    Ok(Bound {
        statuses: statuses.as_ref().map(serde_json::to_string).transpose()?,
        since: query.changed_since()?,
        until: query.changed_before()?,
    })
}

/// A page of the team's tasks under `query`, and the cursor of the next.
pub async fn page(
    tx: &mut Tx,
    team_id: &str,
    query: &ActivityQuery,
) -> ApiResult<(Vec<ActivityTask>, Option<String>)> {
    let b = bound(query)?;
    let after = query.after()?;
    let limit = query.limit();
    let rows: Vec<Row> = sql::query_as(&page_sql())
        .bind(team_id)
        .bind(&b.statuses)
        .bind(&query.mission_id)
        .bind(&query.workspace_id)
        .bind(query.mode.as_ref().map(TaskMode::as_str))
        .bind(query.search())
        .bind(&b.since)
        .bind(&b.until)
        .bind(after.as_ref().map(|(at, _)| at.as_str()))
        .bind(after.as_ref().map(|(_, row)| *row))
        .bind(limit + 1)
        .fetch_all(tx)
        .await?;
    let mut tasks: Vec<(i64, ActivityTask)> = rows.into_iter().map(task_of).collect();
    let more = tasks.len() as i64 > limit;
    tasks.truncate(limit as usize);
    let next = more
        .then(|| tasks.last())
        .flatten()
        .map(|(row, t)| cursor_after(t.updated_at.as_deref().unwrap_or(""), *row));
    let mut tasks: Vec<ActivityTask> = tasks.into_iter().map(|(_, t)| t).collect();
    nest_attempts(tx, &mut tasks).await?;
    Ok((tasks, next))
}

/// How many of the team's tasks pass `query`'s filters.
pub async fn total(tx: &mut Tx, team_id: &str, query: &ActivityQuery) -> ApiResult<i64> {
    let b = bound(query)?;
    let (n,): (i64,) = sql::query_as(&format!("SELECT COUNT(*) FROM tasks t WHERE {FILTER}"))
        .bind(team_id)
        .bind(&b.statuses)
        .bind(&query.mission_id)
        .bind(&query.workspace_id)
        .bind(query.mode.as_ref().map(TaskMode::as_str))
        .bind(query.search())
        .bind(&b.since)
        .bind(&b.until)
        .fetch_one(tx)
        .await?;
    Ok(n)
}

/// Puts each listed task's retries under it, oldest first, found by their parent.
async fn nest_attempts(tx: &mut Tx, tasks: &mut [ActivityTask]) -> ApiResult<()> {
    if tasks.is_empty() {
        return Ok(());
    }
    let ids: Vec<&str> = tasks.iter().map(|t| t.id.as_str()).collect();
    let rows: Vec<Row> = sql::query_as(&format!(
        "SELECT {COLUMNS} FROM json_each(?1) p CROSS JOIN tasks t ON t.parent_task_id = p.value \
         LEFT JOIN workers lw ON lw.id = t.latest_worker_id \
         LEFT JOIN missions m ON m.id = t.mission_id \
         WHERE t.task_class = 'attempt' ORDER BY t.created_at, t.rowid"
    ))
    .bind(serde_json::to_string(&ids)?)
    .fetch_all(tx)
    .await?;
    let mut by_parent: HashMap<String, Vec<ActivityTask>> = HashMap::new();
    for (_, attempt) in rows.into_iter().map(task_of) {
        if let Some(parent) = attempt.parent_task_id.clone() {
            by_parent.entry(parent).or_default().push(attempt);
        }
    }
    for task in tasks.iter_mut() {
        task.attempts = by_parent.remove(&task.id).unwrap_or_default();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{query_plan, Db};

    /// A page walks the team's recent-changes index in order: no sort, no scan of the table.
    #[tokio::test]
    async fn a_page_reads_the_recent_changes_index_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.read().await.unwrap();
        let plan = query_plan(&mut tx, &page_sql(), 11).await;
        assert!(
            plan.contains("USING INDEX tasks_recent (team_id=?)"),
            "{plan}"
        );
        assert!(!plan.contains("TEMP B-TREE"), "{plan}");
        assert!(
            !plan.contains("SCAN t\n") && !plan.ends_with("SCAN t"),
            "{plan}"
        );
    }
}
