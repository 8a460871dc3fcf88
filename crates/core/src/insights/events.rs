//! A mission's tasks as its pictures read them: when each was filed, claimed and finished,
//! its PR's opening and merge, its class, plan and cost. The server sends these rows from one
//! query; a hosted Buildd's mission detail gives them through [`TaskEvents::of`]. Attempts
//! fold into the task they retried and only deliverables count, by progress's own rules, so
//! a burn-up ends where the progress bar stands.

use crate::enums::{TaskClass, TaskMode, TaskStatus};
use crate::mission::MissionTask;
use crate::progress::effective_class;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One task of a mission, with the times its pictures need.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskEvents {
    pub id: String,
    pub title: String,
    /// As `progress::effective_class` gives it.
    pub class: TaskClass,
    #[serde(default = "execution")]
    pub mode: TaskMode,
    pub status: TaskStatus,
    /// The planning task that filed it, or for an attempt the task it retries.
    #[serde(default)]
    pub parent_task_id: Option<String>,
    #[serde(default)]
    pub depends_on: Vec<String>,
    /// Filed (queued).
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub claimed_at: Option<String>,
    /// When it completed, failed or was cancelled.
    #[serde(default)]
    pub finished_at: Option<String>,
    /// A worker is on it now.
    #[serde(default)]
    pub live: bool,
    #[serde(default)]
    pub pr: Option<PrEvents>,
    /// What its workers cost, a decimal string.
    #[serde(default)]
    pub cost_usd: Option<String>,
}

/// A task's pull request: its number and when it opened and merged, where known.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrEvents {
    #[serde(default)]
    pub number: Option<i64>,
    #[serde(default)]
    pub opened_at: Option<String>,
    #[serde(default)]
    pub merged_at: Option<String>,
}

fn execution() -> TaskMode {
    TaskMode::Execution
}

impl TaskEvents {
    /// The row of a mission answer's task (Buildd's or this server's): claimed when its
    /// first worker started, finished when its last one completed (else when the task last
    /// changed), its PR the merged one if any, else the latest. The PR's opening is unknown.
    pub fn of(task: &MissionTask) -> TaskEvents {
        let earliest = |f: fn(&crate::mission::WorkerSummary) -> Option<&String>| {
            task.workers.iter().filter_map(f).min().cloned()
        };
        let finished_at = task.status.is_terminal().then(|| {
            task.workers
                .iter()
                .filter_map(|w| w.completed_at.as_ref())
                .max()
                .or(task.updated_at.as_ref())
                .cloned()
        });
        let with_pr = task.workers.iter().filter(|w| w.pr_url.is_some());
        let pr = with_pr
            .clone()
            .find(|w| w.merged_at.is_some())
            .or(with_pr.clone().next_back())
            .map(|w| PrEvents {
                number: w.pr_number,
                opened_at: None,
                merged_at: w.merged_at.clone(),
            });
        TaskEvents {
            id: task.id.clone(),
            title: task.title.clone(),
            class: effective_class(task),
            mode: task.mode.clone(),
            status: task.status.clone(),
            parent_task_id: task.parent_task_id.clone(),
            depends_on: task.depends_on.clone(),
            created_at: task.created_at.clone(),
            claimed_at: earliest(|w| w.started_at.as_ref()),
            finished_at: finished_at.flatten(),
            live: task.workers.iter().any(|w| w.status.is_live()),
            pr,
            cost_usd: task.cost_usd.clone(),
        }
    }
}

/// [`TaskEvents::of`] every task.
pub fn task_events(tasks: &[MissionTask]) -> Vec<TaskEvents> {
    tasks.iter().map(TaskEvents::of).collect()
}

/// A task's times in epoch milliseconds, each filled where its status says it happened but
/// the time is not known, so the last moment agrees with the task's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Times {
    pub created: i64,
    pub claimed: Option<i64>,
    /// Only for a task that ended (completed, failed, cancelled).
    pub finished: Option<i64>,
    pub pr_opened: Option<i64>,
    pub merged: Option<i64>,
}

