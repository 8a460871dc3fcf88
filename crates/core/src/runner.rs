//! What Buildd's own clients — its runner and its MCP server — read besides the claim and
//! the worker row: the key's account, a runner's heartbeat, one worker with its task, a PR
//! opened through `POST /api/github/pr`, and a workspace's git configuration.

use crate::enums::AccountLevel;
use crate::task::Task;
use crate::worker::Worker;
use crate::workspace::Workspace;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `GET /api/accounts/me`: the MCP server offers the toolset of `level`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountMe {
    pub id: String,
    pub name: String,
    /// Buildd's account kind: `user`, `service` or `action`.
    #[serde(rename = "type")]
    pub kind: String,
    pub level: AccountLevel,
    /// `api` for API keys, `oauth` for Buildd's OAuth logins.
    pub auth_type: String,
    pub max_concurrent_workers: i64,
    /// Not in Buildd's answer, though its MCP server reads it.
    pub team_id: Option<String>,
}

/// `POST /api/workers/heartbeat`: a runner that hears of claimable work claims at once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HeartbeatAnswer {
    pub ok: bool,
    pub pending_task_count: u64,
}

/// `GET /api/workers/{id}`: the worker row with its task (null once the task is deleted)
/// and its workspace. A runner reconciling its work reads `status` and `task.status`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerDetail {
    #[serde(flatten)]
    pub worker: Worker,
    pub task: Option<Task>,
    pub workspace: Option<Workspace>,
}

/// The PR of `POST /api/github/pr`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpenedPr {
    pub number: Option<i64>,
    pub url: Option<String>,
    pub state: String,
    pub title: Option<String>,
}

/// `POST /api/github/pr`: `deduplicated` when the worker already had its PR.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrOpened {
    pub ok: bool,
    pub pr: OpenedPr,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deduplicated: Option<bool>,
}

/// `GET /api/workspaces/{id}/config`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceConfig {
    pub git_config: Option<Value>,
    pub config_status: Option<String>,
}
