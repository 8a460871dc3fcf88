//! Workspaces as stored, the team-scoped lookups, and their writes.

use super::json_text::json_or;
use crate::db::sql;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::time::{new_id, now};
use buildd_core::{AccessMode, DataClass, TaskWorkspace, Workspace};
use serde_json::Value;

#[derive(sqlx::FromRow, Clone, Debug)]
pub struct WorkspaceRow {
    pub id: String,
    pub team_id: String,
    pub name: String,
    pub repo: Option<String>,
    pub local_path: Option<String>,
    pub access_mode: String,
    #[sqlx(try_from = "String")]
    pub data_class: DataClass,
    pub max_concurrent_tasks: i64,
    pub git_config: String,
    pub config_status: String,
    pub last_migration_number: i64,
    pub created_at: String,
    pub updated_at: String,
}

pub const WORKSPACE_COLUMNS: &str = "ws.id, ws.team_id, ws.name, ws.repo, ws.local_path, \
    ws.access_mode, ws.data_class, ws.max_concurrent_tasks, ws.git_config, ws.config_status, \
    ws.last_migration_number, ws.created_at, ws.updated_at";

impl WorkspaceRow {
    pub fn to_workspace(&self) -> Workspace {
        Workspace {
            id: self.id.clone(),
            name: self.name.clone(),
            repo: self.repo.clone(),
            local_path: self.local_path.clone(),
            memory: Value::Object(Default::default()),
            projects: Value::Array(vec![]),
            github_repo_id: None,
            github_installation_id: None,
            access_mode: Some(self.access_mode.clone()),
            data_class: Some(self.data_class.clone()),
            max_concurrent_tasks: Some(self.max_concurrent_tasks),
            git_config: Some(json_or(
                Some(&self.git_config),
                Value::Object(Default::default()),
            )),
            config_status: Some(self.config_status.clone()),
            webhook_config: None,
            discord_config: None,
            slack_config: None,
            release_config: None,
            work_tracker_config: None,
            last_migration_number: self.last_migration_number,
            team_id: Some(self.team_id.clone()),
            created_at: Some(self.created_at.clone()),
            updated_at: Some(self.updated_at.clone()),
            runners: None,
            connected_accounts: None,
        }
    }

    pub fn to_task_workspace(&self) -> TaskWorkspace {
        TaskWorkspace {
            id: self.id.clone(),
            name: self.name.clone(),
            repo: self.repo.clone(),
        }
    }
}

/// The workspace `id` if it belongs to the caller's team.
pub async fn team_workspace(tx: &mut Tx, team_id: &str, id: &str) -> ApiResult<WorkspaceRow> {
    sql::query_as(&format!(
        "SELECT {WORKSPACE_COLUMNS} FROM workspaces ws WHERE ws.id = ? AND ws.team_id = ?"
    ))
    .bind(id)
    .bind(team_id)
    .fetch_optional(tx)
    .await?
    .ok_or(ApiError::NotFound("Workspace not found"))
}

/// The team's workspaces, by name.
pub async fn team_workspaces(tx: &mut Tx, team_id: &str) -> ApiResult<Vec<WorkspaceRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {WORKSPACE_COLUMNS} FROM workspaces ws WHERE ws.team_id = ? ORDER BY ws.name"
    ))
    .bind(team_id)
    .fetch_all(tx)
    .await?)
}

/// The `gitConfig` of workspace `id`, as stored (a JSON object).
pub async fn git_config(tx: &mut Tx, id: &str) -> ApiResult<String> {
    let (git_config,): (String,) = sql::query_as("SELECT git_config FROM workspaces WHERE id = ?")
        .bind(id)
        .fetch_one(tx)
        .await?;
    Ok(git_config)
}

/// Whether another workspace of the team than `except` is called `name`.
pub async fn name_taken(tx: &mut Tx, team_id: &str, name: &str, except: &str) -> ApiResult<bool> {
    let (n,): (i64,) =
        sql::query_as("SELECT COUNT(*) FROM workspaces WHERE team_id = ? AND name = ? AND id != ?")
            .bind(team_id)
            .bind(name)
            .bind(except)
            .fetch_one(tx)
            .await?;
    Ok(n > 0)
}

/// A workspace about to be written; the rest of its settings start at the schema's defaults.
#[derive(Clone, Debug)]
pub struct NewWorkspace {
    pub id: String,
    pub team_id: String,
    pub name: String,
    pub repo: Option<String>,
    pub local_path: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

impl NewWorkspace {
    /// Workspace `name` of `team_id`, with no repo, with a fresh id, created now.
    pub fn new(team_id: &str, name: impl Into<String>) -> Self {
        let at = now();
        Self {
            id: new_id(),
            team_id: team_id.to_string(),
            name: name.into(),
            repo: None,
            local_path: None,
            created_at: at.clone(),
            updated_at: at,
        }
    }
}

/// Writes `workspace`.
pub async fn insert(tx: &mut Tx, w: &NewWorkspace) -> ApiResult<()> {
    sql::query(
        "INSERT INTO workspaces (id, team_id, name, repo, local_path, created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&w.id)
    .bind(&w.team_id)
    .bind(&w.name)
    .bind(&w.repo)
    .bind(&w.local_path)
    .bind(&w.created_at)
    .bind(&w.updated_at)
    .execute(tx)
    .await?;
    Ok(())
}

/// What a person changes on a workspace; `None` leaves a field as it is, `Some(None)`
/// clears it.
#[derive(Default)]
pub struct WorkspacePatch {
    pub name: Option<String>,
    pub repo: Option<Option<String>>,
    pub local_path: Option<Option<String>>,
    pub access_mode: Option<AccessMode>,
    pub data_class: Option<DataClass>,
    pub max_concurrent_tasks: Option<i64>,
    /// The whole `gitConfig` object, as JSON.
    pub git_config: Option<String>,
}

/// Writes `patch` onto workspace `id`.
pub async fn update(tx: &mut Tx, id: &str, patch: &WorkspacePatch) -> ApiResult<()> {
    sql::query(
        "UPDATE workspaces SET \
           name = COALESCE(?1, name), \
           repo = CASE WHEN ?2 <> 0 THEN ?3 ELSE repo END, \
           local_path = CASE WHEN ?4 <> 0 THEN ?5 ELSE local_path END, \
           access_mode = COALESCE(?6, access_mode), \
           data_class = COALESCE(?7, data_class), \
           max_concurrent_tasks = COALESCE(?8, max_concurrent_tasks), \
           git_config = COALESCE(?9, git_config), \
           updated_at = ?10 \
         WHERE id = ?11",
    )
    .bind(&patch.name)
    .bind(patch.repo.is_some())
    .bind(patch.repo.clone().flatten())
    .bind(patch.local_path.is_some())
    .bind(patch.local_path.clone().flatten())
    .bind(patch.access_mode.as_ref().map(AccessMode::as_str))
    .bind(patch.data_class.as_ref().map(DataClass::as_str))
    .bind(patch.max_concurrent_tasks)
    .bind(&patch.git_config)
    .bind(now())
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}
