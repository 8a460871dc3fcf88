//! The organizer runs and check-ins of a mission, newest first, in one timeline.

use crate::components::shared::not_offered::NotOffered;
use crate::components::shared::polled::Polled;
use crate::format::time_ago;
use crate::state::refresh::PolledRead;
use crate::state::rows::{positions, row_at, unique_keys};
use buildd_core::organizer_runs::{MissionRuns, UNLABELLED};
use buildd_core::CheckinOutcome;
use leptos::prelude::*;
use std::sync::Arc;

const NOT_LISTED: &str = "This server does not list organizer runs and check-ins.";
const NONE_YET: &str = "No organizer runs or check-ins yet.";

/// One line of the timeline.
#[derive(Clone, PartialEq)]
struct Entry {
    /// A run's task, or a check-in's time.
    key: String,
    at: String,
    kind: &'static str,
    text: String,
    task: Option<String>,
}

fn entries(runs: &MissionRuns) -> Vec<Entry> {
    let mut all: Vec<Entry> = runs
        .runs
        .iter()
        .map(|r| Entry {
            key: format!("run {}", r.task_id),
            at: r.created_at.clone(),
            kind: "run",
            text: if r.label == UNLABELLED {
                format!("Organizer run · {}", r.status.label())
            } else {
                format!("Organizer run · {} · {}", r.label, r.status.label())
            },
            task: Some(r.task_id.clone()),
        })
        .chain(runs.check_ins.iter().map(|c| Entry {
            key: format!("check-in {}", c.at),
            at: c.at.clone(),
            kind: if c.outcome == CheckinOutcome::Started {
                "checkin-started"
            } else {
                "checkin"
            },
            text: format!("Check-in · {}", c.text),
            task: c.task_id.clone(),
        }))
        .collect();
    all.sort_by(|a, b| b.at.cmp(&a.at));
    // Two check-ins in one instant are two lines.
    let keys = unique_keys(all.iter().map(|e| e.key.clone()));
    for (e, key) in all.iter_mut().zip(keys) {
        e.key = key;
    }
    all
}

#[component]
pub fn RunsTimeline(
    /// `None`: the server does not list organizer runs.
    runs: PolledRead<Option<MissionRuns>>,
) -> impl IntoView {
    let timeline = move |runs: Memo<Arc<Option<MissionRuns>>>| {
        let entries = Memo::new(move |_| runs.with(|r| r.as_ref().as_ref().map(entries)));
        let state = Memo::new(move |_| entries.with(|e| e.as_ref().map(Vec::is_empty)));
        let at = positions(move || {
            entries.with(|e| e.iter().flatten().map(|e| e.key.clone()).collect())
        });
        let entry = move |key: String| {
            let e = row_at(at, key, move |i| {
                entries.with(|e| e.as_ref().and_then(|e| e.get(i)).cloned())
            });
            view! {
                <li
                    class=move || e.with(|e| format!("timeline__entry timeline__entry--{}", e.kind))
                    data-testid="timeline-entry"
                >
                    <span class="muted small">{move || e.with(|e| time_ago(Some(&e.at)))}</span>
                    <span>{move || e.with(|e| e.text.clone())}</span>
                    {move || {
                        e.with(|e| e.task.clone())
                            .map(|t| {
                                view! {
                                    <a class="small" href=format!("/tasks/{t}")>
                                        "open"
                                    </a>
                                }
                            })
                    }}
                </li>
            }
        };
        move || match state.get() {
            None => view! { <NotOffered text=NOT_LISTED /> }.into_any(),
            Some(true) => view! { <p class="muted">{NONE_YET}</p> }.into_any(),
            Some(false) => view! {
                <ol class="timeline">
                    <For
                        each=move || {
                            entries
                                .with(|e| {
                                    e.iter().flatten().map(|e| e.key.clone()).collect::<Vec<_>>()
                                })
                        }
                        key=String::clone
                        children=entry
                    />
                </ol>
            }
            .into_any(),
        }
    };
    view! {
        <section class="card" data-testid="runs-timeline">
            <h2 class="card__title">"Organizer runs and check-ins"</h2>
            <Polled read=runs loading="Loading the organizer runs…" let:runs>
                {timeline(runs)}
            </Polled>
        </section>
    }
}
