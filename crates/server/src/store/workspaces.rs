//! Workspaces as stored, and the team-scoped lookups.

use super::json_text::json_or;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use buildd_core::{TaskWorkspace, Workspace};
use serde_json::Value;

#[derive(sqlx::FromRow, Clone, Debug)]
pub struct WorkspaceRow {
    pub id: String,
    pub team_id: String,
    pub name: String,
    pub repo: Option<String>,
    pub local_path: Option<String>,
    pub access_mode: String,
    pub data_class: String,
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
    sqlx::query_as(&format!(
        "SELECT {WORKSPACE_COLUMNS} FROM workspaces ws WHERE ws.id = ? AND ws.team_id = ?"
    ))
    .bind(id)
    .bind(team_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or(ApiError::NotFound("Workspace not found"))
}

/// The team's workspaces, by name.
pub async fn team_workspaces(tx: &mut Tx, team_id: &str) -> ApiResult<Vec<WorkspaceRow>> {
    Ok(sqlx::query_as(&format!(
        "SELECT {WORKSPACE_COLUMNS} FROM workspaces ws WHERE ws.team_id = ? ORDER BY ws.name"
    ))
    .bind(team_id)
    .fetch_all(&mut **tx)
    .await?)
}
