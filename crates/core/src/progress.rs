//! Deliverables-only mission progress: the one function every surface uses.
//!
//! Rules (Buildd's `computeMissionProgress`, with its defects fixed):
//! - Only deliverables count: `taskClass = work`; rows without a class fall back to
//!   Buildd's heuristic (not review, not coordination, not planning, no housekeeping
//!   title). A planning task counts too when one of its workers opened a PR.
//! - Attempts (retries, reviewer passes) fold into their parent, which takes the best
//!   outcome across itself and its attempts; their workers join the parent's.
//! - Cancelled tasks leave both numerator and denominator; failed tasks count against.
//! - A task is done when it completed and its work landed: no PR, or a merged PR. A
//!   completed task whose PR is still open is "awaiting merge" and not yet done.
//! - Percent rounds half up; a completed mission shows 100 %.

use crate::enums::{MissionStatus, TaskCategory, TaskClass, TaskKind, TaskMode, TaskStatus};
use crate::mission::{MissionTask, WorkerSummary};
pub use crate::mission::{Segment, SegmentState};
use std::collections::HashMap;

/// The progress of one mission.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MissionProgress {
    /// Counted deliverables.
    pub total_tasks: u32,
    /// Counted deliverables that are done (solid).
    pub completed_tasks: u32,
    /// Completed deliverables whose PR is still open (half).
    pub awaiting_merge: u32,
    /// Deliverables with a live worker (ghost).
    pub in_flight: u32,
    /// Failed deliverables (notch).
    pub failed: u32,
    /// The percentage to show: rounded half up, 100 for a completed mission.
    pub progress: u32,
    /// One per counted task, sorted solid, half, ghost, notch, empty.
    pub segments: Vec<Segment>,
}

const HOUSEKEEPING_TITLES: [&str; 4] = [
    "Aggregate results:",
    "Evaluate mission completion:",
    "Mission:",
    "Close mission",
];

const ATTEMPT_TITLES: [&str; 5] = [
    "[ci retry",
    "[retry",
    "[conflict retry",
    "[reviewer]",
    "[reviewer retry",
];

/// The texts a task's category and kind are compared with, spelled by their enums and
/// fixed when compiled: reading either field as its enum would bring the enum's reader
/// into the dashboard's first load.
const REVIEW: &str = TaskCategory::Review.as_str();
const COORDINATION: &str = TaskKind::Coordination.as_str();

/// Whether a task is a deliverable (real work) rather than housekeeping.
pub fn is_deliverable(task: &MissionTask) -> bool {
    match &task.task_class {
        Some(class) => *class == TaskClass::Work,
        None => {
            task.category.as_deref() != Some(REVIEW)
                && task.kind.as_deref() != Some(COORDINATION)
                && task.mode != TaskMode::Planning
                && !HOUSEKEEPING_TITLES
                    .iter()
                    .any(|p| task.title.starts_with(p))
        }
    }
}

/// Whether a task is an attempt that folds into its parent.
pub fn is_attempt(task: &MissionTask) -> bool {
    match &task.task_class {
        Some(class) => *class == TaskClass::Attempt,
        None => looks_like_attempt(&task.title, task.parent_task_id.is_some(), &task.mode),
    }
}

/// Buildd's heuristic for a task without a class: a child task whose title says it is a
/// retry or a reviewer's pass, or that does not execute.
pub(crate) fn looks_like_attempt(title: &str, has_parent: bool, mode: &TaskMode) -> bool {
    has_parent && {
        // The prefixes are ASCII, so an ASCII-insensitive match is Unicode
        // lowercasing's verdict without its tables in the first download.
        ATTEMPT_TITLES.iter().any(|p| {
            title
                .get(..p.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(p))
        }) || *mode != TaskMode::Execution
    }
}

/// The class a task is treated as: its stored class, or the legacy heuristic's verdict.
pub fn effective_class(task: &MissionTask) -> TaskClass {
    if is_attempt(task) {
        TaskClass::Attempt
    } else if is_deliverable(task) {
        TaskClass::Work
    } else {
        TaskClass::Bookkeeping
    }
}

/// Lower is better: which status a parent takes across itself and its attempts.
pub(crate) fn outcome_rank(status: &TaskStatus) -> u8 {
    match status {
        TaskStatus::Completed => 0,
        TaskStatus::Pending => 1,
        // Buildd leaves in_progress unranked, so a running parent with a cancelled
        // attempt vanished from the count; every live status ranks together here.
        TaskStatus::Assigned | TaskStatus::InProgress | TaskStatus::Review => 2,
        TaskStatus::Failed => 3,
        TaskStatus::Cancelled => 4,
        TaskStatus::Other(_) => 5,
    }
}

