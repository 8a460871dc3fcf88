//! `/api/workspaces`: list, create, detail, update. Stored secrets never leave the server.

use super::caller::Caller;
use super::state::AppState;
use crate::body::{Field, JsonObject};
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::flows::prs::review::start_reviews;
use crate::store::workspaces::{team_workspace, team_workspaces};
use crate::time::{new_id, now};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use buildd_core::merge_policy::validate_merge_policy;
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

async fn name_taken(tx: &mut Tx, team_id: &str, name: &str, except: &str) -> ApiResult<bool> {
    let (n,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM workspaces WHERE team_id = ? AND name = ? AND id != ?",
    )
    .bind(team_id)
    .bind(name)
    .bind(except)
    .fetch_one(&mut **tx)
    .await?;
    Ok(n > 0)
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
    let mut tx = state.db.write().await?;
    if name_taken(&mut tx, &caller.team_id, &name, "").await? {
        return Err(ApiError::Conflict(format!(
            "name: a workspace called \"{name}\" already exists"
        )));
    }
    let id = new_id();
    let at = now();
    sqlx::query(
        "INSERT INTO workspaces (id, team_id, name, repo, created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(&id)
    .bind(&caller.team_id)
    .bind(&name)
    .bind(&repo)
    .bind(&at)
    .bind(&at)
    .execute(&mut *tx)
    .await?;
    let row = team_workspace(&mut tx, &caller.team_id, &id).await?;
    tx.commit().await?;
    Ok((
        StatusCode::CREATED,
        Json(WorkspaceEnvelope {
            workspace: row.to_workspace(),
        }),
    ))
}

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: JsonObject,
) -> ApiResult<Json<Success>> {
    caller.require_admin()?;
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
    let max_concurrent = match body.integer("maxConcurrentTasks")? {
        Field::Set(n) if n >= 1 => Some(n),
        Field::Absent => None,
        _ => return Err(ApiError::bad("maxConcurrentTasks must be an integer >= 1")),
    };
    let git_config = body.object("gitConfig")?;
    if matches!(git_config, Field::Null) {
        return Err(ApiError::bad("gitConfig must be an object"));
    }
    if let Field::Set(config) = &git_config {
        check_git_switches(config)?;
        match config.get("mergePolicy") {
            None | Some(Value::Null) => {}
            Some(policy) => {
                validate_merge_policy(policy, "gitConfig.mergePolicy")
                    .map_err(|e| ApiError::bad(e.join("; ")))?;
            }
        }
    }

    let mut tx = state.db.write().await?;
    let row = team_workspace(&mut tx, &caller.team_id, &id).await?;
    if let Some(n) = &name {
        if name_taken(&mut tx, &caller.team_id, n, &id).await? {
            return Err(ApiError::Conflict(format!(
                "name: a workspace called \"{n}\" already exists"
            )));
        }
    }
    // gitConfig is merged key by key over what is stored.
    let merged_git_config = match git_config.value() {
        Some(patch) => {
            let mut current: serde_json::Map<String, Value> =
                serde_json::from_str(&row.git_config).unwrap_or_default();
            current.extend(patch);
            Some(Value::Object(current).to_string())
        }
        None => None,
    };
    sqlx::query(
        "UPDATE workspaces SET \
           name = COALESCE(?1, name), \
           repo = CASE WHEN ?2 THEN ?3 ELSE repo END, \
           local_path = CASE WHEN ?4 THEN ?5 ELSE local_path END, \
           access_mode = COALESCE(?6, access_mode), \
           data_class = COALESCE(?7, data_class), \
           max_concurrent_tasks = COALESCE(?8, max_concurrent_tasks), \
           git_config = COALESCE(?9, git_config), \
           updated_at = ?10 \
         WHERE id = ?11",
    )
    .bind(&name)
    .bind(!repo.is_absent())
    .bind(repo.value())
    .bind(!branch.is_absent())
    .bind(branch.value())
    .bind(access_mode.as_ref().map(AccessMode::as_str))
    .bind(&data_class)
    .bind(max_concurrent)
    .bind(&merged_git_config)
    .bind(now())
    .bind(&id)
    .execute(&mut *tx)
    .await?;
    if merged_git_config.is_some() {
        // Open PRs that the new default puts under agent-review get their reviewer.
        start_reviews(&mut tx, None, Some(&id)).await?;
    }
    tx.commit().await?;
    Ok(Json(Success { success: true }))
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
