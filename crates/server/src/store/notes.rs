//! The mission feed's notes as stored: questions, decisions, warnings and their answers,
//! from a person, an agent or the server itself.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::{new_id, now};
use buildd_core::note::MissionNote;
use buildd_core::{AuthorType, NoteKind, NoteStatus};

#[derive(sqlx::FromRow)]
struct NoteRow {
    id: String,
    mission_id: Option<String>,
    task_id: Option<String>,
    worker_id: Option<String>,
    #[sqlx(try_from = "String")]
    author_type: AuthorType,
    #[sqlx(try_from = "String")]
    r#type: NoteKind,
    title: String,
    body: Option<String>,
    reply_to: Option<String>,
    default_choice: Option<String>,
    options: String,
    #[sqlx(try_from = "String")]
    status: NoteStatus,
    created_at: String,
}

const NOTE_COLUMNS: &str = "id, mission_id, task_id, worker_id, author_type, type, title, body, \
    reply_to, default_choice, options, status, created_at";

impl NoteRow {
    fn into_note(self) -> MissionNote {
        MissionNote {
            id: self.id,
            mission_id: self.mission_id,
            task_id: self.task_id,
            worker_id: self.worker_id,
            author_type: self.author_type,
            kind: self.r#type,
            title: self.title,
            body: self.body,
            reply_to: self.reply_to,
            default_choice: self.default_choice,
            options: serde_json::from_str(&self.options).unwrap_or_default(),
            status: self.status,
            superseded_by_pr_number: None,
            created_at: self.created_at,
        }
    }
}

/// The note `id` of mission `mission_id`'s feed.
pub async fn find_note(tx: &mut Tx, mission_id: &str, id: &str) -> ApiResult<Option<MissionNote>> {
    let row: Option<NoteRow> = sql::query_as(&format!(
        "SELECT {NOTE_COLUMNS} FROM mission_notes WHERE id = ? AND mission_id = ?"
    ))
    .bind(id)
    .bind(mission_id)
    .fetch_optional(tx)
    .await?;
    Ok(row.map(NoteRow::into_note))
}

/// Where note `id` stands in mission `mission_id`'s feed: when it was written, and its rowid
/// (notes of the same millisecond keep their order by it).
pub async fn feed_position(
    tx: &mut Tx,
    mission_id: &str,
    id: &str,
) -> ApiResult<Option<(String, i64)>> {
    Ok(
        sql::query_as(
            "SELECT created_at, rowid FROM mission_notes WHERE id = ? AND mission_id = ?",
        )
        .bind(id)
        .bind(mission_id)
        .fetch_optional(tx)
        .await?,
    )
}

/// Up to `limit` notes of mission `mission_id`'s feed, of `kind` when given, newest first,
/// from just after `after` (a [`feed_position`]) when given.
pub async fn feed(
    tx: &mut Tx,
    mission_id: &str,
    kind: Option<&NoteKind>,
    after: Option<&(String, i64)>,
    limit: i64,
) -> ApiResult<Vec<MissionNote>> {
    let rows: Vec<NoteRow> = sql::query_as(&format!(
        "SELECT {NOTE_COLUMNS} FROM mission_notes WHERE mission_id = ?1 \
         AND (?2 IS NULL OR type = ?2) \
         AND (?3 IS NULL OR created_at < ?3 OR (created_at = ?3 AND rowid < ?4)) \
         ORDER BY created_at DESC, rowid DESC LIMIT ?5"
    ))
    .bind(mission_id)
    .bind(kind.map(NoteKind::as_str))
    .bind(after.map(|a| a.0.clone()))
    .bind(after.map(|a| a.1))
    .bind(limit)
    .fetch_all(tx)
    .await?;
    Ok(rows.into_iter().map(NoteRow::into_note).collect())
}

