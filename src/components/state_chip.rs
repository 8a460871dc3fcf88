use buildd_core::grouping::{Health, MissionState};
use leptos::prelude::*;

/// The mission's state, as a chip whose text carries the meaning (colour only adds to it).
#[component]
pub fn StateChip(state: MissionState) -> impl IntoView {
    view! {
        <span class=format!("chip chip--{}", state.tone()) data-testid="state-chip">
            {state.label()}
        </span>
    }
}

/// Health, shown only when something is wrong.
#[component]
pub fn HealthChip(health: Health) -> impl IntoView {
    (health != Health::Nominal).then(|| {
        let tone = if health == Health::Failing {
            "bad"
        } else {
            "warn"
        };
        view! {
            <span class=format!("chip chip--outline chip--{tone}") data-testid="health-chip">
                {health.label()}
            </span>
        }
    })
}
