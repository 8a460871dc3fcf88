//! `<WorkspaceField>`: New mission's workspace, chosen from the connected Buildd's list.

use super::mission_draft::MissionDraft;
use crate::api;
use crate::state::connection::use_connection;
use crate::state::request::with_connection;
use buildd_core::WorkspaceList;
use leptos::prelude::*;

#[component]
pub fn WorkspaceField(draft: RwSignal<MissionDraft>) -> impl IntoView {
    let connection = use_connection();
    let workspaces = LocalResource::new(move || {
        with_connection(&connection, |c| async move { api::workspaces(&c).await })
    });
    // The first workspace is chosen until the person picks one.
    Effect::new(move |_| {
        if let Some(Ok(WorkspaceList { workspaces })) = workspaces.get() {
            if draft.with_untracked(|d| d.workspace.is_empty()) {
                if let Some(first) = workspaces.first() {
                    let id = first.id.clone();
                    draft.update(|d| d.workspace = id);
                }
            }
        }
    });
    view! {
        <div class="field">
            <label class="field__label" for="mission-workspace">
                "Workspace"
            </label>
            {move || match workspaces.get() {
                None => view! { <p class="muted small">"Loading workspaces…"</p> }.into_any(),
                Some(Err(e)) => {
                    view! {
                        <p class="form__error">
                            {format!("The workspaces could not be read: {e}")}
                        </p>
                    }
                        .into_any()
                }
                Some(Ok(list)) => {
                    view! {
                        <select
                            id="mission-workspace"
                            data-testid="new-mission-workspace"
                            prop:value=move || draft.with(|d| d.workspace.clone())
                            on:change=move |ev| {
                                let v = event_target_value(&ev);
                                draft.update(|d| d.workspace = v);
                            }
                        >
                            {list
                                .workspaces
                                .into_iter()
                                .map(|w| view! { <option value=w.id.clone()>{w.name}</option> })
                                .collect_view()}
                        </select>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}
