//! Running work: stop a task, start one now, delete one, answer an agent that waits, and
//! the team's agents waiting on a person.

use super::{body_of, encode, fetch_text, get, post, update_mission, update_task, ApiError};
use crate::api::Connection;
use buildd_core::requests::missions::MissionPatch;
use buildd_core::requests::tasks::{stop_refused, StartTask, TaskPatch};
use buildd_core::requests::workers::Respond;
use buildd_core::waiting::{Responded, WaitingTasks};

/// Stops a running or queued task: Buildd's `PATCH /api/tasks/{id} {status: cancelled}`,
/// with the reason when one is given (this server keeps it with who stopped it). The task
/// is read first: Buildd cancels a finished task too, overwriting how it ended.
pub async fn stop_task(conn: &Connection, id: &str, reason: Option<&str>) -> Result<(), ApiError> {
    if let Some(refused) = stop_refused(&super::task(conn, id).await?.status) {
        return Err(ApiError::Status(409, refused));
    }
    update_task(conn, id, &TaskPatch::stop(reason)).await
}

/// `POST /api/tasks/{id}/start`: runs a pending task now, past its start time when `force`.
pub async fn start_task(conn: &Connection, id: &str, force: bool) -> Result<(), ApiError> {
    let request = StartTask {
        force_override: force.then_some(true),
    };
    let path = format!("/api/tasks/{}/start", encode(id));
    fetch_text(conn, "POST", &path, Some(body_of(&request)?))
        .await
        .map(drop)
}

/// `DELETE /api/tasks/{id}`.
pub async fn delete_task(conn: &Connection, id: &str) -> Result<(), ApiError> {
    let path = format!("/api/tasks/{}", encode(id));
    fetch_text(conn, "DELETE", &path, None).await.map(drop)
}

/// Arms a held mission: `PATCH /api/missions/{id} {arm: true}`, as Buildd takes it.
pub async fn arm_mission(conn: &Connection, id: &str) -> Result<(), ApiError> {
    let change = MissionPatch {
        arm: Some(true),
        ..MissionPatch::default()
    };
    update_mission(conn, id, &change).await
}

/// `POST /api/workers/{id}/respond {message}`: answers an agent waiting on a question.
pub async fn respond(
    conn: &Connection,
    worker_id: &str,
    message: &str,
) -> Result<Responded, ApiError> {
    let path = format!("/api/workers/{}/respond", encode(worker_id));
    post(conn, &path, Some(body_of(&Respond::new(message))?)).await
}

/// `GET /api/tasks/waiting-input`: the team's agents waiting on a person.
pub async fn waiting_agents(conn: &Connection) -> Result<WaitingTasks, ApiError> {
    get(conn, "/api/tasks/waiting-input").await
}

/// `GET /api/tasks?status=active`: the team's unfinished tasks, newest first (Buildd caps the
/// list at 200, and counts a cancelled task as active too).
pub async fn active_tasks(conn: &Connection) -> Result<buildd_core::TaskList, ApiError> {
    get(conn, "/api/tasks?status=active").await
}
