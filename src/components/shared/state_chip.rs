//! A mission's state as a chip.

use buildd_core::grouping::MissionState;
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
