//! What a dormant mission's deliverables came to, in a line.

use buildd_core::client::ClientMission;
use buildd_core::completion::Outcome;

/// buildd-core's count of merged and open PRs and completed and failed tasks.
pub fn outcome(mission: &ClientMission) -> String {
    Outcome::of(&mission.status, &mission.tasks).text()
}
