//! What follows a task's end: a failure fails every task that depends on it (and theirs),
//! and when the last child of an approved plan finishes, one aggregation task gathers the
//! results.

use super::completion::maybe_complete;
use super::organizer::after_task_finished;
use super::prs::review::review_run_ended;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::tasks::find_task;
use crate::time::{iso, new_id, now};
use buildd_core::{MissionStatus, TaskMode, TaskStatus};
use chrono::{Duration, Utc};
use serde_json::{json, Value};
use std::collections::BTreeSet;

const AGGREGATE_DESCRIPTION: &str =
    "Synthesize the results from all completed sub-tasks into a final deliverable.";

/// An aggregator still pending after this long is replaced by a fresh one.
const STALE_AGGREGATOR_HOURS: i64 = 1;

/// Runs the consequences of task `task_id` reaching a terminal status, in the caller's
/// transaction.
pub async fn task_finished(tx: &mut Tx, team_id: &str, task_id: &str) -> ApiResult<()> {
    let mut finished = vec![task_id.to_string()];
    let (status,): (String,) = sqlx::query_as("SELECT status FROM tasks WHERE id = ?")
        .bind(task_id)
        .fetch_one(&mut **tx)
        .await?;
    if TaskStatus::parse(&status) == TaskStatus::Failed {
        cascade_failure(tx, team_id, task_id, &mut finished).await?;
    }
    let parents: BTreeSet<String> = {
        let mut parents = BTreeSet::new();
        for id in &finished {
            let (parent,): (Option<String>,) =
                sqlx::query_as("SELECT parent_task_id FROM tasks WHERE id = ?")
                    .bind(id)
                    .fetch_one(&mut **tx)
                    .await?;
            parents.extend(parent);
        }
        parents
    };
    for parent in parents {
        maybe_aggregate(tx, &parent).await?;
    }
    let task = find_task(tx, team_id, task_id).await?;
    review_run_ended(tx, &task).await?;
    if let Some(mission) = &task.mission_id {
        maybe_complete(tx, mission).await?;
    }
    after_task_finished(tx, &task).await?;
    Ok(())
}

/// Fails every unfinished task that depends on `failed_id`, through the whole chain.
async fn cascade_failure(
    tx: &mut Tx,
    team_id: &str,
    failed_id: &str,
    finished: &mut Vec<String>,
) -> ApiResult<()> {
    let mut queue = vec![failed_id.to_string()];
    while let Some(id) = queue.pop() {
        let (title,): (String,) = sqlx::query_as("SELECT title FROM tasks WHERE id = ?")
            .bind(&id)
            .fetch_one(&mut **tx)
            .await?;
        let dependents: Vec<(String,)> = sqlx::query_as(
            "SELECT t.id FROM tasks t WHERE t.team_id = ? \
             AND t.status NOT IN ('completed', 'failed', 'cancelled') \
             AND EXISTS (SELECT 1 FROM json_each(t.depends_on) d WHERE d.value = ?)",
        )
        .bind(team_id)
        .bind(&id)
        .fetch_all(&mut **tx)
        .await?;
        let result = json!({"error": format!("Blocked: dependency \"{title}\" ({id}) failed")});
        for (dependent,) in dependents {
            sqlx::query(
                "UPDATE tasks SET status = 'failed', result = ?, updated_at = ? WHERE id = ?",
            )
            .bind(result.to_string())
            .bind(now())
            .bind(&dependent)
            .execute(&mut **tx)
            .await?;
            finished.push(dependent.clone());
            queue.push(dependent);
        }
    }
    Ok(())
}

/// A failed task queued again takes back with it the dependents its failure blocked, down
/// the whole chain; a dependent that failed for a reason of its own stays failed, and one
/// that another failed dependency still blocks stays failed, naming that one instead.
pub async fn requeue_blocked(tx: &mut Tx, team_id: &str, task_id: &str) -> ApiResult<()> {
    let mut queue = vec![task_id.to_string()];
    while let Some(id) = queue.pop() {
        let blocked: Vec<(String,)> = sqlx::query_as(
            "SELECT t.id FROM tasks t WHERE t.team_id = ? AND t.status = 'failed' \
             AND EXISTS (SELECT 1 FROM json_each(t.depends_on) d WHERE d.value = ?2) \
             AND json_extract(t.result, '$.error') LIKE 'Blocked: dependency %' \
             AND json_extract(t.result, '$.error') LIKE '%(' || ?2 || ') failed'",
        )
        .bind(team_id)
        .bind(&id)
        .fetch_all(&mut **tx)
        .await?;
        for (dependent,) in blocked {
            let still: Option<(String, String)> = sqlx::query_as(
                "SELECT o.id, o.title FROM tasks t, json_each(t.depends_on) d \
                 JOIN tasks o ON o.id = d.value \
                 WHERE t.id = ? AND o.status = 'failed' LIMIT 1",
            )
            .bind(&dependent)
            .fetch_optional(&mut **tx)
            .await?;
            let (status, result) = match still {
                Some((other, title)) => (
                    TaskStatus::Failed,
                    Some(
                        json!({"error": format!("Blocked: dependency \"{title}\" ({other}) failed")})
                            .to_string(),
                    ),
                ),
                None => (TaskStatus::Pending, None),
            };
            sqlx::query("UPDATE tasks SET status = ?, result = ?, updated_at = ? WHERE id = ?")
                .bind(status.as_str())
                .bind(result)
                .bind(now())
                .bind(&dependent)
                .execute(&mut **tx)
                .await?;
            if status == TaskStatus::Pending {
                queue.push(dependent);
            }
        }
    }
    Ok(())
}

