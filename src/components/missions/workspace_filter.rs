//! The mission list's workspace filter, written to the address.

use super::list_view::ListView;
use buildd_core::WorkspaceRef;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

#[component]
pub fn WorkspaceFilter(
    workspaces: Memo<Vec<WorkspaceRef>>,
    shown: Memo<ListView>,
) -> impl IntoView {
    let navigate = use_navigate();
    let on_change = move |ev| {
        let value = event_target_value(&ev);
        let view = ListView {
            workspace: (!value.is_empty()).then_some(value),
            ..shown.get_untracked()
        };
        navigate(&view.href(), Default::default());
    };
    let is_selected = move |id: Option<&str>| shown.with(|s| s.workspace.as_deref() == id);
    view! {
        <label class="field field--inline">
            <span class="field__label">"Workspace"</span>
            <select on:change=on_change data-testid="workspace-filter">
                <option value="" prop:selected=move || is_selected(None)>
                    "All workspaces"
                </option>
                <For each=move || workspaces.get() key=|w| w.id.clone() let:w>
                    <option value=w.id.clone() prop:selected=move || is_selected(Some(&w.id))>
                        {w.name.clone()}
                    </option>
                </For>
            </select>
        </label>
    }
}
