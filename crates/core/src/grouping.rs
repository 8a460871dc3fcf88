//! How a mission is presented: its health, its state chip and its group on the mission
//! list. Derived from the mission, its tasks and its progress; never stored.

use crate::client::ClientMission;
use crate::enums::{MissionStatus, OrchestrationMode};
use crate::mission::SegmentState;
use crate::mission::{Mission, MissionTask};
use crate::plan::plan_in_review;
use crate::progress::MissionProgress;

/// The few facts about a mission that decide how it is presented.
pub trait MissionFacts {
    fn status(&self) -> &MissionStatus;
    fn is_held(&self) -> bool;
    fn orchestration_mode(&self) -> &OrchestrationMode;
    /// Waits on another mission that has not landed yet.
    fn waits_on_mission(&self) -> bool;
}

/// Both mission shapes carry these fields under the same names.
macro_rules! mission_facts {
    ($($shape:ty),+) => {$(
        impl MissionFacts for $shape {
            fn status(&self) -> &MissionStatus {
                &self.status
            }
            fn is_held(&self) -> bool {
                self.is_held
            }
            fn orchestration_mode(&self) -> &OrchestrationMode {
                &self.orchestration_mode
            }
            fn waits_on_mission(&self) -> bool {
                self.depends_on_mission_id.is_some() && self.dependency_met_at.is_none()
            }
        }
    )+};
}

mission_facts!(Mission, ClientMission);

/// Health, shown apart from the mission's state. Worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Health {
    /// Waits on another mission that has not landed.
    Blocked,
    /// A deliverable failed.
    Failing,
    /// Open deliverables and nobody working on any of them.
    Stalled,
    Nominal,
}

impl Health {
    pub fn label(self) -> &'static str {
        match self {
            Self::Blocked => "Blocked",
            Self::Failing => "Failing",
            Self::Stalled => "Stalled",
            Self::Nominal => "Nominal",
        }
    }
}

pub fn health(mission: &impl MissionFacts, progress: &MissionProgress) -> Health {
    let has = |state| progress.segments.iter().any(|s| s.state == state);
    if mission.waits_on_mission() {
        Health::Blocked
    } else if has(SegmentState::Notch) {
        Health::Failing
    } else if has(SegmentState::Empty) && !has(SegmentState::Ghost) {
        Health::Stalled
    } else {
        Health::Nominal
    }
}

/// The state chip on a mission card and the mission page. First match wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissionState {
    Completed,
    Archived,
    BudgetExhausted,
    Paused,
    Held,
    PlanInReview,
    Running,
    Blocked,
    Failing,
    ReadyForReview,
    Manual,
    Active,
}

impl MissionState {
    pub fn label(self) -> &'static str {
        match self {
            Self::Completed => "Completed",
            Self::Archived => "Archived",
            Self::BudgetExhausted => "Budget exhausted",
            Self::Paused => "Paused",
            Self::Held => "Held",
            Self::PlanInReview => "Plan in review",
            Self::Running => "Running",
            Self::Blocked => "Blocked",
            Self::Failing => "Failing",
            Self::ReadyForReview => "Ready for review",
            Self::Manual => "Manual",
            Self::Active => "Active",
        }
    }

    /// The chip's colour family: ok, warn, bad, info or muted.
    pub fn tone(self) -> &'static str {
        match self {
            Self::Completed | Self::ReadyForReview => "ok",
            Self::PlanInReview | Self::Held | Self::Blocked | Self::BudgetExhausted => "warn",
            Self::Failing => "bad",
            Self::Running | Self::Active => "info",
            Self::Archived | Self::Paused | Self::Manual => "muted",
        }
    }
}

/// Health worth showing beside a state chip: none when the state already says it, or when
/// the mission is not running (a paused mission is not "stalled").
pub fn health_beside(state: MissionState, health: Health) -> Option<Health> {
    use MissionState::*;
    match state {
        Completed | Archived | Paused | BudgetExhausted | Held | Blocked | Failing => None,
        _ => (health != Health::Nominal).then_some(health),
    }
}

fn has_live_worker(tasks: &[MissionTask]) -> bool {
    tasks
        .iter()
        .any(|t| t.workers.iter().any(|w| w.status.is_live()))
}

fn all_done(progress: &MissionProgress) -> bool {
    progress.total_tasks > 0 && progress.completed_tasks == progress.total_tasks
}

pub fn mission_state(
    mission: &impl MissionFacts,
    tasks: &[MissionTask],
    progress: &MissionProgress,
) -> MissionState {
    match mission.status() {
        MissionStatus::Completed => return MissionState::Completed,
        MissionStatus::Archived => return MissionState::Archived,
        MissionStatus::BudgetExhausted => return MissionState::BudgetExhausted,
        MissionStatus::Paused => return MissionState::Paused,
        _ => {}
    }
    if mission.is_held() {
        return MissionState::Held;
    }
    if plan_in_review(tasks).is_some() {
        return MissionState::PlanInReview;
    }
    if has_live_worker(tasks) {
        return MissionState::Running;
    }
    match health(mission, progress) {
        Health::Blocked => return MissionState::Blocked,
        Health::Failing => return MissionState::Failing,
        _ => {}
    }
    if all_done(progress) {
        MissionState::ReadyForReview
    } else if *mission.orchestration_mode() == OrchestrationMode::Manual {
        MissionState::Manual
    } else {
        MissionState::Active
    }
}

/// The sections of the mission list, in the order they are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MissionGroup {
    AwaitingReview,
    Running,
    NeedsAttention,
    Scheduled,
    Paused,
    Completed,
}

impl MissionGroup {
    pub const ALL: [MissionGroup; 6] = [
        Self::AwaitingReview,
        Self::Running,
        Self::NeedsAttention,
        Self::Scheduled,
        Self::Paused,
        Self::Completed,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Self::AwaitingReview => "Awaiting review",
            Self::Running => "Running",
            Self::NeedsAttention => "Needs attention",
            Self::Scheduled => "Scheduled",
            Self::Paused => "Paused",
            Self::Completed => "Completed",
        }
    }

    pub fn slug(self) -> &'static str {
        match self {
            Self::AwaitingReview => "awaiting-review",
            Self::Running => "running",
            Self::NeedsAttention => "needs-attention",
            Self::Scheduled => "scheduled",
            Self::Paused => "paused",
            Self::Completed => "completed",
        }
    }
}

/// Which section of the mission list a mission belongs to. `next_run_at` is its next
/// scheduled check-in, if any.
pub fn mission_group(
    mission: &impl MissionFacts,
    tasks: &[MissionTask],
    progress: &MissionProgress,
    next_run_at: Option<&str>,
) -> MissionGroup {
    use MissionState::*;
    match mission_state(mission, tasks, progress) {
        Completed | Archived => MissionGroup::Completed,
        Paused | Held | BudgetExhausted => MissionGroup::Paused,
        PlanInReview | ReadyForReview => MissionGroup::AwaitingReview,
        Running => MissionGroup::Running,
        Blocked | Failing => MissionGroup::NeedsAttention,
        Active if next_run_at.is_some() && health(mission, progress) != Health::Stalled => {
            MissionGroup::Scheduled
        }
        Manual | Active => MissionGroup::NeedsAttention,
    }
}

#[cfg(test)]
mod tests;
