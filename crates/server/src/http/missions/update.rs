//! `PATCH /api/missions/{id}`: a person changes a mission's fields, status, budget, merge
//! policy or check-ins.

use super::checkin_fields::CheckinFields;
use super::fields::{cost_budget, merge_policy_field, orchestration_mode, work_mode};
use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use crate::flows::missions::{self, MissionChange};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::{find_mission, MissionPatch};
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::lifecycle::{check_mission_transition, parse_settable_status};
use buildd_core::Mission;

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: JsonObject,
) -> ApiResult<Json<Mission>> {
    caller.require_admin()?;
    let (change, checkins) = read_change(&body)?;
    let checkin_config = state.checkins;
    state
        .db
        .transact(caller.lane(), move |tx| {
            Box::pin(async move {
                let row = find_mission(tx, &caller.team_id, &id).await?;
                if let Some(to) = &change.fields.status {
                    check_mission_transition(&row.status(), to).map_err(ApiError::BadRequest)?;
                }
                missions::update(tx, &row, &change, &checkins, &checkin_config).await?;
                let row = find_mission(tx, &caller.team_id, &id).await?;
                Ok(Json(row.to_mission()))
            })
        })
        .await
}

/// The change a PATCH body asks for, and its check-in settings, read field by field in
/// the order refusals name them.
fn read_change(body: &JsonObject) -> ApiResult<(MissionChange, CheckinFields)> {
    let title = body.non_blank_string("title")?;
    let description = body.string("description")?;
    let status = match body.string("status")?.value() {
        Some(s) => Some(parse_settable_status(&s).map_err(ApiError::BadRequest)?),
        None => None,
    };
    let priority = body.integer("priority")?;
    if matches!(priority, Field::Null) {
        return Err(ApiError::bad("priority must be an integer"));
    }
    let orchestration_mode = match body.string("orchestrationMode")?.value() {
        Some(m) => Some(orchestration_mode(&m)?),
        None => None,
    };
    let checkins = CheckinFields::read(body)?;
    let budget = cost_budget(body)?;
    let merge_policy = merge_policy_field(body)?;
    let mode = work_mode(body)?;
    let requires_review = body.boolean("requiresReview")?;
    if matches!(requires_review, Field::Null) {
        return Err(ApiError::bad("requiresReview must be true or false"));
    }
    let fields = MissionPatch {
        title,
        description: description.patch(),
        status,
        priority: priority.value(),
        orchestration_mode,
        merge_policy,
        mode,
        requires_review: requires_review.value(),
    };
    Ok((MissionChange { fields, budget }, checkins))
}
