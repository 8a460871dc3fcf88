//! The key to the progress bar's patterns, under the mission's bar.

use crate::components::shared::progress_bar::{counts, state_title};
use buildd_core::MissionProgress;
use leptos::prelude::*;

/// A key to the bar's patterns, with how many tasks are in each state.
#[component]
pub fn ProgressLegend(progress: MissionProgress) -> impl IntoView {
    view! {
        <ul class="legend">
            {counts(&progress)
                .into_iter()
                .filter(|(_, n)| *n > 0)
                .map(|(state, n)| {
                    view! {
                        <li class="legend__item">
                            <span class=format!("seg seg--{}", state.as_str())></span>
                            {format!("{n} {}", state_title(state))}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}
