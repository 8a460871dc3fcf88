//! Mission notes: the feed of decisions, questions, warnings, suggestions, updates, replies
//! and guidance (`/api/missions/{id}/notes`).

use crate::enums::{AuthorType, NoteKind, NoteStatus};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissionNote {
    pub id: String,
    pub mission_id: Option<String>,
    pub task_id: Option<String>,
    pub worker_id: Option<String>,
    pub author_type: AuthorType,
    #[serde(rename = "type")]
    pub kind: NoteKind,
    pub title: String,
    pub body: Option<String>,
    pub reply_to: Option<String>,
    pub default_choice: Option<String>,
    /// A question's choices.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    pub status: NoteStatus,
    pub superseded_by_pr_number: Option<i64>,
    pub created_at: String,
}

impl MissionNote {
    /// A question still waiting for a person's answer.
    pub fn is_open_question(&self) -> bool {
        self.kind == NoteKind::Question && self.status == NoteStatus::Open
    }
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
    use serde_json::json;

    #[test]
    fn a_note_reads_and_writes_its_kinds_as_buildd_spells_them() {
        let wire = json!({"id": "n1", "missionId": "m1", "taskId": null, "workerId": null,
            "authorType": "system", "type": "reviewer_escalated", "title": "PR #4",
            "body": null, "replyTo": null, "defaultChoice": null, "status": "open",
            "supersededByPrNumber": null, "createdAt": "2026-01-01T00:00:00Z"});
        let note: MissionNote = serde_json::from_value(wire.clone()).unwrap();
        assert_eq!(note.author_type, AuthorType::System);
        assert_eq!(note.kind, NoteKind::ReviewerEscalated);
        assert!(!note.is_open_question());
        assert_eq!(serde_json::to_value(&note).unwrap(), wire);
        let question = MissionNote {
            kind: NoteKind::Question,
            ..note.clone()
        };
        assert!(question.is_open_question());
        let answered = MissionNote {
            status: NoteStatus::Answered,
            ..question
        };
        assert!(!answered.is_open_question());
    }

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
