//! The mission feed's notes as stored: questions, decisions, warnings and their answers,
//! from a person, an agent or the server itself.

use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::{new_id, now};
use buildd_core::note::MissionNote;

#[derive(sqlx::FromRow)]
pub struct NoteRow {
    pub id: String,
    mission_id: Option<String>,
    task_id: Option<String>,
    worker_id: Option<String>,
    author_type: String,
    r#type: String,
    title: String,
    body: Option<String>,
    reply_to: Option<String>,
    default_choice: Option<String>,
    options: String,
    status: String,
    created_at: String,
}

pub const NOTE_COLUMNS: &str =
    "id, mission_id, task_id, worker_id, author_type, type, title, body, \
    reply_to, default_choice, options, status, created_at";

impl NoteRow {
    pub fn into_note(self) -> MissionNote {
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

pub async fn find_note(tx: &mut Tx, mission_id: &str, id: &str) -> ApiResult<Option<NoteRow>> {
    Ok(sqlx::query_as(&format!(
        "SELECT {NOTE_COLUMNS} FROM mission_notes WHERE id = ? AND mission_id = ?"
    ))
    .bind(id)
    .bind(mission_id)
    .fetch_optional(&mut **tx)
    .await?)
}

/// A note about to be written.
pub struct NewNote<'a> {
    pub author: &'a str,
    pub kind: &'a str,
    pub title: &'a str,
    pub body: Option<String>,
    pub status: &'a str,
    pub reply_to: Option<&'a str>,
    pub task_id: Option<String>,
    pub worker_id: Option<String>,
    pub default_choice: Option<String>,
    pub options: Vec<String>,
}

/// A note from the server itself on `mission_id`, e.g. a reviewer's verdict.
pub async fn system_note(
    tx: &mut Tx,
    team_id: &str,
    mission_id: &str,
    task_id: Option<&str>,
    kind: &str,
    title: &str,
    body: Option<String>,
) -> ApiResult<()> {
    let note = NewNote {
        author: "system",
        kind,
        title,
        body,
        status: "open",
        reply_to: None,
        task_id: task_id.map(str::to_string),
        worker_id: None,
        default_choice: None,
        options: vec![],
    };
    insert_note(tx, team_id, Some(mission_id), note)
        .await
        .map(|_| ())
}

/// Inserts a note (an answer marks its question answered) and returns it as stored.
/// Inserts a note on `mission_id`'s feed, or with none on a task of no mission.
pub async fn insert_note(
    tx: &mut Tx,
    team_id: &str,
    mission_id: Option<&str>,
    n: NewNote<'_>,
) -> ApiResult<MissionNote> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO mission_notes (id, team_id, mission_id, task_id, worker_id, author_type, type, \
         title, body, reply_to, default_choice, options, status, created_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&id)
    .bind(team_id)
    .bind(mission_id)
    .bind(&n.task_id)
    .bind(&n.worker_id)
    .bind(n.author)
    .bind(n.kind)
    .bind(n.title)
    .bind(&n.body)
    .bind(n.reply_to)
    .bind(&n.default_choice)
    .bind(serde_json::to_string(&n.options)?)
    .bind(n.status)
    .bind(now())
    .execute(&mut **tx)
    .await?;
    if let Some(parent) = n.reply_to {
        sqlx::query("UPDATE mission_notes SET status = 'answered' WHERE id = ?")
            .bind(parent)
            .execute(&mut **tx)
            .await?;
    }
    let row: NoteRow = sqlx::query_as(&format!(
        "SELECT {NOTE_COLUMNS} FROM mission_notes WHERE id = ?"
    ))
    .bind(&id)
    .fetch_one(&mut **tx)
    .await?;
    Ok(row.into_note())
}
