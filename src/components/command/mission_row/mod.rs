//! A mission's row on the command center: its step in the loop, health, progress, what it
//! waits for and what it spent of its budget, kept up to date in place.

pub mod row;

use self::row::{row, step_class};
use crate::components::shared::health_chip::HealthChip;
use crate::components::shared::progress_bar::ProgressBar;
use crate::state::refresh::PolledRead;
use buildd_core::client::ClientMission;
use buildd_core::planning_loop::LoopStep;
use leptos::prelude::*;
use std::collections::HashMap;

/// Mission `id` of `missions`, found at its place in `at`. Its row is drawn again in place
/// when what it shows changes.
#[component]
pub fn MissionRow(
    id: String,
    missions: PolledRead<Vec<ClientMission>>,
    at: Memo<HashMap<String, usize>>,
    selected: Signal<bool>,
) -> impl IntoView {
    let href = format!("/missions/{id}");
    let shown = Memo::new(move |_| {
        let i = at.with(|p| p.get(&id).copied())?;
        missions.with_data(|all| all.get(i).map(row)).flatten()
    });
    let title_href = href.clone();
    let content = move || {
        shown.get().map(|r| {
            let strip = LoopStep::ALL
                .iter()
                .map(|s| {
                    let label = format!("{} {}", s.number(), s.label());
                    view! { <span class=step_class(*s, r.step)>{label}</span> }
                })
                .collect_view();
            view! {
                <div class="command-row__head">
                    <a href=title_href.clone() class="command-row__title">
                        {r.title}
                    </a>
                    <span class="command-row__chips">
                        // How it is worked, apart from its health: interactive is never "blocked".
                        <span class="chip chip--outline" data-testid="mission-mode">
                            {r.mode}
                        </span>
                        <HealthChip health=r.health />
                        {r
                            .spend
                            .map(|s| {
                                view! {
                                    <span class="muted small" data-testid="mission-spend">
                                        {s}
                                    </span>
                                }
                            })}
                    </span>
                </div>
                <div
                    class="steps"
                    data-testid="step-strip"
                    role="img"
                    aria-label=format!("Step {} of 5: {}", r.step.number(), r.step.label())
                >
                    {strip}
                </div>
                {(r.progress.total_tasks > 0)
                    .then(|| view! { <ProgressBar progress=r.progress /> })}
                <p class="muted small" data-testid="waits-for">
                    {r.waits}
                </p>
            }
        })
    };
    view! {
        <li
            class=move || {
                if selected.get() { "command-row command-row--selected" } else { "command-row" }
            }
            aria-current=move || selected.get().then_some("true")
            data-testid="command-row"
            data-href=href
        >
            {content}
        </li>
    }
}
