//! The pictures' series, computed where they are drawn (core's `insights`) from what the
//! mission page already reads: the mission with its tasks and their latest workers, and
//! this server's check-ins. What the answers do not carry is named, not drawn as zero.

use super::frame::{now_ms, SHORTEST};
use super::plan_forecast::plan_forecast;
use crate::state::refresh::PolledRead;
use buildd_core::client::ClientMission;
use buildd_core::insights::burn_up::{burn_up, BurnUp};
use buildd_core::insights::events::task_events;
use buildd_core::insights::spend_series::{spend_series, SpendPoint, SpendSeries};
use buildd_core::insights::timeline::{timeline, Timeline};
use buildd_core::mission::MissionTask;
use buildd_core::organizer_runs::MissionRuns;
use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct Series {
    pub burn: Memo<BurnUp>,
    /// `None` where the answers carry no spend (Buildd's).
    pub spend: Memo<Option<SpendSeries>>,
    pub timeline: Memo<Timeline>,
    /// Buildd's tasks say when they were filed and last changed, not when claimed.
    pub claims_unknown: Memo<bool>,
    /// No check-ins to mark: the server does not list them.
    pub check_ins_unknown: Memo<bool>,
}

/// Whether workers ran but none says when it started: claims are not in the answers.
fn claims_unknown(tasks: &[MissionTask]) -> bool {
    let workers = || tasks.iter().flat_map(|t| t.workers.iter());
    workers().next().is_some() && workers().all(|w| w.started_at.is_none())
}

pub fn series(
    tasks: Memo<Vec<MissionTask>>,
    mission: Memo<ClientMission>,
    runs: PolledRead<Option<MissionRuns>>,
) -> Series {
    let events = Memo::new(move |_| tasks.with(|t| task_events(t)));
    let check_ins = Memo::new(move |_| {
        runs.with_data(|r| r.as_ref().map(|r| r.check_ins.clone()))
            .flatten()
            .unwrap_or_default()
    });
    let burn = Memo::new(move |_| events.with(|e| check_ins.with(|c| burn_up(e, c, now_ms()))));
    let forecast = plan_forecast(tasks, mission);
    let spend = Memo::new(move |_| {
        mission.with(|m| m.spend())?;
        let budget = mission.with(|m| m.budget());
        let points: Vec<SpendPoint> = tasks.with(|t| {
            t.iter()
                .filter_map(|t| SpendPoint::of_task(t, None))
                .collect()
        });
        let now = now_ms();
        // A plan's cost has no date: it is drawn over a quarter of the history so far, so
        // it takes the same share of the picture whatever the span.
        let first = points
            .iter()
            .filter_map(|p| buildd_core::insights::ms_of(&p.at))
            .min();
        let ahead = first.map_or(SHORTEST, |f| ((now - f) / 4).max(SHORTEST));
        Some(forecast.with(|f| spend_series(&points, budget, f.as_ref(), now, ahead)))
    });
    Series {
        burn,
        spend,
        timeline: Memo::new(move |_| events.with(|e| timeline(e, now_ms()))),
        claims_unknown: Memo::new(move |_| tasks.with(|t| claims_unknown(t))),
        check_ins_unknown: Memo::new(move |_| runs.with_data(Option::is_none).unwrap_or(false)),
    }
}
