//! What approving a plan will cost, said before it is approved (buildd-core's `forecast`):
//! the steps times the median cost of the mission's finished deliverables, or the
//! workspace's when the mission has finished fewer than three, with that basis in words;
//! no basis, no number. It warns when the estimate would take the mission to its budget.

use crate::components::shared::polled::Polled;
use crate::state::connection::use_connection;
use crate::state::plan_costs::{mission_costs, workspace_costs};
use crate::state::refresh::polled;
use crate::state::request::with_connection;
use buildd_core::client::ClientMission;
use buildd_core::forecast::{forecast, MISSION_BASIS_MIN};
use buildd_core::money::Usd;
use leptos::prelude::*;

#[component]
pub fn CostForecast(
    /// How many steps approval will file.
    #[prop(into)]
    steps: Signal<usize>,
    /// The mission: its finished tasks, spend and budget.
    mission: Memo<Option<ClientMission>>,
) -> impl IntoView {
    let mission_costs = Memo::new(move |_| {
        mission.with(|m| {
            m.as_ref()
                .map(|m| mission_costs(&m.tasks))
                .unwrap_or_default()
        })
    });
    // The workspace's costs are read only when the mission's own are too few.
    let workspace = Memo::new(move |_| {
        mission
            .with(|m| m.as_ref().and_then(|m| m.workspace_id.clone()))
            .filter(|_| mission_costs.with(|c| c.len() < MISSION_BASIS_MIN))
    });
    let connection = use_connection();
    let workspace_costs = polled(move || {
        let workspace = workspace.get();
        with_connection(&connection, move |c| async move {
            match workspace {
                Some(workspace) => workspace_costs(c, workspace).await,
                None => Ok(Vec::new()),
            }
        })
    });
    view! {
        <Polled read=workspace_costs loading="Estimating what the plan will cost…" let:workspace>
            {
                let estimate = Memo::new(move |_| {
                    let (spend, budget) = mission
                        .with(|m| {
                            m.as_ref()
                                .map_or(
                                    (Usd::ZERO, None),
                                    |m| (m.spend().unwrap_or_default(), m.budget()),
                                )
                        });
                    mission_costs
                        .with(|own| {
                            workspace
                                .with(|ws| forecast(steps.get(), own, ws.as_slice(), spend, budget))
                        })
                });
                view! {
                    <div class="forecast" data-testid="plan-forecast">
                        <p class="small" data-testid="plan-forecast-text">
                            {move || estimate.with(|f| format!("{}.", f.text))}
                        </p>
                        {move || {
                            estimate
                                .with(|f| f.warning.clone())
                                .map(|w| {
                                    view! {
                                        <p
                                            class="notice notice--warn small"
                                            role="status"
                                            data-testid="plan-forecast-warning"
                                        >
                                            {format!("Over budget: {w}.")}
                                        </p>
                                    }
                                })
                        }}
                    </div>
                }
            }
        </Polled>
    }
}
