//! What follows a task's end: a failure fails every task that depends on it (and theirs),
//! and when the last child of an approved plan finishes, one aggregation task gathers the
//! results.

use super::completion::complete_if_done;
use super::organizer::after_task_finished;
use super::prs::review::review_run_ended;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::mission_tasks::has_open_work;
use crate::store::missions::mission_by_id;
use crate::store::tasks::{
    self, blocked_by_failure_of, existing_task, failed_dependency, find_task, insert_unless_taken,
    set_outcome, task_by_id, unfinished_dependents, ChildTask, NewTask,
};
use crate::store::turns::{hold_mission, hold_task};
use crate::time::{iso, now};
use buildd_core::{MissionStatus, TaskClass, TaskMode, TaskStatus};
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
    // Nothing below changes the finished task itself.
    let task = find_task(tx, team_id, task_id).await?;
    // What follows decides from the mission's other tasks (or, without a mission, the
    // plan's): writes finishing them at once take turns, the mission first.
    match (&task.mission_id, &task.parent_task_id) {
        (Some(mission), _) => hold_mission(tx, mission).await?,
        (None, Some(parent)) => hold_task(tx, parent).await?,
        (None, None) => {}
    }
    let mut parents: BTreeSet<String> = task.parent_task_id.iter().cloned().collect();
    if task.status() == TaskStatus::Failed {
        for id in cascade_failure(tx, team_id, task_id).await? {
            parents.extend(existing_task(tx, &id).await?.parent_task_id);
        }
    }
    for parent in parents {
        maybe_aggregate(tx, &parent).await?;
    }
    review_run_ended(tx, &task).await?;
    if let Some(id) = &task.mission_id {
        // The task itself is finished by now: any open work is another's.
        let open = has_open_work(tx, team_id, id).await?;
        if let Some(mission) = mission_by_id(tx, id).await? {
            complete_if_done(tx, &mission, open).await?;
        }
        after_task_finished(tx, &task, open).await?;
    }
    Ok(())
}

/// Fails every unfinished task that depends on `failed_id`, through the whole chain; returns
/// those it failed.
async fn cascade_failure(tx: &mut Tx, team_id: &str, failed_id: &str) -> ApiResult<Vec<String>> {
    let mut failed = Vec::new();
    let mut queue = vec![failed_id.to_string()];
    while let Some(id) = queue.pop() {
        let title = existing_task(tx, &id).await?.title;
        let dependents = unfinished_dependents(tx, team_id, &id).await?;
        let result = json!({"error": format!("Blocked: dependency \"{title}\" ({id}) failed")});
        for dependent in dependents {
            set_outcome(tx, &dependent, &TaskStatus::Failed, Some(&result), &now()).await?;
            failed.push(dependent.clone());
            queue.push(dependent);
        }
    }
    Ok(failed)
}

/// A failed task queued again takes back with it the dependents its failure blocked, down
/// the whole chain; a dependent that failed for a reason of its own stays failed, and one
/// that another failed dependency still blocks stays failed, naming that one instead.
pub async fn requeue_blocked(tx: &mut Tx, team_id: &str, task_id: &str) -> ApiResult<()> {
    let mut queue = vec![task_id.to_string()];
    while let Some(id) = queue.pop() {
        for dependent in blocked_by_failure_of(tx, team_id, &id).await? {
            let (status, result) = match failed_dependency(tx, &dependent).await? {
                Some((other, title)) => (
                    TaskStatus::Failed,
                    Some(
                        json!({"error": format!("Blocked: dependency \"{title}\" ({other}) failed")}),
                    ),
                ),
                None => (TaskStatus::Pending, None),
            };
            set_outcome(tx, &dependent, &status, result.as_ref(), &now()).await?;
            if status == TaskStatus::Pending {
                queue.push(dependent);
            }
        }
    }
    Ok(())
}

/// Opens the aggregation task of planning task `parent_id` once all its children have
/// finished, at most one at a time (a partial unique index backs this up).
async fn maybe_aggregate(tx: &mut Tx, parent_id: &str) -> ApiResult<()> {
    let Some(parent) = task_by_id(tx, parent_id).await? else {
        return Ok(());
    };
    let mission_done = match &parent.mission_id {
        Some(m) => mission_by_id(tx, m)
            .await?
            .is_some_and(|m| m.status() == MissionStatus::Completed),
        None => false,
    };
    if parent.mode != TaskMode::Planning || mission_done {
        return Ok(());
    }
    let children = tasks::children(tx, parent_id).await?;
    let (aggregators, work): (Vec<&ChildTask>, Vec<&ChildTask>) =
        children.iter().partition(|c| c.is_aggregator());
    if !work.iter().all(|c| c.status().is_terminal()) {
        return Ok(());
    }
    let stale_before = iso(Utc::now() - Duration::hours(STALE_AGGREGATOR_HOURS));
    let mut live = 0;
    for a in &aggregators {
        if a.status() == TaskStatus::Pending && a.created_at < stale_before {
            tasks::cancel(tx, &a.id, &now()).await?;
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
    let aggregation = NewTask {
        mission_id: parent.mission_id.clone(),
        parent_task_id: Some(parent_id.to_string()),
        description: Some(AGGREGATE_DESCRIPTION.into()),
        context: json!({"aggregation": true, "parentTaskId": parent_id, "childTasks": child_tasks}),
        task_class: TaskClass::Bookkeeping,
        creation_source: Some("api".into()),
        output_requirement: "artifact_required".into(),
        ..NewTask::new(
            &parent.team_id,
            &parent.workspace_id,
            format!("Aggregate results: {}", parent.title),
        )
    };
    insert_unless_taken(tx, &aggregation).await?;
    Ok(())
}
