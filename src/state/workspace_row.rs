//! A workspace's row, from wherever the server serves it to an API key. Buildd answers
//! `GET /api/workspaces/{id}` only to a signed-in browser (a key gets 401 though it is
//! fine), while `GET /api/workspaces` accepts keys and carries the same row.

use crate::api::{self, ApiError, Connection};
use crate::state::capabilities::Offered;
use buildd_core::capabilities::Extra;
use buildd_core::Workspace;

/// Workspace `id`: the single read where the server offers it to keys, else (or when it
/// refuses the key) the row of the list. A key the list refuses too is reported as such.
pub async fn workspace_row(
    c: Connection,
    offered: Offered,
    id: String,
) -> Result<Workspace, ApiError> {
    if offered.has_untracked(Extra::WorkspaceReadByKey) {
        match api::workspace(&c, &id).await {
            Err(ApiError::Unauthorized(_)) => {}
            other => return other,
        }
    }
    api::workspaces(&c)
        .await?
        .workspaces
        .into_iter()
        .find(|w| w.id == id)
        .ok_or_else(|| ApiError::NotFound("Workspace not found".into()))
}