#[derive(sqlx::FromRow)]
struct Parent {
    title: String,
    mode: String,
    team_id: String,
    workspace_id: String,
    mission_id: Option<String>,
    mission_status: Option<String>,
}

#[derive(sqlx::FromRow)]
struct Child {
    id: String,
    title: String,
    status: String,
    result: Option<String>,
    context: String,
    created_at: String,
}

impl Child {
    fn is_aggregator(&self) -> bool {
        serde_json::from_str::<Value>(&self.context)
            .ok()
            .and_then(|c| c.get("aggregation").and_then(Value::as_bool))
            .unwrap_or(false)
    }

    fn status(&self) -> TaskStatus {
        TaskStatus::parse(&self.status)
    }
}

/// Opens the aggregation task of planning task `parent_id` once all its children have
/// finished, at most one at a time (a partial unique index backs this up).
async fn maybe_aggregate(tx: &mut Tx, parent_id: &str) -> ApiResult<()> {
    let parent: Option<Parent> = sqlx::query_as(
        "SELECT t.title, t.mode, t.team_id, t.workspace_id, t.mission_id, \
         m.status AS mission_status \
         FROM tasks t LEFT JOIN missions m ON m.id = t.mission_id WHERE t.id = ?",
    )
    .bind(parent_id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(Parent {
        title,
        mode,
        team_id,
        workspace_id,
        mission_id,
        mission_status,
    }) = parent
    else {
        return Ok(());
    };
    let mission_done =
        mission_status.as_deref().map(MissionStatus::parse) == Some(MissionStatus::Completed);
    if TaskMode::parse(&mode) != TaskMode::Planning || mission_done {
        return Ok(());
    }
    let children: Vec<Child> = sqlx::query_as(
        "SELECT id, title, status, result, context, created_at FROM tasks \
         WHERE parent_task_id = ? ORDER BY created_at, id",
    )
    .bind(parent_id)
    .fetch_all(&mut **tx)
    .await?;
    let (aggregators, work): (Vec<&Child>, Vec<&Child>) =
        children.iter().partition(|c| c.is_aggregator());
    if !work.iter().all(|c| c.status().is_terminal()) {
        return Ok(());
    }
    let stale_before = iso(Utc::now() - Duration::hours(STALE_AGGREGATOR_HOURS));
    let mut live = 0;
    for a in &aggregators {
        if a.status() == TaskStatus::Pending && a.created_at < stale_before {
            sqlx::query("UPDATE tasks SET status = 'cancelled', updated_at = ? WHERE id = ?")
                .bind(now())
                .bind(&a.id)
                .execute(&mut **tx)
                .await?;
        } else if a.status() != TaskStatus::Cancelled {
            live += 1;
        }
    }
    if live > 0 || work.len() <= 1 || !work.iter().any(|c| c.status() == TaskStatus::Completed) {
        return Ok(());
    }
    let child_tasks: Vec<Value> = work
        .iter()
        .map(|c| {
            json!({
                "taskId": c.id,
                "title": c.title,
                "status": c.status,
                "result": c.result.as_deref().and_then(|r| serde_json::from_str::<Value>(r).ok()),
            })
        })
        .collect();
    let context =
        json!({"aggregation": true, "parentTaskId": parent_id, "childTasks": child_tasks});
    let at = now();
    sqlx::query(
        "INSERT INTO tasks (id, team_id, workspace_id, mission_id, parent_task_id, title, \
         description, context, mode, task_class, status, creation_source, output_requirement, \
         created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'execution', 'bookkeeping', 'pending', 'api', \
         'artifact_required', ?, ?) ON CONFLICT DO NOTHING",
    )
    .bind(new_id())
    .bind(&team_id)
    .bind(&workspace_id)
    .bind(&mission_id)
    .bind(parent_id)
    .bind(format!("Aggregate results: {title}"))
    .bind(AGGREGATE_DESCRIPTION)
    .bind(context.to_string())
    .bind(&at)
    .bind(&at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
