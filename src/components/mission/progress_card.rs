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
pub fn ProgressCard(
    #[prop(into)] progress: Signal<MissionProgress>,
    #[prop(into)] status: Signal<MissionStatus>,
) -> impl IntoView {
    let empty = Memo::new(move |_| progress.with(|p| p.total_tasks == 0));
    // Drawn again in place as the counts move.
    let counts = move || {
        progress.with(|p| {
            view! {
                <ProgressBar progress=p.clone() percent=false />
                <p class="progress-card__subtitle" data-testid="progress-subtitle">
                    {status.with(|s| subtitle(p, s))}
                </p>
                <ProgressLegend progress=p.clone() />
            }
        })
    };
    let body = move || {
        if empty.get() {
            view! {
                <p class="muted" data-testid="progress-subtitle">
                    "No deliverables yet: progress counts real work, not planning runs."
                </p>
            }
            .into_any()
        } else {
            counts.into_any()
        }
    };
    view! {
        <section class="card progress-card" data-testid="progress-card">
            <div class="progress-card__head">
                <h2 class="card__title">"Progress"</h2>
                <span class="progress-card__percent" data-testid="progress-percent">
                    {move || format!("{}%", progress.with(|p| p.progress))}
                </span>
            </div>
            {body}
        </section>
    }
}
