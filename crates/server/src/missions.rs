//! `/api/missions`: list, create, detail, update, delete.

use crate::auth::Caller;
use crate::body::{Field, JsonObject};
use crate::cache::Lookup;
use crate::error::{ApiError, ApiResult};
use crate::mission_views::{find_mission, mission_detail, mission_list, MissionFilter};
use crate::state::AppState;
use crate::time::{new_id, now};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use buildd_core::lifecycle::{check_mission_transition, parse_settable_status};
use buildd_core::*;
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
    let (key, generation) = match state.cache.lookup(&mut tx, key, &headers).await? {
        Lookup::Hit(response) => return Ok(response),
        Lookup::Miss { key, generation } => (key, generation),
    };
    let filter = MissionFilter {
        team_id: &caller.team_id,
        status,
        workspace_id,
        mission_id: None,
    };
    let missions = mission_list(&mut tx, &filter).await?;
    state.cache.keep(key, generation, &MissionList { missions })
}

pub async fn detail(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let key = format!("{}/missions/{id}", caller.team_id);
    let mut tx = state.db.read().await?;
    match state.cache.lookup(&mut tx, key, &headers).await? {
        Lookup::Hit(response) => Ok(response),
        Lookup::Miss { key, generation } => {
            let detail = mission_detail(&mut tx, &caller.team_id, &id).await?;
            state.cache.keep(key, generation, &detail)
        }
    }
}

/// The workspace `id` if it belongs to the caller's team.
pub async fn team_workspace(
    tx: &mut crate::db::Tx,
    team_id: &str,
    id: &str,
) -> ApiResult<crate::rows::WorkspaceRow> {
    sqlx::query_as(&format!(
        "SELECT {} FROM workspaces ws WHERE ws.id = ? AND ws.team_id = ?",
        crate::rows::WORKSPACE_COLUMNS
    ))
    .bind(id)
    .bind(team_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or(ApiError::NotFound("Workspace not found"))
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

    let mut tx = state.db.write().await?;
    if let Some(ws) = &workspace_id {
        team_workspace(&mut tx, &caller.team_id, ws).await?;
    }
    let id = new_id();
    let at = now();
    sqlx::query(
        "INSERT INTO missions (id, team_id, workspace_id, title, description, status, priority, \
         requires_review, orchestration_mode, created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&id)
    .bind(&caller.team_id)
    .bind(&workspace_id)
    .bind(&title)
    .bind(&description)
    .bind(status.as_str())
    .bind(priority)
    .bind(requires_review)
    .bind(mode.as_str())
    .bind(&at)
    .bind(&at)
    .execute(&mut *tx)
    .await?;
    let row = find_mission(&mut tx, &caller.team_id, &id).await?;
    tx.commit().await?;
    Ok((
        StatusCode::CREATED,
        Json(MissionCreated {
            mission: row.to_mission(),
            organizer_task: None,
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

    let mut tx = state.db.write().await?;
    let row = find_mission(&mut tx, &caller.team_id, &id).await?;
    if let Some(to) = &status {
        check_mission_transition(&row.status(), to).map_err(ApiError::BadRequest)?;
    }
    let at = now();
    sqlx::query(
        "UPDATE missions SET \
           title = COALESCE(?, title), \
           description = CASE WHEN ? THEN ? ELSE description END, \
           status = COALESCE(?, status), \
           priority = COALESCE(?, priority), \
           orchestration_mode = COALESCE(?, orchestration_mode), \
           updated_at = ? \
         WHERE id = ?",
    )
    .bind(&title)
    .bind(!description.is_absent())
    .bind(description.value())
    .bind(status.as_ref().map(MissionStatus::as_str))
    .bind(priority.value())
    .bind(mode.as_ref().map(OrchestrationMode::as_str))
    .bind(&at)
    .bind(&id)
    .execute(&mut *tx)
    .await?;
    if let (Some(to), Some(schedule_id)) = (&status, &row.schedule_id) {
        // Check-ins run only while the mission is active; their settings are kept so a
        // reopened mission resumes as it was.
        sqlx::query("UPDATE schedules SET enabled = ?, updated_at = ? WHERE id = ?")
            .bind(*to == MissionStatus::Active)
            .bind(&at)
            .bind(schedule_id)
            .execute(&mut *tx)
            .await?;
    }
    let row = find_mission(&mut tx, &caller.team_id, &id).await?;
    tx.commit().await?;
    Ok(Json(row.to_mission()))
}

pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Success>> {
    caller.require_admin()?;
    let mut tx = state.db.write().await?;
    let row = find_mission(&mut tx, &caller.team_id, &id).await?;
    sqlx::query("DELETE FROM missions WHERE id = ?")
        .bind(&id)
        .execute(&mut *tx)
        .await?;
    if let Some(schedule_id) = &row.schedule_id {
        sqlx::query("DELETE FROM schedules WHERE id = ?")
            .bind(schedule_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(Json(Success { success: true }))
}
