//! `GET /api/insights?weeks=N`: the rows the Insights page computes the team's weekly
//! figures and busiest hours from (buildd-core's `TeamInsights`), from the Monday `N - 1`
//! weeks back on; `GET /api/insights/prs?weeks=N`: the PRs opened since then with what
//! their merge decision reads, which the merge policy's what-if replays. Both kept with an
//! `ETag`.

use super::cache::{read_key, Lookup};
use super::caller::Caller;
use super::state::AppState;
use crate::body::Params;
use crate::error::ApiResult;
use crate::store::{insights, recorded_prs};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use buildd_core::insights::team::{InsightsQuery, TeamInsights};
use buildd_core::insights::weekly::TeamActivity;
use buildd_core::insights::what_if::RecordedPrs;

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

pub async fn prs(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<InsightsQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let mut tx = state.db.read().await?;
    let since = query.since(chrono::Utc::now().timestamp_millis());
    let key = read_key(&caller.team_id, "/insights/prs", &(&query, &since));
    let pending = match state.cache.lookup(&mut tx, key, &headers).await? {
        Lookup::Hit(response) => return Ok(response),
        Lookup::Miss(pending) => pending,
    };
    let prs = recorded_prs::recorded_prs(&mut tx, &caller.team_id, &since).await?;
    state.cache.keep(pending, &RecordedPrs { since, prs })
}
