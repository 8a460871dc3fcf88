//! The organizer runs and check-ins of a mission, newest first, in one timeline.

use crate::components::shared::not_offered::NotOffered;
use crate::format::time_ago;
use crate::state::refresh::Polled;
use buildd_core::organizer_runs::{MissionRuns, UNLABELLED};
use leptos::prelude::*;

/// One line of the timeline.
struct Entry {
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
            at: r.created_at.clone(),
            kind: "run",
            text: if r.label == UNLABELLED {
                format!("Organizer run · {}", r.status.replace('_', " "))
            } else {
                format!(
                    "Organizer run · {} · {}",
                    r.label,
                    r.status.replace('_', " ")
                )
            },
            task: Some(r.task_id.clone()),
        })
        .chain(runs.check_ins.iter().map(|c| Entry {
            at: c.at.clone(),
            kind: if c.outcome == "started" {
                "checkin-started"
            } else {
                "checkin"
            },
            text: format!("Check-in · {}", c.text),
            task: c.task_id.clone(),
        }))
        .collect();
    all.sort_by(|a, b| b.at.cmp(&a.at));
    all
}

#[component]
pub fn RunsTimeline(
    /// `Ok(None)`: the server does not list organizer runs.
    runs: Polled<Option<MissionRuns>>,
) -> impl IntoView {
    view! {
        <section class="card" data-testid="runs-timeline">
            <h2 class="card__title">"Organizer runs and check-ins"</h2>
            {move || match runs.get() {
                None => view! { <p class="muted">"Loading…"</p> }.into_any(),
                Some(Err(e)) => view! {
                    <p class="muted" role="alert">{format!("The organizer runs could not be read: {e}")}</p>
                }
                .into_any(),
                Some(Ok(None)) => view! {
                    <NotOffered text="This server does not list organizer runs and check-ins." />
                }
                .into_any(),
                Some(Ok(Some(r))) if r.runs.is_empty() && r.check_ins.is_empty() => view! {
                    <p class="muted">"No organizer runs or check-ins yet."</p>
                }
                .into_any(),
                Some(Ok(Some(r))) => view! {
                    <ol class="timeline">
                        {entries(&r)
                            .into_iter()
                            .map(|e| view! {
                                <li class=format!("timeline__entry timeline__entry--{}", e.kind) data-testid="timeline-entry">
                                    <span class="muted small">{time_ago(Some(&e.at))}</span>
                                    <span>{e.text}</span>
                                    {e.task.map(|t| view! { <a class="small" href=format!("/tasks/{t}")>"open"</a> })}
                                </li>
                            })
                            .collect_view()}
                    </ol>
                }
                .into_any(),
            }}
        </section>
    }
}
