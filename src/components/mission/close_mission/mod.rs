//! Where a mission's completion stands, and closing it: the dormant banner (work done,
//! waiting for a person) with its outcome, the sentence buildd-core's `completion_standing`
//! gives otherwise (what it waits for, or why it completed), and Close mission behind a
//! confirmation — on any active mission, with a warning when work is still open.

pub mod close_actions;
pub mod completion_head;
pub mod outcome;

use self::close_actions::CloseActions;
use self::completion_head::CompletionHead;
use crate::api;
use crate::state::mutation::{refused, Mutation};
use buildd_core::client::ClientMission;
use buildd_core::completion::{completion_standing, is_dormant};
use buildd_core::MissionStatus;
use leptos::prelude::*;
use std::sync::Arc;

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
                    <CompletionHead mission standing dormant active />
                    {move || {
                        active
                            .get()
                            .then(|| view! { <CloseActions mission confirming close dormant /> })
                    }}
                </section>
            }
        })
    }
}
