//! Closing a mission: the dormant banner (work done, waiting for a person) with its outcome,
//! and Close mission behind a confirmation — on any active mission, with a warning when work
//! is still open.

use crate::api;
use crate::state::connection::Connection;
use buildd_core::client::ClientMission;
use buildd_core::completion::{completion_check, is_dormant, why_not_text};
use buildd_core::dependencies::has_open_pr;
use buildd_core::progress::is_deliverable;
use buildd_core::{MissionStatus, TaskStatus};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::json;

/// The confirmation in progress. Lives above the refreshed view.
#[derive(Clone, Copy)]
pub struct CloseState {
    pub confirming: RwSignal<bool>,
    pub busy: RwSignal<bool>,
    pub error: RwSignal<Option<String>>,
}

impl CloseState {
    pub fn new() -> Self {
        Self {
            confirming: RwSignal::new(false),
            busy: RwSignal::new(false),
            error: RwSignal::new(None),
        }
    }
}

impl Default for CloseState {
    fn default() -> Self {
        Self::new()
    }
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
    connection: Connection,
    mission: ClientMission,
    state: CloseState,
    refresh: Callback<()>,
) -> impl IntoView {
    if mission.status != MissionStatus::Active {
        return None;
    }
    let dormant = is_dormant(&mission.status, mission.requires_review, &mission.tasks);
    let why_not = completion_check(&mission.tasks)
        .err()
        .map(|why| why_not_text(&why));
    let summary = outcome(&mission);
    let id = mission.id.clone();
    let close = move |_| {
        let (connection, id) = (connection.clone(), id.clone());
        state.busy.set(true);
        state.error.set(None);
        spawn_local(async move {
            match api::update_mission(&connection, &id, json!({"status": "completed"})).await {
                Ok(()) => {
                    state.confirming.set(false);
                    refresh.run(());
                }
                Err(e) => state
                    .error
                    .set(Some(format!("Not closed: {}", e.refusal()))),
            }
            state.busy.set(false);
        });
    };
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
                    <p class="muted small" data-testid="why-not-complete">
                        {why_not.clone().unwrap_or_else(|| "The work is done; the mission closes by itself.".into())}
                    </p>
                }
                .into_any()
            }}
            {move || if state.confirming.get() {
                let close = close.clone();
                view! {
                    <div class="confirm" role="alertdialog" aria-labelledby="close-question" data-testid="close-confirm">
                        <p id="close-question"><strong>"Close this mission?"</strong>" It becomes completed and its check-ins stop."</p>
                        {warning.clone().map(|w| view! { <p class="notice notice--warn" data-testid="close-warning">{w}</p> })}
                        {move || state.error.get().map(|e| view! { <p class="form__error" role="alert">{e}</p> })}
                        <div class="actions">
                            <button class="button button--primary" data-testid="confirm-close" prop:disabled=move || state.busy.get() on:click=close>
                                {move || if state.busy.get() { "Closing…" } else { "Close mission" }}
                            </button>
                            <button class="button" on:click=move |_| state.confirming.set(false)>"Cancel"</button>
                        </div>
                    </div>
                }
                .into_any()
            } else {
                view! {
                    <div class="actions">
                        <button
                            class=if dormant { "button button--primary" } else { "button" }
                            data-testid="close-mission-button"
                            on:click=move |_| { state.error.set(None); state.confirming.set(true); }
                        >
                            "Close mission"
                        </button>
                    </div>
                }
                .into_any()
            }}
        </section>
    })
}
