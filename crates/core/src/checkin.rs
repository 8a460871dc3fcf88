//! Check-ins: the hourly stuck-check that starts a mission's organizer only when the mission
//! looks stuck, within its active hours. One decision function, with the reason it gives.
//!
//! A mission's **state**, for "changed since the last check-in", is the count vector of its
//! deliverable tasks: completed, open (pending or running), failed, cancelled, and their open
//! and merged PRs — see [`state_key`]. Organizer runs are not part of it, so a run that filed
//! nothing does not make an idle mission look changed.

use crate::budget::stopped_reason;
use crate::dependencies::has_open_pr;
use crate::duration::ago;
use crate::enums::TaskStatus;
use crate::mission::MissionTask;
use crate::money::Usd;
use crate::progress::is_deliverable;
use chrono::{DateTime, Duration, Utc};

/// The Organizer checklist a mission gets when none is supplied.
pub const DEFAULT_CHECKLIST: &str = "\
- [ ] Assess which phase the mission is in; once a plan exists, file its next tasks.
- [ ] If the mission has no workspace, create one before filing work.
- [ ] Give every new task a concrete pathManifest, so overlapping work is serialized.
- [ ] Never re-implement files a sibling task already owns; report the sibling instead.
- [ ] When the work is done, propose completion with missionComplete. The platform still checks open tasks and goal criteria before it closes the mission.";

/// Longest Organizer checklist accepted, in characters.
pub const CHECKLIST_LIMIT: usize = 8000;

/// The seed's defaults: a check-in every hour; no check-in run within two hours of the last
/// organizer run.
pub const DEFAULT_INTERVAL_SECS: i64 = 3600;
pub const DEFAULT_GRACE_SECS: i64 = 2 * 3600;

/// When check-ins may run: local hours `[start, end)` in `timezone`, wrapping midnight when
/// `start > end` (22 → 6 is overnight).
#[derive(Clone, Debug, PartialEq)]
pub struct ActiveHours {
    pub start: u32,
    pub end: u32,
    pub timezone: String,
}

/// Whether local `hour` lies in the window `[start, end)`.
pub fn hour_in_window(start: u32, end: u32, hour: u32) -> bool {
    if start < end {
        start <= hour && hour < end
    } else {
        hour >= start || hour < end
    }
}

/// The organizer state a check-in compares: deliverable tasks by outcome, and their PRs.
pub fn state_key(tasks: &[MissionTask]) -> String {
    let (mut done, mut open, mut failed, mut cancelled, mut prs_open, mut prs_merged) =
        (0, 0, 0, 0, 0, 0);
    for t in tasks.iter().filter(|t| is_deliverable(t)) {
        match t.status {
            TaskStatus::Completed => done += 1,
            TaskStatus::Failed => failed += 1,
            TaskStatus::Cancelled => cancelled += 1,
            _ => open += 1,
        }
        if has_open_pr(&t.workers) {
            prs_open += 1;
        } else if t.workers.iter().any(|w| w.merged_at.is_some()) {
            prs_merged += 1;
        }
    }
    format!("c{done}o{open}f{failed}x{cancelled}p{prs_open}m{prs_merged}")
}

/// What a check-in knows about its mission.
#[derive(Clone, Debug)]
pub struct CheckinFacts {
    /// The mission spent its budget: what it spent, and of what budget.
    pub out_of_budget: Option<(Usd, Option<Usd>)>,
    /// Its work is done and waits for a person to close it (`completion::is_dormant`).
    pub dormant: bool,
    pub manual: bool,
    pub held: bool,
    /// The mission waits on another mission that has not landed.
    pub dependency_blocked: bool,
    pub within_active_hours: bool,
    /// Open tasks other than planning runs.
    pub open_tasks: usize,
    pub planning_in_flight: bool,
    pub plan_in_review: bool,
    pub last_organizer_run_at: Option<DateTime<Utc>>,
    pub state_key: String,
    /// The state when a check-in last started the organizer or found nothing changed.
    pub last_state_key: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CheckinDecision {
    /// The mission looks stuck: start the organizer.
    Start,
    /// Make no run; `reason` is a code, `text` says it to a person.
    Defer { reason: &'static str, text: String },
}

impl CheckinDecision {
    /// Whether the check-in remembers the mission's state: when it started the organizer or
    /// found nothing changed. A check-in deferred for another reason (active hours, a
    /// budget) leaves the last state, so the mission still counts as changed next time.
    pub fn remembers_state(&self) -> bool {
        matches!(
            self,
            Self::Start
                | Self::Defer {
                    reason: "heartbeat_no_change",
                    ..
                }
        )
    }
}

fn defer(reason: &'static str, text: impl Into<String>) -> CheckinDecision {
    CheckinDecision::Defer {
        reason,
        text: text.into(),
    }
}

/// Decides a check-in at `now`: the organizer starts only when there is no open work, no
/// organizer run started within `grace`, and the state changed since the last check-in.
pub fn decide_checkin(f: &CheckinFacts, now: DateTime<Utc>, grace: Duration) -> CheckinDecision {
    if let Some((spend, budget)) = f.out_of_budget {
        return defer(
            "budget_exhausted",
            format!("deferred: {}", stopped_reason(spend, budget)),
        );
    }
    if f.dormant {
        return defer(
            "dormant",
            "deferred: the work is done and waits for you to close the mission",
        );
    }
    if !f.within_active_hours {
        return defer("active_hours", "outside active hours");
    }
    if f.manual {
        return defer(
            "orchestration_manual",
            "manual mission: it plans only on Run",
        );
    }
    if f.held {
        return defer("held", "held until it is released");
    }
    if f.dependency_blocked {
        return defer("heartbeat_blocked", "waiting on the mission it depends on");
    }
    if f.open_tasks > 0 {
        let tasks = if f.open_tasks == 1 { "task" } else { "tasks" };
        return defer(
            "open_work",
            format!("deferred: open work ({} {tasks})", f.open_tasks),
        );
    }
    if f.planning_in_flight {
        return defer("planning_active", "deferred: the organizer is planning");
    }
    if f.plan_in_review {
        return defer("plan_in_review", "deferred: a plan waits for review");
    }
    if let Some(last) = f.last_organizer_run_at {
        if now - last <= grace {
            return defer(
                "recent_organizer_run",
                format!("deferred: ran {}", ago((now - last).num_seconds())),
            );
        }
    }
    if f.last_state_key.as_deref() == Some(f.state_key.as_str()) {
        return defer("heartbeat_no_change", "deferred: nothing changed");
    }
    CheckinDecision::Start
}

#[cfg(feature = "tz")]
mod zoned;
#[cfg(feature = "tz")]
pub use zoned::*;

#[cfg(test)]
mod tests;