impl Times {
    /// `origin`: when a task whose filing is unknown is taken to exist.
    pub fn of(task: &TaskEvents, origin: i64) -> Times {
        let at = super::ms;
        let known = [
            at(task.created_at.as_deref()),
            at(task.claimed_at.as_deref()),
            at(task.finished_at.as_deref()),
        ];
        let created = known[0]
            .or_else(|| known.iter().flatten().min().copied())
            .unwrap_or(origin);
        let claimed = known[1].or((task.live).then_some(created));
        let finished = task
            .status
            .is_terminal()
            .then(|| known[2].unwrap_or(claimed.unwrap_or(created).max(created)));
        let pr = task.pr.as_ref();
        let pr_opened = pr.map(|p| {
            at(p.opened_at.as_deref())
                .or(finished)
                .or(claimed)
                .unwrap_or(created)
        });
        let merged = pr.and_then(|p| at(p.merged_at.as_deref()));
        Times {
            created,
            claimed,
            finished,
            pr_opened,
            merged,
        }
    }

    /// Every time known, for the events a series steps at.
    pub fn each(&self) -> impl Iterator<Item = i64> {
        [
            Some(self.created),
            self.claimed,
            self.finished,
            self.pr_opened,
            self.merged,
        ]
        .into_iter()
        .flatten()
    }
}

/// The earliest time any task states, the start of a mission's pictures.
pub(crate) fn origin(tasks: &[TaskEvents]) -> Option<i64> {
    tasks
        .iter()
        .flat_map(|t| {
            [
                t.created_at.as_deref(),
                t.claimed_at.as_deref(),
                t.finished_at.as_deref(),
            ]
        })
        .filter_map(super::ms)
        .min()
}

/// A task with its attempts folded in: one deliverable of the progress bar, or not counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    /// Index of the task the attempts fold into.
    pub root: usize,
    /// The root first, then its attempts in the order given.
    pub members: Vec<usize>,
    /// It counts towards progress (a deliverable, or a planning run that opened a PR).
    pub counted: bool,
}

/// Folds attempts into the first ancestor that is not an attempt; an attempt whose parent
/// is not among `tasks` stands on its own. Progress's fold (`progress::progress_of`).
pub(crate) fn rows(tasks: &[TaskEvents]) -> Vec<Row> {
    let by_id: HashMap<&str, usize> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    let root_of = |i: usize| -> Option<usize> {
        let mut current = i;
        for _ in 0..=tasks.len() {
            if tasks[current].class != TaskClass::Attempt {
                return Some(current);
            }
            current = *by_id.get(tasks[current].parent_task_id.as_deref()?)?;
        }
        None
    };
    let mut rows: Vec<Row> = Vec::new();
    let mut index: HashMap<usize, usize> = HashMap::new();
    for (i, _) in tasks
        .iter()
        .enumerate()
        .filter(|(_, t)| t.class != TaskClass::Attempt)
    {
        index.insert(i, rows.len());
        rows.push(Row {
            root: i,
            members: vec![i],
            counted: false,
        });
    }
    for (i, _) in tasks
        .iter()
        .enumerate()
        .filter(|(_, t)| t.class == TaskClass::Attempt)
    {
        match root_of(i).and_then(|r| index.get(&r)) {
            Some(&row) => rows[row].members.push(i),
            None => {
                index.insert(i, rows.len());
                rows.push(Row {
                    root: i,
                    members: vec![i],
                    counted: false,
                });
            }
        }
    }
    for row in &mut rows {
        let root = &tasks[row.root];
        row.counted = if root.class == TaskClass::Attempt {
            // A standalone attempt counts like the work it retried.
            root.mode == TaskMode::Execution
        } else {
            root.class == TaskClass::Work
                || (root.mode == TaskMode::Planning
                    && row.members.iter().any(|&m| tasks[m].pr.is_some()))
        };
    }
    rows
}

