//! `/api/workspaces`: list, create, detail, update. Stored secrets never leave the server.

use super::caller::Caller;
use super::state::AppState;
use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use crate::flows::prs::review::start_reviews;
use crate::store::workspaces::{
    self, name_taken, team_workspace, team_workspaces, NewWorkspace, WorkspacePatch,
};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use buildd_core::merge_policy::check_merge_policy;
use buildd_core::{AccessMode, Success, WorkspaceConfig, WorkspaceEnvelope, WorkspaceList};
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

/// `owner/name`, also accepted as a GitHub URL.
fn normalize_repo(key: &str, value: &str) -> ApiResult<String> {
    let trimmed = value
        .trim()
        .trim_start_matches("https://github.com/")
        .trim_end_matches(".git")
        .trim_end_matches('/');
    let mut parts = trimmed.split('/');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(owner), Some(name), None) if !owner.is_empty() && !name.is_empty() => {
            Ok(format!("{owner}/{name}"))
        }
        _ => Err(ApiError::bad(format!(
            "{key} must look like \"owner/name\" (got \"{value}\")"
        ))),
    }
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
    body: JsonObject,
) -> ApiResult<(StatusCode, Json<WorkspaceEnvelope>)> {
    caller.require_admin()?;
    let name = body.required_string("name", "name is required")?;
    let repo = match body.string("repo")?.value() {
        Some(r) if !r.trim().is_empty() => Some(normalize_repo("repo", &r)?),
        _ => None,
    };
    state
        .db
        .transact(caller.lane(), move |tx| {
            Box::pin(async move {
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
            })
        })
        .await
}

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: JsonObject,
) -> ApiResult<Json<Success>> {
    caller.require_admin()?;
    let (mut patch, git_config) = read_patch(&body)?;
    state
        .db
        .transact(caller.lane(), move |tx| {
            Box::pin(async move {
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
            })
        })
        .await
}

/// The change a PATCH body asks for, read field by field in the order refusals name them,
/// and the `gitConfig` keys it sets (merged over the stored ones once they are read).
fn read_patch(
    body: &JsonObject,
) -> ApiResult<(WorkspacePatch, Option<serde_json::Map<String, Value>>)> {
    let name = body.non_blank_string("name")?;
    let repo = match (body.string("repo")?, body.string("repoUrl")?) {
        (Field::Set(r), _) => Field::Set(normalize_repo("repo", &r)?),
        (_, Field::Set(r)) => Field::Set(normalize_repo("repoUrl", &r)?),
        (Field::Null, _) | (_, Field::Null) => Field::Null,
        _ => Field::Absent,
    };
    let branch = match (body.string("defaultBranch")?, body.string("localPath")?) {
        (Field::Absent, f) | (f, _) => f,
    };
    let access_mode = match body.string("accessMode")?.value() {
        Some(m) => Some(
            AccessMode::known(&m)
                .ok_or_else(|| ApiError::bad("accessMode must be \"open\" or \"restricted\""))?,
        ),
        None => None,
    };
    let data_class = match body.string("dataClass")?.value() {
        Some(d) if d == "standard" || d == "sensitive" => Some(d),
        Some(_) => {
            return Err(ApiError::bad(
                "dataClass must be \"standard\" or \"sensitive\"",
            ))
        }
        None => None,
    };
    let max_concurrent_tasks = match body.integer("maxConcurrentTasks")? {
        Field::Set(n) if n >= 1 => Some(n),
        Field::Absent => None,
        _ => return Err(ApiError::bad("maxConcurrentTasks must be an integer >= 1")),
    };
    let git_config = match body.object("gitConfig")? {
        Field::Null => return Err(ApiError::bad("gitConfig must be an object")),
        field => field.value(),
    };
    if let Some(config) = &git_config {
        check_git_config(config)?;
    }
    let patch = WorkspacePatch {
        name,
        repo: repo.patch(),
        local_path: branch.patch(),
        access_mode,
        data_class,
        max_concurrent_tasks,
        git_config: None,
    };
    Ok((patch, git_config))
}

/// A `gitConfig` patch: its switches (see [`check_git_switches`]) and its `mergePolicy`.
fn check_git_config(config: &serde_json::Map<String, Value>) -> ApiResult<()> {
    check_git_switches(config)?;
    match config.get("mergePolicy") {
        None | Some(Value::Null) => Ok(()),
        Some(policy) => check_merge_policy(policy)
            .map(|_| ())
            .map_err(|errors| ApiError::merge_policy("gitConfig.mergePolicy", &errors)),
    }
}

/// The switches of `gitConfig` are booleans and its paths strings, named when they are not.
fn check_git_switches(config: &serde_json::Map<String, Value>) -> ApiResult<()> {
    let flag = |v: Option<&Value>, name: &str| match v {
        None | Some(Value::Bool(_)) => Ok(()),
        Some(_) => Err(ApiError::bad(format!(
            "gitConfig.{name} must be true or false"
        ))),
    };
    flag(config.get("autoMergeOnGreenCI"), "autoMergeOnGreenCI")?;
    match config.get("policyConfig") {
        None => {}
        Some(Value::Object(p)) => flag(
            p.get("reviewerPatchEvidence"),
            "policyConfig.reviewerPatchEvidence",
        )?,
        Some(_) => return Err(ApiError::bad("gitConfig.policyConfig must be an object")),
    }
    for name in [
        "migrationsPath",
        "schemaFile",
        "targetBranch",
        "defaultBranch",
        "prodBranch",
    ] {
        if config
            .get(name)
            .is_some_and(|v| !v.is_string() && !v.is_null())
        {
            return Err(ApiError::bad(format!(
                "gitConfig.{name} must be a string or null"
            )));
        }
    }
    Ok(())
}
