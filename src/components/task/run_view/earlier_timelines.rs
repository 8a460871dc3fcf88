//! `<EarlierTimelines>`: earlier attempts' milestones, each folded away, newest first.

use crate::components::task::run_timeline::RunTimeline;
use buildd_core::task::TaskWorker;
use leptos::prelude::*;

#[component]
pub fn EarlierTimelines(
    /// The attempts before the latest, newest first.
    earlier: Memo<Vec<TaskWorker>>,
) -> impl IntoView {
    move || {
        earlier
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, run)| {
                let n = earlier.with(Vec::len) - i;
                let run = Memo::new(move |_| run.clone());
                view! {
                    <details class="small" data-testid="earlier-run-timeline">
                        <summary>{format!("Attempt {n}'s milestones")}</summary>
                        <RunTimeline run />
                    </details>
                }
            })
            .collect_view()
    }
}
