//! How a note's type and author read on its head.

use buildd_core::note::MissionNote;

/// The note's type as a chip; a reviewer's verdict reads as one.
pub fn kind_label(kind: &str) -> String {
    match kind {
        "reviewer_approved" => "REVIEWER: APPROVED".into(),
        "reviewer_request_changes" => "REVIEWER: CHANGES REQUESTED".into(),
        "reviewer_escalated" => "REVIEWER: ESCALATED".into(),
        other => other.to_uppercase(),
    }
}

pub fn author(note: &MissionNote) -> &'static str {
    match note.author_type.as_str() {
        "user" => "You",
        "system" => "System",
        _ => "Agent",
    }
}
