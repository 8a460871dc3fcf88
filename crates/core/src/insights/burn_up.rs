//! A mission's burn-up: its deliverables done, awaiting merge, in flight, failed and not
//! started, stepping at every moment one of them moved, with plan approvals and check-ins
//! marked. At each moment a deliverable stands as the progress bar would have shown it then
//! (attempts folded in, cancelled ones left out), so the last point is the bar now.

use super::events::{origin, row_of, rows, Row, TaskEvents, Times};
use crate::enums::{TaskClass, TaskMode, TaskStatus};
use crate::organizer_runs::CheckIn;
use crate::progress::outcome_rank;
use std::collections::HashMap;

/// The counts at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BurnUpPoint {
    pub at_ms: i64,
    pub done: u32,
    pub awaiting_merge: u32,
    pub in_flight: u32,
    pub failed: u32,
    pub not_started: u32,
}

impl BurnUpPoint {
    /// The deliverables counted at that moment (the scope line).
    pub fn total(&self) -> u32 {
        self.done + self.awaiting_merge + self.in_flight + self.failed + self.not_started
    }

    /// What a hovered or focused point says.
    pub fn figures(&self) -> String {
        format!(
            "{} of {} done, {} awaiting merge, {} in flight, {} failed, {} not started",
            self.done,
            self.total(),
            self.awaiting_merge,
            self.in_flight,
            self.failed,
            self.not_started
        )
    }

    fn same_counts(&self, other: &BurnUpPoint) -> bool {
        BurnUpPoint { at_ms: 0, ..*self } == BurnUpPoint { at_ms: 0, ..*other }
    }
}

/// Where a deliverable stands at a moment: its band of the burn-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Band {
    Done,
    AwaitingMerge,
    InFlight,
    Failed,
    NotStarted,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerKind {
    PlanApproved,
    CheckIn,
}

/// A moment marked on the burn-up.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub at_ms: i64,
    pub kind: MarkerKind,
    /// "Plan approved: Ship the API", "Check-in: deferred: nothing changed".
    pub label: String,
    /// The planning task approved, or the organizer run a check-in started.
    pub task_id: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct BurnUp {
    /// One point per moment the counts changed, oldest first, and one at `now`.
    pub points: Vec<BurnUpPoint>,
    /// Oldest first.
    pub markers: Vec<Marker>,
}

impl BurnUp {
    /// The counts standing at `at_ms` (the last point at or before it), for hovering.
    pub fn at(&self, at_ms: i64) -> Option<&BurnUpPoint> {
        let after = self.points.partition_point(|p| p.at_ms <= at_ms);
        after.checked_sub(1).map(|i| &self.points[i])
    }

    /// The picture's text alternative.
    pub fn describe(&self) -> String {
        let (Some(first), Some(last)) = (self.points.first(), self.points.last()) else {
            return "No deliverables yet.".into();
        };
        let approvals = self
            .markers
            .iter()
            .filter(|m| m.kind == MarkerKind::PlanApproved)
            .count();
        let span = crate::duration::span((last.at_ms - first.at_ms) / 1000);
        format!(
            "Over {span}: {}. {} marked.",
            last.figures(),
            super::plural(approvals, "plan approval", "plan approvals")
        )
    }
}

/// A member task's stage at a moment, with its rank in the fold (progress's order).
fn stage_at(task: &TaskEvents, times: &Times, t: i64) -> (bool, u8) {
    let in_flight = times.claimed.is_some_and(|c| c <= t)
        && (task.live || times.finished.is_some_and(|f| t < f));
    let rank = if in_flight {
        outcome_rank(&TaskStatus::InProgress)
    } else if times.finished.is_some_and(|f| f <= t) {
        outcome_rank(&task.status)
    } else if task.status.is_terminal() {
        outcome_rank(&TaskStatus::Pending)
    } else {
        outcome_rank(&task.status)
    };
    (in_flight, rank)
}

/// Where `row` stands at `t`: `None` before it was filed, once cancelled, or not counted.
fn band_at(row: &Row, tasks: &[TaskEvents], times: &[Times], t: i64) -> Option<Band> {
    if !row.counted {
        return None;
    }
    let (mut filed, mut in_flight, mut best) = (false, false, u8::MAX);
    for &m in row.members.iter().filter(|&&m| times[m].created <= t) {
        filed = true;
        let (flying, rank) = stage_at(&tasks[m], &times[m], t);
        in_flight |= flying;
        best = best.min(rank);
    }
    if !filed {
        return None;
    }
    if in_flight {
        return Some(Band::InFlight);
    }
    let rank = |s: TaskStatus| outcome_rank(&s);
    Some(match best {
        b if b == rank(TaskStatus::Completed) => {
            // Done once it has no PR open by then, or one of its PRs merged.
            let (mut opened, mut merged) = (false, false);
            for m in &row.members {
                if times[*m].pr_opened.is_some_and(|o| o <= t) {
                    opened = true;
                    merged |= times[*m].merged.is_some_and(|at| at <= t);
                }
            }
            if !opened || merged {
                Band::Done
            } else {
                Band::AwaitingMerge
            }
        }
        b if b == rank(TaskStatus::Failed) => Band::Failed,
        b if b == rank(TaskStatus::Cancelled) => return None,
        _ => Band::NotStarted,
    })
}

