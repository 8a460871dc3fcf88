//! `POST /api/workers/{id}/respond {message}`: a person answers an agent waiting on a
//! question (`flows::answers`). Buildd takes it only from a browser session or the
//! worker's own key; here a person's (admin) key answers any of the team's agents.

use crate::body::Body;
use crate::db::work;
use crate::error::{ApiError, ApiResult};
use crate::flows::answers::answer;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::workers::find_worker;
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::requests::workers::Respond;
use buildd_core::waiting::Responded;
use buildd_core::AccountLevel;

pub async fn respond(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(request): Body<Respond>,
) -> ApiResult<Json<Responded>> {
    let message = request.message()?;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let worker = find_worker(tx, &caller.team_id, &id).await?;
                let own = worker.account_id.as_deref() == Some(caller.account_id.as_str());
                if caller.level != AccountLevel::Admin && !own {
                    return Err(ApiError::Forbidden("Forbidden".into()));
                }
                let answered = answer(tx, &caller.team_id, &worker, message, &caller.name).await?;
                Ok(Json(answered))
            }),
        )
        .await
}
