//! `POST /api/tasks/{id}/notes`: a note on a task of no mission, as Buildd's MCP server posts
//! one when an agent's task has no feed to post to. A task of a mission sends it to the
//! mission's feed instead (409, as Buildd answers).

use crate::body::Body;
use crate::db::work;
use crate::error::{ApiError, ApiResult};
use crate::http::caller::Caller;
use crate::http::notes::read_note;
use crate::http::state::AppState;
use crate::store::notes::insert_note;
use crate::store::tasks::find_task;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use buildd_core::note::MissionNote;
use buildd_core::requests::notes::NewNote;
use buildd_core::NoteKind;

pub async fn create_note(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(request): Body<NewNote>,
) -> ApiResult<(StatusCode, Json<MissionNote>)> {
    let input = read_note(&request, &caller, NoteKind::AGENT)?;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let task = find_task(tx, &caller.team_id, &id).await?;
                if task.mission_id.is_some() {
                    return Err(ApiError::Conflict(
                        "Task is linked to a mission; post the note to its mission feed".into(),
                    ));
                }
                input.check_worker(tx, &caller).await?;
                let note =
                    insert_note(tx, &caller.team_id, None, input.as_new(Some(id), None)).await?;
                Ok((StatusCode::CREATED, Json(note)))
            }),
        )
        .await
}
