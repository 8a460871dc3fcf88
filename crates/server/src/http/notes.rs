//! The mission feed: `GET`/`POST /api/missions/{id}/notes` and
//! `POST /api/missions/{id}/notes/{noteId}/reply`. A note or an answer from a person plans an
//! auto mission again.

use super::cache::{read_key, Lookup};
use super::caller::Caller;
use super::state::AppState;
use crate::body::{Body, Params};
use crate::db::work;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::flows::notes::post;
use crate::store::missions::find_mission;
use crate::store::notes::{feed, feed_position, find_note, team_notes, NewNote};
use crate::store::tasks::is_in_mission;
use crate::store::workers::find_worker;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use buildd_core::note::{MissionNote, NotesPage};
use buildd_core::requests::notes::{NewNote as NewNoteRequest, NoteReply};
use buildd_core::requests::queries::{NotesQuery, TeamNotesQuery};
use buildd_core::{AccountLevel, AuthorType, NoteKind, NoteStatus};

pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<NotesQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let limit = query.limit.unwrap_or(50);
    let kind = query.kind.as_ref();
    let mut tx = state.db.read().await?;
    // Found first: an ETag of another team's (or no) mission never answers 304.
    find_mission(&mut tx, &caller.team_id, &id).await?;
    let key = read_key(&caller.team_id, &format!("/missions/{id}/notes"), &query);
    let pending = match state.cache.lookup(&mut tx, key, &headers).await? {
        Lookup::Hit(response) => return Ok(response),
        Lookup::Miss(pending) => pending,
    };
    // Notes written in the same millisecond keep their order by rowid.
    let after = match &query.cursor {
        Some(c) => Some(
            feed_position(&mut tx, &id, c)
                .await?
                .ok_or_else(|| ApiError::bad("cursor must be the id of a note of this mission"))?,
        ),
        None => None,
    };
    let mut notes = feed(&mut tx, &id, kind, after.as_ref(), limit + 1).await?;
    let has_more = notes.len() as i64 > limit;
    notes.truncate(limit as usize);
    let next_cursor = has_more
        .then(|| notes.last().map(|n| n.id.clone()))
        .flatten();
    let page = NotesPage {
        notes,
        next_cursor,
        has_more,
    };
    state.cache.keep(pending, &page)
}

/// What a posted note says of itself, read and checked alike for a mission's feed and a
/// task's notes.
pub(super) struct NoteInput {
    kind: NoteKind,
    title: String,
    text: Option<String>,
    default_choice: Option<String>,
    options: Vec<String>,
    author: AuthorType,
    status: NoteStatus,
    worker_id: Option<String>,
}

/// Reads a note of one of `types`; a trigger key may not post.
pub(super) fn read_note(
    request: &NewNoteRequest,
    caller: &Caller,
    types: &[NoteKind],
) -> ApiResult<NoteInput> {
    if caller.level == AccountLevel::Trigger {
        return Err(ApiError::admin_required());
    }
    let kind = request.kind(types)?;
    let title = request.title()?;
    // Who wrote a note is the key's to say: only the server writes `system`, and only a
    // person's (admin) key writes `user`.
    let author = match &request.author_type {
        Some(AuthorType::User) if caller.level != AccountLevel::Admin => {
            return Err(ApiError::bad("authorType user needs an admin key"))
        }
        Some(a) => a.clone(),
        None if caller.level == AccountLevel::Admin => AuthorType::User,
        None => AuthorType::Agent,
    };
    Ok(NoteInput {
        status: request.status(&kind)?,
        kind,
        title,
        text: request.body_text.clone(),
        default_choice: request.default_choice.clone(),
        options: request.options.clone().value().unwrap_or_default(),
        author,
        worker_id: request.worker_id.clone(),
    })
}

impl NoteInput {
    /// A `workerId` must be a worker of the caller's team.
    pub(super) async fn check_worker(&self, tx: &mut Tx, caller: &Caller) -> ApiResult<()> {
        if let Some(w) = &self.worker_id {
            find_worker(tx, &caller.team_id, w)
                .await
                .map_err(|_| ApiError::NotFound("workerId: no such worker in this team"))?;
        }
        Ok(())
    }

    pub(super) fn as_new<'a>(
        &'a self,
        task_id: Option<String>,
        reply_to: Option<&'a str>,
    ) -> NewNote<'a> {
        NewNote {
            author: self.author.clone(),
            kind: self.kind.clone(),
            title: &self.title,
            body: self.text.clone(),
            status: self.status.clone(),
            reply_to,
            task_id,
            worker_id: self.worker_id.clone(),
            default_choice: self.default_choice.clone(),
            options: self.options.clone(),
            created_at: None,
        }
    }
}

/// `POST /api/missions/{id}/notes`: a person (admin key) or an agent (worker key) posts.
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(request): Body<NewNoteRequest>,
) -> ApiResult<(StatusCode, Json<MissionNote>)> {
    let input = read_note(&request, &caller, NoteKind::POSTABLE)?;
    let (task_id, reply_to) = (request.task_id, request.reply_to);

    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                find_mission(tx, &caller.team_id, &id).await?;
                if let Some(t) = &task_id {
                    if !is_in_mission(tx, t, &id).await? {
                        return Err(ApiError::bad("taskId must be a task of this mission"));
                    }
                }
                input.check_worker(tx, &caller).await?;
                if let Some(r) = &reply_to {
                    if find_note(tx, &id, r).await?.is_none() {
                        return Err(ApiError::bad("replyTo must be a note of this mission"));
                    }
                }
                let note = post(
                    tx,
                    &caller.team_id,
                    &id,
                    input.as_new(task_id, reply_to.as_deref()),
                )
                .await?;
                Ok((StatusCode::CREATED, Json(note)))
            }),
        )
        .await
}

/// `POST /api/missions/{id}/notes/{noteId}/reply`: a person answers.
pub async fn reply(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, note_id)): Path<(String, String)>,
    Body(request): Body<NoteReply>,
) -> ApiResult<(StatusCode, Json<MissionNote>)> {
    caller.require_admin()?;
    let title = request.title.unwrap_or_default().trim().to_string();
    let text = request.body_text;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                find_mission(tx, &caller.team_id, &id).await?;
                if find_note(tx, &id, &note_id).await?.is_none() {
                    return Err(ApiError::NotFound("Note not found"));
                }
                let new = NewNote {
                    body: text,
                    reply_to: Some(&note_id),
                    ..NewNote::new(
                        AuthorType::User,
                        NoteKind::Reply,
                        &title,
                        NoteStatus::Answered,
                    )
                };
                let note = post(tx, &caller.team_id, &id, new).await?;
                Ok((StatusCode::CREATED, Json(note)))
            }),
        )
        .await
}

/// `GET /api/notes[?status=&type=]`: the team's notes across missions, newest first (the
/// command center reads the open questions).
pub async fn team_list(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<TeamNotesQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (status, kind) = (query.status.as_ref(), query.kind.as_ref());
    let mut tx = state.db.read().await?;
    let key = read_key(&caller.team_id, "/notes", &query);
    let pending = match state.cache.lookup(&mut tx, key, &headers).await? {
        Lookup::Hit(response) => return Ok(response),
        Lookup::Miss(pending) => pending,
    };
    let notes = team_notes(&mut tx, &caller.team_id, status, kind).await?;
    let page = NotesPage {
        notes,
        next_cursor: None,
        has_more: false,
    };
    state.cache.keep(pending, &page)
}
