//! `<CompletionHead>`: where a mission's completion stands: the dormant banner with its
//! outcome, or buildd-core's sentence and a run that planned nothing.

use super::outcome::outcome;
use buildd_core::client::ClientMission;
use buildd_core::plan::planned_nothing;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn CompletionHead(
    mission: Memo<Arc<ClientMission>>,
    /// What buildd-core's `completion_standing` says.
    standing: Memo<Option<String>>,
    /// Work done, waiting for a person to close it.
    dormant: Memo<bool>,
    active: Memo<bool>,
) -> impl IntoView {
    let planned_nothing = Memo::new(move |_| {
        mission.with(|m| {
            planned_nothing(&m.tasks)
                .filter(|_| active.get())
                .map(|summary| {
                    format!(
                    "The organizer's last run planned nothing: {summary} It plans again after a \
                     note, Run or a check-in."
                )
                })
        })
    });
    let summary = Memo::new(move |_| mission.with(|m| outcome(m)));
    move || {
        if dormant.get() {
            view! {
                <h2 class="card__title">
                    "All work is done — this mission needs your review to close"
                </h2>
                <p data-testid="mission-outcome">{summary}</p>
            }
            .into_any()
        } else {
            view! {
                <h2 class="card__title">"Completion"</h2>
                <p class="muted small" data-testid="completion-standing">
                    {move || standing.get()}
                </p>
                {move || {
                    planned_nothing
                        .get()
                        .map(|p| {
                            view! {
                                <p class="muted small" data-testid="planned-nothing">
                                    {p}
                                </p>
                            }
                        })
                }}
            }
            .into_any()
        }
    }
}
