//! `/api/workspaces`: list, create, detail, update. Stored secrets never leave the server.

use super::caller::Caller;
use super::state::AppState;
use crate::body::Body;
use crate::db::work;
use crate::error::{ApiError, ApiResult};
use crate::flows::prs::review::start_reviews;
use crate::store::workspaces::{
    self, name_taken, team_workspace, team_workspaces, NewWorkspace, WorkspacePatch,
};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use buildd_core::requests::workspaces::{
    NewWorkspace as NewWorkspaceRequest, WorkspacePatch as WorkspacePatchRequest,
};
use buildd_core::{Success, WorkspaceConfig, WorkspaceEnvelope, WorkspaceList};
use serde_json::Value;

pub async fn list(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<WorkspaceList>> {
    let mut tx = state.db.read().await?;
    let rows = team_workspaces(&mut tx, &caller.team_id).await?;
    Ok(Json(WorkspaceList {
        workspaces: rows.iter().map(|w| w.to_workspace()).collect(),
    }))
}

pub async fn detail(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<WorkspaceEnvelope>> {
    let mut tx = state.db.read().await?;
    let row = team_workspace(&mut tx, &caller.team_id, &id).await?;
    Ok(Json(WorkspaceEnvelope {
        workspace: row.to_workspace(),
    }))
}

/// `GET /api/workspaces/{id}/config`: what a runner reads at the start of every session.
pub async fn config(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<WorkspaceConfig>> {
    let mut tx = state.db.read().await?;
    let workspace = team_workspace(&mut tx, &caller.team_id, &id)
        .await?
        .to_workspace();
    Ok(Json(WorkspaceConfig {
        git_config: workspace.git_config,
        config_status: workspace.config_status,
    }))
}

pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Body(request): Body<NewWorkspaceRequest>,
) -> ApiResult<(StatusCode, Json<WorkspaceEnvelope>)> {
    caller.require_admin()?;
    let (name, repo) = (request.name()?, request.repo()?);
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                if name_taken(tx, &caller.team_id, &name, "").await? {
                    return Err(ApiError::Conflict(format!(
                        "name: a workspace called \"{name}\" already exists"
                    )));
                }
                let workspace = NewWorkspace {
                    repo,
                    ..NewWorkspace::new(&caller.team_id, name)
                };
                workspaces::insert(tx, &workspace).await?;
                let row = team_workspace(tx, &caller.team_id, &workspace.id).await?;
                Ok((
                    StatusCode::CREATED,
                    Json(WorkspaceEnvelope {
                        workspace: row.to_workspace(),
                    }),
                ))
            }),
        )
        .await
}

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(request): Body<WorkspacePatchRequest>,
) -> ApiResult<Json<Success>> {
    caller.require_admin()?;
    let (mut patch, git_config) = patch_of(request)?;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let row = team_workspace(tx, &caller.team_id, &id).await?;
                if let Some(n) = &patch.name {
                    if name_taken(tx, &caller.team_id, n, &id).await? {
                        return Err(ApiError::Conflict(format!(
                            "name: a workspace called \"{n}\" already exists"
                        )));
                    }
                }
                // gitConfig is merged key by key over what is stored.
                patch.git_config = git_config.map(|given| {
                    let mut current: serde_json::Map<String, Value> =
                        serde_json::from_str(&row.git_config).unwrap_or_default();
                    current.extend(given);
                    Value::Object(current).to_string()
                });
                workspaces::update(tx, &id, &patch).await?;
                if patch.git_config.is_some() {
                    // Open PRs that the new default puts under agent-review get their reviewer.
                    start_reviews(tx, None, Some(&id)).await?;
                }
                Ok(Json(Success { success: true }))
            }),
        )
        .await
}

/// The change `request` asks for, and the `gitConfig` keys it sets (merged over the
/// stored ones once they are read).
fn patch_of(
    request: WorkspacePatchRequest,
) -> ApiResult<(WorkspacePatch, Option<serde_json::Map<String, Value>>)> {
    let patch = WorkspacePatch {
        name: request.name.clone().value().map(|n| n.trim().to_string()),
        repo: request.repo()?.into_update(),
        local_path: request.default_branch().into_update(),
        access_mode: request.access_mode,
        data_class: request.data_class,
        max_concurrent_tasks: request.max_concurrent_tasks.value(),
        git_config: None,
    };
    Ok((patch, request.git_config.value()))
}
