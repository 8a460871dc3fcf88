//! What a dormant mission's deliverables came to, in a line.

use buildd_core::client::ClientMission;
use buildd_core::{compute_progress, SegmentState};

/// What its deliverables came to, as the progress bar counts them: a completed task is done
/// once its PR merged (or it made none) and awaits merge while its PR is open.
pub fn outcome(mission: &ClientMission) -> String {
    let progress = compute_progress(&mission.status, &mission.tasks);
    let merged = progress
        .segments
        .iter()
        .filter(|s| s.state == SegmentState::Solid)
        .filter(|s| {
            mission
                .tasks
                .iter()
                .find(|t| t.id == s.task_id)
                .is_some_and(|t| t.workers.iter().any(|w| w.pr_url.is_some()))
        })
        .count();
    let open = progress.awaiting_merge;
    let done = progress.completed_tasks + open;
    let failed = progress.failed;
    format!("PRs: {merged} merged, {open} open · tasks: {done} completed, {failed} failed")
}
