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

/// The types an agent posts (Buildd's `post_note` list), and all a task's own notes take.
pub const AGENT_NOTE_TYPES: [&str; 5] = ["decision", "question", "warning", "suggestion", "update"];

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

/// The feed as threads: each note that answers no other (or whose question is not loaded),
/// newest first as given, with the replies to it oldest first beneath it.
pub fn threads(notes: &[MissionNote]) -> Vec<(MissionNote, Vec<MissionNote>)> {
    let loaded = |id: &str| notes.iter().any(|n| n.id == id);
    let mut out: Vec<(MissionNote, Vec<MissionNote>)> = notes
        .iter()
        .filter(|n| n.reply_to.as_deref().is_none_or(|parent| !loaded(parent)))
        .map(|n| (n.clone(), Vec::new()))
        .collect();
    for reply in notes.iter().rev() {
        let Some(parent) = reply.reply_to.as_deref().filter(|p| loaded(p)) else {
            continue;
        };
        if let Some((_, replies)) = out.iter_mut().find(|(n, _)| n.id == parent) {
            replies.push(reply.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_thread_under_their_question_oldest_first() {
        let note = |id: &str, reply_to: Option<&str>, at: &str| MissionNote {
            id: id.into(),
            mission_id: None,
            task_id: None,
            worker_id: None,
            author_type: "agent".into(),
            kind: if reply_to.is_some() {
                "reply"
            } else {
                "question"
            }
            .into(),
            title: id.into(),
            body: None,
            reply_to: reply_to.map(str::to_string),
            default_choice: None,
            options: vec![],
            status: "open".into(),
            superseded_by_pr_number: None,
            created_at: at.into(),
        };
        // Newest first, as the API lists them; "r0" answers a question not loaded.
        let feed = [
            note("r2", Some("q"), "4"),
            note("other", None, "3"),
            note("r1", Some("q"), "2"),
            note("q", None, "1"),
            note("r0", Some("gone"), "0"),
        ];
        let shown: Vec<(String, Vec<String>)> = threads(&feed)
            .into_iter()
            .map(|(n, r)| (n.id, r.into_iter().map(|r| r.id).collect()))
            .collect();
        assert_eq!(
            shown,
            [
                ("other".to_string(), vec![]),
                ("q".to_string(), vec!["r1".to_string(), "r2".to_string()]),
                ("r0".to_string(), vec![]),
            ]
        );
    }
}
