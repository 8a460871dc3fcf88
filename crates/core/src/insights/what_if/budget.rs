//! A budget replayed over a mission's recorded spend: the first report that takes spend to
//! the budget stops the mission (`budget::exhausts`), and what was spent after it is what
//! the budget would have saved, but for workers already running, which exhaustion never
//! stops (and a worker whose start is unknown is not counted as saved).

use crate::budget::exhausts;
use crate::enums::MissionStatus;
use crate::insights::scale::moment_label;
use crate::insights::spend_series::{timed, SpendPoint};
use crate::money::Usd;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BudgetReplay {
    pub budget: Option<Usd>,
    /// What was spent in fact.
    pub spent: Usd,
    /// When the budget would have stopped the mission.
    pub stopped_ms: Option<i64>,
    /// Spend at that report.
    pub spent_at_stop: Usd,
    /// Spent after it by workers already running then: spent all the same.
    pub ran_on: Usd,
    /// Spent after it by work started later: what the budget would have saved.
    pub saved: Usd,
}

impl BudgetReplay {
    /// What the mission would have spent under the budget.
    pub fn would_have_spent(&self) -> Usd {
        self.spent - self.saved
    }

    /// What the replay says, in a sentence (times on the clock `offset_secs` east of UTC).
    pub fn describe(&self, offset_secs: i32) -> String {
        let Some(budget) = self.budget else {
            return format!(
                "Without a budget nothing stops the mission: {} spent.",
                self.spent
            );
        };
        let Some(stopped) = self.stopped_ms else {
            return format!(
                "A {budget} budget would not have stopped the mission: {} spent.",
                self.spent
            );
        };
        let mut text = format!(
            "A {budget} budget would have stopped the mission on {} at {} spent",
            moment_label(stopped, offset_secs),
            self.spent_at_stop
        );
        if self.ran_on > Usd::ZERO {
            text.push_str(&format!(
                "; work already running spent {} more",
                self.ran_on
            ));
        }
        text.push_str(&format!("; it would have saved {}.", self.saved));
        text
    }
}

/// Replays `budget` over a mission's spend `points` (its whole history: a budget caps all
/// of a mission's spend).
pub fn replay_budget(points: &[SpendPoint], budget: Option<Usd>) -> BudgetReplay {
    let mut replay = BudgetReplay {
        budget,
        ..BudgetReplay::default()
    };
    for (at, cost, point) in timed(points) {
        replay.spent += cost;
        let Some(stopped) = replay.stopped_ms else {
            if exhausts(&MissionStatus::Active, replay.spent, budget) {
                replay.stopped_ms = Some(at);
                replay.spent_at_stop = replay.spent;
            }
            continue;
        };
        let started = point.started_at.as_deref().and_then(crate::insights::ms_of);
        if started.is_some_and(|s| s > stopped) {
            replay.saved += cost;
        } else {
            replay.ran_on += cost;
        }
    }
    replay
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(at: &str, cost: &str, started: Option<&str>) -> SpendPoint {
        SpendPoint {
            at: format!("2026-11-29T{at}:00Z"),
            cost_usd: cost.into(),
            started_at: started.map(|s| format!("2026-11-29T{s}:00Z")),
            mission_id: None,
            workspace_id: None,
        }
    }

    fn usd(cents: i64) -> Usd {
        Usd::from_cents(cents)
    }

    fn t(hm: &str) -> i64 {
        crate::insights::ms_of(&format!("2026-11-29T{hm}:00Z")).unwrap()
    }

    fn history() -> Vec<SpendPoint> {
        vec![
            point("10:00", "1.00", Some("09:00")),
            point("11:00", "2.00", Some("10:00")),
            // Started before the stop at 11:00: runs on.
            point("12:00", "0.50", Some("10:30")),
            point("13:00", "1.50", Some("12:00")),
            point("13:30", "0.25", None),
        ]
    }

    #[test]
    fn a_budget_stops_at_the_report_that_reaches_it() {
        let r = replay_budget(&history(), Some(usd(300)));
        assert_eq!(
            r,
            BudgetReplay {
                budget: Some(usd(300)),
                spent: usd(525),
                stopped_ms: Some(t("11:00")),
                spent_at_stop: usd(300),
                ran_on: usd(75),
                saved: usd(150),
            }
        );
        assert_eq!(r.would_have_spent(), usd(375));
        assert_eq!(
            r.describe(0),
            "A $3.00 budget would have stopped the mission on 29 Nov 11:00 at $3.00 spent; \
             work already running spent $0.75 more; it would have saved $1.50."
        );
    }

    #[test]
    fn a_budget_above_the_spend_or_none_stops_nothing() {
        let r = replay_budget(&history(), Some(usd(1000)));
        assert_eq!(
            (r.stopped_ms, r.saved, r.spent),
            (None, Usd::ZERO, usd(525))
        );
        assert_eq!(
            r.describe(0),
            "A $10.00 budget would not have stopped the mission: $5.25 spent."
        );
        let none = replay_budget(&history(), None);
        assert_eq!(none.stopped_ms, None);
        assert_eq!(
            none.describe(0),
            "Without a budget nothing stops the mission: $5.25 spent."
        );
    }

    #[test]
    fn nothing_spent_and_one_report() {
        assert_eq!(
            replay_budget(&[], Some(usd(100))),
            BudgetReplay {
                budget: Some(usd(100)),
                ..BudgetReplay::default()
            }
        );
        // A $0 budget stops the mission at its first report, as budget.rs decides.
        let one = replay_budget(&[point("10:00", "0.40", None)], Some(Usd::ZERO));
        assert_eq!(
            (one.stopped_ms, one.spent_at_stop),
            (Some(t("10:00")), usd(40))
        );
        assert_eq!(one.saved, Usd::ZERO);
    }
}
