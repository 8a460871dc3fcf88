//! Where a mission's completion stands, and closing it: the dormant banner (work done,
//! waiting for a person) with its outcome, the sentence buildd-core's `completion_standing`
//! gives otherwise (what it waits for, or why it completed), and Close mission behind a
//! confirmation — on any active mission, with a warning when work is still open.

use super::confirm::Confirm;
use crate::api;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::{refused, Mutation};
use buildd_core::client::ClientMission;
use buildd_core::completion::{completion_check, completion_standing, is_dormant, why_not_text};
use buildd_core::plan::planned_nothing;
use buildd_core::{compute_progress, MissionStatus, SegmentState};
use leptos::prelude::*;
use std::sync::Arc;

/// What its deliverables came to, as the progress bar counts them: a completed task is done
/// once its PR merged (or it made none) and awaits merge while its PR is open.
fn outcome(mission: &ClientMission) -> String {
    let progress = compute_progress(&mission.status, &mission.tasks);
    let merged = progress
        .segments
        .iter()
        .filter(|s| s.state == SegmentState::Solid)
        .filter(|s| {
            mission
                .tasks
                .iter()
                .find(|t| t.id == s.task_id)
                .is_some_and(|t| t.workers.iter().any(|w| w.pr_url.is_some()))
        })
        .count();
    let open = progress.awaiting_merge;
    let done = progress.completed_tasks + open;
    let failed = progress.failed;
    format!("PRs: {merged} merged, {open} open · tasks: {done} completed, {failed} failed")
}

#[component]
pub fn CloseMission(mission: Memo<Arc<ClientMission>>, refresh: Callback<()>) -> impl IntoView {
    let standing = Memo::new(move |_| {
        mission.with(|m| {
            completion_standing(
                &m.status,
                &m.orchestration_mode,
                m.requires_review,
                &m.tasks,
            )
        })
    });
    let shown = Memo::new(move |_| standing.with(Option::is_some));
    let active = Memo::new(move |_| mission.with(|m| m.status == MissionStatus::Active));
    let dormant = Memo::new(move |_| {
        mission.with(|m| {
            is_dormant(
                &m.status,
                m.requires_review,
                &m.orchestration_mode,
                &m.tasks,
            )
        })
    });
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
    let warning = Memo::new(move |_| {
        mission.with(|m| {
            completion_check(&m.tasks).err().map(|why| {
                format!(
                    "{}. Closing now stops its check-ins and leaves that work as it is.",
                    why_not_text(&why)
                )
            })
        })
    });
    let summary = Memo::new(move |_| mission.with(|m| outcome(m)));
    let confirming = RwSignal::new(false);
    let id = mission.with_untracked(|m| m.id.clone());
    let close = Mutation::send_then_clear(
        confirming,
        refresh,
        move |c, (): &()| {
            let id = id.clone();
            async move { api::close_mission(&c, &id).await }
        },
        refused("Not closed"),
    );
    let head = move || {
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
    };
    let actions = move || {
        if confirming.get() {
            view! {
                <Confirm
                    name="close"
                    labelled_by="close-question"
                    confirm="Close mission"
                    working="Closing…"
                    busy=move || close.busy()
                    on_confirm=move |()| close.dispatch(())
                    on_cancel=move |()| confirming.set(false)
                >
                    <p id="close-question">
                        <strong>"Close this mission?"</strong>
                        " It becomes completed and its check-ins stop."
                    </p>
                    {move || {
                        warning
                            .get()
                            .map(|w| {
                                view! {
                                    <p class="notice notice--warn" data-testid="close-warning">
                                        {w}
                                    </p>
                                }
                            })
                    }}
                    <FormError error=move || close.error() />
                </Confirm>
            }
            .into_any()
        } else {
            view! {
                <div class="actions">
                    <button
                        class=move || {
                            if dormant.get() { "button button--primary" } else { "button" }
                        }
                        data-testid="close-mission-button"
                        on:click=move |_| {
                            close.clear();
                            confirming.set(true);
                        }
                    >
                        "Close mission"
                    </button>
                </div>
            }
            .into_any()
        }
    };
    move || {
        shown.get().then(|| {
            view! {
                <section
                    class=move || {
                        if dormant.get() {
                            "card close-mission close-mission--dormant"
                        } else {
                            "card close-mission"
                        }
                    }
                    data-testid="close-mission"
                >
                    {head}
                    {move || active.get().then(actions)}
                </section>
            }
        })
    }
}
