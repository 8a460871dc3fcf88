//! `/api/missions`: list, create, detail, update, delete.

use super::cache::Lookup;
use super::caller::Caller;
use super::checkin_fields::CheckinFields;

use super::state::AppState;
use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use crate::flows::completion::closed;
use crate::flows::organizer::{open_run, wake, Trigger};
use crate::flows::prs::review::start_reviews;
use crate::store::mission_views::{mission_detail, mission_list, MissionFilter};
use crate::store::missions::{self, find_mission, MissionPatch, NewMission};
use crate::store::schedules::{create_schedule, find_schedule, save_context, template_context};
use crate::store::workspaces::team_workspace;
use crate::time::now;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use buildd_core::checkin::DEFAULT_CHECKLIST;
use buildd_core::lifecycle::{check_mission_transition, parse_settable_status};
use buildd_core::merge_policy::validate_merge_policy;
use buildd_core::{
    IdRef, Mission, MissionCreated, MissionList, MissionStatus, OrchestrationMode, Success,
};
use serde_json::Value;
use std::collections::HashMap;

pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let status = query.get("status").map(String::as_str);
    if let Some(s) = status {
        if MissionStatus::known(s).is_none() {
            return Err(ApiError::bad(format!(
                "status must be one of: {}",
                MissionStatus::list()
            )));
        }
    }
    let workspace_id = query.get("workspaceId").map(String::as_str);
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

fn orchestration_mode(value: &str) -> ApiResult<OrchestrationMode> {
    OrchestrationMode::known(value).ok_or_else(|| {
        ApiError::bad("orchestrationMode must be \"auto\" or \"manual\"".to_string())
    })
}

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

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: JsonObject,
) -> ApiResult<Json<Mission>> {
    caller.require_admin()?;
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
    let mode = match body.string("orchestrationMode")?.value() {
        Some(m) => Some(orchestration_mode(&m)?),
        None => None,
    };
    let checkins = CheckinFields::read(&body)?;
    let budget = cost_budget(&body)?;
    let policy = merge_policy_field(&body)?;
    let work = work_mode(&body)?;
    let requires_review = body.boolean("requiresReview")?;
    if matches!(requires_review, Field::Null) {
        return Err(ApiError::bad("requiresReview must be true or false"));
    }

    let mut tx = state.db.write().await?;
    let row = find_mission(&mut tx, &caller.team_id, &id).await?;
    if let Some(to) = &status {
        check_mission_transition(&row.status(), to).map_err(ApiError::BadRequest)?;
    }
    let at = now();
    let patch = MissionPatch {
        title,
        description: description.patch(),
        status: status.clone(),
        priority: priority.value(),
        orchestration_mode: mode,
        merge_policy: policy.clone(),
        mode: work,
        requires_review: requires_review.clone().value(),
    };
    missions::update(&mut tx, &id, &patch, &at).await?;
    // Open PRs that the change puts under agent-review get their reviewer.
    if policy.is_some() || matches!(requires_review, Field::Set(_)) {
        start_reviews(&mut tx, Some(&id), None).await?;
    }
    // A raised budget resumes a mission that ran out of it, and it plans again.
    let mut budget_raised = false;
    if let Some(new) = &budget {
        let old = row
            .cost_budget_usd
            .as_deref()
            .and_then(|b| b.parse::<f64>().ok());
        let raised = match (new, old) {
            (Some(n), Some(o)) => *n > o,
            (None, Some(_)) => true,
            _ => false,
        };
        budget_raised = raised && row.status() == MissionStatus::BudgetExhausted;
        missions::set_budget(&mut tx, &id, *new, budget_raised).await?;
    }
    let updated = find_mission(&mut tx, &caller.team_id, &id).await?;
    // Check-in settings live on the schedule; check-ins run only while the mission is
    // active, and their settings are kept so a reopened mission resumes as it was.
    let schedule = match &updated.schedule_id {
        Some(s) => find_schedule(&mut tx, s).await?,
        None => None,
    };
    match schedule {
        Some(schedule) => {
            let mut context = template_context(&schedule.task_template);
            checkins.apply(&mut context)?;
            save_context(&mut tx, &schedule, &updated, &context).await?;
        }
        None if checkins.any() => {
            let mut context = serde_json::Map::new();
            checkins.apply(&mut context)?;
            create_schedule(&mut tx, &updated, &context, &state.checkins).await?;
        }
        None => {}
    }
    let previous = row.status();
    if status == Some(MissionStatus::Active) && previous == MissionStatus::Paused {
        let trigger = Trigger {
            source: "wake:resumed",
            task_id: None,
        };
        wake(&mut tx, &id, trigger).await?;
    }
    if budget_raised {
        let trigger = Trigger {
            source: "wake:budget_raised",
            task_id: None,
        };
        wake(&mut tx, &id, trigger).await?;
    }
    if status == Some(MissionStatus::Completed) && previous != MissionStatus::Completed {
        closed(&mut tx, &id, &at).await?;
    }
    let row = find_mission(&mut tx, &caller.team_id, &id).await?;
    tx.commit().await?;
    Ok(Json(row.to_mission()))
}

/// `mode` of a create or update: how the mission is worked.
fn work_mode(body: &JsonObject) -> ApiResult<Option<String>> {
    match body.string("mode")? {
        Field::Absent => Ok(None),
        Field::Set(m) if m == "dispatch" || m == "interactive" => Ok(Some(m)),
        _ => Err(ApiError::bad(
            "mode must be \"dispatch\" or \"interactive\"",
        )),
    }
}

/// `mergePolicy` of a create or update: absent, null (inherit), or a valid policy.
fn merge_policy_field(body: &JsonObject) -> ApiResult<Option<Option<Value>>> {
    match body.0.get("mergePolicy") {
        None => Ok(None),
        Some(Value::Null) => Ok(Some(None)),
        Some(v) => {
            let policy =
                validate_merge_policy(v, "mergePolicy").map_err(|e| ApiError::bad(e.join("; ")))?;
            Ok(Some(Some(serde_json::to_value(policy)?)))
        }
    }
}

/// `costBudgetUsd` of a PATCH: absent, null (no budget), or a non-negative amount, as a
/// number or a decimal string.
fn cost_budget(body: &JsonObject) -> ApiResult<Option<Option<f64>>> {
    let bad = || ApiError::bad("costBudgetUsd must be a non-negative amount in USD, or null");
    match body.0.get("costBudgetUsd") {
        None => Ok(None),
        Some(serde_json::Value::Null) => Ok(Some(None)),
        Some(v) => {
            let n = v
                .as_f64()
                .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                .ok_or_else(bad)?;
            if n.is_finite() && n >= 0.0 {
                Ok(Some(Some(n)))
            } else {
                Err(bad())
            }
        }
    }
}

pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Success>> {
    caller.require_admin()?;
    let mut tx = state.db.write().await?;
    let row = find_mission(&mut tx, &caller.team_id, &id).await?;
    missions::delete(&mut tx, &id, row.schedule_id.as_deref()).await?;
    tx.commit().await?;
    Ok(Json(Success { success: true }))
}
