//! Mission notes: the feed of decisions, questions, warnings, suggestions, updates, replies
//! and guidance (`/api/missions/{id}/notes`).

use serde::{Deserialize, Serialize};

/// Types a note may be posted with.
pub const NOTE_TYPES: [&str; 7] = [
    "decision",
    "question",
    "warning",
    "suggestion",
    "update",
    "reply",
    "guidance",
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissionNote {
    pub id: String,
    pub mission_id: Option<String>,
    pub task_id: Option<String>,
    pub worker_id: Option<String>,
    /// `agent`, `user` or `system`.
    pub author_type: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub body: Option<String>,
    pub reply_to: Option<String>,
    pub default_choice: Option<String>,
    /// A question's choices.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// `open`, `answered` or `dismissed`.
    pub status: String,
    pub superseded_by_pr_number: Option<i64>,
    pub created_at: String,
}

/// `GET /api/missions/{id}/notes`: newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NotesPage {
    pub notes: Vec<MissionNote>,
    pub next_cursor: Option<String>,
    #[serde(default)]
    pub has_more: bool,
}
