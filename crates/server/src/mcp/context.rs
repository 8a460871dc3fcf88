//! Who is calling and from where: the key's API view and level, and the worker and
//! workspace the connection's URL names (`/api/mcp?workspace=…&worker=…`, as Buildd's
//! runner connects its agents).

use super::api::Api;
use super::reply::{segment, Reply};
use buildd_core::AccountLevel;
use serde_json::Value;

pub struct Context {
    pub api: Api,
    pub level: AccountLevel,
    pub worker_id: Option<String>,
    pub workspace_id: Option<String>,
}

impl Context {
    /// The worker an action reports for: the one named in params, else the connection's.
    pub fn worker_id(&self, param: Option<&str>) -> Result<String, Reply> {
        param
            .map(str::to_string)
            .or_else(|| self.worker_id.clone())
            .ok_or_else(|| {
                Reply::error(
                    "Error: workerId is required — pass it, or connect with ?worker=<id> (the \
                     worker ID claim_task returned)",
                )
            })
    }

    /// A workspace named by id, name or repo (`acme/web` or `web`); else the connection's;
    /// else the team's only workspace. `None` when the team has several and none was named.
    pub async fn workspace_id(&self, param: Option<&str>) -> Result<Option<String>, Reply> {
        let wanted = match param.or(self.workspace_id.as_deref()) {
            Some(wanted) => wanted,
            None => {
                let listed = self.api.get("/api/workspaces").await?;
                let all = listed["workspaces"].as_array().cloned().unwrap_or_default();
                return Ok(match all.as_slice() {
                    [only] => only["id"].as_str().map(str::to_string),
                    _ => None,
                });
            }
        };
        let listed = self.api.get("/api/workspaces").await?;
        let lower = wanted.to_lowercase();
        let found = listed["workspaces"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|w| {
                let name = w["name"].as_str().unwrap_or("").to_lowercase();
                let repo = w["repo"].as_str().unwrap_or("").to_lowercase();
                w["id"].as_str() == Some(wanted)
                    || name == lower
                    || repo == lower
                    || repo.ends_with(&format!("/{lower}"))
            })
            .and_then(|w| w["id"].as_str());
        match found {
            Some(id) => Ok(Some(id.to_string())),
            None => Err(Reply::error(format!(
                "Error: Workspace not found: {wanted}"
            ))),
        }
    }

    /// The connection's worker as the API answers it, when there is one and it is readable.
    pub async fn own_worker(&self) -> Option<Value> {
        let id = self.worker_id.as_deref()?;
        self.api
            .get(&format!("/api/workers/{}", segment(id)))
            .await
            .ok()
    }
}
