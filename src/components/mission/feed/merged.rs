//! The feed's notes as shown: the newest page's, then those kept from older pages.

use buildd_core::note::MissionNote;

/// The newest page's notes and, once older pages are read, those kept from them: newest
/// first, each note once, the newest copy of each (a question answered since shows so).
pub fn merged(newest: &[MissionNote], older: &[MissionNote]) -> Vec<MissionNote> {
    let mut shown = newest.to_vec();
    shown.extend(
        older
            .iter()
            .filter(|o| !newest.iter().any(|n| n.id == o.id))
            .cloned(),
    );
    shown
}
