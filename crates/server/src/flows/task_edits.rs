//! Tasks written through the API, in the caller's transaction: a task filed, or edited by a
//! person — checked, written, and followed through. An end runs what follows a task's end, a
//! failed task queued again takes back the dependents its failure blocked, a return to the
//! queue drops the runner that held it, and new work reopens a completed mission.

use super::outcomes::{requeue_blocked, task_finished};
use super::task_checks::{check_dependencies, check_no_cycle, reopen_mission};
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::store::missions::find_mission;
use crate::store::notes::system_note;
use crate::store::tasks::{self, find_task, NewTask, Stop, TaskPatch, TaskRow};
use crate::store::workers::{fail_unfinished, live_count};
use crate::time::now;
use buildd_core::requests::tasks::stop_refused;
use buildd_core::{NoteKind, TaskStatus};

/// Writes `task` once its dependencies are known tasks of its workspace.
pub async fn file(tx: &mut Tx, task: &NewTask) -> ApiResult<()> {
    check_dependencies(
        tx,
        &task.team_id,
        &task.workspace_id,
        &task.id,
        &task.depends_on,
    )
    .await?;
    tasks::insert(tx, task).await?;
    if let Some(m) = &task.mission_id {
        reopen_mission(tx, m, &task.created_at).await?;
    }
    Ok(())
}

/// Applies `patch` to task `row`; returns the task as it is then.
pub async fn edit(tx: &mut Tx, row: &TaskRow, patch: &TaskPatch) -> ApiResult<TaskRow> {
    check(tx, row, patch).await?;
    let at = now();
    tasks::update(tx, &row.id, patch, &at).await?;
    let (before, to) = (row.status(), patch.status.as_ref());
    if to.is_some_and(TaskStatus::is_terminal) && !before.is_terminal() {
        task_finished(tx, &row.team_id, &row.id).await?;
    }
    if to == Some(&TaskStatus::Pending) && before == TaskStatus::Failed {
        requeue_blocked(tx, &row.team_id, &row.id).await?;
    }
    // Back in the queue: a runner still on it has lost it, and its reports are refused.
    if patch.requeues() {
        fail_unfinished(tx, &row.id, "Returned to the queue by a person", &at).await?;
    }
    // Stopped: its agent's seat is free at once, and its next report tells it to stop.
    if let Some(stop) = &patch.stop {
        fail_unfinished(tx, &row.id, &stopped_words(stop), &at).await?;
        if let Some(m) = &row.mission_id {
            let title = format!("Stopped: {}", row.title);
            let body = Some(stopped_words(stop));
            system_note(
                tx,
                &row.team_id,
                m,
                Some(&row.id),
                NoteKind::Update,
                &title,
                body,
            )
            .await?;
        }
    }
    let updated = find_task(tx, &row.team_id, &row.id).await?;
    if let Some(m) = &updated.mission_id {
        let reopens =
            to.is_some_and(|s| !s.is_terminal()) || matches!(patch.mission_id, Some(Some(_)));
        if reopens {
            reopen_mission(tx, m, &at).await?;
        }
    }
    Ok(updated)
}

/// A stop in words, as the feed and the stopped worker's error say it.
fn stopped_words(stop: &Stop) -> String {
    match &stop.reason {
        Some(reason) => format!("Stopped by {}: {reason}", stop.by),
        None => format!("Stopped by {}", stop.by),
    }
}

/// Refuses an edit naming a mission of no such id, dependencies that are not tasks of the
/// task's workspace or that close a cycle, or an end to a task an agent is working on.
async fn check(tx: &mut Tx, row: &TaskRow, patch: &TaskPatch) -> ApiResult<()> {
    if let Some(Some(m)) = &patch.mission_id {
        find_mission(tx, &row.team_id, m).await?;
    }
    if let Some(deps) = &patch.depends_on {
        check_dependencies(tx, &row.team_id, &row.workspace_id, &row.id, deps).await?;
        check_no_cycle(tx, &row.team_id, &row.id, deps).await?;
    }
    if let Some(refused) = patch
        .stop
        .as_ref()
        .and_then(|_| stop_refused(&row.status()))
    {
        return Err(ApiError::Conflict(refused));
    }
    let ends = matches!(
        patch.status,
        Some(TaskStatus::Completed | TaskStatus::Failed)
    );
    if ends && live_count(tx, &row.id).await? > 0 {
        return Err(ApiError::Conflict(
            "Cannot change status directly — task has an active worker. \
             Use complete_task via the worker instead."
                .into(),
        ));
    }
    Ok(())
}