fn segment_state(status: &TaskStatus, workers: &[&WorkerSummary]) -> SegmentState {
    if workers.iter().any(|w| w.status.is_live()) {
        return SegmentState::Ghost;
    }
    match status {
        TaskStatus::Completed => {
            let with_pr: Vec<_> = workers.iter().filter(|w| w.pr_url.is_some()).collect();
            if with_pr.is_empty() || with_pr.iter().any(|w| w.merged_at.is_some()) {
                SegmentState::Solid
            } else {
                SegmentState::Half
            }
        }
        TaskStatus::Failed => SegmentState::Notch,
        _ => SegmentState::Empty,
    }
}

/// Rounds `part / whole × 100` half up, in integers.
pub fn percent(part: u32, whole: u32) -> u32 {
    if whole == 0 {
        return 0;
    }
    let (part, whole) = (u64::from(part), u64::from(whole));
    ((part * 200 + whole) / (whole * 2)) as u32
}

/// The progress of a mission in `mission_status` made of `tasks`.
pub fn compute_progress(mission_status: &MissionStatus, tasks: &[MissionTask]) -> MissionProgress {
    progress_of(mission_status, tasks.iter())
}

/// [`compute_progress`] of tasks held some other way (the server keeps them shared).
pub fn progress_of<'a, I>(mission_status: &MissionStatus, tasks: I) -> MissionProgress
where
    I: Iterator<Item = &'a MissionTask> + Clone,
{
    let by_id: HashMap<&str, &MissionTask> = tasks.clone().map(|t| (t.id.as_str(), t)).collect();

    // Walk an attempt up to the first ancestor that is not an attempt.
    fn root_of<'a>(
        task: &'a MissionTask,
        by_id: &HashMap<&str, &'a MissionTask>,
    ) -> Option<&'a str> {
        let mut current = task;
        for _ in 0..=by_id.len() {
            if !is_attempt(current) {
                return Some(current.id.as_str());
            }
            current = by_id.get(current.parent_task_id.as_deref()?)?;
        }
        None
    }

    struct Row<'a> {
        task: &'a MissionTask,
        status: TaskStatus,
        workers: Vec<&'a WorkerSummary>,
    }
    let mut rows: Vec<Row> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for task in tasks.clone().filter(|t| !is_attempt(t)) {
        index.insert(task.id.as_str(), rows.len());
        rows.push(Row {
            task,
            status: task.status.clone(),
            workers: task.workers.iter().collect(),
        });
    }
    for attempt in tasks.filter(|t| is_attempt(t)) {
        match root_of(attempt, &by_id).and_then(|root| index.get(root)) {
            Some(&i) => {
                let row = &mut rows[i];
                if outcome_rank(&attempt.status) < outcome_rank(&row.status) {
                    row.status = attempt.status.clone();
                }
                row.workers.extend(attempt.workers.iter());
            }
            // An attempt whose parent is not part of the mission stands on its own.
            None => {
                index.insert(attempt.id.as_str(), rows.len());
                rows.push(Row {
                    task: attempt,
                    status: attempt.status.clone(),
                    workers: attempt.workers.iter().collect(),
                });
            }
        }
    }

    let mut segments: Vec<Segment> = rows
        .iter()
        .filter(|row| {
            let counted = if is_attempt(row.task) {
                // A standalone attempt counts like the work it retried.
                row.task.mode == TaskMode::Execution
            } else {
                is_deliverable(row.task)
                    || (row.task.mode == TaskMode::Planning
                        && row.workers.iter().any(|w| w.pr_url.is_some()))
            };
            counted && row.status != TaskStatus::Cancelled
        })
        .map(|row| Segment {
            task_id: row.task.id.clone(),
            state: segment_state(&row.status, &row.workers),
        })
        .collect();
    segments.sort_by_key(|s| s.state);

    let count = |state: SegmentState| segments.iter().filter(|s| s.state == state).count() as u32;
    let total_tasks = segments.len() as u32;
    let completed_tasks = count(SegmentState::Solid);
    let progress = if *mission_status == MissionStatus::Completed {
        100
    } else {
        percent(completed_tasks, total_tasks)
    };
    MissionProgress {
        total_tasks,
        completed_tasks,
        awaiting_merge: count(SegmentState::Half),
        in_flight: count(SegmentState::Ghost),
        failed: count(SegmentState::Notch),
        progress,
        segments,
    }
}

#[cfg(test)]
mod tests;
