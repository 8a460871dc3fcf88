//! Steering a running agent: `POST /api/workers/{id}/instruct` queues a message that the
//! worker receives on its next update; `GET /api/tasks/{id}/messages` reads the history.

use super::caller::Caller;
use super::state::AppState;
use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use crate::store::tasks::find_task;
use crate::store::workers::{append_instruction, find_worker, newest_of_task};
use crate::time::now;
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::{Instructed, TaskMessages};

/// Longest message a person can send an agent.
const MESSAGE_LIMIT: usize = 4000;

pub async fn instruct(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: JsonObject,
) -> ApiResult<Json<Instructed>> {
    caller.require_admin()?;
    let message = body.required_string("message", "Message is required")?;
    if message.chars().count() > MESSAGE_LIMIT {
        return Err(ApiError::bad(format!(
            "message must be at most {MESSAGE_LIMIT} characters"
        )));
    }
    match body.string("priority")? {
        Field::Absent | Field::Null => {}
        Field::Set(p) if p == "urgent" || p == "normal" => {}
        Field::Set(_) => return Err(ApiError::bad("priority must be \"urgent\" or \"normal\"")),
    }
    let mut tx = state.db.write().await?;
    let worker = find_worker(&mut tx, &caller.team_id, &id).await?;
    if worker.is_finished() {
        return Err(ApiError::bad("Cannot instruct completed or failed workers"));
    }
    append_instruction(&mut tx, &worker, message, &now()).await?;
    tx.commit().await?;
    Ok(Json(Instructed {
        ok: true,
        message: "Instructions queued; the agent receives them with its next update".into(),
        worker_id: id,
    }))
}

pub async fn messages(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<TaskMessages>> {
    let mut tx = state.db.read().await?;
    find_task(&mut tx, &caller.team_id, &id).await?;
    let newest = newest_of_task(&mut tx, &id).await?;
    Ok(Json(TaskMessages {
        task_id: id,
        worker_id: newest.as_ref().map(|w| w.id.clone()),
        messages: newest.map(|w| w.history()).unwrap_or_default(),
    }))
}
