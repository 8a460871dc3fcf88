//! `POST /api/missions`: a mission, its check-in schedule, and its first organizer run
//! when it plans by itself.

use crate::body::Body;
use crate::db::work;
use crate::error::ApiResult;
use crate::flows::missions;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::{find_mission, NewMission};
use crate::store::workspaces::team_workspace;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use buildd_core::checkin::DEFAULT_CHECKLIST;
use buildd_core::requests::missions::{CheckinSettings, NewMission as Request};
use buildd_core::requests::{FieldError, Patch};
use buildd_core::schedule::context_keys::{CHECKLIST, HEARTBEAT};
use buildd_core::{IdRef, MissionCreated, MissionStatus, OrchestrationMode, WorkMode};
use serde_json::{Map, Value};

pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Body(request): Body<Request>,
) -> ApiResult<(StatusCode, Json<MissionCreated>)> {
    caller.require_admin()?;
    let mission = new_mission(&request, &caller.team_id)?;
    let (schedule, heartbeat) = schedule_context(&mission, &request.checkins())?;
    // An active auto mission with check-ins starts planning at once.
    let plan_now = heartbeat
        && mission.status == MissionStatus::Active
        && mission.orchestration_mode == OrchestrationMode::Auto;
    let checkin_config = state.checkins;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
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
            }),
        )
        .await
}

/// The mission `request` describes, with the schema's defaults for what it leaves out.
fn new_mission(request: &Request, team_id: &str) -> Result<NewMission, FieldError> {
    Ok(NewMission {
        cost_budget_usd: request.budget()?,
        workspace_id: request.workspace_id.clone(),
        description: request.description.clone(),
        status: request.status.clone().unwrap_or(MissionStatus::Active),
        priority: request.priority.unwrap_or(0),
        requires_review: request.requires_review.unwrap_or(false),
        orchestration_mode: request
            .orchestration_mode
            .clone()
            .unwrap_or(OrchestrationMode::Auto),
        merge_policy: request
            .merge_policy()?
            .map(|p| serde_json::to_value(p).unwrap_or_default()),
        mode: request.mode.clone().value().unwrap_or(WorkMode::Dispatch),
        is_held: request.held(),
        ..NewMission::new(team_id, request.title()?)
    })
}

/// The template context of the new mission's schedule, when it gets one, and whether its
/// check-ins are on: new auto missions get them unless `isHeartbeat: false`.
fn schedule_context(
    mission: &NewMission,
    checkins: &CheckinSettings,
) -> Result<(Option<Map<String, Value>>, bool), FieldError> {
    let heartbeat = match checkins.is_heartbeat {
        Patch::Value(on) => on,
        _ => mission.orchestration_mode == OrchestrationMode::Auto,
    };
    let mut context = Map::new();
    if heartbeat {
        context.insert(HEARTBEAT.into(), true.into());
        context.insert(CHECKLIST.into(), DEFAULT_CHECKLIST.into());
    }
    checkins.apply(&mut context)?;
    let scheduled = heartbeat || checkins.any();
    Ok((scheduled.then_some(context), heartbeat))
}
