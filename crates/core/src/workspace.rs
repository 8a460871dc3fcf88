//! Workspace shapes. Secrets (webhook and bot tokens) are never part of them, and neither
//! are the accounts Buildd's `GET /api/workspaces` lists with each row (`accountWorkspaces`,
//! key hashes included): unknown fields are dropped on reading, so they are never kept.

use crate::merge_policy::MergePolicy;
use crate::DataClass;
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
    pub data_class: Option<DataClass>,
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

impl Workspace {
    /// The default merge policy its missions inherit (`gitConfig.mergePolicy`), when one is
    /// stored and reads as a policy.
    pub fn merge_policy(&self) -> Option<MergePolicy> {
        self.git_config
            .as_ref()?
            .get("mergePolicy")
            .and_then(|p| serde_json::from_value(p.clone()).ok())
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkspaceEnvelope {
    pub workspace: Workspace,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkspaceList {
    pub workspaces: Vec<Workspace>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A row of Buildd's `GET /api/workspaces` (capture 40), trimmed.
    fn buildd_row(git_config: Value) -> Value {
        json!({
            "id": "40000000-0000-4000-8000-000000000001", "name": "ref-workspace",
            "repo": "example-org/ref-repo", "localPath": null, "memory": {}, "projects": [],
            "githubRepoId": null, "githubInstallationId": null, "accessMode": "restricted",
            "dataClass": "standard", "maxConcurrentTasks": 3, "gitConfig": git_config,
            "configStatus": "unconfigured", "webhookConfig": null, "lastMigrationNumber": 0,
            "teamId": "10000000-0000-4000-8000-000000000001",
            "accountWorkspaces": [{"accountId": "a", "account": {
                "apiKey": "a0237b11f6c9d4441e7bf059973f29dd2b0f0059001151f8a8bb0c213d2b99e2",
                "apiKeyPrefix": "bld_545c90de", "level": "admin"}}]
        })
    }

    #[test]
    fn a_listed_row_keeps_no_account_or_key_hash() {
        let list: WorkspaceList =
            serde_json::from_value(json!({"workspaces": [buildd_row(Value::Null)]})).unwrap();
        assert_eq!(list.workspaces[0].name, "ref-workspace");
        let kept = serde_json::to_string(&list).unwrap();
        assert!(!kept.contains("apiKey"), "{kept}");
        assert!(!kept.contains("a0237b11"), "{kept}");
        assert!(!kept.contains("accountWorkspaces"), "{kept}");
    }

    #[test]
    fn the_default_policy_is_read_from_git_config() {
        let none: Workspace = serde_json::from_value(buildd_row(Value::Null)).unwrap();
        assert_eq!(none.merge_policy(), None);
        let human: Workspace =
            serde_json::from_value(buildd_row(json!({"mergePolicy": {"tier": "human"}}))).unwrap();
        assert_eq!(human.merge_policy().map(|p| p.tier), Some("human".into()));
        let junk: Workspace =
            serde_json::from_value(buildd_row(json!({"mergePolicy": "fast"}))).unwrap();
        assert_eq!(junk.merge_policy(), None);
    }
}
