//! `POST /api/missions`: a mission, its check-in schedule, and its first organizer run
//! when it plans by itself.

use super::checkin_fields::CheckinFields;
use super::fields::{cost_budget, merge_policy_field, orchestration_mode, work_mode};
use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use crate::flows::missions::{self, CheckinChange};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::{find_mission, NewMission};
use crate::store::workspaces::team_workspace;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use buildd_core::checkin::DEFAULT_CHECKLIST;
use buildd_core::lifecycle::parse_settable_status;
use buildd_core::{IdRef, MissionCreated, MissionStatus, OrchestrationMode};
use serde_json::{Map, Value};

pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> ApiResult<(StatusCode, Json<MissionCreated>)> {
    caller.require_admin()?;
    let (mission, checkins) = read_mission(&body, &caller.team_id)?;
    let (schedule, heartbeat) = schedule_context(&mission, &checkins)?;
    // An active auto mission with check-ins starts planning at once.
    let plan_now = heartbeat
        && mission.status == MissionStatus::Active
        && mission.orchestration_mode == OrchestrationMode::Auto;
    let checkin_config = state.checkins;
    state
        .db
        .transact(caller.lane(), move |tx| {
            Box::pin(async move {
                if let Some(ws) = &mission.workspace_id {
                    team_workspace(tx, &caller.team_id, ws).await?;
                }
                let organizer_task =
                    missions::create(tx, &mission, schedule.as_ref(), plan_now, &checkin_config)
                        .await?
                        .map(|id| IdRef { id });
                let row = find_mission(tx, &caller.team_id, &mission.id).await?;
                Ok((
                    StatusCode::CREATED,
                    Json(MissionCreated {
                        mission: row.to_mission(),
                        organizer_task,
                        heartbeat_info: None,
                    }),
                ))
            })
        })
        .await
}

/// The mission a POST body describes, and its check-in settings, read field by field in
/// the order refusals name them.
fn read_mission(body: &JsonObject, team_id: &str) -> ApiResult<(NewMission, CheckinFields)> {
    let title = body.required_string("title", "title is required")?;
    let description = body.string("description")?.value();
    let status = match body.string("status")?.value() {
        Some(s) => parse_settable_status(&s).map_err(ApiError::BadRequest)?,
        None => MissionStatus::Active,
    };
    let orchestration_mode = match body.string("orchestrationMode")?.value() {
        Some(m) => orchestration_mode(&m)?,
        None => OrchestrationMode::Auto,
    };
    let priority = body.integer("priority")?.value().unwrap_or(0);
    let requires_review = body.boolean("requiresReview")?.value().unwrap_or(false);
    let workspace_id = body.string("workspaceId")?.value();
    let checkins = CheckinFields::read(body)?;
    let merge_policy = merge_policy_field(body)?.flatten();
    let mode = work_mode(body)?.unwrap_or_else(|| "dispatch".into());
    let cost_budget_usd = cost_budget(body)?.flatten();
    let mission = NewMission {
        cost_budget_usd,
        workspace_id,
        description,
        status,
        priority,
        requires_review,
        orchestration_mode,
        merge_policy,
        mode,
        ..NewMission::new(team_id, title)
    };
    Ok((mission, checkins))
}

/// The template context of the new mission's schedule, when it gets one, and whether its
/// check-ins are on: new auto missions get them unless `isHeartbeat: false`.
fn schedule_context(
    mission: &NewMission,
    checkins: &CheckinFields,
) -> ApiResult<(Option<Map<String, Value>>, bool)> {
    let heartbeat = match checkins.heartbeat {
        Field::Set(on) => on,
        _ => mission.orchestration_mode == OrchestrationMode::Auto,
    };
    let mut context = Map::new();
    if heartbeat {
        context.insert("heartbeat".into(), true.into());
        context.insert("heartbeatChecklist".into(), DEFAULT_CHECKLIST.into());
    }
    checkins.apply(&mut context)?;
    let scheduled = heartbeat || checkins.any();
    Ok((scheduled.then_some(context), heartbeat))
}