/// The team's newest 100 notes across missions, of `status` and `kind` when given.
pub async fn team_notes(
    tx: &mut Tx,
    team_id: &str,
    status: Option<&NoteStatus>,
    kind: Option<&NoteKind>,
) -> ApiResult<Vec<MissionNote>> {
    let rows: Vec<NoteRow> = sql::query_as(&format!(
        "SELECT {NOTE_COLUMNS} FROM mission_notes WHERE team_id = ?1 \
         AND (?2 IS NULL OR status = ?2) AND (?3 IS NULL OR type = ?3) \
         ORDER BY created_at DESC, rowid DESC LIMIT 100"
    ))
    .bind(team_id)
    .bind(status.map(NoteStatus::as_str))
    .bind(kind.map(NoteKind::as_str))
    .fetch_all(tx)
    .await?;
    Ok(rows.into_iter().map(NoteRow::into_note).collect())
}

/// Whether the server already said `title` on mission `mission_id`'s feed about task
/// `task_id`.
pub async fn system_note_exists(
    tx: &mut Tx,
    mission_id: &str,
    task_id: &str,
    title: &str,
) -> ApiResult<bool> {
    let (said,): (i64,) = sql::query_as(
        "SELECT COUNT(*) FROM mission_notes WHERE mission_id = ? AND task_id = ? \
         AND author_type = 'system' AND title = ?",
    )
    .bind(mission_id)
    .bind(task_id)
    .bind(title)
    .fetch_one(tx)
    .await?;
    Ok(said > 0)
}

/// A note about to be written.
pub struct NewNote<'a> {
    pub author: AuthorType,
    pub kind: NoteKind,
    pub title: &'a str,
    pub body: Option<String>,
    pub status: NoteStatus,
    pub reply_to: Option<&'a str>,
    pub task_id: Option<String>,
    pub worker_id: Option<String>,
    pub default_choice: Option<String>,
    pub options: Vec<String>,
    /// When it was written; `None` is now.
    pub created_at: Option<String>,
}

impl<'a> NewNote<'a> {
    /// A note of `kind` by `author`, with no body, task, worker or choices, written now.
    pub fn new(author: AuthorType, kind: NoteKind, title: &'a str, status: NoteStatus) -> Self {
        Self {
            author,
            kind,
            title,
            body: None,
            status,
            reply_to: None,
            task_id: None,
            worker_id: None,
            default_choice: None,
            options: vec![],
            created_at: None,
        }
    }
}

/// A note from the server itself on `mission_id`, e.g. a reviewer's verdict.
pub async fn system_note(
    tx: &mut Tx,
    team_id: &str,
    mission_id: &str,
    task_id: Option<&str>,
    kind: NoteKind,
    title: &str,
    body: Option<String>,
) -> ApiResult<()> {
    let note = NewNote {
        body,
        task_id: task_id.map(str::to_string),
        ..NewNote::new(AuthorType::System, kind, title, NoteStatus::Open)
    };
    insert_note(tx, team_id, Some(mission_id), note)
        .await
        .map(|_| ())
}

/// Inserts a note on `mission_id`'s feed, or with none on a task of no mission (an answer
/// marks its question answered), and returns it as stored.
pub async fn insert_note(
    tx: &mut Tx,
    team_id: &str,
    mission_id: Option<&str>,
    n: NewNote<'_>,
) -> ApiResult<MissionNote> {
    let id = new_id();
    sql::query(
        "INSERT INTO mission_notes (id, team_id, mission_id, task_id, worker_id, author_type, type, \
         title, body, reply_to, default_choice, options, status, created_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&id)
    .bind(team_id)
    .bind(mission_id)
    .bind(&n.task_id)
    .bind(&n.worker_id)
    .bind(n.author.as_str())
    .bind(n.kind.as_str())
    .bind(n.title)
    .bind(&n.body)
    .bind(n.reply_to)
    .bind(&n.default_choice)
    .bind(serde_json::to_string(&n.options)?)
    .bind(n.status.as_str())
    .bind(n.created_at.unwrap_or_else(now))
    .execute(tx)
    .await?;
    if let Some(parent) = n.reply_to {
        sql::query("UPDATE mission_notes SET status = 'answered' WHERE id = ?")
            .bind(parent)
            .execute(tx)
            .await?;
    }
    let row: NoteRow = sql::query_as(&format!(
        "SELECT {NOTE_COLUMNS} FROM mission_notes WHERE id = ?"
    ))
    .bind(&id)
    .fetch_one(tx)
    .await?;
    Ok(row.into_note())
}
