//! The top of a mission's page: its title, state, goal, a plan awaiting review and its
//! progress.

use super::arm_mission::ArmMission;
use super::mission_editor::MissionEditor;
use super::mission_waiting::MissionWaiting;
use super::progress_card::ProgressCard;
use crate::components::shared::health_chip::HealthChip;
use crate::components::shared::markdown::Markdown;
use crate::components::shared::state_chip::StateChip;
use buildd_core::client::ClientMission;
use buildd_core::grouping::{health, health_beside, mission_state};
use buildd_core::plan::plan_in_review;
use buildd_core::{compute_progress, MissionStatus};
use leptos::prelude::*;
use std::sync::Arc;

const STARTS_ON_APPROVAL: &str = "Its steps start once a person approves the plan; sending \
                                  it back asks for a revision.";

#[component]
pub fn MissionHead(mission: Memo<Arc<ClientMission>>, refresh: Callback<()>) -> impl IntoView {
    let editing = RwSignal::new(false);
    let done_editing = Callback::new(move |()| {
        editing.set(false);
        refresh.run(());
    });
    let progress = Memo::new(move |_| mission.with(|m| compute_progress(&m.status, &m.tasks)));
    let state = Memo::new(move |_| {
        progress.with(|p| mission.with(|m| mission_state(m.as_ref(), &m.tasks, p)))
    });
    let health = Memo::new(move |_| {
        progress.with(|p| mission.with(|m| health_beside(state.get(), health(m.as_ref(), p))))
    });
    let status = Memo::new(move |_| mission.with(|m| m.status.clone()));
    // The stored status, when the state chip does not already say it (every state but a
    // finished or paused one implies "active").
    let status_apart = Memo::new(move |_| {
        status.with(|s| {
            (*s != MissionStatus::Active && !state.get().label().eq_ignore_ascii_case(&s.label()))
                .then(|| s.label().into_owned())
        })
    });
    let workspace =
        Memo::new(move |_| mission.with(|m| m.workspace.as_ref().map(|w| w.name.clone())));
    let description = Memo::new(move |_| mission.with(|m| m.description.clone()));
    let blocked = Memo::new(move |_| mission.with(|m| m.blocked_reason.clone()));
    let plan = Memo::new(move |_| {
        mission.with(|m| plan_in_review(&m.tasks).map(|t| (t.id.clone(), t.title.clone())))
    });
    view! {
        <header class="mission-head">
            <div class="mission-head__title">
                <h1 data-testid="mission-title">{move || mission.with(|m| m.title.clone())}</h1>
                <button
                    class="button button--small button--ghost"
                    data-testid="mission-edit"
                    class:hidden=editing
                    on:click=move |_| editing.set(true)
                >
                    "Edit"
                </button>
            </div>
            <div class="chips">
                {move || view! { <StateChip state=state.get() /> }}
                {move || health.get().map(|health| view! { <HealthChip health /> })}
                {move || {
                    status_apart
                        .get()
                        .map(|s| {
                            view! {
                                <span
                                    class="chip chip--outline chip--muted"
                                    data-testid="mission-status"
                                >
                                    {format!("status: {s}")}
                                </span>
                            }
                        })
                }}
                {move || {
                    workspace
                        .get()
                        .map(|w| {
                            view! { <span class="muted small">{format!("workspace {w}")}</span> }
                        })
                }}
            </div>
            {move || {
                description
                    .get()
                    .map(|d| {
                        view! {
                            <div
                                class="mission-head__description"
                                data-testid="mission-description"
                            >
                                <Markdown source=d />
                            </div>
                        }
                    })
            }}
            {move || blocked.get().map(|r| view! { <p class="notice notice--warn">{r}</p> })}
        </header>
        {move || {
            plan.get()
                .map(|(id, title)| {
                    view! {
                        <section class="card plan-waiting" data-testid="plan-awaiting-review">
                            <h2 class="card__title">"Plan awaiting review"</h2>
                            <p>{format!("{title} finished planning. {STARTS_ON_APPROVAL}")}</p>
                            <a class="button button--primary" href=format!("/tasks/{id}")>
                                "Review the plan"
                            </a>
                        </section>
                    }
                })
        }}
        {move || editing.get().then(|| view! { <MissionEditor mission on_done=done_editing /> })}
        <ArmMission mission refresh />
        <MissionWaiting mission refresh />
        <ProgressCard progress status />
    }
}
