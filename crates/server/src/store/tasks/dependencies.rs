//! Tasks' `dependsOn` as stored (a JSON array of task ids): the graph a change must not
//! close a cycle in, and the dependents a failure reaches (what a dependency lets through is
//! the claim queue's: `store::claim_queue`).

use super::status::terminal_statuses;
use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use buildd_core::TaskStatus;
use std::collections::{HashMap, HashSet};

/// Looks `ids` up by primary key. (Left to choose, SQLite walks the team's index of tasks
/// and reads every row of it: a team's every task for each task filed.)
const KNOWN_IN_WORKSPACE: &str = "SELECT t.id FROM json_each(?1) d CROSS JOIN tasks t \
     ON t.id = d.value WHERE t.team_id = ?2 AND t.workspace_id = ?3";

/// Which of `ids` are tasks of the team in `workspace_id`.
pub async fn known_in_workspace(
    tx: &mut Tx,
    team_id: &str,
    workspace_id: &str,
    ids: &[String],
) -> ApiResult<HashSet<String>> {
    if ids.is_empty() {
        return Ok(HashSet::new());
    }
    let known: Vec<(String,)> = sql::query_as(KNOWN_IN_WORKSPACE)
        .bind(serde_json::to_string(ids)?)
        .bind(team_id)
        .bind(workspace_id)
        .fetch_all(tx)
        .await?;
    Ok(known.into_iter().map(|(id,)| id).collect())
}

/// What `deps` depend on, and so on down: each task reached, with what it depends on
/// (ids of other teams' tasks are never followed). What a cycle check walks.
const REACHABLE: &str = "WITH RECURSIVE reached(id) AS ( \
       SELECT value FROM json_each(?1) \
       UNION SELECT d.depends_on FROM reached r \
         CROSS JOIN tasks t ON t.id = r.id AND t.team_id = ?2 \
         CROSS JOIN task_dependencies d ON d.task_id = t.id) \
     SELECT t.id, t.depends_on FROM reached r \
       CROSS JOIN tasks t ON t.id = r.id AND t.team_id = ?2 WHERE t.depends_on != '[]'";

/// The part of the team's dependency graph reachable from `deps`: each task with
/// dependencies, and what it depends on.
pub async fn dependency_graph_from(
    tx: &mut Tx,
    team_id: &str,
    deps: &[String],
) -> ApiResult<HashMap<String, Vec<String>>> {
    let edges: Vec<(String, String)> = sql::query_as(REACHABLE)
        .bind(serde_json::to_string(deps)?)
        .bind(team_id)
        .fetch_all(tx)
        .await?;
    Ok(edges
        .into_iter()
        .map(|(id, d)| (id, serde_json::from_str(&d).unwrap_or_default()))
        .collect())
}

/// The team's tasks that depend on `?2`, oldest first, by the dependency index; the caller
/// adds which, by their status `?3`.
const DEPENDENTS: &str = "SELECT t.id FROM task_dependencies d \
     CROSS JOIN tasks t ON t.id = d.task_id AND t.team_id = ?1 WHERE d.depends_on = ?2";
const UNFINISHED_DEPENDENTS: &str = "AND t.status NOT IN (SELECT value FROM json_each(?3))";
const BLOCKED_DEPENDENTS: &str = "AND t.status = ?3 \
     AND json_extract(t.result, '$.error') LIKE 'Blocked: dependency %' \
     AND json_extract(t.result, '$.error') LIKE '%(' || ?2 || ') failed'";

async fn dependents(
    tx: &mut Tx,
    team_id: &str,
    id: &str,
    which: &str,
    status: String,
) -> ApiResult<Vec<String>> {
    let rows: Vec<(String,)> = sql::query_as(&format!(
        "{DEPENDENTS} {which} ORDER BY t.created_at, t.rowid"
    ))
    .bind(team_id)
    .bind(id)
    .bind(status)
    .fetch_all(tx)
    .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// The team's unfinished tasks that depend on `id`.
pub async fn unfinished_dependents(tx: &mut Tx, team_id: &str, id: &str) -> ApiResult<Vec<String>> {
    dependents(tx, team_id, id, UNFINISHED_DEPENDENTS, terminal_statuses()).await
}

/// The team's tasks that failed only because dependency `id` failed (their result says so).
pub async fn blocked_by_failure_of(tx: &mut Tx, team_id: &str, id: &str) -> ApiResult<Vec<String>> {
    let failed = TaskStatus::Failed.as_str().to_string();
    dependents(tx, team_id, id, BLOCKED_DEPENDENTS, failed).await
}

/// A dependency of task `id` that has failed, with its title, if any.
pub async fn failed_dependency(tx: &mut Tx, id: &str) -> ApiResult<Option<(String, String)>> {
    Ok(sql::query_as(
        "SELECT o.id, o.title FROM tasks t, json_each(t.depends_on) d \
         JOIN tasks o ON o.id = d.value \
         WHERE t.id = ? AND o.status = 'failed' LIMIT 1",
    )
    .bind(id)
    .fetch_optional(tx)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{query_plan, Db};

    /// Filing a task looks its dependencies up one by one, whatever the team holds.
    #[tokio::test]
    async fn dependencies_are_looked_up_by_id() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.read().await.unwrap();
        let plan = query_plan(&mut tx, KNOWN_IN_WORKSPACE, 3).await;
        assert!(
            plan.contains("SEARCH t USING INDEX sqlite_autoindex_tasks_1 (id=?)"),
            "{plan}"
        );
        assert!(!plan.contains("tasks_by_team"), "{plan}");
    }

    /// A failure's dependents and a cycle check are found through the dependency index and
    /// primary keys: no step reads the team's tasks.
    #[tokio::test]
    async fn dependents_and_cycles_are_walked_by_index() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.read().await.unwrap();
        for which in [UNFINISHED_DEPENDENTS, BLOCKED_DEPENDENTS] {
            let sql = format!("{DEPENDENTS} {which}");
            let plan = query_plan(&mut tx, &sql, 3).await;
            assert!(
                plan.contains(
                    "USING COVERING INDEX task_dependencies_by_dependency (depends_on=?)"
                ),
                "{plan}"
            );
            assert!(!plan.contains("SCAN t"), "{plan}");
            assert!(!plan.contains("tasks_by_team"), "{plan}");
        }
        let plan = query_plan(&mut tx, REACHABLE, 2).await;
        assert!(
            plan.contains("SEARCH d USING PRIMARY KEY (task_id=?)"),
            "{plan}"
        );
        assert!(!plan.contains("SCAN t"), "{plan}");
        assert!(!plan.contains("SCAN d"), "{plan}");
        assert!(!plan.contains("tasks_by_team"), "{plan}");
    }
}
