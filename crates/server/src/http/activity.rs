//! `GET /api/activity`: every task of the team, missions or not, newest change first, a
//! page at a time (buildd-core's `ActivityQuery` says which), with the count that passes
//! the filters. Polled by the Activity page, so kept with an `ETag`.

use super::cache::{read_key, Lookup};
use super::caller::Caller;
use super::state::AppState;
use crate::body::Params;
use crate::error::ApiResult;
use crate::store::tasks::activity::{page, total};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use buildd_core::activity::{ActivityPage, ActivityQuery};

pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<ActivityQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let mut tx = state.db.read().await?;
    let key = read_key(&caller.team_id, "/activity", &query);
    let pending = match state.cache.lookup(&mut tx, key, &headers).await? {
        Lookup::Hit(response) => return Ok(response),
        Lookup::Miss(pending) => pending,
    };
    let (tasks, next_cursor) = page(&mut tx, &caller.team_id, &query).await?;
    let total = total(&mut tx, &caller.team_id, &query).await? as u64;
    let answer = ActivityPage {
        tasks,
        total,
        next_cursor,
    };
    state.cache.keep(pending, &answer)
}
