//! Edit a task that has not started: its title, description and priority, checked by
//! buildd-core's rules before they are sent.

use crate::api;
use crate::components::shared::details_editor::{Details, DetailsEdit, DetailsEditor};
use crate::state::mutation::{refused, Mutation};
use buildd_core::client::ClientTask;
use buildd_core::requests::tasks::TaskPatch;
use buildd_core::requests::Patch;
use leptos::prelude::*;

#[component]
pub fn TaskEditor(task: Memo<ClientTask>, on_done: Callback<()>) -> impl IntoView {
    let initial = task.with_untracked(|t| Details {
        title: t.title.clone(),
        description: t.description.clone().unwrap_or_default(),
        priority: t.priority.to_string(),
    });
    let id = task.with_untracked(|t| t.id.clone());
    let save = Mutation::request(
        move |c, edit: &DetailsEdit| {
            let id = id.clone();
            let change = TaskPatch {
                title: Patch::Value(edit.title.clone()),
                description: edit.description.clone().map_or(Patch::Null, Patch::Value),
                priority: Patch::Value(edit.priority),
                ..TaskPatch::default()
            };
            async move {
                api::update_task(&c, &id, &change).await?;
                on_done.run(());
                Ok(())
            }
        },
        |e: &api::ApiError| (e.field().map(str::to_string), refused("Not saved")(e)),
    );
    view! { <DetailsEditor noun="task" initial save on_done /> }
}
