//! The mission page's progress card: the percentage, the bar and a plain-words summary.

use super::progress_legend::ProgressLegend;
use crate::components::shared::progress_bar::ProgressBar;
use buildd_core::{MissionProgress, MissionStatus};
use leptos::prelude::*;

fn subtitle(progress: &MissionProgress, status: &MissionStatus) -> String {
    let (c, t, k) = (
        progress.completed_tasks,
        progress.total_tasks,
        progress.awaiting_merge,
    );
    if *status == MissionStatus::Completed {
        format!("{t} tasks · {c} completed")
    } else if k > 0 {
        format!("{c}/{t} done · {k} awaiting merge")
    } else {
        format!("{c} of {t} tasks complete")
    }
}

#[component]
pub fn ProgressCard(progress: MissionProgress, status: MissionStatus) -> impl IntoView {
    let text = subtitle(&progress, &status);
    let percent = progress.progress;
    let empty = progress.total_tasks == 0;
    view! {
        <section class="card progress-card" data-testid="progress-card">
            <div class="progress-card__head">
                <h2 class="card__title">"Progress"</h2>
                <span class="progress-card__percent" data-testid="progress-percent">
                    {format!("{percent}%")}
                </span>
            </div>
            {if empty {
                view! {
                    <p class="muted" data-testid="progress-subtitle">
                        "No deliverables yet: progress counts real work, not planning runs."
                    </p>
                }
                    .into_any()
            } else {
                view! {
                    <ProgressBar progress=progress.clone() percent=false />
                    <p class="progress-card__subtitle" data-testid="progress-subtitle">
                        {text}
                    </p>
                    <ProgressLegend progress=progress />
                }
                    .into_any()
            }}
        </section>
    }
}
