//! `DELETE /api/missions/{id}`: the mission and its check-in schedule.

use crate::error::ApiResult;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::{self, find_mission};
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::Success;

pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Success>> {
    caller.require_admin()?;
    let mut tx = state.db.write_as(caller.lane()).await?;
    let row = find_mission(&mut tx, &caller.team_id, &id).await?;
    missions::delete(&mut tx, &id, row.schedule_id.as_deref()).await?;
    tx.commit().await?;
    Ok(Json(Success { success: true }))
}