fn tally(point: &mut BurnUpPoint, band: Option<Band>, by: i64) {
    let Some(band) = band else { return };
    let slot = match band {
        Band::Done => &mut point.done,
        Band::AwaitingMerge => &mut point.awaiting_merge,
        Band::InFlight => &mut point.in_flight,
        Band::Failed => &mut point.failed,
        Band::NotStarted => &mut point.not_started,
    };
    *slot = (i64::from(*slot) + by) as u32;
}

/// When each plan was approved: the first filing among the tasks it filed (attempts aside).
pub fn plan_approvals(tasks: &[TaskEvents]) -> Vec<(String, i64)> {
    let mut first_step: HashMap<&str, i64> = HashMap::new();
    for t in tasks.iter().filter(|t| t.class != TaskClass::Attempt) {
        if let (Some(parent), Some(at)) = (
            t.parent_task_id.as_deref(),
            super::ms(t.created_at.as_deref()),
        ) {
            let first = first_step.entry(parent).or_insert(at);
            *first = (*first).min(at);
        }
    }
    let mut approvals: Vec<(String, i64)> = tasks
        .iter()
        .filter(|t| t.mode == TaskMode::Planning)
        .filter_map(|plan| Some((plan.id.clone(), *first_step.get(plan.id.as_str())?)))
        .collect();
    approvals.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    approvals
}

fn markers(tasks: &[TaskEvents], check_ins: &[CheckIn]) -> Vec<Marker> {
    let titles: HashMap<&str, &str> = tasks
        .iter()
        .map(|t| (t.id.as_str(), t.title.as_str()))
        .collect();
    let title = |id: &str| titles.get(id).copied().unwrap_or("");
    let mut markers: Vec<Marker> = plan_approvals(tasks)
        .into_iter()
        .map(|(id, at_ms)| Marker {
            at_ms,
            kind: MarkerKind::PlanApproved,
            label: format!("Plan approved: {}", title(&id)),
            task_id: Some(id),
        })
        .chain(check_ins.iter().filter_map(|c| {
            Some(Marker {
                at_ms: super::ms_of(&c.at)?,
                kind: MarkerKind::CheckIn,
                label: format!("Check-in: {}", c.text),
                task_id: c.task_id.clone(),
            })
        }))
        .collect();
    // Stable: a check-in and an approval at the same moment keep this order.
    markers.sort_by_key(|m| m.at_ms);
    markers
}

/// The burn-up of a mission's tasks up to `now_ms`, with its plan approvals and
/// `check_ins` marked. Each moment recounts only the deliverables that moved then.
pub fn burn_up(tasks: &[TaskEvents], check_ins: &[CheckIn], now_ms: i64) -> BurnUp {
    let markers = markers(tasks, check_ins);
    let start = origin(tasks).unwrap_or(now_ms).min(now_ms);
    let times: Vec<Times> = tasks.iter().map(|t| Times::of(t, start)).collect();
    let rows = rows(tasks);
    let row_of = row_of(&rows, tasks.len());
    let mut events: Vec<(i64, usize)> = times
        .iter()
        .enumerate()
        .filter(|(i, _)| rows[row_of[*i]].counted)
        .flat_map(|(i, t)| {
            let row = row_of[i];
            t.each().map(move |at| (at, row))
        })
        .collect();
    events.sort_unstable();
    events.dedup();
    let mut bands: Vec<Option<Band>> = vec![None; rows.len()];
    let mut counts = BurnUpPoint::default();
    let mut points: Vec<BurnUpPoint> = Vec::new();
    for group in events.chunk_by(|a, b| a.0 == b.0) {
        let t = group[0].0;
        for &(_, r) in group {
            let band = band_at(&rows[r], tasks, &times, t);
            if band != bands[r] {
                tally(&mut counts, bands[r], -1);
                tally(&mut counts, band, 1);
                bands[r] = band;
            }
        }
        counts.at_ms = t;
        if points.last().is_none_or(|p| !p.same_counts(&counts)) {
            points.push(counts);
        }
    }
    if let Some(&last) = points.last() {
        if now_ms > last.at_ms {
            points.push(BurnUpPoint {
                at_ms: now_ms,
                ..last
            });
        }
    }
    BurnUp { points, markers }
}

#[cfg(test)]
mod tests;
