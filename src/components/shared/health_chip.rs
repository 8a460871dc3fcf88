//! A mission's health as a chip.

use buildd_core::grouping::Health;
use leptos::prelude::*;

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