/// For each task, the index of the row it belongs to.
pub(crate) fn row_of(rows: &[Row], tasks: usize) -> Vec<usize> {
    let mut of = vec![0; tasks];
    for (r, row) in rows.iter().enumerate() {
        for &m in &row.members {
            of[m] = r;
        }
    }
    of
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::WorkerStatus;
    use crate::test_support::{task, worker};

    fn events(id: &str, class: TaskClass, parent: Option<&str>) -> TaskEvents {
        TaskEvents {
            id: id.into(),
            title: id.into(),
            class,
            mode: TaskMode::Execution,
            status: TaskStatus::Pending,
            parent_task_id: parent.map(Into::into),
            depends_on: vec![],
            created_at: None,
            claimed_at: None,
            finished_at: None,
            live: false,
            pr: None,
            cost_usd: None,
        }
    }

    #[test]
    fn attempts_fold_into_the_task_they_retried() {
        let tasks = [
            events("a", TaskClass::Work, Some("plan")),
            events("plan", TaskClass::Bookkeeping, None),
            events("a-retry", TaskClass::Attempt, Some("a")),
            events("a-retry-2", TaskClass::Attempt, Some("a-retry")),
            events("orphan", TaskClass::Attempt, Some("elsewhere")),
        ];
        let rows = rows(&tasks);
        let folded: Vec<(usize, Vec<usize>, bool)> = rows
            .iter()
            .map(|r| (r.root, r.members.clone(), r.counted))
            .collect();
        assert_eq!(
            folded,
            [
                (0, vec![0, 2, 3], true),
                (1, vec![1], false),
                (4, vec![4], true)
            ]
        );
        assert_eq!(row_of(&rows, 5), [0, 1, 0, 0, 2]);
        assert!(super::rows(&[]).is_empty());
    }

    #[test]
    fn unknown_times_are_filled_from_the_status() {
        let mut t = events("a", TaskClass::Work, None);
        t.status = TaskStatus::Completed;
        t.claimed_at = Some("2026-11-29T10:00:00Z".into());
        t.pr = Some(PrEvents::default());
        let times = Times::of(&t, 5);
        let claimed = super::super::ms_of("2026-11-29T10:00:00Z");
        // Filed when first seen; finished, and its PR opened, by the last time known.
        assert_eq!(times.created, claimed.unwrap());
        assert_eq!((times.claimed, times.finished), (claimed, claimed));
        assert_eq!((times.pr_opened, times.merged), (claimed, None));
        let bare = Times::of(&events("b", TaskClass::Work, None), 5);
        assert_eq!((bare.created, bare.claimed, bare.finished), (5, None, None));
    }

    #[test]
    fn a_mission_answer_gives_the_rows() {
        let mut t = task("a", TaskStatus::Completed);
        t.created_at = Some("2026-11-29T09:00:00Z".into());
        let mut first = worker(WorkerStatus::Failed, None, false);
        first.started_at = Some("2026-11-29T09:10:00Z".into());
        first.completed_at = Some("2026-11-29T09:20:00Z".into());
        let mut second = worker(WorkerStatus::Completed, Some("https://x/pull/7"), true);
        second.pr_number = Some(7);
        second.started_at = Some("2026-11-29T09:30:00Z".into());
        second.completed_at = Some("2026-11-29T09:50:00Z".into());
        t.workers = vec![first, second];
        let e = TaskEvents::of(&t);
        assert_eq!(e.class, TaskClass::Work);
        assert_eq!(e.claimed_at.as_deref(), Some("2026-11-29T09:10:00Z"));
        assert_eq!(e.finished_at.as_deref(), Some("2026-11-29T09:50:00Z"));
        let pr = e.pr.unwrap();
        assert_eq!(pr.number, Some(7));
        assert_eq!(pr.merged_at.as_deref(), Some("2026-11-29T10:00:00.000Z"));
        assert!(!e.live);
        let running = TaskEvents::of(&{
            let mut t = task("b", TaskStatus::InProgress);
            t.workers = vec![worker(WorkerStatus::Running, None, false)];
            t
        });
        assert!(running.live && running.finished_at.is_none());
    }
}
