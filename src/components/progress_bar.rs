//! The segmented, deliverables-only progress bar. Each state has its own pattern as well as
//! its own colour, so the bar reads without colour: filled (done), half-filled (awaiting
//! merge), hatched (in flight), crossed (failed), outlined (not started).

use buildd_core::{MissionProgress, SegmentState};
use leptos::prelude::*;

/// At most this many segments are drawn as separate glyphs; more become one bar.
const GLYPH_LIMIT: usize = 8;

fn state_title(state: SegmentState) -> &'static str {
    match state {
        SegmentState::Solid => "done",
        SegmentState::Half => "awaiting merge",
        SegmentState::Ghost => "in flight",
        SegmentState::Notch => "failed",
        SegmentState::Empty => "not started",
    }
}

#[component]
pub fn ProgressBar(progress: MissionProgress) -> impl IntoView {
    let done = progress.completed_tasks;
    let total = progress.total_tasks;
    let continuous = progress.segments.len() > GLYPH_LIMIT;
    let segments = progress
        .segments
        .iter()
        .map(|s| {
            view! {
                <span
                    class=format!("seg seg--{}", s.state.as_str())
                    title=state_title(s.state)
                ></span>
            }
        })
        .collect_view();
    view! {
        <div class="progress">
            <div
                class="progress__bar"
                class:progress__bar--continuous=continuous
                role="img"
                aria-label=format!("{done} of {total} tasks complete")
                data-testid="progress-bar"
            >
                {segments}
            </div>
            <span class="progress__count" data-testid="progress-count">
                {format!("{done}/{total}")}
            </span>
        </div>
    }
}

/// A key to the bar's patterns, with how many tasks are in each state.
#[component]
pub fn ProgressLegend(progress: MissionProgress) -> impl IntoView {
    let items = [
        (SegmentState::Solid, progress.completed_tasks),
        (SegmentState::Half, progress.awaiting_merge),
        (SegmentState::Ghost, progress.in_flight),
        (SegmentState::Notch, progress.failed),
        (
            SegmentState::Empty,
            progress.total_tasks
                - progress.completed_tasks
                - progress.awaiting_merge
                - progress.in_flight
                - progress.failed,
        ),
    ];
    view! {
        <ul class="legend">
            {items
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
