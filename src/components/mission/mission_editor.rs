//! Edit what was filed as a mission: its title, description and priority, checked by
//! buildd-core's rules before they are sent.

use crate::api;
use crate::components::shared::details_editor::{Details, DetailsEdit, DetailsEditor};
use crate::state::mutation::{refused, Mutation};
use buildd_core::client::ClientMission;
use buildd_core::requests::missions::MissionPatch;
use buildd_core::requests::Patch;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn MissionEditor(mission: Memo<Arc<ClientMission>>, on_done: Callback<()>) -> impl IntoView {
    let initial = mission.with_untracked(|m| Details {
        title: m.title.clone(),
        description: m.description.clone().unwrap_or_default(),
        priority: m.priority.to_string(),
    });
    let id = mission.with_untracked(|m| m.id.clone());
    let save = Mutation::request(
        move |c, edit: &DetailsEdit| {
            let id = id.clone();
            let change = MissionPatch {
                title: Patch::Value(edit.title.clone()),
                description: edit.description.clone().map_or(Patch::Null, Patch::Value),
                priority: Patch::Value(edit.priority),
                ..MissionPatch::default()
            };
            async move {
                api::update_mission(&c, &id, &change).await?;
                on_done.run(());
                Ok(())
            }
        },
        |e: &api::ApiError| (e.field().map(str::to_string), refused("Not saved")(e)),
    );
    view! { <DetailsEditor noun="mission" initial save on_done /> }
}
