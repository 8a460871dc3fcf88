//! `GET /api/tasks/{id}/messages`: the steering history of a task's newest worker.

use crate::error::ApiResult;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::tasks::find_task;
use crate::store::workers::newest_of_task;
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::TaskMessages;

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
