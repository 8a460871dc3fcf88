//! The status changes a person may make to a mission, as the server's own rule allows
//! (`check_mission_transition`).

use buildd_core::lifecycle::check_mission_transition;
use buildd_core::MissionStatus;

/// The status changes offered from `from`: (button, test id, status sent, what it does).
pub fn offered(
    from: &MissionStatus,
) -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
    let mut actions = Vec::new();
    let to_active = check_mission_transition(from, &MissionStatus::Active).is_ok();
    match from {
        MissionStatus::Completed if to_active => actions.push((
            "Reopen",
            "reopen-mission",
            "active",
            "It becomes active again and plans its next step.",
        )),
        MissionStatus::Archived if to_active => actions.push((
            "Restore",
            "restore-mission",
            "active",
            "It becomes active again.",
        )),
        _ => {}
    }
    if *from != MissionStatus::Archived
        && check_mission_transition(from, &MissionStatus::Archived).is_ok()
    {
        actions.push((
            "Archive",
            "archive-mission",
            "archived",
            "It moves to Completed in the lists and nothing plans or runs; Restore brings it back.",
        ));
    }
    actions
}
