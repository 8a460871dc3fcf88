//! The mission list's workspace filter.

use super::list_view::ListView;
use buildd_core::WorkspaceRef;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

#[component]
pub fn WorkspaceFilter(workspaces: Vec<WorkspaceRef>, shown: ListView) -> impl IntoView {
    let navigate = use_navigate();
    let selected = shown.workspace.clone();
    let on_change = move |ev| {
        let value = event_target_value(&ev);
        let view = ListView {
            workspace: (!value.is_empty()).then_some(value),
            ..shown.clone()
        };
        navigate(&view.href(), Default::default());
    };
    let options = workspaces
        .into_iter()
        .map(|w| {
            let is_selected = selected.as_deref() == Some(w.id.as_str());
            view! {
                <option value=w.id.clone() selected=is_selected>
                    {w.name}
                </option>
            }
        })
        .collect_view();
    view! {
        <label class="field field--inline">
            <span class="field__label">"Workspace"</span>
            <select on:change=on_change data-testid="workspace-filter">
                <option value="" selected=selected.is_none()>
                    "All workspaces"
                </option>
                {options}
            </select>
        </label>
    }
}
