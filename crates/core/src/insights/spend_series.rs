//! Spend over time: what a mission (or a team) spent, summed in steps as its workers
//! reported, against the budget line, with the forecast of the plan in review drawn ahead of
//! now. A worker's cost is its running total (each report replaces the last), so one point
//! per worker, at its last report, is what it spent.

use crate::budget::exhausts;
use crate::enums::MissionStatus;
use crate::forecast::CostForecast;
use crate::mission::MissionTask;
use crate::money::Usd;
use crate::task::TaskWorker;
use crate::worker::Worker;
use serde::{Deserialize, Serialize};

/// What one worker (one claim of a task) spent, as of its last report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpendPoint {
    /// When it last reported: its completion, else its last update.
    pub at: String,
    /// A decimal string, as Buildd writes money.
    pub cost_usd: String,
    /// When the worker started: spend of a worker already running when a budget ran out
    /// was not saved by it (exhaustion never stops a running worker).
    #[serde(default)]
    pub started_at: Option<String>,
    #[serde(default)]
    pub mission_id: Option<String>,
    #[serde(default)]
    pub workspace_id: Option<String>,
}

impl SpendPoint {
    /// A worker row's point; `None` when it reported no readable cost.
    pub fn of_worker(worker: &Worker, mission_id: Option<&str>) -> Option<SpendPoint> {
        Some(SpendPoint {
            at: worker
                .completed_at
                .clone()
                .unwrap_or_else(|| worker.updated_at.clone()),
            cost_usd: readable(worker.session.cost_usd.as_deref())?,
            started_at: worker.started_at.clone(),
            mission_id: mission_id.map(Into::into),
            workspace_id: Some(worker.workspace_id.clone()),
        })
    }

    /// A run of a task's page (`?include=workers`); `None` without a cost or a time.
    pub fn of_run(
        run: &TaskWorker,
        mission_id: Option<&str>,
        workspace_id: Option<&str>,
    ) -> Option<SpendPoint> {
        Some(SpendPoint {
            at: run
                .completed_at
                .clone()
                .or_else(|| run.updated_at.clone())?,
            cost_usd: readable(run.cost_usd.as_deref())?,
            started_at: run.started_at.clone(),
            mission_id: mission_id.map(Into::into),
            workspace_id: workspace_id.map(Into::into),
        })
    }

    /// A task of a mission answer: what all its workers cost, at its last report (its
    /// latest worker's completion, else the task's last change). The mission page has no
    /// per-worker costs, so a task reassigned mid-way counts its whole cost at its end.
    /// `None` without a readable cost (Buildd's answers carry none) or a time, and for a
    /// task that cost nothing (not run yet, or a seat-based account): no spend moved.
    pub fn of_task(task: &MissionTask, mission_id: Option<&str>) -> Option<SpendPoint> {
        task.cost().filter(|c| *c > Usd::ZERO)?;
        let at = task
            .workers
            .iter()
            .filter_map(|w| w.completed_at.as_ref())
            .max()
            .or(task.updated_at.as_ref())?;
        Some(SpendPoint {
            at: at.clone(),
            cost_usd: readable(task.cost_usd.as_deref())?,
            started_at: task
                .workers
                .iter()
                .filter_map(|w| w.started_at.clone())
                .min(),
            mission_id: mission_id.map(Into::into),
            workspace_id: None,
        })
    }

    /// Its cost, when it reads and is not negative.
    pub fn cost(&self) -> Option<Usd> {
        Usd::parse(&self.cost_usd).filter(|c| !c.is_negative())
    }
}

fn readable(cost: Option<&str>) -> Option<String> {
    cost.filter(|c| Usd::parse(c).is_some_and(|u| !u.is_negative()))
        .map(Into::into)
}

/// The points that read (a time and a cost), oldest first; equal times keep their order.
pub(crate) fn timed(points: &[SpendPoint]) -> Vec<(i64, Usd, &SpendPoint)> {
    let mut timed: Vec<(i64, Usd, &SpendPoint)> = points
        .iter()
        .filter_map(|p| Some((super::ms_of(&p.at)?, p.cost()?, p)))
        .collect();
    timed.sort_by_key(|p| p.0);
    timed
}

/// The spend standing from `at_ms` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpendStep {
    pub at_ms: i64,
    pub spent: Usd,
}

/// The plan in review's forecast, drawn dashed from now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForecastSegment {
    pub from_ms: i64,
    pub from: Usd,
    pub to_ms: i64,
    pub to: Usd,
    /// Where the segment reaches the budget line, when it does.
    pub reaches_budget_ms: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpendSeries {
    /// Cumulative spend, one step per moment it moved, and one at now.
    pub steps: Vec<SpendStep>,
    pub total: Usd,
    pub budget: Option<Usd>,
    /// When spend reached the budget (the moment budget.rs exhausts a mission).
    pub reached_budget_ms: Option<i64>,
    pub forecast: Option<ForecastSegment>,
}

