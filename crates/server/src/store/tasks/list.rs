//! The team's task list (`GET /api/tasks`): the newest tasks, or a page in queue order with
//! its counts, under one filter.

use super::row::{TaskRow, TASK_COLUMNS, TASK_FROM};
use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;

/// Which tasks a list shows; the same filter selects the rows and counts them.
pub struct TaskFilter<'a> {
    pub team_id: &'a str,
    pub mission_id: Option<&'a str>,
    pub workspace_id: Option<&'a str>,
    /// Any of these statuses, when given.
    pub statuses: Option<&'a [String]>,
}

const FILTER: &str = "t.team_id = ?1 AND (?2 IS NULL OR t.mission_id = ?2) \
    AND (?3 IS NULL OR t.workspace_id = ?3) \
    AND (?4 IS NULL OR t.status IN (SELECT value FROM json_each(?4)))";

impl TaskFilter<'_> {
    fn statuses_json(&self) -> ApiResult<Option<String>> {
        Ok(self.statuses.map(serde_json::to_string).transpose()?)
    }
}

/// The newest 200 tasks matching `f`.
pub async fn newest(tx: &mut Tx, f: &TaskFilter<'_>) -> ApiResult<Vec<TaskRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {TASK_COLUMNS} FROM {TASK_FROM} WHERE {FILTER} \
         ORDER BY t.created_at DESC, t.rowid DESC LIMIT 200"
    ))
    .bind(f.team_id)
    .bind(f.mission_id)
    .bind(f.workspace_id)
    .bind(f.statuses_json()?)
    .fetch_all(tx)
    .await?)
}

/// A page of the tasks matching `f`: waiting work first, then by priority, newest first.
pub async fn page(
    tx: &mut Tx,
    f: &TaskFilter<'_>,
    limit: i64,
    offset: i64,
) -> ApiResult<Vec<TaskRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {TASK_COLUMNS} FROM {TASK_FROM} WHERE {FILTER} \
         ORDER BY CASE t.status WHEN 'pending' THEN 0 WHEN 'assigned' THEN 1 \
           WHEN 'in_progress' THEN 2 ELSE 3 END, t.priority DESC, t.created_at DESC, t.rowid DESC \
         LIMIT ?5 OFFSET ?6"
    ))
    .bind(f.team_id)
    .bind(f.mission_id)
    .bind(f.workspace_id)
    .bind(f.statuses_json()?)
    .bind(limit)
    .bind(offset)
    .fetch_all(tx)
    .await?)
}

/// How many tasks match `f`, and how many of them are pending.
pub async fn counts(tx: &mut Tx, f: &TaskFilter<'_>) -> ApiResult<(i64, i64)> {
    Ok(sql::query_as(&format!(
        "SELECT COUNT(*), COUNT(*) FILTER (WHERE t.status = 'pending') FROM tasks t WHERE {FILTER}"
    ))
    .bind(f.team_id)
    .bind(f.mission_id)
    .bind(f.workspace_id)
    .bind(f.statuses_json()?)
    .fetch_one(tx)
    .await?)
}
