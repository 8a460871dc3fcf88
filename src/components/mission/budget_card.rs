//! What a mission spent, against its budget when it has one: a bar with both figures in
//! words (the bar's colour only repeats them), the spend alone when there is no budget, and
//! "not reported" where the API does not say (Buildd's missions carry no spend). Raise
//! budget sits here, so a mission that ran out is resumed where its spend is read, with
//! what the amount typed would have done: buildd-core's `replay_budget` over the mission's
//! recorded spend (when it would have stopped it, and what that would have saved).

use crate::components::mission::pictures::frame::offset_secs;
use crate::components::shared::raise_budget::RaiseBudget;
use buildd_core::budget::{budget_bar, SPEND_NOT_REPORTED};
use buildd_core::client::ClientMission;
use buildd_core::insights::spend_series::SpendPoint;
use buildd_core::insights::what_if::replay_budget;
use buildd_core::money::Usd;
use buildd_core::MissionStatus;
use leptos::prelude::*;
use std::sync::Arc;

const OUT_OF_BUDGET: &str = "Out of budget: no new work starts and the organizer does not \
                             plan until the budget is raised above what was spent. Work \
                             already running may finish.";

/// The bar's modifier: how close spend came to the budget.
fn fill_class(reached: bool, nearing: bool) -> &'static str {
    if reached {
        "budget__fill budget__fill--reached"
    } else if nearing {
        "budget__fill budget__fill--near"
    } else {
        "budget__fill"
    }
}

/// The figures when there is no bar to draw: no budget, or a spend the API does not report.
fn without_bar(spend: Option<Usd>, budget: Option<Usd>) -> String {
    match (spend, budget) {
        (Some(spend), _) => format!("{spend} spent · no budget"),
        (None, Some(budget)) => format!("Budget {budget} · {SPEND_NOT_REPORTED}"),
        (None, None) => format!("No budget · {SPEND_NOT_REPORTED}"),
    }
}

#[component]
pub fn BudgetCard(mission: Memo<Arc<ClientMission>>, refresh: Callback<()>) -> impl IntoView {
    let id = mission.with_untracked(|m| m.id.clone());
    let spend = Memo::new(move |_| mission.with(|m| m.spend()));
    let budget = Memo::new(move |_| mission.with(|m| m.budget()));
    // Replayed only where the spend is known: Buildd's missions do not report it.
    let points = Memo::new(move |_| {
        mission.with(|m| {
            m.spend().map(|_| {
                (m.tasks.iter())
                    .filter_map(|t| SpendPoint::of_task(t, None))
                    .collect::<Vec<_>>()
            })
        })
    });
    let what_if = Callback::new(move |typed: Usd| {
        points.with(|p| match p {
            Some(points) => format!(
                "What it would have done: {}",
                replay_budget(points, Some(typed)).describe(offset_secs())
            ),
            None => String::new(),
        })
    });
    let exhausted =
        Memo::new(move |_| mission.with(|m| m.status == MissionStatus::BudgetExhausted));
    let figures = move || {
        let (spend, budget) = (spend.get(), budget.get());
        match spend.and_then(|s| budget_bar(s, budget)) {
            Some(bar) => {
                let percent = (bar.fraction * 100.0).round();
                view! {
                    <div
                        class="budget__bar"
                        role="img"
                        aria-label=bar.text.clone()
                        data-testid="budget-bar"
                    >
                        <div
                            class=fill_class(bar.reached, bar.nearing)
                            style=format!("width: {percent}%")
                        ></div>
                    </div>
                    <p class="budget__text" data-testid="budget-text">
                        {bar.text}
                    </p>
                }
                .into_any()
            }
            None => view! {
                <p class="budget__text" data-testid="budget-text">
                    {without_bar(spend, budget)}
                </p>
            }
            .into_any(),
        }
    };
    view! {
        <section class="card budget" data-testid="budget-card">
            <h2 class="card__title">"Spend"</h2>
            {figures}
            <p
                class="notice notice--warn"
                data-testid="out-of-budget"
                class:hidden=move || !exhausted.get()
            >
                {OUT_OF_BUDGET}
            </p>
            <RaiseBudget mission_id=id budget refresh what_if />
        </section>
    }
}
