//! Whether a mission lets its tasks be claimed, and why a runner's claim took nothing, as
//! Buildd's runner reads it (`reason` in the claim's answer): from how the queue the claim
//! looked at stands.

use crate::enums::MissionStatus;

/// What a mission's state does to its pending tasks' claims. The server's claim queue keeps
/// it per task (`claim_queue.stopped`) by triggers that call this rule, registered as the
/// SQL function `buildd_claim_stop(status, is_held)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i64)]
pub enum ClaimStop {
    /// Its tasks may start.
    Open = 0,
    /// Paused, held or archived: nothing starts until a person lets it.
    Stopped = 1,
    /// Out of budget: nothing starts until the budget is raised.
    OutOfBudget = 2,
}

impl ClaimStop {
    /// The rule: a held mission stops its tasks whatever its status; a paused or archived
    /// one stops them; one out of budget stops them for its budget; any other lets them go.
    pub fn of(status: &MissionStatus, held: bool) -> Self {
        match status {
            _ if held => Self::Stopped,
            MissionStatus::Paused | MissionStatus::Archived => Self::Stopped,
            MissionStatus::BudgetExhausted => Self::OutOfBudget,
            _ => Self::Open,
        }
    }

    /// As the claim queue stores it (`claim_queue.stopped`).
    pub fn code(self) -> i64 {
        self as i64
    }
}

/// How the queue of a claim's filter stands at a moment, in the order a claim judges a
/// task: deferred (its start time has not come), then stopped by its mission (paused, held
/// or archived; out of budget), then blocked by a dependency.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueCounts {
    pub pending: i64,
    pub deferred: i64,
    pub paused: i64,
    pub out_of_budget: i64,
    pub blocked: i64,
}

/// Why a claim took nothing: the first reason that held any task back, in the order
/// Buildd's runner reads them (a blocked dependency before a stopped mission before a start
/// time to come); `raced` when claimable tasks were there but went to other claims.
pub fn why_none(counts: &QueueCounts, raced: bool) -> &'static str {
    if counts.blocked > 0 {
        "deps_blocked"
    } else if counts.out_of_budget > 0 {
        "budget_exhausted"
    } else if counts.paused > 0 {
        "context_paused"
    } else if counts.deferred > 0 {
        "all_candidates_deferred"
    } else if raced {
        "race_lost"
    } else {
        "no_pending_tasks"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_paused_or_archived_mission_stops_its_tasks_and_one_out_of_budget_for_its_budget() {
        let of = |s: &str, held| ClaimStop::of(&MissionStatus::parse(s), held).code();
        assert_eq!(of("active", false), 0);
        assert_eq!(of("completed", false), 0);
        assert_eq!(of("a_status_to_come", false), 0);
        assert_eq!(of("active", true), 1);
        assert_eq!(of("paused", false), 1);
        assert_eq!(of("archived", false), 1);
        assert_eq!(of("budget_exhausted", false), 2);
        assert_eq!(of("budget_exhausted", true), 1);
    }

    #[test]
    fn the_first_reason_that_held_a_task_back_is_given() {
        let none = QueueCounts::default();
        assert_eq!(why_none(&none, false), "no_pending_tasks");
        assert_eq!(why_none(&none, true), "race_lost");
        let deferred = QueueCounts {
            pending: 1,
            deferred: 1,
            ..none
        };
        assert_eq!(why_none(&deferred, true), "all_candidates_deferred");
        let paused = QueueCounts {
            paused: 1,
            ..deferred
        };
        assert_eq!(why_none(&paused, false), "context_paused");
        let spent = QueueCounts {
            out_of_budget: 1,
            ..paused
        };
        assert_eq!(why_none(&spent, false), "budget_exhausted");
        let blocked = QueueCounts {
            blocked: 1,
            ..spent
        };
        assert_eq!(why_none(&blocked, false), "deps_blocked");
    }
}
