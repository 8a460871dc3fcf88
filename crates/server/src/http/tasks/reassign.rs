//! `POST /api/tasks/{id}/reassign[?force=true]`: Buildd's runner takes a task over with it
//! (its local UI's "take over": reassign, then claim). Scoped to the caller's team, unlike
//! Buildd's, which finds any team's task by id.

use crate::body::Params;
use crate::db::work;
use crate::error::{ApiError, ApiResult};
use crate::flows::reassign::{self, Asker, Reassign};
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::tasks::find_task_held;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use buildd_core::requests::queries::ForceQuery;
use buildd_core::AccountLevel;
use serde_json::{json, Value};

pub async fn reassign(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<ForceQuery>,
) -> ApiResult<Json<Value>> {
    if caller.level == AccountLevel::Trigger {
        return Err(ApiError::Forbidden(
            "Reassigning needs a worker or admin key".into(),
        ));
    }
    let force = query.force()?;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                // The task's turn before it is read: a report or a lease's expiry through
                // another server lands wholly before or after the decision.
                let task = find_task_held(tx, &caller.team_id, &id).await?;
                let asker = Asker {
                    admin: caller.level == AccountLevel::Admin,
                    account_id: &caller.account_id,
                };
                let outcome =
                    reassign::reassign(tx, &task, force, asker, chrono::Utc::now()).await?;
                let status = task.status;
                match outcome {
                    Reassign::Queued { was_assigned } => Ok(Json(json!({
                        "reassigned": true,
                        "taskId": id,
                        "wasAssigned": was_assigned,
                    }))),
                    Reassign::Declined {
                        reason,
                        is_stale,
                        can_take_over,
                    } => Ok(Json(json!({
                        "reassigned": false,
                        "reason": reason,
                        "status": status,
                        "isStale": is_stale,
                        "canTakeover": can_take_over,
                    }))),
                    Reassign::Forbidden { reason, is_stale } => Err(ApiError::Detailed(
                        StatusCode::FORBIDDEN,
                        json!({
                            "error": reason,
                            "reassigned": false,
                            "reason": reason,
                            "status": status,
                            "isStale": is_stale,
                        }),
                    )),
                }
            }),
        )
        .await
}
