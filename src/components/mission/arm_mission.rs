//! A held mission says so, and Arm lets its tasks be claimed (and an auto mission plan).

use crate::api;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::{refused, Mutation};
use buildd_core::client::ClientMission;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn ArmMission(mission: Memo<Arc<ClientMission>>, refresh: Callback<()>) -> impl IntoView {
    let held = Memo::new(move |_| mission.with(|m| m.is_held));
    let id = mission.with_untracked(|m| m.id.clone());
    let arm = Mutation::request(
        move |c, (): &()| {
            let id = id.clone();
            async move {
                api::arm_mission(&c, &id).await?;
                // Read back: a mission still held says the change did not stick.
                let still = api::mission(&c, &id).await?.is_held;
                refresh.run(());
                if still {
                    return Err(api::ApiError::Status(
                        200,
                        "the mission is still held".into(),
                    ));
                }
                Ok(())
            }
        },
        refused("Not armed"),
    );
    move || {
        held.get().then(|| {
            view! {
                <section class="card plan-waiting" data-testid="mission-held">
                    <p>"This mission is held: its tasks wait until you arm it."</p>
                    <button
                        class="button button--primary"
                        data-testid="arm-mission"
                        prop:disabled=move || arm.busy()
                        on:click=move |_| arm.dispatch(())
                    >
                        "Arm"
                    </button>
                    <FormError error=move || arm.error() testid="arm-error" />
                </section>
            }
        })
    }
}
