//! One run's milestones as a timeline: when each step was reached, what it was, and how
//! long it lasted. The server keeps a run's newest milestones; how many were left out is
//! said above the list. A keyed list, so a report that adds a step adds one row.

use crate::format::clock;
use buildd_core::duration::span;
use buildd_core::runs::milestones::{not_kept, steps};
use buildd_core::task::TaskWorker;
use buildd_core::worker::MILESTONES_KEPT;
use leptos::prelude::*;

#[component]
pub fn RunTimeline(run: Memo<TaskWorker>) -> impl IntoView {
    let now = || js_sys::Date::now() as i64;
    // Keyed by position and time: a step keeps its row as later ones arrive.
    let steps = Memo::new(move |_| {
        run.with(|r| {
            steps(r, now())
                .into_iter()
                .enumerate()
                .map(|(i, s)| ((i, s.at_ms, s.took_ms), s))
                .collect::<Vec<_>>()
        })
    });
    let left_out = move || {
        run.with(not_kept).map(|n| {
            format!(
                "Showing the newest {} milestones; {n} earlier ones are not kept (the server keeps a run's newest {MILESTONES_KEPT}).",
                run.with(|r| r.milestones.len())
            )
        })
    };
    view! {
        {move || {
            left_out()
                .map(|t| {
                    view! {
                        <p class="muted small" data-testid="milestones-left-out">
                            {t}
                        </p>
                    }
                })
        }}
        <ol class="milestones" data-testid="run-milestones" aria-label="Milestones, oldest first">
            <For each=move || steps.get() key=|(key, _)| *key let:step>
                <li class=format!("milestone--{}", step.1.kind) data-testid="milestone">
                    <time>{step.1.at_ms.map(clock).unwrap_or_default()}</time>
                    <span>{step.1.label.clone()}</span>
                    <span class="milestone__took">
                        {step.1.took_ms.map(|ms| span(ms / 1000)).unwrap_or_default()}
                    </span>
                </li>
            </For>
        </ol>
    }
}
