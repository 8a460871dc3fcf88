//! A mission's pull requests as its tasks tell them, for an API that lists no PRs
//! (Buildd's): each task's latest worker carries its PR's address, number and lifecycle.
//! Read-only: without the PR list there are no rails, checks or evaluation to act on.

use crate::mission::MissionTask;
use crate::PrLifecycle;

/// Where a PR stands, as Buildd's worker row records it (`prLifecycleStatus`, `mergedAt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskPrStage {
    Open,
    CiRunning,
    CiGreen,
    CiFailed,
    Conflict,
    Merged,
    Closed,
}

impl TaskPrStage {
    /// The stage a worker row records: merged once `mergedAt` is set, else its lifecycle.
    pub fn of(lifecycle: Option<&PrLifecycle>, merged: bool) -> Self {
        if merged {
            return Self::Merged;
        }
        match lifecycle {
            Some(PrLifecycle::CiRunning) => Self::CiRunning,
            Some(PrLifecycle::CiGreen) => Self::CiGreen,
            Some(PrLifecycle::CiFailed) => Self::CiFailed,
            Some(PrLifecycle::Conflict) => Self::Conflict,
            Some(PrLifecycle::Merged) => Self::Merged,
            Some(PrLifecycle::Closed) => Self::Closed,
            _ => Self::Open,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::CiRunning => "CI running",
            Self::CiGreen => "CI green",
            Self::CiFailed => "CI failing",
            Self::Conflict => "conflict",
            Self::Merged => "merged",
            Self::Closed => "closed",
        }
    }

    /// Still waiting to merge or close.
    pub fn is_open(self) -> bool {
        !matches!(self, Self::Merged | Self::Closed)
    }
}

/// One task's PR.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskPr {
    pub url: String,
    pub number: Option<i64>,
    pub task_id: String,
    pub task_title: String,
    pub stage: TaskPrStage,
}

/// The PRs of `tasks`' latest workers, open ones first, each address once (a retried task
/// may report the PR its earlier run opened).
pub fn prs_of_tasks(tasks: &[MissionTask]) -> Vec<TaskPr> {
    let mut prs: Vec<TaskPr> = Vec::new();
    for task in tasks {
        let Some(worker) = task.workers.first() else {
            continue;
        };
        let Some(url) = worker.pr_url.clone().filter(|u| !u.trim().is_empty()) else {
            continue;
        };
        if prs.iter().any(|p| p.url == url) {
            continue;
        }
        prs.push(TaskPr {
            number: worker.pr_number.or_else(|| number_in(&url)),
            url,
            task_id: task.id.clone(),
            task_title: task.title.clone(),
            stage: TaskPrStage::of(worker.pr_lifecycle().as_ref(), worker.merged_at.is_some()),
        });
    }
    // Stable: within open and within finished, the tasks' own order.
    prs.sort_by_key(|p| !p.stage.is_open());
    prs
}

/// The number at the end of a PR's address (`…/pull/42`).
fn number_in(url: &str) -> Option<i64> {
    url.trim_end_matches('/').rsplit('/').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::{TaskStatus, WorkerStatus};
    use crate::test_support::{task, worker};

    fn with_pr(id: &str, url: &str, lifecycle: Option<&str>, merged: bool) -> MissionTask {
        let mut t = task(id, TaskStatus::Completed);
        let mut w = worker(WorkerStatus::Completed, Some(url), merged);
        w.pr_lifecycle_status = lifecycle.map(str::to_string);
        t.workers = vec![w];
        t
    }

    #[test]
    fn each_tasks_pr_once_open_first_with_its_stage() {
        let tasks = [
            with_pr("a", "https://github.com/o/r/pull/7", None, true),
            task("b", TaskStatus::Pending),
            with_pr(
                "c",
                "https://github.com/o/r/pull/9",
                Some("ci_failed"),
                false,
            ),
            with_pr(
                "d",
                "https://github.com/o/r/pull/9",
                Some("ci_green"),
                false,
            ),
        ];
        let prs = prs_of_tasks(&tasks);
        let seen: Vec<_> = prs
            .iter()
            .map(|p| (p.task_id.as_str(), p.number, p.stage))
            .collect();
        assert_eq!(
            seen,
            vec![
                ("c", Some(9), TaskPrStage::CiFailed),
                ("a", Some(7), TaskPrStage::Merged),
            ]
        );
        assert_eq!(prs[0].task_title, "Task c");
    }

    #[test]
    fn the_reported_number_wins_and_an_odd_address_has_none() {
        let mut t = with_pr(
            "a",
            "https://git.example/review/abc",
            Some("pr_open"),
            false,
        );
        assert_eq!(prs_of_tasks(std::slice::from_ref(&t))[0].number, None);
        t.workers[0].pr_number = Some(12);
        let prs = prs_of_tasks(&[t]);
        assert_eq!(prs[0].number, Some(12));
        assert_eq!(prs[0].stage, TaskPrStage::Open);
        assert!(prs[0].stage.is_open());
    }
}
