//! `GET /api/tasks/waiting-input`: the team's tasks whose agent waits on a person, with its
//! question (Buildd serves it to a browser session only; here to any key of the team).
//! Polled by the board, so kept with an `ETag`.

use crate::error::ApiResult;
use crate::http::cache::{read_key, Lookup};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::workers::waiting_of_team;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use buildd_core::waiting::{WaitingFor, WaitingTask, WaitingTasks};
use buildd_core::WorkerStatus;

pub async fn waiting(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let mut tx = state.db.read().await?;
    let key = read_key(&caller.team_id, "/tasks/waiting-input", &());
    let pending = match state.cache.lookup(&mut tx, key, &headers).await? {
        Lookup::Hit(response) => return Ok(response),
        Lookup::Miss(pending) => pending,
    };
    let tasks = waiting_of_team(&mut tx, &caller.team_id)
        .await?
        .into_iter()
        .map(|w| WaitingTask {
            waiting_for: serde_json::from_str(&w.waiting_for)
                .ok()
                .and_then(|v| WaitingFor::of(&v))
                .unwrap_or_default(),
            live: WorkerStatus::parse(&w.status).is_live(),
            id: w.task_id,
            title: w.title,
            workspace_id: w.workspace_id,
            mission_id: w.mission_id,
            worker_id: Some(w.worker_id),
            since: Some(w.updated_at),
        })
        .collect();
    state.cache.keep(pending, &WaitingTasks { tasks })
}
