//! `PATCH /api/missions/{id}`: a person changes a mission's fields, status, budget, merge
//! policy or check-ins, or arms a held mission.

use crate::body::Body;
use crate::db::work;
use crate::error::{ApiError, ApiResult};
use crate::flows::missions::{self, MissionChange};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::{find_mission, MissionPatch};
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::lifecycle::check_mission_transition;
use buildd_core::requests::missions::MissionPatch as Request;
use buildd_core::requests::FieldError;
use buildd_core::Mission;

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(request): Body<Request>,
) -> ApiResult<Json<Mission>> {
    caller.require_admin()?;
    let change = change_of(&request)?;
    let checkins = request.checkins();
    let checkin_config = state.checkins;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let row = find_mission(tx, &caller.team_id, &id).await?;
                if let Some(to) = &change.fields.status {
                    check_mission_transition(&row.status(), to).map_err(ApiError::BadRequest)?;
                }
                missions::update(tx, &row, &change, &checkins, &checkin_config).await?;
                let row = find_mission(tx, &caller.team_id, &id).await?;
                Ok(Json(row.to_mission()))
            }),
        )
        .await
}

/// The change `request` asks for, as the mission's row takes it.
fn change_of(request: &Request) -> Result<MissionChange, FieldError> {
    let fields = MissionPatch {
        title: request.title(),
        description: request.description.clone().into_update(),
        status: request.status.clone(),
        priority: request.priority.clone().value(),
        orchestration_mode: request.orchestration_mode.clone(),
        merge_policy: request
            .merge_policy()?
            .map(|p| p.map(|p| serde_json::to_value(p).unwrap_or_default())),
        mode: request.mode.clone().value(),
        requires_review: request.requires_review.clone().value(),
        arm: request.arm == Some(true),
    };
    Ok(MissionChange {
        fields,
        budget: request.budget()?,
    })
}
