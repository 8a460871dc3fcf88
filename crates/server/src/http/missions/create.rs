//! `POST /api/missions`: a mission, its check-in schedule, and its first organizer run
//! when it plans by itself.

use super::checkin_fields::CheckinFields;
use super::fields::{merge_policy_field, orchestration_mode, work_mode};
use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use crate::flows::organizer::{open_run, Trigger};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::{self, find_mission, NewMission};
use crate::store::schedules::create_schedule;
use crate::store::workspaces::team_workspace;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use buildd_core::checkin::DEFAULT_CHECKLIST;
use buildd_core::lifecycle::parse_settable_status;
use buildd_core::{IdRef, MissionCreated, MissionStatus, OrchestrationMode};

pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> ApiResult<(StatusCode, Json<MissionCreated>)> {
    caller.require_admin()?;
    let title = body.required_string("title", "title is required")?;
    let description = body.string("description")?.value();
    let status = match body.string("status")?.value() {
        Some(s) => parse_settable_status(&s).map_err(ApiError::BadRequest)?,
        None => MissionStatus::Active,
    };
    let mode = match body.string("orchestrationMode")?.value() {
        Some(m) => orchestration_mode(&m)?,
        None => OrchestrationMode::Auto,
    };
    let priority = body.integer("priority")?.value().unwrap_or(0);
    let requires_review = body.boolean("requiresReview")?.value().unwrap_or(false);
    let workspace_id = body.string("workspaceId")?.value();
    let checkins = CheckinFields::read(&body)?;
    let policy = merge_policy_field(&body)?.flatten();
    let work = work_mode(&body)?.unwrap_or_else(|| "dispatch".into());
    // New auto missions get check-ins unless `isHeartbeat: false`.
    let heartbeat = match checkins.heartbeat {
        Field::Set(on) => on,
        _ => mode == OrchestrationMode::Auto,
    };
    let mut context = serde_json::Map::new();
    if heartbeat {
        context.insert("heartbeat".into(), true.into());
        context.insert("heartbeatChecklist".into(), DEFAULT_CHECKLIST.into());
    }
    checkins.apply(&mut context)?;

    let mut tx = state.db.write().await?;
    if let Some(ws) = &workspace_id {
        team_workspace(&mut tx, &caller.team_id, ws).await?;
    }
    let mission = NewMission {
        workspace_id,
        description,
        status: status.clone(),
        priority,
        requires_review,
        orchestration_mode: mode.clone(),
        merge_policy: policy,
        mode: work,
        ..NewMission::new(&caller.team_id, title)
    };
    missions::insert(&mut tx, &mission).await?;
    let id = mission.id;
    let row = find_mission(&mut tx, &caller.team_id, &id).await?;
    if heartbeat || checkins.any() {
        create_schedule(&mut tx, &row, &context, &state.checkins).await?;
    }
    // An active auto mission with check-ins starts planning at once.
    let organizer_task =
        if heartbeat && status == MissionStatus::Active && mode == OrchestrationMode::Auto {
            let trigger = Trigger {
                source: "created",
                task_id: None,
            };
            open_run(&mut tx, &row, trigger).await?.map(|run| IdRef {
                id: run.task().id.clone(),
            })
        } else {
            None
        };
    let row = find_mission(&mut tx, &caller.team_id, &id).await?;
    tx.commit().await?;
    Ok((
        StatusCode::CREATED,
        Json(MissionCreated {
            mission: row.to_mission(),
            organizer_task,
            heartbeat_info: None,
        }),
    ))
}
