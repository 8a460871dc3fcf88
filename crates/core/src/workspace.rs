//! Workspace shapes. Secrets (webhook and bot tokens) are never part of them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A workspace row as `GET /api/workspaces[/{id}]` returns it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Workspace {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub repo: Option<String>,
    /// Buildd reuses this column for the default branch.
    #[serde(default)]
    pub local_path: Option<String>,
    #[serde(default)]
    pub memory: Value,
    #[serde(default)]
    pub projects: Value,
    #[serde(default)]
    pub github_repo_id: Option<Value>,
    #[serde(default)]
    pub github_installation_id: Option<Value>,
    #[serde(default)]
    pub access_mode: Option<String>,
    #[serde(default)]
    pub data_class: Option<String>,
    #[serde(default)]
    pub max_concurrent_tasks: Option<i64>,
    #[serde(default)]
    pub git_config: Option<Value>,
    #[serde(default)]
    pub config_status: Option<String>,
    /// Held secrets (webhook and bot tokens) are never returned: these read as null.
    #[serde(default)]
    pub webhook_config: Option<Value>,
    #[serde(default)]
    pub discord_config: Option<Value>,
    #[serde(default)]
    pub slack_config: Option<Value>,
    #[serde(default)]
    pub release_config: Option<Value>,
    #[serde(default)]
    pub work_tracker_config: Option<Value>,
    #[serde(default)]
    pub last_migration_number: i64,
    #[serde(default)]
    pub team_id: Option<String>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkspaceEnvelope {
    pub workspace: Workspace,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkspaceList {
    pub workspaces: Vec<Workspace>,
}
