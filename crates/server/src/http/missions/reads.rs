//! `GET /api/missions` and `GET /api/missions/{id}`: polled, so kept in the response cache
//! and answered 304 while the caller's copy is current.

use crate::body::Params;
use crate::error::ApiResult;
use crate::http::cache::Lookup;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::mission_views::{mission_detail, mission_list, MissionFilter};
use crate::store::missions::find_mission;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use buildd_core::requests::queries::MissionListQuery;
use buildd_core::{MissionList, MissionStatus};

pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<MissionListQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let status = query.status.as_ref().map(MissionStatus::as_str);
    let workspace_id = query.workspace_id.as_deref();
    let key = format!(
        "{}/missions?status={}&workspaceId={}",
        caller.team_id,
        status.unwrap_or(""),
        workspace_id.unwrap_or("")
    );
    let mut tx = state.db.read().await?;
    let pending = match state.cache.lookup(&mut tx, key, &headers).await? {
        Lookup::Hit(response) => return Ok(response),
        Lookup::Miss(pending) => pending,
    };
    let filter = MissionFilter {
        team_id: &caller.team_id,
        status,
        workspace_id,
        mission_id: None,
    };
    let missions = mission_list(&mut tx, &filter).await?;
    state.cache.keep(pending, &MissionList { missions })
}

pub async fn detail(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let key = format!("{}/missions/{id}", caller.team_id);
    let mut tx = state.db.read().await?;
    // Found first: an ETag of another team's (or no) mission never answers 304.
    find_mission(&mut tx, &caller.team_id, &id).await?;
    match state.cache.lookup(&mut tx, key, &headers).await? {
        Lookup::Hit(response) => Ok(response),
        Lookup::Miss(pending) => {
            let detail =
                mission_detail(&mut tx, &caller.team_id, &id, &state.checkins, &state.tasks)
                    .await?;
            state.cache.keep(pending, &detail)
        }
    }
}
