//! Dependency blocking: when a task may start, and what it is waiting on. The server's
//! claim gate and the dashboard's "waiting on" use this one rule.

use crate::enums::TaskStatus;
use crate::mission::{MissionTask, WorkerSummary};

/// A dependency lets its dependents start once it is completed or cancelled, unless it
/// left a pull request that is still open (the dependents would build on unmerged work).
pub fn dependency_satisfied(status: &TaskStatus, has_open_pr: bool) -> bool {
    matches!(status, TaskStatus::Completed | TaskStatus::Cancelled) && !has_open_pr
}

/// Whether any of a task's workers left a PR that is neither merged nor closed.
pub fn has_open_pr(workers: &[WorkerSummary]) -> bool {
    workers.iter().any(WorkerSummary::has_open_pr)
}

/// A dependency that holds a task back.
#[derive(Clone, Debug, PartialEq)]
pub enum Blocker<'a> {
    /// A task of the mission that has not finished, failed, or left an open PR.
    Task(&'a MissionTask),
    /// An id that names no task of the mission: it never resolves.
    Missing(&'a str),
}

impl Blocker<'_> {
    /// How the dashboard names it: "Build the API", "Build the API (PR open)".
    pub fn label(&self) -> String {
        match self {
            Blocker::Missing(id) => format!("unknown task {}", &id[..id.len().min(8)]),
            Blocker::Task(t) => match t.status {
                TaskStatus::Failed => format!("{} (failed)", t.title),
                TaskStatus::Completed | TaskStatus::Cancelled => format!("{} (PR open)", t.title),
                _ => t.title.clone(),
            },
        }
    }
}

/// What `task` still waits for, in its `dependsOn` order; `find` looks a task of the mission
/// up by id. Empty once it may start, and for a task that has started or finished.
pub fn waiting_on<'a>(
    task: &'a MissionTask,
    find: impl Fn(&str) -> Option<&'a MissionTask>,
) -> Vec<Blocker<'a>> {
    if task.status != TaskStatus::Pending {
        return Vec::new();
    }
    task.depends_on
        .iter()
        .filter_map(|id| match find(id) {
            None => Some(Blocker::Missing(id)),
            Some(dep) if !dependency_satisfied(&dep.status, has_open_pr(&dep.workers)) => {
                Some(Blocker::Task(dep))
            }
            Some(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::WorkerStatus;
    use crate::test_support::task;

    fn pr_worker(merged: bool, lifecycle: Option<&str>) -> WorkerSummary {
        WorkerSummary {
            pr_last_checked_at: None,
            id: "w".into(),
            status: WorkerStatus::Completed,
            pr_url: Some("https://github.com/acme/web/pull/7".into()),
            merged_at: merged.then(|| "2026-11-29T10:00:00Z".into()),
            pr_number: Some(7),
            pr_lifecycle_status: lifecycle.map(Into::into),
            started_at: None,
            completed_at: None,
            current_action: None,
            waiting_for: None,
        }
    }

    #[test]
    fn only_completed_or_cancelled_without_an_open_pr_satisfies() {
        assert!(dependency_satisfied(&TaskStatus::Completed, false));
        assert!(dependency_satisfied(&TaskStatus::Cancelled, false));
        assert!(!dependency_satisfied(&TaskStatus::Completed, true));
        for s in [
            TaskStatus::Failed,
            TaskStatus::Pending,
            TaskStatus::Assigned,
            TaskStatus::InProgress,
        ] {
            assert!(!dependency_satisfied(&s, false), "{s:?}");
        }
    }

    #[test]
    fn open_prs_are_unmerged_and_not_closed() {
        assert!(has_open_pr(&[pr_worker(false, None)]));
        assert!(!has_open_pr(&[pr_worker(true, None)]));
        assert!(!has_open_pr(&[pr_worker(false, Some("closed"))]));
        assert!(has_open_pr(&[
            pr_worker(true, None),
            pr_worker(false, None)
        ]));
        assert!(!has_open_pr(&[]));
    }

    #[test]
    fn a_pending_task_waits_on_unfinished_failed_and_missing_dependencies() {
        let done = task("done", TaskStatus::Completed);
        let running = task("running", TaskStatus::Assigned);
        let failed = task("failed", TaskStatus::Failed);
        let mut merged_pr = task("merged", TaskStatus::Completed);
        merged_pr.workers = vec![pr_worker(true, None)];
        let mut open_pr = task("open", TaskStatus::Completed);
        open_pr.workers = vec![pr_worker(false, None)];
        let mut waiting = task("waiting", TaskStatus::Pending);
        waiting.depends_on = ["done", "running", "failed", "merged", "open", "gone"]
            .map(String::from)
            .to_vec();
        let tasks = [done, running, failed, merged_pr, open_pr, waiting.clone()];
        let ids: Vec<String> = waiting_on(&waiting, |id| tasks.iter().find(|t| t.id == id))
            .into_iter()
            .map(|b| match b {
                Blocker::Task(t) => t.id.clone(),
                Blocker::Missing(id) => format!("missing {id}"),
            })
            .collect();
        assert_eq!(ids, ["running", "failed", "open", "missing gone"]);
        let labels: Vec<String> = waiting_on(&waiting, |id| tasks.iter().find(|t| t.id == id))
            .iter()
            .map(Blocker::label)
            .collect();
        assert_eq!(
            labels,
            [
                "Task running",
                "Task failed (failed)",
                "Task open (PR open)",
                "unknown task gone"
            ]
        );
    }

    #[test]
    fn a_started_task_waits_on_nothing() {
        let dep = task("dep", TaskStatus::Pending);
        let mut started = task("started", TaskStatus::Assigned);
        started.depends_on = vec!["dep".into()];
        let tasks = [dep, started.clone()];
        assert!(waiting_on(&started, |id| tasks.iter().find(|t| t.id == id)).is_empty());
    }
}
