//! `POST /api/workers/{id}/instruct`: a person queues a message for a running agent; the
//! worker receives it with the answer to its next report.

use crate::body::Body;
use crate::db::work;
use crate::error::{ApiError, ApiResult};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::workers::{append_instruction, find_worker};
use crate::time::now;
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::requests::workers::Instruct;
use buildd_core::Instructed;

pub async fn instruct(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(request): Body<Instruct>,
) -> ApiResult<Json<Instructed>> {
    caller.require_admin()?;
    let message = request.message()?;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
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
            }),
        )
        .await
}
