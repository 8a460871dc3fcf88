//! Notes posted to a mission's feed (`POST /api/missions/{id}/notes`), to a task of no
//! mission (`POST /api/tasks/{id}/notes`), and a person's answer
//! (`POST /api/missions/{id}/notes/{noteId}/reply`).

use super::fields::strings;
use super::{FieldError, Patch, Request};
use crate::enums::{AuthorType, NoteKind, NoteStatus};
use serde::{Deserialize, Serialize};

/// A note as posted. Who wrote it is the key's to say (the server decides), except that a
/// person's key may post as the agent it speaks for.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewNote {
    #[serde(rename = "type", default)]
    pub kind: Option<NoteKind>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_text: Option<String>,
    /// `user` (a person's key only) or `agent`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author_type: Option<AuthorType>,
    /// `open`, `answered` or `dismissed`; a question starts open, anything else answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<NoteStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_choice: Option<String>,
    #[serde(
        default,
        deserialize_with = "strings",
        skip_serializing_if = "Patch::is_absent"
    )]
    pub options: Patch<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worker_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// The note this one answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<String>,
}

impl Request for NewNote {
    fn validate(&self) -> Result<(), FieldError> {
        required_title(&self.title)?;
        match &self.author_type {
            None | Some(AuthorType::User | AuthorType::Agent) => {}
            Some(_) => {
                return Err(FieldError::new(
                    "authorType",
                    "authorType must be agent or user",
                ))
            }
        }
        status_of(self.status.as_ref())?;
        Ok(())
    }
}

impl NewNote {
    /// A person's note of `kind`: it names the author, since Buildd stores what an API key
    /// posts as an agent's unless the body says `authorType: "user"`, and its organizer
    /// passes on only a person's words.
    pub fn by_person(kind: NoteKind, title: &str) -> Self {
        Self {
            kind: Some(kind),
            title: Some(title.into()),
            author_type: Some(AuthorType::User),
            ..Self::default()
        }
    }

    /// A person's answer to note `reply_to`, through the notes endpoint: Buildd's
    /// `…/{noteId}/reply` ignores `authorType`; both mark the question answered.
    pub fn reply(reply_to: &str, title: &str) -> Self {
        Self {
            reply_to: Some(reply_to.into()),
            ..Self::by_person(NoteKind::Reply, title)
        }
    }

    /// The type, one of `types`.
    pub fn kind(&self, types: &[NoteKind]) -> Result<NoteKind, FieldError> {
        match &self.kind {
            Some(t) if types.contains(t) => Ok(t.clone()),
            _ => Err(FieldError::new(
                "type",
                format!("Invalid type. Must be one of: {}", NoteKind::names(types)),
            )),
        }
    }

    pub fn title(&self) -> Result<String, FieldError> {
        required_title(&self.title)
    }

    /// The status it starts in.
    pub fn status(&self, kind: &NoteKind) -> Result<NoteStatus, FieldError> {
        Ok(match status_of(self.status.as_ref())? {
            Some(s) => s.clone(),
            None => kind.initial_status(),
        })
    }
}

/// `POST /api/missions/{id}/notes/{noteId}/reply`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NoteReply {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_text: Option<String>,
}

impl Request for NoteReply {
    fn validate(&self) -> Result<(), FieldError> {
        required_title(&self.title).map(|_| ())
    }
}

fn required_title(title: &Option<String>) -> Result<String, FieldError> {
    match title.as_deref().map(str::trim) {
        Some(t) if !t.is_empty() => Ok(t.to_string()),
        _ => Err(FieldError::new("title", "title is required")),
    }
}

/// `status`, when given, must be a known one.
pub(super) fn status_of(status: Option<&NoteStatus>) -> Result<Option<&NoteStatus>, FieldError> {
    match status {
        Some(NoteStatus::Other(_)) => Err(FieldError::new(
            "status",
            "status must be open, answered or dismissed",
        )),
        s => Ok(s),
    }
}
