//! The deliverables-only progress bar: the width of its container, one segment per state
//! sized by how many tasks are in it, with the percentage and "done/total" beside it. Each
//! state has its own pattern as well as its own colour, so the bar reads without colour:
//! filled (done), striped (awaiting merge), hatched (in flight), crossed (failed), outlined
//! (not started).

use buildd_core::{MissionProgress, SegmentState};
use leptos::prelude::*;

pub(crate) fn state_title(state: SegmentState) -> &'static str {
    match state {
        SegmentState::Solid => "done",
        SegmentState::Half => "awaiting merge",
        SegmentState::Ghost => "in flight",
        SegmentState::Notch => "failed",
        SegmentState::Empty => "not started",
    }
}

/// How many counted tasks are in each state, in the bar's order.
pub(crate) fn counts(progress: &MissionProgress) -> [(SegmentState, u32); 5] {
    let rest = progress
        .total_tasks
        .saturating_sub(progress.completed_tasks)
        .saturating_sub(progress.awaiting_merge)
        .saturating_sub(progress.in_flight)
        .saturating_sub(progress.failed);
    [
        (SegmentState::Solid, progress.completed_tasks),
        (SegmentState::Half, progress.awaiting_merge),
        (SegmentState::Ghost, progress.in_flight),
        (SegmentState::Notch, progress.failed),
        (SegmentState::Empty, rest),
    ]
}

/// `percent`: whether the percentage shows beside the bar (the progress card shows it large
/// above it instead).
#[component]
pub fn ProgressBar(
    progress: MissionProgress,
    #[prop(default = true)] percent: bool,
) -> impl IntoView {
    let done = progress.completed_tasks;
    let total = progress.total_tasks;
    let shown = progress.progress;
    let segments = counts(&progress)
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(state, n)| {
            view! {
                <span
                    class=format!("seg seg--{}", state.as_str())
                    style=format!("flex-grow: {n}")
                    title=format!("{n} {}", state_title(state))
                ></span>
            }
        })
        .collect_view();
    let beside = if percent {
        format!("{shown}% · {done}/{total}")
    } else {
        format!("{done}/{total}")
    };
    view! {
        <div class="progress">
            <div
                class="progress__bar"
                role="progressbar"
                aria-valuemin="0"
                aria-valuemax="100"
                aria-valuenow=shown.to_string()
                aria-valuetext=format!("{shown}%: {done} of {total} tasks complete")
                aria-label=format!("{done} of {total} tasks complete")
                data-testid="progress-bar"
            >
                {segments}
            </div>
            <span class="progress__count" data-testid="progress-count">
                {beside}
            </span>
        </div>
    }
}
