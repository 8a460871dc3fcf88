//! The plan in review's cost, as its review panel says it (core's `forecast` over the same
//! basis, `state::plan_costs`), for the spend picture to draw ahead of now. The
//! workspace's costs are read only when the mission has finished too few of its own.

use crate::state::connection::use_connection;
use crate::state::plan_costs::{mission_costs, workspace_costs};
use crate::state::request::with_connection;
use buildd_core::client::ClientMission;
use buildd_core::forecast::{forecast, CostForecast, MISSION_BASIS_MIN};
use buildd_core::mission::MissionTask;
use buildd_core::plan::plan_in_review;
use leptos::prelude::*;

/// How many steps the plan in review has, if one is.
fn steps_in_review(tasks: &[MissionTask]) -> Option<usize> {
    let output = plan_in_review(tasks)?
        .result()?
        .structured_output
        .as_ref()?;
    output.get("plan")?.as_array().map(Vec::len)
}

pub fn plan_forecast(
    tasks: Memo<Vec<MissionTask>>,
    mission: Memo<ClientMission>,
) -> Memo<Option<CostForecast>> {
    let steps = Memo::new(move |_| tasks.with(|t| steps_in_review(t)));
    // Read only while a plan is in review: the costs of 10,000 tasks are not computed for
    // a forecast that is not drawn.
    let own = Memo::new(move |_| tasks.with(|t| mission_costs(t)));
    // Asked only for a plan in review of a mission whose spend is known (none is drawn
    // else), when its own finished tasks are too few.
    let workspace = Memo::new(move |_| {
        let wanted = steps.get().is_some()
            && mission.with(|m| m.spend().is_some())
            && own.with(|c| c.len() < MISSION_BASIS_MIN);
        mission.with(|m| m.workspace_id.clone()).filter(|_| wanted)
    });
    let connection = use_connection();
    let theirs = LocalResource::new(move || {
        let read = workspace
            .get()
            .map(|w| with_connection(&connection, move |c| workspace_costs(c, w)));
        async move {
            match read {
                Some(read) => read.await.unwrap_or_default(),
                None => Vec::new(),
            }
        }
    });
    Memo::new(move |_| {
        let steps = steps.get()?;
        let theirs = theirs.get().unwrap_or_default();
        let (spend, budget) = mission.with(|m| (m.spend().unwrap_or_default(), m.budget()));
        Some(own.with(|own| forecast(steps, own, &theirs, spend, budget)))
    })
}
