//! What a mission's deliverables came to, as Close mission sums them up.

use crate::enums::MissionStatus;
use crate::mission::MissionTask;
use crate::progress::{compute_progress, SegmentState};

/// A mission's deliverables by outcome, as the progress bar counts them: a completed task is
/// done once its PR merged (or it made none) and awaits merge while its PR is open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Done deliverables that made a PR, now merged.
    pub merged_prs: u32,
    /// Completed deliverables whose PR is still open.
    pub open_prs: u32,
    /// Completed deliverables, done or awaiting merge.
    pub completed: u32,
    pub failed: u32,
}

impl Outcome {
    pub fn of(status: &MissionStatus, tasks: &[MissionTask]) -> Self {
        let progress = compute_progress(status, tasks);
        let made_a_pr = |id: &str| {
            tasks
                .iter()
                .find(|t| t.id == id)
                .is_some_and(|t| t.workers.iter().any(|w| w.pr_url.is_some()))
        };
        let merged_prs = progress
            .segments
            .iter()
            .filter(|s| s.state == SegmentState::Solid && made_a_pr(&s.task_id))
            .count();
        Self {
            merged_prs: u32::try_from(merged_prs).unwrap_or(u32::MAX),
            open_prs: progress.awaiting_merge,
            completed: progress.completed_tasks + progress.awaiting_merge,
            failed: progress.failed,
        }
    }

    /// "PRs: 2 merged, 1 open · tasks: 4 completed, 1 failed".
    pub fn text(&self) -> String {
        let Self {
            merged_prs,
            open_prs,
            completed,
            failed,
        } = self;
        format!("PRs: {merged_prs} merged, {open_prs} open · tasks: {completed} completed, {failed} failed")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::{TaskStatus, WorkerStatus};
    use crate::test_support::{task, worker};

    #[test]
    fn merged_prs_are_done_deliverables_that_made_one() {
        let with = |mut t: MissionTask, pr: Option<&str>, merged: bool| {
            t.workers.push(worker(WorkerStatus::Completed, pr, merged));
            t
        };
        let tasks = vec![
            with(
                task("a", TaskStatus::Completed),
                Some("https://g/pr/1"),
                true,
            ),
            with(
                task("b", TaskStatus::Completed),
                Some("https://g/pr/2"),
                false,
            ),
            with(task("c", TaskStatus::Completed), None, false),
            task("d", TaskStatus::Failed),
            task("e", TaskStatus::Pending),
        ];
        let outcome = Outcome::of(&MissionStatus::Active, &tasks);
        assert_eq!(
            outcome,
            Outcome {
                merged_prs: 1,
                open_prs: 1,
                completed: 3,
                failed: 1,
            }
        );
        assert_eq!(
            outcome.text(),
            "PRs: 1 merged, 1 open · tasks: 3 completed, 1 failed"
        );
    }

    #[test]
    fn no_tasks_come_to_nothing() {
        let outcome = Outcome::of(&MissionStatus::Active, &[]);
        assert_eq!(outcome, Outcome::default());
    }
}
