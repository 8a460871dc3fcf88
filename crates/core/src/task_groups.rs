//! The sections a mission page lists its tasks in, derived from each task's status, its
//! latest worker and its dependencies.

use crate::dependencies::waiting_on;
use crate::enums::TaskStatus;
use crate::mission::MissionTask;
use crate::plan::plan_in_review;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TaskGroup {
    /// A completed planning run whose plan waits for a person.
    PlanInReview,
    /// A worker is on it.
    Running,
    /// Completed, PR open.
    AwaitingMerge,
    /// Ready to be claimed.
    Queued,
    /// Waits for a dependency that has not landed.
    Blocked,
    Failed,
    Done,
    Cancelled,
}

impl TaskGroup {
    pub const ALL: [TaskGroup; 8] = [
        Self::PlanInReview,
        Self::Running,
        Self::AwaitingMerge,
        Self::Queued,
        Self::Blocked,
        Self::Failed,
        Self::Done,
        Self::Cancelled,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Self::PlanInReview => "Plan in review",
            Self::Running => "Running",
            Self::AwaitingMerge => "Awaiting merge",
            Self::Queued => "Queued",
            Self::Blocked => "Waiting on dependencies",
            Self::Failed => "Failed",
            Self::Done => "Done",
            Self::Cancelled => "Cancelled",
        }
    }

    pub fn slug(self) -> &'static str {
        match self {
            Self::PlanInReview => "plan-in-review",
            Self::Running => "running",
            Self::AwaitingMerge => "awaiting-merge",
            Self::Queued => "queued",
            Self::Blocked => "blocked",
            Self::Failed => "failed",
            Self::Done => "done",
            Self::Cancelled => "cancelled",
        }
    }
}

/// Every task of a mission with its section.
pub fn group_tasks(tasks: &[MissionTask]) -> Vec<(TaskGroup, &MissionTask)> {
    let by_id: HashMap<&str, &MissionTask> = tasks.iter().map(|t| (t.id.as_str(), t)).collect();
    let in_review = plan_in_review(tasks).map(|t| t.id.as_str());
    tasks
        .iter()
        .map(|t| {
            let live = t.workers.iter().any(|w| w.status.is_live());
            let group = if Some(t.id.as_str()) == in_review {
                TaskGroup::PlanInReview
            } else if live {
                TaskGroup::Running
            } else {
                match t.status {
                    TaskStatus::Completed if t.workers.iter().any(|w| w.has_open_pr()) => {
                        TaskGroup::AwaitingMerge
                    }
                    TaskStatus::Completed => TaskGroup::Done,
                    TaskStatus::Failed => TaskGroup::Failed,
                    TaskStatus::Cancelled => TaskGroup::Cancelled,
                    _ => {
                        if !waiting_on(t, |id| by_id.get(id).copied()).is_empty() {
                            TaskGroup::Blocked
                        } else {
                            TaskGroup::Queued
                        }
                    }
                }
            };
            (group, t)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::{TaskMode, WorkerStatus};
    use crate::mission::WorkerSummary;
    use crate::test_support;

    fn task(id: &str, status: TaskStatus, deps: &[&str]) -> MissionTask {
        let mut t = test_support::task(id, status);
        t.depends_on = deps.iter().map(|d| d.to_string()).collect();
        t
    }

    fn worker(status: WorkerStatus, pr: bool) -> WorkerSummary {
        test_support::worker(status, pr.then_some("https://x/pull/1"), false)
    }

    #[test]
    fn tasks_fall_into_their_sections() {
        let mut running = task("running", TaskStatus::Assigned, &[]);
        running.workers.push(worker(WorkerStatus::Running, false));
        let mut open_pr = task("open", TaskStatus::Completed, &[]);
        open_pr.workers.push(worker(WorkerStatus::Completed, true));
        let tasks = vec![
            running,
            open_pr,
            task("done", TaskStatus::Completed, &[]),
            task("queued", TaskStatus::Pending, &["done"]),
            task("blocked", TaskStatus::Pending, &["open"]),
            task("failed", TaskStatus::Failed, &[]),
            task("cancelled", TaskStatus::Cancelled, &[]),
        ];
        let groups: Vec<(TaskGroup, &str)> = group_tasks(&tasks)
            .into_iter()
            .map(|(g, t)| (g, t.id.as_str()))
            .collect();
        assert_eq!(
            groups,
            vec![
                (TaskGroup::Running, "running"),
                (TaskGroup::AwaitingMerge, "open"),
                (TaskGroup::Done, "done"),
                (TaskGroup::Queued, "queued"),
                (TaskGroup::Blocked, "blocked"),
                (TaskGroup::Failed, "failed"),
                (TaskGroup::Cancelled, "cancelled"),
            ]
        );
    }

    #[test]
    fn a_plan_in_review_has_its_own_section() {
        let mut plan = task("plan", TaskStatus::Completed, &[]);
        plan.mode = TaskMode::Planning;
        let plan = crate::test_support::with_plan(plan);
        let groups = group_tasks(std::slice::from_ref(&plan));
        assert_eq!(groups[0].0, TaskGroup::PlanInReview);
    }
}
