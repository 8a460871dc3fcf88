//! `POST /api/workers/{id}/instruct`: a person queues a message for a running agent; the
//! worker receives it with the answer to its next report.

use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::workers::{append_instruction, find_worker};
use crate::time::now;
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::Instructed;

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
    state
        .db
        .transact(caller.lane(), move |tx| {
            Box::pin(async move {
                let worker = find_worker(tx, &caller.team_id, &id).await?;
                if worker.is_finished() {
                    return Err(ApiError::bad("Cannot instruct completed or failed workers"));
                }
                append_instruction(tx, &worker, message, &now()).await?;
                Ok(Json(Instructed {
                    ok: true,
                    message: "Instructions queued; the agent receives them with its next update"
                        .into(),
                    worker_id: id,
                }))
            })
        })
        .await
}
