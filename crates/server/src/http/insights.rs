//! `GET /api/insights?weeks=N`: the rows the Insights page computes the team's weekly
//! figures and busiest hours from (buildd-core's `TeamInsights`), from the Monday `N - 1`
//! weeks back on. Polled by the page, so kept with an `ETag`.

use super::cache::{read_key, Lookup};
use super::caller::Caller;
use super::state::AppState;
use crate::body::Params;
use crate::error::ApiResult;
use crate::store::insights;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use buildd_core::insights::team::{InsightsQuery, TeamInsights};
use buildd_core::insights::weekly::TeamActivity;

pub async fn read(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<InsightsQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let mut tx = state.db.read().await?;
    let now_ms = chrono::Utc::now().timestamp_millis();
    let since = query.since(now_ms);
    // Keyed by its first moment too: a new week reads anew.
    let key = read_key(&caller.team_id, "/insights", &(&query, &since));
    let pending = match state.cache.lookup(&mut tx, key, &headers).await? {
        Lookup::Hit(response) => return Ok(response),
        Lookup::Miss(pending) => pending,
    };
    let team = caller.team_id.as_str();
    let activity = TeamActivity {
        merged: insights::merged(&mut tx, team, &since).await?,
        tasks: insights::tasks(&mut tx, team, &since).await?,
        spend: insights::spend(&mut tx, team, &since).await?,
    };
    let answer = TeamInsights {
        busy: insights::busy(&mut tx, team, &since).await?,
        active_hours: insights::active(&mut tx, team, now_ms).await?,
        activity,
        since,
    };
    state.cache.keep(pending, &answer)
}
