//! A mission's standing a person may change: archive it, reopen a completed one, restore an
//! archived one, as the server's own rule allows (`check_mission_transition`), and whether a
//! person closes it once its work is done (`requiresReview`). Pause and Resume are the
//! organizer's controls; Close mission is where completion is discussed.

pub mod offered;
pub mod status_buttons;

use self::status_buttons::StatusButtons;
use crate::api;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::{refused, Mutation};
use buildd_core::client::ClientMission;
use buildd_core::requests::missions::MissionPatch;
use buildd_core::requests::Patch;
use buildd_core::MissionStatus;
use leptos::prelude::*;

const PERSON_CLOSES: &str = "A person closes it: once its work is done it waits for Close \
                             mission, and its PRs wait for a person";

#[component]
pub fn MissionStatusCard(mission: Memo<ClientMission>, refresh: Callback<()>) -> impl IntoView {
    let id = mission.with_untracked(|m| m.id.clone());
    let status = Memo::new(move |_| mission.with(|m| m.status.clone()));
    let requires_review = Memo::new(move |_| mission.with(|m| m.requires_review));
    let move_to = {
        let id = id.clone();
        Mutation::request(
            move |c, to: &&'static str| {
                let (id, to) = (id.clone(), *to);
                async move {
                    let change = MissionPatch {
                        status: Some(MissionStatus::parse(to)),
                        ..MissionPatch::default()
                    };
                    api::update_mission(&c, &id, &change).await?;
                    refresh.run(());
                    Ok(())
                }
            },
            refused("The status did not change"),
        )
    };
    // Read back: Buildd sets requiresReview only when a mission is created and answers a
    // PATCH of it with 200 all the same, so a change that did not stick is said.
    let review = Mutation::request(
        move |c, wanted: &bool| {
            let (id, wanted) = (id.clone(), *wanted);
            async move {
                let change = MissionPatch {
                    requires_review: Patch::Value(wanted),
                    ..MissionPatch::default()
                };
                api::update_mission(&c, &id, &change).await?;
                let stuck = api::mission(&c, &id).await?.requires_review == wanted;
                refresh.run(());
                Ok(stuck)
            }
        },
        refused("Not saved"),
    );
    let busy = Signal::derive(move || move_to.busy() || review.busy());
    // The last change's outcome: each clears the other's.
    let error = move || {
        move_to.error().or_else(|| review.error()).or_else(|| {
            (review.answer() == Some(false)).then(|| {
                "Not saved: this API keeps the setting the mission was created with.".to_string()
            })
        })
    };
    view! {
        <section class="card" data-testid="mission-status-card">
            <h2 class="card__title">"Mission"</h2>
            <p data-testid="mission-status-now">
                {move || format!("Status: {}", status.with(|s| s.label().into_owned()))}
            </p>
            <label class="checkbox">
                <input
                    type="checkbox"
                    data-testid="requires-review"
                    prop:checked=requires_review
                    prop:disabled=busy
                    on:change=move |ev| {
                        move_to.clear();
                        review.dispatch(event_target_checked(&ev));
                    }
                />
                {PERSON_CLOSES}
            </label>
            <ul class="status-actions">
                <StatusButtons status move_to review busy />
            </ul>
            <FormError error=move || error() testid="mission-status-error" />
        </section>
    }
}
