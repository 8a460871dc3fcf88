//! A mission's standing a person may change: archive it, reopen a completed one, restore an
//! archived one, as the server's own rule allows (`check_mission_transition`), and whether a
//! person closes it once its work is done (`requiresReview`). Pause and Resume are the
//! organizer's controls; Close mission is where completion is discussed.

use crate::api;
use crate::state::write::{refused, Write};
use buildd_core::client::ClientMission;
use buildd_core::lifecycle::check_mission_transition;
use buildd_core::MissionStatus;
use leptos::prelude::*;
use serde_json::json;

/// The status changes offered from `from`: (button, test id, status sent, what it does).
fn offered(from: &MissionStatus) -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
    let mut actions = Vec::new();
    let to_active = check_mission_transition(from, &MissionStatus::Active).is_ok();
    match from {
        MissionStatus::Completed if to_active => actions.push((
            "Reopen",
            "reopen-mission",
            "active",
            "It becomes active again and plans its next step.",
        )),
        MissionStatus::Archived if to_active => actions.push((
            "Restore",
            "restore-mission",
            "active",
            "It becomes active again.",
        )),
        _ => {}
    }
    if *from != MissionStatus::Archived
        && check_mission_transition(from, &MissionStatus::Archived).is_ok()
    {
        actions.push((
            "Archive",
            "archive-mission",
            "archived",
            "It moves to Completed in the lists and nothing plans or runs; Restore brings it back.",
        ));
    }
    actions
}

#[component]
pub fn MissionStatusCard(mission: ClientMission, refresh: Callback<()>) -> impl IntoView {
    let change = Write::<String>::new();
    let id = mission.id.clone();
    let send = move |body: serde_json::Value, what: &'static str| {
        let id = id.clone();
        change.send(
            move |c| async move { api::update_mission(&c, &id, body).await },
            refused(what),
            move |()| refresh.run(()),
        );
    };
    // Read back: Buildd sets requiresReview only when a mission is created and answers a
    // PATCH of it with 200 all the same, so a change that did not stick is said.
    let mission_id = mission.id.clone();
    let review_send = move |wanted: bool| {
        let id = mission_id.clone();
        change.send(
            move |c| async move {
                api::update_mission(&c, &id, json!({ "requiresReview": wanted })).await?;
                Ok(api::mission(&c, &id).await?.requires_review == wanted)
            },
            refused("Not saved"),
            move |stuck: bool| {
                if !stuck {
                    change.fail(
                        "Not saved: this API keeps the setting the mission was created with."
                            .into(),
                    );
                }
                refresh.run(());
            },
        );
    };
    let buttons = offered(&mission.status)
        .into_iter()
        .map(|(label, testid, to, why)| {
            let send = send.clone();
            view! {
                <li>
                    <button class="button" data-testid=testid prop:disabled=move || change.busy()
                        on:click=move |_| send(json!({"status": to}), "The status did not change")>
                        {label}
                    </button>
                    " "<span class="muted small">{why}</span>
                </li>
            }
        })
        .collect_view();
    let requires_review = mission.requires_review;
    view! {
        <section class="card" data-testid="mission-status-card">
            <h2 class="card__title">"Mission"</h2>
            <p data-testid="mission-status-now">{format!("Status: {}", mission.status.as_str().replace('_', " "))}</p>
            <label class="checkbox">
                <input type="checkbox" data-testid="requires-review"
                    prop:checked=requires_review
                    prop:disabled=move || change.busy()
                    on:change=move |ev| review_send(event_target_checked(&ev)) />
                "A person closes it: once its work is done it waits for Close mission, and its PRs wait for a person"
            </label>
            <ul class="status-actions">{buttons}</ul>
            {move || change.error().map(|e| view! { <p class="form__error" role="alert" data-testid="mission-status-error">{e}</p> })}
        </section>
    }
}
