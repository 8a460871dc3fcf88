//! Deleting a task: who may, and what goes with it.

use crate::body::Params;
use crate::db::work;
use crate::error::{ApiError, ApiResult};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::tasks::{self, find_task};
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::requests::queries::ForceQuery;
use buildd_core::{AccountLevel, Success, TaskStatus};

/// `DELETE /api/tasks/{id}[?force=true]`: an admin key deletes any task of the team, a
/// worker key the tasks its account created. A task a worker is on needs `force=true`, and
/// then its worker goes with it (its runner's reports get 404). Tasks that depended on it
/// stop waiting for it.
pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<ForceQuery>,
) -> ApiResult<Json<Success>> {
    if caller.level == AccountLevel::Trigger {
        return Err(ApiError::admin_required());
    }
    let force = query.force()?;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let row = find_task(tx, &caller.team_id, &id).await?;
                if caller.level != AccountLevel::Admin
                    && row.created_by_account_id.as_deref() != Some(caller.account_id.as_str())
                {
                    return Err(ApiError::Forbidden(
                        "A worker key deletes only the tasks its account created".into(),
                    ));
                }
                let status = row.status();
                if !force && matches!(status, TaskStatus::Assigned | TaskStatus::InProgress) {
                    return Err(ApiError::bad(format!(
                "Cannot delete {status} tasks while a worker is on them. Wait for it to finish, or \
                 delete with force=true"
            )));
                }
                tasks::delete(tx, &caller.team_id, &id).await?;
                Ok(Json(Success { success: true }))
            }),
        )
        .await
}
