//! The planning loop every mission goes round, derived from its tasks each time it is shown
//! (nothing stores it): 1 BRIEF · 2 LOOP ⟳ ‖ 3 FILE · 4 DISPATCHED · 5 DONE.
//!
//! - BRIEF: the mission exists (its brief), no organizer run yet;
//! - LOOP: the organizer has run, and its newest run has filed no tasks (still planning, a
//!   plan in review, or a rejected one being revised);
//! - FILE: the newest run's plan is filed — its tasks exist — and none has been picked up;
//! - DISPATCHED: at least one of those tasks has been picked up and one is still open;
//! - DONE: every one of them is closed (completed, failed or cancelled).
//!
//! `step < FILE` is the whole definition of planning.

use crate::enums::TaskStatus;
use crate::mission::MissionTask;
use crate::plan::newest_run;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoopStep {
    Brief = 1,
    Loop = 2,
    File = 3,
    Dispatched = 4,
    Done = 5,
}

impl LoopStep {
    pub const ALL: [LoopStep; 5] = [
        Self::Brief,
        Self::Loop,
        Self::File,
        Self::Dispatched,
        Self::Done,
    ];

    pub fn number(self) -> u8 {
        self as u8
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Brief => "BRIEF",
            Self::Loop => "LOOP",
            Self::File => "FILE",
            Self::Dispatched => "DISPATCHED",
            Self::Done => "DONE",
        }
    }

    /// Steps 1–2: the mission is being planned.
    pub fn is_planning(self) -> bool {
        self < Self::File
    }
}

/// Where mission `tasks` stand in the planning loop.
pub fn loop_step(tasks: &[MissionTask]) -> LoopStep {
    let Some(newest_run) = newest_run(tasks) else {
        return LoopStep::Brief;
    };
    let filed: Vec<&MissionTask> = tasks
        .iter()
        .filter(|t| t.parent_task_id.as_deref() == Some(newest_run.id.as_str()))
        .collect();
    if filed.is_empty() {
        return LoopStep::Loop;
    }
    if filed.iter().all(|t| t.status.is_terminal()) {
        return LoopStep::Done;
    }
    let picked_up = filed
        .iter()
        .any(|t| t.status != TaskStatus::Pending || !t.workers.is_empty());
    if picked_up {
        LoopStep::Dispatched
    } else {
        LoopStep::File
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::{TaskClass, TaskMode, WorkerStatus};
    use crate::test_support::{task, worker};

    fn run(id: &str, status: TaskStatus, created: &str) -> MissionTask {
        let mut t = task(id, status);
        t.mode = TaskMode::Planning;
        t.task_class = Some(TaskClass::Bookkeeping);
        t.created_at = Some(created.into());
        t
    }

    fn child(id: &str, parent: &str, status: TaskStatus) -> MissionTask {
        let mut t = task(id, status);
        t.parent_task_id = Some(parent.into());
        t.created_at = Some("2026-01-01T01:00:00Z".into());
        t
    }

    #[test]
    fn each_step_and_the_planning_split() {
        assert_eq!(loop_step(&[]), LoopStep::Brief);
        let p = run("p", TaskStatus::Completed, "2026-01-01T00:00:00Z");
        assert_eq!(loop_step(std::slice::from_ref(&p)), LoopStep::Loop);
        let filed = [
            p.clone(),
            child("a", "p", TaskStatus::Pending),
            child("b", "p", TaskStatus::Pending),
        ];
        assert_eq!(loop_step(&filed), LoopStep::File);
        let mut started = child("a", "p", TaskStatus::Assigned);
        started.workers = vec![worker(WorkerStatus::Running, None, false)];
        let dispatched = [p.clone(), started, child("b", "p", TaskStatus::Pending)];
        assert_eq!(loop_step(&dispatched), LoopStep::Dispatched);
        let done = [
            p.clone(),
            child("a", "p", TaskStatus::Completed),
            child("b", "p", TaskStatus::Failed),
        ];
        assert_eq!(loop_step(&done), LoopStep::Done);
        assert!(LoopStep::Brief.is_planning() && LoopStep::Loop.is_planning());
        assert!(!LoopStep::File.is_planning() && !LoopStep::Done.is_planning());
        assert_eq!(LoopStep::Dispatched.number(), 4);
    }

    #[test]
    fn the_next_round_goes_back_to_loop_and_forward_again() {
        let first = run("p", TaskStatus::Completed, "2026-01-01T00:00:00Z");
        let landed = child("a", "p", TaskStatus::Completed);
        assert_eq!(loop_step(&[first.clone(), landed.clone()]), LoopStep::Done);
        let second = run("q", TaskStatus::Pending, "2026-01-02T00:00:00Z");
        let planning = [first.clone(), landed.clone(), second];
        assert_eq!(loop_step(&planning), LoopStep::Loop);
        let second = run("q", TaskStatus::Completed, "2026-01-02T00:00:00Z");
        let mut follow_up = child("b", "q", TaskStatus::Pending);
        follow_up.created_at = Some("2026-01-02T01:00:00Z".into());
        assert_eq!(
            loop_step(&[first, landed, second, follow_up]),
            LoopStep::File
        );
    }

    #[test]
    fn a_rejected_plan_goes_back_to_loop_and_all_cancelled_is_done() {
        let old = run("p", TaskStatus::Completed, "2026-01-01T00:00:00Z");
        let revision = run("r", TaskStatus::Pending, "2026-01-02T00:00:00Z");
        assert_eq!(loop_step(&[old.clone(), revision]), LoopStep::Loop);
        let cancelled = [
            old,
            child("a", "p", TaskStatus::Cancelled),
            child("b", "p", TaskStatus::Cancelled),
        ];
        assert_eq!(loop_step(&cancelled), LoopStep::Done);
    }
}
