//! Workspace shapes. Secrets (webhook and bot tokens) are never part of them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A workspace row as `GET /api/workspaces[/{id}]` returns it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Workspace {
    pub id: String,
    pub name: String,
    pub repo: Option<String>,
    /// Buildd reuses this column for the default branch.
    pub local_path: Option<String>,
    #[serde(default)]
    pub memory: Value,
    #[serde(default)]
    pub projects: Value,
    pub github_repo_id: Option<Value>,
    pub github_installation_id: Option<Value>,
    pub access_mode: Option<String>,
    pub data_class: Option<String>,
    pub max_concurrent_tasks: Option<i64>,
    pub git_config: Option<Value>,
    pub config_status: Option<String>,
    /// Held secrets (webhook and bot tokens) are never returned: these read as null.
    pub webhook_config: Option<Value>,
    pub discord_config: Option<Value>,
    pub slack_config: Option<Value>,
    pub release_config: Option<Value>,
    pub work_tracker_config: Option<Value>,
    #[serde(default)]
    pub last_migration_number: i64,
    pub team_id: Option<String>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
    /// Buildd's list: which kinds of account may run its tasks (`user`, `service`, `action`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runners: Option<Value>,
    /// Buildd's list: the member accounts, by name and kind (never their keys).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connected_accounts: Option<Vec<ConnectedAccount>>,
}

/// A member account of a workspace, as Buildd's list names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectedAccount {
    pub account_id: String,
    pub account_name: String,
    pub account_type: String,
    pub can_claim: bool,
    pub can_create: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkspaceEnvelope {
    pub workspace: Workspace,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkspaceList {
    pub workspaces: Vec<Workspace>,
}
