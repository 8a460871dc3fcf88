//! Where a mission's completion stands, and closing it: the dormant banner (work done,
//! waiting for a person) with its outcome, the sentence buildd-core's `completion_standing`
//! gives otherwise (what it waits for, or why it completed), and Close mission behind a
//! confirmation — on any active mission, with a warning when work is still open.

use super::confirm::Confirm;
use crate::api;
use crate::state::write::{refused, Write};
use buildd_core::client::ClientMission;
use buildd_core::completion::{completion_check, completion_standing, is_dormant, why_not_text};
use buildd_core::dependencies::has_open_pr;
use buildd_core::plan::planned_nothing;
use buildd_core::progress::is_deliverable;
use buildd_core::{MissionStatus, TaskStatus};
use leptos::prelude::*;

/// The confirmation in progress. Lives above the refreshed view.
#[derive(Clone, Copy, Default)]
pub struct CloseState {
    pub confirming: RwSignal<bool>,
    pub close: Write,
}

fn outcome(mission: &ClientMission) -> String {
    let deliverables: Vec<_> = mission.tasks.iter().filter(|t| is_deliverable(t)).collect();
    let done = deliverables
        .iter()
        .filter(|t| t.status == TaskStatus::Completed)
        .count();
    let failed = deliverables
        .iter()
        .filter(|t| t.status == TaskStatus::Failed)
        .count();
    let with_pr: Vec<_> = deliverables
        .iter()
        .filter(|t| t.workers.iter().any(|w| w.pr_url.is_some()))
        .collect();
    let open = with_pr.iter().filter(|t| has_open_pr(&t.workers)).count();
    format!(
        "PRs: {} merged, {open} open · tasks: {done} completed, {failed} failed",
        with_pr.len() - open
    )
}

#[component]
pub fn CloseMission(
    mission: ClientMission,
    state: CloseState,
    refresh: Callback<()>,
) -> impl IntoView {
    let standing = completion_standing(
        &mission.status,
        &mission.orchestration_mode,
        mission.requires_review,
        &mission.tasks,
    )?;
    if mission.status != MissionStatus::Active {
        return Some(
            view! {
                <section class="card close-mission" data-testid="close-mission">
                    <h2 class="card__title">"Completion"</h2>
                    <p class="muted small" data-testid="completion-standing">{standing}</p>
                </section>
            }
            .into_any(),
        );
    }
    let dormant = is_dormant(
        &mission.status,
        mission.requires_review,
        &mission.orchestration_mode,
        &mission.tasks,
    );
    let planned_nothing = planned_nothing(&mission.tasks).map(|summary| {
        format!("The organizer's last run planned nothing: {summary} It plans again after a note, Run or a check-in.")
    });
    let why_not = completion_check(&mission.tasks)
        .err()
        .map(|why| why_not_text(&why));
    let summary = outcome(&mission);
    let id = mission.id.clone();
    let close = Callback::new(move |()| {
        let id = id.clone();
        state.close.send_then_clear(
            state.confirming,
            |c| async move { api::close_mission(&c, &id).await },
            refused("Not closed"),
            refresh,
        );
    });
    let warning = why_not
        .clone()
        .map(|w| format!("{w}. Closing now stops its check-ins and leaves that work as it is."));
    Some(view! {
        <section class="card close-mission" class:close-mission--dormant=dormant data-testid="close-mission">
            {if dormant {
                view! {
                    <h2 class="card__title">"All work is done — this mission needs your review to close"</h2>
                    <p data-testid="mission-outcome">{summary}</p>
                }
                .into_any()
            } else {
                view! {
                    <h2 class="card__title">"Completion"</h2>
                    <p class="muted small" data-testid="completion-standing">{standing.clone()}</p>
                    {planned_nothing.clone().map(|p| view! { <p class="muted small" data-testid="planned-nothing">{p}</p> })}
                }
                .into_any()
            }}
            {move || if state.confirming.get() {
                let warning = warning.clone();
                view! {
                    <Confirm
                        name="close"
                        labelled_by="close-question"
                        confirm="Close mission" working="Closing…"
                        busy=move || state.close.busy()
                        on_confirm=close
                        on_cancel=move |()| state.confirming.set(false)
                    >
                        <p id="close-question"><strong>"Close this mission?"</strong>" It becomes completed and its check-ins stop."</p>
                        {warning.map(|w| view! { <p class="notice notice--warn" data-testid="close-warning">{w}</p> })}
                        {move || state.close.error().map(|e| view! { <p class="form__error" role="alert">{e}</p> })}
                    </Confirm>
                }
                .into_any()
            } else {
                view! {
                    <div class="actions">
                        <button
                            class=if dormant { "button button--primary" } else { "button" }
                            data-testid="close-mission-button"
                            on:click=move |_| { state.close.clear_error(); state.confirming.set(true); }
                        >
                            "Close mission"
                        </button>
                    </div>
                }
                .into_any()
            }}
        </section>
    }
    .into_any())
}
