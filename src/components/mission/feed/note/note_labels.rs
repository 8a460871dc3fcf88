//! How a note's type and author read on its head.

use buildd_core::note::MissionNote;
use buildd_core::{AuthorType, NoteKind};

/// The note's type as a chip; a reviewer's verdict reads as one ("REVIEWER: ESCALATED").
/// A type this version does not know shows as sent.
pub fn kind_label(kind: &NoteKind) -> String {
    match kind {
        NoteKind::Other(other) => other.to_uppercase(),
        known => known.label().to_uppercase(),
    }
}

pub fn author(note: &MissionNote) -> &'static str {
    match note.author_type {
        AuthorType::User => "You",
        AuthorType::System => "System",
        _ => "Agent",
    }
}