impl SpendSeries {
    /// The spend standing at `at_ms`, for hovering.
    pub fn at(&self, at_ms: i64) -> Option<&SpendStep> {
        let after = self.steps.partition_point(|s| s.at_ms <= at_ms);
        after.checked_sub(1).map(|i| &self.steps[i])
    }

    /// The picture's text alternative.
    pub fn describe(&self) -> String {
        let mut text = match self.budget {
            Some(b) => format!("{} spent of a {b} budget", self.total),
            None => format!("{} spent, no budget", self.total),
        };
        if self.reached_budget_ms.is_some() {
            text.push_str("; the budget was reached");
        }
        if let Some(f) = self.forecast {
            text.push_str(&format!("; the plan in review would take it to {}", f.to));
            if f.reaches_budget_ms.is_some() {
                text.push_str(", past the budget");
            }
        }
        text.push('.');
        text
    }
}

/// Spend over time from `points`, against `budget`, up to `now_ms`. `forecast`: the plan in
/// review's estimate, drawn from now to `ahead_ms` later (a plan's cost has no date, so the
/// picture chooses how far ahead to draw it).
pub fn spend_series(
    points: &[SpendPoint],
    budget: Option<Usd>,
    forecast: Option<&CostForecast>,
    now_ms: i64,
    ahead_ms: i64,
) -> SpendSeries {
    let mut steps: Vec<SpendStep> = Vec::new();
    let mut spent = Usd::ZERO;
    let mut reached_budget_ms = None;
    for (at_ms, cost, _) in timed(points) {
        spent += cost;
        if reached_budget_ms.is_none() && exhausts(&MissionStatus::Active, spent, budget) {
            reached_budget_ms = Some(at_ms);
        }
        match steps.last_mut() {
            Some(last) if last.at_ms == at_ms => last.spent = spent,
            _ => steps.push(SpendStep { at_ms, spent }),
        }
    }
    if steps.last().is_some_and(|s| now_ms > s.at_ms) {
        steps.push(SpendStep {
            at_ms: now_ms,
            spent,
        });
    }
    let forecast = forecast
        .and_then(|f| f.estimate)
        .filter(|e| *e > Usd::ZERO)
        .map(|estimate| {
            let from_ms = steps.last().map_or(now_ms, |s| s.at_ms.max(now_ms));
            let to_ms = from_ms + ahead_ms.max(0);
            let to = spent + estimate;
            let reaches_budget_ms = budget.filter(|&b| to >= b).map(|b| {
                if spent >= b {
                    from_ms
                } else {
                    // Linear along the dashed segment.
                    let part = (b - spent).as_f64() / estimate.as_f64();
                    from_ms + ((to_ms - from_ms) as f64 * part).round() as i64
                }
            });
            ForecastSegment {
                from_ms,
                from: spent,
                to_ms,
                to,
                reaches_budget_ms,
            }
        });
    SpendSeries {
        steps,
        total: spent,
        budget,
        reached_budget_ms,
        forecast,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forecast::forecast;

    fn point(at: &str, cost: &str) -> SpendPoint {
        SpendPoint {
            at: format!("2026-11-29T{at}:00Z"),
            cost_usd: cost.into(),
            started_at: None,
            mission_id: None,
            workspace_id: None,
        }
    }

    fn t(hm: &str) -> i64 {
        super::super::ms_of(&format!("2026-11-29T{hm}:00Z")).unwrap()
    }

    fn usd(cents: i64) -> Usd {
        Usd::from_cents(cents)
    }

    fn step(hm: &str, cents: i64) -> SpendStep {
        SpendStep {
            at_ms: t(hm),
            spent: usd(cents),
        }
    }

    #[test]
    fn spend_steps_up_as_workers_report() {
        let points = [
            point("11:00", "0.50"),
            point("10:00", "1.00"),
            point("11:00", "0.25"),
            point("12:00", "lots"),
            point("12:30", "-1"),
        ];
        let s = spend_series(&points, Some(usd(175)), None, t("13:00"), 0);
        assert_eq!(
            s.steps,
            [step("10:00", 100), step("11:00", 175), step("13:00", 175)]
        );
        assert_eq!((s.total, s.reached_budget_ms), (usd(175), Some(t("11:00"))));
        assert_eq!(s.at(t("10:30")), Some(&step("10:00", 100)));
        assert_eq!(
            s.describe(),
            "$1.75 spent of a $1.75 budget; the budget was reached."
        );
    }

    #[test]
    fn the_plan_in_review_is_drawn_ahead_of_now() {
        let points = [point("10:00", "1.00")];
        let plan = forecast(
            3,
            &[usd(100), usd(100), usd(100)],
            &[],
            usd(100),
            Some(usd(250)),
        );
        let s = spend_series(&points, Some(usd(250)), Some(&plan), t("12:00"), 3_600_000);
        assert_eq!(
            s.forecast,
            Some(ForecastSegment {
                from_ms: t("12:00"),
                from: usd(100),
                to_ms: t("13:00"),
                to: usd(400),
                // $1.50 of the $3.00 ahead: half way.
                reaches_budget_ms: Some(t("12:30")),
            })
        );
        assert_eq!(
            s.describe(),
            "$1.00 spent of a $2.50 budget; the plan in review would take it to $4.00, past \
             the budget."
        );
        // No estimate, nothing drawn.
        let none = forecast(3, &[], &[], usd(100), None);
        assert_eq!(
            spend_series(&points, None, Some(&none), t("12:00"), 1).forecast,
            None
        );
    }

    #[test]
    fn nothing_spent_and_one_report() {
        let empty = spend_series(&[], None, None, t("12:00"), 0);
        assert_eq!(empty, SpendSeries::default());
        assert_eq!(empty.describe(), "$0.00 spent, no budget.");
        let one = spend_series(&[point("12:00", "0.10")], None, None, t("12:00"), 0);
        assert_eq!(one.steps, [step("12:00", 10)]);
        // A $0 budget is reached at the first report, as budget.rs decides.
        let zero = spend_series(&[point("12:00", "0")], Some(Usd::ZERO), None, t("12:00"), 0);
        assert_eq!(zero.reached_budget_ms, Some(t("12:00")));
    }

    #[test]
    fn workers_and_runs_give_their_points() {
        let worker: Worker = serde_json::from_value(serde_json::json!({
            "id": "w", "taskId": "t", "workspaceId": "ws", "accountId": null, "name": "n",
            "runner": "r", "branch": null, "status": "completed", "currentAction": null,
            "prUrl": null, "prNumber": null, "mergedAt": null, "prLifecycleStatus": null,
            "error": null, "pendingInstructions": null, "startedAt": "2026-11-29T10:00:00Z",
            "completedAt": "2026-11-29T11:00:00Z", "createdAt": "2026-11-29T10:00:00Z",
            "updatedAt": "2026-11-29T11:00:01Z", "costUsd": "0.420000"
        }))
        .unwrap();
        let p = SpendPoint::of_worker(&worker, Some("m")).unwrap();
        assert_eq!(p.at, "2026-11-29T11:00:00Z");
        assert_eq!(p.cost(), Some(Usd::from_cents(42)));
        assert_eq!(p.workspace_id.as_deref(), Some("ws"));
        let run: TaskWorker = serde_json::from_value(serde_json::json!({
            "id": "w", "status": "running", "branch": null, "prUrl": null, "prNumber": null,
            "mergedAt": null, "error": null, "currentAction": null, "startedAt": null,
            "completedAt": null, "createdAt": null, "updatedAt": "2026-11-29T10:30:00Z"
        }))
        .unwrap();
        // A run that states no cost gives no point: an unknown cost is not $0.
        assert_eq!(SpendPoint::of_run(&run, None, None), None);
    }

    #[test]
    fn a_mission_answer_gives_a_point_per_task_that_cost_something() {
        use crate::enums::{TaskStatus, WorkerStatus};
        use crate::test_support::{task, worker};
        let mut done = task("a", TaskStatus::Completed);
        done.cost_usd = Some("0.700000".into());
        done.updated_at = Some("2026-11-29T12:00:00Z".into());
        let mut w = worker(WorkerStatus::Completed, None, false);
        w.started_at = Some("2026-11-29T10:00:00Z".into());
        w.completed_at = Some("2026-11-29T11:00:00Z".into());
        done.workers = vec![w];
        let p = SpendPoint::of_task(&done, Some("m")).unwrap();
        // At its worker's completion, not the task's later change.
        assert_eq!(p.at, "2026-11-29T11:00:00Z");
        assert_eq!(p.started_at.as_deref(), Some("2026-11-29T10:00:00Z"));
        assert_eq!(p.cost(), Some(usd(70)));
        let mut running = task("b", TaskStatus::InProgress);
        running.cost_usd = Some("0.1".into());
        running.updated_at = Some("2026-11-29T12:30:00Z".into());
        assert_eq!(
            SpendPoint::of_task(&running, None).map(|p| p.at),
            Some("2026-11-29T12:30:00Z".into())
        );
        // Buildd's tasks state no cost: no point, rather than $0; nor a task that cost
        // nothing yet.
        running.cost_usd = None;
        assert_eq!(SpendPoint::of_task(&running, None), None);
        running.cost_usd = Some("0.000000".into());
        assert_eq!(SpendPoint::of_task(&running, None), None);
    }
}
