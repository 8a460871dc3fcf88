//! `DELETE /api/missions/{id}`: the mission and its check-in schedule.

use crate::db::work;
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
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let row = find_mission(tx, &caller.team_id, &id).await?;
                missions::delete(tx, &id, row.schedule_id.as_deref()).await?;
                Ok(Json(Success { success: true }))
            }),
        )
        .await
}
